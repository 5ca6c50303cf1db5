"""Hoisting of redundant vector transfers and broadcasts out of loops (upstream
Linalg/Transforms/Hoisting.cpp).

`hoist_redundant_vector_transfers(func)`: after LICM, a `vector.transfer_read` of a buffer
whose operands are loop invariant, matched by a later `vector.transfer_write` of the same
vector to the same indices, moves before the loop and the write after it; the vector is
carried by a new iter_arg. Nothing else in the loop may touch that buffer except provably
disjoint transfers (views are followed through static, unit-stride subviews). A lone read
of a buffer the loop never writes moves out alone.

    scf.for %k = %c0 to %c512 step %c8 {
      %acc = vector.transfer_read %C[%c0, %c0], %pad : memref<4x1xf32>, vector<4x1xf32>
      %r = vector.contract ... %acc
      vector.transfer_write %r, %C[%c0, %c0] : vector<4x1xf32>, memref<4x1xf32>
    }
  =>
    %acc0 = vector.transfer_read %C[%c0, %c0], %pad : memref<4x1xf32>, vector<4x1xf32>
    %acc = scf.for %k = %c0 to %c512 step %c8 iter_args(%a = %acc0) -> (vector<4x1xf32>) {
      %r = vector.contract ... %a
      scf.yield %r : vector<4x1xf32>
    }
    vector.transfer_write %acc, %C[%c0, %c0] : vector<4x1xf32>, memref<4x1xf32>

`hoist_redundant_vector_broadcasts(root)`: a loop-carried vector that the body only
`vector.extract`s from and re-`vector.broadcast`s is carried as the extracted value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import affine, arith, scf
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from schedir.dialects import gpu, nvgpu, nvvm, vector
from schedir.dialects import scf as schedir_scf
from schedir.dialects.affine import ApplyOp
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.effects import is_memory_effect_free
from schedir.transform.rewrites.gpu.mapping import WORKGROUP_BUFFER
from schedir.transform.rewrites.loops.licm import is_defined_outside, move_loop_invariant_code

_VIEW_LIKE: tuple[type[Operation], ...] = (
    xmemref.SubviewOp,
    xmemref.CastOp,
    xmemref.ReinterpretCastOp,
    xmemref.ExpandShapeOp,
    xmemref.CollapseShapeOp,
    xmemref.ViewOp,
    xmemref.MemorySpaceCastOp,
)
"""Upstream's `ViewLikeOpInterface` ops (their result aliases their first operand;
xDSL's classes, which schedir's memref ops subclass). Upstream's `memref.transpose` is
one too; no dialect here defines it."""

Xfer = vector.TransferReadOp | vector.TransferWriteOp

_LOOPS = (scf.ForOp, affine.ForOp)
"""The loops a redundant transfer is hoisted out of."""

_LICM_LOOPS = (scf.ForOp, schedir_scf.ForallOp, scf.ParallelOp, scf.WhileOp, affine.ForOp)
"""The loops loop-invariant code motion runs on first."""


def _loops(root: Operation) -> list[Operation]:
    return [op for op in root.walk() if isinstance(op, _LICM_LOOPS)]


def _licm(root: Operation) -> None:
    for loop in _loops(root):
        move_loop_invariant_code(loop)


def _move_before(op: Operation, anchor: Operation) -> None:
    op.detach()
    block = anchor.parent_block()
    assert block is not None
    block.insert_op_before(op, anchor)


def _move_after(op: Operation, anchor: Operation) -> None:
    op.detach()
    block = anchor.parent_block()
    assert block is not None
    block.insert_op_after(op, anchor)


def _replace_loop(
    loop: scf.ForOp, inits: Sequence[SSAValue], yields: Callable[[scf.YieldOp], list[SSAValue]]
) -> scf.ForOp:
    """A new `scf.for` with `inits` taking over `loop`'s body (block arguments retyped
    like the inits) and yielding `yields(old terminator)`; `loop` is erased, its results
    replaced by the new loop's leading results."""
    old_block = loop.body.block
    block = Block(arg_types=[old_block.args[0].type, *(v.type for v in inits)])
    new = scf.ForOp(loop.lb, loop.ub, loop.step, list(inits), block)
    new.attributes.update(loop.attributes)
    new.location = loop.location
    parent = loop.parent_block()
    assert parent is not None
    parent.insert_op_before(new, loop)
    for old_arg, new_arg in zip(old_block.args, block.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    terminator = cast(scf.YieldOp, old_block.last_op)
    values = yields(terminator)
    for op in list(old_block.ops):
        op.detach()
        if op is terminator:
            continue
        block.add_op(op)
    new_yield = scf.YieldOp(*values)
    new_yield.location = terminator.location
    block.add_op(new_yield)
    terminator.erase(safe_erase=False)
    for old, replacement in zip(loop.results, new.results, strict=False):
        old.replace_all_uses_with(replacement)
    loop.detach()
    loop.erase()
    return new


# --- transfers ---------------------------------------------------------------------------------


def _base(op: Xfer) -> SSAValue:
    return op.source


def _forward_slice(op: Operation) -> list[Operation]:
    """Upstream's `getForwardSlice`: the ops using `op`'s results (and what is nested in
    them), transitively, in program order."""
    seen: dict[Operation, None] = {}
    work = [op]
    while work:
        current = work.pop()
        for nested in current.walk():
            if nested is not current and nested not in seen:
                seen[nested] = None
                work.append(nested)
        for result in current.results:
            for use in result.uses:
                if use.operation not in seen:
                    seen[use.operation] = None
                    work.append(use.operation)
    parent = op.parent_op()
    order = {o: i for i, o in enumerate(parent.walk())} if parent is not None else {}
    return sorted(seen, key=lambda o: order.get(o, 0))


def _no_aliasing_use_in_loop(read: vector.TransferReadOp, loop: Operation) -> bool:
    """Upstream's `noAliasingUseInLoop`."""
    source = _base(read)
    while isinstance(source, OpResult) and isinstance(source.op, _VIEW_LIKE):
        source = source.op.operands[0]
    users = [use.operation for use in source.uses]
    processed: set[Operation] = set()
    while users:
        user = users.pop()
        if user in processed:
            continue
        processed.add(user)
        if isinstance(user, _VIEW_LIKE):
            users.extend(use.operation for use in user.results[0].uses)
            continue
        if is_memory_effect_free(user) or isinstance(user, vector.TransferReadOp):
            continue
        if not loop.is_ancestor(user):
            continue
        return False
    return True


@dataclass(frozen=True)
class _Footprint:
    root: SSAValue
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]


