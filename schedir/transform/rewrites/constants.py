"""Constant values in rewrites: reading `arith.constant` operands, computing at a type's
width or precision, and materializing folded values as constants.

Integer arithmetic is two's complement at the type's width (index: 64 bits); float values
are rounded to the type's precision (bf16 by round-to-nearest-even on the f32 bits), as
upstream's `APInt` / `APFloat` folders compute.
"""

from __future__ import annotations

import math
import struct

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.rewriter import CanonRewriter, constant_name

# --- reading constants -----------------------------------------------------------------------


def constant_attr(value: SSAValue) -> Attribute | None:
    """The attribute of a value defined by `arith.constant`."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        attr = owner.properties.get("value")
        # Not `or`: an IntegerAttr of 0 is falsy.
        return attr if attr is not None else owner.attributes.get("value")
    return None


def constant_int(value: SSAValue | int | None) -> int | None:
    """The integer a value holds when it is an integer or index `arith.constant`."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    attr = constant_attr(value)
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def constant_float(value: SSAValue) -> float | None:
    """The float a value holds when it is a float `arith.constant`."""
    attr = constant_attr(value)
    if isinstance(attr, FloatAttr):
        return attr.value.data
    return None


def materialize_constant(
    rewriter: CanonRewriter, attr: Attribute, type_: Attribute, loc: LocationAttr
) -> Operation | None:
    """Upstream's `arith::ConstantOp::materialize` (what every dialect but scf and linalg
    uses): an `arith.constant` for integer, index, float and dense attributes."""
    if isinstance(attr, IntegerAttr):
        if attr.type != type_:
            if isinstance(type_, IntegerType | IndexType):
                attr = IntegerAttr(attr.value.data, type_)
            else:
                return None
    elif isinstance(attr, FloatAttr | DenseIntOrFPElementsAttr):
        if attr.type != type_:
            return None
    else:
        return None
    const = rewriter.create(arith.ConstantOp(attr), loc)
    const.results[0].name_hint = constant_name(attr)
    return const


# --- integer and float values ---------------------------------------------------------------


def int_width(type_: Attribute) -> int | None:
    """The bit width of an integer or index type (None for other types)."""
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def wrap(value: int, width: int) -> int:
    """Two's complement value at `width` bits, as a signed integer."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def unsigned(value: int, width: int) -> int:
    """`value` at `width` bits, as an unsigned integer."""
    return value & ((1 << width) - 1)


def int_attr(value: int, type_: Attribute) -> IntegerAttr:
    """An integer attribute of `type_` holding `value` wrapped to the type's width."""
    width = int_width(type_)
    assert width is not None
    if width == 1:
        return IntegerAttr(-1 if value & 1 else 0, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here
    return IntegerAttr(wrap(value, width), type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here


def round_float(value: float, type_: Attribute) -> float | None:
    """`value` rounded to the precision of a float type (None for other types)."""
    if isinstance(type_, Float64Type):
        return float(value)
    if isinstance(type_, Float32Type):
        return float(np.float32(value))
    if isinstance(type_, Float16Type):
        return float(np.float16(value))
    if isinstance(type_, BFloat16Type):
        if math.isnan(value) or math.isinf(value):
            return value
        bits = struct.unpack("<I", struct.pack("<f", float(np.float32(value))))[0]
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
        return struct.unpack("<f", struct.pack("<I", bits))[0]
    return None


def float_attr(value: float, type_: Attribute) -> FloatAttr | None:
    """A float attribute of `type_` holding `value` rounded to the type's precision."""
    rounded = round_float(value, type_)
    if rounded is None:
        return None
    return FloatAttr(rounded, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here


__all__ = [
    "constant_attr",
    "constant_float",
    "constant_int",
    "float_attr",
    "int_attr",
    "int_width",
    "materialize_constant",
    "round_float",
    "unsigned",
    "wrap",
]
