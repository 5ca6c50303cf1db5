"""Warp specialization of a wgmma k loop fed by TMA: a producer warpgroup that only loads
and `consumers` warpgroups that only multiply, over a ring of `stages` shared-memory
buffers on full/empty mbarriers (schedir's extension; upstream has no transform for it).

The target is the `nvgpu.warpgroup.mma` of the single-stage loop that
`rewrite_matmul_as_wgmma` made over tiles that `rewrite_copy_as_tma` loads (the target of
`pipeline_tma_ring`). The rings, their barriers and the loads are `pipeline_tma_ring`'s;
what changes is who runs what:

* the block grows from one warpgroup to 1 + `consumers` (128 threads each, the
  `gpu.launch`'s x size); warpgroup 0 is the producer, warpgroups 1.. the consumers;
* `empty[s]` expects one arrival per consumer thread (128 x consumers);
* the producer lowers its register budget (`nvvm.setmaxregister decrease
  producer_registers`); its thread 0 runs the k loop alone: for step i (stage s = i mod
  S) it waits until the consumers released stage s of the round before (i >= S: parity
  (i / S - 1) mod 2 of `empty[s]`), then arms `full[s]` and issues the step's TMA loads;
* each consumer raises its budget (`nvvm.setmaxregister increase consumer_registers`)
  and runs the k loop on its rows of the block: consumer c multiplies rows
  [c M / consumers, (c + 1) M / consumers) of A's stage (a 64-row-aligned view) by all of
  B's into its own accumulator (M / consumers x N), waiting on `full[s]` with parity
  (i / S) mod 2, keeping one wgmma group in flight and releasing stage (i - 1) mod S on
  `empty` once the MMAs that read it have retired; after the loop it stores its rows of C
  (of an edge tile of C, of dynamic sizes: those of its rows that exist, a bounded store).

    %acc = scf.for %k ... { scf.if %tid0 { tma loads; expect_tx }; try_wait; %d = mma }
    nvgpu.warpgroup.mma.store %acc, %c
    // -> (consumers = 2, stages = 3; 384 threads)
    scf.if %tid0 { init full[0..2] (1), empty[0..2] (256) }; gpu.barrier
    scf.if %tid_div_128_eq_0 {
      nvvm.setmaxregister decrease 40
      scf.if %tid0 { scf.for %k { i >= 3: wait empty[i % 3]; expect_tx full[i % 3]; loads } }
    } else {
      nvvm.setmaxregister increase 232
      %acc = scf.for %k iter_args(%a = init) {
        try_wait full[i % 3]; %d = mma (rows of consumer c of stage i % 3) {waitGroup = 1}
        i > 0: mbarrier.arrive empty[(i - 1) % 3]; scf.yield %d }
      nvgpu.warpgroup.mma.store %acc, (rows of consumer c of %c)
    }

With `pingpong` (CUTLASS's KernelTmaWarpSpecializedPingpong) the consumers do not share
a tile: each multiplies the whole block tile into its own accumulator, reading every
stage alone (`empty[s]` expects 128 arrivals), and they take turns on 2 x `consumers`
more mbarriers of the group (128 arrivals each; turn[c] = 2S + c for the mainloop,
2S + consumers + c for the epilogue). Consumer c (its index from lane 0, `gpu.shuffle
idx`: warp-uniform for ptxas) waits for its mainloop turn in its first k step, releases
the previous stage only within its tile, and in its last k step hands the turn on to
consumer (c + 1) mod consumers, waits for its MMAs (`nvvm.wgmma.wait.group.sync.aligned
0`), releases the last stage (never holding a stage past its tile: the producer fills it
with the next consumer's k blocks) and waits for its epilogue turn; after its store it
hands that on: one consumer's store runs under the next one's MMAs. The block's tile n
(n = i / steps, the ring's step i counting on across a persistent block's tiles) follows
tile n - 1, whose consumer's k-th hand-on (k = (n - 1) / consumers) is phase k of the turn
barrier: the wait's parity is k mod 2 (tile 0: phase -1's, which a fresh barrier has
passed). The block's one tile is consumer 0's, the per-tile work in `scf.if consumer == 0
{schedir.pingpong = consumers}`; `persistent_tiles` deals a persistent block's tiles to
all consumers in turn.

    // -> (pingpong, consumers = 2, stages = 3) init full[0..2] (1), empty[3..5] (128),
    //    turn[6..9] (128); consumer c:
    scf.if %c == 0 { %acc = scf.for %k ... { first: try_wait turn[6 + c];
        try_wait full[i % 3]; %d = mma (all rows of stage i % 3) {waitGroup = 1};
        not first: arrive empty[(i - 1) % 3 + 3];
        last: arrive turn[6 + (c + 1) % 2]; nvvm.wgmma.wait.group.sync.aligned 0;
          arrive empty[i % 3 + 3]; try_wait turn[8 + c] }
      nvgpu.warpgroup.mma.store %acc, %c_tile; arrive turn[8 + (c + 1) % 2] }

With `stagger` = D > 0 (cooperating consumers) the consumers after the first wait, before
the block's first k step, on one more mbarrier (at 2S, 128 arrivals) that consumer 0
arrives on once it has issued step min(D, steps - 1): the others run up to D steps behind
it (the ring bounds the distance below S: consumer 0 cannot take a stage the others have
not released), so that at a tile's end consumer 0 stores while they finish their last
steps, and they store while consumer 0 starts the next tile's.

A K of one step (its loop folded away by canonicalization) is made a loop of one step
first. ptxas honours `setmaxnreg` only when the kernel's register count at entry is fixed
by launch bounds (otherwise: "C7508 ... 'setmaxnreg' ignored; unable to determine register
count at entry"): the kernel's `.maxntid` (the launch's static block size) does, 65536 /
threads registers at most (168 for 384 threads); the launch also gets `nvvm.minctasm = 1`
(`.minnctapersm 1`: one block per SM is what the budget is planned for).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    VectorType,
    i32,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu, nvvm
from schedir.dialects import nvgpu as ng
from schedir.dialects.arith import CmpiOp
from schedir.dialects.utils import DYNAMIC_INDEX
from schedir.transform.rewrites.gpu.tma import TRY_WAIT_TICKS, enclosing_launch
from schedir.transform.rewrites.gpu.tma_ring import (
    MAX_STAGES,
    RingRewriteError,
    _barriers,
    _check_launch,
    _check_ring_bytes,
    _erase_single_stage,
    _find_parts,
    _if,
    _in_no_loop,
    _load_step,
    _outside_tiles,
    _Parts,
    _relaunch,
    _rings,
    _Tile,
)
from schedir.transform.rewrites.rewriter import emit, emit_index

WARPGROUP_THREADS = 128
"""Threads of a warpgroup."""
WARP_LANES = 32
"""Lanes of a warp."""
WGMMA_M = 64
"""Rows of one wgmma instruction: each consumer's share of the block is a multiple."""
MAX_CONSUMERS = 4
"""Most consumer warpgroups (a block has at most 1024 threads: 1 + 4 warpgroups = 640)."""
MAX_ACCUMULATOR_REGISTERS = 128
"""f32 accumulator registers per consumer thread (more spill or serialize wgmma)."""
REGISTER_FILE = 64 * 1024
"""32-bit registers of an SM: what one block's warpgroups may take together."""
MIN_CTAS_ATTR = "nvvm.minctasm"
"""The kernel attribute (launch bound) that fixes the per-thread register budget."""
PINGPONG_ATTR = "schedir.pingpong"
"""The attribute (the consumer count) of the `scf.if consumer == 0` that holds the per-tile
work of ping-pong consumers: `persistent_tiles` deals the tiles to all of them."""


