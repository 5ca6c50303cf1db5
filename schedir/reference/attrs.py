"""Reading op properties by name, so the reference works with any class defining an op."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase
from xdsl.ir import Attribute, Operation

from schedir.diagnostics import UnsupportedError
from schedir.dialects.syntax import op_location

DYNAMIC = -(2**63)
"""MLIR's ShapedType::kDynamic in static offset/size/stride arrays."""


def prop(op: Operation, *names: str) -> Attribute | None:
    """The first of `names` present as a property or attribute of `op`."""
    for name in names:
        value = op.properties.get(name)
        if value is None:
            value = op.attributes.get(name)
        if value is not None:
            return value
    return None


def int_list(attr: Attribute | None) -> list[int] | None:
    """The integers of a dense array, dense elements or array-of-integers attribute."""
    if attr is None:
        return None
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        return [int(a.value.data) for a in attr.data]  # type: ignore[attr-defined]
    get_values = getattr(attr, "get_values", None)
    if get_values is not None:
        return [int(v) for v in get_values()]
    raise TypeError(f"expected a list of integers, got {attr}")


def segments(op: Operation, count: int) -> list[list[Any]] | None:
    """Operand indices split by `operandSegmentSizes`, when the op has one."""
    sizes = int_list(prop(op, "operandSegmentSizes"))
    if sizes is None:
        return None
    if len(sizes) != count:
        raise UnsupportedError(
            f"'{op.name}' op has {len(sizes)} operand segments, expected {count}", op_location(op)
        )
    out: list[list[Any]] = []
    start = 0
    for size in sizes:
        out.append(list(range(start, start + size)))
        start += size
    return out


def mixed(static: list[int], dynamic: Sequence[Any]) -> list[int]:
    """Static values with each DYNAMIC entry replaced by the next dynamic operand."""
    it = iter(dynamic)
    return [int(next(it)) if v == DYNAMIC else v for v in static]


__all__ = ["DYNAMIC", "int_list", "mixed", "prop", "segments"]
