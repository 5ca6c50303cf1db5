// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// Equal pure ops merge (commutative operands compare as a multiset); equal reads merge
// only with no write between them; the handle to a merged duplicate follows the kept op.
// CHECK-LABEL: func.func @cse
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[X:.*]] = arith.addi %{{.*}}, %[[C1]] : index
// CHECK-NEXT:    %[[V0:.*]] = memref.load %{{.*}}[%[[X]]] {merged} : memref<8xf32>
// CHECK-NEXT:    memref.store %[[V0]], %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK-NEXT:    %[[V2:.*]] = memref.load %{{.*}}[%[[X]]] : memref<8xf32>
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[V0]], %[[V0]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[V2]], %[[V2]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[S0]], %[[S1]] : f32
// CHECK-NEXT:    return %[[S]], %[[X]], %[[X]]
module attributes {transform.with_named_sequence} {
  func.func @cse(%a: memref<8xf32>, %i: index, %j: index) -> (f32, index, index) {
    %c1 = arith.constant 1 : index
    %c1b = arith.constant 1 : index
    %x = arith.addi %i, %c1 : index
    %y = arith.addi %c1b, %i : index
    %v0 = memref.load %a[%x] : memref<8xf32>
    %v1 = memref.load %a[%y] : memref<8xf32>
    memref.store %v0, %a[%j] : memref<8xf32>
    %v2 = memref.load %a[%y] : memref<8xf32>
    %v3 = memref.load %a[%x] : memref<8xf32>
    %s0 = arith.addf %v0, %v1 : f32
    %s1 = arith.addf %v2, %v3 : f32
    %s = arith.addf %s0, %s1 : f32
    %dead = arith.muli %x, %y : index
    return %s, %x, %y : f32, index, index
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loads = transform.structured.match ops{["memref.load"]} in %root : (!transform.any_op) -> !transform.any_op
    %first, %second, %third, %fourth = transform.split_handle %loads : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.annotate %second "merged" : !transform.any_op
    transform.yield
  }
}

// -----

// Ops with regions merge when their bodies are equal (here two fused copies of the same
// reduction), and CSE reaches into nested regions, seeing the values defined above.
// CHECK-LABEL: func.func @regions
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         %[[W:.*]] = arith.addf %[[V:.*]], %[[V]] : f32
// CHECK:         scf.for
// CHECK-NEXT:      memref.store %[[W]]
// CHECK:         return %[[R]], %[[R]]
module attributes {transform.with_named_sequence} {
  func.func @regions(%t: tensor<8x16xf32>, %o: tensor<8xf32>, %m: memref<?xf32>, %n: index, %v: f32) -> (tensor<8xf32>, tensor<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<8x16xf32>) outs(%o : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %r1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<8x16xf32>) outs(%o : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%c0] : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %w2 = arith.addf %v, %v : f32
      memref.store %w2, %m[%i] : memref<?xf32>
    }
    return %r0, %r1 : tensor<8xf32>, tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.yield
  }
}

// -----

// A read in a nested block does not merge with one outside (different blocks).
// CHECK-LABEL: func.func @nested_reads
// CHECK:         memref.load
// CHECK:         scf.for
// CHECK-NEXT:      memref.load
module attributes {transform.with_named_sequence} {
  func.func @nested_reads(%m: memref<?xf32>, %n: index) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.load %m[%c0] : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %b = memref.load %m[%c0] : memref<?xf32>
      memref.store %b, %m[%i] : memref<?xf32>
    }
    return %a : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %f : !transform.any_op
    transform.yield
  }
}

// -----

// The target may not contain the schedule.
// expected-note @below {{target payload op}}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{cannot apply transform to itself (or one of its ancestors)}}
    transform.apply_cse to %root : !transform.any_op
    transform.yield
  }
}
