"""Forwarding of transfers through promoted buffers (upstream Vectorization.cpp's
`LinalgCopyVTRForwardingPattern` / `LinalgCopyVTWForwardingPattern`, benefit 2 in
`vectorize_children_and_apply_patterns`).

A buffer (`memref.alloc` / `memref.view`) with a single subview, filled (optionally)
and then written by a `memref.copy` into that subview, and read whole by a transfer, is
read from the copy's source instead; a transfer written into such a buffer and copied
out of its subview writes to the copy's target instead. Nothing else may use the buffer
or the subview between the ops involved. The new transfers are not in bounds (the
promoted buffer was padded).

    %alloc = memref.alloc() : memref<32x32xf32>
    %sv = memref.subview %alloc[0, 0] [%m, %n] [1, 1] : ...
    linalg.fill ins(%pad : f32) outs(%alloc : memref<32x32xf32>)
    memref.copy %in, %sv : ...
    %v = vector.transfer_read %alloc[%c0, %c0], %pad : memref<32x32xf32>, vector<32x32xf32>
  =>
    %v = vector.transfer_read %in[%c0, %c0], %pad : memref<?x?xf32>, vector<32x32xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.memref import SubviewOp, ViewOp
from xdsl.ir import Operation, OpResult, SSAValue

from schedir.dialects import linalg, memref, vector
from schedir.dialects.vector.attributes import bool_array
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter


def _interleaved_uses(first: Operation, second: Operation, values: Sequence[SSAValue]) -> bool:
    """Upstream's `mayExistInterleavedUses` (conservatively True across blocks)."""
    block = first.parent_block()
    if block is None or second.parent_block() is not block or not first.is_before_in_block(second):
        return True
    for value in values:
        for use in value.uses:
            owner = use.operation
            if owner is first or owner is second:
                continue
            if owner.parent_block() is block and (
                owner.is_before_in_block(first) or second.is_before_in_block(owner)
            ):
                continue
            return True
    return False


def _view_or_alloc(value: SSAValue) -> bool:
    return isinstance(value, OpResult) and isinstance(value.op, ViewOp | memref.AllocOp)


def _unique_subview(value: SSAValue) -> SubviewOp | None:
    subviews = [use.operation for use in value.uses if isinstance(use.operation, SubviewOp)]
    return subviews[0] if len(subviews) == 1 else None


def _rank(op: Operation) -> int:
    return len(cast(vector.TransferReadOp, op).permutation_map.data.results)


def copy_read_forwarding(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `LinalgCopyVTRForwardingPattern`."""
    assert isinstance(op, vector.TransferReadOp)
    if op.mask is not None or not _view_or_alloc(op.source):
        return False
    buffer = op.source
    subview = _unique_subview(buffer)
    if subview is None:
        return False
    view = subview.results[0]
    copy = next(
        (
            use.operation
            for use in view.uses
            if isinstance(use.operation, memref.CopyOp)
            and use.operation.destination is view
            and not _interleaved_uses(use.operation, op, [buffer, view])
        ),
        None,
    )
    if copy is None:
        return False
    fill = next(
        (
            use.operation
            for use in buffer.uses
            if isinstance(use.operation, linalg.FillOp)
            and use.operation.operands[-1] is buffer
            and not _interleaved_uses(use.operation, copy, [buffer, view])
        ),
        None,
    )
    if fill is not None and op.padding is not fill.operands[0]:
        return False
    new = vector.TransferReadOp(
        copy.operands[0],
        list(op.indices),
        op.padding,
        op.result.type,
        bool_array([False] * _rank(op)),
        op.permutation_map,
    )
    rw.create(new, op)
    if fill is not None:
        rw.erase(fill)
    rw.erase(copy)
    rw.replace_values(op, [new.result])
    return True


def copy_write_forwarding(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `LinalgCopyVTWForwardingPattern`."""
    assert isinstance(op, vector.TransferWriteOp)
    if op.mask is not None or not _view_or_alloc(op.source):
        return False
    buffer = op.source
    subview = _unique_subview(buffer)
    if subview is None:
        return False
    view = subview.results[0]
    copy = next(
        (
            use.operation
            for use in view.uses
            if isinstance(use.operation, memref.CopyOp)
            and use.operation.source is view
            and not _interleaved_uses(op, use.operation, [buffer, view])
        ),
        None,
    )
    if copy is None:
        return False
    new = vector.TransferWriteOp(
        op.vector,
        copy.operands[1],
        list(op.indices),
        bool_array([False] * _rank(op)),
        None,
        op.permutation_map,
    )
    rw.create(new, op)
    rw.erase(copy)
    rw.erase(op)
    return True


def copy_forwarding_patterns() -> PatternSet:
    return (
        PatternSet()
        .add(vector.TransferReadOp, copy_read_forwarding)
        .add(vector.TransferWriteOp, copy_write_forwarding)
    )


__all__ = ["copy_forwarding_patterns", "copy_read_forwarding", "copy_write_forwarding"]
