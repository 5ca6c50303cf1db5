"""A persistent tile loop: a grid of at most `ctas` blocks, each looping over the launch's
tiles in grouped (L2-aware) raster order (schedir's extension; upstream has no transform
for it). CUTLASS's and cuBLAS's Hopper kernels are persistent: a block's producer keeps
its TMA ring running across tiles, so the loads of the next tile overlap the consumers'
epilogue of this one, and the grid is launched once per SM instead of once per tile.

The target is a `gpu.launch` whose blocks (x, y; z of one block) each compute one tile,
as `warp_specialize_tma_ring` leaves it: after the block barrier that publishes the
ring's mbarriers, the per-tile work. With T = gx * gy tiles (the launch's grid) and
G = min(T, ctas) blocks:

* the launch's grid becomes G x 1 x 1; the body's grid sizes (its arguments and
  `gpu.grid_dim x/y`) read gx and gy, the tile counts;
* the per-tile work runs in `scf.for %t = block_id.x to T step G`, tile t being
  (x', y') = `raster.grouped_tile(t)` (groups of `group` rows of tiles, column by column;
  `group` = 1 is row-major); the index arithmetic of the block ids (tile offsets, views of
  C) is cloned into the loop from x', y';
* the loop goes inside the warp roles: a branch that opens with `nvvm.setmaxregister`
  (run once per thread) and an `scf.if` of a tile-independent condition (the producer's
  thread 0) keep their place and take the loop inside, so the producer's loop runs
  on thread 0 alone and each consumer's around its accumulators, k loop and store;
* the ring's mbarrier phases continue across tiles: in each k loop of the ring, the step
  index i = (k - lb) / step (`warp_specialize_tma_ring`'s, from which the stage i mod S,
  the round i / S and its parity follow) becomes n * steps + i, n the tile loop's
  iteration and steps the k loop's trip count (the same for every tile).

    gpu.launch blocks(%bx, %by, %bz) in (%gx, %gy, 1) { init barriers; gpu.barrier;
      offsets(%bx, %by); scf.if %producer { setmaxnreg dec; scf.if %tid0 { k loop } }
      else { setmaxnreg inc; k loop; store } }
    // -> (ctas = 132)
    gpu.launch blocks(%b, ...) in (min(%gx * %gy, 132), 1, 1) { init barriers; gpu.barrier;
      scf.if %producer { setmaxnreg dec; scf.if %tid0 { scf.for %t = %b to T step G {
        x', y' = grouped(t); offsets(x', y'); k loop (i -> n * steps + i) } } }
      else { setmaxnreg inc; scf.for %t = %b to T step G { x', y' = grouped(t);
        offsets(x', y'); k loop (i -> n * steps + i); store } } }

A consumer releases the last stage of a tile when it issues the first MMA of the next
(the ring's `i > 0` release, now global), after the store has waited for every wgmma: the
producer may meanwhile fill the other S - 1 stages for the next tile. With several
consumer warpgroups each runs the same tile loop on its rows (all consumers visit the same
tiles, in the same order, so the step count n * steps + i is the same ring position for
each); they may be a tile apart, one storing tile n while the other multiplies tile n + 1:
`empty[s]` completes a phase only once every consumer released the stage (its arrival
count is all consumers' threads), and a consumer cannot release stage s twice within one
phase (its next use of s waits on `full[s]` of the next round, which the producer arms only
after that phase), so no stage is refilled while any consumer still reads it. `ctas` = 0
keeps a block per tile and only reorders them (`raster_blocks`).

Ping-pong consumers (`warp_specialize_tma_ring`'s `pingpong`: each on a whole tile, the
per-tile work in their `scf.if consumer == 0 {schedir.pingpong = C}`) take the block's
tiles in turn: consumer c's loop runs `scf.for %t = block_id.x + c * G to T step C * G`,
the `scf.if` dissolved around it; n = (t - block_id.x) / G is still the tile's place in
the block's sequence (the producer's n for it), so the ring's step n * steps + i and the
consumers' turns follow it unchanged.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from schedir.dialects import affine, gpu, nvvm
from schedir.dialects import nvgpu as ng
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.gpu.raster import (
    MAX_GROUP,
    RasterRewriteError,
    grouped_tile,
    raster_blocks,
)
from schedir.transform.rewrites.gpu.warp_specialize import PINGPONG_ATTR
from schedir.transform.rewrites.rewriter import emit, emit_index

MAX_CTAS = 1 << 16
"""Most resident blocks a persistent grid may have (a grid's x size is far larger; this
bounds a knob, several per SM of the largest GPUs)."""
_BLOCK_ID_ARGS = {0: "x", 1: "y"}
"""The body arguments of the launch that are block ids x and y."""
_GRID_ARGS = {6: "x", 7: "y"}
"""The body arguments of the launch that are the grid's x and y sizes."""


