func.func @fuzz(%arg0: tensor<9x11xi32>, %arg1: tensor<11xi32>, %arg2: tensor<9xi32>, %arg3: tensor<17x9xi32>) -> tensor<17x9xi32> {
  %e1 = tensor.empty() : tensor<9xi32>
  %c1 = arith.constant 0 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<9xi32>) -> tensor<9xi32>
  %v3 = linalg.matvec ins(%arg0, %arg1 : tensor<9x11xi32>, tensor<11xi32>) outs(%f2 : tensor<9xi32>) -> tensor<9xi32>
  %e4 = tensor.empty() : tensor<9xi32>
  %v5 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v3, %arg2 : tensor<9xi32>, tensor<9xi32>) outs(%e4 : tensor<9xi32>) {
  ^bb0(%b4_in0: i32, %b4_in1: i32, %b4_out: i32):
    %b4_0_0 = arith.addi %b4_in1, %b4_in0 : i32
    %b4_1_0 = arith.muli %b4_in0, %b4_in0 : i32
    %b4_2_0 = arith.maxsi %b4_in1, %b4_0_0 : i32
    linalg.yield %b4_2_0 : i32
  } -> tensor<9xi32>
  %e6 = tensor.empty() : tensor<17x9xi32>
  %c6 = arith.constant 0 : i32
  %f7 = linalg.fill ins(%c6 : i32) outs(%e6 : tensor<17x9xi32>) -> tensor<17x9xi32>
  %v8 = linalg.broadcast ins(%v5 : tensor<9xi32>) outs(%f7 : tensor<17x9xi32>) dimensions = [0]
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v8 : tensor<17x9xi32>) outs(%arg3 : tensor<17x9xi32>) {
  ^bb0(%b8_in0: i32, %b8_out: i32):
    %b8_0_0 = arith.minsi %b8_in0, %b8_in0 : i32
    %b8_1_0 = arith.subi %b8_in0, %b8_in0 : i32
    %b8_2_0 = arith.subi %b8_1_0, %b8_0_0 : i32
    linalg.yield %b8_2_0 : i32
  } -> tensor<17x9xi32>
  return %v9 : tensor<17x9xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %h1 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %h2 = transform.structured.vectorize_children_and_apply_patterns %h1 : (!transform.any_op) -> !transform.any_op
    %h3 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %h3 { transform.apply_patterns.canonicalization } : !transform.any_op
    transform.yield
  }
}
