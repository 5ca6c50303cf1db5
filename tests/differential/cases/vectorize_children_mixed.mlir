// vectorize_children_and_apply_patterns on a function of elementwise, transposing,
// reducing and mixed-precision contracting generics, a fill and a static insert_slice.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#red = affine_map<(d0, d1) -> (d0)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func @mixed(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %t: tensor<8x4xf32>, %r: tensor<4xf32>,
                   %h: tensor<4x8xf16>, %k: tensor<8x2xf16>, %acc: tensor<4x2xf32>, %d: tensor<16x16xf32>, %i: index)
      -> (tensor<8x4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<16x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x8xf32>) outs(%t : tensor<8x4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<8x4xf32>
    %2 = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<4x8xf32>) outs(%r : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %o : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    %3 = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %k : tensor<4x8xf16>, tensor<8x2xf16>) outs(%acc : tensor<4x2xf32>) {
    ^bb0(%x: f16, %y: f16, %o: f32):
      %xe = arith.extf %x : f16 to f32
      %ye = arith.extf %y : f16 to f32
      %m = arith.mulf %xe, %ye : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<4x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%d : tensor<16x16xf32>) -> tensor<16x16xf32>
    %4 = tensor.insert_slice %0 into %f[%i, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x16xf32>
    return %1, %2, %3, %4 : tensor<8x4xf32>, tensor<4xf32>, tensor<4x2xf32>, tensor<16x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
