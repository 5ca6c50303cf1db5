"""Loop-invariant code motion and loop-invariant subset hoisting (upstream
LoopInvariantCodeMotionUtils.cpp).

`move_loop_invariant_code(loop)`: upstream's `moveLoopInvariantCode`: ops of the loop
body (scf.for / forall / parallel / while, affine.for / parallel) whose operands are all
defined outside, that have no memory effects and are speculatable, move before the loop;
users of a moved op are reconsidered.

`hoist_loop_invariant_subsets(loop)`: upstream's `hoistLoopInvariantSubsets` for
`scf.for`. For each iter_arg, the chain of uses from the block argument to the yield must
consist of subset extractions (`tensor.extract_slice`, `vector.transfer_read`), subset
insertions (`tensor.insert_slice`, `vector.transfer_write` on tensors) and nested loops.
An extraction and an insertion of the same subset, disjoint from every other subset of
the chain and otherwise loop-invariant, become an extraction before the loop, a new
iter_arg carrying the subset, and an insertion after the loop:

    %r = scf.for ... iter_args(%t = %init) {
      %s = tensor.extract_slice %t[0] [4] [1]
      %n = "compute"(%s)
      %u = tensor.insert_slice %n into %t[0] [4] [1]
      scf.yield %u
    }
    // ->
    %s0 = tensor.extract_slice %init[0] [4] [1]
    %r:2 = scf.for ... iter_args(%t = %init, %s = %s0) {
      %n = "compute"(%s)
      scf.yield %t, %n
    }
    %u = tensor.insert_slice %r#1 into %r#0[0] [4] [1]
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, arith, memref, scf, tensor, vector
from xdsl.dialects import linalg as xlinalg
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from schedir.dialects import linalg
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import ParallelInsertSliceOp
from schedir.dialects.utils import Mixed, mixed_values
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.effects import is_memory_effect_free
from schedir.transform.rewrites.mixed import same_mixed
from schedir.transform.rewrites.rewriter import CanonRewriter

LOOP_LIKE: tuple[type[Operation], ...] = (
    scf.ForOp,
    ForallOp,
    scf.ParallelOp,
    scf.WhileOp,
    affine.ForOp,
    affine.ParallelOp,
)
"""The ops implementing upstream's LoopLikeOpInterface."""


def is_loop_like(op: Operation) -> bool:
    """Whether `op` implements upstream's LoopLikeOpInterface."""
    return isinstance(op, LOOP_LIKE)


def loop_regions(op: Operation) -> list[Region]:
    return list(op.regions)


def is_defined_outside(value: SSAValue, loop: Operation) -> bool:
    """Upstream's `isDefinedOutsideOfLoop`."""
    owner = value.owner
    node: Operation | None = owner.parent_op() if isinstance(owner, Block) else owner
    while node is not None:
        if node is loop:
            return False
        node = node.parent_op()
    return True


# --- speculatability -----------------------------------------------------------------------

_SIGNED_DIVISIONS = (arith.DivSIOp, arith.CeilDivSIOp, arith.FloorDivSIOp)
_DIVISIONS = (
    *_SIGNED_DIVISIONS,
    arith.DivUIOp,
    arith.CeilDivUIOp,
    arith.RemSIOp,
    arith.RemUIOp,
)
_LINALG_OPS = (*xlinalg.Linalg.operations, *linalg.Linalg.operations)
_NOT_SPECULATABLE_REGION_OPS = (
    scf.IfOp,
    scf.WhileOp,
    ForallOp,
    scf.ParallelOp,
    scf.ExecuteRegionOp,
)


