#mA = affine_map<(k, i, j) -> (i, k)>
#mB = affine_map<(k, i, j) -> (k, j)>
#mC = affine_map<(k, i, j) -> (i, j)>
func.func @fuzz(%arg0: tensor<6x1xi32>, %arg1: tensor<1x4xi32>) -> tensor<6x4xi32> {
  %e1 = tensor.empty() : tensor<6x4xi32>
  %c1 = arith.constant 7 : i32
  %f2 = linalg.fill ins(%c1 : i32) outs(%e1 : tensor<6x4xi32>) -> tensor<6x4xi32>
  %v3 = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["reduction", "parallel", "parallel"]}
      ins(%arg0, %arg1 : tensor<6x1xi32>, tensor<1x4xi32>) outs(%f2 : tensor<6x4xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32):
    %s = arith.subi %a, %b : i32
    %m = arith.addi %s, %c : i32
    linalg.yield %m : i32
  } -> tensor<6x4xi32>
  return %v3 : tensor<6x4xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %h4 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %h4 : !transform.any_op
    transform.yield
  }
}
