"""Promotion of the subviews a structured op on buffers reads and writes into local buffers
(upstream's `linalg::promoteSubViews`, mlir/lib/Dialect/Linalg/Transforms/Promotion.cpp).

For each promoted operand that is a `memref.subview` (a tile of a larger buffer):

* a buffer holding the *full* tile is allocated: with the default allocation, an `i8`
  buffer of `elem_bytes * prod(bounds)` bytes (`memref.alloc`/`alloca`, `alignment`,
  `memory_space`) viewed as the tile (`memref.view`), where a bound is the size's constant
  upper bound (an `affine.min` with a constant term), or the size itself; with `mapping =
  [#gpu.memory_space<workgroup|private>]`, a statically shaped `memref.alloc` (workgroup)
  or `memref.alloca` (private) in that address space at the start of the function;
* the *partial* view (`memref.subview` of it with the tile's actual sizes) receives a copy
  of the tile (`linalg.copy`; `memref.copy` between `gpu.barrier`s for workgroup memory,
  plain `memref.copy` for private memory), after a zero `linalg.fill` of the full buffer
  when the op is to use the full tile;
* the op reads and writes the full or partial view, its outputs are copied back into
  the original subviews, and default allocations are freed (`memref.dealloc`).

    linalg.matmul ins(%sa, %sb : ...) outs(%sc : memref<?x4xf32, strided<[?, 1], offset: ?>>)
    // operands_to_promote = [2] ->
    %alloc = memref.alloc() : memref<128xi8>
    %view = memref.view %alloc[%c0][%c8, %c4] : memref<128xi8> to memref<?x?xf32>
    %part = memref.subview %view[0, 0] [%n, %c4] [1, 1] : ... to memref<?x?xf32, strided<[?, 1]>>
    linalg.copy ins(%sc : ...) outs(%part : ...)
    linalg.matmul ins(%sa, %sb : ...) outs(%part : memref<?x?xf32, strided<[?, 1]>>)
    linalg.copy ins(%part : ...) outs(%sc : ...)
    memref.dealloc %alloc : memref<128xi8>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import affine, arith, func
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    BFloat16Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    VectorType,
    i8,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.gpu import BarrierOp
from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.linalg import CopyOp as LinalgCopyOp
from schedir.dialects.linalg import FillOp, GenericOp
from schedir.dialects.linalg.interface import dps_inputs, is_structured
from schedir.dialects.memref import AllocaOp, AllocOp, CopyOp

Mixed = int | SSAValue


class PromotionFailure(Exception):
    """Promotion does not apply (upstream's precondition or allocation fails)."""


@dataclass(frozen=True)
class PromotionOptions:
    """Upstream's `LinalgPromotionOptions` as the transform op sets them."""

    operands_to_promote: tuple[int, ...] | None = None
    use_full_tile_buffers: tuple[bool, ...] | None = None
    use_full_tiles_by_default: bool = False
    use_original_subview_size: bool = False
    use_alloca: bool = False
    alignment: int | None = None
    memory_space: Attribute | None = None
    gpu_space: str | None = None
    """`workgroup` / `private` for `mapping = [#gpu.memory_space<...>]`."""


@dataclass(frozen=True)
class PromotionResult:
    """The promoted op (the same op, with new operands) and the local buffers."""

    op: Operation
    buffers: tuple[SSAValue, ...]


# --- types ----------------------------------------------------------------------------------


def new_alloc(
    alloca: bool,
    dynamic_sizes: Sequence[SSAValue],
    memref_type: MemRefType[Attribute],
    alignment: IntegerAttr | None = None,
) -> Operation:
    """A `memref.alloc` (or `alloca`) in upstream's syntax."""
    cls = AllocaOp if alloca else AllocOp
    return cls.build(
        operands=[list(dynamic_sizes), []],
        result_types=[memref_type],
        properties={"alignment": alignment},
    )


def subview_type(
    source: MemRefType[Attribute],
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed],
    dropped: Sequence[int] | bool = (),
) -> MemRefType[Attribute]:
    """The result type of `memref.subview` (upstream's inference); `dropped` lists the unit
    dimensions a rank-reducing subview drops (True: every static unit dimension)."""
    full = xmemref.SubviewOp.infer_result_type(source, offsets, sizes, strides)
    if dropped is True:
        dropped = [d for d, s in enumerate(sizes) if isinstance(s, int) and s == 1]
    elif dropped is False:
        dropped = []
    if not dropped:
        return full
    layout = cast(StridedLayoutAttr, full.layout)
    keep = [d for d in range(len(sizes)) if d not in set(dropped)]
    strides_all = layout.get_strides()
    return MemRefType(
        full.get_element_type(),
        [full.get_shape()[d] for d in keep],
        StridedLayoutAttr([strides_all[d] for d in keep], layout.get_offset()),
        full.memory_space,
    )


