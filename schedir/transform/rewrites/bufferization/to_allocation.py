"""Bufferize one op into a new allocation (upstream's `linalg::bufferizeToAllocation`,
mlir/lib/Dialect/Linalg/Transforms/ConvertToDestinationStyle.cpp).

The tensor an op writes gets a buffer of its own, optionally in another memory space
(`#gpu.address_space<workgroup>` for tiles staged in shared memory), and the op is
bufferized onto it; the rest of the IR stays on tensors and sees the buffer through
`bufferization.to_tensor %alloc restrict writable`. Per op:

* `tensor.pad`: the allocation is filled with the padding value (`linalg.fill` for a
  constant or a value from outside, a `linalg.generic` computing the body otherwise) and
  the source is copied into the subview at the low padding;
* `bufferization.alloc_tensor`: becomes the allocation;
* structured ops, `tensor.insert`, `tensor.insert_slice`, `vector.transfer_write` on a
  tensor: the one tensor they write (their destination) is allocated, its contents copied
  in when it has any (not for a `tensor.empty`), and the op rewritten on buffers (its
  other tensor operands read through `bufferization.to_buffer`);
* with `destination_only`, any op with one written destination (also `scf.for`,
  `scf.forall`): only the destination is replaced by the copy; the op stays on tensors.

    %r = linalg.matmul ins(%a, %b : ...) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
    // memory_space = #gpu.address_space<workgroup> ->
    %alloc = memref.alloc() : memref<4x5xf32, #gpu.address_space<workgroup>>
    bufferization.materialize_in_destination %c in writable %alloc : (...) -> ()
    linalg.matmul ins(%ma, %mb : ...) outs(%alloc : memref<4x5xf32, #gpu.address_space<workgroup>>)
    %r = bufferization.to_tensor %alloc restrict writable : memref<...> to tensor<4x5xf32>

Copies use the requested `memcpy_op` (`bufferization.materialize_in_destination`, or
`memref.copy` / `linalg.copy` of a fully dynamic `to_buffer` of the source). With
`emit_dealloc`, a `memref.dealloc` goes before the terminator of the allocation's block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import arith, bufferization, scf, vector
from xdsl.dialects import memref as xmemref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from schedir.dialects.affine import ApplyOp
from schedir.dialects.bufferization import MaterializeInDestinationOp, ToBufferOp, ToTensorOp
from schedir.dialects.linalg import CopyOp as LinalgCopyOp
from schedir.dialects.linalg import FillOp, GenericOp, IndexOp, YieldOp
from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.memref import CopyOp, StoreOp
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import GenerateOp
from schedir.dialects.utils import split_mixed
from schedir.transform.rewrites.promotion import new_alloc, subview_type

MEMCPY_OPS = ("bufferization.materialize_in_destination", "memref.copy", "linalg.copy")
ALLOC_OPS = ("memref.alloc", "memref.alloca")


class AllocationFailure(Exception):
    """The op cannot be bufferized into one allocation (upstream returns a null value)."""


@dataclass(frozen=True)
class AllocationOptions:
    """Upstream's `BufferizeToAllocationOptions` plus the memory space."""

    memory_space: Attribute | None = None
    memcpy_op: str = "bufferization.materialize_in_destination"
    alloc_op: str = "memref.alloc"
    destination_only: bool = False
    emit_dealloc: bool = False


@dataclass(frozen=True)
class AllocationResult:
    """The new buffer and every op this rewrite created (still in the IR)."""

    buffer: SSAValue
    new_ops: tuple[Operation, ...]


@dataclass
class _Builder:
    """Inserts ops with the location of the op being rewritten and remembers them."""

    rewriter: PatternRewriter
    anchor: Operation
    created: list[Operation] = field(default_factory=list[Operation])

    def at(self, op: Operation, where: InsertPoint) -> Operation:
        self.rewriter.insert(op, where)
        op.location = self.anchor.location
        self.created.append(op)
        return op

    def before(self, op: Operation, before: Operation) -> Operation:
        return self.at(op, InsertPoint.before(before))

    def index(self, value: int, before: Operation) -> SSAValue:
        return self.before(arith.ConstantOp.from_int_and_width(value, IndexType()), before).results[
            0
        ]

    def alive(self) -> tuple[Operation, ...]:
        return tuple(op for op in self.created if op.parent is not None)


# --- types and values -------------------------------------------------------------------