def is_speculatable(op: Operation) -> bool:
    """Upstream's `isSpeculatable` for the ops schedir meets."""
    if isinstance(op, _DIVISIONS):
        divisor = constant_int(op.operands[1])
        if divisor is None or divisor == 0:
            return False
        return not (isinstance(op, _SIGNED_DIVISIONS) and divisor == -1)
    if isinstance(op, tensor.DimOp | memref.DimOp):
        index = constant_int(op.operands[1])
        rank = len(op.operands[0].type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return index is not None and 0 <= index < rank
    if isinstance(op, scf.ForOp):
        return constant_int(op.operands[2]) == 1 and _recursively_speculatable(op)
    if isinstance(op, _NOT_SPECULATABLE_REGION_OPS):
        return False
    if op.regions:
        if isinstance(op, _LINALG_OPS):
            return _recursively_speculatable(op)
        return False
    return True


def _recursively_speculatable(op: Operation) -> bool:
    return all(is_speculatable(o) for r in op.regions for b in r.blocks for o in b.ops)


# --- LICM --------------------------------------------------------------------------------------


def can_be_hoisted(op: Operation, defined_outside: Callable[[SSAValue], bool]) -> bool:
    """Upstream's `canBeHoisted`: not a terminator, every value used by the op or nested
    ops comes from outside (or from inside the op itself)."""
    if op.parent is not None and op is op.parent.last_op and _is_terminator(op):
        return False
    for nested in op.walk():
        for value in nested.operands:
            if _defined_in(value, op):
                continue
            if not defined_outside(value):
                return False
    return True


def _is_terminator(op: Operation) -> bool:
    return op.has_trait(IsTerminator, value_if_unregistered=False)


def _defined_in(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    node: Operation | None = owner.parent_op() if isinstance(owner, Block) else owner
    while node is not None:
        if node is op:
            return True
        node = node.parent_op()
    return False


@dataclass(frozen=True)
class LicmResult:
    num_moved: int


def move_loop_invariant_code(loop: Operation) -> LicmResult:
    """Upstream's `moveLoopInvariantCode(LoopLikeOpInterface)`."""
    moved = 0
    for region in loop_regions(loop):
        worklist: deque[Operation] = deque(op for block in region.blocks for op in block.ops)
        while worklist:
            op = worklist.popleft()
            if op.parent_region() is not region:
                continue
            if not (is_memory_effect_free(op) and is_speculatable(op)):
                continue
            if not can_be_hoisted(op, lambda v: is_defined_outside(v, loop)):
                continue
            op.detach()
            parent = loop.parent_block()
            assert parent is not None
            parent.insert_op_before(op, loop)
            moved += 1
            for result in op.results:
                for use in result.uses:
                    if use.operation.parent_region() is region:
                        worklist.append(use.operation)
    return LicmResult(moved)


# --- subset hoisting ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Subset:
    """A subset op on the chain: its kind and what identifies the subset."""

    op: Operation
    extraction: bool

    @property
    def source_index(self) -> int:
        """Operand index of the chain value (extraction source, insertion destination)."""
        if isinstance(self.op, vector.TransferWriteOp):
            return 1
        if isinstance(self.op, tensor.InsertSliceOp | ParallelInsertSliceOp):
            return 1
        return 0

    @property
    def value_operand(self) -> int:
        """Operand index of an insertion's inserted value."""
        return 0


def _slice_key(op: Operation) -> tuple[list[Mixed], list[Mixed], list[Mixed]] | None:
    if isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp):
        return (
            mixed_values(op.static_offsets, op.offsets),
            mixed_values(op.static_sizes, op.sizes),
            mixed_values(op.static_strides, op.strides),
        )
    return None


def _transfer_key(op: Operation) -> tuple[list[SSAValue], object, object] | None:
    if isinstance(op, vector.TransferReadOp):
        rank = len(op.operands[0].type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        if len(op.operands) != 2 + rank:
            return None  # masked
        vector_type = op.results[0].type
        return (list(op.operands[1 : 1 + rank]), op.properties.get("permutation_map"), vector_type)
    if isinstance(op, vector.TransferWriteOp):
        rank = len(op.operands[1].type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        if len(op.operands) != 2 + rank:
            return None
        return (
            list(op.operands[2 : 2 + rank]),
            op.properties.get("permutation_map"),
            op.operands[0].type,
        )
    return None


def equivalent_subsets(a: Operation, b: Operation) -> bool:
    """Upstream's `operatesOnEquivalentSubset` for slices and transfers."""
    ka, kb = _slice_key(a), _slice_key(b)
    if ka is not None and kb is not None:
        return all(
            len(x) == len(y) and all(same_mixed(p, q) for p, q in zip(x, y, strict=True))
            for x, y in zip(ka, kb, strict=True)
        )
    ta, tb = _transfer_key(a), _transfer_key(b)
    if ta is not None and tb is not None:
        return (
            len(ta[0]) == len(tb[0])
            and all(same_mixed(p, q) for p, q in zip(ta[0], tb[0], strict=True))
            and ta[1] == tb[1]
            and ta[2] == tb[2]
        )
    return False


def _static_box(op: Operation) -> list[tuple[int, int]] | None:
    """Per dimension [start, end) of a subset when static (None when not)."""
    key = _slice_key(op)
    if key is not None:
        offsets, sizes, strides = key
        box: list[tuple[int, int]] = []
        for o, s, st in zip(offsets, sizes, strides, strict=True):
            co, cs, cst = constant_int(o), constant_int(s), constant_int(st)
            if co is None or cs is None or cst is None:
                box.append((-1, -1))
                continue
            box.append((co, co + (cs - 1) * cst + 1))
        return box
    tkey = _transfer_key(op)
    if tkey is not None:
        indices, perm, vtype = tkey
        shape = list(vtype.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        box = [(-1, -1)] * len(indices)
        results = getattr(getattr(perm, "data", None), "results", ())
        sizes = [1] * len(indices)
        for size, expr in zip(shape, results, strict=False):
            position = getattr(expr, "position", None)
            if position is not None:
                sizes[position] = size
        for i, index in enumerate(indices):
            c = constant_int(index)
            if c is not None:
                box[i] = (c, c + sizes[i])
        return box
    return None


def disjoint_subsets(a: Operation, b: Operation) -> bool:
    """Upstream's `operatesOnDisjointSubset`: provably disjoint in some dimension."""
    ba, bb = _static_box(a), _static_box(b)
    if ba is None or bb is None or len(ba) != len(bb):
        return False
    for (s0, e0), (s1, e1) in zip(ba, bb, strict=True):
        if s0 < 0 or s1 < 0:
            continue
        if e0 <= s1 or e1 <= s0:
            return True
    return False


def _classify(op: Operation, operand_index: int) -> str | None:
    """ "extract" / "insert" if `op` uses the chain value as a subset source /
    destination at `operand_index`."""
    if isinstance(op, tensor.ExtractSliceOp | vector.TransferReadOp) and operand_index == 0:
        return "extract"
    if isinstance(op, tensor.InsertSliceOp) and operand_index == 1:
        return "insert"
    if isinstance(op, vector.TransferWriteOp) and operand_index == 1 and op.results:
        return "insert"
    return None


def _collect_chain(
    loop: Operation, arg: BlockArgument, subsets: list[tuple[Operation, str]], collect: bool
) -> bool:
    """Upstream's `populateSubsetOpsAtIterArg`: walk the uses from `arg` to the yield."""
    value: SSAValue = arg
    terminator = loop.regions[0].block.last_op
    assert terminator is not None
    expected_yield = arg.index - 1
    for _ in range(10_000):
        next_value: SSAValue | None = None
        reached_yield = False
        for use in list(value.uses):
            user = use.operation
            if user is terminator:
                if use.index != expected_yield:
                    return False
                reached_yield = True
                continue
            if isinstance(user, scf.ForOp) and use.index >= 3:
                nested_arg = user.regions[0].block.args[use.index - 3 + 1]
                if not _collect_chain(user, nested_arg, subsets, False):
                    return False
                if next_value is not None:
                    return False
                next_value = user.results[use.index - 3]
                continue
            kind = _classify(user, use.index)
            if kind == "insert":
                if next_value is not None:
                    return False
                subsets.append((user, "insert") if collect else (user, "insert-nested"))
                next_value = user.results[0]
                continue
            if kind == "extract":
                subsets.append((user, "extract") if collect else (user, "extract-nested"))
                continue
            return False
        if reached_yield:
            return next_value is None
        if next_value is None:
            return False
        value = next_value
    return False


def hoistable_pairs(loop: Operation, arg: BlockArgument) -> list[tuple[Operation, Operation]]:
    """Matching (extraction, insertion) pairs on `arg`'s chain, disjoint from the rest."""
    subsets: list[tuple[Operation, str]] = []
    if not _collect_chain(loop, arg, subsets, True):
        return []
    ops = [op for op, _ in subsets]
    pairs: list[tuple[Operation, Operation]] = []
    for insertion, kind in subsets:
        if kind != "insert":
            continue
        matches = [op for op, k in subsets if k == "extract" and equivalent_subsets(op, insertion)]
        if len(matches) != 1:
            continue
        extraction = matches[0]
        others = [op for op in ops if op is not insertion and op is not extraction]
        if all(disjoint_subsets(insertion, other) for other in others):
            pairs.append((extraction, insertion))
    return pairs


def _hoistable(op: Operation, loop: Operation, chain_operands: Sequence[int]) -> bool:
    for index, value in enumerate(op.operands):
        if index in chain_operands:
            continue
        if not is_defined_outside(value, loop):
            return False
    return all(not r.blocks for r in op.regions)


def hoist_loop_invariant_subsets(
    loop: Operation, listener: PatternRewriterListener | None = None
) -> Operation:
    """Hoist matching subset pairs of each iter_arg of an `scf.for`; returns the loop
    (a new op when iter_args were added)."""
    if not isinstance(loop, scf.ForOp):
        return loop
    rw = CanonRewriter(InsertPoint.before(loop), listener)
    index = 0
    while index < len(loop.regions[0].block.args) - 1:
        loop = _hoist_at(rw, loop, index)
        index += 1
    return loop


def _hoist_at(rw: CanonRewriter, loop: Operation, index: int) -> Operation:
    arg = loop.regions[0].block.args[1 + index]
    for extraction, insertion in hoistable_pairs(loop, arg):
        if extraction.parent is None or insertion.parent is None:
            continue
        if not _hoistable(extraction, loop, [0]):
            continue
        value_index = 0
        dest_index = 1
        if not _hoistable(insertion, loop, [value_index, dest_index]):
            continue
        loop = _hoist_pair(rw, loop, index, extraction, insertion)
    return loop


def _hoist_pair(
    rw: CanonRewriter, loop: Operation, index: int, extraction: Operation, insertion: Operation
) -> Operation:
    assert isinstance(loop, scf.ForOp)
    init = loop.iter_args[index]
    # The extraction reads the loop's init before the loop.
    operands = list(extraction.operands)
    operands[0] = init
    extraction.operands = operands
    rw.move_op(extraction, InsertPoint.before(loop))
    subset = extraction.results[0]
    # A new loop carrying the subset.
    old_block = loop.body.block
    terminator = old_block.last_op
    assert terminator is not None
    block = Block(arg_types=[a.type for a in old_block.args] + [subset.type])
    new = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, subset], block)
    new.attributes.update(loop.attributes)
    rw.set_insertion_point(loop)
    rw.create(new, loop)
    acc = block.args[-1]
    for use in list(subset.uses):
        if _defined_in_op(use.operation, loop):
            operands = list(use.operation.operands)
            operands[use.index] = acc
            use.operation.operands = operands
    for old_arg, new_arg in zip(old_block.args, block.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    for op in list(old_block.ops):
        rw.move_op(op, InsertPoint.at_end(block))
    inserted_value = insertion.operands[0]
    yielded = [*terminator.operands, inserted_value]
    rw.set_insertion_point(terminator)
    rw.create(scf.YieldOp(*yielded), terminator)
    rw.erase(terminator)
    rw.replace_values(loop, list(new.results[:-1]))
    # The insertion moves after the loop and writes the carried subset.
    rw.move_op(insertion, InsertPoint.after(new))
    chain_dest = insertion.operands[1]
    insertion.results[0].replace_all_uses_with(chain_dest)
    loop_result = new.results[index]
    for use in list(loop_result.uses):
        if use.operation is not insertion:
            operands = list(use.operation.operands)
            operands[use.index] = insertion.results[0]
            use.operation.operands = operands
    operands = list(insertion.operands)
    operands[0] = new.results[-1]
    operands[1] = loop_result
    insertion.operands = operands
    return new


def _defined_in_op(op: Operation, ancestor: Operation) -> bool:
    node: Operation | None = op
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent_op()
    return False


__all__ = [
    "LOOP_LIKE",
    "LicmResult",
    "can_be_hoisted",
    "disjoint_subsets",
    "equivalent_subsets",
    "hoist_loop_invariant_subsets",
    "hoistable_pairs",
    "is_defined_outside",
    "is_loop_like",
    "is_speculatable",
    "move_loop_invariant_code",
]

del OpResult