@dataclass(frozen=True)
class WarpSpecialized:
    """What the rewrite made: the consumers' loop and MMA, and the producer's loop."""

    loop: scf.ForOp
    mma: ng.WarpgroupMmaOp
    producer_loop: scf.ForOp


def _check_registers(
    consumers: int, producer_registers: int, consumer_registers: int, op: Operation
) -> None:
    for what, count in (("producer", producer_registers), ("consumer", consumer_registers)):
        if count % 8 or not nvvm.MIN_MAX_REGISTERS <= count <= nvvm.MAX_MAX_REGISTERS:
            raise RingRewriteError(
                f"{what}_registers must be a multiple of 8 in {nvvm.MIN_MAX_REGISTERS}.."
                f"{nvvm.MAX_MAX_REGISTERS}, got {count}",
                op,
            )
    if producer_registers > consumer_registers:
        raise RingRewriteError(
            f"producer_registers ({producer_registers}) exceeds consumer_registers "
            f"({consumer_registers}): the producer only gives registers to the consumers",
            op,
        )
    total = WARPGROUP_THREADS * (producer_registers + consumers * consumer_registers)
    if total > REGISTER_FILE:
        raise RingRewriteError(
            f"1 producer warpgroup of {producer_registers} and {consumers} consumer "
            f"warpgroups of {consumer_registers} registers per thread take {total} registers "
            f"(an SM has {REGISTER_FILE})",
            op,
        )


