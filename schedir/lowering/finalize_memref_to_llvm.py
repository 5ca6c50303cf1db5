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

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from schedir.dialects import llvm
from schedir.lowering._llvm_common import (
    INDEX,
    PTR,
    LLVMTypeConverter,
    Lowering,
    address_space_of,
    attr_of,
    element_size,
    is_contiguous_row_major,
    unsupported,
)
from schedir.lowering._llvm_memref import (
    Descriptor,
    Emit,
    IndexMath,
    build_descriptor,
    constant_int,
    element_pointer,
    extract,
    insert,
    loop_nest,
    size_in_bytes,
    strided_layout,
)

PASS = "finalize-memref-to-llvm"

Handler = Callable[[Lowering, Operation], None]

DEADBEEF = 0xDEADBEEF
"""The allocated pointer of a descriptor of a global (upstream's marker)."""


def _memref_type(op: Operation, v: SSAValue) -> MemRefType:
    if isinstance(v.type, UnrankedMemRefType):
        raise unsupported(PASS, op, "unranked memrefs")
    if not isinstance(v.type, MemRefType):
        raise unsupported(PASS, op, f"operand of type {v.type}")
    strided_layout_checked(op, v.type)
    return v.type


def strided_layout_checked(op: Operation, t: MemRefType) -> tuple[list[int | None], int | None]:
    try:
        return strided_layout(t)
    except Exception as err:
        raise unsupported(PASS, op, str(getattr(err, "message", err))) from None


def _descriptor(lw: Lowering, op: Operation, v: SSAValue, emit: Emit) -> Descriptor:
    return Descriptor(lw, op, lw.value(v, op), _memref_type(op, v))


def _mixed(
    lw: Lowering, op: Operation, static_name: str, dynamic: Sequence[SSAValue]
) -> tuple[list[SSAValue], list[int | None]]:
    """Values and static values (None if dynamic) of an offsets/sizes/strides list."""
    static = op.properties[static_name]
    assert isinstance(static, DenseArrayBase)
    values: list[SSAValue] = []
    known: list[int | None] = []
    it = iter(dynamic)
    for s in static.iter_values():
        if s == DYNAMIC_INDEX:
            v = next(it)
            values.append(v)
            known.append(constant_int(v))
        else:
            values.append(lw.index(int(s), op))
            known.append(int(s))
    return values, known


def _split_dynamic(op: Operation, names: Sequence[str], lw: Lowering) -> list[list[SSAValue]]:
    """The dynamic offsets/sizes/strides operands (after the source) of a view-like op."""
    counts = []
    for name in names:
        static = op.properties[name]
        assert isinstance(static, DenseArrayBase)
        counts.append(sum(1 for s in static.iter_values() if s == DYNAMIC_INDEX))
    rest = lw.values(op.operands[1:], op)
    out: list[list[SSAValue]] = []
    start = 0
    for count in counts:
        out.append(rest[start : start + count])
        start += count
    return out


def _static_or(
    lw: Lowering, op: Operation, static: int | None, value: Callable[[], SSAValue]
) -> SSAValue:
    return lw.index(static, op) if static is not None else value()


# ---------------------------------------------------------------------------------------
# allocation


def _row_major_strides(math: IndexMath, sizes: Sequence[SSAValue]) -> list[SSAValue]:
    strides: list[SSAValue] = []
    running = math.const(1)
    for size in reversed(sizes):
        strides.append(running)
        running = math.mul(running, size)
    return strides[::-1]


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
    strides = _row_major_strides(math, sizes)
    count = math.const(1)
    for size in sizes:
        count = math.mul(count, size)
    elem = lw.convert(t.get_element_type(), op)
    ptr_type = lw.converter.pointer_type(t.memory_space)
    alignment_attr = op.properties.get("alignment")
    alignment = alignment_attr.value.data if isinstance(alignment_attr, IntegerAttr) else None

    if op.name == "memref.alloca":
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
    desc = _descriptor(lw, op, op.operands[0], emit)
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
    desc = _descriptor(lw, op, op.operands[0], emit)
    indices = lw.values(op.operands[1:], op)
    ptr = element_pointer(lw, emit, desc, indices, op)
    elem = lw.convert(op.results[0].type, op)
    load = llvm.LoadOp(ptr, elem, alignment=_alignment_of(op), nontemporal=_nontemporal(op))
    lw.replace(op, [emit(load)])


