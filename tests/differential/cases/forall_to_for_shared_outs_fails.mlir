// loop.forall_to_for refuses a forall with shared_outs (silenceable error).
module attributes {transform.with_named_sequence} {
func.func @g(%t: tensor<8x16xf32>, %v: f32) -> tensor<8x16xf32> {
  %r = scf.forall (%i, %j) in (2, 4) shared_outs(%o = %t) -> (tensor<8x16xf32>) {
    %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 4)>(%j)
    %e = tensor.extract_slice %o[%oi, %oj] [4, 4] [1, 1] : tensor<8x16xf32> to tensor<4x4xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%oi, %oj] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<8x16xf32>
    }
  }
  return %r : tensor<8x16xf32>
}
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.loop.forall_to_for %l : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %a "outer" : !transform.any_op
    transform.annotate %b "inner" : !transform.any_op
    transform.yield
  }
}
