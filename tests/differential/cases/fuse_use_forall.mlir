// Differential case from tests/filecheck/transform/structured-fuse.mlir (@use_forall).
// use_forall: one scf.forall, not normalized (unlike tile_using_forall).
module attributes {transform.with_named_sequence} {
  func.func @use_forall(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %bias: tensor<53xf32>) -> tensor<37x53xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<37x53xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%acc : tensor<37x53xf32>) -> tensor<37x53xf32>
    %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<37x53xf32>, tensor<53xf32>) outs(%init : tensor<37x53xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<37x53xf32>
    return %out : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ew = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.fuse %ew tile_sizes [8, 16] use_forall : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
