"""Software pipelining of an mma.sync loop's register fragments across its k steps
(schedir's `transform.schedir.nvgpu.pipeline_fragments`; no upstream op).

The target is a k loop that `pipeline_shared_memory_copies` pipelined in its one-barrier
form: each iteration waits for its own copies, passes a barrier, issues the copies of a
later iteration and computes on its shared slot in k sub-steps, each loading fragments
(`nvgpu.ldmatrix`, or element loads at partial tiles) and then issuing the mma.sync ops
that use them. Within an iteration ptxas interleaves the fragment loads of a sub-step
with the mma.sync ops of the one before; across the barrier it cannot, so each
iteration starts with the fragment loads of its first sub-step exposed. This rewrite
moves the wait, the barrier and the first sub-step's fragment loads of iteration i + 1
into iteration i, after its last shared-memory read and before its last mma.sync ops,
and carries the fragments into the next iteration (CUTLASS's multistage main loop):

    scf.for %i iter_args(%acc) {                 wait; gpu.barrier; <F0 of %lb>
      wait; gpu.barrier                          scf.for %i iter_args(%acc, %f = <F0 of %lb>) {
      <copies of %i + (d-1) %s>           ->       <copies of %i + (d-1) %s>
      <F0 of %i>; mma(F0)                          mma(%f); <F1 of %i>; mma(F1); ...; <Fn of %i>
      <F1 of %i>; mma(F1) ... <Fn>; mma(Fn)        wait; gpu.barrier; <F0 of %i + %s>
    }                                              mma(Fn); yield ..., <F0 of %i + %s>
                                                 }

The first sub-step's fragments are the A and B operands of the mma.sync ops whose
accumulator is one of the loop's carried values; their loads are cloned with the ops
(side-effect free, or reading memory only) they are computed from. Iteration i + d - 1's
copies, now issued at the top of iteration i, follow the barrier of iteration i - 1,
which every read of the slot they overwrite (that of i - 1) precedes: the moved barrier
sits after the iteration's last shared-memory read. The wait keeps its group count: it
now waits, one group later, for the copies of i + 1. The last iteration loads fragments
of iteration `ub` from a slot of the ring (zero-filled by predicated-off copies) and
drops them.

With `double_buffer`, the fragments of each later sub-step are also loaded before the
previous sub-step's mma.sync ops (with the ops they are computed from that follow
those), so that two sub-steps' fragments are live at once (registers double-buffered)
and every ldmatrix has a sub-step's mma.sync ops to hide under:

    mma(%f); <F1>; mma(F1); ...; <Fn>; wait; barrier; <F0'>; mma(Fn)
    -> <F1>; mma(%f); <F2>; mma(F1); ...; <Fn>; mma(Fn-1); wait; barrier; <F0'>; mma(Fn)

(a sub-step of the n-th mma.sync ops of the accumulator chains).

Fails (`FragmentPipelineError`, before changing anything) when the loop is not an
`scf.for`, when its body does not start with a `nvgpu.device_async_wait` and a
`gpu.barrier` (side-effect-free ops around them) before any other op with effects (it was
not pipelined: at partial tiles the copies stay synchronous), when it has no mma.sync on
a carried accumulator, or when the first sub-step's fragments depend on other carried
values or on ops that write memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects import vector as xvector
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from schedir.dialects import affine, gpu
from schedir.dialects import nvgpu as ng
from schedir.transform.rewrites.rewriter import PayloadRewriteError


class FragmentPipelineError(PayloadRewriteError):
    """Why a loop's fragments cannot be pipelined (`op`: where the reason applies)."""


@dataclass(frozen=True)
class FragmentPipelineResult:
    """The new loop (it carries the fragments besides the old loop's values) and the
    barrier moved into its body."""

    loop: scf.ForOp
    barrier: gpu.BarrierOp


def _pure(op: Operation) -> bool:
    # affine.min/max/apply are pure (schedir's ops do not carry the trait yet).
    return is_side_effect_free(op) or isinstance(op, affine.MinOp | affine.MaxOp | affine.ApplyOp)


_READS = (
    ng.LdMatrixOp,
    memref.LoadOp,
    xvector.LoadOp,
    xvector.TransferReadOp,
    memref.ExtractStridedMetaDataOp,
    memref.ExtractAlignedPointerAsIndexOp,
)
"""Ops that read memory and write none."""


