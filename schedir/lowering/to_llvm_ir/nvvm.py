"""LLVM IR translation of the nvvm dialect to NVPTX intrinsics: special registers
(`nvvm.read.ptx.sreg.tid.x` -> `llvm.nvvm.read.ptx.sreg.tid.x`), barriers (`nvvm.barrier`
-> `llvm.nvvm.barrier.cta.sync.aligned.all(0)`) and warp shuffles (`nvvm.shfl.sync bfly`
-> `llvm.nvvm.shfl.sync.bfly.f32`, `...f32p` with the validity bit) and register budgets
(`nvvm.setmaxregister increase 232` -> `llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(232)`)
and bulk async-group waits (`nvvm.cp.async.bulk.wait_group 0 read` ->
`llvm.nvvm.cp.async.bulk.wait.group.read(0)`) and wgmma group waits
(`nvvm.wgmma.wait.group.sync.aligned 0` -> `llvm.nvvm.wgmma.wait_group.sync.aligned(0)`)."""

from __future__ import annotations

from collections.abc import Mapping

import llvmlite.ir as ir
from xdsl.ir import Operation

from schedir.dialects import nvvm
from schedir.lowering.to_llvm_ir.llvmlite_ir import llvm_type
from schedir.lowering.to_llvm_ir.translation import Translate, Translation


def _special_register(t: Translation, op: Operation) -> None:
    # The NVPTX intrinsic is named after the op: `llvm.` + `nvvm.read.ptx.sreg.<register>`.
    result = llvm_type(op.results[0].type)
    fn = t.function("llvm." + op.name, ir.FunctionType(result, []))
    t.set(op, t.builder.call(fn, []))


def _barrier(t: Translation, op: nvvm.BarrierOp | nvvm.Barrier0Op) -> None:
    # `bar.sync 0`: what LLVM 21+ spells llvm.nvvm.barrier0 after auto-upgrade.
    i32 = ir.IntType(32)
    fn = t.function("llvm.nvvm.barrier.cta.sync.aligned.all", ir.FunctionType(ir.VoidType(), [i32]))
    t.builder.call(fn, [ir.Constant(i32, 0)])


def _shuffle(t: Translation, op: nvvm.ShflSyncOp) -> None:
    args = [t.value(a) for a in op.operands]
    value_type = args[1].type
    suffix = "f32" if isinstance(value_type, ir.FloatType) else "i32"
    kind = op.kind.data.value
    with_valid = op.return_value_and_is_valid is not None
    result = llvm_type(op.res.type)
    intrinsic = f"llvm.nvvm.shfl.sync.{kind}.{suffix}{'p' if with_valid else ''}"
    fn = t.function(intrinsic, ir.FunctionType(result, [a.type for a in args]))
    t.set(op, t.builder.call(fn, args))


def _set_max_register(t: Translation, op: nvvm.SetMaxRegisterOp) -> None:
    i32 = ir.IntType(32)
    kind = "inc" if op.action.data == nvvm.SetMaxRegisterAction.INCREASE else "dec"
    fn = t.function(
        f"llvm.nvvm.setmaxnreg.{kind}.sync.aligned.u32", ir.FunctionType(ir.VoidType(), [i32])
    )
    t.builder.call(fn, [ir.Constant(i32, op.regCount.value.data)])


def _bulk_wait_group(t: Translation, op: nvvm.CpAsyncBulkWaitGroupOp) -> None:
    i32 = ir.IntType(32)
    name = "llvm.nvvm.cp.async.bulk.wait.group" + (".read" if op.read is not None else "")
    fn = t.function(name, ir.FunctionType(ir.VoidType(), [i32]))
    t.builder.call(fn, [ir.Constant(i32, op.group.value.data)])


def _wgmma_wait_group(t: Translation, op: nvvm.WgmmaWaitGroupSyncOp) -> None:
    i64 = ir.IntType(64)
    fn = t.function(
        "llvm.nvvm.wgmma.wait_group.sync.aligned", ir.FunctionType(ir.VoidType(), [i64])
    )
    t.builder.call(fn, [ir.Constant(i64, op.group.value.data)])


TRANSLATIONS: Mapping[type[Operation], Translate] = {
    **dict.fromkeys(nvvm.SREG_OPS.values(), _special_register),
    nvvm.BarrierOp: _barrier,
    nvvm.Barrier0Op: _barrier,
    nvvm.ShflSyncOp: _shuffle,
    nvvm.SetMaxRegisterOp: _set_max_register,
    nvvm.CpAsyncBulkWaitGroupOp: _bulk_wait_group,
    nvvm.WgmmaWaitGroupSyncOp: _wgmma_wait_group,
}
"""The ops of this family and their translations."""

__all__ = ["TRANSLATIONS"]
