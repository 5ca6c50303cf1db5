"""Per-thread slots for barrier elimination: views through which each thread of a block
touches at most one element of its own, whatever the iteration.

A `memref.subview` P has a thread slot when, for every dimension of the block whose size
is not 1, one of its offsets is that dimension's `gpu.thread_id` times a width k (the id
itself: k = 1; an `arith.muli` by an index proven to be k, or an `affine.apply` of
`tid * k`) and its size there is at most k, with stride 1 where k > 1 (interval arithmetic over
constants, loop induction variables with constant bounds, thread ids and affine
min/max/apply, as `scf.for_loop_canonicalization` bounds them). P's source must reach an
identity-layout memref through rank-preserving subviews and casts with constant offsets
and strides, so that it addresses that memref through the same injective map in every
thread and iteration. Views of P stay within P. Two accesses through views of slots with
the same base, map, thread-id positions and widths touch distinct elements in distinct
threads (thread t's elements along a position lie in [k t, k t + k)):

    %s = memref.subview %buf[0, 0] [1, %n] [1, 1]          // %n <= 256
    %k = affine.apply affine_map<(d0) -> (d0 ceildiv 256)>(%n)   // 1 when 1 <= %n
    %o = arith.muli %tid, %k : index
    %slot = memref.subview %s[0, %o] [1, %z] [1, 1]        // %z <= 1: thread tid's slot

A load, store or vector transfer whose own indices hold the thread ids times k (and whose
vector spans at most k elements along those dimensions) has the same slot as a view would:

    vector.transfer_write %v, %buf[%c0, %tid] : vector<1xf32>, memref<1x1024xf32, 3>
    %o = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%tid]
    vector.transfer_write %w, %buf[%c0, %o] : vector<1x4xf32>, memref<1x1024xf32, 3>
"""

from __future__ import annotations

from xdsl.dialects import affine, arith, memref
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, NoneAttr, VectorType
from xdsl.dialects.memref import SubviewOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineMap,
    AffineSymExpr,
)

from schedir.dialects import gpu
from schedir.dialects.affine import MaxOp
from schedir.dialects.utils import mixed_values
from schedir.transform.rewrites.canonicalize.affine_loops import (
    Interval,
    expr_bounds,
    loop_iv_range,
)
from schedir.transform.rewrites.constants import constant_int

_VIEWS = (
    memref.CastOp,
    memref.SubviewOp,
    memref.ViewOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
)
_UNKNOWN: Interval = (None, None)
_MAX_DEPTH = 16

