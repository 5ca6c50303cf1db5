"""Memref view ops in the LLVM dialect: new descriptors over an existing buffer.

`subview` (static/dynamic offsets, sizes, strides; rank-reducing), `reinterpret_cast`,
`cast`, `memory_space_cast`, `collapse_shape`, `expand_shape` and `view` keep the source's
pointers and compute offset, sizes and strides as upstream's expand-strided-metadata does;
a field the result type knows statically is that constant. Part of
`finalize-memref-to-llvm`, with the helpers its other handlers share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    UnrankedMemRefType,
)
from xdsl.ir import Operation, SSAValue

from schedir.dialects import llvm
from schedir.lowering.llvm.common import Lowering, attr_of, unsupported
from schedir.lowering.llvm.memref import (
    Descriptor,
    Emit,
    IndexMath,
    build_descriptor,
    constant_int,
    extract,
    insert,
    strided_layout,
)

PASS = "finalize-memref-to-llvm"


def memref_type(op: Operation, v: SSAValue) -> MemRefType:
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


def descriptor(lw: Lowering, op: Operation, v: SSAValue, emit: Emit) -> Descriptor:
    return Descriptor(lw, op, lw.value(v, op), memref_type(op, v))


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


def row_major_strides(math: IndexMath, sizes: Sequence[SSAValue]) -> list[SSAValue]:
    strides: list[SSAValue] = []
    running = math.const(1)
    for size in reversed(sizes):
        strides.append(running)
        running = math.mul(running, size)
    return strides[::-1]


# ---------------------------------------------------------------------------------------
# views: new descriptors over the same buffer


def result_type(op: Operation) -> MemRefType:
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


def subview(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
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


def reinterpret_cast(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
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


def cast(lw: Lowering, op: Operation) -> None:
    source_type = op.operands[0].type
    result = op.results[0].type
    if not isinstance(source_type, MemRefType) or not isinstance(result, MemRefType):
        raise unsupported(PASS, op, "casts from or to unranked memrefs")
    # Same rank, so the same descriptor struct: only the static knowledge changes.
    lw.replace(op, [lw.value(op.operands[0], op)])


def memory_space_cast(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
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
    return [[int(x.value.data) for x in group.data] for group in attr.data]


def collapse_shape(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
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


def expand_shape(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
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


def view(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    math = IndexMath(lw, op, emit)
    source = descriptor(lw, op, op.operands[0], emit)
    result = result_type(op)
    operands = lw.values(op.operands[1:], op)
    shift, dynamic = operands[0], iter(operands[1:])
    sizes = [math.const(s) if s >= 0 else next(dynamic) for s in result.get_shape()]
    strides = row_major_strides(math, sizes)
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


def assume_alignment(lw: Lowering, op: Operation) -> None:
    # Only an optimization hint: the descriptor passes through unchanged.
    lw.replace(op, [lw.value(op.operands[0], op)] if op.results else [])


__all__ = [
    "PASS",
    "assume_alignment",
    "cast",
    "collapse_shape",
    "descriptor",
    "expand_shape",
    "memory_space_cast",
    "memref_type",
    "reinterpret_cast",
    "result_type",
    "row_major_strides",
    "strided_layout_checked",
    "subview",
    "view",
]
