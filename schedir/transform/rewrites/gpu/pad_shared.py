"""Padding the rows of 2-D tiles in shared memory (schedir's `transform.schedir.pad_shared_rows`):
a bank-conflict remedy for the warp-level tensor-core route.

A promoted tile is a static 1-D `i8` buffer in workgroup memory read through a
`memref.view` of constant sizes R x C. The rows of 16-bit tiles whose width is a
multiple of 128 bytes (or of 64: two rows per 128) start in the same shared-memory banks,
so the 8 row addresses of one `ldmatrix` 8x8 tile hit the same 16-byte bank group: an
8-way (4-way) conflict. With `pad` more elements per row (8 for 16-bit elements: 16
bytes), consecutive rows start one bank group apart and the 8 rows of a tile spread over
all banks. The buffer grows to R x (C + pad) elements; the view becomes an R x (C + pad)
view and its R x C corner, which every user of the old view takes instead:

    %t = memref.alloc() : memref<8192xi8, 3>                 %t = memref.alloc() : memref<10240xi8, 3>
    %v = memref.view %t[%c0][%c128, %c32]              ->    %p = memref.view %t[%c0][%c128, %c40]
        : memref<8192xi8, 3> to memref<?x?xf16, 3>               : memref<10240xi8, 3> to memref<?x?xf16, 3>
                                                             %v = memref.subview %p[0, 0] [128, 32] [1, 1]
                                                                 : memref<?x?xf16, 3> to memref<128x32xf16, strided<[?, 1]>, 3>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, i8
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.memref import AllocOp
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space
from schedir.dialects.utils import DYNAMIC_INDEX
from schedir.transform.rewrites.promotion import subview_type
from schedir.transform.rewrites.rewriter import PayloadRewriteError


class PadSharedError(PayloadRewriteError):
    """Why a buffer's rows cannot be padded (`op`: where the reason applies)."""


@dataclass(frozen=True)
class PadSharedResult:
    """The new, larger allocation."""

    alloc: Operation


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _view_shape(view: memref.ViewOp) -> tuple[int, int, int]:
    """(rows, columns, element bytes) of a 2-D view with constant sizes at byte 0."""
    t = cast(MemRefType[Attribute], view.result.type)
    shape = list(t.get_shape())
    sizes = list(view.sizes)
    for dim, size in enumerate(shape):
        if size == DYNAMIC_INDEX:
            constant = _constant(sizes.pop(0))
            if constant is None:
                raise PadSharedError("the view's sizes are not constants", view)
            shape[dim] = constant
    if len(shape) != 2 or _constant(view.byte_shift) != 0:
        raise PadSharedError("not a 2-D view at byte 0", view)
    bits = element_bit_width(t.element_type) or 0
    if bits % 8:
        raise PadSharedError(f"elements of {bits} bits", view)
    return shape[0], shape[1], bits // 8


def in_workgroup_memory(alloc: Operation) -> bool:
    """Whether `alloc` allocates workgroup (shared) memory."""
    t = alloc.results[0].type if alloc.results else None
    return isinstance(t, MemRefType) and is_shared_memory_space(t.memory_space)


def pad_shared_rows(rewriter: PatternRewriter, alloc: Operation, pad: int) -> PadSharedResult:
    """Pad the rows of the views of `alloc` by `pad` elements (module doc); raises
    `PadSharedError` before changing anything when it does not qualify."""
    if not isinstance(alloc, memref.AllocOp) or alloc.operands:
        raise PadSharedError("not a static memref.alloc", alloc)
    t = cast(MemRefType[Attribute], alloc.memref.type)
    if (
        t.get_num_dims() != 1
        or t.get_element_type() != i8
        or not is_shared_memory_space(t.memory_space)
    ):
        raise PadSharedError("not a 1-D i8 buffer in workgroup memory", alloc)
    users = [use.operation for use in alloc.memref.uses]
    views = [u for u in users if isinstance(u, memref.ViewOp)]
    if not views or any(not isinstance(u, memref.ViewOp | memref.DeallocOp) for u in users):
        raise PadSharedError("the buffer is not used only through memref.view", alloc)
    shapes = [_view_shape(v) for v in views]
    size = max((r * (c + pad) * e for r, c, e in shapes), default=0)
    new_type = MemRefType(i8, [max(size, t.get_shape()[0])], t.layout, t.memory_space)
    new_alloc = AllocOp([], [], new_type, alloc.alignment)
    new_alloc.attributes |= dict(alloc.attributes)
    new_alloc.location = alloc.location
    rewriter.insert(new_alloc, InsertPoint.before(alloc))
    for view, (rows, cols, _) in zip(views, shapes, strict=True):
        view_type = cast(MemRefType[Attribute], view.result.type)
        dynamic = MemRefType(
            view_type.element_type, [DYNAMIC_INDEX, DYNAMIC_INDEX], memory_space=t.memory_space
        )
        row_count = arith.ConstantOp(IntegerAttr(rows, IndexType()))
        width = arith.ConstantOp(IntegerAttr(cols + pad, IndexType()))
        padded = memref.ViewOp(
            new_alloc.memref, view.byte_shift, [row_count.result, width.result], dynamic
        )
        corner_type = subview_type(dynamic, [0, 0], [rows, cols], [1, 1])
        corner = memref.SubviewOp.get(padded.result, [0, 0], [rows, cols], [1, 1], corner_type)
        for new in (row_count, width, padded, corner):
            new.location = view.location
        rewriter.insert([row_count, width, padded, corner], InsertPoint.before(view))
        rewriter.replace(view, [], [corner.result])
    for user in users:
        if isinstance(user, memref.DeallocOp):
            dealloc = memref.DeallocOp.get(new_alloc.memref)
            dealloc.location = user.location
            rewriter.insert(dealloc, InsertPoint.before(user))
            rewriter.erase(user)
    rewriter.erase(alloc)
    return PadSharedResult(new_alloc)


__all__ = ["PadSharedError", "PadSharedResult", "in_workgroup_memory", "pad_shared_rows"]