def _store(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    value = lw.value(op.operands[0], op)
    desc = _descriptor(lw, op, op.operands[1], emit)
    indices = lw.values(op.operands[2:], op)
    ptr = element_pointer(lw, emit, desc, indices, op)
    emit(llvm.StoreOp(value, ptr, alignment=_alignment_of(op), nontemporal=_nontemporal(op)))
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# views: new descriptors over the same buffer


def _result_type(op: Operation) -> MemRefType:
    t = op.results[0].type
    if not isinstance(t, MemRefType):
        raise unsupported(PASS, op, f"result of type {t}")
    strided_layout_checked(op, t)
    return t


def _view_descriptor(
    lw: Lowering,
    op: Operation,
    emit: Emit,
    source: Descriptor,
    result: MemRefType,
    offset: Callable[[], SSAValue],
    sizes: Sequence[Callable[[], SSAValue]],
    strides: Sequence[Callable[[], SSAValue]],
    *,
    aligned: SSAValue | None = None,
) -> SSAValue:
    """A descriptor of type `result` over `source`'s pointers.

    Each field is the result type's static value when it has one (the type is a promise
    about the value) and otherwise computed by the given function.
    """
    static_strides, static_offset = strided_layout_checked(op, result)
    shape = result.get_shape()
    return build_descriptor(
        emit,
        lw.convert(result, op),
        source.allocated(),
        aligned if aligned is not None else source.aligned(),
        _static_or(lw, op, static_offset, offset),
        [_static_or(lw, op, s if s >= 0 else None, f) for s, f in zip(shape, sizes, strict=True)],
        [_static_or(lw, op, s, f) for s, f in zip(static_strides, strides, strict=True)],
    )


def _dropped_dims(sizes: Sequence[int | None], result_shape: Sequence[int]) -> set[int]:
    """Dims a rank-reducing subview drops (upstream's computeRankReductionMask).

    `sizes` are the subview's static sizes (None where dynamic); unit dims that do not
    match the next result dim greedily are the dropped ones.
    """
    dropped: set[int] = set()
    r = 0
    for i, size in enumerate(sizes):
        if r < len(result_shape):
            want = result_shape[r]
            if size != 1 and (size is None or want < 0):
                r += 1
                continue
            if size == want:
                r += 1
                continue
        if size != 1:
            raise ValueError("not a rank reduction")
        dropped.add(i)
    if r != len(result_shape):
        raise ValueError("not a rank reduction")
    return dropped


def _subview(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    dyn_offsets, dyn_sizes, dyn_strides = _split_dynamic(
        op, ("static_offsets", "static_sizes", "static_strides"), lw
    )
    offsets, _ = _mixed(lw, op, "static_offsets", dyn_offsets)
    sizes, _ = _mixed(lw, op, "static_sizes", dyn_sizes)
    strides, _ = _mixed(lw, op, "static_strides", dyn_strides)
    static_sizes = op.properties["static_sizes"]
    assert isinstance(static_sizes, DenseArrayBase)
    try:
        dropped = _dropped_dims(
            [None if s == DYNAMIC_INDEX else int(s) for s in static_sizes.iter_values()],
            result.get_shape(),
        )
    except ValueError:
        raise unsupported(PASS, op, f"cannot match sizes to result type {result}") from None
    kept = [i for i in range(source.rank) if i not in dropped]

    def offset() -> SSAValue:
        total = source.offset()
        for i, off in enumerate(offsets):
            total = math.add(total, math.mul(off, source.stride(i)))
        return total

    desc = _view_descriptor(
        lw,
        op,
        emit,
        source,
        result,
        offset,
        [lambda i=i: sizes[i] for i in kept],
        [lambda i=i: math.mul(source.stride(i), strides[i]) for i in kept],
    )
    lw.replace(op, [desc])


def _reinterpret_cast(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    dyn_offsets, dyn_sizes, dyn_strides = _split_dynamic(
        op, ("static_offsets", "static_sizes", "static_strides"), lw
    )
    offsets, _ = _mixed(lw, op, "static_offsets", dyn_offsets)
    sizes, _ = _mixed(lw, op, "static_sizes", dyn_sizes)
    strides, _ = _mixed(lw, op, "static_strides", dyn_strides)
    desc = _view_descriptor(
        lw,
        op,
        emit,
        source,
        result,
        lambda: offsets[0],
        [lambda v=v: v for v in sizes],
        [lambda v=v: v for v in strides],
    )
    lw.replace(op, [desc])


def _cast(lw: Lowering, op: Operation) -> None:
    source_type = op.operands[0].type
    result = op.results[0].type
    if not isinstance(source_type, MemRefType) or not isinstance(result, MemRefType):
        raise unsupported(PASS, op, "casts from or to unranked memrefs")
    # Same rank, so the same descriptor struct: only the static knowledge changes.
    lw.replace(op, [lw.value(op.operands[0], op)])


def _memory_space_cast(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    ptr_type = lw.converter.pointer_type(result.memory_space)
    allocated = source.allocated()
    aligned = source.aligned()
    if allocated.type != ptr_type:
        allocated = emit(llvm.AddrSpaceCastOp(allocated, ptr_type))
        aligned = emit(llvm.AddrSpaceCastOp(aligned, ptr_type))
    desc = lw.value(op.operands[0], op)
    out = emit(llvm.PoisonOp(lw.convert(result, op)))
    out = insert(emit, out, allocated, 0)
    out = insert(emit, out, aligned, 1)
    for field in range(2, 5 if source.rank else 3):
        out = insert(emit, out, extract(emit, desc, field), field)
    lw.replace(op, [out])


def _reassociation(op: Operation) -> list[list[int]]:
    attr = attr_of(op, "reassociation")
    assert isinstance(attr, ArrayAttr)
    return [[int(x.value.data) for x in group.data] for group in attr.data]  # type: ignore[attr-defined]


def _collapse_shape(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    groups = _reassociation(op)
    shape = source.type.get_shape()

    def size(group: list[int]) -> SSAValue:
        total = math.const(1)
        for d in group:
            total = math.mul(total, source.size(d))
        return total

    def stride(group: list[int]) -> SSAValue:
        # The group's stride is that of its innermost dim that is not statically 1 (a
        # unit dim's stride says nothing about the layout).
        candidates = [d for d in group if shape[d] != 1] or group
        return source.stride(candidates[-1])

    desc = _view_descriptor(
        lw,
        op,
        emit,
        source,
        result,
        source.offset,
        [lambda g=g: size(g) for g in groups],
        [lambda g=g: stride(g) for g in groups],
    )
    lw.replace(op, [desc])


def _expand_shape(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    groups = _reassociation(op)
    out_shape, _ = _mixed(lw, op, "static_output_shape", lw.values(op.operands[1:], op))
    strides: dict[int, SSAValue] = {}
    for src_dim, group in enumerate(groups):
        running = source.stride(src_dim)
        for d in reversed(group):
            strides[d] = running
            running = math.mul(running, out_shape[d])
    desc = _view_descriptor(
        lw,
        op,
        emit,
        source,
        result,
        source.offset,
        [lambda d=d: out_shape[d] for d in range(result.get_num_dims())],
        [lambda d=d: strides[d] for d in range(result.get_num_dims())],
    )
    lw.replace(op, [desc])


def _view(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = _descriptor(lw, op, op.operands[0], emit)
    result = _result_type(op)
    operands = lw.values(op.operands[1:], op)
    shift, dynamic = operands[0], iter(operands[1:])
    sizes = [math.const(s) if s >= 0 else next(dynamic) for s in result.get_shape()]
    strides = _row_major_strides(math, sizes)
    aligned = emit(llvm.GEPOp(source.aligned(), [shift], builtin.i8, flags=3))
    desc = _view_descriptor(
        lw,
        op,
        emit,
        source,
        result,
        lambda: math.const(0),
        [lambda v=v: v for v in sizes],
        [lambda v=v: v for v in strides],
        aligned=aligned,
    )
    lw.replace(op, [desc])


def _assume_alignment(lw: Lowering, op: Operation) -> None:
    # Only an optimization hint: the descriptor passes through unchanged.
    lw.replace(op, [lw.value(op.operands[0], op)] if op.results else [])


# ---------------------------------------------------------------------------------------
# queries


def _dim(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    desc = _descriptor(lw, op, op.operands[0], emit)
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
    t = _memref_type(op, op.operands[0])
    lw.replace(op, [lw.index(t.get_num_dims(), op)])


def _extract_strided_metadata(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = _descriptor(lw, op, op.operands[0], emit)
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
    source = _descriptor(lw, op, op.operands[0], emit)
    lw.replace(op, [emit(llvm.PtrToIntOp(source.aligned(), INDEX))])


# ---------------------------------------------------------------------------------------
# copy


def _copy(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = _descriptor(lw, op, op.operands[0], emit)
    target = _descriptor(lw, op, op.operands[1], emit)
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
                initial.get_values(),  # type: ignore[arg-type]
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
    t = _result_type(op)
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
        _row_major_strides(math, sizes),
    )
    lw.replace(op, [desc])


_HANDLERS: dict[str, Handler] = {
    "memref.alloc": _alloc,
    "memref.alloca": _alloc,
    "memref.dealloc": _dealloc,
    "memref.load": _load,
    "memref.store": _store,
    "memref.subview": _subview,
    "memref.reinterpret_cast": _reinterpret_cast,
    "memref.cast": _cast,
    "memref.memory_space_cast": _memory_space_cast,
    "memref.collapse_shape": _collapse_shape,
    "memref.expand_shape": _expand_shape,
    "memref.view": _view,
    "memref.assume_alignment": _assume_alignment,
    "memref.dim": _dim,
    "memref.rank": _rank,
    "memref.extract_strided_metadata": _extract_strided_metadata,
    "memref.extract_aligned_pointer_as_index": _extract_aligned_pointer,
    "memref.copy": _copy,
    "memref.global": _global,
    "memref.get_global": _get_global,
}


def lower_memref(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace every memref op in `module` by LLVM dialect ops and libc calls."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        if not op.name.startswith("memref."):
            continue
        handler = _HANDLERS.get(op.name)
        if handler is None:
            raise unsupported(PASS, op)
        handler(lw, op)
    lw.finish()


@dataclass(frozen=True)
class FinalizeMemRefToLLVMPass(ModulePass):
    """Lower the memref dialect to the LLVM dialect (see the module docstring)."""

    name = "finalize-memref-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_memref(op)


__all__ = ["FinalizeMemRefToLLVMPass", "lower_memref"]