def _loop_of_one_step(rewriter: PatternRewriter, mma: ng.WarpgroupMmaOp) -> None:
    """Put the straight-line step of `mma` (its TMA loads' scf.if through the MMA) in an
    `scf.for` of one step carrying the accumulator, the loop `_find_parts` reads."""
    block = mma.parent_block()
    assert block is not None
    producer = next(
        (
            op
            for op in block.ops
            if isinstance(op, scf.IfOp) and any(isinstance(o, ng.TmaAsyncLoadOp) for o in op.walk())
        ),
        None,
    )
    if producer is None or not producer.is_before_in_block(mma):
        raise RingRewriteError("the MMA's tiles are not loaded with TMA before it", mma)
    span: list[Operation] = []
    op: Operation | None = producer
    while op is not None:
        span.append(op)
        if op is mma:
            break
        op = op.next_op
    init = mma.matrix_c.owner
    for inner in span:
        if inner is init:
            continue
        for result in inner.results:
            for use in result.uses:
                user = block.find_ancestor_op_in_block(use.operation)
                if inner is not mma and (user is None or user not in span):
                    raise RingRewriteError(
                        f"'{inner.name}' between the loads and the MMA is used after it", inner
                    )
    zero = emit_index(rewriter, InsertPoint.before(producer), 0)
    one = emit_index(rewriter, InsertPoint.before(producer), 1)
    if isinstance(init, Operation) and init in span:
        init.detach()
        rewriter.insert(init, InsertPoint.before(producer))
    body = Block(arg_types=[IndexType(), mma.matrix_c.type])
    uses = [u for u in mma.matrix_d.uses]
    loop = scf.ForOp(zero, one, one, [mma.matrix_c], body)
    rewriter.insert(loop, InsertPoint.before(producer))
    for inner in span:
        if inner is init:
            continue
        inner.detach()
        body.add_op(inner)
    mma.operands[2] = body.args[1]
    body.add_op(scf.YieldOp(mma.matrix_d))
    for use in uses:
        use.operation.operands[use.index] = loop.results[0]


def _step_index(
    rewriter: PatternRewriter, loop: scf.ForOp, iv: SSAValue, stages: int, at: InsertPoint
) -> tuple[SSAValue, SSAValue, SSAValue]:
    """Step i of induction value `iv`, its stage i mod S and round i / S."""
    distance = emit(rewriter, at, arith.SubiOp(iv, loop.lb))
    i = emit(rewriter, at, arith.DivUIOp(distance, loop.step))
    n_stages = emit_index(rewriter, at, stages)
    stage = emit(rewriter, at, arith.RemUIOp(i, n_stages))
    round_ = emit(rewriter, at, arith.DivUIOp(i, n_stages))
    return i, stage, round_


def _odd(rewriter: PatternRewriter, value: SSAValue, at: InsertPoint) -> SSAValue:
    """`value mod 2 != 0`: the parity of a round."""
    low = emit(rewriter, at, arith.AndIOp(value, emit_index(rewriter, at, 1)))
    return emit(rewriter, at, CmpiOp(low, emit_index(rewriter, at, 0), "ne"))


def _producer_loop(
    rewriter: PatternRewriter,
    parts: _Parts,
    tiles: dict[SSAValue, _Tile],
    bars: SSAValue,
    stages: int,
    at: InsertPoint,
) -> scf.ForOp:
    """Thread 0's loop: wait for the stage to be empty, arm it, load the step into it."""
    loop = parts.loop
    body = Block(arg_types=[IndexType()])
    yield_op = scf.YieldOp()
    body.add_op(yield_op)
    inside = InsertPoint.before(yield_op)
    i, stage, round_ = _step_index(rewriter, loop, body.args[0], stages, inside)
    reused = emit(rewriter, inside, CmpiOp(i, emit_index(rewriter, inside, stages), "uge"))
    wait_at = _if(rewriter, reused, inside)
    prior = emit(rewriter, wait_at, arith.SubiOp(round_, emit_index(rewriter, wait_at, 1)))
    empty = emit(rewriter, wait_at, arith.AddiOp(stage, emit_index(rewriter, wait_at, stages)))
    ticks = emit_index(rewriter, wait_at, TRY_WAIT_TICKS)
    rewriter.insert(
        ng.MBarrierTryWaitParityOp(bars, _odd(rewriter, prior, wait_at), ticks, empty), wait_at
    )
    _load_step(rewriter, parts, tiles, bars, body.args[0], stage, inside)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [], body)
    rewriter.insert(new_loop, at)
    return new_loop


def _rows_view(
    rewriter: PatternRewriter,
    tile: _Tile,
    stage: SSAValue,
    row0: SSAValue,
    rows: int,
    at: InsertPoint,
) -> SSAValue:
    """Rows [row0, row0 + rows) of stage `stage` of a ring, as a tile."""
    shape = [rows, *tile.type.get_shape()[1:]]
    row_elements = prod(shape[1:])
    strides = [prod(shape[i + 1 :]) for i in range(len(shape))]
    start = emit(rewriter, at, arith.MuliOp(stage, emit_index(rewriter, at, tile.elements)))
    skip = emit(rewriter, at, arith.MuliOp(row0, emit_index(rewriter, at, row_elements)))
    start = emit(rewriter, at, arith.AddiOp(start, skip))
    view_t = MemRefType(
        tile.type.element_type, shape, StridedLayoutAttr(strides, None), tile.type.memory_space
    )
    view = memref.ReinterpretCastOp(
        tile.ring, [start], [], [], [DYNAMIC_INDEX], shape, strides, view_t
    )
    rewriter.insert(view, at)
    return view.result


