// Reference schedule (a) with its canonicalize + CSE clean-up.
// Schedule (a): matmul + bias + relu on tensors.
//   1. tile the elementwise consumer (bias+relu) with tile_using_forall,
//   2. fuse its producers (matmul, then fill) into the scf.forall with
//      fuse_into_containing_op (consumer-to-producer order),
//   3. tile the fused matmul on its reduction dim (k) with tile_using_for.
// Run: iree-opt --transform-interpreter a_matmul_bias_relu_tile_fuse.mlir
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_bc = affine_map<(d0, d1) -> (d1)>
module attributes {transform.with_named_sequence} {
  func.func @matmul_bias_relu(%A: tensor<256x512xf32>, %B: tensor<512x128xf32>,
                              %bias: tensor<128xf32>) -> tensor<256x128xf32> {
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<256x128xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<256x128xf32>) -> tensor<256x128xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<256x512xf32>, tensor<512x128xf32>)
                        outs(%acc : tensor<256x128xf32>) -> tensor<256x128xf32>
    %out = linalg.generic {indexing_maps = [#map_id, #map_bc, #map_id],
                           iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<256x128xf32>, tensor<128xf32>)
        outs(%init : tensor<256x128xf32>) {
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    } -> tensor<256x128xf32>
    return %out : tensor<256x128xf32>
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %fill = transform.structured.match ops{["linalg.fill"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    %ew = transform.structured.match ops{["linalg.generic"]} in %root
      : (!transform.any_op) -> !transform.any_op

    // Level 1: 64x32 output tiles, one scf.forall iteration per tile (4x4 grid).
    %tiled_ew, %forall = transform.structured.tile_using_forall %ew tile_sizes [64, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Fuse producers, consumer first: matmul, then the fill feeding it.
    %fused_mm, %forall_1 = transform.structured.fuse_into_containing_op %mm into %forall
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused_fill, %forall_2 = transform.structured.fuse_into_containing_op %fill into %forall_1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Level 2: sequential k loop (tile size 0 = do not tile m and n).
    %tiled_mm, %k_loop = transform.structured.tile_using_for %fused_mm tile_sizes [0, 0, 16]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Cleanup.
    %func = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.yield
  }
}
