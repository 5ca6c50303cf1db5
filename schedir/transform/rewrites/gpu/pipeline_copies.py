"""Software pipelining of an `scf.for` around its asynchronous global -> shared copies
(upstream's `transform.nvgpu.pipeline_shared_memory_copies`, predicated form).

The loop's body issues `nvgpu.device_async_copy` ops into shared memory (from
`create_async_groups`), waits for them and computes on the data. With `depth` d, the
copies of iteration i + d - 1 are issued in iteration i, so d - 1 iterations' copies are
in flight while one computes:

    scf.for %i = %lb to %ub step %s {                  <copies of %lb>, group, ... <copies of %lb + (d-2) %s>, group
      %t = nvgpu.device_async_copy ... (%i)            scf.for %i = %lb to %ub step %s {
      %g = nvgpu.device_async_create_group %t   ->       %t = nvgpu.device_async_copy ... (%i + (d-1) %s), %n
      nvgpu.device_async_wait %g                         %g = nvgpu.device_async_create_group %t
      <compute on the shared buffers of %i>              nvgpu.device_async_wait %g {numGroups = d - 1}
    }                                                    <compute on the shared buffers of %i>
                                                         gpu.barrier
                                                       }
                                                       nvgpu.device_async_wait %g0 {numGroups = 0}

The copies and the side-effect-free ops they are computed from (indices, views of the
buffers) are cloned for the later iteration; a copy past the loop's end is predicated
off by reading 0 elements (`srcElements` selected to 0: nothing is read, the buffer slot
is zero-filled and never used). Every iteration keeps one group, possibly empty, so that
`numGroups = d - 1` always leaves iteration i's group complete. The buffers must be
multi-buffered by d first (`memref.multibuffer`): iteration i + d - 1 writes the slot
iteration i - 1 read, which the body's closing `gpu.barrier` (added if missing) frees.
After the loop all groups are waited for.

Where the body writes no memory but through its copies (it reads the slots into
registers, as mma.sync fragments do), its first wait is followed by a `gpu.barrier` and
it ends in one, the body keeps one barrier per iteration instead: iteration i waits for
its own group (`numGroups = d - 2`), passes the barrier after the wait (every thread's
copies of i landed, every thread done with the slot of i - 1), and only then issues the
copies of i + d - 1 into that slot; the closing barrier goes. The same d - 1 iterations'
copies are in flight while one computes.

    scf.for %i { wait {numGroups = d - 2}; gpu.barrier; <copies of %i + (d-1) %s>, group;
                 <compute on the buffers of %i> }

Fails (`PipelineError`) when the loop's body has no asynchronous copies, when they are
nested in other ops, when they depend on values the body computes with side effects or
on loop-carried values, or when anything else in the loop writes shared memory (a
synchronous copy cannot be predicated: upstream's "couldn't predicate").
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from schedir.dialects import affine, gpu
from schedir.dialects import nvgpu as ng
from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.nvgpu.types import is_shared_memory_space
from schedir.transform.rewrites.rewriter import PayloadRewriteError


class PipelineError(PayloadRewriteError):
    """Why a loop cannot be pipelined (`op`: where the reason applies)."""


@dataclass(frozen=True)
class PipelineResult:
    """The pipelined loop (rewritten in place) and the copies issued in its body."""

    loop: scf.ForOp
    copies: list[ng.DeviceAsyncCopyOp]


def _pure(op: Operation) -> bool:
    # affine.min/max/apply are pure (schedir's ops do not carry the trait yet).
    return is_side_effect_free(op) or isinstance(op, affine.MinOp | affine.MaxOp | affine.ApplyOp)


def _shared(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, MemRefType) and is_shared_memory_space(t.memory_space)


def _writes_shared(op: Operation) -> bool:
    """Whether `op` (not an async copy) writes shared memory."""
    if isinstance(op, memref.StoreOp | xvector.StoreOp | xvector.TransferWriteOp):
        return _shared(op.operands[1])
    if isinstance(op, memref.CopyOp):
        return _shared(op.operands[1])
    if is_structured(op):
        return any(_shared(v) for v in dps_inits(op))
    return False


_READ_ONLY: tuple[type[Operation], ...] = (
    gpu.BarrierOp,
    ng.DeviceAsyncWaitOp,
    ng.DeviceAsyncCreateGroupOp,
    ng.LdMatrixOp,
    ng.MmaSyncOp,
    memref.LoadOp,
    memref.ExtractStridedMetaDataOp,
    memref.ExtractAlignedPointerAsIndexOp,
    xvector.LoadOp,
    xvector.TransferReadOp,
    scf.IfOp,
    scf.ForOp,
    scf.YieldOp,
)
"""Ops that write no memory themselves (regions are walked separately)."""


def _writes_memory(body: Block, copies: list[ng.DeviceAsyncCopyOp]) -> bool:
    """Whether an op of `body` other than the copies may write memory."""
    for top in body.ops:
        for op in top.walk():
            if op in copies or isinstance(op, _READ_ONLY) or _pure(op):
                continue
            if op.dialect_name() in ("arith", "vector") and not isinstance(
                op, xvector.StoreOp | xvector.TransferWriteOp | xvector.MaskedStoreOp
            ):
                continue
            return True
    return False


def _barrier_after(wait: Operation) -> gpu.BarrierOp | None:
    """The `gpu.barrier` following `wait` with only side-effect-free ops between."""
    at = wait.next_op
    while at is not None and _pure(at):
        at = at.next_op
    return at if isinstance(at, gpu.BarrierOp) else None


def _slice(copies: list[ng.DeviceAsyncCopyOp], body: Block, iv: SSAValue) -> list[Operation]:
    """The ops of `body` the copies are computed from, in body order (PipelineError when
    one has side effects or reads a loop-carried value)."""
    needed: set[Operation] = set()
    stack: list[SSAValue] = [o for c in copies for o in c.operands]
    while stack:
        value = stack.pop()
        owner = value.owner
        if isinstance(owner, Block):
            if owner is body and value is not iv:
                raise PipelineError("a copy depends on a loop-carried value", copies[0])
            continue
        if owner.parent_block() is not body or owner in needed:
            continue
        if not _pure(owner):
            raise PipelineError(f"a copy depends on '{owner.name}', which has side effects", owner)
        needed.add(owner)
        stack.extend(owner.operands)
    return [op for op in body.ops if op in needed]


def _index(rewriter: PatternRewriter, at: InsertPoint, value: int) -> SSAValue:
    constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
    rewriter.insert(constant, at)
    return constant.result


def _issue(
    rewriter: PatternRewriter,
    at: InsertPoint,
    ops: list[Operation],
    iv: SSAValue,
    at_iv: SSAValue,
    ub: SSAValue,
) -> tuple[list[ng.DeviceAsyncCopyOp], ng.DeviceAsyncCreateGroupOp]:
    """Clone `ops` (the slice and the copies) for the iteration `at_iv`, the copies
    predicated on `at_iv < ub`, and group them."""
    mapping: dict[SSAValue, SSAValue] = {iv: at_iv}
    inside = arith.CmpiOp(at_iv, ub, "slt")
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    rewriter.insert([inside, zero], at)
    copies: list[ng.DeviceAsyncCopyOp] = []
    for op in ops:
        if not isinstance(op, ng.DeviceAsyncCopyOp):
            new = op.clone(mapping)
            for old, result in zip(op.results, new.results, strict=True):
                mapping[old] = result
            new.location = op.location
            rewriter.insert(new, at)
            continue
        count = op.src_elements
        count = (
            _index(rewriter, at, op.dst_elements) if count is None else mapping.get(count, count)
        )
        predicated = arith.SelectOp(inside.result, count, zero.result)
        rewriter.insert(predicated, at)
        copy = ng.DeviceAsyncCopyOp(
            mapping.get(op.src, op.src),
            [mapping.get(i, i) for i in op.src_indices],
            mapping.get(op.dst, op.dst),
            [mapping.get(i, i) for i in op.dst_indices],
            op.dst_elements,
            predicated.result,
            bypass_l1=op.bypassL1 is not None,
        )
        copy.location = op.location
        rewriter.insert(copy, at)
        mapping[op.async_token] = copy.async_token
        copies.append(copy)
    group = ng.DeviceAsyncCreateGroupOp([c.async_token for c in copies])
    group.location = copies[0].location
    rewriter.insert(group, at)
    return copies, group


def pipeline_shared_memory_copies(
    rewriter: PatternRewriter, loop: Operation, depth: int
) -> PipelineResult:
    """Pipeline `loop` by `depth` (module doc); raises `PipelineError` before changing
    anything when it does not qualify."""
    if not isinstance(loop, scf.ForOp):
        raise PipelineError("target is not an scf.for", loop)
    if depth < 2:
        raise PipelineError(f"depth must be at least 2, got {depth}", loop)
    body = loop.body.block
    iv = body.args[0]
    copies = [op for op in body.ops if isinstance(op, ng.DeviceAsyncCopyOp)]
    if not copies:
        raise PipelineError("the loop issues no asynchronous copies in its body", loop)
    for op in loop.walk():
        if isinstance(op, ng.DeviceAsyncCopyOp) and op.parent_block() is not body:
            raise PipelineError("an asynchronous copy is nested in the loop's body", op)
        if _writes_shared(op):
            raise PipelineError("couldn't predicate a synchronous write of shared memory", op)
    groups = [op for op in body.ops if isinstance(op, ng.DeviceAsyncCreateGroupOp)]
    waits = [op for op in body.ops if isinstance(op, ng.DeviceAsyncWaitOp)]
    tokens = {c.async_token for c in copies}
    if any(not set(g.input_tokens) <= tokens for g in groups) or not waits:
        raise PipelineError("the copies' groups and waits are not the body's own", loop)
    stage = _slice(copies, body, iv)
    ops = sorted([*stage, *copies], key=lambda o: body.get_operation_index(o))
    step, lb, ub = loop.step, loop.lb, loop.ub

    # Prologue: the first depth - 1 iterations' copies.
    before = InsertPoint.before(loop)
    last_group: ng.DeviceAsyncCreateGroupOp | None = None
    for s in range(depth - 1):
        offset = arith.MuliOp(step, _index(rewriter, before, s))
        at_iv = arith.AddiOp(lb, offset.result)
        rewriter.insert([offset, at_iv], before)
        _, last_group = _issue(rewriter, before, ops, iv, at_iv.result, ub)
    assert last_group is not None

    first_wait = waits[0]
    terminator = body.last_op
    assert terminator is not None
    previous = terminator.prev_op
    while previous is not None and _pure(previous):
        previous = previous.prev_op
    top = _barrier_after(first_wait)
    if top is not None and isinstance(previous, gpu.BarrierOp) and not _writes_memory(body, copies):
        # One barrier per iteration: wait for iteration i's group (depth - 2 later ones in
        # flight), the barrier (every thread's copies of i landed, every thread done with
        # iteration i - 1's slot), then iteration i + depth - 1's copies into that slot.
        wait = ng.DeviceAsyncWaitOp(last_group.async_token, depth - 2)
        wait.location = first_wait.location
        rewriter.insert(wait, InsertPoint.before(top))
        at = InsertPoint.after(top)
        ahead = arith.MuliOp(step, _index(rewriter, at, depth - 1))
        at_iv = arith.AddiOp(iv, ahead.result)
        rewriter.insert([ahead, at_iv], at)
        new_copies, _ = _issue(rewriter, at, ops, iv, at_iv.result, ub)
        rewriter.erase(previous)
    else:
        # Iteration i + depth - 1's copies where the first wait was, a closing barrier.
        at = InsertPoint.before(first_wait)
        ahead = arith.MuliOp(step, _index(rewriter, at, depth - 1))
        at_iv = arith.AddiOp(iv, ahead.result)
        rewriter.insert([ahead, at_iv], at)
        new_copies, group = _issue(rewriter, at, ops, iv, at_iv.result, ub)
        wait = ng.DeviceAsyncWaitOp(group.async_token, depth - 1)
        wait.location = first_wait.location
        rewriter.insert(wait, at)
        if not isinstance(previous, gpu.BarrierOp):
            # The next iteration's copies overwrite the slot this one read.
            barrier = gpu.BarrierOp()
            barrier.location = loop.location
            rewriter.insert(barrier, InsertPoint.before(terminator))
    for old in [*waits, *groups]:
        rewriter.erase(old)
    for copy in reversed(copies):
        rewriter.erase(copy)

    # Epilogue: no copy left in flight.
    drain = ng.DeviceAsyncWaitOp(last_group.async_token, 0)
    drain.location = loop.location
    rewriter.insert(drain, InsertPoint.after(loop))
    return PipelineResult(loop, new_copies)


__all__ = ["PipelineError", "PipelineResult", "pipeline_shared_memory_copies"]
