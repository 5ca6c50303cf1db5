func.func @fuzz(%arg0: tensor<8x6xi32>, %arg1: tensor<3x3x11x3xi32>) -> tensor<9x4x6x3xi32> {
  %e1 = tensor.empty() : tensor<8x9x6xi32>
  %c1 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<8x9x6xi32>) -> tensor<8x9x6xi32>
  %v3 = linalg.broadcast ins(%arg0 : tensor<8x6xi32>) outs(%f2 : tensor<8x9x6xi32>) dimensions = [1]
  %e4 = tensor.empty() : tensor<11x8x9x6xi32>
  %c4 = arith.constant 0 : i32
  %v6 = linalg.broadcast ins(%v3 : tensor<8x9x6xi32>) outs(%f5 : tensor<11x8x9x6xi32>) dimensions = [0]
  %f5 = linalg.fill ins(%c4 : i32) outs(%e4 : tensor<11x8x9x6xi32>) -> tensor<11x8x9x6xi32>
  %e7 = tensor.empty() : tensor<9x6x8x11xi32>
  %v8 = linalg.transpose ins(%v6 : tensor<11x8x9x6xi32>) outs(%e7 : tensor<9x6x8x11xi32>) permutation = [2, 3, 1, 0]
  %e9 = tensor.empty() : tensor<9x4x6x3xi32>
  %c9 = arith.constant 0 : i32
  %f10 = linalg.fill ins(%c9 : i32) outs(%e9 : tensor<9x4x6x3xi32>) -> tensor<9x4x6x3xi32>
  %v11 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>} ins(%v8, %arg1 : tensor<9x6x8x11xi32>, tensor<3x3x11x3xi32>) outs(%f10 : tensor<9x4x6x3xi32>) -> tensor<9x4x6x3xi32>
  return %v11 : tensor<9x4x6x3xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2, %h3 = transform.structured.tile_using_forall %h1 num_threads [8, 3, 5, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h4 = transform.structured.match ops{["linalg.broadcast"]} in %root : (!transform.any_op) -> !transform.any_op
    %h5, %h6 = transform.split_handle %h4 : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h7, %h8 = transform.structured.tile_using_for %h5 tile_sizes [0, 5, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h9 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %h10, %h11, %h12 = transform.split_handle %h9 : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %h13, %h14 = transform.structured.fuse_into_containing_op %h10 into %h8 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %h15 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h16 = transform.bufferization.one_shot_bufferize %root : (!transform.any_op) -> !transform.any_op
    %h17 = transform.structured.match ops{["func.func"]} in %h16 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h17 {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.yield
  }
}