def _footprint(base: SSAValue) -> _Footprint | None:
    """Upstream's `resolveSubviewFootprint`: the static box a chain of rank-preserving,
    unit-stride subviews covers in its root buffer."""
    chain: list[xmemref.SubviewOp] = []
    source = base
    while isinstance(source, OpResult) and isinstance(source.op, xmemref.SubviewOp):
        chain.append(source.op)
        source = source.op.source
    if isinstance(source, OpResult) and isinstance(source.op, _VIEW_LIKE):
        return None
    root_type = source.type
    if not isinstance(root_type, MemRefType) or -1 in root_type.get_shape():
        return None
    offsets = [0] * len(root_type.get_shape())
    sizes = list(root_type.get_shape())
    for subview in reversed(chain):
        src_rank = len(cast(MemRefType, subview.source.type).get_shape())
        if src_rank != len(cast(MemRefType, subview.result.type).get_shape()):
            return None
        static = [
            list(values.get_values())
            for values in (subview.static_offsets, subview.static_sizes, subview.static_strides)
        ]
        if any(v < -(2**62) for v in static[0] + static[1]) or any(s != 1 for s in static[2]):
            return None
        for d in range(src_rank):
            offsets[d] += static[0][d]
            sizes[d] = static[1][d]
    return _Footprint(source, tuple(offsets), tuple(sizes))