def _buffer_type(
    tensor_type: TensorType[Attribute], memory_space: Attribute | None
) -> MemRefType[Attribute]:
    """Upstream's `getMemRefTypeWithStaticIdentityLayout`."""
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        NoneAttr(),
        memory_space if memory_space is not None else NoneAttr(),
    )


def _fully_dynamic(tensor_type: TensorType[Attribute]) -> MemRefType[Attribute]:
    """Upstream's `getMemRefTypeWithFullyDynamicLayout` (default memory space)."""
    rank = len(tensor_type.get_shape())
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        StridedLayoutAttr([None] * rank, None),
    )


def _after(value: SSAValue) -> InsertPoint:
    """Right after the definition of `value` (upstream's `setInsertionPointAfterValue`)."""
    if isinstance(value, BlockArgument):
        return InsertPoint.at_start(value.block)
    return InsertPoint.after(cast(OpResult, value).op)


def _buffer_of(b: _Builder, value: SSAValue) -> SSAValue:
    """Upstream's `getBuffer`: the memref of a `to_tensor`, else a `to_buffer` right
    after the value's definition."""
    owner = value.owner
    if isinstance(owner, bufferization.ToTensorOp):
        return owner.operands[0]
    tensor_type = cast(TensorType[Attribute], value.type)
    to_buffer = ToBufferOp.build(operands=[value], result_types=[_fully_dynamic(tensor_type)])
    return b.at(to_buffer, _after(value)).results[0]


def _dynamic_sizes(b: _Builder, value: SSAValue, before: Operation) -> list[SSAValue]:
    """Upstream's `reifyOrComputeDynamicSizes`: sizes the producer defines, else
    `tensor.dim`s of the value."""
    tensor_type = cast(TensorType[Attribute], value.type)
    shape = tensor_type.get_shape()
    if all(d != DYNAMIC_INDEX for d in shape):
        return []
    owner = value.owner
    if isinstance(owner, xtensor.EmptyOp):
        return list(owner.dynamic_sizes)
    if isinstance(owner, bufferization.AllocTensorOp):
        segments = owner.properties["operandSegmentSizes"].get_values()  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
        if segments[0]:
            return list(owner.operands[: segments[0]])
    if isinstance(owner, xtensor.PadOp):
        return _pad_sizes(b, owner, before)
    sizes: list[SSAValue] = []
    for dim, size in enumerate(shape):
        if size == DYNAMIC_INDEX:
            index = b.index(dim, before)
            sizes.append(b.before(xtensor.DimOp(value, index), before).results[0])
    return sizes


def _count_dynamic(shape: Sequence[int]) -> int:
    return sum(1 for d in shape if d == DYNAMIC_INDEX)


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    it = iter(dynamic)
    return [next(it) if s == DYNAMIC_INDEX else s for s in static]


def _pad_sizes(b: _Builder, pad: xtensor.PadOp, before: Operation) -> list[SSAValue]:
    """The reified sizes of a pad's result: `dim + low + high`, constants folded into one
    `affine.apply` per dynamic dimension (as upstream's composed folding prints them)."""
    source_shape = cast(TensorType[Attribute], pad.source.type).get_shape()
    result_shape = cast(TensorType[Attribute], pad.result.type).get_shape()
    lows = _mixed(pad.static_low.get_values(), list(pad.low))
    highs = _mixed(pad.static_high.get_values(), list(pad.high))
    sizes: list[SSAValue] = []
    for dim, size in enumerate(result_shape):
        if size != DYNAMIC_INDEX:
            continue
        terms: list[int | SSAValue] = []
        if source_shape[dim] == DYNAMIC_INDEX:
            index = b.index(dim, before)
            terms.append(b.before(xtensor.DimOp(pad.source, index), before).results[0])
        else:
            terms.append(source_shape[dim])
        terms += [lows[dim], highs[dim]]
        symbols = [t for t in terms if isinstance(t, SSAValue)]
        constant = sum(t for t in terms if isinstance(t, int))
        expr: AffineExpr | None = None
        for position in range(len(symbols)):
            sym = AffineSymExpr(position)
            expr = sym if expr is None else expr + sym
        if constant or expr is None:
            expr = AffineConstantExpr(constant) if expr is None else expr + constant
        if len(symbols) == 1 and constant == 0:
            sizes.append(symbols[0])
            continue
        apply = ApplyOp(symbols, AffineMapAttr(AffineMap(0, len(symbols), (expr,))))
        sizes.append(b.before(apply, before).results[0])
    return sizes


