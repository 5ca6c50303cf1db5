"""Shared pieces of the rewrite library: the rewriter, constants, mixed static/dynamic lists.

`CanonRewriter` is xDSL's `PatternRewriter` with upstream's notification habits that the
greedy driver and the transform handles rely on: moved and cloned ops are announced as
inserted (upstream's `inlineBlockBefore` / `clone` do so), and every new op gets the
location of the op it is built for.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from typing import TypeAlias

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
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
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.utils import Mixed

FoldResult: TypeAlias = "list[Attribute | SSAValue] | bool | None"
"""What a folder returns: replacements (one per result), True if it updated the op in
place, or None when it does not apply."""

Folder = Callable[[Operation], "list[Attribute | SSAValue] | bool | None"]
Pattern = Callable[[Operation, "CanonRewriter"], bool]
"""A rewrite pattern: returns True if it changed the IR (through the rewriter)."""


class CanonRewriter(PatternRewriter):
    """A `PatternRewriter` that reports moves and clones as insertions, as upstream's."""

    def __init__(
        self, insert_point: Operation | InsertPoint, listener: PatternRewriterListener | None = None
    ):
        super().__init__(insert_point)
        if listener is not None:
            self.extend_from_listener(listener)

    def set_insertion_point(self, point: InsertPoint | Operation) -> None:
        """Insert before `point` when given an op."""
        self.insertion_point = InsertPoint.before(point) if isinstance(point, Operation) else point

    def inline_block(
        self,
        block: Block,
        insertion_point: InsertPoint,
        arg_values: Sequence[SSAValue] = (),
    ) -> None:
        moved = list(block.ops)
        super().inline_block(block, insertion_point, arg_values)
        for op in moved:
            self.handle_operation_insertion(op)

    def move_op(self, op: Operation, point: InsertPoint) -> None:
        """Move `op` (announced as an insertion, as upstream's `moveOpBefore`)."""
        self.has_done_action = True
        op.detach()
        if point.insert_before is not None:
            point.block.insert_op_before(op, point.insert_before)
        else:
            point.block.add_op(op)
        self.handle_operation_insertion(op)

    def modified(self, op: Operation) -> None:
        """Announce an in-place update of `op`."""
        self.notify_op_modified(op)

    def create(self, op: Operation, loc: LocationAttr | Operation | None = None) -> Operation:
        """Insert `op` at the insertion point with `loc` (an op lends its location)."""
        if isinstance(loc, Operation):
            loc = loc.location
        if loc is not None:
            op.location = loc
        if op.name == "arith.constant" and op.results[0].name_hint is None:
            # As upstream's printer names constants (%c4, %cst, %true).
            value = op.properties.get("value")
            op.results[0].name_hint = constant_name(value) if value is not None else None
        self.insert(op)
        return op

    def constant_index(self, value: int, loc: LocationAttr | Operation | None) -> SSAValue:
        """A new `arith.constant <value> : index` at the insertion point."""
        return self.create(arith.ConstantOp(IntegerAttr(value, IndexType())), loc).results[0]

    def mixed_value(self, value: Mixed, loc: LocationAttr | Operation | None) -> SSAValue:
        """An SSA value for a mixed entry (constants materialized as index constants)."""
        return value if isinstance(value, SSAValue) else self.constant_index(value, loc)

    def replace_values(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        """Replace all results of `op` with `values` and erase it (upstream `replaceOp`)."""
        self.replace(op, [], list(values))

    def replace_with_op(self, op: Operation, new: Operation) -> None:
        """Insert `new` before `op`, give it `op`'s location, and replace `op` by it."""
        new.location = op.location
        self.replace(op, new, list(new.results))


def constant_attr(value: SSAValue) -> Attribute | None:
    """The attribute of a value defined by `arith.constant`."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
        value = owner.properties.get("value")
        # Not `or`: an IntegerAttr of 0 is falsy.
        return value if value is not None else owner.attributes.get("value")
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
    attr = constant_attr(value)
    if isinstance(attr, FloatAttr):
        return attr.value.data
    return None


def is_constant_like(op: Operation) -> bool:
    return op.name == "arith.constant"


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


def constant_name(attr: Attribute) -> str | None:
    """The name upstream's printer gives a constant (`%c4`, `%c4_i32`, `%true`, `%cst`)."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
            return "true" if value else "false"
        if value < 0:
            return None
        if isinstance(attr.type, IntegerType):
            return f"c{value}_i{attr.type.width.data}"
        return f"c{value}"
    return "cst"


def mixed_static(values: Sequence[Mixed]) -> list[int | None]:
    """Each entry's constant value, or None where it is dynamic."""
    return [constant_int(v) for v in values]


def fold_mixed(
    values: Sequence[Mixed], only_non_negative: bool = False
) -> tuple[list[Mixed], bool]:
    """Replace SSA entries defined by constants with their value (upstream
    `foldDynamicIndexList`); returns the new list and whether anything changed."""
    out: list[Mixed] = []
    changed = False
    for v in values:
        c = constant_int(v) if isinstance(v, SSAValue) else None
        if only_non_negative and c is not None and c < 0:
            c = None
        if isinstance(v, SSAValue) and c is not None and c != DYNAMIC_INDEX:
            out.append(c)
            changed = True
        else:
            out.append(v)
    return out, changed


def fold_mixed_lists(
    offsets: Sequence[Mixed], sizes: Sequence[Mixed], strides: Sequence[Mixed]
) -> tuple[list[Mixed], list[Mixed], list[Mixed]] | None:
    """Upstream's constant-argument folding of slice-like ops: offsets, else sizes, else
    strides (its `failed(a) && failed(b) && failed(c)` folds one list per rewrite);
    negative offsets and sizes stay dynamic. None when nothing folds."""
    new_offsets, changed = fold_mixed(offsets, only_non_negative=True)
    if changed:
        return new_offsets, list(sizes), list(strides)
    new_sizes, changed = fold_mixed(sizes, only_non_negative=True)
    if changed:
        return list(offsets), new_sizes, list(strides)
    new_strides, changed = fold_mixed(strides)
    if changed:
        return list(offsets), list(sizes), new_strides
    return None


def same_mixed_strict(a: Mixed, b: Mixed) -> bool:
    """Upstream's `OpFoldResult ==`: the same SSA value or the same static value (an SSA
    constant and a static entry differ)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return a is b


def in_bounds_slice(
    shape: Sequence[int], offsets: Sequence[Mixed], sizes: Sequence[Mixed], strides: Sequence[Mixed]
) -> bool:
    """Upstream's `verifyInBoundsSlice` on the static entries."""
    for extent, off, size, stride in zip(shape, offsets, sizes, strides, strict=False):
        if not (isinstance(off, int) and isinstance(size, int) and isinstance(stride, int)):
            continue
        if extent == DYNAMIC_INDEX or size == 0:
            continue
        if off + (size - 1) * stride >= extent:
            return False
    return True


def same_mixed(a: Mixed, b: Mixed) -> bool:
    """Equal static values or the same SSA value (constants compare by value)."""
    ca = constant_int(a)
    cb = constant_int(b)
    if ca is not None or cb is not None:
        return ca == cb
    return a is b


def defining_op(value: SSAValue) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def users(value: SSAValue) -> list[Operation]:
    return [use.operation for use in value.uses]


# --- integer and float values ---------------------------------------------------------------


def int_width(type_: Attribute) -> int | None:
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
    return value & ((1 << width) - 1)


def int_attr(value: int, type_: Attribute) -> IntegerAttr:
    width = int_width(type_)
    assert width is not None
    if width == 1:
        return IntegerAttr(-1 if value & 1 else 0, type_)  # type: ignore[arg-type]
    return IntegerAttr(wrap(value, width), type_)  # type: ignore[arg-type]


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
    rounded = round_float(value, type_)
    if rounded is None:
        return None
    return FloatAttr(rounded, type_)  # type: ignore[arg-type]


__all__ = [
    "CanonRewriter",
    "FoldResult",
    "Folder",
    "Pattern",
    "constant_attr",
    "constant_float",
    "constant_int",
    "defining_op",
    "float_attr",
    "fold_mixed",
    "int_attr",
    "int_width",
    "is_constant_like",
    "materialize_constant",
    "mixed_static",
    "round_float",
    "same_mixed",
    "unsigned",
    "users",
    "wrap",
]
