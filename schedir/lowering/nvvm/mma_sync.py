"""convert-gpu-to-nvvm: the warp-level tensor-core ops (sm_80+) of device code.

* `nvgpu.ldmatrix %sm[i, j] numTiles = N transpose = T` ->
  `llvm.nvvm.ldmatrix.sync.aligned.m8n8.x<N>[.trans].b16` on the shared-memory address of
  the element at the indices (each lane gives the address of one row of one 8x8 tile:
  lanes 8t..8t+7 the rows of tile t); the N 32-bit registers it returns become the rows of
  the result vector (bitcasts: a row is 32 bits of f16/bf16/i8/f32 elements).
* `nvgpu.mma.sync` -> one inline-PTX `mma.sync.aligned.m<M>n<N>k<K>.row.col` (no side
  effects: LLVM may schedule it like arithmetic): the fragment rows are the instruction's
  32-bit registers (`r`), f32 accumulators one `f` register per element, f64 one `d` each;
  the results are rebuilt into the accumulator's vector rows.

Supported shapes (PTX ISA "Matrix shape" of mma): f16 m16n8k16 with f16 or f32
accumulators, bf16 m16n8k16 with f32, tf32 (`tf32Enabled`, f32 operands) m16n8k8 and
m16n8k4, i8 m16n8k32 (s8, i32 accumulators) and f64 m8n8k4; anything else is a diagnostic
at the op.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IntAttr,
    IntegerType,
    MemRefType,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.llvm import InlineAsmOp
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects import llvm
from schedir.dialects import nvgpu as ng
from schedir.lowering.llvm.common import Handler, Lowering, unsupported
from schedir.lowering.llvm.memref import Descriptor, element_pointer
from schedir.lowering.nvvm.kernels import PASS

_PTR_SHARED = llvm.LLVMPointerType(IntAttr(3))


def _vector(value: SSAValue) -> VectorType:
    t = value.type
    assert isinstance(t, VectorType)
    return t


def _row_type(t: VectorType) -> VectorType:
    """The LLVM type of one row of a 2-D fragment vector (the converter's array element)."""
    return VectorType(t.element_type, t.get_shape()[-1:])


def _at(*position: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, position)


def _rows(lw: Lowering, op: Operation, value: SSAValue) -> list[SSAValue]:
    """The rows of a 2-D fragment vector (an LLVM array of 1-D vectors)."""
    t = _vector(value)
    emit = lw.emit(op)
    array = lw.value(value, op)
    row = _row_type(t)
    return [emit(llvm.ExtractValueOp(_at(i), array, row)) for i in range(t.get_shape()[0])]


def _from_rows(lw: Lowering, op: Operation, t: VectorType, rows: list[SSAValue]) -> SSAValue:
    """A 2-D fragment vector (an LLVM array of 1-D vectors) of `rows`."""
    emit = lw.emit(op)
    result = emit(llvm.UndefOp(lw.convert(t, op)))
    for i, row in enumerate(rows):
        result = emit(llvm.InsertValueOp(_at(i), result, row))
    return result


# ---------------------------------------------------------------------------------------
# ldmatrix


def _ldmatrix(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.LdMatrixOp)
    tiles = op.num_tiles
    if tiles not in (1, 2, 4):
        raise unsupported(PASS, op, f"ldmatrix loads 1, 2 or 4 tiles, not {tiles}")
    emit = lw.emit(op)
    src = op.src_memref.type
    assert isinstance(src, MemRefType)
    desc = Descriptor(lw, op, lw.value(op.src_memref, op), src)
    pointer = element_pointer(lw, emit, desc, [lw.value(i, op) for i in op.indices], op)
    if pointer.type != _PTR_SHARED:
        pointer = emit(llvm.AddrSpaceCastOp(pointer, _PTR_SHARED))
    trans = ".trans" if op.is_transposed else ""
    name = f"llvm.nvvm.ldmatrix.sync.aligned.m8n8.x{tiles}{trans}.b16"
    result_type: Attribute = (
        i32 if tiles == 1 else llvm.LLVMStructType.from_type_list([i32] * tiles)
    )
    call = emit(llvm.CallIntrinsicOp(name, [pointer], [result_type]))
    registers = (
        [call]
        if tiles == 1
        else [emit(llvm.ExtractValueOp(_at(i), call, i32)) for i in range(tiles)]
    )
    t = _vector(op.res)
    row = _row_type(t)
    lw.replace(op, [_from_rows(lw, op, t, [emit(llvm.BitcastOp(r, row)) for r in registers])])


# ---------------------------------------------------------------------------------------
# mma.sync


def _kind(op: ng.MmaSyncOp) -> tuple[str, str] | None:
    """The PTX type suffix (`.<d>.<a>.<b>.<c>`) of the op's shape and types, and the
    register constraint of one accumulator element (`f`, `d`, `r`; `r` with two halves
    per register for f16); None where PTX has no such mma."""
    a, c = _vector(op.matrix_a).element_type, _vector(op.matrix_c).element_type
    shape = op.shape
    tf32 = op.tf32Enabled is not None
    if isinstance(a, Float16Type) and shape == (16, 8, 16):
        if isinstance(c, Float32Type):
            return ".f32.f16.f16.f32", "f"
        if isinstance(c, Float16Type):
            return ".f16.f16.f16.f16", "r"
    if isinstance(a, BFloat16Type) and shape == (16, 8, 16) and isinstance(c, Float32Type):
        return ".f32.bf16.bf16.f32", "f"
    if (
        isinstance(a, Float32Type)
        and tf32
        and shape in ((16, 8, 8), (16, 8, 4))
        and isinstance(c, Float32Type)
    ):
        return ".f32.tf32.tf32.f32", "f"
    if (
        isinstance(a, IntegerType)
        and a.width.data == 8
        and shape == (16, 8, 32)
        and isinstance(c, IntegerType)
        and c.width.data == 32
    ):
        return ".s32.s8.s8.s32", "r"
    if isinstance(a, Float64Type) and shape == (8, 8, 4) and isinstance(c, Float64Type):
        return ".f64.f64.f64.f64", "d"
    return None


def _operand_registers(lw: Lowering, op: Operation, value: SSAValue) -> list[SSAValue]:
    """A/B fragment rows as the instruction's registers: 32-bit rows as one i32 each,
    f64 rows as their element."""
    emit = lw.emit(op)
    t = _vector(value)
    if isinstance(t.element_type, Float64Type):
        return [
            emit(llvm.ExtractElementOp(row, lw.constant(0, i64, op)))
            for row in _rows(lw, op, value)
        ]
    return [emit(llvm.BitcastOp(row, i32)) for row in _rows(lw, op, value)]


def _accumulator_registers(
    lw: Lowering, op: Operation, value: SSAValue, constraint: str
) -> list[SSAValue]:
    """C fragment rows as registers: f16 pairs as one i32 each, other types per element."""
    emit = lw.emit(op)
    rows = _rows(lw, op, value)
    if constraint == "r" and isinstance(_vector(value).element_type, Float16Type):
        return [emit(llvm.BitcastOp(row, i32)) for row in rows]
    width = _vector(value).get_shape()[1]
    return [
        emit(llvm.ExtractElementOp(row, lw.constant(e, i64, op)))
        for row in rows
        for e in range(width)
    ]


def _mma_sync(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MmaSyncOp)
    kind = _kind(op)
    m, n, k = op.shape
    if kind is None:
        raise unsupported(
            PASS,
            op,
            f"mma.sync m{m}n{n}k{k} on {_vector(op.matrix_a).element_type} with "
            f"{_vector(op.matrix_c).element_type} accumulators has no PTX instruction "
            "(f16 m16n8k16 with f16/f32, bf16 m16n8k16 with f32, tf32 m16n8k8/m16n8k4, "
            "i8 m16n8k32 with i32, f64 m8n8k4)",
        )
    types, constraint = kind
    emit = lw.emit(op)
    a = _operand_registers(lw, op, op.matrix_a)
    b = _operand_registers(lw, op, op.matrix_b)
    c = _accumulator_registers(lw, op, op.matrix_c, constraint)
    a_constraint = "d" if constraint == "d" else "r"
    out = len(c)

    def group(start: int, count: int) -> str:
        return "{" + ", ".join(f"${i}" for i in range(start, start + count)) + "}"

    text = (
        f"mma.sync.aligned.m{m}n{n}k{k}.row.col{types} "
        f"{group(0, out)}, {group(out, len(a))}, {group(out + len(a), len(b))}, "
        f"{group(out + len(a) + len(b), out)};"
    )
    constraints = ",".join(
        [f"={constraint}"] * out + [a_constraint] * (len(a) + len(b)) + [constraint] * out
    )
    register = c[0].type
    struct = llvm.LLVMStructType.from_type_list([register] * out)
    asm = InlineAsmOp(text, constraints, [*a, *b, *c], [struct], has_side_effects=False)
    lw.insert(asm, op)
    values = [emit(llvm.ExtractValueOp(_at(i), asm.results[0], register)) for i in range(out)]
    result_type = _vector(op.res)
    row = _row_type(result_type)
    if register == i32 and isinstance(result_type.element_type, Float16Type):
        rows = [emit(llvm.BitcastOp(v, row)) for v in values]
    else:
        width = result_type.get_shape()[1]
        rows = []
        for r in range(result_type.get_shape()[0]):
            vector = emit(llvm.UndefOp(row))
            for e in range(width):
                vector = emit(
                    llvm.InsertElementOp(vector, values[r * width + e], lw.constant(e, i64, op))
                )
            rows.append(vector)
    lw.replace(op, [_from_rows(lw, op, result_type, rows)])


MMA_SYNC_LOWERINGS: dict[type[Operation], Handler] = {
    ng.LdMatrixOp: _ldmatrix,
    ng.MmaSyncOp: _mma_sync,
}
"""The warp-level tensor-core ops and their lowerings, by class."""

__all__ = ["MMA_SYNC_LOWERINGS"]