def _allocate(
    b: _Builder, value: SSAValue, options: AllocationOptions, before: Operation
) -> SSAValue:
    """Upstream's `createAllocationForTensor` (with `emit_dealloc`'s dealloc)."""
    tensor_type = cast(TensorType[Attribute], value.type)
    sizes = _dynamic_sizes(b, value, before)
    memref_type = _buffer_type(tensor_type, options.memory_space)
    alloc = b.before(new_alloc(options.alloc_op == "memref.alloca", sizes, memref_type), before)
    buffer = alloc.results[0]
    buffer.name_hint = "alloca" if options.alloc_op == "memref.alloca" else "alloc"
    if options.emit_dealloc and options.alloc_op == "memref.alloc":
        block = alloc.parent_block()
        assert block is not None
        terminator = block.last_op
        if terminator is not None and terminator.has_trait(IsTerminator):
            b.before(xmemref.DeallocOp.get(buffer), terminator)
    return buffer


def _memcpy(
    b: _Builder, source: SSAValue, dest: SSAValue, options: AllocationOptions, before: Operation
) -> None:
    """Upstream's `createMemcpy` of a tensor into a buffer."""
    if options.memcpy_op == "bufferization.materialize_in_destination":
        op = MaterializeInDestinationOp.build(
            operands=[source, dest], result_types=[[]], properties={"writable": UnitAttr()}
        )
        b.before(op, before)
        return
    tensor_type = cast(TensorType[Attribute], source.type)
    to_buffer = ToBufferOp.build(
        operands=[source],
        result_types=[_fully_dynamic(tensor_type)],
        properties={"read_only": UnitAttr()},
    )
    memref = b.before(to_buffer, before).results[0]
    if options.memcpy_op == "memref.copy":
        b.before(CopyOp(memref, dest), before)
    else:
        b.before(LinalgCopyOp([memref], [dest]), before)


def _to_tensor(b: _Builder, buffer: SSAValue, where: InsertPoint, *, restrict: bool) -> SSAValue:
    return b.at(ToTensorOp(buffer, restrict=restrict, writable=restrict), where).results[0]


# --- what ops do to their tensors ----------------------------------------------------------


_ALLOCATING = (
    xtensor.EmptyOp,
    xtensor.FromElementsOp,
    GenerateOp,
    xtensor.SplatOp,
    xtensor.ConcatOp,
    arith.ConstantOp,
    bufferization.ToTensorOp,
)
"""Ops whose tensor result is a new buffer (upstream's `bufferizesToAllocation`)."""


def _written_operands(op: Operation) -> list[int] | None:
    """The tensor operands `op` writes or whose buffer a tensor result is (None: an op
    bufferize_to_allocation does not know)."""
    if is_structured(op):
        first = len(op.operands) - len(dps_inits(op))
        return [
            i for i in range(first, len(op.operands)) if isinstance(op.operands[i].type, TensorType)
        ]
    match op:
        case xtensor.InsertOp() | xtensor.InsertSliceOp() | vector.TransferWriteOp():
            return [1]
        case scf.ForOp():
            return [
                i for i in range(3, len(op.operands)) if isinstance(op.operands[i].type, TensorType)
            ]
        case ForallOp():
            outputs = list(op.outputs)
            first = len(op.operands) - len(outputs)
            return list(range(first, len(op.operands)))
        case xtensor.ExtractOp() | xtensor.DimOp() | vector.TransferReadOp():
            return []
        case _:
            return None


def has_definitions(value: SSAValue) -> bool:
    """Whether any op defines `value`'s contents (upstream's non-empty `findDefinitions`):
    not for a `tensor.empty` or a fresh `alloc_tensor` reached through aliasing results."""
    seen: set[int] = set()
    work = [value]
    while work:
        current = work.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, BlockArgument):
            return True
        op = cast(OpResult, current).op
        if isinstance(op, xtensor.EmptyOp):
            continue
        if isinstance(op, bufferization.AllocTensorOp):
            if len(op.operands) and op.properties.get("operandSegmentSizes") is not None:
                segments = op.properties["operandSegmentSizes"].get_values()  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
                if segments[1]:
                    return True
            continue
        if isinstance(
            op,
            xtensor.ExtractSliceOp
            | xtensor.CastOp
            | xtensor.CollapseShapeOp
            | xtensor.ExpandShapeOp,
        ):
            work.append(op.operands[0])
            continue
        return True
    return False


