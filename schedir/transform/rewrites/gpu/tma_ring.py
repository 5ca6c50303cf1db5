"""Pipelining a wgmma k loop fed by TMA into a ring of `stages` shared-memory buffers
(schedir's extension; upstream's `pipeline_shared_memory_copies` pipelines cp.async
copies, not TMA loads on mbarriers).

The target is the `nvgpu.warpgroup.mma` that `rewrite_matmul_as_wgmma` made in an
`scf.for` of a `gpu.launch`, over tiles that `rewrite_copy_as_tma` loads at the top of
each iteration (thread 0 issues the loads and arms one mbarrier, every thread waits on the
iteration's parity, the MMAs wait for themselves). With S stages:

* each tile becomes a ring of S buffers in the block's dynamic shared memory
  (`gpu.dynamic_shared_memory`, one `memref.view` of S tiles per operand, the launch's
  `dynamic_shared_memory_size` their bytes: a ring exceeds the 48 KiB of static shared
  memory); stage s is a `memref.reinterpret_cast` at s tiles from the ring's start,
  chunk views at their offsets within;
* the barrier group has 2S barriers: `full[s]` (barrier s, one arrival: the producer's
  `arrive.expect_tx`, then the TMA bytes) and `empty[s]` (barrier S + s, one arrival per
  thread of the block when the MMAs that read stage s have retired), initialized by
  thread 0 before a block barrier;
* before the loop thread 0 loads the first S - 1 steps (each only if the loop has it);
* iteration i (stage s = i mod S, round r = i / S) waits on `full[s]` with parity r mod 2,
  runs the MMAs on stage s with one wgmma group left in flight (`waitGroup = 1`: the MMAs
  of step i - 1 have retired after it), arrives on `empty[(i - 1) mod S]` (i > 0), and
  thread 0 loads step j = i + S - 1 (if the loop has it) into stage j mod S, first waiting
  on that stage's `empty` barrier for the round before (j >= S) so that no MMA still reads
  what the TMA overwrites.

    %acc = scf.for %k = %lb to %ub step %st iter_args(%a = %acc0) {
      gpu.barrier
      scf.if %tid0 { tma loads of step %k into %sa, %sb; expect_tx %bar[0] } else { ... }
      nvgpu.mbarrier.try_wait.parity %bar[%c0], %parity, %ticks
      %d = nvgpu.warpgroup.mma (descriptors of %sa, %sb), %a {waitGroup = 0}
      scf.yield %d
    }
    // -> (S = 3)
    scf.if %tid0 { init full[0..2] (1), empty[0..2] (threads) }; gpu.barrier
    scf.if %tid0 { loads of steps 0 and 1 into stages 0 and 1 (if the loop has them) }
    %acc = scf.for %k = %lb to %ub step %st iter_args(%a = %acc0) {
      nvgpu.mbarrier.try_wait.parity %bars[%s], %round_parity, %ticks
      %d = nvgpu.warpgroup.mma (descriptors of stage %s), %a {waitGroup = 1}
      scf.if %i_gt_0 { nvgpu.mbarrier.arrive %bars[3 + (i + 2) mod 3] }
      scf.if %tid0_and_step_i+2_exists { wait empty (i >= 1); expect_tx; loads into stage (i + 2) mod 3 }
      scf.yield %d
    }

The accumulators after the loop are read by `warpgroup.mma.store`, which waits for every
wgmma group first. The buffers are S times the tiles' shared memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, StridedLayoutAttr, i8, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu
from schedir.dialects import nvgpu as ng
from schedir.dialects.arith import CmpiOp
from schedir.dialects.gpu.attributes import AddressSpaceAttr
from schedir.dialects.nvgpu.types import element_bit_width
from schedir.dialects.scf.forall import ForallOp
from schedir.dialects.utils import DYNAMIC_INDEX
from schedir.transform.rewrites.gpu.tma import TRY_WAIT_TICKS, enclosing_launch
from schedir.transform.rewrites.rewriter import PayloadRewriteError, emit, emit_index

SWIZZLE_ALIGNMENT = 1024
"""Bytes each ring is aligned to in shared memory (128B-swizzled TMA boxes need it)."""

MAX_STAGES = 8
"""Most stages of a ring (Hopper's 227 KiB of shared memory hold at most a few tiles)."""
MAX_RING_BYTES = 227 * 1024 - 2 * SWIZZLE_ALIGNMENT
"""Dynamic shared memory the rings may take: a block's 227 KiB on sm_90, less room for
the barriers and the rings' alignment."""


class RingRewriteError(PayloadRewriteError):
    """A loop that cannot become a TMA ring, with the reason and the op to blame."""


@dataclass(frozen=True)
class TmaRing:
    """What the rewrite made: the pipelined loop and its MMA."""

    loop: scf.ForOp
    mma: ng.WarpgroupMmaOp


@dataclass(frozen=True)
class _Tile:
    """One operand tile of the MMA: the old buffer, its ring and its elements per stage."""

    old: SSAValue
    ring: SSAValue
    type: MemRefType
    elements: int


@dataclass(frozen=True)
class _Parts:
    """The pieces of the single-stage loop the rewrite reads or replaces."""

    loop: scf.ForOp
    producer: scf.IfOp
    loads: tuple[ng.TmaAsyncLoadOp, ...]
    tx: SSAValue
    wait: ng.MBarrierTryWaitParityOp
    barrier: ng.MBarrierCreateOp
    init: ng.MBarrierInitOp
    gen_a: ng.WarpgroupGenerateDescriptorOp
    gen_b: ng.WarpgroupGenerateDescriptorOp


def _tile_of(load: ng.TmaAsyncLoadOp) -> tuple[SSAValue, int]:
    """The tile a load writes and the offset (elements) of its chunk in the tile."""
    view = load.dst.owner
    if isinstance(view, memref.ReinterpretCastOp):
        offsets = view.static_offsets.get_values()
        return view.source, int(offsets[0])
    return load.dst, 0


def _in_no_loop(op: Operation) -> bool:
    """True when no loop between `op` and its gpu.launch (or function) repeats it."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, gpu.LaunchOp):
        if isinstance(parent, (scf.ForOp, scf.WhileOp, scf.ParallelOp, ForallOp)):
            return False
        parent = parent.parent_op()
    return True


def _find_parts(mma: Operation) -> _Parts:
    if not isinstance(mma, ng.WarpgroupMmaOp):
        raise RingRewriteError("target is not an nvgpu.warpgroup.mma", mma)
    loop = mma.parent_op()
    if not isinstance(loop, scf.ForOp) or mma.parent_block() is not loop.body.block:
        raise RingRewriteError("the MMA is not in the body of an scf.for", mma)
    if mma.wait_group != 0:
        raise RingRewriteError(
            f"the MMA leaves {mma.wait_group} groups in flight (expected the single-stage "
            "loop of rewrite_matmul_as_wgmma: waitGroup = 0)",
            mma,
        )
    body = loop.body.block
    yield_op = body.last_op
    if (
        not isinstance(yield_op, scf.YieldOp)
        or len(loop.iter_args) != 1
        or yield_op.operands[0] is not mma.matrix_d
        or mma.matrix_c is not body.args[1]
    ):
        raise RingRewriteError(
            "the loop must carry exactly the MMA's accumulator (rewrite_matmul_as_wgmma)", mma
        )
    gen_a, gen_b = mma.descriptor_a.owner, mma.descriptor_b.owner
    if not isinstance(gen_a, ng.WarpgroupGenerateDescriptorOp) or not isinstance(
        gen_b, ng.WarpgroupGenerateDescriptorOp
    ):
        raise RingRewriteError("the MMA's descriptors are not generated in the loop", mma)
    producers = [
        op
        for op in body.ops
        if isinstance(op, scf.IfOp) and any(isinstance(o, ng.TmaAsyncLoadOp) for o in op.walk())
    ]
    waits = [op for op in body.ops if isinstance(op, ng.MBarrierTryWaitParityOp)]
    if len(producers) != 1 or len(waits) != 1:
        raise RingRewriteError(
            "the loop must load its tiles with TMA in one scf.if and wait once "
            "(transform.nvgpu.rewrite_copy_as_tma)",
            mma,
        )
    producer, wait = producers[0], waits[0]
    then_ops = list(producer.true_region.block.ops)
    loads = tuple(op for op in then_ops if isinstance(op, ng.TmaAsyncLoadOp))
    arms = [op for op in then_ops if isinstance(op, ng.MBarrierArriveExpectTxOp)]
    if len(arms) != 1:
        raise RingRewriteError("the TMA loads are not armed by one arrive.expect_tx", mma)
    tiles = {gen_a.tensor, gen_b.tensor}
    for load in loads:
        if _tile_of(load)[0] not in tiles:
            raise RingRewriteError("a TMA load of the loop writes no operand of the MMA", load)
        if load.barriers is not wait.barriers:
            raise RingRewriteError("the TMA loads complete on another barrier", load)
    for tile in tiles:
        if not any(_tile_of(load)[0] is tile for load in loads):
            raise RingRewriteError("an operand of the MMA is not loaded in the loop", mma)
    barrier = wait.barriers.owner
    if not isinstance(barrier, ng.MBarrierCreateOp):
        raise RingRewriteError("the loop waits on a barrier group not created here", wait)
    inits = [
        u.operation for u in barrier.barriers.uses if isinstance(u.operation, ng.MBarrierInitOp)
    ]
    others = [
        u.operation
        for u in barrier.barriers.uses
        if not isinstance(u.operation, ng.MBarrierInitOp) and not loop.is_ancestor(u.operation)
    ]
    if len(inits) != 1 or others:
        raise RingRewriteError("the loop's barrier is used outside the loop", wait)
    return _Parts(loop, producer, loads, arms[0].txcount, wait, barrier, inits[0], gen_a, gen_b)


def _memref(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, MemRefType)
    return t


def _element_bytes(value: SSAValue) -> int:
    return (element_bit_width(_memref(value).element_type) or 0) // 8


def _materialize(
    rewriter: PatternRewriter,
    value: SSAValue,
    loop: scf.ForOp,
    mapping: dict[SSAValue, SSAValue],
    at: InsertPoint,
) -> SSAValue:
    """`value` computed for another iteration: the ops of the loop body it depends on,
    cloned with the induction variable mapped as in `mapping`."""
    if value in mapping:
        return mapping[value]
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        if parent is not None and loop.is_ancestor(parent):
            raise RingRewriteError("a load coordinate depends on a value of the loop", loop)
        return value
    if not loop.is_ancestor(owner):
        return value
    if owner.regions:
        raise RingRewriteError(f"a load coordinate is computed by '{owner.name}'", owner)
    operands = [_materialize(rewriter, v, loop, mapping, at) for v in owner.operands]
    clone = owner.clone()
    for i, v in enumerate(operands):
        clone.operands[i] = v
    rewriter.insert(clone, at)
    for old, new in zip(owner.results, clone.results, strict=True):
        mapping[old] = new
    return mapping[value]


def _load_step(
    rewriter: PatternRewriter,
    parts: _Parts,
    tiles: dict[SSAValue, _Tile],
    bars: SSAValue,
    k: SSAValue,
    stage: SSAValue,
    at: InsertPoint,
) -> None:
    """Thread 0's loads of the step at induction value `k` into `stage`, armed on
    `full[stage]`."""
    mapping: dict[SSAValue, SSAValue] = {parts.loop.body.block.args[0]: k}
    for load in parts.loads:
        tile_value, chunk = _tile_of(load)
        tile = tiles[tile_value]
        box = tuple(load.dst.type.get_shape()) if isinstance(load.dst.type, MemRefType) else ()
        start = emit(rewriter, at, arith.MuliOp(stage, emit_index(rewriter, at, tile.elements)))
        if chunk:
            start = emit(rewriter, at, arith.AddiOp(start, emit_index(rewriter, at, chunk)))
        strides = [prod(box[i + 1 :]) for i in range(len(box))]
        view_t = MemRefType(
            tile.type.element_type,
            box,
            StridedLayoutAttr(strides, None),
            tile.type.memory_space,
        )
        view = memref.ReinterpretCastOp(
            tile.ring, [start], [], [], [DYNAMIC_INDEX], list(box), strides, view_t
        )
        rewriter.insert(view, at)
        coordinates = [_materialize(rewriter, c, parts.loop, mapping, at) for c in load.coordinates]
        rewriter.insert(
            ng.TmaAsyncLoadOp(view.result, bars, load.tensor_map_descriptor, coordinates, stage),
            at,
        )
    tx = _materialize(rewriter, parts.tx, parts.loop, mapping, at)
    rewriter.insert(ng.MBarrierArriveExpectTxOp(bars, tx, stage), at)


def _if(rewriter: PatternRewriter, cond: SSAValue, at: InsertPoint) -> InsertPoint:
    """An `scf.if` without results at `at`; the insertion point at the end of its then
    block (before the yield)."""
    block = Block()
    yield_op = scf.YieldOp()
    block.add_op(yield_op)
    rewriter.insert(scf.IfOp(cond, [], Region(block)), at)
    return InsertPoint.before(yield_op)


def _stage_view(
    rewriter: PatternRewriter, tile: _Tile, stage: SSAValue, at: InsertPoint
) -> SSAValue:
    """Stage `stage` of a ring as a tile (row-major at a dynamic offset)."""
    shape = tile.type.get_shape()
    strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
    start = emit(rewriter, at, arith.MuliOp(stage, emit_index(rewriter, at, tile.elements)))
    view_t = MemRefType(
        tile.type.element_type, shape, StridedLayoutAttr(strides, None), tile.type.memory_space
    )
    view = memref.ReinterpretCastOp(
        tile.ring, [start], [], [], [DYNAMIC_INDEX], list(shape), strides, view_t
    )
    rewriter.insert(view, at)
    return view.result


def _erase_dead_chain(rewriter: PatternRewriter, value: SSAValue) -> None:
    """Erase the op defining `value` and the views/allocation below it once unused (an
    allocation's deallocations go with it)."""
    owner = value.owner
    while isinstance(owner, Operation):
        if isinstance(owner, memref.AllocOp):
            deallocs = [u.operation for u in owner.memref.uses]
            if all(isinstance(d, memref.DeallocOp) for d in deallocs):
                for dealloc in deallocs:
                    rewriter.erase(dealloc)
        if any(r.uses for r in owner.results):
            return
        if owner.regions:
            return
        sources = list(owner.operands)
        rewriter.erase(owner)
        if len(sources) != 1 and not isinstance(owner, (memref.ViewOp, memref.SubviewOp)):
            return
        owner = sources[0].owner if sources else None


def _outside_tiles(parts: _Parts) -> list[SSAValue]:
    """The tiles allocated outside the loop (erased after it; those inside go with it)."""
    return [
        gen.tensor
        for gen in (parts.gen_a, parts.gen_b)
        if not (
            isinstance(gen.tensor.owner, Operation) and parts.loop.is_ancestor(gen.tensor.owner)
        )
    ]


def _check_launch(launch: gpu.LaunchOp, loop: Operation) -> None:
    if (
        launch.dynamicSharedMemorySize is not None
        or launch.asyncDependencies
        or (launch.has_clusters or launch.asyncObject is not None or launch.asyncToken is not None)
    ):
        raise RingRewriteError(
            "the gpu.launch already has dynamic shared memory, clusters or is asynchronous "
            "(the ring takes the block's dynamic shared memory)",
            loop,
        )


def _ring_bytes(parts: _Parts, stages: int) -> list[int]:
    return [
        stages * prod(_memref(gen.tensor).get_shape()) * _element_bytes(gen.tensor)
        for gen in (parts.gen_a, parts.gen_b)
    ]


def _check_ring_bytes(parts: _Parts, stages: int, loop: scf.ForOp) -> None:
    total = sum(_ring_bytes(parts, stages))
    if total > MAX_RING_BYTES:
        raise RingRewriteError(
            f"{stages} stages take {total} bytes of shared memory (at most {MAX_RING_BYTES})",
            loop,
        )


def _rings(
    rewriter: PatternRewriter, launch: gpu.LaunchOp, parts: _Parts, stages: int
) -> tuple[dict[SSAValue, _Tile], arith.ConstantOp]:
    """The rings: views of the block's dynamic shared memory, one after the other (each a
    multiple of 1024 bytes: what 128B-swizzled boxes are aligned to); and the constant of
    their bytes, before the launch."""
    start = InsertPoint.at_start(launch.body.block)
    dynamic = gpu.DynamicSharedMemoryOp(
        MemRefType(i8, [DYNAMIC_INDEX], memory_space=AddressSpaceAttr.workgroup())
    )
    rewriter.insert(dynamic, start)
    tiles: dict[SSAValue, _Tile] = {}
    offset = 0
    for gen, size in zip((parts.gen_a, parts.gen_b), _ring_bytes(parts, stages), strict=True):
        t = _memref(gen.tensor)
        elements = prod(t.get_shape())
        ring_t = MemRefType(
            t.element_type, [stages * elements], memory_space=AddressSpaceAttr.workgroup()
        )
        view = memref.ViewOp(dynamic.resultMemref, emit_index(rewriter, start, offset), [], ring_t)
        rewriter.insert(view, start)
        tiles[gen.tensor] = _Tile(gen.tensor, view.result, t, elements)
        offset += -(-size // SWIZZLE_ALIGNMENT) * SWIZZLE_ALIGNMENT
    size_op = arith.ConstantOp(IntegerAttr(offset, i32))
    rewriter.insert(size_op, InsertPoint.before(launch))
    return tiles, size_op


def _barriers(
    rewriter: PatternRewriter,
    parts: _Parts,
    stages: int,
    empty_count: SSAValue,
    turns: int = 0,
    turn_count: SSAValue | None = None,
) -> tuple[SSAValue, SSAValue]:
    """The barrier group: full[s] = s (one arrival), empty[s] = stages + s (`empty_count`
    arrivals), then `turns` more (`turn_count` arrivals each) at 2 * stages.., set up by
    thread 0 before a block barrier; the group and the `thread 0` condition. (The old
    barrier's block barrier goes with it: the new setup has its own.)"""
    at = InsertPoint.before(parts.barrier)
    group = ng.MBarrierGroupType(AddressSpaceAttr.workgroup(), 2 * stages + turns)
    create = ng.MBarrierCreateOp(group)
    rewriter.insert(create, at)
    bars = create.barriers
    at = InsertPoint.after(parts.init)
    zero = emit_index(rewriter, at, 0)
    one = emit_index(rewriter, at, 1)
    tid = emit(rewriter, at, gpu.ThreadIdOp("x"))
    leader = emit(rewriter, at, CmpiOp(tid, zero, "eq"))
    inside = _if(rewriter, leader, at)
    for s in range(stages):
        rewriter.insert(ng.MBarrierInitOp(bars, one, emit_index(rewriter, inside, s)), inside)
        rewriter.insert(
            ng.MBarrierInitOp(bars, empty_count, emit_index(rewriter, inside, stages + s)), inside
        )
    for t in range(turns):
        assert turn_count is not None
        turn = emit_index(rewriter, inside, 2 * stages + t)
        rewriter.insert(ng.MBarrierInitOp(bars, turn_count, turn), inside)
    rewriter.insert(gpu.BarrierOp(), at)
    return bars, leader


def _relaunch(
    rewriter: PatternRewriter,
    launch: gpu.LaunchOp,
    size_op: arith.ConstantOp,
    block_x: SSAValue | None = None,
) -> gpu.LaunchOp:
    """The launch again, reserving the rings' dynamic shared memory (and with `block_x`
    threads along x if given)."""
    sizes = [launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ]
    block_sizes = [block_x or launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ]
    new_launch = gpu.LaunchOp(
        sizes, block_sizes, launch.detach_region(launch.body), dynamic_shared_memory_size=size_op
    )
    for name in ("workgroup_attributions", "module", "function"):
        if name in launch.properties:
            new_launch.properties[name] = launch.properties[name]
    new_launch.attributes.update(launch.attributes)
    rewriter.replace(launch, new_launch)
    return new_launch


def _erase_single_stage(
    rewriter: PatternRewriter, parts: _Parts, old_sync: Operation | None, outside: list[SSAValue]
) -> None:
    """Erase the single-stage barrier, its block barrier and the tiles outside the loop."""
    if isinstance(old_sync, gpu.BarrierOp):
        rewriter.erase(old_sync)
    rewriter.erase(parts.init)
    rewriter.erase(parts.barrier)
    for tile in outside:
        _erase_dead_chain(rewriter, tile)


def pipeline_tma_ring(rewriter: PatternRewriter, mma: Operation, stages: int) -> TmaRing | None:
    """Pipeline the single-stage TMA + wgmma loop of `mma` into a ring of `stages` buffers
    (see the module docstring); raises `RingRewriteError` before changing anything when it
    does not qualify. One stage leaves the loop as it is. None: the MMA runs once, in no
    loop (a K of one step, whose loop canonicalization folded away): nothing to overlap."""
    if not 1 <= stages <= MAX_STAGES:
        raise RingRewriteError(f"stages must be in 1..{MAX_STAGES}, got {stages}", mma)
    if isinstance(mma, ng.WarpgroupMmaOp) and _in_no_loop(mma):
        return None
    parts = _find_parts(mma)
    assert isinstance(mma, ng.WarpgroupMmaOp)
    if stages == 1:
        return TmaRing(parts.loop, mma)
    loop = parts.loop
    launch = enclosing_launch(loop)
    if launch is None:
        raise RingRewriteError("the loop is not inside a gpu.launch", loop)
    threads = parts.init.count
    if isinstance(threads.owner, Operation) and loop.is_ancestor(threads.owner):
        raise RingRewriteError("the barrier's thread count is computed in the loop", loop)

    outside = _outside_tiles(parts)
    _check_launch(launch, loop)
    _check_ring_bytes(parts, stages, loop)
    tiles, size_op = _rings(rewriter, launch, parts, stages)
    old_sync = parts.init.next_op
    bars, leader = _barriers(rewriter, parts, stages, threads)

    # 3. Prologue: thread 0 loads steps 0 .. stages - 2 (those the loop has).
    at = InsertPoint.before(loop)
    prologue = _if(rewriter, leader, at)
    for j in range(stages - 1):
        offset = emit(
            rewriter, prologue, arith.MuliOp(emit_index(rewriter, prologue, j), loop.step)
        )
        k = emit(rewriter, prologue, arith.AddiOp(loop.lb, offset))
        exists = emit(rewriter, prologue, CmpiOp(k, loop.ub, "slt"))
        step_at = _if(rewriter, exists, prologue)
        _load_step(rewriter, parts, tiles, bars, k, emit_index(rewriter, step_at, j), step_at)

    # 4. The pipelined loop.
    acc_t = mma.matrix_c.type
    body = Block(arg_types=[IndexType(), acc_t])
    iv, acc = body.args
    yield_op = scf.YieldOp()
    body.add_op(yield_op)
    at = InsertPoint.before(yield_op)
    n_stages = emit_index(rewriter, at, stages)
    distance = emit(rewriter, at, arith.SubiOp(iv, loop.lb))
    i = emit(rewriter, at, arith.DivUIOp(distance, loop.step))
    stage = emit(rewriter, at, arith.RemUIOp(i, n_stages))
    round_ = emit(rewriter, at, arith.DivUIOp(i, n_stages))
    c1 = emit_index(rewriter, at, 1)
    c0 = emit_index(rewriter, at, 0)
    parity = emit(rewriter, at, CmpiOp(emit(rewriter, at, arith.AndIOp(round_, c1)), c0, "ne"))
    ticks = emit_index(rewriter, at, TRY_WAIT_TICKS)
    rewriter.insert(ng.MBarrierTryWaitParityOp(bars, parity, ticks, stage), at)
    gens: list[SSAValue] = []
    for gen in (parts.gen_a, parts.gen_b):
        view = _stage_view(rewriter, tiles[gen.tensor], stage, at)
        desc_t = gen.descriptor.type
        assert isinstance(desc_t, ng.WarpgroupMatrixDescriptorType)
        new_gen = ng.WarpgroupGenerateDescriptorOp(view, gen.tensor_map, desc_t)
        rewriter.insert(new_gen, at)
        gens.append(new_gen.descriptor)
    new_mma = ng.WarpgroupMmaOp(gens[0], gens[1], acc, wait_group=1)
    rewriter.insert(new_mma, at)
    # The MMAs of step i - 1 have retired: release their stage.
    previous = emit(
        rewriter,
        at,
        arith.RemUIOp(
            emit(rewriter, at, arith.AddiOp(i, emit_index(rewriter, at, stages - 1))), n_stages
        ),
    )
    not_first = emit(rewriter, at, CmpiOp(i, c0, "ne"))
    release = _if(rewriter, not_first, at)
    empty = emit(rewriter, release, arith.AddiOp(previous, n_stages))
    rewriter.insert(ng.MBarrierArriveOp(bars, empty), release)
    # Thread 0 loads step i + stages - 1 into the stage just released.
    ahead = emit(rewriter, at, arith.MuliOp(emit_index(rewriter, at, stages - 1), loop.step))
    k_next = emit(rewriter, at, arith.AddiOp(iv, ahead))
    exists = emit(rewriter, at, CmpiOp(k_next, loop.ub, "slt"))
    tid_in = emit(rewriter, at, gpu.ThreadIdOp("x"))
    leader_in = emit(rewriter, at, CmpiOp(tid_in, c0, "eq"))
    produce = _if(rewriter, emit(rewriter, at, arith.AndIOp(leader_in, exists)), at)
    wait_at = _if(rewriter, not_first, produce)
    # Step j = i + stages - 1 >= stages reuses stage j mod stages of round j / stages - 1.
    j = emit(rewriter, wait_at, arith.AddiOp(i, emit_index(rewriter, wait_at, stages - 1)))
    prior_round = emit(
        rewriter,
        wait_at,
        arith.SubiOp(emit(rewriter, wait_at, arith.DivUIOp(j, n_stages)), c1),
    )
    prior_parity = emit(
        rewriter,
        wait_at,
        CmpiOp(emit(rewriter, wait_at, arith.AndIOp(prior_round, c1)), c0, "ne"),
    )
    empty_wait = emit(rewriter, wait_at, arith.AddiOp(previous, n_stages))
    rewriter.insert(ng.MBarrierTryWaitParityOp(bars, prior_parity, ticks, empty_wait), wait_at)
    _load_step(rewriter, parts, tiles, bars, k_next, previous, produce)
    rewriter.replace(yield_op, scf.YieldOp(new_mma.matrix_d))
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [loop.iter_args[0]], body)
    rewriter.insert(new_loop, InsertPoint.before(loop))
    rewriter.replace(loop, [], list(new_loop.results))

    # 5. The launch reserves the rings; the single-stage barrier and buffers are gone.
    _relaunch(rewriter, launch, size_op)
    _erase_single_stage(rewriter, parts, old_sync, outside)
    return TmaRing(new_loop, new_mma)


__all__ = ["MAX_STAGES", "RingRewriteError", "TmaRing", "pipeline_tma_ring"]
