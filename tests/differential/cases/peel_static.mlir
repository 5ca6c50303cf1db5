// loop.peel with static bounds: split point and min/max rewriting (a dynamic upper bound
// gives a `mod` by a symbol, which schedir's affine parser cannot read back yet).
module attributes {transform.with_named_sequence} {
func.func @g(%t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%a = %t) -> (tensor<10xf32>) {
    %s = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%i)
    %e = tensor.extract_slice %a[%i] [%s] [1] : tensor<10xf32> to tensor<?xf32>
    %f = linalg.fill ins(%v : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    %b = tensor.insert_slice %f into %a[%i] [%s] [1] : tensor<?xf32> into tensor<10xf32>
    scf.yield %b : tensor<10xf32>
  }
  return %r : tensor<10xf32>
}
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %m2, %p2 = transform.loop.peel %l : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    transform.annotate %p2 "partial2" : !transform.any_op
    transform.yield
  }
}
