module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<4x16xf32>, %x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x5xf32>, %o: tensor<1x4x4x5xf32>, %v: tensor<8xf32>, %t: tensor<8x4xf32>, %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x16xf32>, %bc: tensor<2x4x16xf32>) -> (tensor<4x16xf32>, tensor<1x4x4x5xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>) {
    %0 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<16x8xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>) outs(%o : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
    %2 = linalg.broadcast ins(%v : tensor<8xf32>) outs(%a : tensor<4x8xf32>) dimensions = [0]
    %3 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) permutation = [1, 0]
    %4 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%bc : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
    %cst = arith.constant 1.0 : f32
    %5 = linalg.fill ins(%cst : f32) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<4x16xf32>, tensor<1x4x4x5xf32>, tensor<4x8xf32>, tensor<8x4xf32>, tensor<2x4x16xf32>, tensor<4x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.generalize %g : (!transform.any_op) -> !transform.any_op
    %t = transform.structured.specialize %s : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
