"""`finalize-memref-to-llvm`: memrefs to LLVM descriptors, pointers and libc calls.

Each ranked memref value becomes upstream's descriptor struct
`(allocated ptr, aligned ptr, offset, sizes[R], strides[R])` (rank 0: the first three),
with the memref's memory space as the pointers' address space. What upstream does in
`expand-strided-metadata` + `finalize-memref-to-llvm` is done here in one pass:

- `alloc` -> `malloc(bytes [+ alignment])`; with an `alignment` (or for non-scalar
  elements, their size) the aligned pointer is rounded up inside the allocation, the
  allocated pointer is what `free` gets; `alloca` -> `llvm.alloca` of the element count;
  `dealloc` -> `free(allocated)`. Layouts must be row-major contiguous;
- `load`/`store` -> `llvm.getelementptr inbounds aligned[offset + sum(i_k * stride_k)]`
  then `llvm.load`/`llvm.store` (static strides/offsets from the type are constants);
- `subview` (static/dynamic offsets, sizes, strides; rank-reducing), `reinterpret_cast`,
  `cast` (ranked to ranked), `collapse_shape`, `expand_shape`, `view`,
  `memory_space_cast` (`llvm.addrspacecast`) -> a new descriptor sharing the pointers;
- `dim` (a constant for static sizes), `rank`, `extract_strided_metadata`,
  `extract_aligned_pointer_as_index`, `assume_alignment` (dropped: only a hint);
- `copy` -> `llvm.intr.memcpy` when both layouts are statically row-major contiguous,
  else a loop nest of loads and stores;
- `global` -> `llvm.mlir.global` (dense initializer as a nested `!llvm.array`, private
  visibility -> private linkage, `uninitialized` -> undef); `get_global` -> a descriptor
  whose aligned pointer is `llvm.mlir.addressof` and whose allocated pointer is
  `0xdeadbeef`, as upstream (a global must never be freed).

Before:

    %v = memref.load %m[%i, %j] : memref<4x?xf32>

After:

    %d = builtin.unrealized_conversion_cast %m : memref<4x?xf32> to
           !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    %p = llvm.extractvalue %d[1] : !llvm.struct<(...)>
    %s = llvm.extractvalue %d[4, 0] : !llvm.struct<(...)>
    %r = llvm.mul %i, %s : i64
    %l = llvm.add %r, %j : i64
    %a = llvm.getelementptr inbounds %p[%l] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %a : !llvm.ptr -> f32

Not handled (an error names the op): unranked memrefs, `atomic_rmw`, `alloca_scope`,
DMA ops, non-strided layouts, `alloc` with a non-contiguous layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import builtin, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from schedir.dialects import llvm
from schedir.dialects.memref import MemRef
from schedir.lowering.llvm.common import (
    INDEX,
    PTR,
    Handler,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    address_space_of,
    attr_of,
    element_size,
    handler_for,
    is_contiguous_row_major,
    unsupported,
)
from schedir.lowering.llvm.memref import (
    Emit,
    IndexMath,
    build_descriptor,
    constant_int,
    element_pointer,
    extract,
    loop_nest,
    size_in_bytes,
)
from schedir.lowering.llvm.memref_views import (
    PASS,
    assume_alignment,
    cast,
    collapse_shape,
    descriptor,
    expand_shape,
    memory_space_cast,
    memref_type,
    reinterpret_cast,
    result_type,
    row_major_strides,
    strided_layout_checked,
    subview,
    view,
)

DEADBEEF = 0xDEADBEEF
"""The allocated pointer of a descriptor of a global (upstream's marker)."""


# ---------------------------------------------------------------------------------------
# allocation


def _alloc_sizes(lw: Lowering, op: Operation, t: MemRefType, emit: Emit) -> list[SSAValue]:
    dynamic = iter(lw.values(op.operands, op))
    return [lw.index(s, op) if s >= 0 else next(dynamic) for s in t.get_shape()]


def _alloc(lw: Lowering, op: Operation) -> None:
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    if not is_contiguous_row_major(t) or strided_layout_checked(op, t)[1] != 0:
        raise unsupported(PASS, op, f"allocation with layout {t.layout}")
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    sizes = _alloc_sizes(lw, op, t, emit)
    strides = row_major_strides(math, sizes)
    count = math.const(1)
    for size in sizes:
        count = math.mul(count, size)
    elem = lw.convert(t.get_element_type(), op)
    ptr_type = lw.converter.pointer_type(t.memory_space)
    alignment_attr = op.properties.get("alignment")
    alignment = alignment_attr.value.data if isinstance(alignment_attr, IntegerAttr) else None

    if isinstance(op, memref.AllocaOp):
        new = llvm.AllocaOp.create(
            operands=[count],
            result_types=[ptr_type],
            properties={"elem_type": elem}
            | ({"alignment": IntegerAttr(alignment, 64)} if alignment else {}),
        )
        allocated = aligned = emit(new)
    else:
        nbytes = size_in_bytes(lw, op, emit, elem, count)
        if alignment is None and not _is_scalar(t.get_element_type()):
            # malloc aligns for the largest scalar; vector-like elements want their size.
            alignment = _pow2_at_least(_static_size(lw, elem) or 16)
        if alignment is not None:
            nbytes = math.add(nbytes, math.const(alignment))
        lw.declare("malloc", llvm.LLVMFunctionType([INDEX], PTR), op)
        raw = emit(llvm.CallOp("malloc", nbytes, return_type=PTR))
        raw_aligned = raw
        if alignment is not None:
            # Round up inside the allocation with a GEP so the pointer keeps its provenance.
            address = emit(llvm.PtrToIntOp(raw, INDEX))
            bumped = math.add(address, math.const(alignment - 1))
            rounded = emit(llvm.SubOp(bumped, emit(llvm.URemOp(bumped, math.const(alignment)))))
            shift = emit(llvm.SubOp(rounded, address))
            raw_aligned = emit(llvm.GEPOp(raw, [shift], builtin.i8, flags=3))
        allocated, aligned = raw, raw_aligned
        if ptr_type != PTR:
            allocated = emit(llvm.AddrSpaceCastOp(raw, ptr_type))
            aligned = emit(llvm.AddrSpaceCastOp(raw_aligned, ptr_type))
    desc = build_descriptor(
        emit, lw.convert(t, op), allocated, aligned, math.const(0), sizes, strides
    )
    lw.replace(op, [desc])


def _is_scalar(t: Attribute) -> bool:
    return isinstance(t, builtin.IntegerType | IndexType | builtin.AnyFloat)


def _static_size(lw: Lowering, elem: Attribute) -> int | None:
    if isinstance(elem, builtin.VectorType):
        inner = element_size(elem.get_element_type())
        if inner is not None:
            return inner * elem.get_shape()[-1]
    return element_size(elem)


def _pow2_at_least(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _dealloc(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    desc = descriptor(lw, op, op.operands[0], emit)
    allocated = desc.allocated()
    if allocated.type != PTR:
        allocated = emit(llvm.AddrSpaceCastOp(allocated, PTR))
    lw.declare("free", llvm.LLVMFunctionType([PTR]), op)
    emit(llvm.CallOp("free", allocated))
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# element access


def _alignment_of(op: Operation) -> int | None:
    attr = attr_of(op, "alignment")
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _nontemporal(op: Operation) -> bool:
    attr = attr_of(op, "nontemporal")
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    return isinstance(attr, UnitAttr)


def _load(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    desc = descriptor(lw, op, op.operands[0], emit)
    indices = lw.values(op.operands[1:], op)
    ptr = element_pointer(lw, emit, desc, indices, op)
    elem = lw.convert(op.results[0].type, op)
    load = llvm.LoadOp(ptr, elem, alignment=_alignment_of(op), nontemporal=_nontemporal(op))
    lw.replace(op, [emit(load)])


def _store(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    value = lw.value(op.operands[0], op)
    desc = descriptor(lw, op, op.operands[1], emit)
    indices = lw.values(op.operands[2:], op)
    ptr = element_pointer(lw, emit, desc, indices, op)
    emit(llvm.StoreOp(value, ptr, alignment=_alignment_of(op), nontemporal=_nontemporal(op)))
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# queries


def _dim(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    desc = descriptor(lw, op, op.operands[0], emit)
    index = lw.value(op.operands[1], op)
    known = constant_int(index)
    if known is not None:
        if not 0 <= known < desc.rank:
            raise unsupported(PASS, op, f"dimension {known} out of range for rank {desc.rank}")
        lw.replace(op, [desc.size(known)])
        return
    # A dynamic dimension index: read the sizes array through memory, as upstream does.
    sizes = extract(emit, desc.value, 3)
    one = lw.index(1, op)
    slot = emit(
        llvm.AllocaOp.create(
            operands=[one], result_types=[PTR], properties={"elem_type": sizes.type}
        )
    )
    emit(llvm.StoreOp(sizes, slot))
    element = emit(llvm.GEPOp(slot, [0, index], sizes.type, flags=3))
    lw.replace(op, [emit(llvm.LoadOp(element, INDEX))])


def _rank(lw: Lowering, op: Operation) -> None:
    t = memref_type(op, op.operands[0])
    lw.replace(op, [lw.index(t.get_num_dims(), op)])


def _extract_strided_metadata(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = descriptor(lw, op, op.operands[0], emit)
    base_type = op.results[0].type
    assert isinstance(base_type, MemRefType)
    base = build_descriptor(
        emit,
        lw.convert(base_type, op),
        source.allocated(),
        source.aligned(),
        lw.index(0, op),
        [],
        [],
    )
    values = [base, source.offset()]
    values += [source.size(i) for i in range(source.rank)]
    values += [source.stride(i) for i in range(source.rank)]
    lw.replace(op, values)


def _extract_aligned_pointer(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = descriptor(lw, op, op.operands[0], emit)
    lw.replace(op, [emit(llvm.PtrToIntOp(source.aligned(), INDEX))])


# ---------------------------------------------------------------------------------------
# copy


def _copy(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = descriptor(lw, op, op.operands[0], emit)
    target = descriptor(lw, op, op.operands[1], emit)
    elem = lw.convert(source.type.get_element_type(), op)
    if is_contiguous_row_major(source.type) and is_contiguous_row_major(target.type):
        count = math.const(1)
        for i in range(source.rank):
            count = math.mul(count, source.size(i))
        nbytes = size_in_bytes(lw, op, emit, elem, count)
        src = element_pointer(lw, emit, source, [math.const(0)] * source.rank, op)
        dst = element_pointer(lw, emit, target, [math.const(0)] * target.rank, op)
        emit(llvm.MemcpyOp(dst, src, nbytes))
        lw.replace(op, [])
        return
    # A strided copy: loops over the shape, one element at a time.
    bounds = [source.size(i) for i in range(source.rank)]
    inner, ivs = loop_nest(lw, op, bounds)
    src_desc, dst_desc = source, target
    value = inner(llvm.LoadOp(element_pointer(lw, inner, src_desc, ivs, op), elem))
    inner(llvm.StoreOp(value, element_pointer(lw, inner, dst_desc, ivs, op)))
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# globals


def _global_type(lw: Lowering, op: Operation, t: MemRefType) -> Attribute:
    result: Attribute = lw.convert(t.get_element_type(), op)
    for dim in reversed(t.get_shape()):
        result = llvm.LLVMArrayType(dim, result)
    return result


def _global(lw: Lowering, op: Operation) -> None:
    t = op.properties.get("type")
    if not isinstance(t, MemRefType) or any(d < 0 for d in t.get_shape()):
        raise unsupported(PASS, op, f"global of type {t}")
    if not is_contiguous_row_major(t):
        raise unsupported(PASS, op, f"global with layout {t.layout}")
    name = op.properties["sym_name"]
    assert isinstance(name, StringAttr)
    visibility = op.properties.get("sym_visibility")
    initial = op.properties.get("initial_value")
    alignment = op.properties.get("alignment")
    gtype = _global_type(lw, op, t)
    linkage = (
        "private"
        if isinstance(visibility, StringAttr) and visibility.data == "private"
        else "external"
    )
    value: Attribute | None = None
    body: Region | None = None
    if isinstance(initial, DenseIntOrFPElementsAttr):
        value = initial
        if isinstance(initial.get_element_type(), IndexType):
            value = DenseIntOrFPElementsAttr.from_list(
                builtin.TensorType(INDEX, initial.get_shape()),
                initial.get_values(),
            )
    elif isinstance(initial, UnitAttr):
        # `uninitialized`: a definition with an undefined value.
        block = Block()
        undef = llvm.UndefOp(gtype)
        block.add_ops([undef, llvm.ReturnOp(undef.results[0])])
        body = Region([block])
    elif initial is None:
        linkage = "external"  # a declaration: defined elsewhere
    else:
        raise unsupported(PASS, op, f"initial value {initial}")
    new = llvm.GlobalOp(
        gtype,
        name,
        linkage,
        address_space_of(t),
        constant=op.properties.get("constant") is not None,
        value=value,
        alignment=alignment.value.data if isinstance(alignment, IntegerAttr) else None,
        body=body,
    )
    lw.insert(new, op)
    lw.replace(op, [])


def _get_global(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    t = result_type(op)
    name = op.properties.get("name")
    assert isinstance(name, builtin.SymbolRefAttr)
    ptr_type = lw.converter.pointer_type(t.memory_space)
    address = emit(llvm.AddressOfOp(name, ptr_type))
    marker = emit(
        llvm.IntToPtrOp.create(operands=[lw.index(DEADBEEF, op)], result_types=[ptr_type])
    )
    sizes = [math.const(s) for s in t.get_shape()]
    desc = build_descriptor(
        emit,
        lw.convert(t, op),
        marker,
        address,
        math.const(0),
        sizes,
        row_major_strides(math, sizes),
    )
    lw.replace(op, [desc])


_HANDLERS: dict[type[Operation], Handler] = {
    memref.AllocOp: _alloc,
    memref.AllocaOp: _alloc,
    memref.DeallocOp: _dealloc,
    memref.LoadOp: _load,
    memref.StoreOp: _store,
    memref.SubviewOp: subview,
    memref.ReinterpretCastOp: reinterpret_cast,
    memref.CastOp: cast,
    memref.MemorySpaceCastOp: memory_space_cast,
    memref.CollapseShapeOp: collapse_shape,
    memref.ExpandShapeOp: expand_shape,
    memref.ViewOp: view,
    memref.AssumeAlignmentOp: assume_alignment,
    memref.DimOp: _dim,
    memref.RankOp: _rank,
    memref.ExtractStridedMetaDataOp: _extract_strided_metadata,
    memref.ExtractAlignedPointerAsIndexOp: _extract_aligned_pointer,
    memref.CopyOp: _copy,
    memref.GlobalOp: _global,
    memref.GetGlobalOp: _get_global,
}
"""Lowering of each memref op, keyed by xDSL's class (schedir's replacements subclass it)."""

_MEMREF_OPS: tuple[type[Operation], ...] = tuple(MemRef.operations)


def lower_memref(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace every memref op in `module` by LLVM dialect ops and libc calls."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        handler = handler_for(_HANDLERS, op)
        if handler is None:
            if isinstance(op, _MEMREF_OPS):
                raise unsupported(PASS, op)
            continue
        handler(lw, op)
    lw.finish()


@dataclass(frozen=True)
class FinalizeMemRefToLLVMPass(LLVMConversionPass):
    """Lower the memref dialect to the LLVM dialect (see the module docstring)."""

    name = "finalize-memref-to-llvm"

    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        lower_memref(module, converter)


__all__ = ["FinalizeMemRefToLLVMPass", "lower_memref"]