def _reads_only(op: Operation) -> bool:
    """Whether `op` and the ops nested in it write no memory and synchronize nothing."""
    for inner in op.walk():
        if isinstance(inner, (*_READS, scf.IfOp, scf.YieldOp)) or _pure(inner):
            continue
        # arith's divisions and remainders are not speculatable but write nothing.
        if inner.dialect_name() in ("arith", "vector") and not isinstance(
            inner, xvector.StoreOp | xvector.TransferWriteOp | xvector.MaskedStoreOp
        ):
            continue
        return False
    return True


def _reads(op: Operation) -> bool:
    """Whether `op` or an op nested in it loads from memory (fragments, elements)."""
    return any(
        isinstance(inner, ng.LdMatrixOp | memref.LoadOp | xvector.LoadOp | xvector.TransferReadOp)
        for inner in op.walk()
    )


def _head(loop: scf.ForOp) -> tuple[ng.DeviceAsyncWaitOp, gpu.BarrierOp]:
    """The body's leading wait and barrier (only side-effect-free ops before and between)."""
    at = loop.body.block.first_op
    while at is not None and _pure(at):
        at = at.next_op
    if not isinstance(at, ng.DeviceAsyncWaitOp):
        raise FragmentPipelineError(
            "the loop's body does not start with a wait for its copies (not pipelined)", loop
        )
    wait = at
    at = at.next_op
    while at is not None and _pure(at):
        at = at.next_op
    if not isinstance(at, gpu.BarrierOp):
        raise FragmentPipelineError("the loop's wait is not followed by a barrier", wait)
    return wait, at


def _slice(roots: list[SSAValue], loop: scf.ForOp) -> list[Operation]:
    """The ops of `body` the values `roots` are computed from (operands of nested ops
    included), in body order; FragmentPipelineError when one may write memory or a value
    is carried by the loop."""
    body = loop.body.block
    iv = body.args[0]
    needed: set[Operation] = set()
    stack = list(roots)
    while stack:
        value = stack.pop()
        owner = value.owner
        if isinstance(owner, Block):
            if owner is body and value is not iv:
                raise FragmentPipelineError(
                    "a fragment of the first k sub-step depends on a loop-carried value", loop
                )
            continue
        top = owner
        while top.parent_block() is not None and top.parent_block() is not body:
            parent = top.parent_op()
            if parent is None:
                break
            top = parent
        if top.parent_block() is not body or top in needed:
            continue
        if not _reads_only(top):
            raise FragmentPipelineError(
                f"a fragment of the first k sub-step depends on '{top.name}', which writes "
                "memory or synchronizes",
                top,
            )
        needed.add(top)
        for inner in top.walk():
            stack.extend(inner.operands)
    return [op for op in body.ops if op in needed]


def _sub_steps(block: Block, carried: set[SSAValue]) -> list[list[ng.MmaSyncOp]]:
    """The mma.sync ops of `block` by k sub-step: an accumulator chain's n-th op (from a
    carried value) is in sub-step n."""
    depth: dict[Operation, int] = {}
    steps: list[list[ng.MmaSyncOp]] = []
    for op in block.ops:
        if not isinstance(op, ng.MmaSyncOp):
            continue
        owner = op.matrix_c.owner
        if op.matrix_c in carried:
            n = 0
        elif isinstance(owner, Operation) and owner in depth:
            n = depth[owner] + 1
        else:
            continue
        depth[op] = n
        while len(steps) <= n:
            steps.append([])
        steps[n].append(op)
    return steps