def _skip_views(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and isinstance(value.op, _VIEW_LIKE):
        value = value.op.operands[0]
    return value


def _footprint_aliasing_is_safe(
    loop: Operation, read: vector.TransferReadOp, write: vector.TransferWriteOp
) -> bool:
    """Upstream's `footprintAliasingIsSafe`."""
    ours = _footprint(_base(read))
    if ours is None:
        return False

    def reaches(operand: SSAValue) -> bool:
        return isinstance(operand.type, MemRefType) and _skip_views(operand) is ours.root

    for op in loop.walk():
        if op is loop or op is read or op is write:
            continue
        if isinstance(op, Xfer):
            other = _base(op)
            if not reaches(other):
                continue
            theirs = _footprint(other)
            if theirs is not None and _disjoint_boxes(ours, theirs):
                continue
            return False
        if not is_memory_effect_free(op) and any(reaches(v) for v in op.operands):
            return False
    return True


def _disjoint_boxes(a: _Footprint, b: _Footprint) -> bool:
    if a.root is not b.root:
        return False
    return any(
        a.offsets[d] + a.sizes[d] <= b.offsets[d] or b.offsets[d] + b.sizes[d] <= a.offsets[d]
        for d in range(len(a.offsets))
    )


_Term = SSAValue | tuple[AffineExpr, tuple[SSAValue, ...], int]
"""An opaque summand: a value, or a non-linear affine sub-expression (floordiv, mod, ...)
over an `affine.apply`'s operands (map dims first), equal wherever both are equal."""


def _linear(value: SSAValue, depth: int = 0) -> tuple[dict[_Term, int], int]:
    """`value` as a sum of integer multiples of opaque terms plus a constant, looking
    through constants, `arith.addi` / `subi` / `muli` by a constant and `affine.apply`
    (upstream composes affine maps for the same purpose)."""
    const = constant_int(value)
    if const is not None:
        return {}, const
    if depth < 16 and isinstance(value, OpResult):
        op = value.op
        if isinstance(op, arith.AddiOp | arith.SubiOp):
            (ta, ca), (tb, cb) = (
                _linear(op.operands[0], depth + 1),
                _linear(op.operands[1], depth + 1),
            )
            sign = 1 if isinstance(op, arith.AddiOp) else -1
            terms = dict(ta)
            for k, v in tb.items():
                terms[k] = terms.get(k, 0) + sign * v
            return {k: v for k, v in terms.items() if v}, ca + sign * cb
        if isinstance(op, arith.MuliOp):
            for a, b in ((0, 1), (1, 0)):
                factor = constant_int(op.operands[b])
                if factor is not None:
                    terms, c = _linear(op.operands[a], depth + 1)
                    return {k: v * factor for k, v in terms.items() if v * factor}, c * factor
        if isinstance(op, ApplyOp):
            m = op.map.data
            form = _affine_linear(m.results[0], list(op.mapOperands), m.num_dims, depth)
            if form is not None:
                return form
    return {value: 1}, 0


def _affine_linear(
    expr: AffineExpr, operands: Sequence[SSAValue], num_dims: int, depth: int
) -> tuple[dict[_Term, int], int] | None:
    """An affine expression over `operands` as a linear form, expanded through `_linear`;
    its non-linear sub-expressions are opaque terms (two clones of one map that differ by
    a constant, as the pieces of a tiled loop unrolled, then have that delta)."""
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        position = expr.position if isinstance(expr, AffineDimExpr) else num_dims + expr.position
        return _linear(operands[position], depth + 1)
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        lhs = _affine_linear(expr.lhs, operands, num_dims, depth)
        rhs = _affine_linear(expr.rhs, operands, num_dims, depth)
        if lhs is None or rhs is None:
            return None
        terms = dict(lhs[0])
        for k, v in rhs[0].items():
            terms[k] = terms.get(k, 0) + v
        return {k: v for k, v in terms.items() if v}, lhs[1] + rhs[1]
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Mul
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        inner = _affine_linear(expr.lhs, operands, num_dims, depth)
        if inner is None:
            return None
        factor = expr.rhs.value
        return {k: v * factor for k, v in inner[0].items() if v * factor}, inner[1] * factor
    return {(expr, tuple(operands), num_dims): 1}, 0


def _constant_delta(a: SSAValue, b: SSAValue) -> int | None:
    """Upstream's `fullyComposeAndComputeConstantDelta`: a - b when it is a constant."""
    ta, ca = _linear(a)
    tb, cb = _linear(b)
    if ta != tb:
        return None
    return ca - cb


def disjoint_transfers(a: Xfer, b: Xfer) -> bool:
    """Upstream's `isDisjointTransferSet` (with the dynamic test by constant deltas)."""
    if _base(a) is not _base(b):
        return False
    va = _vector_type(a)
    if va != _vector_type(b):
        return False
    ia = list(a.indices)
    ib = list(b.indices)
    rank_offset = len(ia) - va.get_num_dims()
    for i, (x, y) in enumerate(zip(ia, ib, strict=True)):
        delta = _constant_delta(x, y)
        if i < rank_offset:
            if delta is not None and delta != 0:
                return True
            continue
        if delta is not None and abs(delta) >= va.get_shape()[i - rank_offset]:
            return True
    return False


def _vector_type(op: Xfer) -> VectorType:
    value = op.result if isinstance(op, vector.TransferReadOp) else op.vector
    return cast(VectorType, value.type)


def _non_zero_trip(loop: Operation) -> bool:
    """Whether the loop provably runs (constant bounds with lb < ub)."""
    lb, ub = constant_int(loop.operands[0]), constant_int(loop.operands[1])
    return lb is not None and ub is not None and lb < ub


def _dominates(a: Operation, b: Operation) -> bool:
    """`a` properly dominates `b` (structured control flow: `a` precedes an ancestor of
    `b` in `a`'s block)."""
    block = a.parent_block()
    current: Operation | None = b
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    if current is None or current is a:
        return False
    return a.is_before_in_block(current)


_SYNCHRONIZING = (
    gpu.BarrierOp,
    nvvm.BarrierOp,
    nvvm.Barrier0Op,
    nvgpu.MBarrierArriveOp,
    nvgpu.MBarrierArriveNoCompleteOp,
    nvgpu.MBarrierArriveExpectTxOp,
    nvgpu.MBarrierTestWaitOp,
    nvgpu.MBarrierTryWaitParityOp,
)
"""Ops through which the threads of a block see each other's memory writes."""


def _synchronizes(loop: Operation) -> bool:
    """Whether the threads running `loop` wait for each other in it."""
    return any(isinstance(op, _SYNCHRONIZING) for op in loop.walk())


def _shared_by_threads(base: SSAValue) -> bool:
    """Whether `base` views a block's shared memory (the workgroup address space, or an
    allocation the GPU mapping marked as the threads' shared buffer): the memory a block's
    threads communicate through. A thread's tiles of global or private memory are its own
    under the mapping of the foralls to threads."""
    root = _skip_views(base)
    space = root.type.memory_space if isinstance(root.type, MemRefType) else None
    if space == gpu.AddressSpaceAttr.workgroup():
        return True
    return isinstance(root, OpResult) and WORKGROUP_BUFFER in root.op.attributes


def _try_hoist_read(read: vector.TransferReadOp, verify_non_zero_trip: bool) -> bool:
    """One step of upstream's walk over transfer_reads; True when the IR changed in a way
    that needs the walk to restart."""
    if not isinstance(read.source.type, MemRefType):
        return False
    loop = read.parent_op()
    if not isinstance(loop, _LOOPS) or read.parent_block() is not loop.regions[0].block:
        return False
    if verify_non_zero_trip and not _non_zero_trip(loop):
        return False
    write: vector.TransferWriteOp | None = None
    for candidate in reversed(_forward_slice(read)):
        if isinstance(candidate, vector.TransferWriteOp) and _base(candidate) is read.source:
            write = candidate
    if any(not is_defined_outside(v, loop) for v in read.operands):
        return False
    if write is None:
        if _no_aliasing_use_in_loop(read, loop):
            _move_before(read, loop)
        return False
    if (
        list(read.indices) != list(write.indices)
        or read.result.type != write.vector.type
        or read.permutation_map != write.permutation_map
    ):
        return False
    base = read.source
    source = base.op if isinstance(base, OpResult) else None
    safe: list[bool] = []

    def view_safe() -> bool:
        if not safe:
            safe.append(_footprint_aliasing_is_safe(loop, read, write))
        return safe[0]

    if isinstance(source, _VIEW_LIKE) and not view_safe():
        return False
    if any(isinstance(use.operation, _VIEW_LIKE) for use in base.uses) and not view_safe():
        return False
    if not _dominates(read, write):
        return False
    others = False
    for use in base.uses:
        user = use.operation
        if not loop.is_ancestor(user) or user is read or user is write:
            continue
        if isinstance(user, Xfer):
            if not disjoint_transfers(write, user):
                return False
            others = True
            continue
        return False
    if others and _shared_by_threads(base) and _synchronizes(loop):
        # Disjoint indices are disjoint for one thread; in a GPU kernel the other threads
        # run the same transfers at other thread ids, and across a barrier in the loop one
        # may read in shared memory what another wrote in the previous iteration: the
        # write must stay.
        return False
    if not isinstance(loop, scf.ForOp) or write.parent_block() is not loop.regions[0].block:
        return False
    _move_before(read, loop)
    _move_after(write, loop)
    new = _replace_loop(
        loop,
        [*loop.iter_args, read.result],
        lambda term: [*term.operands, write.vector],
    )
    carried = new.body.block.args[-1]
    for use in list(read.result.uses):
        if use.operation is not new and new.is_ancestor(use.operation):
            use.operation.operands = [
                carried if v is read.result else v for v in use.operation.operands
            ]
    operands = list(write.operands)
    operands[0] = new.results[-1]
    write.operands = operands
    return True


def hoist_redundant_vector_transfers(root: Operation, verify_non_zero_trip: bool = False) -> None:
    """Upstream's `hoistRedundantVectorTransfers` (memref level), to a fixpoint."""
    changed = True
    while changed:
        changed = False
        _licm(root)
        for op in list(root.walk()):
            if op.parent is None or not isinstance(op, vector.TransferReadOp):
                continue
            if _try_hoist_read(op, verify_non_zero_trip):
                changed = True
                break


# --- broadcasts --------------------------------------------------------------------------------


def _try_hoist_extract(extract: vector.ExtractOp) -> bool:
    loop = extract.parent_op()
    if not isinstance(loop, scf.ForOp):
        return False
    arg = extract.vector
    if not isinstance(arg, BlockArgument) or arg.block is not loop.body.block or arg.index == 0:
        return False
    if len(list(arg.uses)) != 1:
        return False
    index = arg.index - 1
    terminator = cast(scf.YieldOp, loop.body.block.last_op)
    yielded = terminator.operands[index]
    broadcast = yielded.op if isinstance(yielded, OpResult) else None
    if not isinstance(broadcast, vector.BroadcastOp) or not broadcast.results[0].has_one_use():
        return False
    if broadcast.source.type != extract.results[0].type:
        return False
    if any(not is_defined_outside(v, loop) for v in extract.operands[1:]):
        return False
    init = loop.iter_args[index]
    extract.operands = [init, *extract.operands[1:]]
    _move_before(extract, loop)
    _move_after(broadcast, loop)
    inits = list(loop.iter_args)
    inits[index] = extract.results[0]
    source = broadcast.source

    def yields(term: scf.YieldOp) -> list[SSAValue]:
        values = list(term.operands)
        values[index] = source
        return values

    new = _replace_loop(loop, inits, yields)
    # Upstream leaves the body reading the hoisted extract (the value of the first
    # iteration, a miscompile); the body must read the carried value instead.
    carried_arg = new.body.block.args[1 + index]
    for use in list(extract.results[0].uses):
        if new.is_ancestor(use.operation) and use.operation is not new:
            operands = list(use.operation.operands)
            operands[use.index] = carried_arg
            use.operation.operands = operands
    carried = new.results[index]
    # The loop's users read the broadcast of the carried value.
    for use in list(carried.uses):
        operands = list(use.operation.operands)
        operands[use.index] = broadcast.results[0]
        use.operation.operands = operands
    broadcast.operands = [carried]
    return True


def hoist_redundant_vector_broadcasts(root: Operation) -> None:
    """Upstream's `hoistRedundantVectorBroadcasts`, to a fixpoint."""
    changed = True
    while changed:
        changed = False
        _licm(root)
        for op in list(root.walk()):
            if op.parent is None or not isinstance(op, vector.ExtractOp):
                continue
            if _try_hoist_extract(op):
                changed = True
                break


__all__ = [
    "disjoint_transfers",
    "hoist_redundant_vector_broadcasts",
    "hoist_redundant_vector_transfers",
]
