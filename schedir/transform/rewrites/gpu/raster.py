"""Grouped (L2-aware) raster order of a launch's blocks (schedir's extension; upstream has
no transform for it): blocks that run at the same time share operand tiles in L2.

A `gpu.launch` over a 2-D grid runs its blocks in linear order, x fastest: with blocks
mapped to tiles of C (y: rows of tiles, x: columns), the blocks resident at once cover a
few full rows of tiles and so read all of B. With a group of G rows, the linear block id
p = y * gx + x walks G rows of tiles column by column instead (Triton's `GROUP_SIZE_M`):

    width = G * gx;  first = (p / width) * G;  rows = min(gy - first, G)
    y' = first + (p mod width) mod rows;  x' = (p mod width) / rows

and every use of the block's x and y ids in the launch (the body's block-id arguments and
its `gpu.block_id x` / `gpu.block_id y` ops) reads x' and y' instead. (x', y') is a
permutation of the grid, so every block still computes exactly one tile; G = 1 is the
launch's own order.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu
from schedir.transform.rewrites.rewriter import PayloadRewriteError, emit

MAX_GROUP = 1 << 16
"""Largest group of rows (a grid dimension has at most 65535 blocks along y)."""


class RasterRewriteError(PayloadRewriteError):
    """A launch whose blocks cannot be reordered, with the reason and the op to blame."""


def grouped_tile(
    rewriter: PatternRewriter,
    at: InsertPoint,
    linear: SSAValue,
    tiles_x: SSAValue,
    tiles_y: SSAValue,
    group: int,
) -> tuple[SSAValue, SSAValue]:
    """The tile (x', y') that linear position `linear` takes in groups of `group` rows of a
    `tiles_x` x `tiles_y` grid of tiles, walked column by column (the module docstring)."""

    def const(value: int) -> SSAValue:
        return emit(rewriter, at, arith.ConstantOp(IntegerAttr(value, IndexType())))

    g = const(group)
    width = emit(rewriter, at, arith.MuliOp(g, tiles_x))
    first = emit(rewriter, at, arith.MuliOp(emit(rewriter, at, arith.DivUIOp(linear, width)), g))
    rows = emit(rewriter, at, arith.MinUIOp(emit(rewriter, at, arith.SubiOp(tiles_y, first)), g))
    within = emit(rewriter, at, arith.RemUIOp(linear, width))
    new_y = emit(rewriter, at, arith.AddiOp(first, emit(rewriter, at, arith.RemUIOp(within, rows))))
    new_x = emit(rewriter, at, arith.DivUIOp(within, rows))
    return new_x, new_y


def raster_blocks(rewriter: PatternRewriter, launch: Operation, group: int) -> gpu.LaunchOp:
    """Reorder the blocks of `launch` in groups of `group` rows (see the module
    docstring); raises `RasterRewriteError` before changing anything when it does not
    qualify."""
    if not isinstance(launch, gpu.LaunchOp):
        raise RasterRewriteError("target is not a gpu.launch", launch)
    if not 1 <= group <= MAX_GROUP:
        raise RasterRewriteError(f"group must be in 1..{MAX_GROUP}, got {group}", launch)
    if launch.has_clusters:
        raise RasterRewriteError(
            "the gpu.launch has clusters (their blocks' order is the hardware's)", launch
        )
    body = launch.body.block
    at = InsertPoint.at_start(body)
    ids = {dim: emit(rewriter, at, gpu.BlockIdOp(dim)) for dim in ("x", "y")}
    grid = {dim: emit(rewriter, at, gpu.GridDimOp(dim)) for dim in ("x", "y")}
    linear = emit(
        rewriter, at, arith.AddiOp(emit(rewriter, at, arith.MuliOp(ids["y"], grid["x"])), ids["x"])
    )
    new_x, new_y = grouped_tile(rewriter, at, linear, grid["x"], grid["y"], group)
    new = {"x": new_x, "y": new_y}
    mine = {ids["x"].owner, ids["y"].owner}
    for op in list(launch.body.walk()):
        if isinstance(op, gpu.BlockIdOp) and op not in mine and op.dim in new:
            op.result.replace_all_uses_with(new[op.dim])
            rewriter.erase(op)
    # The body's block-id arguments (x, y are its first two).
    for arg, dim in zip(body.args[:2], ("x", "y"), strict=True):
        arg.replace_all_uses_with(new[dim])
    return launch


__all__ = ["MAX_GROUP", "RasterRewriteError", "grouped_tile", "raster_blocks"]
