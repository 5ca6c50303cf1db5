"""Whether two index values are provably equal: the same value, equal constants, or the
same pure computation (`affine.apply`, `arith.addi`, ...) of provably equal operands.

Tiling and fusion repeat offset computations (the `affine.apply` of an extract_slice and of
the matching insert_slice are often two ops); comparing them structurally finds the pairs
that address the same slice without running CSE first.
"""

from __future__ import annotations

from xdsl.dialects import affine, arith, memref, tensor
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, OpResult, SSAValue

from schedir.dialects.affine import MaxOp as AffineMaxOp
from schedir.dialects.arith import IndexCastUIOp

_PURE: frozenset[type[Operation]] = frozenset(
    {
        arith.ConstantOp,
        arith.AddiOp,
        arith.SubiOp,
        arith.MuliOp,
        arith.DivSIOp,
        arith.DivUIOp,
        arith.CeilDivSIOp,
        arith.CeilDivUIOp,
        arith.FloorDivSIOp,
        arith.RemSIOp,
        arith.RemUIOp,
        arith.MinSIOp,
        arith.MinUIOp,
        arith.MaxSIOp,
        arith.MaxUIOp,
        arith.AndIOp,
        arith.OrIOp,
        arith.XOrIOp,
        arith.ShLIOp,
        arith.ShRSIOp,
        arith.ShRUIOp,
        arith.IndexCastOp,
        IndexCastUIOp,
        arith.CmpiOp,
        arith.SelectOp,
        affine.ApplyOp,
        affine.MinOp,
        AffineMaxOp,
        tensor.DimOp,
        memref.DimOp,
    }
)
"""Ops whose result depends only on their operands and properties (xDSL's classes, which
schedir's replacements subclass, and schedir's own)."""


def _pure_kind(op: Operation) -> type | None:
    """The class of `op`, or its base class, that is in `_PURE`, if any."""
    for cls in type(op).__mro__:
        if cls in _PURE:
            return cls
    return None


_MAX_DEPTH = 8


def constant_value(value: SSAValue) -> int | None:
    """The integer an `arith.constant` defines, if `value` is one."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        attr = owner.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def same_value(a: SSAValue, b: SSAValue, depth: int = 0) -> bool:
    """Whether index values `a` and `b` are provably equal."""
    if a is b:
        return True
    ca, cb = constant_value(a), constant_value(b)
    if ca is not None or cb is not None:
        return ca is not None and ca == cb and a.type == b.type
    if depth >= _MAX_DEPTH or not isinstance(a, OpResult) or not isinstance(b, OpResult):
        return False
    op_a, op_b = a.op, b.op
    kind = _pure_kind(op_a)
    if kind is None or kind is not _pure_kind(op_b) or a.index != b.index:
        return False
    if op_a.properties != op_b.properties or len(op_a.operands) != len(op_b.operands):
        return False
    return all(
        same_value(x, y, depth + 1) for x, y in zip(op_a.operands, op_b.operands, strict=True)
    )


def same_values(a: list[SSAValue], b: list[SSAValue]) -> bool:
    """Element-wise `same_value` of two lists of equal length."""
    return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))


__all__ = ["constant_value", "same_value", "same_values"]