def _top(op: Operation, block: Block) -> Operation | None:
    """The op of `block` that is or contains `op`."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _load_ahead(rewriter: PatternRewriter, block: Block, carried: set[SSAValue]) -> int:
    """Move each k sub-step's fragment loads (and the ops they are computed from that
    follow) before the previous sub-step's first mma.sync; returns how many sub-steps
    moved. A sub-step whose loads depend on an op that writes memory or synchronizes
    after that point stays."""
    moved = 0
    steps = _sub_steps(block, carried)
    for n in range(1, len(steps)):
        target = steps[n - 1][0]
        if target.parent_block() is not block:
            continue
        at = block.get_operation_index(target)
        needed: set[Operation] = set()
        stack = [v for m in steps[n] for v in (m.matrix_a, m.matrix_b)]
        legal = True
        while stack and legal:
            value = stack.pop()
            if isinstance(value.owner, Block):
                continue
            top = _top(value.owner, block)
            if top is None or top in needed or block.get_operation_index(top) < at:
                continue
            if not _reads_only(top):
                legal = False
                break
            needed.add(top)
            for inner in top.walk():
                stack.extend(inner.operands)
        if not legal or not needed:
            continue
        for op in [o for o in block.ops if o in needed]:
            op.detach()
            rewriter.insert(op, InsertPoint.before(target))
        moved += 1
    return moved


def pipeline_fragments(
    rewriter: PatternRewriter, loop: Operation, *, double_buffer: bool = False
) -> FragmentPipelineResult:
    """Pipeline the first k sub-step's fragments of `loop` across its barrier (module
    doc) and, with `double_buffer`, each later sub-step's before the previous one's
    mma.sync ops; raises `FragmentPipelineError` before changing anything when it does not
    qualify."""
    if not isinstance(loop, scf.ForOp):
        raise FragmentPipelineError("target is not an scf.for", loop)
    body = loop.body.block
    iv = body.args[0]
    carried = set(body.args[1:])
    wait, barrier = _head(loop)
    mmas = [op for op in body.ops if isinstance(op, ng.MmaSyncOp)]
    first = [m for m in mmas if m.matrix_c in carried]
    if not first:
        raise FragmentPipelineError("no mma.sync of the loop accumulates a carried value", loop)
    fragments: list[SSAValue] = []
    for mma in first:
        for value in (mma.matrix_a, mma.matrix_b):
            if value not in fragments:
                fragments.append(value)
    head = _slice(fragments, loop)
    if any(
        body.get_operation_index(op) < body.get_operation_index(barrier) and _reads(op)
        for op in head
    ):
        raise FragmentPipelineError("a fragment is loaded before the loop's barrier", loop)
    head_set = set(head)
    # The moved wait and barrier go after the body's last read of shared memory outside
    # the head and after its copies (the wait's group count counts them).
    later = [
        op
        for op in body.ops
        if (op not in head_set and _reads(op)) or isinstance(op, ng.DeviceAsyncCreateGroupOp)
    ]
    if not later:
        raise FragmentPipelineError("the loop issues no copies after its barrier", loop)
    anchor = later[-1]
    terminator = body.last_op
    assert isinstance(terminator, scf.YieldOp)

    # Before the loop: the wait, the barrier and the first iteration's fragments.
    before = InsertPoint.before(loop)
    mapping: dict[SSAValue, SSAValue] = {iv: loop.lb}
    rewriter.insert([wait.clone(), barrier.clone()], before)
    for op in head:
        rewriter.insert(op.clone(mapping), before)
    inits = [mapping[f] for f in fragments]

    # The new loop carries the fragments.
    block = Block(arg_types=[a.type for a in body.args] + [f.type for f in fragments])
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, *inits], block)
    new.attributes.update(loop.attributes)
    new.location = loop.location
    rewriter.insert(new, InsertPoint.before(loop))
    for old_arg, new_arg in zip(body.args, block.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    for op in list(body.ops):
        op.detach()
        block.add_op(op)
    new_iv = block.args[0]
    carried_fragments = block.args[len(body.args) :]
    # The first sub-step's mma.sync ops take the carried fragments.
    for mma in first:
        operands = list(mma.operands)
        for index, value in enumerate(operands):
            if value in fragments and index < 2:
                operands[index] = carried_fragments[fragments.index(value)]
        mma.operands = operands
    # After the last read: the wait, the barrier and the next iteration's fragments.
    at = InsertPoint.after(anchor)
    following = arith.AddiOp(new_iv, new.step)
    following.location = loop.location
    moved_wait, moved_barrier = wait.clone(), barrier.clone()
    rewriter.insert([moved_wait, moved_barrier, following], at)
    mapping = {new_iv: following.result}
    at = InsertPoint.after(following)
    for op in head:
        clone = op.clone(mapping)
        rewriter.insert(clone, at)
        at = InsertPoint.after(clone)
    yielded = [*terminator.operands, *(mapping[f] for f in fragments)]
    rewriter.insert(scf.YieldOp(*yielded), InsertPoint.before(terminator))
    rewriter.erase(terminator)
    rewriter.erase(wait)
    rewriter.erase(barrier)
    # The old head ops the body no longer uses.
    for op in reversed(head):
        if all(not r.uses for r in op.results):
            rewriter.erase(op)
    rewriter.replace(loop, [], list(new.results[: len(loop.results)]))
    if double_buffer:
        _load_ahead(rewriter, block, set(block.args[1:]))
    return FragmentPipelineResult(new, moved_barrier)


__all__ = ["FragmentPipelineError", "FragmentPipelineResult", "pipeline_fragments"]
