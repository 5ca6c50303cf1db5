// Reference schedule (b) with the GPU mapping (bufferized with apply_registered_pass,
// schedir's one_shot_bufferize op aside): blocks, threads, the per-thread k loop.
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_bc = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%A: tensor<256x512xf32>, %B: tensor<512x128xf32>,
                            %bias: tensor<128xf32>, %C: tensor<256x128xf32>)
    -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%zero : f32) outs(%C : tensor<256x128xf32>) -> tensor<256x128xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<256x512xf32>, tensor<512x128xf32>)
                      outs(%acc : tensor<256x128xf32>) -> tensor<256x128xf32>
  %out = linalg.generic {indexing_maps = [#map_id, #map_bc, #map_id],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<256x128xf32>, tensor<128xf32>)
      outs(%C : tensor<256x128xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<256x128xf32>
  return %out : tensor<256x128xf32>
}

