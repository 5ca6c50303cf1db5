"""Multi-buffering of a `memref.alloc` used in a loop (upstream's `memref::multiBuffer`,
mlir/lib/Dialect/MemRef/Transforms/MultiBuffer.cpp).

An allocation that each iteration of a loop overwrites (a `memref.copy` into it that
precedes every other use) gets `factor` copies: iteration `i` uses copy
`((i - lb) floordiv step) mod factor`, so consecutive iterations no longer share a
buffer and can overlap (software pipelining of shared-memory copies):

    %tmp = memref.alloc() : memref<4xf32>            %a = memref.alloc() : memref<2x4xf32>
    scf.for %i = %c0 to %c16 step %c4 {              scf.for %i = %c0 to %c16 step %c4 {
      memref.copy %src, %tmp : ...          ->          %k = affine.apply affine_map<(d0) -> ((d0 floordiv 4) mod 2)>(%i)
      linalg.fill ... outs(%tmp : ...)                  %s = memref.subview %a[%k, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1]>>
    }                                                    memref.copy %src, %s : ...
                                                         linalg.fill ... outs(%s : ...)
                                                       }

Subviews of the old buffer are rebuilt on the new slice (their types change);
deallocations free the new buffer. With `skip_analysis`, the overwrite check is replaced
by "every use is inside the loop".

Two extensions (what `structured.promote` makes inside a k loop): an allocation in the
loop's body itself (a fresh buffer each iteration, so nothing is carried from one
iteration to the next and no analysis is needed) is hoisted before the loop, its
deallocations after it; and a 1-D `i8` buffer used only through `memref.view` (the
promoted tiles) grows to `factor` times its size, each view moved by the slice's byte
offset (a view's source must stay a contiguous `i8` buffer):

    scf.for %k = ... {                                 %a = memref.alloc() : memref<16384xi8, 3>
      %t = memref.alloc() : memref<8192xi8, 3>         scf.for %k = ... {
      %v = memref.view %t[%c0][%c128, %c32]    ->        %s = affine.apply affine_map<(d0) -> (((d0 floordiv 32) mod 2) * 8192)>(%k)
      ...                                                %v = memref.view %a[%s][%c128, %c32]
      memref.dealloc %t                                  ...
    }                                                  }
                                                       memref.dealloc %a
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects import affine, arith, scf
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    i8,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.affine import ApplyOp
from schedir.dialects.memref import AllocOp
from schedir.dialects.scf import ForallOp
from schedir.dialects.utils import mixed_values
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import dominates
from schedir.transform.rewrites.loops.licm import is_loop_like
from schedir.transform.rewrites.promotion import subview_type


class MultiBufferFailure(Exception):
    """The allocation cannot be multi-buffered (upstream's `failure()`)."""


@dataclass(frozen=True)
class MultiBufferResult:
    """The new, multi-buffered allocation."""

    alloc: Operation


def parent_loop(op: Operation) -> Operation | None:
    """The closest enclosing loop-like op of `op`."""
    parent = op.parent_op()
    while parent is not None and not is_loop_like(parent):
        parent = parent.parent_op()
    return parent


def used_in_loops(alloc: Operation) -> bool:
    """Whether every use but deallocations is inside a loop (the transform op skips the
    other allocations silently)."""
    for use in alloc.results[0].uses:
        user = use.operation
        if isinstance(user, xmemref.DeallocOp):
            continue
        if parent_loop(user) is None:
            return False
    return True


def _loop_parts(loop: Operation) -> tuple[SSAValue, int | SSAValue, int | SSAValue] | None:
    """(induction variable, lower bound, step) of a loop with a single one of each."""
    if isinstance(loop, scf.ForOp):
        body = loop.regions[0].blocks.first
        assert body is not None
        return body.args[0], _const_or(loop.operands[0]), _const_or(loop.operands[2])
    if isinstance(loop, affine.ForOp):
        body = loop.regions[0].blocks.first
        assert body is not None
        lower = loop.properties.get("lowerBoundMap") or loop.attributes.get("lowerBoundMap")
        step = loop.properties.get("step") or loop.attributes.get("step")
        lower_map = getattr(lower, "data", None)
        if lower_map is None or len(lower_map.results) != 1 or not isinstance(step, IntegerAttr):
            return None
        if lower_map.num_dims or lower_map.num_symbols:
            return None
        return body.args[0], lower_map.eval([], [])[0], step.value.data
    if isinstance(loop, ForallOp):
        body = loop.regions[0].blocks.first
        assert body is not None
        if len(body.args) - len(list(loop.outputs)) != 1:
            return None
        lows = loop.lower_bounds
        steps = loop.steps
        return body.args[0], _const_or(lows[0]), _const_or(steps[0])
    return None


def _const_or(value: int | SSAValue) -> int | SSAValue:
    if isinstance(value, int):
        return value
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return value


def _candidate_loop(alloc: Operation, skip_analysis: bool) -> Operation | None:
    buffer = alloc.results[0]
    users = [use.operation for use in buffer.uses]
    for user in users:
        loop = parent_loop(user)
        if loop is None:
            if isinstance(user, xmemref.DeallocOp):
                continue
            return None
        if not skip_analysis:
            # No loop-carried dependence: the user overwrites the whole buffer ...
            if not (isinstance(user, xmemref.CopyOp) and user.operands[1] is buffer):
                continue
            # ... before every other use.
            if any(not dominates(user, other) for other in users):
                continue
        elif any(
            not isinstance(other, xmemref.DeallocOp)
            and not (loop is not other and loop.is_ancestor(other))
            for other in users
        ):
            continue
        return loop
    return None


def _buffer_index(loop: Operation, factor: int) -> AffineMap:
    """`((iv - lb) floordiv step) mod factor`, constants folded (iv = d0, the other
    values symbols in order)."""
    parts = _loop_parts(loop)
    assert parts is not None
    _, lower, step = parts
    symbols = 0
    lb_expr: AffineExpr
    if isinstance(lower, int):
        lb_expr = AffineExpr.constant(lower)
    else:
        lb_expr = AffineSymExpr(symbols)
        symbols += 1
    step_expr: AffineExpr
    if isinstance(step, int):
        step_expr = AffineExpr.constant(step)
    else:
        step_expr = AffineSymExpr(symbols)
        symbols += 1
    iv = AffineDimExpr(0)
    offset = iv if isinstance(lower, int) and lower == 0 else iv - lb_expr
    if isinstance(step, int) and step == 1:
        quotient = offset
    elif isinstance(step, int):
        quotient = offset // step
    else:
        # xDSL's `//` only takes constants; a symbolic step is semi-affine but valid here.
        quotient = AffineBinaryOpExpr(AffineBinaryOpKind.FloorDiv, offset, step_expr)
    expr = quotient % factor
    return AffineMap(1, symbols, (expr,))


def multi_buffer(
    rewriter: PatternRewriter, alloc: Operation, factor: int, skip_analysis: bool
) -> MultiBufferResult:
    """Multi-buffer `alloc` in its loop (module doc); raises `MultiBufferFailure`."""
    inside = parent_loop(alloc)
    if inside is not None and alloc.parent_op() is inside and not alloc.operands:
        # A fresh buffer each iteration: nothing is carried across iterations.
        _hoist(rewriter, alloc, inside)
        loop = inside
    else:
        loop = _candidate_loop(alloc, skip_analysis)
    if loop is None:
        raise MultiBufferFailure("no candidate loop")
    parts = _loop_parts(loop)
    if parts is None or len(loop.regions) != 1:
        raise MultiBufferFailure("no single induction variable, lower bound, step or region")
    if not dominates(alloc, loop):
        raise MultiBufferFailure("the allocation does not dominate the loop")
    iv, lower, step = parts
    old_type = cast(MemRefType[Attribute], alloc.results[0].type)
    shape = list(old_type.get_shape())
    if _viewed_bytes(alloc):
        return _multi_buffer_bytes(rewriter, alloc, loop, factor)
    mb_type = MemRefType(
        old_type.get_element_type(), [factor, *shape], NoneAttr(), old_type.memory_space
    )
    mb_alloc = AllocOp([], [], mb_type, cast(xmemref.AllocOp, alloc).alignment)
    mb_alloc.attributes |= dict(alloc.attributes)
    rewriter.insert(mb_alloc, InsertPoint.before(alloc))
    mb_alloc.location = alloc.location
    mb_alloc.results[0].name_hint = alloc.results[0].name_hint
    # The slice index at the start of the loop body.
    body = loop.regions[0].blocks.first
    assert body is not None
    map_ = _buffer_index(loop, factor)
    operands: list[SSAValue] = [iv]
    for value in (lower, step):
        if not isinstance(value, int):
            operands.append(value)
    apply = ApplyOp(operands, AffineMapAttr(map_))
    rewriter.insert(apply, InsertPoint.at_start(body))
    apply.location = alloc.location
    rank = len(shape) + 1
    offsets: list[int | SSAValue] = [apply.results[0], *([0] * len(shape))]
    sizes: list[int | SSAValue] = [1, *shape]
    strides: list[int | SSAValue] = [1] * rank
    slice_type = subview_type(mb_type, offsets, sizes, strides, [0])
    subview = xmemref.SubviewOp.get(mb_alloc.results[0], offsets, sizes, strides, slice_type)
    rewriter.insert(subview, InsertPoint.after(apply))
    subview.location = alloc.location
    for use in list(alloc.results[0].uses):
        dealloc = use.operation
        if not isinstance(dealloc, xmemref.DeallocOp):
            continue
        new_dealloc = xmemref.DeallocOp.get(mb_alloc.results[0])
        rewriter.insert(new_dealloc, InsertPoint.before(dealloc))
        new_dealloc.location = dealloc.location
        rewriter.erase(dealloc)
    _replace_and_propagate(rewriter, alloc.results[0], subview.results[0])
    rewriter.erase(alloc)
    return MultiBufferResult(mb_alloc)


def _hoist(rewriter: PatternRewriter, alloc: Operation, loop: Operation) -> None:
    """Move `alloc` (in `loop`'s body) before the loop; its deallocations in the body
    become one after the loop."""
    deallocs = [
        use.operation
        for use in alloc.results[0].uses
        if isinstance(use.operation, xmemref.DeallocOp)
    ]
    alloc.detach()
    rewriter.insert(alloc, InsertPoint.before(loop))
    for dealloc in deallocs:
        rewriter.erase(dealloc)
    if deallocs:
        after = xmemref.DeallocOp.get(alloc.results[0])
        after.location = deallocs[0].location
        rewriter.insert(after, InsertPoint.after(loop))


def _viewed_bytes(alloc: Operation) -> bool:
    """Whether `alloc` is a static 1-D `i8` buffer used only by `memref.view` (and
    deallocations)."""
    t = cast(MemRefType[Attribute], alloc.results[0].type)
    if t.get_num_dims() != 1 or t.get_element_type() != i8 or t.get_shape()[0] < 0:
        return False
    users = [use.operation for use in alloc.results[0].uses]
    return any(isinstance(u, xmemref.ViewOp) for u in users) and all(
        isinstance(u, xmemref.ViewOp | xmemref.DeallocOp) for u in users
    )


def _multi_buffer_bytes(
    rewriter: PatternRewriter, alloc: Operation, loop: Operation, factor: int
) -> MultiBufferResult:
    """Multi-buffer a byte buffer read through views: `factor` times as many bytes, the
    views of iteration i shifted by (i's slice) x the old size."""
    old_type = cast(MemRefType[Attribute], alloc.results[0].type)
    size = old_type.get_shape()[0]
    mb_type = MemRefType(i8, [factor * size], old_type.layout, old_type.memory_space)
    mb_alloc = AllocOp([], [], mb_type, cast(xmemref.AllocOp, alloc).alignment)
    mb_alloc.attributes |= dict(alloc.attributes)
    mb_alloc.location = alloc.location
    rewriter.insert(mb_alloc, InsertPoint.before(alloc))
    body = loop.regions[0].blocks.first
    assert body is not None
    parts = _loop_parts(loop)
    assert parts is not None
    iv, lower, step = parts
    slice_map = _buffer_index(loop, factor)
    shift_map = AffineMap(slice_map.num_dims, slice_map.num_symbols, (slice_map.results[0] * size,))
    operands: list[SSAValue] = [iv, *(v for v in (lower, step) if not isinstance(v, int))]
    shift = ApplyOp(operands, AffineMapAttr(shift_map))
    shift.location = alloc.location
    rewriter.insert(shift, InsertPoint.at_start(body))
    for use in list(alloc.results[0].uses):
        user = use.operation
        if isinstance(user, xmemref.DeallocOp):
            new_dealloc = xmemref.DeallocOp.get(mb_alloc.results[0])
            new_dealloc.location = user.location
            rewriter.insert(new_dealloc, InsertPoint.before(user))
            rewriter.erase(user)
            continue
        assert isinstance(user, xmemref.ViewOp)
        moved = arith.AddiOp(user.byte_shift, shift.results[0])
        view = xmemref.ViewOp(
            mb_alloc.results[0],
            moved.result,
            list(user.sizes),
            cast(MemRefType[Attribute], user.result.type),
        )
        for new in (moved, view):
            new.location = user.location
        rewriter.insert([moved, view], InsertPoint.before(user))
        rewriter.replace(user, [], [view.result])
    rewriter.erase(alloc)
    return MultiBufferResult(mb_alloc)


def _replace_and_propagate(rewriter: PatternRewriter, old: SSAValue, new: SSAValue) -> None:
    """Upstream's `replaceUsesAndPropagateType`: subviews of the old buffer are rebuilt
    on the new one (their layout changes), other uses take the new value."""
    for use in list(old.uses):
        user = use.operation
        if not isinstance(user, xmemref.SubviewOp):
            continue
        result_shape = cast(MemRefType[Attribute], user.result.type).get_shape()
        offsets = mixed_values(user.static_offsets, user.offsets)
        sizes = mixed_values(user.static_sizes, user.sizes)
        strides = mixed_values(user.static_strides, user.strides)
        dropped = len(result_shape) != len(sizes)
        new_type = subview_type(
            cast(MemRefType[Attribute], new.type), offsets, sizes, strides, dropped
        )
        new_view = xmemref.SubviewOp.get(new, offsets, sizes, strides, new_type)
        rewriter.insert(new_view, InsertPoint.before(user))
        new_view.location = user.location
        _replace_and_propagate(rewriter, user.result, new_view.result)
        rewriter.erase(user)
    old.replace_all_uses_with(new)


__all__ = [
    "MultiBufferFailure",
    "MultiBufferResult",
    "multi_buffer",
    "parent_loop",
    "used_in_loops",
]
