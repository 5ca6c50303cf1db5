"""One-Shot bufferization, the rewrite: tensor ops become memref ops, following the analysis.

Ops are rewritten in program order. A rewritten tensor value is replaced by a placeholder
`bufferization.to_tensor %buffer` (as upstream does), so the IR stays valid and the next
consumer finds the buffer of its operand on the placeholder; placeholders nobody needs at
the end are erased, so only unknown ops (with `allow-unknown-ops`) keep them as the
boundary. Where the analysis decided an operand out of place, the op gets a private copy
(`memref.alloc`, plus a copy when the op needs the old contents).

Loops carry no buffers: an `scf.for` iteration argument and an `scf.forall` shared output
*are* the buffer of their init (or of its copy), which the body updates in place; a yielded
buffer that is not that buffer is copied into it at the end of the iteration, so no
allocation escapes a loop. `scf.if` results are either a buffer both branches yield, a
merge of outside buffers, or (when a branch yields a buffer it allocated) a buffer each
branch allocates and hands over: an *owned* result, freed by its user like an allocation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, bufferization, func, memref, scf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from schedir.diagnostics import UnsupportedError
from schedir.dialects import linalg as linalg_dialect
from schedir.dialects.linalg import CopyOp as LinalgCopyOp
from schedir.dialects.linalg import FillOp, GenericOp, IndexOp, YieldOp
from schedir.dialects.memref import (
    AllocOp,
    CastOp,
    CollapseShapeOp,
    CopyOp,
    ExpandShapeOp,
    GetGlobalOp,
    GlobalOp,
    LoadOp,
    StoreOp,
)
from schedir.dialects.scf import ForallOp, InParallelOp
from schedir.dialects.syntax import op_location
from schedir.dialects.tensor import GenerateOp, ParallelInsertSliceOp
from schedir.lowering._buffer_index_equality import same_values
from schedir.lowering._buffer_types import (
    LayoutKind,
    cast_is_safe,
    collapse_type,
    expand_type,
    join_types,
    memref_for_tensor,
    rank_reduction_mask,
    static_or_none,
    subview_type,
    with_shape,
)
from schedir.lowering._bufferization_model import Key, is_tensor, kind

_VIEWS = (memref.SubviewOp, memref.CastOp, memref.CollapseShapeOp, memref.ExpandShapeOp)


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


class FunctionRewriter:
    """Rewrites the tensor ops of one function body according to a `RewritePlan`."""

    def __init__(self, state: BufferizeState, plan: RewritePlan) -> None:
        self.state = state
        self.options = state.options
        self.plan = plan
        self.placeholders: set[Operation] = set()
        self._to_buffer: dict[SSAValue, SSAValue] = {}
        self._boundary: set[Operation] = set()
        self.views: list[Operation] = []
        """Views this rewrite made, erased at the end if unused."""

    # -- placeholders ------------------------------------------------------------------

    def buffer_of(self, value: SSAValue) -> SSAValue:
        """The buffer standing for tensor `value` (a `to_buffer` for unknown producers)."""
        owner = value.owner
        if isinstance(owner, bufferization.ToTensorOp) and owner in self.placeholders:
            return owner.memref
        found = self._to_buffer.get(value)
        if found is None:
            tensor_type = cast(TensorType[Attribute], value.type)
            to_buffer = bufferization.ToBufferOp.build(
                operands=[value], result_types=[memref_for_tensor(tensor_type)]
            )
            if isinstance(owner, Operation):
                Rewriter.insert_op(to_buffer, InsertPoint.after(owner))
                to_buffer.location = owner.location
            else:
                Rewriter.insert_op(to_buffer, InsertPoint.at_start(owner))
            found = to_buffer.memref
            self._to_buffer[value] = found
            self._boundary.add(to_buffer)
        return found

    def replace_tensor(self, value: SSAValue, buffer: SSAValue, where: InsertPoint) -> None:
        """Replace every use of tensor `value` by a placeholder for `buffer` (at `where`)."""
        if not value.uses:
            return
        placeholder = bufferization.ToTensorOp(buffer)
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

    # -- building blocks ---------------------------------------------------------------

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
        sizes = list(slice_op.properties["static_sizes"].get_values())  # type: ignore[union-attr]
        dropped = rank_reduction_mask(sizes, slice_type.get_shape())
        assert dropped is not None, "slice op verifier guarantees a rank reduction"
        offsets = list(slice_op.properties["static_offsets"].get_values())  # type: ignore[union-attr]
        strides = list(slice_op.properties["static_strides"].get_values())  # type: ignore[union-attr]
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

    # -- driver ------------------------------------------------------------------------

    def rewrite_block(self, block: Block) -> None:
        """Rewrite every op of `block` but its terminator (its parent handles that)."""
        for op in list(block.ops):
            if op is block.last_op and op.has_trait(IsTerminator):
                break
            self.rewrite_op(op)

    def rewrite_op(self, op: Operation) -> None:
        if op in self.placeholders or op in self._boundary:
            return  # made by this rewrite: already buffer-level
        handler = _HANDLERS.get(kind(op))
        if handler is not None:
            handler(self, op)
            return
        op_kind = kind(op)
        if op_kind == "unknown":
            self._unknown(op)
        elif op_kind == "none" and not linalg_dialect.is_structured(op):
            for region in op.regions:
                for block in region.blocks:
                    for nested in list(block.ops):
                        self.rewrite_op(nested)

    def finish(self, op: Operation, buffers: Sequence[SSAValue | None]) -> None:
        """Replace `op`'s tensor results by `buffers` (placeholders after `op`), erase it."""
        where = InsertPoint.after(op)
        for result, buffer in zip(op.results, buffers, strict=True):
            if buffer is not None:
                self.replace_tensor(result, buffer, where)
        Rewriter.erase_op(op)

    # -- op rules ----------------------------------------------------------------------

    def _structured(self, op: Operation) -> None:
        inits = list(linalg_dialect.dps_inits(op))
        operands: list[SSAValue] = []
        init_buffers: list[SSAValue] = []
        for index, operand in enumerate(op.operands):
            if not is_tensor(operand):
                operands.append(operand)
            elif index >= len(op.operands) - len(inits):
                buffer = self.operand_buffer(op, index)
                operands.append(buffer)
                init_buffers.append(buffer)
            else:
                operands.append(self.buffer_of(operand))
        regions = [op.detach_region(r) for r in list(op.regions)]
        new_op = type(op).create(
            operands=operands,
            result_types=[r.type for r in op.results if not is_tensor(r)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        self.insert(new_op, op)
        tensor_results = [r for r in op.results if is_tensor(r)]
        self.finish(
            op,
            [init_buffers[tensor_results.index(r)] if is_tensor(r) else None for r in op.results],
        )

    def _empty(self, op: Operation) -> None:
        assert isinstance(op, xtensor.EmptyOp | bufferization.AllocTensorOp)
        result_type = cast(TensorType[Attribute], op.results[0].type)
        buffer = self.alloc(memref_for_tensor(result_type), list(op.dynamic_sizes), op)
        if isinstance(op, bufferization.AllocTensorOp) and op.copy is not None:
            self.copy(self.buffer_of(op.copy), buffer, op)
        self.finish(op, [buffer])

    def _extract_slice(self, op: Operation) -> None:
        assert isinstance(op, xtensor.ExtractSliceOp)
        source = self.buffer_of(op.source)
        view = self.subview(source, op, cast(TensorType[Attribute], op.result.type), op)
        if (op, 0) not in self.plan.in_place:
            view = self.private_copy(view, self.plan.copy_contents.get((op, 0), True), op)
        self.finish(op, [view])

    def _insert_slice(self, op: Operation) -> None:
        assert isinstance(op, xtensor.InsertSliceOp)
        dest = self.operand_buffer(op, 1)
        self._copy_into_slice(self.buffer_of(op.source), dest, op, op)
        self.finish(op, [dest])

    def _copy_into_slice(
        self, source: SSAValue, dest: SSAValue, slice_op: Operation, before: Operation
    ) -> None:
        """Copy `source` into the slice of `dest`, unless it already is that very slice."""
        if _is_same_subview(source, dest, slice_op):
            return
        slice_type = cast(TensorType[Attribute], slice_op.operands[0].type)
        view = self.subview(dest, slice_op, slice_type, before)
        self.copy(source, view, before)

    def _extract(self, op: Operation) -> None:
        assert isinstance(op, xtensor.ExtractOp)
        load = LoadOp.get(self.buffer_of(op.tensor), list(op.indices))
        self.insert(load, op)
        op.result.replace_all_uses_with(load.res)
        Rewriter.erase_op(op)

    def _insert(self, op: Operation) -> None:
        assert isinstance(op, xtensor.InsertOp)
        dest = self.operand_buffer(op, 1)
        self.insert(StoreOp.get(op.scalar, dest, list(op.indices)), op)
        self.finish(op, [dest])

    def _dim(self, op: Operation) -> None:
        assert isinstance(op, xtensor.DimOp)
        dim = memref.DimOp(self.buffer_of(op.source), op.index)
        self.insert(dim, op)
        op.result.replace_all_uses_with(dim.result)
        Rewriter.erase_op(op)

    def _cast(self, op: Operation) -> None:
        assert isinstance(op, xtensor.CastOp)
        source = self.operand_buffer(op, 0)
        result_type = op.dest.type
        if not isinstance(result_type, TensorType):
            raise UnsupportedError(
                "tensor.cast to an unranked tensor is not supported", op_location(op)
            )
        target = with_shape(cast(MemRefType[Attribute], source.type), result_type.get_shape())
        self.finish(op, [self.cast_to(source, target, op)])

    def _reshape(self, op: Operation) -> None:
        source = self.operand_buffer(op, 0)
        groups = [[int(i.value.data) for i in g.data] for g in op.properties["reassociation"].data]  # type: ignore[union-attr]
        result_type = cast(TensorType[Attribute], op.results[0].type)
        source_type = cast(MemRefType[Attribute], source.type)
        if isinstance(op, xtensor.CollapseShapeOp):
            target = collapse_type(source_type, groups)
            if target is None:
                # The view cannot express this collapse of a strided buffer: copy it into a
                # contiguous buffer first (upstream does the same).
                source = self.private_copy(source, True, op)
                target = collapse_type(cast(MemRefType[Attribute], source.type), groups)
                assert target is not None
            target = with_shape(target, result_type.get_shape())
            new_op = CollapseShapeOp.build(
                operands=[source],
                result_types=[target],
                properties={"reassociation": op.properties["reassociation"]},
            )
        else:
            assert isinstance(op, xtensor.ExpandShapeOp)
            target = expand_type(source_type, groups, result_type.get_shape())
            new_op = ExpandShapeOp.build(
                operands=[source, list(op.dynamic_output_shape)],
                result_types=[target],
                properties={
                    "reassociation": op.properties["reassociation"],
                    "static_output_shape": op.static_output_shape,
                },
            )
        self.insert(new_op, op)
        self.finish(op, [new_op.results[0]])

    def _constant(self, op: Operation) -> None:
        assert isinstance(op, arith.ConstantOp)
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise UnsupportedError(
                f"tensor constant of attribute kind '{value.name}' is not supported",
                op_location(op),
            )
        memref_type = memref_for_tensor(cast(TensorType[Attribute], op.result.type))
        name = self.global_for(value, memref_type)
        get = GetGlobalOp(SymbolRefAttr(name), memref_type)
        self.insert(get, op)
        self.views.append(get)  # dropped if nothing reads the constant
        self.finish(op, [get.memref])

    def global_for(
        self, value: DenseIntOrFPElementsAttr, memref_type: MemRefType[Attribute]
    ) -> str:
        """The private constant `memref.global` holding `value` (one per distinct value)."""
        key = (str(memref_type), value)
        found = self.state.globals.get(key)
        if found is not None:
            return found
        module = self.state.module
        shape = "x".join(str(d) for d in memref_type.get_shape())
        base = f"__constant_{shape}{'x' if shape else ''}{memref_type.get_element_type()}"
        taken = {
            op.properties["sym_name"].data  # type: ignore[union-attr]
            for op in module.ops
            if "sym_name" in op.properties
        } | {
            op.attributes["sym_name"].data  # type: ignore[union-attr]
            for op in module.ops
            if "sym_name" in op.attributes
        }
        name, suffix = base, 0
        while name in taken:
            name = f"{base}_{suffix}"
            suffix += 1
        global_op = GlobalOp.build(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "type": memref_type,
                "initial_value": value,
                "constant": UnitAttr(),
                "alignment": IntegerAttr(64, 64),
            }
        )
        first = module.body.block.first_op
        if first is None:
            module.body.block.add_op(global_op)
        else:
            Rewriter.insert_op(global_op, InsertPoint.before(first))
        self.state.globals[key] = name
        return name

    def _new(self, op: Operation) -> None:
        result_type = cast(TensorType[Attribute], op.results[0].type)
        target = memref_for_tensor(result_type)
        match op:
            case xtensor.FromElementsOp():
                buffer = self.alloc(target, [], op)
                shape = result_type.get_shape()
                strides = [1] * len(shape)
                for d in range(len(shape) - 2, -1, -1):
                    strides[d] = strides[d + 1] * shape[d + 1]
                for flat, element in enumerate(op.elements):
                    indices = [
                        self.index((flat // s) % n, op) for s, n in zip(strides, shape, strict=True)
                    ]
                    self.insert(StoreOp.get(element, buffer, indices), op)
            case xtensor.SplatOp():
                buffer = self.alloc(target, list(op.dynamicSizes), op)
                self.insert(FillOp([op.input], [buffer]), op)
            case GenerateOp():
                buffer = self.alloc(target, list(op.dynamicExtents), op)
                self._generate_into(buffer, op.body, op)
            case xtensor.PadOp():
                buffer = self._pad(op, target)
            case xtensor.ConcatOp():
                buffer = self._concat(op, target)
            case _:
                raise UnsupportedError(
                    f"'{op.name}' is not supported by one-shot-bufferize", op_location(op)
                )
        self.finish(op, [buffer])

    def _generate_into(self, buffer: SSAValue, body: Region, op: Operation) -> None:
        """Fill `buffer` with the values `body` (index args, `tensor.yield`) computes."""
        rank = cast(MemRefType[Attribute], buffer.type).get_num_dims()
        block = Block(arg_types=[cast(MemRefType[Attribute], buffer.type).get_element_type()])
        indices: list[SSAValue] = []
        for d in range(rank):
            index_op = IndexOp(d)
            block.add_op(index_op)
            indices.append(index_op.result)
        source = body.block
        terminator = source.last_op
        assert terminator is not None
        yielded = terminator.operands[0]
        for arg, index in zip(source.args, indices, strict=True):
            arg.replace_all_uses_with(index)
        Rewriter.erase_op(terminator)
        for nested in list(source.ops):
            nested.detach()
            block.add_op(nested)
        block.add_op(YieldOp(yielded))
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            [],
            [buffer],
            Region(block),
            [identity],
            [IteratorTypeAttr.parallel()] * rank,
        )
        self.insert(generic, op)

    def _pad(self, op: xtensor.PadOp, target: MemRefType[Attribute]) -> SSAValue:
        source = self.buffer_of(op.source)
        source_shape = cast(MemRefType[Attribute], source.type).get_shape()
        low = _mixed(op.static_low.get_values(), list(op.low))
        high = _mixed(op.static_high.get_values(), list(op.high))
        sizes: list[SSAValue] = []
        source_sizes: list[int | SSAValue] = []
        for d, size in enumerate(source_shape):
            if size == DYNAMIC_INDEX:
                dim = self.insert(memref.DimOp(source, self.index(d, op)), op).results[0]
                source_sizes.append(dim)
            else:
                source_sizes.append(size)
            if target.get_shape()[d] == DYNAMIC_INDEX:
                total = self._as_value(source_sizes[d], op)
                for extra in (low[d], high[d]):
                    total = self.insert(arith.AddiOp(total, self._as_value(extra, op)), op).results[
                        0
                    ]
                sizes.append(total)
        buffer = self.alloc(target, sizes, op)
        terminator = op.region.block.last_op
        assert terminator is not None
        pad_value = terminator.operands[0]
        if not op.region.block.args or not any(a.uses for a in op.region.block.args):
            if op.is_ancestor(pad_value.owner) and pad_value.owner is not op:
                # A constant computed in the body: hoist the body before the op.
                for nested in list(op.region.block.ops):
                    if nested is terminator:
                        break
                    nested.detach()
                    self.insert(nested, op, nested)
            self.insert(FillOp([pad_value], [buffer]), op)
        else:
            self._generate_into(buffer, op.region, op)
        interior = self._subview_mixed(buffer, low, source_sizes, op)
        self.copy(source, interior, op)
        return buffer

    def _concat(self, op: xtensor.ConcatOp, target: MemRefType[Attribute]) -> SSAValue:
        axis = op.dim.value.data
        buffers = [self.buffer_of(v) for v in op.inputs]
        sizes: list[SSAValue] = []
        rank = target.get_num_dims()
        for d in range(rank):
            if target.get_shape()[d] != DYNAMIC_INDEX:
                continue
            if d != axis:
                sizes.append(
                    self.insert(memref.DimOp(buffers[0], self.index(d, op)), op).results[0]
                )
                continue
            total = self.index(0, op)
            for b in buffers:
                dim = self.insert(memref.DimOp(b, self.index(d, op)), op).results[0]
                total = self.insert(arith.AddiOp(total, dim), op).results[0]
            sizes.append(total)
        buffer = self.alloc(target, sizes, op)
        offset: int | SSAValue = 0
        for b in buffers:
            shape = cast(MemRefType[Attribute], b.type).get_shape()
            extent: list[int | SSAValue] = [
                s
                if s != DYNAMIC_INDEX
                else self.insert(memref.DimOp(b, self.index(d, op)), op).results[0]
                for d, s in enumerate(shape)
            ]
            offsets: list[int | SSAValue] = [0] * rank
            offsets[axis] = offset
            self.copy(b, self._subview_mixed(buffer, offsets, extent, op), op)
            if isinstance(offset, int) and isinstance(extent[axis], int):
                offset = offset + cast(int, extent[axis])
            else:
                offset = self.insert(
                    arith.AddiOp(self._as_value(offset, op), self._as_value(extent[axis], op)), op
                ).results[0]
        return buffer

    def _as_value(self, value: int | SSAValue, before: Operation) -> SSAValue:
        return self.index(value, before) if isinstance(value, int) else value

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

    def _unknown(self, op: Operation) -> None:
        if not self.options.allow_unknown_ops:
            raise UnsupportedError(
                f"'{op.name}' on tensors is not supported by one-shot-bufferize "
                "(allow-unknown-ops=true keeps it behind to_tensor/to_buffer)",
                op_location(op),
            )
        for index, operand in enumerate(op.operands):
            if is_tensor(operand) and (op, index) not in self.plan.in_place:
                fresh = self.private_copy(self.buffer_of(operand), True, op)
                placeholder = bufferization.ToTensorOp(fresh)
                self.insert(placeholder, op)
                op.operands[index] = placeholder.tensor
        for region in op.regions:
            for block in region.blocks:
                for nested in list(block.ops):
                    self.rewrite_op(nested)

    # -- control flow ------------------------------------------------------------------

    def _loop_buffers(self, op: Operation, first: int, count: int) -> list[SSAValue]:
        buffers: list[SSAValue] = []
        for index in range(first, first + count):
            if is_tensor(op.operands[index]):
                buffers.append(self.operand_buffer(op, index))
        return buffers

    def _bind_args(
        self, block: Block, args: Sequence[SSAValue], buffers: Sequence[SSAValue]
    ) -> None:
        """Make tensor block arguments `args` stand for `buffers`, then drop them."""
        for arg, buffer in zip(args, buffers, strict=True):
            self.replace_tensor(arg, buffer, InsertPoint.at_start(block))
        for arg in args:
            block.erase_arg(arg)  # type: ignore[arg-type]

    def _for(self, op: Operation) -> None:
        assert isinstance(op, scf.ForOp)
        tensor_positions = [k for k, v in enumerate(op.iter_args) if is_tensor(v)]
        buffers = self._loop_buffers(op, 3, len(op.iter_args))
        block = op.body.block
        self._bind_args(block, [block.args[1 + k] for k in tensor_positions], buffers)
        self.rewrite_block(block)
        terminator = block.last_op
        assert isinstance(terminator, scf.YieldOp)
        self._copy_yields(terminator, tensor_positions, buffers)
        kept = [k for k in range(len(op.iter_args)) if k not in tensor_positions]
        new_yield = scf.YieldOp(*[terminator.operands[k] for k in kept])
        self.insert(new_yield, terminator)
        Rewriter.erase_op(terminator)
        body = op.detach_region(op.body)
        new_for = scf.ForOp(op.lb, op.ub, op.step, [op.iter_args[k] for k in kept], body)
        self.insert(new_for, op)
        for position, k in enumerate(kept):
            op.results[k].replace_all_uses_with(new_for.results[position])
        self.finish(
            op,
            [
                buffers[tensor_positions.index(k)] if k in tensor_positions else None
                for k in range(len(op.results))
            ],
        )

    def _copy_yields(
        self, terminator: Operation, positions: Sequence[int], buffers: Sequence[SSAValue]
    ) -> None:
        """Make each loop buffer hold its yielded value at the end of an iteration."""
        sources: list[SSAValue] = []
        for position, buffer in zip(positions, buffers, strict=True):
            source = self.buffer_of(terminator.operands[position])
            if _strip_casts(source) is _strip_casts(buffer):
                sources.append(buffer)
                continue
            if (terminator, position) in self.plan.yield_via_temp:
                # The yielded buffer may overlap a loop buffer another copy writes: stage it.
                source = self.private_copy(source, True, terminator)
            sources.append(source)
        for source, buffer in zip(sources, buffers, strict=True):
            if source is not buffer:
                self.copy(source, buffer, terminator)

    def _forall(self, op: Operation) -> None:
        assert isinstance(op, ForallOp)
        first = len(op.operands) - len(op.outputs)
        buffers = self._loop_buffers(op, first, len(op.outputs))
        block = op.body.block
        shared = list(op.region_iter_args)
        for arg, buffer in zip(shared, buffers, strict=True):
            self.replace_tensor(arg, buffer, InsertPoint.at_start(block))
        self.rewrite_block(block)
        terminator = block.last_op
        assert isinstance(terminator, InParallelOp)
        for insert in list(terminator.region.block.ops):
            assert isinstance(insert, ParallelInsertSliceOp)
            dest = self.buffer_of(insert.dest)
            self._copy_into_slice(self.buffer_of(insert.source), dest, insert, terminator)
            Rewriter.erase_op(insert)
        for arg in shared:
            block.erase_arg(arg)  # type: ignore[arg-type]
        body = op.detach_region(op.body)
        new_forall = ForallOp(op.lower_bounds, op.upper_bounds, op.steps, (), op.mapping, body)
        new_forall.attributes.update(op.attributes)
        self.insert(new_forall, op)
        self.finish(op, list(buffers))

    def _if(self, op: Operation) -> None:
        assert isinstance(op, scf.IfOp)
        blocks = [region.block for region in op.regions if region.blocks]
        for block in blocks:
            self.rewrite_block(block)
        yields = [cast(scf.YieldOp, block.last_op) for block in blocks]
        result_types: list[Attribute] = []
        yielded_per_branch: list[list[SSAValue]] = [[] for _ in blocks]
        replacements: list[SSAValue | None] = []
        owning: list[bool] = []
        for k, result in enumerate(op.results):
            values = [y.operands[k] for y in yields]
            if not is_tensor(result):
                result_types.append(result.type)
                for branch, value in enumerate(values):
                    yielded_per_branch[branch].append(value)
                replacements.append(None)
                owning.append(False)
                continue
            buffers = [self.buffer_of(v) for v in values]
            if all(b is buffers[0] for b in buffers):
                replacements.append(buffers[0])  # the same buffer either way: no result needed
                continue
            local = [_defined_in(b, block) for b, block in zip(buffers, blocks, strict=True)]
            if any(local):
                buffers = [
                    self._hand_over(b, y, yielded_per_branch[i])
                    for i, (b, y) in enumerate(zip(buffers, yields, strict=True))
                ]
            joined = join_types([cast(MemRefType[Attribute], b.type) for b in buffers])
            if joined is None:
                joined = memref_for_tensor(cast(TensorType[Attribute], result.type))
            for branch, (b, y) in enumerate(zip(buffers, yields, strict=True)):
                yielded_per_branch[branch].append(self.cast_to(b, joined, y))
            result_types.append(joined)
            replacements.append(None)
            owning.append(any(local))
        for y, values in zip(yields, yielded_per_branch, strict=True):
            self.insert(scf.YieldOp(*values), y)
            Rewriter.erase_op(y)
        regions = [op.detach_region(r) for r in list(op.regions)]
        new_if = scf.IfOp(
            op.cond, result_types, regions[0], regions[1] if len(regions) > 1 else None
        )
        self.insert(new_if, op)
        buffers_out: list[SSAValue | None] = []
        position = 0
        for k, result in enumerate(op.results):
            replacement = replacements[k] if k < len(replacements) else None
            if is_tensor(result) and replacement is not None:
                buffers_out.append(replacement)
                continue
            new_result = new_if.results[position]
            if is_tensor(result):
                buffers_out.append(new_result)
                if owning[position]:
                    self.state.owned[new_result] = None
            else:
                result.replace_all_uses_with(new_result)
                buffers_out.append(None)
            position += 1
        self.finish(op, buffers_out)

    def _hand_over(
        self, buffer: SSAValue, terminator: Operation, taken: list[SSAValue]
    ) -> SSAValue:
        """A buffer this branch allocated, for it to yield and the `scf.if` result to own:
        `buffer` itself when the branch allocated it and yields it once, else a copy."""
        owner = buffer.owner
        fresh = (
            buffer in self.state.owned
            and isinstance(owner, Operation)
            and owner.parent_block() is terminator.parent_block()
            and all(t is not buffer for t in taken)
        )
        if not fresh:
            buffer = self.private_copy(buffer, True, terminator)
        del self.state.owned[buffer]
        return buffer

    def _call(self, op: Operation) -> None:
        assert isinstance(op, func.CallOp)
        if not self.options.function_boundaries:
            self._unknown(op)
            return
        operands: list[SSAValue] = []
        for index, operand in enumerate(op.arguments):
            if not is_tensor(operand):
                operands.append(operand)
                continue
            buffer = self.operand_buffer(op, index)
            expected = memref_for_tensor(
                cast(TensorType[Attribute], operand.type), self.options.layout
            )
            operands.append(self.cast_to(buffer, expected, op))
        result_types = [
            memref_for_tensor(cast(TensorType[Attribute], t)) if isinstance(t, TensorType) else t
            for t in op.result_types
        ]
        new_call = func.CallOp(op.callee, operands, result_types)
        self.insert(new_call, op)
        buffers: list[SSAValue | None] = []
        for old, new in zip(op.results, new_call.results, strict=True):
            if is_tensor(old):
                self.state.owned[new] = None
                buffers.append(new)
            else:
                old.replace_all_uses_with(new)
                buffers.append(None)
        self.finish(op, buffers)

    def _to_tensor(self, op: Operation) -> None:
        assert isinstance(op, bufferization.ToTensorOp)
        self.finish(op, [op.memref])

    def _to_buffer(self, op: Operation) -> None:
        assert isinstance(op, bufferization.ToBufferOp)
        buffer = self.operand_buffer(op, 0)
        target = cast(MemRefType[Attribute], op.memref.type)
        op.memref.replace_all_uses_with(self.cast_to(buffer, target, op))
        Rewriter.erase_op(op)


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values: list[int | SSAValue] = []
    it = iter(dynamic)
    for s in static:
        values.append(next(it) if s == DYNAMIC_INDEX else s)
    return values


def _strip_casts(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, memref.CastOp):
        value = value.owner.source
    return value


def _defined_in(buffer: SSAValue, block: Block) -> bool:
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


def _is_same_subview(source: SSAValue, dest: SSAValue, slice_op: Operation) -> bool:
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


_HANDLERS: dict[str, Callable[[FunctionRewriter, Operation], None]] = {
    "structured": FunctionRewriter._structured,
    "empty": FunctionRewriter._empty,
    "alloc_tensor": FunctionRewriter._empty,
    "extract_slice": FunctionRewriter._extract_slice,
    "insert_slice": FunctionRewriter._insert_slice,
    "extract": FunctionRewriter._extract,
    "insert": FunctionRewriter._insert,
    "dim": FunctionRewriter._dim,
    "cast": FunctionRewriter._cast,
    "reshape": FunctionRewriter._reshape,
    "new": FunctionRewriter._new,
    "constant": FunctionRewriter._constant,
    "for": FunctionRewriter._for,
    "forall": FunctionRewriter._forall,
    "if": FunctionRewriter._if,
    "call": FunctionRewriter._call,
    "to_tensor": FunctionRewriter._to_tensor,
    "to_buffer": FunctionRewriter._to_buffer,
}

__all__ = ["BufferizeState", "FunctionRewriter", "RewriteOptions", "RewritePlan"]
