// apply_patterns inlines a one-iteration loop whose handle is used later: tracking failure.
module attributes {transform.with_named_sequence} {
func.func @f(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %t) -> (tensor<8xf32>) {
    %b = tensor.insert %v into %a[%i] : tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.annotate %l "x" : !transform.any_op
    transform.yield
  }
}
