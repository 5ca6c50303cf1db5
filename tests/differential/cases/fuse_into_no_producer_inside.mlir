// Differential case: fuse_into_containing_op error: no producer used inside the containing op.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<64xf32>, %C: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %cst = arith.constant 1.0 : f32
    %fill = linalg.fill ins(%cst : f32) outs(%C : tensor<64xf32>) -> tensor<64xf32>
    %r = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
      %t = tensor.extract_slice %A[0] [16] [1] : tensor<64xf32> to tensor<16xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %t into %o[0] [16] [1] : tensor<16xf32> into tensor<64xf32>
      }
    }
    return %r, %fill : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fi = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %a, %b = transform.structured.fuse_into_containing_op %fi into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
