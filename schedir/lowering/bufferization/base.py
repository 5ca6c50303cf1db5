"""One-Shot bufferization, the rewrite's state and building blocks (see `rewrite`).

Ops are rewritten in program order. A rewritten tensor value is replaced by a placeholder
`bufferization.to_tensor %buffer` (as upstream does), so the IR stays valid and the next
consumer finds the buffer of its operand on the placeholder; placeholders nobody needs at
the end are erased, so only unknown ops (with `allow-unknown-ops`) keep them as the
boundary. Where the analysis decided an operand out of place, the op gets a private copy
(`memref.alloc`, plus a copy when the op needs the old contents).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, bufferization, memref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects.bufferization import ToBufferOp, ToTensorOp
from schedir.dialects.linalg import CopyOp as LinalgCopyOp
from schedir.dialects.memref import (
    AllocOp,
    CastOp,
    CopyOp,
)
from schedir.dialects.tensor import ParallelInsertSliceOp
from schedir.lowering.bufferization.index_equality import same_values
from schedir.lowering.bufferization.model import Key, static_slice_params
from schedir.lowering.bufferization.types import (
    LayoutKind,
    cast_is_safe,
    memref_for_tensor,
    rank_reduction_mask,
    static_or_none,
    subview_type,
)

_VIEWS = (memref.SubviewOp, memref.CastOp, memref.CollapseShapeOp, memref.ExpandShapeOp)
"""Ops whose result is a view of their first operand's buffer."""


@dataclass
class RewritePlan:
    """What the rewrite needs from the analysis, computed before the IR changes."""

    in_place: set[Key]
    copy_contents: dict[Key, bool]
    """For each out-of-place operand: whether its private buffer needs the old contents."""
    yield_via_temp: set[Key]
    """`scf.yield` operands of loops whose buffer may overlap the loop's buffers."""


@dataclass
class RewriteOptions:
    """The bufferization options the rewrite reads."""

    function_boundaries: bool = False
    layout: LayoutKind = "identity"
    memcpy_op: str = "memref.copy"
    allow_unknown_ops: bool = False


@dataclass
class BufferizeState:
    """Module-wide state of one bufferization run."""

    module: ModuleOp
    options: RewriteOptions
    owned: dict[SSAValue, None] = field(default_factory=dict[SSAValue, None])
    """Buffers the function that defines them must free (allocations, owned scf.if and call
    results), for the deallocation step."""
    globals: dict[tuple[str, Attribute], str] = field(
        default_factory=dict[tuple[str, Attribute], str]
    )


