// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// The buffer each iteration overwrites (memref.copy into it before any other use) gets
// two copies, rotated by ((iv - lb) floordiv step) mod 2; subviews of it are rebuilt on
// the slice (upstream's memref transform-ops.mlir cases). With dynamic bounds the lower
// bound and step are symbols of the index map.
// CHECK-LABEL: func.func @multi_buffer
// CHECK:       %[[A:.*]] = memref.alloc() {multibuffered} : memref<2x4xf32>
// CHECK:       %[[A2:.*]] = memref.alloc() {multibuffered} : memref<2x4xf32>
// CHECK:       scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[I:.*]] = affine.apply affine_map<(d0) -> ({{.*}}d0 floordiv 4) mod 2{{.*}}>(%[[IV]])
// CHECK-NEXT:    %[[SV:.*]] = memref.subview %[[A]][%[[I]], 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>>
// CHECK:         memref.copy %{{.*}}, %[[SV]] : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[1], offset: ?>>
// CHECK:         %[[SUB:.*]] = memref.subview %[[SV]][2] [2] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<2xf32, strided<[1], offset: ?>>
// CHECK:         memref.load %[[SUB]]
// CHECK:       scf.for %[[IV2:.*]] = %[[LB:.*]] to %{{.*}} step %[[STEP:.*]] {
// CHECK-NEXT:    %[[I2:.*]] = affine.apply affine_map<(d0)[s0, s1] -> ({{.*}}floordiv s1) mod 2{{.*}}>(%[[IV2]])[%[[LB]], %[[STEP]]]
// CHECK-NEXT:    memref.subview %[[A2]][%[[I2]], 0] [1, 4] [1, 1]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloc"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloc">
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.annotate %1 "multibuffered" : !transform.any_op
    transform.yield
  }
  func.func @multi_buffer(%in: memref<16xf32>, %out: memref<16xf32>, %lb: index, %step: index) {
    %tmp = memref.alloc() : memref<4xf32>
    %tmp2 = memref.alloc() : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %i0 = %c0 to %c16 step %c4 {
      %1 = memref.subview %in[%i0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %1, %tmp : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
      %2 = memref.subview %tmp[2] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 2>>
      %v = memref.load %2[%c1] : memref<2xf32, strided<[1], offset: 2>>
      memref.store %v, %out[%i0] : memref<16xf32>
    }
    scf.for %i1 = %lb to %c16 step %step {
      %1 = memref.subview %in[%i1] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %1, %tmp2 : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
      %v = memref.load %tmp2[%c1] : memref<4xf32>
      memref.store %v, %out[%i1] : memref<16xf32>
    }
    return
  }
}

// -----

// An affine.for with a constant lower bound and step.
// CHECK-LABEL: func.func @multi_buffer_on_affine_loop
// CHECK:       %[[A:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK:       affine.for %[[IV:.*]] = 0 to 16 step 4 {
// CHECK-NEXT:    %[[I:.*]] = affine.apply affine_map<(d0) -> ({{.*}}d0 floordiv 4) mod 2{{.*}}>(%[[IV]])
// CHECK-NEXT:    %[[SV:.*]] = memref.subview %[[A]][%[[I]], 0] [1, 4] [1, 1]
// CHECK:         memref.copy %{{.*}}, %[[SV]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloc"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloc">
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.yield
  }
  func.func @multi_buffer_on_affine_loop(%in: memref<16xf32>, %out: memref<16xf32>) {
    %tmp = memref.alloc() : memref<4xf32>
    %c1 = arith.constant 1 : index
    affine.for %i0 = 0 to 16 step 4 {
      %1 = memref.subview %in[%i0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %1, %tmp :  memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
      %v = memref.load %tmp[%c1] : memref<4xf32>
      memref.store %v, %out[%i0] : memref<16xf32>
    }
    return
  }
}

// -----

// An allocation used in two loops, neither dominating the other, fails.
func.func @multi_buffer_uses_with_no_loop_dominator(%in: memref<16xf32>, %cond: i1) {
  // expected-error @below {{op failed to multibuffer}}
  %tmp = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  scf.if %cond {
    scf.for %i0 = %c0 to %c16 step %c4 {
      %var = memref.subview %in[%i0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %var, %tmp :  memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
      memref.copy %tmp, %var :  memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
    }
  }
  scf.for %i0 = %c0 to %c16 step %c4 {
    %1 = memref.subview %in[%i0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
    memref.copy %1, %tmp :  memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
    memref.copy %tmp, %1 :  memref<4xf32> to memref<4xf32, strided<[1], offset: ?>>
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloc"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloc">
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.yield
  }
}

// -----

// The handle type must be memref.alloc.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloca"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloca">
    // expected-error @below {{'transform.memref.multibuffer' op operand #0 must be Transform IR handle to memref.alloc operations, but got '!transform.op<"memref.alloca">'}}
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64}> : (!transform.op<"memref.alloca">) -> !transform.any_op
    transform.yield
  }
}

// -----

// An allocation only used outside loops is skipped (not returned); the one used in the
// loop is multi-buffered.
// CHECK-LABEL: func.func @multi_buffer_one_alloc_with_use_outside_of_loop
// CHECK:       %[[A:.*]] = memref.alloc() {multibuffered} : memref<2x4xf32>
// CHECK:       %[[B:.*]] = memref.alloc() : memref<4xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloc"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloc">
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.annotate %1 "multibuffered" : !transform.any_op
    transform.yield
  }
  func.func @multi_buffer_one_alloc_with_use_outside_of_loop(%in: memref<16xf32>, %x: f32) {
    %tmp = memref.alloc() : memref<4xf32>
    %tmp2 = memref.alloc() : memref<4xf32>
    linalg.fill ins(%x : f32) outs(%tmp2 : memref<4xf32>)
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %i0 = %c0 to %c16 step %c4 {
      %1 = memref.subview %in[%i0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %1, %tmp :  memref<4xf32, strided<[1], offset: ?>> to memref<4xf32>
      linalg.fill ins(%x : f32) outs(%tmp : memref<4xf32>)
    }
    return
  }
}

// -----

// skip_analysis: every use in the loop is enough; a dealloc outside the loop frees the
// new buffer.
// CHECK-LABEL: func.func @multi_buffer_dealloc
// CHECK:       %[[A:.*]] = memref.alloc() : memref<2x4xf32>
// CHECK:       scf.for
// CHECK:         %[[SV:.*]] = memref.subview %[[A]]
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[SV]]
// CHECK-NOT:   memref.dealloc {{.*}} : memref<4xf32>
// CHECK:       memref.dealloc %[[A]] : memref<2x4xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg1: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["memref.alloc"]} in %arg1 : (!transform.any_op) -> !transform.op<"memref.alloc">
    %1 = transform.memref.multibuffer %0 <{factor = 2 : i64, skip_analysis}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.yield
  }
  func.func @multi_buffer_dealloc(%x: f32) {
    %tmp = memref.alloc() : memref<4xf32>
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    scf.for %i0 = %c0 to %c16 step %c4 {
      linalg.fill ins(%x : f32) outs(%tmp : memref<4xf32>)
    }
    memref.dealloc %tmp : memref<4xf32>
    return
  }
}