def _descriptor(
    rewriter: PatternRewriter,
    gen: ng.WarpgroupGenerateDescriptorOp,
    view: SSAValue,
    at: InsertPoint,
) -> SSAValue:
    """A descriptor of `view` as `gen` makes one for its tile (same layout and space)."""
    old = gen.descriptor.type
    assert isinstance(old, ng.WarpgroupMatrixDescriptorType)
    view_t = view.type
    assert isinstance(view_t, MemRefType)
    tensor = MemRefType(
        view_t.element_type, view_t.get_shape(), old.tensor.layout, old.tensor.memory_space
    )
    new = ng.WarpgroupGenerateDescriptorOp(
        view, gen.tensor_map, ng.WarpgroupMatrixDescriptorType(tensor)
    )
    rewriter.insert(new, at)
    return new.descriptor


def _steps(rewriter: PatternRewriter, loop: scf.ForOp, at: InsertPoint) -> SSAValue:
    """The trip count of `loop` (its steps per tile)."""
    span = emit(rewriter, at, arith.SubiOp(loop.ub, loop.lb))
    last = emit(rewriter, at, arith.SubiOp(loop.step, emit_index(rewriter, at, 1)))
    return emit(
        rewriter, at, arith.DivUIOp(emit(rewriter, at, arith.AddiOp(span, last)), loop.step)
    )


@dataclass(frozen=True)
class _Lead:
    """Staggered consumers: the consumers after the first start the block's first k step
    once consumer 0 has issued its step `steps` ahead (`min(steps, trip count - 1)` of its
    first tile) and arrived on barrier `barrier`; the ring keeps them at most `stages` - 1
    steps apart from then on."""

    consumer: SSAValue
    steps: int
    barrier: int

    def follow(
        self, rewriter: PatternRewriter, bars: SSAValue, i: SSAValue, at: InsertPoint
    ) -> None:
        """Consumers after the first: at the block's first step, wait for the lead."""
        zero = emit_index(rewriter, at, 0)
        follower = emit(rewriter, at, CmpiOp(self.consumer, zero, "ne"))
        start = emit(rewriter, at, CmpiOp(i, zero, "eq"))
        wait = _if(rewriter, emit(rewriter, at, arith.AndIOp(follower, start)), at)
        parity = emit(rewriter, wait, arith.ConstantOp(IntegerAttr(0, IntegerType(1))))
        ticks = emit_index(rewriter, wait, TRY_WAIT_TICKS)
        barrier = emit_index(rewriter, wait, self.barrier)
        rewriter.insert(ng.MBarrierTryWaitParityOp(bars, parity, ticks, barrier), wait)

    def lead(
        self,
        rewriter: PatternRewriter,
        bars: SSAValue,
        loop: scf.ForOp,
        i: SSAValue,
        at: InsertPoint,
    ) -> None:
        """Consumer 0: having issued its lead step, let the others start."""
        zero = emit_index(rewriter, at, 0)
        leader = emit(rewriter, at, CmpiOp(self.consumer, zero, "eq"))
        one = emit_index(rewriter, at, 1)
        last = emit(rewriter, at, arith.SubiOp(_steps(rewriter, loop, at), one))
        step = emit(rewriter, at, arith.MinUIOp(emit_index(rewriter, at, self.steps), last))
        ahead = emit(rewriter, at, CmpiOp(i, step, "eq"))
        arrive = _if(rewriter, emit(rewriter, at, arith.AndIOp(leader, ahead)), at)
        barrier = emit_index(rewriter, arrive, self.barrier)
        rewriter.insert(ng.MBarrierArriveOp(bars, barrier), arrive)


@dataclass(frozen=True)
class _Turns:
    """Ping-pong consumers' turns: consumer `consumer` (of `consumers`) waits for its
    mainloop turn on barrier `first + consumer` and its epilogue turn on `first + consumers
    + consumer`, and hands each on to the next consumer's."""

    consumer: SSAValue
    consumers: int
    first: int

    def barrier(
        self, rewriter: PatternRewriter, epilogue: bool, following: bool, at: InsertPoint
    ) -> SSAValue:
        """The index of this consumer's (or with `following` the next one's) mainloop or
        epilogue turn barrier."""
        who = self.consumer
        if following:
            one = emit_index(rewriter, at, 1)
            count = emit_index(rewriter, at, self.consumers)
            who = emit(
                rewriter, at, arith.RemUIOp(emit(rewriter, at, arith.AddiOp(who, one)), count)
            )
        base = self.first + (self.consumers if epilogue else 0)
        return emit(rewriter, at, arith.AddiOp(who, emit_index(rewriter, at, base)))

    def wait(
        self,
        rewriter: PatternRewriter,
        bars: SSAValue,
        loop: scf.ForOp,
        i: SSAValue,
        epilogue: bool,
        at: InsertPoint,
    ) -> None:
        """Wait (at ring step `i` of `loop`) for this consumer's turn. The block's tile
        n = i / steps (its place in the block's sequence of tiles, whatever consumer takes
        it) follows tile n - 1, whose consumer's k-th hand-on (k = (n - 1) / consumers) is
        phase k of this turn barrier: parity k mod 2; tile 0 waits for the parity of phase
        -1, which a fresh barrier has passed."""
        tile = emit(rewriter, at, arith.DivUIOp(i, _steps(rewriter, loop, at)))
        ahead = emit(rewriter, at, arith.AddiOp(tile, emit_index(rewriter, at, self.consumers - 1)))
        turn = emit(rewriter, at, arith.DivUIOp(ahead, emit_index(rewriter, at, self.consumers)))
        low = emit(rewriter, at, arith.AndIOp(turn, emit_index(rewriter, at, 1)))
        parity = emit(rewriter, at, CmpiOp(low, emit_index(rewriter, at, 0), "eq"))
        ticks = emit_index(rewriter, at, TRY_WAIT_TICKS)
        barrier = self.barrier(rewriter, epilogue, False, at)
        rewriter.insert(ng.MBarrierTryWaitParityOp(bars, parity, ticks, barrier), at)

    def hand_on(
        self, rewriter: PatternRewriter, bars: SSAValue, epilogue: bool, at: InsertPoint
    ) -> None:
        """Give the next consumer its turn (every thread of this consumer arrives)."""
        rewriter.insert(ng.MBarrierArriveOp(bars, self.barrier(rewriter, epilogue, True, at)), at)