class RewriterBase:
    """A function's rewrite state (placeholders, boundary ops, views) and the helpers every
    op rule uses: buffers of tensors, allocations, copies, casts and subviews."""

    def __init__(self, state: BufferizeState, plan: RewritePlan) -> None:
        self.state = state
        self.options = state.options
        self.plan = plan
        self.placeholders: set[ToTensorOp] = set()
        self._buffers: dict[SSAValue, SSAValue] = {}
        """The buffer found for each tensor value (see `buffer_of`)."""
        self._boundary: set[Operation] = set()
        self.views: list[Operation] = []
        """Views this rewrite made, erased at the end if unused."""

    # -- provided by the concrete rewriter ---------------------------------------------

    def rewrite_block(self, block: Block) -> None:
        """Rewrite every op of `block` but its terminator."""
        raise NotImplementedError

    def _unknown(self, op: Operation) -> None:
        """Keep an op the rules do not know behind to_tensor/to_buffer (or reject it)."""
        raise NotImplementedError

    # -- placeholders and building blocks ----------------------------------------------

    def buffer_of(self, value: SSAValue) -> SSAValue:
        """The buffer standing for tensor `value` (a `to_buffer` for unknown producers)."""
        owner = value.owner
        if isinstance(owner, bufferization.ToTensorOp) and owner in self.placeholders:
            return owner.memref
        found = self._buffers.get(value)
        if found is None:
            tensor_type = cast(TensorType[Attribute], value.type)
            to_buffer = ToBufferOp.build(
                operands=[value], result_types=[memref_for_tensor(tensor_type)]
            )
            if isinstance(owner, Operation):
                Rewriter.insert_op(to_buffer, InsertPoint.after(owner))
                to_buffer.location = owner.location
            else:
                Rewriter.insert_op(to_buffer, InsertPoint.at_start(owner))
            found = to_buffer.memref
            self._buffers[value] = found
            self._boundary.add(to_buffer)
        return found

    def replace_tensor(self, value: SSAValue, buffer: SSAValue, where: InsertPoint) -> None:
        """Replace every use of tensor `value` by a placeholder for `buffer` (at `where`)."""
        if not value.uses:
            return
        placeholder = ToTensorOp(buffer)
        placeholder.tensor.name_hint = value.name_hint
        Rewriter.insert_op(placeholder, where)
        self.placeholders.add(placeholder)
        value.replace_all_uses_with(placeholder.tensor)

    def erase_dead_placeholders(self) -> None:
        """Drop placeholders nobody reads any more, then views nobody reads (a slice whose
        writer got a private buffer), latest first so chains of views go too."""
        for placeholder in list(self.placeholders):
            if not placeholder.tensor.uses:
                Rewriter.erase_op(placeholder)
        self.placeholders = {p for p in self.placeholders if p.parent is not None}
        for view in reversed(self.views):
            if view.parent is not None and not view.results[0].uses:
                Rewriter.erase_op(view)
        self.views.clear()

    def insert(self, op: Operation, before: Operation, where: Operation | None = None) -> Operation:
        """Insert `op` before `before`, located at `where` (default: `before`)."""
        Rewriter.insert_op(op, InsertPoint.before(before))
        op.location = (where or before).location
        return op

    def index(self, value: int, before: Operation) -> SSAValue:
        return self.insert(arith.ConstantOp.from_int_and_width(value, IndexType()), before).results[
            0
        ]

    def alloc(
        self,
        memref_type: MemRefType[Attribute],
        dynamic_sizes: Sequence[SSAValue],
        before: Operation,
    ) -> SSAValue:
        """A new buffer (freed by the deallocation step unless it escapes)."""
        op = AllocOp(list(dynamic_sizes), [], memref_type, IntegerAttr(64, 64))
        op.memref.name_hint = "alloc"
        self.insert(op, before)
        self.state.owned[op.memref] = None
        return op.memref

    def alloc_like(self, buffer: SSAValue, before: Operation) -> SSAValue:
        """A new identity-layout buffer with the shape of `buffer`."""
        source_type = cast(MemRefType[Attribute], buffer.type)
        sizes = [
            self.insert(memref.DimOp(buffer, self.index(d, before)), before).results[0]
            for d, size in enumerate(source_type.get_shape())
            if size == DYNAMIC_INDEX
        ]
        target = MemRefType(
            source_type.get_element_type(),
            source_type.get_shape(),
            memory_space=source_type.memory_space,
        )
        return self.alloc(target, sizes, before)

    def copy(self, source: SSAValue, target: SSAValue, before: Operation) -> None:
        if self.options.memcpy_op == "linalg.copy":
            self.insert(LinalgCopyOp([source], [target]), before)
        else:
            self.insert(CopyOp(source, target), before)

    def private_copy(self, buffer: SSAValue, with_contents: bool, before: Operation) -> SSAValue:
        """A new buffer shaped like `buffer`, holding its contents if asked."""
        fresh = self.alloc_like(buffer, before)
        if with_contents:
            self.copy(buffer, fresh, before)
        return fresh

    def operand_buffer(self, op: Operation, index: int) -> SSAValue:
        """The buffer operand `index` of `op` uses: its own, or a private copy if out of place."""
        buffer = self.buffer_of(op.operands[index])
        key = (op, index)
        if key in self.plan.in_place:
            return buffer
        return self.private_copy(buffer, self.plan.copy_contents.get(key, True), op)

    def cast_to(
        self, buffer: SSAValue, target: MemRefType[Attribute], before: Operation
    ) -> SSAValue:
        """`buffer` as type `target`: itself, a `memref.cast`, or a copy when a cast may fail."""
        if buffer.type == target:
            return buffer
        if cast_is_safe(cast(MemRefType[Attribute], buffer.type), target):
            return self.insert(
                CastOp.build(operands=[buffer], result_types=[target]), before
            ).results[0]
        fresh = self.alloc_like(buffer, before)
        self.copy(buffer, fresh, before)
        if fresh.type == target:
            return fresh
        return self.insert(CastOp.build(operands=[fresh], result_types=[target]), before).results[0]

    def subview(
        self,
        buffer: SSAValue,
        slice_op: Operation,
        slice_type: TensorType[Attribute],
        before: Operation,
    ) -> SSAValue:
        """`memref.subview` of `buffer` at the offsets/sizes/strides of a slice op."""
        offsets, sizes, strides = (list(p) for p in static_slice_params(slice_op))
        dropped = rank_reduction_mask(sizes, slice_type.get_shape())
        assert dropped is not None, "slice op verifier guarantees a rank reduction"
        result_type = subview_type(
            cast(MemRefType[Attribute], buffer.type),
            static_or_none(offsets),
            static_or_none(sizes),
            static_or_none(strides),
            dropped,
        )
        tensor_operands = (
            2 if isinstance(slice_op, xtensor.InsertSliceOp | ParallelInsertSliceOp) else 1
        )
        dyn = list(slice_op.operands[tensor_operands:])
        n_off = sum(1 for o in offsets if o == DYNAMIC_INDEX)
        n_size = sum(1 for s in sizes if s == DYNAMIC_INDEX)
        op = memref.SubviewOp(
            buffer,
            dyn[:n_off],
            dyn[n_off : n_off + n_size],
            dyn[n_off + n_size :],
            offsets,
            sizes,
            strides,
            result_type,
        )
        op.result.name_hint = "subview"
        self.views.append(op)
        return self.insert(op, before, slice_op).results[0]

    def finish(self, op: Operation, buffers: Sequence[SSAValue | None]) -> None:
        """Replace `op`'s tensor results by `buffers` (placeholders after `op`), erase it."""
        where = InsertPoint.after(op)
        for result, buffer in zip(op.results, buffers, strict=True):
            if buffer is not None:
                self.replace_tensor(result, buffer, where)
        Rewriter.erase_op(op)

    def _copy_into_slice(
        self, source: SSAValue, dest: SSAValue, slice_op: Operation, before: Operation
    ) -> None:
        """Copy `source` into the slice of `dest`, unless it already is that very slice
        (seen through `memref.cast`s: a tile loop carries its tile with dynamic sizes)."""
        if is_same_subview(strip_casts(source), dest, slice_op):
            return
        slice_type = cast(TensorType[Attribute], slice_op.operands[0].type)
        view = self.subview(dest, slice_op, slice_type, before)
        self.copy(source, view, before)

    def _subview_mixed(
        self,
        buffer: SSAValue,
        offsets: Sequence[int | SSAValue],
        sizes: Sequence[int | SSAValue],
        before: Operation,
    ) -> SSAValue:
        rank = len(offsets)
        result_type = subview_type(
            cast(MemRefType[Attribute], buffer.type),
            [o if isinstance(o, int) else None for o in offsets],
            [s if isinstance(s, int) else None for s in sizes],
            [1] * rank,
        )
        view = memref.SubviewOp.get(buffer, list(offsets), list(sizes), [1] * rank, result_type)
        view.result.name_hint = "subview"
        self.views.append(view)
        return self.insert(view, before).results[0]

    def _as_value(self, value: int | SSAValue, before: Operation) -> SSAValue:
        return self.index(value, before) if isinstance(value, int) else value


