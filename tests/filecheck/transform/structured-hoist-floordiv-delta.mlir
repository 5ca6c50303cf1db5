// RUN: schedir-opt %s | filecheck %s

// Two transfers whose column indices are clones of one affine map with floordiv terms
// (the pieces of a thread tile after a tiled loop is unrolled) differ by the constant
// 64 >= 4 lanes: disjoint, so both accumulators become loop-carried vectors (upstream
// composes the maps and gets the same delta). A delta of 2 < 4 overlaps: nothing moves.
// CHECK-LABEL: func.func @floordiv_pieces
// CHECK:       %[[R0:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[I:.*]]], %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK:       %[[R1:.*]] = vector.transfer_read %{{.*}}[%{{.*}}, %[[J:.*]]], %{{.*}} : memref<?x?xf32>, vector<4xf32>
// CHECK:       %[[L:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[R0]], %{{.*}} = %[[R1]])
// CHECK:       vector.transfer_write %[[L]]#1, %{{.*}}[%{{.*}}, %[[J]]]
// CHECK:       vector.transfer_write %[[L]]#0, %{{.*}}[%{{.*}}, %[[I]]]
// CHECK:       scf.for
// CHECK-NEXT:    vector.transfer_read
// CHECK:         vector.transfer_write
// CHECK:         vector.transfer_read
// CHECK:         vector.transfer_write
// CHECK:       }
// CHECK-NEXT:  return
module attributes {transform.with_named_sequence} {
  func.func @floordiv_pieces(%mem: memref<?x?xf32>, %t: index, %u: index, %ub: index, %v: vector<4xf32>) {
    %pad = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + ((s0 + s1 * 16) floordiv 16) * -64)>()[%t, %u]
    %j = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + ((s0 + s1 * 16) floordiv 16) * -64 + 64)>()[%t, %u]
    %k = affine.apply affine_map<()[s0, s1] -> (s0 * 4 + ((s0 + s1 * 16) floordiv 16) * -64 + 2)>()[%t, %u]
    scf.for %x = %c0 to %ub step %c1 {
      %r0 = vector.transfer_read %mem[%u, %i], %pad : memref<?x?xf32>, vector<4xf32>
      %s0 = arith.addf %r0, %v : vector<4xf32>
      vector.transfer_write %s0, %mem[%u, %i] : vector<4xf32>, memref<?x?xf32>
      %r1 = vector.transfer_read %mem[%u, %j], %pad : memref<?x?xf32>, vector<4xf32>
      %s1 = arith.addf %r1, %v : vector<4xf32>
      vector.transfer_write %s1, %mem[%u, %j] : vector<4xf32>, memref<?x?xf32>
    }
    scf.for %x = %c0 to %ub step %c1 {
      %r0 = vector.transfer_read %mem[%u, %i], %pad : memref<?x?xf32>, vector<4xf32>
      %s0 = arith.addf %r0, %v : vector<4xf32>
      vector.transfer_write %s0, %mem[%u, %i] : vector<4xf32>, memref<?x?xf32>
      %r1 = vector.transfer_read %mem[%u, %k], %pad : memref<?x?xf32>, vector<4xf32>
      %s1 = arith.addf %r1, %v : vector<4xf32>
      vector.transfer_write %s1, %mem[%u, %k] : vector<4xf32>, memref<?x?xf32>
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