def _consumer_loop(
    rewriter: PatternRewriter,
    parts: _Parts,
    mma: ng.WarpgroupMmaOp,
    tiles: dict[SSAValue, _Tile],
    bars: SSAValue,
    stages: int,
    row0: SSAValue,
    rows: int,
    acc0: SSAValue,
    at: InsertPoint,
    turns: _Turns | None = None,
    lead: _Lead | None = None,
) -> tuple[scf.ForOp, ng.WarpgroupMmaOp]:
    """A consumer's loop over its `rows` rows of the block, from accumulator `acc0`; with
    `turns` (ping-pong), waiting for its mainloop turn in the first step and in the last
    handing it on, waiting for its MMAs, releasing the last stage and waiting for its
    epilogue turn; with `lead` (staggered), the block's first step of a consumer after the
    first waiting for consumer 0's lead step."""
    loop = parts.loop
    body = Block(arg_types=[IndexType(), acc0.type])
    iv, acc = body.args
    yield_op = scf.YieldOp()
    body.add_op(yield_op)
    inside = InsertPoint.before(yield_op)
    i, stage, round_ = _step_index(rewriter, loop, iv, stages, inside)
    if turns is not None:
        first = _if(rewriter, emit(rewriter, inside, CmpiOp(iv, loop.lb, "eq")), inside)
        turns.wait(rewriter, bars, loop, i, False, first)
    if lead is not None:
        lead.follow(rewriter, bars, i, inside)
    ticks = emit_index(rewriter, inside, TRY_WAIT_TICKS)
    rewriter.insert(
        ng.MBarrierTryWaitParityOp(bars, _odd(rewriter, round_, inside), ticks, stage), inside
    )
    zero = emit_index(rewriter, inside, 0)
    view_a = _rows_view(rewriter, tiles[parts.gen_a.tensor], stage, row0, rows, inside)
    tile_b = tiles[parts.gen_b.tensor]
    view_b = _rows_view(rewriter, tile_b, stage, zero, tile_b.type.get_shape()[0], inside)
    desc_a = _descriptor(rewriter, parts.gen_a, view_a, inside)
    desc_b = _descriptor(rewriter, parts.gen_b, view_b, inside)
    new_mma = ng.WarpgroupMmaOp(desc_a, desc_b, acc, wait_group=1)
    new_mma.attributes.update(mma.attributes)
    rewriter.insert(new_mma, inside)
    # The MMAs of step i - 1 have retired: release their stage.
    n_stages = emit_index(rewriter, inside, stages)
    previous = emit(
        rewriter,
        inside,
        arith.RemUIOp(
            emit(rewriter, inside, arith.AddiOp(i, emit_index(rewriter, inside, stages - 1))),
            n_stages,
        ),
    )
    # (Ping-pong: the previous step of this consumer's tile; its first step's previous
    # one is another consumer's.)
    not_first = CmpiOp(iv, loop.lb, "ne") if turns is not None else CmpiOp(i, zero, "ne")
    release = _if(rewriter, emit(rewriter, inside, not_first), inside)
    empty = emit(rewriter, release, arith.AddiOp(previous, n_stages))
    rewriter.insert(ng.MBarrierArriveOp(bars, empty), release)
    if lead is not None:
        lead.lead(rewriter, bars, loop, i, inside)
    if turns is not None:
        # The last step: the next consumer may issue its MMAs; this one's retire, and its
        # last stage goes back to the producer (which fills it for the next consumer).
        after = emit(rewriter, inside, arith.AddiOp(iv, loop.step))
        last = _if(rewriter, emit(rewriter, inside, CmpiOp(after, loop.ub, "uge")), inside)
        turns.hand_on(rewriter, bars, False, last)
        rewriter.insert(nvvm.WgmmaWaitGroupSyncOp(0), last)
        rewriter.insert(
            ng.MBarrierArriveOp(bars, emit(rewriter, last, arith.AddiOp(stage, n_stages))), last
        )
        turns.wait(rewriter, bars, loop, i, True, last)
    rewriter.replace(yield_op, scf.YieldOp(new_mma.matrix_d))
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [acc0], body)
    rewriter.insert(new_loop, at)
    return new_loop, new_mma