def mixed_list(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values: list[int | SSAValue] = []
    it = iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else s)
    return values


def strip_casts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, memref.CastOp):
        value = value.owner.source
    return value


def defined_in(buffer: SSAValue, block: Block) -> bool:
    """Whether the allocation `buffer` views was made inside `block` (or nested in it)."""
    value = buffer
    while isinstance(value.owner, _VIEWS):
        value = value.owner.operands[0]
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op.parent_block() is block:
            return True
        op = op.parent_op()
    return False


def is_same_subview(source: SSAValue, dest: SSAValue, slice_op: Operation) -> bool:
    """Whether `source` is the subview of `dest` that `slice_op` addresses."""
    view = source.owner
    if not isinstance(view, memref.SubviewOp) or view.source is not dest:
        return False
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if view.properties[name] != slice_op.properties[name]:
            return False
    first = 2 if isinstance(slice_op, xtensor.InsertSliceOp | ParallelInsertSliceOp) else 1
    mine = [*view.offsets, *view.sizes, *view.strides]
    theirs = list(slice_op.operands[first:])
    return same_values(mine, theirs)


__all__ = [
    "BufferizeState",
    "RewriteOptions",
    "RewritePlan",
    "RewriterBase",
    "defined_in",
    "is_same_subview",
    "mixed_list",
    "strip_casts",
]
