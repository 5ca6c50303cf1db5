// RUN: schedir-opt %s | filecheck %s

// The pattern set folds only upstream's `linalg.add` (which neither schedir's parser nor
// the installed upstream one reads any more; tests/unit/transform/test_fold_add_into_dest.py
// builds it in Python): an add written as a linalg.generic is left alone, as upstream's
// interpreter leaves it, and the zero-initialized matmul keeps its destination.
// CHECK-LABEL: func.func @generic_add_is_kept
// CHECK:         %[[Z:.*]] = linalg.fill
// CHECK:         %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<5x7xf32>, tensor<7x3xf32>) outs(%[[Z]] : tensor<5x3xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[MM]], %{{.*}} : tensor<5x3xf32>, tensor<5x3xf32>)
// CHECK:           arith.addf
// CHECK:         return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @generic_add_is_kept(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>, %d: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<5x3xf32>
    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%z : tensor<5x3xf32>) -> tensor<5x3xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %d : tensor<5x3xf32>, tensor<5x3xf32>) outs(%e : tensor<5x3xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<5x3xf32>
    return %r : tensor<5x3xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.linalg.fold_add_into_dest
    } : !transform.any_op
    transform.yield
  }
}