_INDEX_ARITHMETIC = (affine.MinOp, affine.MaxOp, arith.RemUIOp, arith.RemSIOp, arith.DivSIOp)
"""Index ops without effects on memory that xDSL does not mark pure (they may divide by
zero, which the tile arithmetic does not): cloned per tile like the pure ones."""


def _pure(op: Operation) -> bool:
    """An op without regions or memory effects: it may be cloned or left in place."""
    return not op.regions and (is_side_effect_free(op) or isinstance(op, _INDEX_ARITHMETIC))


def _is_one(value: SSAValue) -> bool:
    return constant_int(value) == 1


def _tile_dependent(body: Block, ids: set[SSAValue]) -> list[Operation]:
    """The pure ops of the body's top level whose results depend on the block ids `ids`,
    in order (the tile's index arithmetic and views, cloned into each tile loop)."""
    dependent: set[SSAValue] = set(ids)
    found: list[Operation] = []
    for op in body.ops:
        uses_id = any(operand in dependent for inner in op.walk() for operand in inner.operands)
        if not uses_id or not op.results:
            continue
        if not _pure(op):
            continue
        found.append(op)
        dependent.update(op.results)
    return found


def _leading_setmaxregister(block: Block) -> Operation | None:
    first = block.first_op
    return first if isinstance(first, nvvm.SetMaxRegisterOp) else None


