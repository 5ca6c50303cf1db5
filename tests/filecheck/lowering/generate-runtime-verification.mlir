// RUN: schedir-opt %s -p generate-runtime-verification --split-input-file | filecheck %s

// A dynamic index is checked against the static size; the message names the op's location.
// CHECK:       func.func private @__schedir_runtime_check_failed(!llvm.ptr, i64, i64)
// CHECK:       llvm.mlir.global internal constant @__schedir_check_0("{{.*}}generate-runtime-verification.mlir:17:8{{.}}0A'tensor.extract' op out-of-bounds access: index {0} is not in {{\[}}0, {1}) in dimension 0
// CHECK-LABEL: func.func @extract
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[C5:.*]] = arith.constant 5 : index
// CHECK:       %[[LOW:.*]] = arith.cmpi slt, %[[I:.*]], %[[C0]] : index
// CHECK:       %[[HIGH:.*]] = arith.cmpi sge, %[[I]], %[[C5]] : index
// CHECK:       %[[BAD:.*]] = arith.ori %[[LOW]], %[[HIGH]] : i1
// CHECK:       scf.if %[[BAD]] {
// CHECK:         llvm.mlir.addressof @__schedir_check_0 : !llvm.ptr
// CHECK:         func.call @__schedir_runtime_check_failed
// CHECK:       tensor.extract
func.func @extract(%t: tensor<5xf32>, %i: index) -> f32 {
  %x = tensor.extract %t[%i] : tensor<5xf32>
  return %x : f32
}

// -----

// Constant indices inside the bounds need no check.
// CHECK-LABEL: func.func @constant_in_bounds
// CHECK-NOT:   scf.if
// CHECK:       tensor.extract
func.func @constant_in_bounds(%t: tensor<5x3xf32>) -> f32 {
  %c4 = arith.constant 4 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %t[%c4, %c2] : tensor<5x3xf32>
  return %x : f32
}

// -----

// A dynamic memref size comes from memref.dim.
// CHECK-LABEL: func.func @load
// CHECK:       %[[D:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK:       arith.cmpi sge, %{{.*}}, %[[D]] : index
// CHECK:       scf.if
// CHECK:       memref.load
func.func @load(%m: memref<?xf32>, %i: index) -> f32 {
  %x = memref.load %m[%i] : memref<?xf32>
  return %x : f32
}

// -----

// Signed division: zero divisor, then INT_MIN / -1; unsigned: only the zero divisor.
// CHECK-LABEL: func.func @divide
// CHECK:       %[[Z:.*]] = arith.constant 0 : i32
// CHECK:       arith.cmpi eq, %[[B:.*]], %[[Z]] : i32
// CHECK:       scf.if
// CHECK:       arith.constant -2147483648 : i32
// CHECK:       arith.constant -1 : i32
// CHECK:       scf.if
// CHECK:       arith.divsi
// CHECK:       arith.cmpi eq
// CHECK:       scf.if
// CHECK-NOT:   scf.if
// CHECK:       arith.remui
func.func @divide(%a: i32, %b: i32) -> (i32, i32) {
  %q = arith.divsi %a, %b : i32
  %r = arith.remui %a, %b : i32
  return %q, %r : i32, i32
}

// -----

// A constant divisor other than 0 and -1 needs no check.
// CHECK-LABEL: func.func @by_seven
// CHECK-NOT:   scf.if
func.func @by_seven(%a: index) -> index {
  %c7 = arith.constant 7 : index
  %q = arith.floordivsi %a, %c7 : index
  return %q : index
}

// -----

// A slice: per dimension, the offset and the last index of a non-empty slice.
// CHECK-LABEL: func.func @slice
// CHECK:       arith.cmpi sgt
// CHECK:       scf.if
// CHECK:       arith.muli
// CHECK:       arith.addi
// CHECK:       scf.if
// CHECK:       memref.subview
func.func @slice(%m: memref<10xf32>, %o: index, %n: index) -> memref<?xf32, strided<[2], offset: ?>> {
  %s = memref.subview %m[%o] [%n] [2] : memref<10xf32> to memref<?xf32, strided<[2], offset: ?>>
  return %s : memref<?xf32, strided<[2], offset: ?>>
}

// -----

// Structured ops on dynamic shapes: each operand dimension against the inferred loop size.
// CHECK-LABEL: func.func @matmul
// CHECK:       %[[K1:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:       %[[K2:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x?xf32>
// CHECK:       arith.cmpi ne, %[[K1]], %[[K2]] : index
// CHECK:       scf.if
// CHECK:       scf.if
// CHECK:       scf.if
// CHECK-NOT:   scf.if
// CHECK:       linalg.matmul
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A compound index (d0 + d1) must stay inside the operand: affine.apply at the last iteration.
// CHECK-LABEL: func.func @window
// CHECK:       affine.apply
// CHECK:       arith.cmpi sgt
// CHECK:       scf.if
// CHECK:       linalg.generic
func.func @window(%x: tensor<?xf32>, %w: tensor<3xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<?xf32>, tensor<3xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A cast to a static size checks the dynamic one.
// CHECK-LABEL: func.func @cast
// CHECK:       %[[D:.*]] = tensor.dim
// CHECK:       arith.cmpi ne, %[[D]], %{{.*}} : index
// CHECK:       scf.if
// CHECK:       tensor.cast
func.func @cast(%t: tensor<?xf32>) -> tensor<6xf32> {
  %c = tensor.cast %t : tensor<?xf32> to tensor<6xf32>
  return %c : tensor<6xf32>
}

// -----

// A dynamic dimension index must be below the rank; a constant one needs no check.
// CHECK-LABEL: func.func @dim
// CHECK:       %[[R:.*]] = arith.constant 2 : index
// CHECK:       arith.cmpi sge, %{{.*}}, %[[R]] : index
// CHECK:       scf.if
// CHECK:       tensor.dim
// CHECK-NOT:   scf.if
// CHECK:       tensor.dim
func.func @dim(%t: tensor<?x4xf32>, %i: index) -> (index, index) {
  %d = tensor.dim %t, %i : tensor<?x4xf32>
  %c0 = arith.constant 0 : index
  %e = tensor.dim %t, %c0 : tensor<?x4xf32>
  return %d, %e : index, index
}
