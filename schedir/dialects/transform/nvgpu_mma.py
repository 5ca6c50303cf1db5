"""Upstream's `transform.nvgpu.rewrite_matmul_as_mma_sync` (NVGPUTransformOps.td): the
warp-level tensor-core route (sm_80+), for what wgmma cannot tile and for pre-Hopper GPUs.

Applied by `schedir.transform.ops.nvgpu_mma`.
"""

from __future__ import annotations

from xdsl.dialects.transform import TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def

from schedir.dialects.transform._syntax import irdl_transform_op


@irdl_transform_op
class RewriteMatmulAsMmaSyncOp(IRDLOperation):
    """Rewrites a `linalg.matmul` on memrefs that one warp computes into `nvgpu.mma.sync`
    on the fragments each lane holds, with the loads and stores of the fragments.

    ```mlir
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    // linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
    // -> %lane = gpu.lane_id; 8 memref.load of A, 4 of B, 4 of C at the lane's fragment
    //    positions; %d = nvgpu.mma.sync(%fa, %fb, %fc) mmaShape = [16, 8, 16]
    //    : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>;
    //    4 memref.store of %d into C
    ```

    The fragments follow the PTX ISA's mma.sync layout (groupID g = lane / 4, t = lane %
    4; f16/bf16 m16n8k16: A register i holds row g + 8 (i % 2), columns 2t + {0, 1} +
    8 (i / 2); B register i holds k = 2t + {0, 1} + 8i at column g; C register i holds row
    g + 8i, columns 2t + {0, 1}; f32 operands run as tf32 m16n8k4).

    Upstream rewrites exactly one 16x8x16 f16 (f16 accumulator) or 16x8x4 tf32 matmul and
    takes `thread_id x` as the lane (one warp). schedir's extensions: f32 accumulation of
    f16 and bf16; any M x N x K, rounded up to whole mma tiles (up to 512 mma.sync per
    warp, fully unrolled); the lane is `gpu.lane_id`, so the target may be one warp's tile
    of a block (map it to warps first); dynamic sizes with a constant bound (an edge
    tile); elements past the operands' sizes are not loaded (they read as 0) and not
    stored; operands in shared memory (16-bit elements, bounds of whole tiles) load
    through `nvgpu.ldmatrix` (A: x4 with lane l at row m0 + l % 16, column k0 + 8 (l /
    16); B, k-major: x4 `transpose` over two n tiles, or x2) where a warp-uniform run-time
    check finds each lane's 16-byte row address aligned and the view as large as its
    bound, and through the masked element loads otherwise (an edge tile, a misaligned
    view; LLVM folds the check where the alignment is known); and a matmul directly in an
    `scf.for` whose C (and what C is computed from) does not depend on the loop and is not
    used elsewhere in it gets its C fragments loaded before the loop, carried through it
    in registers and stored after it.

    Return modes: consumes the target; produces no handle. Silenceable failure (the reason
    at the payload op, then "unsupported target op" at this op) when a target is not a
    plain `linalg.matmul` on 2-D memrefs with f16 x f16 -> f16/f32, bf16 x bf16 -> f32 or
    f32 x f32 -> f32 elements and static or bounded sizes, or needs more than 512
    mma.sync; that target is then unchanged.
    """

    name = "transform.nvgpu.rewrite_matmul_as_mma_sync"

    target = operand_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` `(` type($target) `)` `->` `(` `)`"


OPS: tuple[type[IRDLOperation], ...] = (RewriteMatmulAsMmaSyncOp,)

__all__ = ["OPS", "RewriteMatmulAsMmaSyncOp"]