class _Persist:
    """The state of one rewrite: the tile values and the ops cloned per tile."""

    def __init__(
        self,
        rewriter: PatternRewriter,
        launch: gpu.LaunchOp,
        group: int,
        dependent: list[Operation],
        ids: dict[SSAValue, str],
        tiles_x: SSAValue,
        tiles_y: SSAValue,
    ) -> None:
        self.rewriter = rewriter
        self.launch = launch
        self.group = group
        self.dependent = dependent
        self.ids = ids
        self.tiles_x = tiles_x
        self.tiles_y = tiles_y

    def place(self, ops: list[Operation]) -> list[list[Operation]]:
        """Where the tile loops go: around the per-tile work `ops` of one block, or inside
        the role branch they make up (see the module docstring); each range, from its
        first per-tile op to its block's end. Changes nothing."""
        work = [op for op in ops if op not in self.dependent_set and not self._invariant(op)]
        if len(work) == 1 and isinstance(work[0], scf.IfOp) and work[0].cond not in self.tiled:
            branch = work[0]
            ranges: list[list[Operation]] = []
            for region in branch.regions:
                if not region.blocks:
                    continue
                inner = region.block
                if any(isinstance(op, scf.YieldOp) and op.operands for op in inner.ops):
                    raise RasterRewriteError(
                        "a role branch yields values (the tile loop cannot go inside it)", branch
                    )
                body = [op for op in inner.ops if not isinstance(op, scf.YieldOp)]
                if _leading_setmaxregister(inner) is not None:
                    body = body[1:]
                ranges += self.place(body)
            return ranges
        start = next(
            (i for i, op in enumerate(ops) if not self._invariant(op) or self._uses_tile(op)),
            None,
        )
        if start is None:
            return []
        return [[op for op in ops[start:] if op not in self.dependent_set]]

    @property
    def dependent_set(self) -> set[Operation]:
        return set(self.dependent)

    @property
    def tiled(self) -> set[SSAValue]:
        values: set[SSAValue] = set(self.ids)
        for op in self.dependent:
            values.update(op.results)
        return values

    def _invariant(self, op: Operation) -> bool:
        """A pure op of no tile and no region: it stays where it is."""
        return _pure(op)

    def wrap(self, moved: list[Operation], total: SSAValue) -> None:
        """The tile loop over the `total` tiles around `moved` (a range of `place`); in
        the ping-pong consumers' `scf.if consumer == 0`, consumer c's tiles c, c + C, ...
        of the block's (C consumers), the `scf.if` dissolved around the loop."""
        rewriter = self.rewriter
        first = moved[0]
        at = InsertPoint.before(first)
        bid = emit(rewriter, at, gpu.BlockIdOp("x"))
        grid = emit(rewriter, at, gpu.GridDimOp("x"))
        deal = _dealing(first)
        start, step = bid, grid
        if deal is not None:
            consumer, consumers = deal
            skip = emit(rewriter, at, arith.MuliOp(consumer, grid))
            start = emit(rewriter, at, arith.AddiOp(bid, skip))
            step = emit(rewriter, at, arith.MuliOp(grid, emit_index(rewriter, at, consumers)))
        loop_body = Block(arg_types=[IndexType()])
        loop_body.add_op(yield_op := scf.YieldOp())
        loop = scf.ForOp(start, total, step, [], loop_body)
        rewriter.insert(loop, at)
        inside = InsertPoint.before(yield_op)
        t = loop_body.args[0]
        n = emit(
            rewriter, inside, arith.DivUIOp(emit(rewriter, inside, arith.SubiOp(t, bid)), grid)
        )
        for op in moved:
            op.detach()
            loop_body.insert_op_before(op, yield_op)
        # The tile (x', y') and the index arithmetic of the block ids go right before the
        # first moved op that reads them: a consumer's store after its k loop reads them,
        # its k loop does not (computed before the loop, LLVM sinks them to the store,
        # into the window between the last wgmma and its wait).
        mapping: dict[SSAValue, SSAValue] = {}
        for op in moved:
            needed = self._needed([op])
            if not needed and not self._reads_ids(op):
                continue
            at = InsertPoint.before(op)
            if not mapping:
                x, y = grouped_tile(rewriter, at, t, self.tiles_x, self.tiles_y, self.group)
                mapping = {value: (x if dim == "x" else y) for value, dim in self.ids.items()}
            for dependent in self.dependent:
                if dependent in needed and dependent.results[0] not in mapping:
                    clone = dependent.clone()
                    for i, operand in enumerate(clone.operands):
                        if operand in mapping:
                            clone.operands[i] = mapping[operand]
                    rewriter.insert(clone, at)
                    for old, new in zip(dependent.results, clone.results, strict=True):
                        mapping[old] = new
            for inner in op.walk():
                for i, operand in enumerate(inner.operands):
                    if operand in mapping:
                        inner.operands[i] = mapping[operand]
        for inner in list(loop_body.walk()):
            if isinstance(inner, scf.ForOp) and _in_ring(inner):
                _continue_phases(rewriter, inner, n)
        if deal is not None:
            # Every consumer has tiles now (or none, past the grid's last).
            branch = loop.parent_op()
            assert isinstance(branch, scf.IfOp)
            then = branch.true_region.block
            for op in list(then.ops):
                if not isinstance(op, scf.YieldOp):
                    op.detach()
                    rewriter.insert(op, InsertPoint.before(branch))
            rewriter.erase(branch)

    def _reads_ids(self, op: Operation) -> bool:
        """Whether `op` (or an op inside it) reads a block id directly."""
        return any(operand in self.ids for inner in op.walk() for operand in inner.operands)

    def _uses_tile(self, op: Operation) -> bool:
        tiled = self.tiled
        return any(operand in tiled for inner in op.walk() for operand in inner.operands)

    def _needed(self, moved: list[Operation]) -> set[Operation]:
        """The tile-dependent ops the moved ops read, directly or through each other."""
        needed: set[Operation] = set()
        frontier = [operand for op in moved for inner in op.walk() for operand in inner.operands]
        dependent = self.dependent_set
        while frontier:
            value = frontier.pop()
            owner = value.owner
            if isinstance(owner, Operation) and owner in dependent and owner not in needed:
                needed.add(owner)
                frontier.extend(owner.operands)
        return needed