def _the_store(loop: scf.ForOp) -> ng.WarpgroupMmaStoreOp:
    """The one `warpgroup.mma.store` of the loop's accumulator, after it in its block."""
    uses = list(loop.results[0].uses)
    store = uses[0].operation if len(uses) == 1 else None
    if not isinstance(store, ng.WarpgroupMmaStoreOp) or store.parent_block() is not loop.parent:
        raise RingRewriteError(
            "the loop's accumulator must be used by one nvgpu.warpgroup.mma.store after it "
            "(rewrite_matmul_as_wgmma)",
            loop,
        )
    return store


def _is_leader_test(op: Operation) -> bool:
    """Whether `op` is `thread id == 0` (thread 0 stays thread 0 in the larger block)."""
    if not isinstance(op, arith.CmpiOp) or op.predicate.value.data != 0:  # 0: eq
        return False
    other = op.rhs.owner
    return (
        isinstance(other, arith.ConstantOp)
        and isinstance(other.value, IntegerAttr)
        and other.value.value.data == 0
    )


def _check_rest_of_launch(launch: gpu.LaunchOp, parts: _Parts) -> None:
    """Nothing else in the launch may assume one warpgroup: no other block barrier (the
    producer's other threads leave early) and no other thread-dependent code."""
    own = {parts.init.next_op}
    for op in launch.body.walk():
        if parts.loop.is_ancestor(op) or op in own:
            continue
        if isinstance(op, gpu.BarrierOp):
            raise RingRewriteError(
                "the gpu.launch has another block barrier (the producer's threads do not reach it)",
                op,
            )
        if isinstance(op, gpu.ThreadIdOp) and not all(
            parts.loop.is_ancestor(u.operation) or _is_leader_test(u.operation)
            for u in op.results[0].uses
        ):
            raise RingRewriteError(
                "the gpu.launch computes with thread ids outside the MMA's loop (code that "
                "assumes one warpgroup)",
                op,
            )


