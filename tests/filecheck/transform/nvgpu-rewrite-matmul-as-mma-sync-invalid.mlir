// UPSTREAM-LACKS: schedir extends the op (f32 accumulation of f16/bf16, warp tiles of several mma tiles, gpu.lane_id, bounded dynamic sizes); upstream refuses or rewrites these differently.
// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// What rewrite_matmul_as_mma_sync cannot rewrite is a silenceable failure: the reason at
// the matmul, "unsupported target op" at the transform op; the matmul stays.

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @bf16_acc(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xbf16>) {
    // expected-error @below {{'linalg.matmul' op no mma.sync for bf16 x bf16 -> bf16 (f16 x f16 -> f16/f32, bf16 x bf16 -> f32, f32 x f32 -> f32 as tf32)}}
    linalg.matmul ins(%a, %b : memref<16x16xbf16>, memref<16x8xbf16>) outs(%c : memref<16x8xbf16>)
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @dynamic(%a: memref<?x16xf16>, %b: memref<16x8xf16>, %c: memref<?x8xf32>) {
    // expected-error @below {{'linalg.matmul' op size 0 of A is dynamic without a constant bound (tile it first)}}
    linalg.matmul ins(%a, %b : memref<?x16xf16>, memref<16x8xf16>) outs(%c : memref<?x8xf32>)
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @too_big(%a: memref<256x64xf16>, %b: memref<64x256xf16>, %c: memref<256x256xf32>) {
    // expected-error @below {{'linalg.matmul' op the 256x256x64 matmul needs 2048 mma.sync per warp (at most 512: tile it over more warps or a smaller k step)}}
    linalg.matmul ins(%a, %b : memref<256x64xf16>, memref<64x256xf16>) outs(%c : memref<256x256xf32>)
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @tensors(%a: tensor<16x16xf16>, %b: tensor<16x8xf16>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
    // expected-error @below {{'linalg.matmul' op matmul is not on 2-D memrefs (bufferize first)}}
    %r = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x8xf16>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
    return %r : tensor<16x8xf32>
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @transposed(%a: memref<16x16xf16>, %b: memref<8x16xf16>, %c: memref<16x8xf32>) {
    // expected-error @below {{'linalg.matmul' op only matmul ops with non-extended semantics are supported}}
    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
                  ins(%a, %b : memref<16x16xf16>, memref<8x16xf16>) outs(%c : memref<16x8xf32>)
    return
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsupported target op}}
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @not_matmul(%c: memref<16x8xf32>) {
    %z = arith.constant 0.0 : f32
    // expected-error @below {{'linalg.fill' op target is not a linalg.matmul}}
    linalg.fill ins(%z : f32) outs(%c : memref<16x8xf32>)
    return
  }
}
