func.func @fuzz(%arg0: tensor<13x4xi32>, %arg1: tensor<13x4x9xi32>, %arg2: tensor<13x11x9xi32>) -> tensor<13x11x9xi32> {
  %e1 = tensor.empty() : tensor<13x4xi32>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<13x4xi32>) outs(%e1 : tensor<13x4xi32>) {
  ^bb0(%b1_in0: i32, %b1_out: i32):
    %b1_0_0 = arith.addi %b1_in0, %b1_in0 : i32
    %b1_1_0 = arith.addi %b1_in0, %b1_in0 : i32
    linalg.yield %b1_1_0 : i32
  } -> tensor<13x4xi32>
  %e3 = tensor.empty() : tensor<13x11x4xi32>
  %v4 = linalg.broadcast ins(%v2 : tensor<13x4xi32>) outs(%e3 : tensor<13x11x4xi32>) dimensions = [1]
  %v5 = linalg.batch_matmul ins(%v4, %arg1 : tensor<13x11x4xi32>, tensor<13x4x9xi32>) outs(%arg2 : tensor<13x11x9xi32>) -> tensor<13x11x9xi32>
  return %v5 : tensor<13x11x9xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.structured.tile_using_for %h1 tile_sizes [1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %h3 factor = 400000000 : !transform.any_op
    %h4 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h4 : !transform.any_op
    transform.yield
  }
}
