func.func @fuzz(%arg0: tensor<13x9xi32>, %arg1: tensor<9xi32>, %arg2: tensor<i32>) -> tensor<i32> {
  %e1 = tensor.empty() : tensor<13xi32>
  %c1 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<13xi32>) -> tensor<13xi32>
  %v3 = linalg.matvec ins(%arg0, %arg1 : tensor<13x9xi32>, tensor<9xi32>) outs(%f2 : tensor<13xi32>) -> tensor<13xi32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%v3 : tensor<13xi32>) outs(%arg2 : tensor<i32>) {
  ^bb0(%b3_in0: i32, %b3_out: i32):
    %b3_r = arith.addi %b3_in0, %b3_out : i32
    linalg.yield %b3_r : i32
  } -> tensor<i32>
  return %v4 : tensor<i32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.bufferization.one_shot_bufferize %root <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    %h2 = transform.structured.match ops{["func.func"]} in %h1 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h2 {
    } : !transform.any_op
    transform.yield
  }
}