def element_bytes(t: Attribute) -> int:
    """The data layout size of an element type in bytes (upstream's default layout)."""
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, BFloat16Type):
        return 2
    if isinstance(t, AnyFloat):
        return t.bitwidth // 8
    if isinstance(t, VectorType):
        count = 1
        for d in t.get_shape():
            count *= d
        return count * element_bytes(t.get_element_type())
    raise PromotionFailure(f"no data layout size for element type {t}")


# --- constant bounds -----------------------------------------------------------------------


def constant_value(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def constant_upper_bound(value: SSAValue) -> int | None:
    """A closed constant upper bound of an index value, where one is evident: a constant,
    an `affine.min` with a constant result (after substituting constant operands), or
    `arith.minsi`/`minui` of a bounded operand (upstream's value-bounds analysis)."""
    exact = constant_value(value)
    if exact is not None:
        return exact
    if not isinstance(value, OpResult):
        return None
    op = value.op
    if isinstance(op, affine.MinOp):
        affine_map = op.properties.get("map") or op.attributes.get("map")
        data = getattr(affine_map, "data", None)
        if data is None:
            return None
        operands = [constant_value(v) for v in op.operands]
        bounds: list[int] = []
        for expr in data.results:
            if all(o is not None for o in operands):
                known = cast(list[int], operands)
                bounds.append(expr.eval(known[: data.num_dims], known[data.num_dims :]))
            elif isinstance(expr, AffineConstantExpr):
                bounds.append(expr.value)
        return min(bounds) if bounds else None
    if isinstance(op, arith.MinSIOp | arith.MinUIOp):
        found = [b for b in (constant_upper_bound(v) for v in op.operands) if b is not None]
        return min(found) if found else None
    return None


# --- the rewrite -----------------------------------------------------------------------------


@dataclass
class _Builder:
    rewriter: PatternRewriter
    location: LocationAttr
    before: Operation
    created: list[Operation] = field(default_factory=list[Operation])

    def add(self, op: Operation, where: InsertPoint | None = None) -> Operation:
        self.rewriter.insert(op, where or InsertPoint.before(self.before))
        op.location = self.location
        self.created.append(op)
        return op

    def index(self, value: int, where: InsertPoint | None = None) -> SSAValue:
        return self.add(arith.ConstantOp.from_int_and_width(value, IndexType()), where).results[0]


@dataclass
class _Promoted:
    operand: int
    subview: xmemref.SubviewOp
    full: SSAValue
    partial: SSAValue
    allocation: SSAValue
    use_full: bool
    copy_in: bool


def _ranges(subview: xmemref.SubviewOp) -> list[Mixed]:
    static = subview.static_sizes.get_values()
    dynamic = iter(subview.sizes)
    return [next(dynamic) if s == DYNAMIC_INDEX else s for s in static]


def _dropped_dims(subview: xmemref.SubviewOp) -> list[int]:
    """Which source dimensions a rank-reducing subview drops (upstream's getDroppedDims)."""
    sizes = list(subview.static_sizes.get_values())
    result_shape = list(cast(MemRefType[Attribute], subview.result.type).get_shape())
    dropped: list[int] = []
    j = 0
    for d, size in enumerate(sizes):
        if j < len(result_shape) and (
            size == result_shape[j] or (size == DYNAMIC_INDEX and result_shape[j] == DYNAMIC_INDEX)
        ):
            j += 1
        elif size == 1:
            dropped.append(d)
        else:
            j += 1
    return dropped


def promotion_precondition(op: Operation, operands: Sequence[int] | None) -> bool:
    """Upstream's `promoteSubviewsPrecondition`: a structured op on buffers with a requested
    operand that is a subview."""
    if not is_structured(op):
        return False
    if any(not isinstance(r.type, MemRefType) for r in op.results):
        return False
    shaped = [
        v
        for v in op.operands
        if hasattr(v.type, "get_shape") and not isinstance(v.type, VectorType)
    ]
    if any(not isinstance(v.type, MemRefType) for v in shaped):
        return False
    for index, value in enumerate(op.operands):
        if isinstance(value.owner, xmemref.SubviewOp) and (operands is None or index in operands):
            return True
    return False


def _payload_uses(op: Operation, index: int) -> bool:
    if not op.regions or not op.regions[0].blocks:
        return True
    block = op.regions[0].blocks.first
    assert block is not None
    return index < len(block.args) and bool(block.args[index].uses)


def promote_subviews(
    rewriter: PatternRewriter, op: Operation, options: PromotionOptions
) -> PromotionResult:
    """Promote the requested subview operands of `op` (see the module doc); raises
    `PromotionFailure` where upstream fails."""
    if not promotion_precondition(op, options.operands_to_promote):
        raise PromotionFailure("precondition")
    count = len(op.operands)
    full_flags = list(options.use_full_tile_buffers or ())
    if options.gpu_space is not None:
        full_flags = [False, False]
    full_flags += [options.use_full_tiles_by_default] * max(0, count - len(full_flags))
    b = _Builder(rewriter, op.location, op)
    promoted: list[_Promoted] = []
    for index, value in enumerate(op.operands):
        if options.operands_to_promote is not None and index not in options.operands_to_promote:
            continue
        subview = value.owner
        if not isinstance(subview, xmemref.SubviewOp):
            continue
        copy_in = not isinstance(op, GenericOp) or _payload_uses(op, index)
        promoted.append(_promote_one(b, op, index, subview, full_flags[index], copy_in, options))
    for entry in promoted:
        if not entry.copy_in:
            continue
        _copy(b, entry.subview.result, entry.partial, options, InsertPoint.before(op))
    num_inputs = len(dps_inputs(op))
    for entry in promoted:
        op.operands[entry.operand] = entry.full if entry.use_full else entry.partial
    rewriter.handle_operation_modification(op)
    where = InsertPoint.after(op)
    tail: list[Operation] = []
    for entry in promoted:
        if entry.operand < num_inputs:
            continue
        tail.extend(_copy(b, entry.partial, entry.subview.result, options, where))
        where = InsertPoint.after(tail[-1])
    if options.gpu_space is None and not options.use_alloca:
        for entry in promoted:
            dealloc = b.add(xmemref.DeallocOp.get(entry.allocation), where)
            where = InsertPoint.after(dealloc)
    return PromotionResult(op, tuple(e.allocation for e in promoted))


def _copy(
    b: _Builder, source: SSAValue, dest: SSAValue, options: PromotionOptions, where: InsertPoint
) -> list[Operation]:
    """Upstream's copy-in/out callbacks: `linalg.copy` by default; `memref.copy` for GPU
    memory, between barriers for workgroup memory."""
    ops: list[Operation] = []
    if options.gpu_space == "workgroup":
        # The gpu op classes live with the GPU mapping work; only this path needs them.
        ops.append(b.add(BarrierOp(), where))
        ops.append(b.add(CopyOp(source, dest), InsertPoint.after(ops[-1])))
        ops.append(b.add(BarrierOp(), InsertPoint.after(ops[-1])))
    elif options.gpu_space == "private":
        ops.append(b.add(CopyOp(source, dest), where))
    else:
        ops.append(b.add(LinalgCopyOp([source], [dest]), where))
    return ops


def _promote_one(
    b: _Builder,
    op: Operation,
    index: int,
    subview: xmemref.SubviewOp,
    use_full: bool,
    copy_in: bool,
    options: PromotionOptions,
) -> _Promoted:
    """Upstream's `promoteSubviewAsNewBuffer` (+ the zero fill of a full tile)."""
    view_type = cast(MemRefType[Attribute], subview.result.type)
    element = view_type.get_element_type()
    dropped = set(_dropped_dims(subview))
    full_sizes: list[SSAValue] = []
    partial_sizes: list[SSAValue] = []
    result_dim = 0
    for d, size in enumerate(_ranges(subview)):
        if d in dropped:
            continue
        if isinstance(size, int):
            full = b.index(size)
        elif options.use_original_subview_size:
            full = size
        else:
            bound = constant_upper_bound(size)
            full = size if bound is None else b.index(bound)
        full_sizes.append(full)
        # memref.dim of the subview, folded: its static size or its size operand.
        static = view_type.get_shape()[result_dim]
        partial_sizes.append(b.index(static) if static != DYNAMIC_INDEX else cast(SSAValue, size))
        result_dim += 1
    if options.gpu_space is not None:
        allocation = _gpu_allocation(b, op, subview, full_sizes, element, options.gpu_space)
        full_view = allocation
    else:
        allocation, full_view = _default_allocation(b, full_sizes, element, options)
    rank = len(full_sizes)
    partial_type = subview_type(
        cast(MemRefType[Attribute], full_view.type), [0] * rank, partial_sizes, [1] * rank
    )
    partial = b.add(
        xmemref.SubviewOp.get(full_view, [0] * rank, partial_sizes, [1] * rank, partial_type)
    )
    partial.results[0].name_hint = "subview"
    if use_full:
        zero = _zero(element)
        constant = b.add(arith.ConstantOp(zero, element))
        b.add(FillOp([constant.results[0]], [full_view]))
    return _Promoted(index, subview, full_view, partial.results[0], allocation, use_full, copy_in)


def _zero(element: Attribute) -> FloatAttr | IntegerAttr:
    if isinstance(element, AnyFloat):
        return FloatAttr(0.0, element)
    if isinstance(element, IntegerType | IndexType):
        return IntegerAttr(0, element)
    raise PromotionFailure(f"no zero fill value for element type {element}")


def _default_allocation(
    b: _Builder, sizes: Sequence[SSAValue], element: Attribute, options: PromotionOptions
) -> tuple[SSAValue, SSAValue]:
    """Upstream's `defaultAllocBufferCallBack`: an i8 buffer viewed as the full tile."""
    zero = b.index(0)
    total: int | SSAValue = 1
    for size in sizes:
        value = constant_value(size)
        if isinstance(total, int) and value is not None:
            total *= value
        elif value == 1:
            continue
        elif total == 1:
            total = size
        else:
            lhs = b.index(total) if isinstance(total, int) else total
            total = b.add(arith.MuliOp(lhs, size)).results[0]
    width = element_bytes(element)
    space = options.memory_space if options.memory_space is not None else NoneAttr()
    alignment = IntegerAttr(options.alignment, 64) if options.alignment is not None else None
    if isinstance(total, int):
        buffer_type = MemRefType(i8, [width * total], NoneAttr(), space)
        alloc = b.add(new_alloc(options.use_alloca, [], buffer_type, alignment))
    else:
        buffer_type = MemRefType(i8, [DYNAMIC_INDEX], NoneAttr(), space)
        # Upstream folds the commutative product with the constant on the right.
        bytes_ = b.add(arith.MuliOp(total, b.index(width))).results[0]
        alloc = b.add(new_alloc(options.use_alloca, [bytes_], buffer_type, alignment))
    buffer = alloc.results[0]
    buffer.name_hint = "alloca" if options.use_alloca else "alloc"
    view_type = MemRefType(element, [DYNAMIC_INDEX] * len(sizes), NoneAttr(), space)
    view = b.add(xmemref.ViewOp(buffer, zero, list(sizes), view_type))
    view.results[0].name_hint = "view"
    return buffer, view.results[0]


def _gpu_allocation(
    b: _Builder,
    op: Operation,
    subview: xmemref.SubviewOp,
    sizes: Sequence[SSAValue],
    element: Attribute,
    space_name: str,
) -> SSAValue:
    """Upstream's `allocateSubviewGPUMemoryInAddressSpace`: a static buffer in the GPU
    address space at the start of the enclosing function."""
    function = op.parent_op()
    while function is not None and not isinstance(function, func.FuncOp):
        function = function.parent_op()
    if function is None:
        raise PromotionFailure("no enclosing function")
    shape = [constant_value(s) for s in sizes]
    if any(s is None for s in shape):
        raise PromotionFailure("the tile has no constant bounds")
    space = AddressSpaceAttr(AddressSpace(space_name))
    memref_type = MemRefType(element, cast(list[int], shape), NoneAttr(), space)
    block = function.body.blocks.first
    assert block is not None
    alloc = new_alloc(space_name == "private", [], memref_type)
    b.rewriter.insert(alloc, InsertPoint.at_start(block))
    alloc.location = function.location
    b.created.append(alloc)
    buffer = alloc.results[0]
    buffer.name_hint = "alloc" if space_name == "workgroup" else "alloca"
    return buffer


__all__ = [
    "PromotionFailure",
    "PromotionOptions",
    "PromotionResult",
    "constant_upper_bound",
    "element_bytes",
    "new_alloc",
    "promote_subviews",
    "promotion_precondition",
    "subview_type",
]