def _dealing(op: Operation) -> tuple[SSAValue, int] | None:
    """The consumer index and count of the ping-pong consumers' `scf.if consumer == 0`
    (`warp_specialize_tma_ring`'s, marked `schedir.pingpong`) that holds `op`, if it is in
    one."""
    branch = op.parent_op()
    if not isinstance(branch, scf.IfOp) or PINGPONG_ATTR not in branch.attributes:
        return None
    consumers = branch.attributes[PINGPONG_ATTR]
    test = branch.cond.owner
    if not (
        isinstance(consumers, IntegerAttr)
        and isinstance(test, arith.CmpiOp)
        and test.predicate.value.data == 0  # eq
        and constant_int(test.rhs) == 0
    ):
        raise RasterRewriteError(
            "the ping-pong consumers' branch is not `scf.if consumer == 0` with their count",
            branch,
        )
    return test.lhs, consumers.value.data


def _step_index(loop: scf.ForOp) -> arith.DivUIOp | None:
    """The ring's step index of `loop`, `(iv - lb) / step`, if it computes one."""
    for use in loop.body.block.args[0].uses:
        sub = use.operation
        if not (isinstance(sub, arith.SubiOp) and sub.lhs is loop.body.block.args[0]):
            continue
        if sub.rhs is not loop.lb:
            continue
        for inner in sub.result.uses:
            div = inner.operation
            if isinstance(div, arith.DivUIOp) and div.lhs is sub.result and div.rhs is loop.step:
                return div
    return None


def _in_ring(loop: scf.ForOp) -> bool:
    """Whether `loop` synchronizes on mbarriers (a k loop of the TMA ring)."""
    ring_ops = (ng.MBarrierTryWaitParityOp, ng.MBarrierArriveOp, ng.MBarrierArriveExpectTxOp)
    return any(isinstance(op, ring_ops) for op in loop.body.walk())


def _check_ring_loops(ops: list[Operation]) -> None:
    """Every ring loop in `ops` counts its steps as `_continue_phases` needs."""
    for op in ops:
        for inner in op.walk():
            if isinstance(inner, scf.ForOp) and _in_ring(inner) and _step_index(inner) is None:
                raise RasterRewriteError(
                    "the loop synchronizes on mbarriers without counting its steps as (iv - lb) "
                    "/ step (warp_specialize_tma_ring's ring): its phases cannot continue "
                    "across tiles",
                    inner,
                )


def _continue_phases(rewriter: PatternRewriter, loop: scf.ForOp, n: SSAValue) -> None:
    """Count the ring's steps in `loop` (a k loop with mbarrier waits or arrivals) from the
    tile loop's iteration `n`: step i becomes n * steps + i."""
    index = _step_index(loop)
    assert index is not None  # _check_ring_loops
    at = InsertPoint.before(loop)
    span = emit(rewriter, at, arith.SubiOp(loop.ub, loop.lb))
    rounded = emit(
        rewriter,
        at,
        arith.AddiOp(
            span, emit(rewriter, at, arith.SubiOp(loop.step, emit_index(rewriter, at, 1)))
        ),
    )
    steps = emit(rewriter, at, arith.DivUIOp(rounded, loop.step))
    base = emit(rewriter, at, arith.MuliOp(n, steps))
    after = InsertPoint.after(index)
    uses = list(index.result.uses)
    total = arith.AddiOp(index.result, base)
    rewriter.insert(total, after)
    for use in uses:
        use.operation.operands[use.index] = total.result


