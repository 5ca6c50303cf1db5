"""Whether two index values are provably equal: the same value, equal constants, or the
same pure computation (`affine.apply`, `arith.addi`, ...) of provably equal operands.

Tiling and fusion repeat offset computations (the `affine.apply` of an extract_slice and of
the matching insert_slice are often two ops); comparing them structurally finds the pairs
that address the same slice without running CSE first.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, OpResult, SSAValue

_PURE = frozenset(
    {
        "arith.constant",
        "arith.addi",
        "arith.subi",
        "arith.muli",
        "arith.divsi",
        "arith.divui",
        "arith.ceildivsi",
        "arith.ceildivui",
        "arith.floordivsi",
        "arith.remsi",
        "arith.remui",
        "arith.minsi",
        "arith.minui",
        "arith.maxsi",
        "arith.maxui",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.shli",
        "arith.shrsi",
        "arith.shrui",
        "arith.index_cast",
        "arith.index_castui",
        "arith.cmpi",
        "arith.select",
        "affine.apply",
        "affine.min",
        "affine.max",
        "tensor.dim",
        "memref.dim",
    }
)
"""Ops whose result depends only on their operands and properties."""

_MAX_DEPTH = 8


def constant_value(value: SSAValue) -> int | None:
    """The integer an `arith.constant` defines, if `value` is one."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
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
    if op_a.name != op_b.name or op_a.name not in _PURE or a.index != b.index:
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