def warp_specialize_tma_ring(
    rewriter: PatternRewriter,
    mma: Operation,
    stages: int,
    consumers: int,
    producer_registers: int,
    consumer_registers: int,
    pingpong: bool = False,
    stagger: int = 0,
) -> WarpSpecialized:
    """Warp-specialize the single-stage TMA + wgmma loop of `mma` over a ring of `stages`
    buffers, the consumers cooperating on each tile's rows or, with `pingpong`, taking
    turns over whole tiles (see the module docstring); raises `RingRewriteError` before
    changing anything when it does not qualify."""
    if not 2 <= stages <= MAX_STAGES:
        raise RingRewriteError(
            f"stages must be in 2..{MAX_STAGES} (a consumer reads one stage while the "
            f"producer fills another), got {stages}",
            mma,
        )
    if not 1 <= consumers <= MAX_CONSUMERS:
        raise RingRewriteError(f"consumers must be in 1..{MAX_CONSUMERS}, got {consumers}", mma)
    _check_registers(consumers, producer_registers, consumer_registers, mma)
    if not isinstance(mma, ng.WarpgroupMmaOp):
        raise RingRewriteError("target is not an nvgpu.warpgroup.mma", mma)
    acc_t = mma.matrix_c.type
    assert isinstance(acc_t, ng.WarpgroupAccumulatorType)
    m, n = acc_t.fragmented.get_shape()
    if pingpong and consumers < 2:
        raise RingRewriteError(
            f"ping-pong consumers take turns: at least 2 of them, got {consumers}", mma
        )
    if stagger and (pingpong or consumers < 2 or not 0 < stagger < stages):
        raise RingRewriteError(
            f"staggered consumers start 1..stages - 1 ({stages - 1}) steps apart, two of them "
            f"at least, cooperating (not ping-pong), got {stagger} steps",
            mma,
        )
    rows = m if pingpong else m // consumers
    if not pingpong and (m % consumers or rows % WGMMA_M):
        raise RingRewriteError(
            f"the block's {m} rows do not split into {consumers} consumers' multiples of {WGMMA_M}",
            mma,
        )
    registers = rows * n // WARPGROUP_THREADS
    if registers > MAX_ACCUMULATOR_REGISTERS:
        raise RingRewriteError(
            f"each consumer's {rows}x{n} f32 accumulator needs {registers} registers per "
            f"thread (at most {MAX_ACCUMULATOR_REGISTERS})",
            mma,
        )
    launch = enclosing_launch(mma)
    if launch is None:
        raise RingRewriteError("the MMA is not inside a gpu.launch", mma)
    block_x = launch.blockSizeX.owner
    if not (
        isinstance(block_x, arith.ConstantOp)
        and isinstance(block_x.value, IntegerAttr)
        and block_x.value.value.data == WARPGROUP_THREADS
        and all(
            isinstance(v.owner, arith.ConstantOp)
            and isinstance(v.owner.value, IntegerAttr)
            and v.owner.value.value.data == 1
            for v in (launch.blockSizeY, launch.blockSizeZ)
        )
    ):
        raise RingRewriteError(
            f"the gpu.launch must have one warpgroup ({WARPGROUP_THREADS} x 1 x 1 threads, static)",
            mma,
        )
    _check_launch(launch, mma)
    if _in_no_loop(mma):
        # (A loop of one step is the same program: should a check below fail, the payload
        # still computes what it did.)
        _loop_of_one_step(rewriter, mma)
    parts = _find_parts(mma)
    loop = parts.loop
    store = _the_store(loop)
    _check_ring_bytes(parts, stages, loop)
    _check_rest_of_launch(launch, parts)

    outside = _outside_tiles(parts)
    tiles, size_op = _rings(rewriter, launch, parts, stages)
    old_sync = parts.init.next_op
    at = InsertPoint.before(parts.barrier)
    # (Ping-pong: one consumer reads each stage; each has a mainloop and an epilogue turn.)
    empty_count = emit_index(rewriter, at, WARPGROUP_THREADS * (1 if pingpong else consumers))
    if pingpong:
        turn_count = emit_index(rewriter, at, WARPGROUP_THREADS)
        bars, leader = _barriers(rewriter, parts, stages, empty_count, 2 * consumers, turn_count)
    elif stagger:
        lead_count = emit_index(rewriter, at, WARPGROUP_THREADS)
        bars, leader = _barriers(rewriter, parts, stages, empty_count, 1, lead_count)
    else:
        bars, leader = _barriers(rewriter, parts, stages, empty_count)

    # The roles, where the store was (what it stores into may be computed after the loop):
    # warpgroup 0 produces, the others consume.
    at = InsertPoint.before(store)
    tid = emit(rewriter, at, gpu.ThreadIdOp("x"))
    warpgroup = emit(rewriter, at, arith.DivUIOp(tid, emit_index(rewriter, at, WARPGROUP_THREADS)))
    is_producer = emit(rewriter, at, CmpiOp(warpgroup, emit_index(rewriter, at, 0), "eq"))
    then_block, else_block = Block(), Block()
    then_block.add_op(then_yield := scf.YieldOp())
    else_block.add_op(else_yield := scf.YieldOp())
    roles = scf.IfOp(is_producer, [], [then_block], [else_block])
    rewriter.insert(roles, at)

    produce = InsertPoint.before(then_yield)
    rewriter.insert(
        nvvm.SetMaxRegisterOp(nvvm.SetMaxRegisterAction.DECREASE, producer_registers), produce
    )
    producer_loop = _producer_loop(
        rewriter, parts, tiles, bars, stages, _if(rewriter, leader, produce)
    )

    consume = InsertPoint.before(else_yield)
    rewriter.insert(
        nvvm.SetMaxRegisterOp(nvvm.SetMaxRegisterAction.INCREASE, consumer_registers), consume
    )
    if pingpong or stagger:
        # The warpgroup as lane 0 has it (CUTLASS's canonical_warp_group_idx): ptxas sees
        # a warp-uniform value, so the tiles, ring steps and barriers that follow from the
        # consumer index stay in uniform registers.
        warpgroup = _warp_uniform(rewriter, warpgroup, consume)
    consumer = emit(rewriter, consume, arith.SubiOp(warpgroup, emit_index(rewriter, consume, 1)))
    turns = None
    if pingpong:
        # The block's one tile is consumer 0's (persistent_tiles deals its tiles to all).
        zero = emit_index(rewriter, consume, 0)
        first = emit(rewriter, consume, CmpiOp(consumer, zero, "eq"))
        consume = _if(rewriter, first, consume)
        deal = consume.block.parent_op()
        assert deal is not None
        deal.attributes[PINGPONG_ATTR] = IntegerAttr(consumers, i32)
        turns = _Turns(consumer, consumers, 2 * stages)
        row0 = emit_index(rewriter, consume, 0)
    else:
        row0 = emit(rewriter, consume, arith.MuliOp(consumer, emit_index(rewriter, consume, rows)))
    lead = _Lead(consumer, stagger, 2 * stages) if stagger else None
    acc_part = ng.WarpgroupAccumulatorType(
        VectorType(acc_t.fragmented.get_element_type(), [rows, n])
    )
    init = ng.WarpgroupMmaInitAccumulatorOp(acc_part)
    rewriter.insert(init, consume)
    new_loop, new_mma = _consumer_loop(
        rewriter, parts, mma, tiles, bars, stages, row0, rows, init.matrix_c, consume, turns, lead
    )
    sub = _rows_of(rewriter, store.dst_memref, row0, rows, n, consume)
    epilogue = _rows_epilogue(store.epilogue, row0)
    rewriter.insert(ng.WarpgroupMmaStoreOp(new_loop.results[0], sub, epilogue), consume)
    if turns is not None:
        turns.hand_on(rewriter, bars, True, consume)

    # The old loop, its store and accumulator go; the launch grows and keeps the rings.
    old_init = loop.iter_args[0].owner
    rewriter.erase(store)
    rewriter.erase(loop)
    if isinstance(old_init, ng.WarpgroupMmaInitAccumulatorOp) and not old_init.matrix_c.uses:
        rewriter.erase(old_init)
    threads = arith.ConstantOp(IntegerAttr(WARPGROUP_THREADS * (1 + consumers), IndexType()))
    rewriter.insert(threads, InsertPoint.before(launch))
    new_launch = _relaunch(rewriter, launch, size_op, threads.result)
    new_launch.attributes[MIN_CTAS_ATTR] = IntegerAttr(1, i32)
    _erase_single_stage(rewriter, parts, old_sync, outside)
    return WarpSpecialized(new_loop, new_mma, producer_loop)