def persistent_tiles(
    rewriter: PatternRewriter, launch: Operation, ctas: int, group: int
) -> gpu.LaunchOp:
    """Make `launch` a persistent grid of at most `ctas` blocks looping over its tiles in
    groups of `group` rows (see the module docstring; `ctas` = 0: `raster_blocks`);
    raises `RasterRewriteError` before changing anything when it does not qualify."""
    if not isinstance(launch, gpu.LaunchOp):
        raise RasterRewriteError("target is not a gpu.launch", launch)
    if not 0 <= ctas <= MAX_CTAS:
        raise RasterRewriteError(f"ctas must be in 0..{MAX_CTAS}, got {ctas}", launch)
    if ctas == 0:
        return raster_blocks(rewriter, launch, group)
    if not 1 <= group <= MAX_GROUP:
        raise RasterRewriteError(f"group must be in 1..{MAX_GROUP}, got {group}", launch)
    if launch.has_clusters:
        raise RasterRewriteError(
            "the gpu.launch has clusters (a persistent grid of clusters is not supported)", launch
        )
    if not _is_one(launch.gridSizeZ):
        raise RasterRewriteError("the gpu.launch's grid must have one block along z", launch)
    body = launch.body.block
    barriers = [op for op in body.ops if isinstance(op, gpu.BarrierOp)]
    if len(barriers) > 1:
        raise RasterRewriteError(
            "the gpu.launch has more than one block barrier at its top level (expected the "
            "one that publishes the ring's mbarriers)",
            barriers[1],
        )
    ids: dict[SSAValue, str] = {}
    for index, dim in _BLOCK_ID_ARGS.items():
        ids[body.args[index]] = dim
    for op in body.walk():
        if isinstance(op, gpu.BlockIdOp) and op.dim in ("x", "y"):
            if op.parent_block() is not body:
                raise RasterRewriteError(
                    "a gpu.block_id is read in a nested region (expected at the launch's top level)",
                    op,
                )
            ids[op.result] = op.dim
    dependent = _tile_dependent(body, set(ids))
    tiled: set[SSAValue] = set(ids)
    for op in dependent:
        tiled.update(op.results)
    start = barriers[0].next_op if barriers else body.first_op
    per_tile: list[Operation] = []
    op = start
    while op is not None and not isinstance(op, gpu.TerminatorOp):
        per_tile.append(op)
        op = op.next_op
    head = body.first_op
    while head is not None and head is not start:
        if head not in dependent and any(
            operand in tiled for inner in head.walk() for operand in inner.operands
        ):
            raise RasterRewriteError(
                "an op before the block barrier depends on the block ids and is not pure index "
                "arithmetic (it cannot run once per tile)",
                head,
            )
        head = head.next_op

    inside = set(per_tile)
    for value in tiled:
        for use in value.uses:
            top = body.find_ancestor_op_in_block(use.operation)
            if top not in inside and top not in dependent:
                raise RasterRewriteError(
                    "the block ids are read outside the per-tile work after the block barrier",
                    use.operation,
                )
    state = _Persist(rewriter, launch, group, dependent, ids, launch.gridSizeX, launch.gridSizeY)
    ranges = state.place(per_tile)
    if not ranges:
        raise RasterRewriteError("the gpu.launch has no per-tile work after its barrier", launch)
    for moved in ranges:
        _check_ring_loops(moved)
    dealt = {moved[0].parent_op() for moved in ranges if _dealing(moved[0]) is not None}
    for op in body.walk():
        if isinstance(op, scf.IfOp) and PINGPONG_ATTR in op.attributes and op not in dealt:
            raise RasterRewriteError(
                "the ping-pong consumers' per-tile work is not the tile loop's (other per-tile "
                "work around their roles): their tiles cannot be dealt",
                op,
            )

    # The grid: tiles_x x tiles_y tiles on min(T, ctas) blocks.
    outside = InsertPoint.before(launch)
    tiles_x, tiles_y = launch.gridSizeX, launch.gridSizeY
    total = emit(rewriter, outside, arith.MuliOp(tiles_x, tiles_y))
    blocks = emit(rewriter, outside, arith.MinUIOp(total, emit_index(rewriter, outside, ctas)))
    first = len(launch.asyncDependencies)
    launch.operands[first] = blocks
    launch.operands[first + 1] = emit_index(rewriter, outside, 1)
    for op in list(body.walk()):
        if isinstance(op, gpu.GridDimOp) and op.dim in ("x", "y"):
            op.result.replace_all_uses_with(tiles_x if op.dim == "x" else tiles_y)
            rewriter.erase(op)
    for index, dim in _GRID_ARGS.items():
        body.args[index].replace_all_uses_with(tiles_x if dim == "x" else tiles_y)

    for moved in ranges:
        state.wrap(moved, total)
    for op in reversed(dependent):
        if not any(result.uses for result in op.results):
            rewriter.erase(op)
    assert not any(value.uses for value in ids), "checked: every read is per tile"
    for value in ids:
        owner = value.owner
        if isinstance(owner, gpu.BlockIdOp):
            rewriter.erase(owner)
    return launch


__all__ = ["MAX_CTAS", "persistent_tiles"]
