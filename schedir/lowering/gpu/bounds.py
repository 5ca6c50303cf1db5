"""Static bounds of index values, for sizing per-thread buffers: constants, affine
min/max/apply, index arithmetic, dimensions of views and allocations, and GPU ids."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import affine, arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from schedir.dialects import gpu
from schedir.dialects.affine import MaxOp as AffineMaxOp

Interval = tuple[int | None, int | None]
"""Inclusive lower and upper bounds; None where unbounded."""

_NONNEGATIVE: tuple[type[Operation], ...] = (
    gpu.ThreadIdOp,
    gpu.BlockIdOp,
    gpu.BlockDimOp,
    gpu.GridDimOp,
    gpu.LaneIdOp,
)
"""Ops whose index result is never negative."""


def _add(a: Interval, b: Interval) -> Interval:
    lo = a[0] + b[0] if a[0] is not None and b[0] is not None else None
    hi = a[1] + b[1] if a[1] is not None and b[1] is not None else None
    return lo, hi


def _scale(a: Interval, c: int) -> Interval:
    lo, hi = a
    if c >= 0:
        return (lo * c if lo is not None else None, hi * c if hi is not None else None)
    return (hi * c if hi is not None else None, lo * c if lo is not None else None)


def _expr_bounds(expr: AffineExpr, operands: list[Interval], num_dims: int) -> Interval:
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[num_dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _expr_bounds(expr.lhs, operands, num_dims)
    rhs = _expr_bounds(expr.rhs, operands, num_dims)
    constant = rhs[0] if rhs[0] is not None and rhs[0] == rhs[1] else None
    if expr.kind == AffineBinaryOpKind.Add:
        return _add(lhs, rhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        if constant is not None:
            return _scale(lhs, constant)
        if lhs[0] is not None and lhs[0] == lhs[1]:
            return _scale(rhs, lhs[0])
        return None, None
    if constant is None or constant <= 0:
        return None, None
    if expr.kind == AffineBinaryOpKind.Mod:
        return 0, constant - 1
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return (
            lhs[0] // constant if lhs[0] is not None else None,
            lhs[1] // constant if lhs[1] is not None else None,
        )
    return (
        -(-lhs[0] // constant) if lhs[0] is not None else None,
        -(-lhs[1] // constant) if lhs[1] is not None else None,
    )


def index_bounds(value: SSAValue, depth: int = 0) -> Interval:
    """Bounds of an index value from constants, affine min/max/apply, dims of views and
    allocations, and index arithmetic (None where nothing is known)."""
    if depth > 32 or not isinstance(value, OpResult):
        return None, None
    op = value.op
    if isinstance(op, arith.ConstantOp):
        attr = op.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data, attr.value.data
        return None, None
    if isinstance(op, affine.MinOp | AffineMaxOp | affine.ApplyOp):
        amap = cast(AffineMapAttr, op.properties["map"]).data
        operands = [index_bounds(v, depth + 1) for v in op.operands]
        results = [_expr_bounds(e, operands, amap.num_dims) for e in amap.results]
        if isinstance(op, affine.ApplyOp):
            return results[0]
        los = [r[0] for r in results]
        his = [r[1] for r in results]
        if isinstance(op, affine.MinOp):
            known_hi = [h for h in his if h is not None]
            known_lo = [v for v in los if v is not None]
            lo = min(known_lo) if len(known_lo) == len(los) else None
            return lo, (min(known_hi) if known_hi else None)
        known_lo = [v for v in los if v is not None]
        known_his = [h for h in his if h is not None]
        hi = max(known_his) if len(known_his) == len(his) else None
        return (max(known_lo) if known_lo else None), hi
    if isinstance(op, arith.AddiOp | arith.MuliOp | arith.SubiOp):
        a = index_bounds(op.operands[0], depth + 1)
        b = index_bounds(op.operands[1], depth + 1)
        if isinstance(op, arith.AddiOp):
            return _add(a, b)
        if isinstance(op, arith.SubiOp):
            return _add(a, _scale(b, -1))
        if b[0] is not None and b[0] == b[1]:
            return _scale(a, b[0])
        if a[0] is not None and a[0] == a[1]:
            return _scale(b, a[0])
        return None, None
    if isinstance(op, arith.MinSIOp | arith.MinUIOp):
        a = index_bounds(op.operands[0], depth + 1)
        b = index_bounds(op.operands[1], depth + 1)
        his = [h for h in (a[1], b[1]) if h is not None]
        return (min(a[0], b[0]) if a[0] is not None and b[0] is not None else None), (
            min(his) if his else None
        )
    if isinstance(op, memref.DimOp):
        return _dim_bounds(op, depth)
    if isinstance(op, _NONNEGATIVE):
        return 0, None
    return None, None


def _dim_bounds(op: memref.DimOp, depth: int) -> Interval:
    """Bounds of a `memref.dim`: the static size, or the size its view or allocation got."""
    source, index = op.operands
    dim = index_bounds(index, depth + 1)[0]
    t = source.type
    if dim is None or not isinstance(t, MemRefType):
        return 0, None
    static = t.get_shape()[dim]
    if static >= 0:
        return static, static
    producer = source.owner
    if isinstance(producer, memref.SubviewOp):
        sizes = producer.static_sizes.get_values()
        dynamic = iter(producer.operands[1 + len(_dynamic(producer.static_offsets)) :])
        values: list[SSAValue | int] = [s if s >= 0 else next(dynamic) for s in sizes]
        kept = [v for v, d in zip(values, _kept_dims(producer), strict=False) if d]
        entry = kept[dim] if dim < len(kept) else None
        if isinstance(entry, int):
            return entry, entry
        if entry is not None:
            return index_bounds(entry, depth + 1)
    if isinstance(producer, memref.AllocOp | memref.AllocaOp):
        dynamic_dims = [i for i, s in enumerate(t.get_shape()) if s < 0]
        return index_bounds(producer.operands[dynamic_dims.index(dim)], depth + 1)
    if isinstance(producer, memref.CastOp):
        return _static_dim_bounds(producer.operands[0], dim)
    return 0, None


def _static_dim_bounds(source: SSAValue, dim: int) -> Interval:
    """Bounds of dimension `dim` of memref `source` from its type."""
    t = source.type
    if isinstance(t, MemRefType) and t.get_shape()[dim] >= 0:
        size = t.get_shape()[dim]
        return size, size
    return 0, None


def _dynamic(static: DenseArrayBase[IntegerType]) -> list[int]:
    """Positions of the dynamic entries of a static offsets/sizes/strides array."""
    return [i for i, v in enumerate(static.get_values()) if v == DYNAMIC_INDEX]


def _kept_dims(subview: memref.SubviewOp) -> list[bool]:
    """Which source dimensions of a (possibly rank-reducing) subview its result keeps."""
    sizes = subview.static_sizes.get_values()
    result = subview.results[0].type
    assert isinstance(result, MemRefType)
    if len(sizes) == result.get_num_dims():
        return [True] * len(sizes)
    # Dropped dimensions are unit sizes; keep from the right as upstream's inference does.
    keep = [True] * len(sizes)
    extra = len(sizes) - result.get_num_dims()
    for i, s in enumerate(sizes):
        if extra and s == 1:
            keep[i] = False
            extra -= 1
    return keep


def upper_bound(value: SSAValue) -> int | None:
    """A static upper bound of an index value, or None."""
    return index_bounds(value)[1]


__all__ = ["Interval", "index_bounds", "upper_bound"]
