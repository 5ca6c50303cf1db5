// hoist_loop_invariant_subsets: a transfer_read/transfer_write pair on a tensor.
module attributes {transform.with_named_sequence} {
  func.func @hoistv(%t: tensor<16xf32>, %n: index, %v: vector<4xf32>) -> tensor<16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %pad = arith.constant 0.0 : f32
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %x = vector.transfer_read %a[%c4], %pad {in_bounds = [true]} : tensor<16xf32>, vector<4xf32>
      %y = arith.addf %x, %v : vector<4xf32>
      %w = vector.transfer_write %y, %a[%c4] {in_bounds = [true]} : vector<4xf32>, tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    }
    return %r : tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    transform.yield
  }
}
