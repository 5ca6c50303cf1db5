"""`convert-vector-to-llvm`'s conversion of vector memory ops: `load`, `store`,
`maskedload`, `maskedstore` and `type_cast`.

A 1-D access is a GEP from the memref's aligned pointer by the linearized index (static
strides and offset folded in), then `llvm.load` / `llvm.store` (`nontemporal` kept) or
`llvm.intr.masked.load` / `masked.store`, aligned as the op says or as its element type.
n-D loads and stores (beyond upstream) access their rows. `type_cast` builds the
descriptor of the memref of one vector over the same buffer.

    %v = vector.load %m[%i] : memref<?xf32>, vector<8xf32>
  =>
    %p = llvm.getelementptr %aligned[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p <alignment = 4> : !llvm.ptr -> vector<8xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import IntegerAttr, MemRefType, VectorType
from xdsl.ir import Operation, SSAValue

from schedir.dialects import llvm, vector
from schedir.dialects.llvm.vector import MaskedLoadOp, MaskedStoreOp
from schedir.lowering.llvm import vector as lv
from schedir.lowering.llvm.common import Lowering, element_size, unsupported
from schedir.lowering.llvm.memref import Descriptor, IndexMath, build_descriptor
from schedir.lowering.llvm.vector import PASS


def _vtype(v: SSAValue) -> VectorType:
    return cast(VectorType, v.type)


def type_cast(lw: Lowering, op: Operation) -> None:
    """`memref<4x8xf32>` -> `memref<vector<4x8xf32>>`: the same buffer, offset 0."""
    assert isinstance(op, vector.TypeCastOp)
    src_t = cast(MemRefType, op.memref.type)
    dst_t = cast(MemRefType, op.result.type)
    strides, offset = lw.converter.layout(src_t)
    if offset != 0 or any(s is None for s in strides) or any(d < 0 for d in src_t.get_shape()):
        raise unsupported(PASS, op, "a memref that is not static and contiguous")
    emit = lw.emit(op)
    desc = Descriptor(lw, op, lw.value(op.memref, op), src_t)
    math = IndexMath(lw, op, emit)
    dst_strides, _ = lw.converter.layout(dst_t)
    new = build_descriptor(
        emit,
        lw.convert(dst_t, op),
        desc.allocated(),
        desc.aligned(),
        math.const(0),
        [math.const(d) for d in dst_t.get_shape()],
        [math.const(cast(int, s)) for s in dst_strides],
    )
    lw.replace(op, [new])


def _alignment(op: Operation, memref_t: MemRefType) -> int:
    """The op's alignment, else the element's (upstream without use-vector-alignment)."""
    attr = op.properties.get("alignment")
    if isinstance(attr, IntegerAttr) and attr.value.data:
        return attr.value.data
    return element_size(memref_t.get_element_type()) or 1


def _pointer(
    lw: Lowering,
    op: Operation,
    base: SSAValue,
    indices: Sequence[SSAValue],
    row: Sequence[int] = (),
) -> SSAValue:
    """Address of element `indices` (plus `row` on the dims before the last) of `base`."""
    memref_t = base.type
    if not isinstance(memref_t, MemRefType):
        raise unsupported(PASS, op, f"a base of type {memref_t}")
    emit = lw.emit(op)
    desc = Descriptor(lw, op, lw.value(base, op), memref_t)
    math = IndexMath(lw, op, emit)
    values = lw.values(indices, op)
    first_row_dim = len(values) - 1 - len(row)
    linear = desc.offset()
    for dim, index in enumerate(values):
        if first_row_dim <= dim < len(values) - 1 and row[dim - first_row_dim]:
            index = math.add(index, math.const(row[dim - first_row_dim]))
        linear = math.add(linear, math.mul(index, desc.stride(dim)))
    elem = lw.convert(memref_t.get_element_type(), op)
    return emit(llvm.GEPOp(desc.aligned(), [linear], elem))


def _memory_rows(op: Operation, t: VectorType, base: SSAValue) -> list[tuple[int, ...]]:
    """Rows of an n-D load/store: vector dims map to the trailing memref dims."""
    rank = cast(MemRefType, base.type).get_num_dims()
    if t.get_num_dims() > rank:
        raise unsupported(PASS, op, "a vector of higher rank than the memref")
    return lv.rows(t.get_shape())


def load(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, vector.LoadOp)
    emit = lw.emit(op)
    t = _vtype(op.result)
    memref_t = cast(MemRefType, op.base.type)
    align = _alignment(op, memref_t)
    row_t = lv.row_type(t)
    nontemporal = op.nontemporal is not None and bool(op.nontemporal.value.data)
    values: dict[tuple[int, ...], SSAValue] = {}
    for pos in _memory_rows(op, t, op.base):
        ptr = _pointer(lw, op, op.base, list(op.indices), pos)
        values[pos] = emit(llvm.LoadOp(ptr, row_t, alignment=align, nontemporal=nontemporal))
    lw.replace(op, [_assemble(lw, op, t, values)])


def _assemble(
    lw: Lowering, op: Operation, t: VectorType, rows: dict[tuple[int, ...], SSAValue]
) -> SSAValue:
    if lv.is_row(t):
        return rows[()]
    emit = lw.emit(op)
    result = lv.poison(emit, lw.convert(t, op))
    for pos, row in rows.items():
        result = lv.insert_value(emit, result, row, pos)
    return result


def store(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, vector.StoreOp)
    emit = lw.emit(op)
    t = _vtype(op.vector)
    memref_t = cast(MemRefType, op.base.type)
    align = _alignment(op, memref_t)
    value = lw.value(op.vector, op)
    nontemporal = op.nontemporal is not None and bool(op.nontemporal.value.data)
    for pos in _memory_rows(op, t, op.base):
        ptr = _pointer(lw, op, op.base, list(op.indices), pos)
        row = lv.extract_value(emit, value, pos)
        emit(llvm.StoreOp(row, ptr, alignment=align, nontemporal=nontemporal))
    lw.replace(op, [])


def masked_load(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, vector.MaskedLoadOp)
    t = _vtype(op.result)
    if not lv.is_row(t):
        raise unsupported(PASS, op, "a multi-dimensional masked load")
    emit = lw.emit(op)
    ptr = _pointer(lw, op, op.base, list(op.indices))
    mask, pass_thru = lw.value(op.mask, op), lw.value(op.pass_thru, op)
    align = _alignment(op, cast(MemRefType, op.base.type))
    new = MaskedLoadOp(ptr, mask, cast(VectorType, lw.convert(t, op)), pass_thru, align)
    lw.replace(op, [emit(new)])


def masked_store(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, vector.MaskedStoreOp)
    if not lv.is_row(_vtype(op.value_to_store)):
        raise unsupported(PASS, op, "a multi-dimensional masked store")
    emit = lw.emit(op)
    ptr = _pointer(lw, op, op.base, list(op.indices))
    value, mask = lw.value(op.value_to_store, op), lw.value(op.mask, op)
    align = _alignment(op, cast(MemRefType, op.base.type))
    emit(MaskedStoreOp(value, ptr, mask, align))
    lw.replace(op, [])


__all__ = ["load", "masked_load", "masked_store", "store", "type_cast"]
