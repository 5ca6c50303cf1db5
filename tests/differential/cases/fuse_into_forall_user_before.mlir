// Differential case: the producer is also used *before* the forall (a use the forall does
// not dominate): the full producer stays for it and the fused tile is a recomputation,
// with no new shared output (transform-inventory §4.6).
#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<21x18xf32>, %D: tensor<21x18xf32>, %C: tensor<21x18xf32>, %E: tensor<21x18xf32>) -> (tensor<21x18xf32>, tensor<21x18xf32>) {
    %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%A : tensor<21x18xf32>) outs(%D : tensor<21x18xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<21x18xf32>
    %before = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<21x18xf32>) outs(%E : tensor<21x18xf32>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    } -> tensor<21x18xf32>
    %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%A, %p : tensor<21x18xf32>, tensor<21x18xf32>) outs(%C : tensor<21x18xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<21x18xf32>
    return %r, %before : tensor<21x18xf32>, tensor<21x18xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %prod, %before, %cons = transform.split_handle %g : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t, %l = transform.structured.tile_using_forall %cons tile_sizes [5, 7] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %l2 = transform.structured.fuse_into_containing_op %prod into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
