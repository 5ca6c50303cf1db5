// Differential case: tiling linalg.reduce, transpose, broadcast and a two-result generic.
module attributes {transform.with_named_sequence} {
  func.func @f(%A: tensor<13x17xf32>, %R: tensor<13xf32>, %T: tensor<17x13xf32>, %V: tensor<11xf32>, %Bc: tensor<11x9xf32>, %O1: tensor<13x17xf32>, %O2: tensor<13x17xf32>)
      -> (tensor<13xf32>, tensor<17x13xf32>, tensor<11x9xf32>, tensor<13x17xf32>, tensor<13x17xf32>) {
    %red = linalg.reduce ins(%A : tensor<13x17xf32>) outs(%R : tensor<13xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
    %tr = linalg.transpose ins(%A : tensor<13x17xf32>) outs(%T : tensor<17x13xf32>) permutation = [1, 0]
    %bc = linalg.broadcast ins(%V : tensor<11xf32>) outs(%Bc : tensor<11x9xf32>) dimensions = [1]
    %two:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%A : tensor<13x17xf32>) outs(%O1, %O2 : tensor<13x17xf32>, tensor<13x17xf32>) {
    ^bb0(%a: f32, %o1: f32, %o2: f32):
      %n = arith.negf %a : f32
      linalg.yield %a, %n : f32, f32
    } -> (tensor<13x17xf32>, tensor<13x17xf32>)
    return %red, %tr, %bc, %two#0, %two#1 : tensor<13xf32>, tensor<17x13xf32>, tensor<11x9xf32>, tensor<13x17xf32>, tensor<13x17xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %red = transform.structured.match ops{["linalg.reduce"]} in %root : (!transform.any_op) -> !transform.any_op
    %tr = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %bc = transform.structured.match ops{["linalg.broadcast"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1:2 = transform.structured.tile_using_for %red tile_sizes [4, 5] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t2, %l2 = transform.structured.tile_using_forall %tr tile_sizes [3, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t3, %l3 = transform.structured.tile_using_forall %bc num_threads [2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t4, %l4 = transform.structured.tile_using_for %g tile_sizes [0, 6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
