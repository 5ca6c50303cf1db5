"""convert-gpu-to-nvvm: gpu ops to NVVM (ids and sizes as special registers, barrier, shuffle,
printf as vprintf); see convert_gpu_to_nvvm.py."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects import gpu, llvm, nvvm
from schedir.lowering.llvm.common import PTR, Handler, Lowering, const, unsupported
from schedir.lowering.nvvm.kernels import MAXNTID_ATTR, PASS, insert_at_top

# ---------------------------------------------------------------------------------------
# gpu ops


def _known_block_size(op: Operation) -> list[int] | None:
    current = op.parent_op()
    while current is not None and not isinstance(current, func.FuncOp):
        current = current.parent_op()
    if current is None:
        return None
    attr = current.attributes.get(MAXNTID_ATTR)
    return list(attr.get_values()) if isinstance(attr, DenseArrayBase) else None


def _special_register(register: str) -> Handler:
    """The lowering of an id or size op to a read of PTX special register `register`
    (`tid`, `ntid`, ...) of its dimension, sign-extended to i64."""

    def lower(lw: Lowering, op: Operation) -> None:
        assert isinstance(op, gpu.DimensionOp)
        emit = lw.emit(op)
        # DimensionEnum's values are "x", "y", "z" (declared with auto(): typed int).
        dim = cast(str, op.dimension.data.value)
        if register == "ntid":
            known = _known_block_size(op)
            if known is not None:
                lw.replace(op, [lw.index(known["xyz".index(dim)], op)])
                return
        value = emit(nvvm.SREG_OPS[f"{register}.{dim}"]())
        lw.replace(op, [emit(llvm.SExtOp(value, i64))])

    return lower


def _lane_id(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    value = emit(nvvm.SREG_OPS["laneid"]())
    lw.replace(op, [emit(llvm.SExtOp(value, i64))])


def _barrier(lw: Lowering, op: Operation) -> None:
    lw.insert(nvvm.BarrierOp(), op)
    lw.replace(op, [])


_SHFL_KIND = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}


def _shuffle(lw: Lowering, op: Operation) -> None:
    """Upstream's GPUShuffleOpLowering."""
    assert isinstance(op, gpu.ShuffleOp)
    emit = lw.emit(op)
    value = lw.value(op.value, op)
    offset = lw.value(op.offset, op)
    width = lw.value(op.width, op)
    if value.type not in (i32, Float32Type()):
        raise unsupported(PASS, op, f"shuffles of {value.type} (only 32-bit values)")
    one = const(emit, 1, i32)
    minus_one = const(emit, -1, i32)
    thirty_two = const(emit, 32, i32)
    inactive = emit(llvm.SubOp(thirty_two, width))
    active_mask = emit(llvm.LShrOp(minus_one, inactive))
    mode = op.mode.data.value
    clamp = inactive if mode == "up" else emit(llvm.SubOp(width, one))
    with_valid = op.valid.first_use is not None
    result_type: Attribute = (
        llvm.LLVMStructType.from_type_list([value.type, i1]) if with_valid else value.type
    )
    shfl = emit(
        nvvm.ShflSyncOp(
            _SHFL_KIND[mode], active_mask, value, offset, clamp, result_type, with_valid=with_valid
        )
    )
    if with_valid:
        result = emit(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), shfl, value.type))
        valid = emit(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), shfl, i1))
        lw.replace(op, [result, valid])
    else:
        lw.replace(op, [shfl, const(emit, 1, i1)])


def lower_printf(lw: Lowering, op: Operation, counter: list[int]) -> None:
    """Upstream's GPUPrintfOpToVPrintfLowering: a format global and an argument buffer."""
    assert isinstance(op, gpu.PrintfOp)
    emit = lw.emit(op)
    text = op.format.data.encode("latin-1") + b"\0"
    name = f"printfFormat_{counter[0]}"
    counter[0] += 1
    module = _module_of(op)
    fmt_type = llvm.LLVMArrayType(len(text), i8)
    glob = llvm.GlobalOp(
        fmt_type, name, "internal", constant=True, value=StringAttr(text.decode("latin-1"))
    )
    insert_at_top(module, glob)
    lw.declare("vprintf", llvm.LLVMFunctionType([PTR, PTR], i32), op)
    fmt = emit(llvm.AddressOfOp(SymbolRefAttr(name), PTR))
    args: list[SSAValue] = []
    for value in lw.values(op.args, op):
        if isinstance(value.type, Float32Type | Float16Type | BFloat16Type):
            value = emit(llvm.FPExtOp(value, Float64Type()))
        args.append(value)
    if args:
        struct = llvm.LLVMStructType.from_type_list([a.type for a in args])
        one = const(emit, 1, i64)
        buffer = emit(
            llvm.AllocaOp.create(
                operands=[one], result_types=[PTR], properties={"elem_type": struct}
            )
        )
        for index, value in enumerate(args):
            field = emit(llvm.GEPOp(buffer, [0, index], struct))
            emit(llvm.StoreOp(value, field))
    else:
        buffer = emit(llvm.ZeroOp.create(result_types=[PTR]))
    emit(llvm.CallOp("vprintf", fmt, buffer, return_type=i32))
    lw.replace(op, [])


def _module_of(op: Operation) -> ModuleOp:
    current = op.parent_op()
    while current is not None and not isinstance(current, ModuleOp):
        current = current.parent_op()
    assert current is not None
    return current


GPU_OP_LOWERINGS: dict[type[Operation], Handler] = {
    gpu.ThreadIdOp: _special_register("tid"),
    gpu.BlockIdOp: _special_register("ctaid"),
    gpu.BlockDimOp: _special_register("ntid"),
    gpu.GridDimOp: _special_register("nctaid"),
    gpu.ClusterIdOp: _special_register("clusterid"),
    gpu.ClusterDimOp: _special_register("nclusterid"),
    gpu.LaneIdOp: _lane_id,
    gpu.BarrierOp: _barrier,
    gpu.ShuffleOp: _shuffle,
}
"""The gpu ops lowered one by one (`gpu.printf` numbers its format strings: see
`lower_printf`)."""

__all__ = ["GPU_OP_LOWERINGS", "lower_printf"]
