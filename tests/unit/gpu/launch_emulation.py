"""Run a scheduled GPU program on the CPU, for kernels whose threads never wait for each
other: every `gpu.launch` becomes a loop nest over its blocks and threads (z, y, x, one
thread after the other), the ids and dims become the loop variables and the launch sizes,
and the result compiles for the CPU without a schedule. Sequential execution is a valid
schedule of a kernel without barriers, shuffles or cross-thread reductions (those are
refused), so a wrong index, a missed tile or a lost partial shows up as a numeric mismatch
without a GPU."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from xdsl.dialects import memref as xmemref
from xdsl.dialects import scf
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from schedir.dialects import get_context
from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.dialects.gpu import (
    AllReduceOp,
    BarrierOp,
    BlockDimOp,
    BlockIdOp,
    GridDimOp,
    LaunchOp,
    ShuffleOp,
    SubgroupReduceOp,
    TerminatorOp,
    ThreadIdOp,
)
from schedir.options import CompileOptions
from schedir.pipeline import PAYLOAD, SCHEDULED, Compilation, Schedule, run_stages
from schedir.transform.knobs import KnobValue

_WAITING = (BarrierOp, ShuffleOp, SubgroupReduceOp, AllReduceOp)
"""Ops through which threads of a block see each other: no sequential emulation."""


_PURE = (ApplyOp, MinOp, MaxOp, xmemref.SubviewOp, xmemref.DimOp)
"""Side-effect-free ops xDSL does not mark so (index arithmetic, views)."""


class NotEmulable(Exception):
    """The kernel synchronizes its threads."""


def _loop(lower: SSAValue, upper: SSAValue, step: SSAValue) -> tuple[scf.ForOp, SSAValue]:
    body = Block(arg_types=[IndexType()])
    loop = scf.ForOp(lower, upper, step, [], Region(body))
    return loop, body.args[0]


def _emulate(launch: LaunchOp) -> None:
    body = launch.body.block
    for op in launch.walk():
        if isinstance(op, _WAITING) and not (isinstance(op, BarrierOp) and op.parent is body):
            raise NotEmulable(f"'{op.name}' in a kernel (other than a top-level barrier)")
    grid = (launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ)
    block = (launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ)
    # gpu.launch's block arguments (block ids, thread ids, grid sizes, block sizes) become
    # id ops and the launch's sizes, so that every phase can clone what it uses.
    ids: list[SSAValue] = []
    for cls in (BlockIdOp, ThreadIdOp):
        for dim in "xyz":
            op = cls(dim)
            body.insert_op_before(op, body.first_op) if body.first_op else body.add_op(op)
            ids.append(op.results[0])
    for arg, value in zip(body.args, [*ids, *grid, *block], strict=False):
        arg.replace_all_uses_with(value)
    # The phases: the body split at its top-level barriers.
    phases: list[list[Operation]] = [[]]
    for op in list(body.ops):
        if isinstance(op, BarrierOp):
            phases.append([])
        elif not isinstance(op, TerminatorOp):
            phases[-1].append(op)
    rw = Rewriter()
    point = InsertPoint.before(launch)
    zero = ConstantOp.from_int_and_width(0, IndexType())
    one = ConstantOp.from_int_and_width(1, IndexType())
    rw.insert_op([zero, one], point)
    block_ivs: dict[str, SSAValue] = {}
    for dim, size in reversed(list(zip("xyz", grid, strict=True))):
        point, block_ivs[dim] = _nest(rw, point, zero.result, size, one.result)
    earlier: dict[SSAValue, Operation] = {}
    previous_ivs: list[dict[str, SSAValue]] = []
    for phase in phases:
        thread_point = point
        thread_ivs: dict[str, SSAValue] = {}
        for dim, size in reversed(list(zip("xyz", block, strict=True))):
            thread_point, thread_ivs[dim] = _nest(rw, thread_point, zero.result, size, one.result)
        # Earlier phases' thread variables (already in their clones' operands) are this
        # phase's.
        mapping: dict[SSAValue, SSAValue] = {
            old: thread_ivs[dim] for ivs in previous_ivs for dim, old in ivs.items()
        }
        previous_ivs.append(thread_ivs)
        for op in phase:
            for operand in _used_values(op):
                _clone_from_earlier(operand, earlier, mapping, rw, thread_point)
            op.detach()
            op.operands = [mapping.get(operand, operand) for operand in op.operands]
            _remap_nested(op, mapping)
            rw.insert_op(op, thread_point)
        for op in phase:
            for result in op.results:
                earlier[result] = op
        for op in [o for o in _walk_point(thread_point)]:
            if isinstance(op, ThreadIdOp):
                op.results[0].replace_all_uses_with(thread_ivs[op.dim])
                op.detach()
                op.erase()
            elif isinstance(op, BlockIdOp):
                op.results[0].replace_all_uses_with(block_ivs[op.dim])
                op.detach()
                op.erase()
            elif isinstance(op, GridDimOp | BlockDimOp):
                sizes = grid if isinstance(op, GridDimOp) else block
                op.results[0].replace_all_uses_with(sizes["xyz".index(op.dim)])
                op.detach()
                op.erase()
    for op in reversed(list(body.ops)):
        op.detach()
        op.erase(safe_erase=False)
    launch.detach()
    launch.erase()


def _nest(
    rw: Rewriter, point: InsertPoint, lower: SSAValue, upper: SSAValue, step: SSAValue
) -> tuple[InsertPoint, SSAValue]:
    """An `scf.for` at `point`; the point inside it and its variable."""
    loop, iv = _loop(lower, upper, step)
    rw.insert_op(loop, point)
    yield_op = scf.YieldOp()
    loop.body.block.add_op(yield_op)
    return InsertPoint.before(yield_op), iv


def _used_values(op: Operation) -> list[SSAValue]:
    """The values `op` and its regions use."""
    return [operand for inner in op.walk() for operand in inner.operands]


def _clone_from_earlier(
    value: SSAValue,
    earlier: dict[SSAValue, Operation],
    mapping: dict[SSAValue, SSAValue],
    rw: Rewriter,
    point: InsertPoint,
) -> None:
    """Clone into this phase the side-effect-free ops of earlier phases that compute
    `value` (a value an earlier phase loaded or wrote cannot be recomputed: refused)."""
    if value in mapping or value not in earlier:
        return
    op = earlier[value]
    if op.regions or not (is_side_effect_free(op) or isinstance(op, _PURE)):
        raise NotEmulable(f"'{op.name}' result used across a barrier")
    for operand in op.operands:
        _clone_from_earlier(operand, earlier, mapping, rw, point)
    clone = op.clone(value_mapper=dict(mapping))
    rw.insert_op(clone, point)
    for old, new in zip(op.results, clone.results, strict=True):
        mapping[old] = new


def _remap_nested(op: Operation, mapping: dict[SSAValue, SSAValue]) -> None:
    for inner in op.walk():
        if inner is op:
            continue
        inner.operands = [mapping.get(v, v) for v in inner.operands]


def _walk_point(point: InsertPoint) -> list[Operation]:
    return [op for top in point.block.ops for op in top.walk()]


def scheduled_module(
    payload: str, schedule: str | Path, knobs: Mapping[str, KnobValue] | None = None
) -> ModuleOp:
    """The payload after the schedule, as the cuda target's `scheduled` stage has it (not
    printed and parsed again)."""
    c = Compilation(
        get_context(),
        CompileOptions(target="cuda"),
        payload=payload,
        schedule=Schedule(Path(schedule), knobs=knobs),
    )
    run_stages(c, [PAYLOAD, SCHEDULED])
    return c.ir


def launches_to_loops(module: ModuleOp) -> ModuleOp:
    """`module` (changed in place) with every `gpu.launch` run as loops on the host."""
    launches = [op for op in module.walk() if isinstance(op, LaunchOp)]
    if not launches:
        raise NotEmulable("no gpu.launch")
    for launch in launches:
        _emulate(launch)
    module.verify()
    return module


__all__ = ["NotEmulable", "launches_to_loops", "scheduled_module"]
