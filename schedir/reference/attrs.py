"""Integer lists read off attributes, and upstream's static/dynamic lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr
from xdsl.ir import Attribute

DYNAMIC = -(2**63)
"""MLIR's ShapedType::kDynamic in static offset/size/stride arrays."""


def int_list(attr: Attribute) -> list[int]:
    """The integers of a dense array, dense elements or array-of-integers attribute."""
    if isinstance(attr, DenseArrayBase | DenseIntOrFPElementsAttr):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        return [int(a.value.data) for a in attr.data if isinstance(a, IntegerAttr)]
    raise TypeError(f"expected a list of integers, got {attr}")


def mixed(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    """Static values with each DYNAMIC entry replaced by the next dynamic operand."""
    it = iter(dynamic)
    return [int(next(it)) if v == DYNAMIC else v for v in static]


__all__ = ["DYNAMIC", "int_list", "mixed"]