def _has_nested_tensor_ops(op: Operation) -> bool:
    for nested in op.walk():
        if nested is op:
            continue
        if any(isinstance(v.type, TensorType) for v in (*nested.operands, *nested.results)):
            return True
    return False


# --- the rewrite ------------------------------------------------------------------------


def bufferize_to_allocation(
    rewriter: PatternRewriter, op: Operation, options: AllocationOptions
) -> AllocationResult:
    """Bufferize `op` into one new allocation (see the module doc); raises
    `AllocationFailure` where upstream fails."""
    b = _Builder(rewriter, op)
    if isinstance(op, xtensor.PadOp):
        if options.destination_only:
            raise AllocationFailure("tensor.pad has no destination")
        buffer = _pad(b, op, options)
    elif isinstance(op, bufferization.AllocTensorOp):
        buffer = _allocate(b, op.results[0], options, op)
        result = _to_tensor(b, buffer, InsertPoint.before(op), restrict=True)
        rewriter.replace(op, [], [result])
    else:
        buffer = _generic(b, op, options)
    return AllocationResult(buffer, b.alive())


def _pad(b: _Builder, pad: xtensor.PadOp, options: AllocationOptions) -> SSAValue:
    buffer = _allocate(b, pad.result, options, pad)
    rank = len(cast(TensorType[Attribute], pad.result.type).get_shape())
    lows = _mixed(pad.static_low.get_values(), list(pad.low))
    highs = _mixed(pad.static_high.get_values(), list(pad.high))
    if any(v != 0 for v in (*lows, *highs)):
        _fill_padding(b, pad, buffer)
    source_type = cast(TensorType[Attribute], pad.source.type)
    sizes: list[int | SSAValue] = []
    for dim, size in enumerate(source_type.get_shape()):
        if size == DYNAMIC_INDEX:
            index = b.index(dim, pad)
            sizes.append(b.before(xtensor.DimOp(pad.source, index), pad).results[0])
        else:
            sizes.append(size)
    memref_type = cast(MemRefType[Attribute], buffer.type)
    result_type = subview_type(memref_type, lows, sizes, [1] * rank)
    static_offsets, dyn_offsets = split_mixed(lows)
    static_sizes, dyn_sizes = split_mixed(sizes)
    subview = xmemref.SubviewOp(
        buffer,
        dyn_offsets,
        dyn_sizes,
        [],
        static_offsets,
        static_sizes,
        [1] * rank,
        result_type,
    )
    view = b.before(subview, pad).results[0]
    view.name_hint = "subview"
    _memcpy(b, pad.source, view, options, pad)
    result = _to_tensor(b, buffer, InsertPoint.before(pad), restrict=True)
    b.rewriter.replace(pad, [], [result])
    return buffer


def _fill_padding(b: _Builder, pad: xtensor.PadOp, buffer: SSAValue) -> None:
    """Upstream's `movePaddingToFillOrGenericOp`."""
    body = pad.region.block
    terminator = body.last_op
    assert terminator is not None
    yielded = terminator.operands[0]
    owner = yielded.owner
    constant = isinstance(owner, arith.ConstantOp)
    outside = (isinstance(yielded, BlockArgument) and yielded.block is not body) or (
        isinstance(owner, Operation) and owner.parent_block() is not body
    )
    if constant:
        assert isinstance(owner, arith.ConstantOp)
        value = b.before(arith.ConstantOp(owner.value, yielded.type), pad).results[0]
        b.before(FillOp([value], [buffer]), pad)
        return
    if outside:
        b.before(FillOp([yielded], [buffer]), pad)
        return
    rank = len(cast(MemRefType[Attribute], buffer.type).get_shape())
    element = cast(MemRefType[Attribute], buffer.type).get_element_type()
    block = Block(arg_types=[element])
    indices: list[SSAValue] = []
    for dim in range(rank):
        index = IndexOp(dim)
        block.add_op(index)
        indices.append(index.result)
    for arg, index in zip(list(body.args), indices, strict=True):
        arg.replace_all_uses_with(index)
    for nested in list(body.ops):
        nested.detach()
        if nested is terminator:
            block.add_op(YieldOp(nested.operands[0]))
            nested.erase(safe_erase=False)
        else:
            block.add_op(nested)
    generic = GenericOp(
        [],
        [buffer],
        Region(block),
        [AffineMapAttr(AffineMap.identity(rank))],
        [IteratorTypeAttr(IteratorType.PARALLEL)] * rank,
        [],
    )
    b.before(generic, pad)


