// RUN: schedir-opt %s -p buffer-results-to-out-params --split-input-file | filecheck %s
// RUN: schedir-opt %s -p 'buffer-results-to-out-params{hoist-static-allocs=true}' --split-input-file | filecheck %s --check-prefix=HOIST

// A static result becomes a trailing out-parameter. Without hoisting the result is
// copied into it and the buffer that was returned is freed.
// CHECK-LABEL: func.func @static
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// CHECK:         %[[R:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[A]], %[[R]]
// CHECK-NEXT:    memref.copy %[[R]], %[[OUT]] : memref<4xf32> to memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[R]] : memref<4xf32>
// CHECK-NEXT:    return{{$}}
// With hoisting the allocation is the out-parameter: no copy.
// HOIST-LABEL: func.func @static
// HOIST-SAME:    (%[[A:.*]]: memref<4xf32>, %[[OUT:.*]]: memref<4xf32>) {
// HOIST-NEXT:    memref.copy %[[A]], %[[OUT]]
// HOIST-NEXT:    return{{$}}
func.func @static(%a: memref<4xf32>) -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  memref.copy %a, %r : memref<4xf32> to memref<4xf32>
  return %r : memref<4xf32>
}

// Call sites allocate the out buffer; what freed the result now frees it.
// CHECK-LABEL: func.func @caller
// CHECK:         %[[BUF:.*]] = memref.alloc() alignment = 64 : memref<4xf32>
// CHECK-NEXT:    call @static(%{{.*}}, %[[BUF]]) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK:         memref.load %[[BUF]]
// CHECK-NEXT:    memref.dealloc %[[BUF]]
func.func @caller(%a: memref<4xf32>) -> f32 {
  %r = func.call @static(%a) : (memref<4xf32>) -> memref<4xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %r[%c0] : memref<4xf32>
  memref.dealloc %r : memref<4xf32>
  return %x : f32
}

// -----

// Scalar and dynamically shaped results stay results; out-parameters keep result order.
// CHECK-LABEL: func.func @mixed
// CHECK-SAME:    (%{{.*}}: memref<4xf32>, %{{.*}}: index, %[[OUT0:.*]]: memref<2x3xf32>, %[[OUT1:.*]]: memref<5xi32>) -> (f32, memref<?xf32>)
// CHECK:         memref.copy %{{.*}}, %[[OUT0]] : memref<2x3xf32> to memref<2x3xf32>
// CHECK:         memref.copy %{{.*}}, %[[OUT1]] : memref<5xi32> to memref<5xi32>
// CHECK:         return %{{.*}}, %{{.*}} : f32, memref<?xf32>
// HOIST-LABEL: func.func @mixed
// HOIST-NOT:     memref.alloc()
// HOIST:         memref.alloc(%{{.*}}) : memref<?xf32>
// HOIST-NOT:     memref.copy
// HOIST:         return %{{.*}}, %{{.*}} : f32, memref<?xf32>
func.func @mixed(%a: memref<4xf32>, %n: index) -> (f32, memref<2x3xf32>, memref<?xf32>, memref<5xi32>) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %s = memref.alloc() : memref<2x3xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %i = memref.alloc() : memref<5xi32>
  return %x, %s, %d, %i : f32, memref<2x3xf32>, memref<?xf32>, memref<5xi32>
}

// -----

// A returned argument is copied (and never freed); so is a view with a fully dynamic
// layout, into an identity buffer; its call sites cast the buffer to the result type.
// CHECK-LABEL: func.func @not_allocations
// CHECK-SAME:    (%[[A:.*]]: memref<8xf32>, %[[N:.*]]: index, %[[OUT0:.*]]: memref<8xf32>, %[[OUT1:.*]]: memref<4xf32>)
// CHECK:         %[[V:.*]] = memref.subview %[[A]][%[[N]]] [4] [1]
// CHECK-NEXT:    memref.copy %[[A]], %[[OUT0]]
// CHECK-NEXT:    memref.copy %[[V]], %[[OUT1]] : memref<4xf32, strided<[?], offset: ?>> to memref<4xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         return
// CHECK-LABEL: func.func @view_caller
// CHECK:         %[[B0:.*]] = memref.alloc() alignment = 64 : memref<8xf32>
// CHECK-NEXT:    %[[B1:.*]] = memref.alloc() alignment = 64 : memref<4xf32>
// CHECK-NEXT:    call @not_allocations(%{{.*}}, %{{.*}}, %[[B0]], %[[B1]])
// CHECK-NEXT:    %[[C:.*]] = memref.cast %[[B1]] : memref<4xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK:         memref.load %[[C]]
func.func @not_allocations(%a: memref<8xf32>, %n: index) -> (memref<8xf32>, memref<4xf32, strided<[?], offset: ?>>) {
  %v = memref.subview %a[%n] [4] [1] : memref<8xf32> to memref<4xf32, strided<[?], offset: ?>>
  return %a, %v : memref<8xf32>, memref<4xf32, strided<[?], offset: ?>>
}
func.func @view_caller(%a: memref<8xf32>, %n: index) -> f32 {
  %r:2 = func.call @not_allocations(%a, %n) : (memref<8xf32>, index) -> (memref<8xf32>, memref<4xf32, strided<[?], offset: ?>>)
  %x = memref.load %r#1[%n] : memref<4xf32, strided<[?], offset: ?>>
  return %x : f32
}
