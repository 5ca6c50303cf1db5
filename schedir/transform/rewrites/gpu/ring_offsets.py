"""Ring offsets carried by a loop instead of recomputed (schedir's
`transform.schedir.nvgpu.carry_ring_offsets`; no upstream op).

A multi-buffered k loop (`memref.multibuffer` by d, then pipelined) addresses the slot of
iteration i of its ring as `((i - lb) floordiv step) mod d` times the slot's bytes, which
canonicalization folds into one `affine.apply` of the induction variable per buffer and
per iteration the body addresses (its own, the copies' i + (d-1) step, the fragments'
i + step): a 64-bit division by d and its multiplications in every iteration, on the
path from the barrier to the first shared-memory address. Each such value takes d
values in turn, a constant apart, so the loop can carry it and advance it with an add, a
compare and a select. It carries the value divided by the greatest common divisor of
the ring's values (the slot index times the slot's bytes: the slot index), and the uses
take its product with that unit, whose alignment LLVM sees (the check that picks
ldmatrix over element loads still folds):

    scf.for %i = %c0 to %c4096 step %c64 {           scf.for %i = ... iter_args(%s = %c0) {
      %o = affine.apply affine_map<(d0) ->      ->      %o = arith.muli %s, %c18432
        ((d0 floordiv 64) mod 3) * 18432>(%i)           <uses of %o>
      <uses of %o>                                      %n = arith.addi %s, %c1
    }                                                   %w = arith.cmpi eq, %n, %c3
                                                        %t = arith.select %w, %c0, %n
                                                        scf.yield %t
                                                      }

The loop must be software-pipelined (`pipeline_shared_memory_copies`: its body waits
for asynchronous copies; at partial tiles, where the copies stay synchronous, the ring
is left as it is) and its bounds and step constants. An `affine.apply` of the body (not nested)
qualifies when its map has one dimension and no symbols, its operand is the induction
variable or the induction variable plus a constant, and its values over the loop's
iterations repeat with a period of 2 to 16 iterations, each a constant `delta` above the
one before except where they wrap from the largest back to the smallest (checked on
every iteration). Equal sequences share one carried value. Other applies stay.

Fails (`RingOffsetError`) when the target is not an `scf.for` with constant bounds and
step whose body waits for asynchronous copies, or when no apply of its body qualifies.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine
from schedir.dialects import nvgpu as ng
from schedir.transform.rewrites.rewriter import PayloadRewriteError

MAX_PERIOD = 16
"""The longest period (ring depth) carried."""


class RingOffsetError(PayloadRewriteError):
    """Why a loop's ring offsets cannot be carried (`op`: where the reason applies)."""


@dataclass(frozen=True)
class RingOffsetResult:
    """The new loop (it carries the offsets after the old loop's values) and how many
    applies it replaced."""

    loop: scf.ForOp
    replaced: int


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _iv_plus(value: SSAValue, iv: SSAValue) -> int | None:
    """c where `value` is iv + c (c a constant), else None."""
    if value is iv:
        return 0
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        for a, b in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if a is iv and (c := _constant(b)) is not None:
                return c
    return None


@dataclass(frozen=True)
class _Ring:
    """A carried sequence: its first value, its step and the wrap (smallest, past-largest),
    all multiples of `unit`."""

    first: int
    delta: int
    smallest: int
    past: int

    @property
    def unit(self) -> int:
        """The greatest common divisor of the ring's values (they are carried divided by it)."""
        return math.gcd(self.delta, self.smallest) or 1


def _ring(values: list[int]) -> _Ring | None:
    """The ring that produces `values` (one per iteration), if any."""
    if len(values) < 2:
        return None
    for period in range(2, min(MAX_PERIOD, len(values) - 1) + 1):
        if all(values[t + period] == values[t] for t in range(len(values) - period)):
            break
    else:
        return None
    cycle = values[:period]
    smallest, largest = min(cycle), max(cycle)
    delta = (largest - smallest) // (period - 1) if period > 1 else 0
    if delta <= 0 or smallest + (period - 1) * delta != largest:
        return None
    past = largest + delta
    for now, later in itertools.pairwise(values):
        advanced = now + delta
        if (smallest if advanced == past else advanced) != later:
            return None
    return _Ring(values[0], delta, smallest, past)


def carry_ring_offsets(rewriter: PatternRewriter, loop: Operation) -> RingOffsetResult:
    """Carry `loop`'s periodic applies of its induction variable (module doc); raises
    `RingOffsetError` before changing anything when none qualifies."""
    if not isinstance(loop, scf.ForOp):
        raise RingOffsetError("target is not an scf.for", loop)
    lb, ub, step = (_constant(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        raise RingOffsetError("the loop's bounds and step are not constants", loop)
    body = loop.body.block
    if not any(isinstance(op, ng.DeviceAsyncWaitOp) for op in body.ops):
        raise RingOffsetError(
            "the loop does not wait for asynchronous copies (not pipelined)", loop
        )
    iv = body.args[0]
    ivs = list(range(lb, ub, step))
    rings: dict[_Ring, list[affine.ApplyOp]] = {}
    for op in body.ops:
        if not isinstance(op, affine.ApplyOp):
            continue
        amap = op.map.data
        if amap.num_dims != 1 or amap.num_symbols != 0 or len(op.mapOperands) != 1:
            continue
        offset = _iv_plus(op.mapOperands[0], iv)
        if offset is None:
            continue
        ring = _ring([amap.eval([i + offset], [])[0] for i in ivs])
        if ring is not None:
            rings.setdefault(ring, []).append(op)
    if not rings:
        raise RingOffsetError("no apply of the induction variable repeats in a ring", loop)

    # The rings' constants and first values before the loop; the new loop carries them.
    before = InsertPoint.before(loop)

    def constant(value: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        rewriter.insert(op, before)
        return op.result

    inits = [constant(ring.first // ring.unit) for ring in rings]
    old_args = list(body.args)
    block = Block(arg_types=[a.type for a in old_args] + [IndexType()] * len(rings))
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, *inits], block)
    new.attributes.update(loop.attributes)
    new.location = loop.location
    for old_arg, new_arg in zip(old_args, block.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    for op in list(body.ops):
        op.detach()
        block.add_op(op)
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp)
    carried = block.args[len(old_args) :]
    advanced: list[SSAValue] = []
    end = InsertPoint.before(terminator)
    # The uses take the carried multiple of the ring's unit: a product with a constant,
    # whose alignment LLVM sees (the ldmatrix check folds).
    offsets = [
        arith.MuliOp(value, constant(ring.unit)) for ring, value in zip(rings, carried, strict=True)
    ]
    rewriter.insert(offsets, InsertPoint.at_start(block))
    replaced = 0
    for (ring, applies), value, offset in zip(rings.items(), carried, offsets, strict=True):
        for op in applies:
            rewriter.replace(op, [], [offset.result])
            replaced += 1
        following = arith.AddiOp(value, constant(ring.delta // ring.unit))
        wraps = arith.CmpiOp(following.result, constant(ring.past // ring.unit), "eq")
        chosen = arith.SelectOp(
            wraps.result, constant(ring.smallest // ring.unit), following.result
        )
        rewriter.insert([following, wraps, chosen], end)
        advanced.append(chosen.result)
    rewriter.insert(new, before)
    rewriter.insert(scf.YieldOp(*terminator.operands, *advanced), end)
    rewriter.erase(terminator)
    rewriter.replace(loop, [], list(new.results[: len(loop.results)]))
    return RingOffsetResult(new, replaced)


__all__ = ["MAX_PERIOD", "RingOffsetError", "RingOffsetResult", "carry_ring_offsets"]