def _generic(b: _Builder, op: Operation, options: AllocationOptions) -> SSAValue:
    for result in op.results:
        if not isinstance(result.type, TensorType):
            continue
        if isinstance(op, _ALLOCATING):
            raise AllocationFailure(f"'{op.name}' bufferizes to an allocation")
    written = _written_operands(op)
    if written is None or len(written) != 1:
        raise AllocationFailure("the op does not write exactly one tensor")
    if not options.destination_only and _has_nested_tensor_ops(op):
        raise AllocationFailure("ops with nested tensor ops are not supported")
    if not options.destination_only and isinstance(op, scf.ForOp | ForallOp):
        raise AllocationFailure("only the destination of a loop can be bufferized")
    index = written[0]
    value = op.operands[index]
    buffer = _allocate(b, value, options, op)
    if has_definitions(value):
        _memcpy(b, value, buffer, options, op)
    placeholder = _to_tensor(b, buffer, InsertPoint.before(op), restrict=options.destination_only)
    op.operands[index] = placeholder
    b.rewriter.handle_operation_modification(op)
    if options.destination_only:
        return buffer
    _bufferize_op(b, op, index, buffer)
    return buffer


def _bufferize_op(b: _Builder, op: Operation, index: int, buffer: SSAValue) -> None:
    """Rewrite `op` on buffers: operand `index` is `buffer`, other tensors are read
    through `to_buffer`; tensor results become `to_tensor %buffer restrict writable`."""
    operands: list[SSAValue] = []
    for position, operand in enumerate(op.operands):
        if position == index:
            operands.append(buffer)
        elif isinstance(operand.type, TensorType):
            operands.append(_buffer_of(b, operand))
        else:
            operands.append(operand)
    new_op: Operation | None = None
    if isinstance(op, xtensor.InsertOp):
        b.before(StoreOp.get(operands[0], buffer, list(operands[2:])), op)
    elif isinstance(op, xtensor.InsertSliceOp):
        _insert_slice(b, op, operands[0], buffer)
    else:
        regions = [op.detach_region(r) for r in list(op.regions)]
        new_op = type(op).create(
            operands=operands,
            result_types=[r.type for r in op.results if not isinstance(r.type, TensorType)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=regions,
        )
        b.before(new_op, op)
    replacements: list[SSAValue | None] = []
    # The insertions' replacements are stores and copies, without results.
    other_results = iter(new_op.results if new_op is not None else ())
    for result in op.results:
        if isinstance(result.type, TensorType):
            replacements.append(_to_tensor(b, buffer, InsertPoint.before(op), restrict=True))
        else:
            replacements.append(next(other_results))
    b.rewriter.replace(op, [], replacements)


def _insert_slice(b: _Builder, op: xtensor.InsertSliceOp, source: SSAValue, dest: SSAValue) -> None:
    """`tensor.insert_slice` on buffers: a `memref.copy` into the subview (upstream's
    bufferization of insert_slice uses the default copy, whatever `memcpy_op` says)."""
    static = [attr.get_values() for attr in (op.static_offsets, op.static_sizes, op.static_strides)]
    dynamic = list(op.operands[2:])
    counts = [_count_dynamic(s) for s in static]
    offsets = _mixed(static[0], dynamic[: counts[0]])
    sizes = _mixed(static[1], dynamic[counts[0] : counts[0] + counts[1]])
    strides = _mixed(static[2], dynamic[counts[0] + counts[1] :])
    source_shape = cast(MemRefType[Attribute], source.type).get_shape()
    result_type = subview_type(
        cast(MemRefType[Attribute], dest.type),
        offsets,
        sizes,
        strides,
        len(sizes) != len(source_shape),
    )
    subview = xmemref.SubviewOp(
        dest,
        dynamic[: counts[0]],
        dynamic[counts[0] : counts[0] + counts[1]],
        dynamic[counts[0] + counts[1] :],
        static[0],
        static[1],
        static[2],
        result_type,
    )
    view = b.before(subview, op).results[0]
    view.name_hint = "subview"
    b.before(CopyOp(source, view), op)


__all__ = [
    "ALLOC_OPS",
    "MEMCPY_OPS",
    "AllocationFailure",
    "AllocationOptions",
    "AllocationResult",
    "bufferize_to_allocation",
    "has_definitions",
]
