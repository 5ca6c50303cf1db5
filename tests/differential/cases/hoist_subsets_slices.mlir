// hoist_loop_invariant_subsets: two disjoint extract/insert_slice pairs become iter_args.
module attributes {transform.with_named_sequence} {
  func.func @hoist(%t: tensor<16xf32>, %n: index, %v: f32) -> tensor<16xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
      %s = tensor.extract_slice %a[0] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %o = tensor.extract_slice %a[8] [4] [1] : tensor<16xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%o : tensor<4xf32>) outs(%f : tensor<4xf32>) {
      ^bb0(%x: f32, %y: f32):
        %z = arith.addf %x, %y : f32
        linalg.yield %z : f32
      } -> tensor<4xf32>
      %u = tensor.insert_slice %g into %a[0] [4] [1] : tensor<4xf32> into tensor<16xf32>
      %w = tensor.insert_slice %o into %u[8] [4] [1] : tensor<4xf32> into tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    }
    return %r : tensor<16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    transform.annotate %l "kept" : !transform.any_op
    transform.yield
  }
}
