"""Run a scheduled GPU program on the CPU, for kernels whose threads never wait for each
other: every `gpu.launch` becomes a loop nest over its blocks and threads (z, y, x, one
thread after the other), the ids and dims become the loop variables and the launch sizes,
and the result compiles for the CPU without a schedule. Sequential execution is a valid
schedule of a kernel without barriers, shuffles or cross-thread reductions; barriers,
`gpu.all_reduce` and `gpu.subgroup_reduce` at the kernel's top level split it into phases
(a shuffle, or a collective inside control flow, is refused), so a wrong index, a missed tile or a lost partial shows up as a numeric mismatch
without a GPU."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from xdsl.dialects import arith, scf
from xdsl.dialects import memref as xmemref
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerAttr, ModuleOp, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from schedir.dialects import get_context
from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.dialects.gpu import (
    AllReduceOp,
    AllReduceOperation,
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
from schedir.dialects.syntax import verify_module
from schedir.options import CompileOptions
from schedir.pipeline import PAYLOAD, SCHEDULED, Compilation, Schedule, run_stages
from schedir.transform.knobs import KnobValue
from schedir.transform.rewrites.gpu.forward_reads import repeatable_read
from schedir.transform.rewrites.gpu.mapping import WORKGROUP_BUFFER

_WAITING = (BarrierOp, ShuffleOp, SubgroupReduceOp, AllReduceOp)
"""Ops through which threads of a block see each other."""

_PURE = (ApplyOp, MinOp, MaxOp, xmemref.SubviewOp, xmemref.DimOp)
"""Side-effect-free ops xDSL does not mark so (index arithmetic, views)."""

_FLOAT = {
    AllReduceOperation.ADD: arith.AddfOp,
    AllReduceOperation.MUL: arith.MulfOp,
    AllReduceOperation.MINNUMF: arith.MinnumfOp,
    AllReduceOperation.MAXNUMF: arith.MaxnumfOp,
    AllReduceOperation.MINIMUMF: arith.MinimumfOp,
    AllReduceOperation.MAXIMUMF: arith.MaximumfOp,
}
_INTEGER = {
    AllReduceOperation.ADD: arith.AddiOp,
    AllReduceOperation.MUL: arith.MuliOp,
    AllReduceOperation.MINSI: arith.MinSIOp,
    AllReduceOperation.MINUI: arith.MinUIOp,
    AllReduceOperation.MAXSI: arith.MaxSIOp,
    AllReduceOperation.MAXUI: arith.MaxUIOp,
    AllReduceOperation.AND: arith.AndIOp,
    AllReduceOperation.OR: arith.OrIOp,
    AllReduceOperation.XOR: arith.XOrIOp,
}
"""The combining op of each named all-reduce, by element kind."""


class NotEmulable(Exception):
    """The kernel synchronizes its threads in a way the emulation does not model."""


def _loop(lower: SSAValue, upper: SSAValue, step: SSAValue) -> tuple[scf.ForOp, SSAValue]:
    body = Block(arg_types=[IndexType()])
    loop = scf.ForOp(lower, upper, step, [], Region(body))
    return loop, body.args[0]


def _constant(value: SSAValue) -> int:
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    raise NotEmulable("a block size that is not a constant")


def _check(launch: LaunchOp) -> None:
    body = launch.body.block
    for op in launch.walk():
        if not isinstance(op, _WAITING):
            continue
        if op.parent is not body:
            raise NotEmulable(f"'{op.name}' nested in the kernel's control flow")
        if isinstance(op, ShuffleOp):
            raise NotEmulable(f"'{op.name}' in a kernel")
        if isinstance(op, SubgroupReduceOp) and (
            op.stride != 1 or isinstance(op.value.type, VectorType)
        ):
            raise NotEmulable("'gpu.subgroup_reduce' with a stride or of a vector")
        if isinstance(op, AllReduceOp) and op.op is None:
            raise NotEmulable("'gpu.all_reduce' with a region")


def _emulate(launch: LaunchOp) -> None:
    """The launch as loops: blocks outermost; in each block, the body split into phases
    at its top-level barriers and all-reduces, each phase a loop over the threads (a later
    phase recomputes the index arithmetic it takes from an earlier one). Workgroup buffers
    are allocated once, before the loops (their contents do not outlive a block). An
    all-reduce stores every thread's value into a buffer of the block's size; the first
    thread of the next phase combines them in thread order and every thread reads the
    result. A subgroup reduction likewise, except that every thread of the next phase
    combines the values of its own cluster (`size` consecutive threads, a warp by default)
    in thread order into its own result slot."""
    _check(launch)
    body = launch.body.block
    repeatable = {op for op in body.walk() if repeatable_read(op, launch)}
    grid = (launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ)
    block = (launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ)
    extents = [_constant(v) for v in block]
    threads = extents[0] * extents[1] * extents[2]
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
    rw = Rewriter()
    point = InsertPoint.before(launch)
    zero = ConstantOp.from_int_and_width(0, IndexType())
    one = ConstantOp.from_int_and_width(1, IndexType())
    rw.insert_op([zero, one], point)
    # Workgroup buffers: allocated once, before the loops; their deallocations dropped.
    hoisted: set[SSAValue] = set()
    for op in list(body.ops):
        if isinstance(op, xmemref.AllocOp) and WORKGROUP_BUFFER in op.attributes:
            if op.operands:
                raise NotEmulable("a workgroup buffer of dynamic size")
            op.detach()
            rw.insert_op(op, point)
            hoisted.add(op.results[0])
    for op in list(launch.walk()):
        if isinstance(op, xmemref.DeallocOp) and op.operands[0] in hoisted:
            op.detach()
            op.erase()
    # The phases: the body split at its top-level barriers and all-reduces.
    phases: list[list[Operation]] = [[]]
    reductions: list[AllReduceOp | SubgroupReduceOp] = []
    for op in list(body.ops):
        if isinstance(op, BarrierOp):
            phases.append([])
        elif isinstance(op, AllReduceOp | SubgroupReduceOp):
            phases[-1].append(op)
            reductions.append(op)
            phases.append([])
        elif not isinstance(op, TerminatorOp):
            phases[-1].append(op)
    # Per all-reduce: the threads' values and the combined one.
    buffers: dict[AllReduceOp | SubgroupReduceOp, tuple[SSAValue, SSAValue]] = {}
    for reduction in reductions:
        element = reduction.value.type
        values = xmemref.AllocOp.get(element, shape=[threads])
        per_thread = isinstance(reduction, SubgroupReduceOp)
        result = xmemref.AllocOp.get(element, shape=[threads if per_thread else 1])
        rw.insert_op([values, result], point)
        buffers[reduction] = (values.results[0], result.results[0])
    block_ivs: dict[str, SSAValue] = {}
    for dim, size in reversed(list(zip("xyz", grid, strict=True))):
        point, block_ivs[dim] = _nest(rw, point, zero.result, size, one.result)
    earlier: dict[SSAValue, Operation] = {}
    reloads: dict[SSAValue, tuple[SSAValue, bool]] = {}
    previous_ivs: list[dict[str, SSAValue]] = []
    pending: AllReduceOp | SubgroupReduceOp | None = None
    for phase in phases:
        thread_point = point
        thread_ivs: dict[str, SSAValue] = {}
        for dim, size in reversed(list(zip("xyz", block, strict=True))):
            thread_point, thread_ivs[dim] = _nest(rw, thread_point, zero.result, size, one.result)
        linear = _linear(rw, thread_point, thread_ivs, extents)
        if pending is not None:
            _combine(rw, thread_point, pending, buffers[pending], linear, threads, zero, one)
            pending = None
        # Earlier phases' thread variables (already in their clones' operands) are this
        # phase's; all-reduce results are read back from their buffers.
        mapping: dict[SSAValue, SSAValue] = {
            old: thread_ivs[dim] for ivs in previous_ivs for dim, old in ivs.items()
        }
        previous_ivs.append(thread_ivs)
        for op in phase:
            for operand in _used_values(op):
                _clone_from_earlier(
                    operand, earlier, reloads, mapping, rw, thread_point, repeatable, linear
                )
            op.detach()
            op.operands = [mapping.get(operand, operand) for operand in op.operands]
            _remap_nested(op, mapping)
            if isinstance(op, AllReduceOp | SubgroupReduceOp):
                values, result = buffers[op]
                rw.insert_op(xmemref.StoreOp.get(op.operands[0], values, [linear]), thread_point)
                reloads[op.results[0]] = (result, isinstance(op, SubgroupReduceOp))
                pending = op
                continue
            rw.insert_op(op, thread_point)
        for op in phase:
            for result in op.results:
                earlier[result] = op
        for op in _walk_point(thread_point):
            _replace_id(op, thread_ivs, block_ivs, grid, block)
    for op in reversed(list(body.ops)):
        op.detach()
        op.erase(safe_erase=False)
    launch.detach()
    launch.erase()


def _replace_id(
    op: Operation,
    thread_ivs: dict[str, SSAValue],
    block_ivs: dict[str, SSAValue],
    grid: tuple[SSAValue, ...],
    block: tuple[SSAValue, ...],
) -> None:
    replacement: SSAValue | None = None
    if isinstance(op, ThreadIdOp):
        replacement = thread_ivs[op.dim]
    elif isinstance(op, BlockIdOp):
        replacement = block_ivs[op.dim]
    elif isinstance(op, GridDimOp):
        replacement = grid["xyz".index(op.dim)]
    elif isinstance(op, BlockDimOp):
        replacement = block["xyz".index(op.dim)]
    if replacement is not None:
        op.results[0].replace_all_uses_with(replacement)
        op.detach()
        op.erase()


def _linear(
    rw: Rewriter, point: InsertPoint, ivs: dict[str, SSAValue], extents: list[int]
) -> SSAValue:
    """x + y * X + z * X * Y of the thread variables."""
    x = ConstantOp.from_int_and_width(extents[0], IndexType())
    xy = ConstantOp.from_int_and_width(extents[0] * extents[1], IndexType())
    ym = arith.MuliOp(ivs["y"], x.result)
    zm = arith.MuliOp(ivs["z"], xy.result)
    s1 = arith.AddiOp(ivs["x"], ym.result)
    s2 = arith.AddiOp(s1.result, zm.result)
    rw.insert_op([x, xy, ym, zm, s1, s2], point)
    return s2.result


def _combine(
    rw: Rewriter,
    point: InsertPoint,
    reduction: AllReduceOp | SubgroupReduceOp,
    buffers: tuple[SSAValue, SSAValue],
    linear: SSAValue,
    threads: int,
    zero: ConstantOp,
    one: ConstantOp,
) -> None:
    """In the first thread: the values combined in thread order, into the result buffer
    (a subgroup reduction: in every thread, its cluster's values, into its slot)."""
    values, result = buffers
    element = reduction.value.type
    assert reduction.op is not None
    operation = reduction.op.data
    table = _FLOAT if isinstance(element, AnyFloat) else _INTEGER
    if isinstance(reduction, SubgroupReduceOp):
        size = reduction.size or 32
        width = ConstantOp.from_int_and_width(size, IndexType())
        group = arith.DivUIOp(linear, width.result)
        base = arith.MuliOp(group.result, width.result)
        end = arith.AddiOp(base.result, width.result)
        start = arith.AddiOp(base.result, one.result)
        init = xmemref.LoadOp.get(values, [base.result])
        rw.insert_op([width, group, base, end, start, init], point)
        body = Block(arg_types=[IndexType(), element])
        loop = scf.ForOp(start.result, end.result, one.result, [init.res], Region(body))
        load = xmemref.LoadOp.get(values, [body.args[0]])
        combined = table[operation](body.args[1], load.res)
        body.add_ops([load, combined, scf.YieldOp(combined.results[0])])
        rw.insert_op([loop, xmemref.StoreOp.get(loop.results[0], result, [linear])], point)
        return
    first = arith.CmpiOp(linear, zero.result, "eq")
    rw.insert_op(first, point)
    then = Block()
    if_op = scf.IfOp(first.result, [], Region(then))
    rw.insert_op(if_op, point)
    init = xmemref.LoadOp.get(values, [zero.result])
    count = ConstantOp.from_int_and_width(threads, IndexType())
    then.add_ops([init, count])
    body = Block(arg_types=[IndexType(), element])
    loop = scf.ForOp(one.result, count.result, one.result, [init.res], Region(body))
    load = xmemref.LoadOp.get(values, [body.args[0]])
    combined = table[operation](body.args[1], load.res)
    body.add_ops([load, combined, scf.YieldOp(combined.results[0])])
    store = xmemref.StoreOp.get(loop.results[0], result, [zero.result])
    then.add_ops([loop, store, scf.YieldOp()])


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
    reloads: dict[SSAValue, tuple[SSAValue, bool]],
    mapping: dict[SSAValue, SSAValue],
    rw: Rewriter,
    point: InsertPoint,
    repeatable: set[Operation],
    linear: SSAValue,
) -> None:
    """Make `value` of an earlier phase available in this one: an all-reduce result is
    loaded from its buffer, side-effect-free ops are cloned (a value an earlier phase
    wrote cannot be recomputed: refused; a read of memory the kernel never writes, or writes
    only before a barrier that precedes the read, is repeated, as
    `transform.schedir.gpu.forward_reads` assumes)."""
    if value in mapping:
        return
    if value in reloads:
        buffer, per_thread = reloads[value]
        zero = ConstantOp.from_int_and_width(0, IndexType())
        load = xmemref.LoadOp.get(buffer, [linear if per_thread else zero.result])
        rw.insert_op([zero, load], point)
        mapping[value] = load.res
        # An op moved into this phase takes the load as its operand: a later phase that
        # clones the op reads the buffer again.
        reloads[load.res] = reloads[value]
        return
    if value not in earlier:
        return
    op = earlier[value]
    if op.regions or not (is_side_effect_free(op) or isinstance(op, _PURE) or op in repeatable):
        raise NotEmulable(f"'{op.name}' result used across a barrier")
    for operand in op.operands:
        _clone_from_earlier(operand, earlier, reloads, mapping, rw, point, repeatable, linear)
    clone = op.clone(value_mapper=dict(mapping))
    rw.insert_op(clone, point)
    if op in repeatable:
        repeatable.add(clone)  # a later phase may repeat the repetition
    for old, new in zip(op.results, clone.results, strict=True):
        mapping[old] = new
        # Ops moved into this phase take the clone as their operand: a later phase that
        # clones them clones it again.
        earlier[new] = clone


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
    verify_module(module)
    return module


__all__ = ["NotEmulable", "launches_to_loops", "scheduled_module"]