Slot = tuple[SSAValue, tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(base memref, composed offsets, composed strides, positions of the thread ids x, y, z,
their widths k)."""


def kernel_of(op: Operation) -> Operation | None:
    current = op.parent_op()
    while current is not None and not isinstance(current, gpu.FuncOp | gpu.LaunchOp):
        current = current.parent_op()
    return current


def block_dims(kernel: Operation) -> list[int | None]:
    """The launch's constant block sizes (None where unknown, e.g. for a gpu.func)."""
    if not isinstance(kernel, gpu.LaunchOp):
        return [None, None, None]
    return [constant_int(size) for size in kernel.block_sizes]


def _thread_dim(value: SSAValue) -> str | None:
    if isinstance(value, OpResult) and isinstance(value.op, gpu.ThreadIdOp):
        return value.op.dim
    return None


def value_range(value: SSAValue, depth: int = 0) -> Interval:
    """A sound interval of an index value (None: unbounded on that side)."""
    known = constant_int(value)
    if known is not None:
        return known, known
    iv = loop_iv_range(value)
    if iv is not None:
        return iv.lb, iv.max_value
    if not isinstance(value, OpResult) or depth > _MAX_DEPTH:
        return _UNKNOWN
    op = value.op
    dim = _thread_dim(value)
    if dim is not None:
        kernel = kernel_of(op)
        size = block_dims(kernel)["xyz".index(dim)] if kernel is not None else None
        return 0, None if size is None else size - 1
    if isinstance(op, arith.AddiOp | arith.MuliOp) and len(op.operands) == 2:
        (la, ha), (lb, hb) = (value_range(v, depth + 1) for v in op.operands)
        if isinstance(op, arith.AddiOp):
            return (
                None if la is None or lb is None else la + lb,
                None if ha is None or hb is None else ha + hb,
            )
        if la is None or ha is None or lb is None or hb is None:
            return _UNKNOWN
        corners = [a * b for a in (la, ha) for b in (lb, hb)]
        return min(corners), max(corners)
    if not isinstance(op, affine.ApplyOp | affine.MinOp | MaxOp):
        return _UNKNOWN
    affine_map = op.properties["map"].data  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
    assert isinstance(affine_map, AffineMap)
    if affine_map.num_symbols:
        return _UNKNOWN
    ranges = [value_range(v, depth + 1) for v in op.operands]
    results = [expr_bounds(r, ranges) for r in affine_map.results]
    if isinstance(op, affine.ApplyOp):
        return results[0]
    lows, highs = [r[0] for r in results], [r[1] for r in results]
    if isinstance(op, affine.MinOp):
        known_highs = [h for h in highs if h is not None]
        return (
            _min_or_none(lows),
            min(known_highs) if known_highs else None,
        )
    known_lows = [lo for lo in lows if lo is not None]
    return (
        max(known_lows) if known_lows else None,
        _max_or_none(highs),
    )


def _min_or_none(values: list[int | None]) -> int | None:
    """The least value; None (unbounded) if one is unbounded."""
    known = [v for v in values if v is not None]
    return min(known) if len(known) == len(values) else None


def _max_or_none(values: list[int | None]) -> int | None:
    """The greatest value; None (unbounded) if one is unbounded."""
    known = [v for v in values if v is not None]
    return max(known) if len(known) == len(values) else None


def _constant(value: SSAValue) -> int | None:
    low, high = value_range(value)
    return low if low is not None and low == high else None


def _scaled_thread(expr: object, operands: list[SSAValue], dims: int) -> int | None:
    """k when the affine `expr` (over `operands`: `dims` dimensions, then symbols) is a
    thread id times the positive constant k (or the id itself: 1)."""
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        position = expr.position if isinstance(expr, AffineDimExpr) else dims + expr.position
        return 1 if position < len(operands) and _thread_dim(operands[position]) else None
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        for factor, other in ((expr.rhs, expr.lhs), (expr.lhs, expr.rhs)):
            if isinstance(factor, AffineConstantExpr) and factor.value > 0:
                inner = _scaled_thread(other, operands, dims)
                if inner is not None:
                    return inner * factor.value
    return None


def _offset_thread_dim(offset: int | SSAValue) -> tuple[str, int] | None:
    """The thread-id dimension an offset is a multiple of, and the factor k: the id
    itself (1), the id times an index proven to be k > 0, or an affine.apply of id * k."""
    if isinstance(offset, int):
        return None
    dim = _thread_dim(offset)
    if dim is not None:
        return dim, 1
    if isinstance(offset, OpResult) and isinstance(offset.op, arith.MuliOp):
        lhs, rhs = offset.op.operands
        for thread, factor in ((lhs, rhs), (rhs, lhs)):
            thread_dim, k = _thread_dim(thread), _constant(factor)
            if thread_dim is not None and k is not None and k > 0:
                return thread_dim, k
    if isinstance(offset, OpResult) and isinstance(offset.op, affine.ApplyOp):
        affine_map = offset.op.map.data
        operands = list(offset.op.operands)
        threads = {d for d in map(_thread_dim, operands) if d is not None}
        if len(affine_map.results) == 1 and len(threads) == 1:
            k = _scaled_thread(affine_map.results[0], operands, affine_map.num_dims)
            if k is not None:
                return threads.pop(), k
    return None


def _fixed_map(value: SSAValue) -> tuple[SSAValue, tuple[int, ...], tuple[int, ...]] | None:
    """The identity-layout memref a value addresses through constant rank-preserving
    subviews and casts, with the composed offsets and strides."""
    memref_type = value.type
    if not isinstance(memref_type, MemRefType):
        return None
    rank = len(memref_type.shape)
    offsets, strides = [0] * rank, [1] * rank
    while isinstance(value, OpResult) and isinstance(value.op, SubviewOp | memref.CastOp):
        view = value.op
        if isinstance(view, SubviewOp):
            static_offsets = view.static_offsets.get_values()
            static_strides = view.static_strides.get_values()
            if (
                len(static_offsets) != rank
                or DYNAMIC_INDEX in static_offsets
                or any(s in (0, DYNAMIC_INDEX) for s in static_strides)
            ):
                return None
            offsets = [
                o + s * off
                for o, s, off in zip(static_offsets, static_strides, offsets, strict=True)
            ]
            strides = [s * t for s, t in zip(static_strides, strides, strict=True)]
        value = view.operands[0]
    base_type = value.type
    if not isinstance(base_type, MemRefType) or not isinstance(base_type.layout, NoneAttr):
        return None
    return value, tuple(offsets), tuple(strides)


def _subview_slot(view: SubviewOp) -> Slot | None:
    kernel = kernel_of(view)
    if kernel is None:
        return None
    offsets = mixed_values(view.static_offsets, view.offsets)
    sizes = mixed_values(view.static_sizes, view.sizes)
    strides = mixed_values(view.static_strides, view.strides)
    positions: dict[str, tuple[int, int]] = {}
    for position, (offset, size) in enumerate(zip(offsets, sizes, strict=True)):
        scaled = _offset_thread_dim(offset)
        if scaled is None or scaled[0] in positions:
            continue
        dim, k = scaled
        if k > 1 and strides[position] != 1:
            continue  # a strided view's elements may leave [k t, k t + k)
        high = size if isinstance(size, int) else value_range(size)[1]
        if high is not None and high <= k:
            positions[dim] = (position, k)
    needed = [d for d, size in zip("xyz", block_dims(kernel), strict=True) if size != 1]
    if not all(d in positions for d in needed):
        return None
    fixed = _fixed_map(view.source)
    if fixed is None:
        return None
    return (*fixed, *_positions_and_widths(positions, needed))


def _positions_and_widths(
    positions: dict[str, tuple[int, int]], needed: list[str]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (
        tuple(positions[d][0] for d in needed),
        tuple(positions[d][1] for d in needed),
    )


def thread_slot(value: SSAValue) -> Slot | None:
    """The per-thread slot the accesses through `value` stay within, if any."""
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        if isinstance(value.op, SubviewOp):
            slot = _subview_slot(value.op)
            if slot is not None:
                return slot
        value = value.op.operands[0]
    return None


def _vector_extents(op: Operation, rank: int) -> list[int] | None:
    """A transfer's extent along each memref dimension (1 where the vector does not
    span it); None when unknown."""
    if not isinstance(op, xvector.TransferReadOp | xvector.TransferWriteOp):
        return [1] * rank
    vector_type = op.result.type if isinstance(op, xvector.TransferReadOp) else op.vector.type
    if not isinstance(vector_type, VectorType):
        return None
    permutation = op.permutation_map.data
    extents = [1] * rank
    for result, size in zip(permutation.results, vector_type.get_shape(), strict=True):
        if isinstance(result, AffineDimExpr) and result.position < rank:
            extents[result.position] = size
        elif not (isinstance(result, AffineConstantExpr) and result.value == 0):
            return None  # neither a memref dimension nor a broadcast
    return extents


def access_slot(op: Operation | None) -> Slot | None:
    """The per-thread slot of a memref.load/store or vector transfer through its own
    indices (a thread id at each of the block's dimensions, one element wide there)."""
    if isinstance(op, memref.LoadOp | xvector.TransferReadOp):
        memref_value, indices = op.operands[0], op.indices
    elif isinstance(op, memref.StoreOp):
        memref_value, indices = op.memref, op.indices
    elif isinstance(op, xvector.TransferWriteOp):
        memref_value, indices = op.source, op.indices
    else:
        return None
    kernel = kernel_of(op)
    memref_type = memref_value.type
    if kernel is None or not isinstance(memref_type, MemRefType):
        return None
    rank = len(memref_type.shape)
    extents = _vector_extents(op, rank)
    if extents is None or len(indices) != rank:
        return None
    positions: dict[str, tuple[int, int]] = {}
    for position, index in enumerate(indices):
        scaled = _offset_thread_dim(index)
        if scaled is None or scaled[0] in positions:
            continue
        dim, k = scaled
        if extents[position] <= k:
            positions[dim] = (position, k)
    needed = [d for d, size in zip("xyz", block_dims(kernel), strict=True) if size != 1]
    if not needed or not all(d in positions for d in needed):
        return None  # (a one-thread block: the indices alone decide, as upstream)
    fixed = _fixed_map(memref_value)
    if fixed is None:
        return None
    return (*fixed, *_positions_and_widths(positions, needed))


__all__ = ["access_slot", "block_dims", "kernel_of", "thread_slot", "value_range"]