def _warp_uniform(rewriter: PatternRewriter, value: SSAValue, at: InsertPoint) -> SSAValue:
    """`value` (an index the same in every lane of a warp) as lane 0 has it: `gpu.shuffle
    idx` from lane 0."""
    narrow = emit(rewriter, at, arith.IndexCastOp(value, i32))
    lane0 = emit(rewriter, at, arith.ConstantOp(IntegerAttr(0, i32)))
    width = emit(rewriter, at, arith.ConstantOp(IntegerAttr(WARP_LANES, i32)))
    shuffle = gpu.ShuffleOp(narrow, lane0, width, "idx")
    rewriter.insert(shuffle, at)
    return emit(rewriter, at, arith.IndexCastOp(shuffle.shuffleResult, IndexType()))


def _rows_epilogue(epilogue: Region | None, row0: SSAValue) -> Region | None:
    """The store's epilogue for a consumer's rows from `row0`: its row argument is relative
    to them, so the body sees the block's row (row0 + its own)."""
    if epilogue is None:
        return None
    region = epilogue.clone()
    block = region.block
    first = block.first_op
    assert first is not None
    row = arith.AddiOp(block.args[1], row0)
    block.insert_op_before(row, first)
    for use in list(block.args[1].uses):
        if use.operation is not row:
            use.operation.operands[use.index] = row.result
    return region


def _rows_of(
    rewriter: PatternRewriter, dst: SSAValue, row0: SSAValue, rows: int, n: int, at: InsertPoint
) -> SSAValue:
    """A consumer's rows [row0, row0 + rows) of the block's C: static when C is the whole
    tile; for an edge tile of C (dynamic sizes) the rows of it that exist, none past its
    end (the store is bounded by the view's sizes)."""
    dst_t = dst.type
    assert isinstance(dst_t, MemRefType)
    zero = emit_index(rewriter, at, 0)
    layout = StridedLayoutAttr(_strides(dst_t), None)
    if dst_t.has_static_shape():
        sub_t = MemRefType(dst_t.element_type, [rows, n], layout, dst_t.memory_space)
        sub = memref.SubviewOp(
            dst, [row0, zero], [], [], [DYNAMIC_INDEX] * 2, [rows, n], [1, 1], sub_t
        )
        rewriter.insert(sub, at)
        return sub.result
    sizes: list[SSAValue] = []
    for axis in (0, 1):
        extent = dst_t.get_shape()[axis]
        if extent == DYNAMIC_INDEX:
            dim = memref.DimOp(dst, emit_index(rewriter, at, axis))
            rewriter.insert(dim, at)
            sizes.append(dim.result)
        else:
            sizes.append(emit_index(rewriter, at, extent))
    left = emit(rewriter, at, arith.SubiOp(sizes[0], row0))
    left = emit(rewriter, at, arith.MaxSIOp(left, zero))
    mine = emit(rewriter, at, arith.MinSIOp(left, emit_index(rewriter, at, rows)))
    sub_t = MemRefType(dst_t.element_type, [DYNAMIC_INDEX] * 2, layout, dst_t.memory_space)
    sub = memref.SubviewOp(
        dst,
        [row0, zero],
        [mine, sizes[1]],
        [],
        [DYNAMIC_INDEX] * 2,
        [DYNAMIC_INDEX] * 2,
        [1, 1],
        sub_t,
    )
    rewriter.insert(sub, at)
    return sub.result


def _strides(t: MemRefType) -> list[int]:
    """The strides of a memref type (static or `DYNAMIC_INDEX`)."""
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        return [s if isinstance(s, int) else DYNAMIC_INDEX for s in layout.get_strides()]
    shape = t.get_shape()
    return [prod(shape[i + 1 :]) for i in range(len(shape))]


__all__ = ["MAX_CONSUMERS", "PINGPONG_ATTR", "WarpSpecialized", "warp_specialize_tma_ring"]
