// Differential case from tests/filecheck/transform/structured-fuse-into-containing-op.mlir (@two_containing_ops).
// The containing handle must hold exactly one op (a definite error).
module attributes {transform.with_named_sequence} {
  func.func @two_containing_ops(%A: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
    %r = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
    }
    %s = scf.forall (%i) in (4) shared_outs(%o = %A) -> (tensor<64xf32>) {
    }
    return %r, %s : tensor<64xf32>, tensor<64xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.forall"]} in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires exactly one containing_op handle (got 2)}}
    %a, %b = transform.structured.fuse_into_containing_op %e into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
