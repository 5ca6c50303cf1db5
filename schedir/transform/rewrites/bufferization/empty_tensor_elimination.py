"""`tensor.empty` elimination: let a computation write straight into its final destination.

Upstream's two steps (mlir/lib/Dialect/Bufferization/Transforms/EmptyTensorElimination.cpp
and mlir/lib/Dialect/Linalg/Transforms/EliminateEmptyTensors.cpp):

* *insertion-anchored* (`eliminate_empty_tensors`): for every subset insertion
  (`tensor.insert_slice`, `tensor.parallel_insert_slice`,
  `bufferization.materialize_in_destination` into a tensor) whose source bufferizes in
  place, the `tensor.empty` ops its source is computed from (following only results that
  are the very same buffer as an operand, of the same type or through casts) become the
  slice of the destination the insertion writes. One-Shot Bufferize then computes into
  the destination with no allocation and no copy:

      %e = tensor.empty() : tensor<5xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
      %r = tensor.insert_slice %f into %t[1] [5] [1] : tensor<5xf32> into tensor<10xf32>
      // ->
      %e = tensor.extract_slice %t[1] [5] [1] : tensor<10xf32> to tensor<5xf32>
      %f = linalg.fill ins(%cst : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
      %r = tensor.insert_slice %f into %t[1] [5] [1] : tensor<5xf32> into tensor<10xf32>

  The replacement is built at the first point where every value it needs is defined and
  that still precedes every use of the `tensor.empty`; without one, the op stays.

* *linalg-anchored* (`eliminate_linalg_anchored_empty_tensors`): an all-parallel structured
  op whose input is computed from a `tensor.empty` of the same type, and which has an init
  of that type and indexing map that its payload never reads, takes the input as that
  init (computing in place over it); the `tensor.empty` becomes the (now unused) input.

The in-place decisions of the first step come from One-Shot analysis, which the caller
runs (this layer cannot import the bufferization pass) and passes as `in_place`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, bufferization, scf, vector
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
)
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import (
    ExtractSliceOp,
    GenerateOp,
    InsertSliceOp,
    ParallelInsertSliceOp,
)
from schedir.transform.rewrites.effects import is_memory_effect_free

InPlace = Callable[[Operation, int], bool]
"""Whether operand `index` of an op bufferizes in place (One-Shot analysis)."""


@dataclass(frozen=True)
class EliminationResult:
    """The `tensor.empty` ops that were replaced, and the ops replacing them."""

    eliminated: int
    new_ops: tuple[Operation, ...]


# --- dominance in structured (single-block region) IR -----------------------------------


def ancestor_in_block(block: Block, op: Operation) -> Operation | None:
    """The op of `block` that is `op` or contains it, if any."""
    node: Operation | None = op
    while node is not None:
        if node.parent_block() is block:
            return node
        node = node.parent_op()
    return None


def _before(a: Operation, b: Operation) -> bool:
    """Whether `a` comes strictly before `b` in their (common) block."""
    node = a.next_op
    while node is not None:
        if node is b:
            return True
        node = node.next_op
    return False


def properly_dominates(a: Operation, b: Operation) -> bool:
    """MLIR's `properlyDominates(a, b)` (an enclosing op dominates what it holds), for
    regions of one block each."""
    if a is b:
        return False
    block = a.parent_block()
    if block is None:
        return False
    ancestor = ancestor_in_block(block, b)
    if ancestor is None:
        return False
    return ancestor is a or _before(a, ancestor)


def dominates(a: Operation, b: Operation) -> bool:
    return a is b or properly_dominates(a, b)


def value_properly_dominates(value: SSAValue, op: Operation) -> bool:
    """MLIR's `properlyDominates(Value, Operation*)`: the value is visible at `op`."""
    if isinstance(value, BlockArgument):
        return ancestor_in_block(value.block, op) is not None
    assert isinstance(value, OpResult)
    definer = value.op
    if definer is op or definer.is_ancestor(op):
        return False  # results do not dominate the op's own regions
    return properly_dominates(definer, op)


# --- the aliasing facts the traversal follows -----------------------------------------


Use = tuple[Operation, int]
"""An op operand (upstream's `OpOperand *`): the op and the operand's index."""


def aliasing_operands(value: SSAValue) -> list[tuple[Use, bool]] | None:
    """Operands whose buffer the result `value` may be, each with whether it is the very
    same buffer (upstream's `getAliasingOpOperands` with `BufferRelation::Equivalent`).
    None for results of ops bufferization does not know (the traversal stops there)."""
    if isinstance(value, BlockArgument):
        return []
    assert isinstance(value, OpResult)
    op = value.op
    if is_structured(op):
        tensor_results = [r for r in op.results if isinstance(r.type, TensorType)]
        num_inits = len(dps_inits(op))
        position = tensor_results.index(value)
        first_init = len(op.operands) - num_inits
        return [((op, first_init + position), True)] if position < num_inits else []
    match op:
        case xtensor.InsertSliceOp() | xtensor.InsertOp() | vector.TransferWriteOp():
            return [((op, 1), True)]
        case bufferization.MaterializeInDestinationOp():
            return [((op, 1), True)]
        case xtensor.CastOp() | xtensor.CollapseShapeOp() | xtensor.ExpandShapeOp():
            return [((op, 0), True)]
        case xtensor.ExtractSliceOp():
            return [((op, 0), False)]
        case ForallOp():
            outputs = len(op.outputs)
            return [((op, len(op.operands) - outputs + value.index), True)]
        case scf.ForOp():
            loop = op
            yielded = loop.body.block.last_op
            assert yielded is not None
            arg = loop.body.block.args[1 + value.index]
            equivalent = _equivalent_to(yielded.operands[value.index], arg)
            return [((op, 3 + value.index), equivalent)]
        case scf.IfOp():
            yields = [
                block.last_op
                for region in op.regions
                for block in region.blocks
                if block.last_op is not None
            ]
            same = len({id(y.operands[value.index]) for y in yields}) == 1
            return [((y, value.index), same) for y in yields]
        case (
            xtensor.EmptyOp()
            | xtensor.PadOp()
            | GenerateOp()
            | xtensor.FromElementsOp()
            | xtensor.SplatOp()
            | xtensor.ConcatOp()
            | arith.ConstantOp()
            | bufferization.AllocTensorOp()
            | bufferization.ToTensorOp()
        ):
            return []
        case _:
            return None


def _equivalent_to(value: SSAValue, target: SSAValue) -> bool:
    """Whether `value` is `target`'s buffer: reached from it through equivalent results
    only (upstream asks the analysis whether a loop yields its iteration's buffer)."""
    seen: set[int] = set()
    work = [value]
    while work:
        current = work.pop()
        if current is target:
            return True
        if id(current) in seen:
            continue
        seen.add(id(current))
        for (op, index), equivalent in aliasing_operands(current) or []:
            if equivalent:
                work.append(op.operands[index])
    return False


def find_in_reverse_use_def_chain(
    start: Use,
    condition: Callable[[SSAValue], bool],
    *,
    same_type_or_casts_only: bool,
    visited: list[Use] | None = None,
) -> list[SSAValue]:
    """Upstream's `findValueInReverseUseDefChain` from an op operand, with
    `followEquivalentOnly` and without leaves: the values satisfying `condition` that the
    operand is the very same buffer of. The operands it followed go to `visited`."""
    found: list[SSAValue] = []
    seen_values: set[int] = set()
    trail = visited if visited is not None else []
    trail.append(start)
    work = [start[0].operands[start[1]]]
    while work:
        value = work.pop()
        if id(value) in seen_values:
            continue
        seen_values.add(id(value))
        if condition(value):
            if all(v is not value for v in found):
                found.append(value)
            continue
        aliases = aliasing_operands(value)
        if not aliases:
            continue
        for (op, index), equivalent in aliases:
            if not equivalent:
                continue
            operand = op.operands[index]
            if (
                same_type_or_casts_only
                and operand.type != value.type
                and not (isinstance(value, OpResult) and isinstance(value.op, xtensor.CastOp))
            ):
                continue
            trail.append((op, index))
            work.append(operand)
    return found


def _is_empty(value: SSAValue) -> bool:
    return isinstance(value, OpResult) and isinstance(value.op, xtensor.EmptyOp)


# --- insertion-anchored elimination ---------------------------------------------------


def _subset_insertion(op: Operation) -> tuple[int, list[SSAValue]] | None:
    """(source operand index, values needed to extract the subset) of a subset insertion
    (upstream's `SubsetInsertionOpInterface`), None for other ops."""
    if isinstance(op, InsertSliceOp | ParallelInsertSliceOp):
        return 0, [op.operands[1], *op.operands[2:]]
    if isinstance(op, bufferization.MaterializeInDestinationOp) and isinstance(
        op.operands[1].type, TensorType
    ):
        return 0, [op.operands[1]]
    return None


def _build_extraction(op: Operation) -> Operation | None:
    """The op extracting the subset `op` inserts into (None: the destination itself)."""
    if isinstance(op, InsertSliceOp | ParallelInsertSliceOp):
        return ExtractSliceOp(
            op.operands[1],
            op.mixed_offsets,
            op.mixed_sizes,
            op.mixed_strides,
            op.operands[0].type,
        )
    return None


def _insertion_point(
    empty: Operation, user: Operation, needed: Sequence[SSAValue]
) -> Operation | None:
    """Upstream's `findValidInsertionPoint`: the empty op itself or right after a needed
    value's definition, the first one seeing every needed value and preceding `user`."""
    candidates: list[Operation] = [empty]
    for value in needed:
        if isinstance(value, BlockArgument):
            first = value.block.first_op
            if first is not None:
                candidates.append(first)
        else:
            following = cast(OpResult, value).op.next_op
            if following is not None:
                candidates.append(following)
    for point in candidates:
        if all(_needed_visible(value, point) for value in needed) and dominates(point, user):
            return point
    return None


def _needed_visible(value: SSAValue, point: Operation) -> bool:
    if isinstance(value, BlockArgument):
        return ancestor_in_block(value.block, point) is not None
    return properly_dominates(cast(OpResult, value).op, point)


def _is_pure(op: Operation) -> bool:
    return is_memory_effect_free(op)


def move_value_definitions(
    rewriter: PatternRewriter, values: Sequence[SSAValue], point: Operation
) -> bool:
    """Upstream's `moveValueDefinitions`: move the (pure) ops computing `values`, and what
    they need from the same block, before `point`; all or nothing."""
    block = point.parent_block()
    pending: list[SSAValue] = []
    for value in values:
        if value_properly_dominates(value, point):
            continue
        if isinstance(value, BlockArgument):
            return False
        if cast(OpResult, value).op.parent_block() is not block:
            return False
        pending.append(value)
    slice_ops: list[Operation] = []
    seen: set[int] = set()
    work = [cast(OpResult, v).op for v in pending]
    while work:
        op = work.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if properly_dominates(op, point):
            continue
        if op is point or op.is_ancestor(point):
            return False
        if not _is_pure(op):
            return False
        slice_ops.append(op)
        for nested in op.walk():
            for operand in nested.operands:
                owner = operand.owner
                if (
                    isinstance(owner, Operation)
                    and not op.is_ancestor(owner)
                    and owner.parent_block() is block
                ):
                    work.append(owner)
    # Keep their order (they are all in `point`'s block).
    order = {id(op): i for i, op in enumerate(block.ops)} if block is not None else {}
    for op in sorted(slice_ops, key=lambda o: order.get(id(o), 0)):
        op.detach()
        rewriter.insert(op, InsertPoint.before(point))
    return True


def eliminate_empty_tensors(
    rewriter: PatternRewriter, target: Operation, in_place: InPlace
) -> EliminationResult:
    """Insertion-anchored `tensor.empty` elimination in `target` (see the module doc):
    the use of each `tensor.empty` on a source's chain becomes the destination's slice."""
    eliminated = 0
    new_ops: list[Operation] = []
    for op in list(target.walk(region_first=True)):
        insertion = _subset_insertion(op)
        if insertion is None or (op.parent is None and op is not target):
            continue
        source_index, needed = insertion
        if not in_place(op, source_index):
            continue
        visited: list[Use] = []
        empties = find_in_reverse_use_def_chain(
            (op, source_index), _is_empty, same_type_or_casts_only=True, visited=visited
        )
        for value in empties:
            empty = cast(OpResult, value).op
            use = next(((o, i) for o, i in visited if o.operands[i] is value), None)
            if use is None:
                continue
            user, use_index = use
            point = _insertion_point(empty, user, needed)
            if point is None:
                if not move_value_definitions(rewriter, needed, user):
                    continue
                point = user
            extraction = _build_extraction(op)
            if extraction is None:
                replacement = op.operands[1]
                if replacement.owner is empty:
                    continue
            else:
                rewriter.insert(extraction, InsertPoint.before(point))
                extraction.location = empty.location
                new_ops.append(extraction)
                replacement = extraction.results[0]
            if replacement.type != value.type:
                cast_op = xtensor.CastOp(replacement, cast(TensorType[Attribute], value.type))
                where = (
                    InsertPoint.after(replacement.owner)
                    if isinstance(replacement.owner, Operation)
                    else InsertPoint.at_start(cast(Block, replacement.owner))
                )
                rewriter.insert(cast_op, where)
                cast_op.location = empty.location
                new_ops.append(cast_op)
                replacement = cast_op.results[0]
            # Only this use: the tensor.empty stays for its other users (or DCE).
            user.operands[use_index] = replacement
            rewriter.handle_operation_modification(user)
            eliminated += 1
    return EliminationResult(eliminated, tuple(new_ops))


# --- linalg-anchored elimination ------------------------------------------------------


def _payload_arg(op: Operation, operand_index: int) -> BlockArgument | None:
    """The payload block argument of a structured op's operand (None if it has none)."""
    if not op.regions or not op.regions[0].blocks:
        return None
    block = op.regions[0].blocks.first
    assert block is not None
    num_inputs = len(dps_inputs(op))
    if len(block.args) == num_inputs and operand_index >= num_inputs:
        return None  # the payload takes no init arguments (linalg.map)
    return block.args[operand_index] if operand_index < len(block.args) else None


def _payload_uses(op: Operation, operand_index: int) -> bool:
    arg = _payload_arg(op, operand_index)
    return arg is not None and bool(arg.uses)


def _unused_init(op: Operation, input_index: int) -> int | None:
    """Upstream's `getUnusedOutOperand`: an init the payload never reads, of the input's
    type and indexing map."""
    maps = indexing_maps(op)
    num_inputs = len(dps_inputs(op))
    value = op.operands[input_index]
    for position, init in enumerate(dps_inits(op)):
        index = num_inputs + position
        if _payload_uses(op, index):
            continue
        if init.type != value.type:
            continue
        if maps[index] != maps[input_index]:
            continue
        return index
    return None


def eliminate_linalg_anchored_empty_tensors(rewriter: PatternRewriter, target: Operation) -> int:
    """Linalg-anchored `tensor.empty` elimination in `target`; returns how many inputs
    became inits (see the module doc)."""
    count = 0
    for op in list(target.walk(region_first=True)):
        if not is_structured(op) or any(t != "parallel" for t in iterator_types(op)):
            continue
        for input_index in range(len(dps_inputs(op))):
            value = op.operands[input_index]
            if not isinstance(value.type, TensorType):
                continue
            empties = find_in_reverse_use_def_chain(
                (op, input_index),
                lambda v, t=value.type: _is_empty(v) and v.type == t,
                same_type_or_casts_only=False,
            )
            if not empties:
                continue
            out_index = _unused_init(op, input_index)
            if out_index is None:
                continue
            out = op.operands[out_index]
            if not all(value_properly_dominates(out, cast(OpResult, v).op) for v in empties):
                continue
            for empty in empties:
                rewriter.replace_all_uses_with(empty, out)
            in_arg = _payload_arg(op, input_index)
            out_arg = _payload_arg(op, out_index)
            op.operands[out_index] = value
            op.operands[input_index] = empties[0]
            if in_arg is not None and out_arg is not None:
                rewriter.replace_all_uses_with(in_arg, out_arg)
            rewriter.handle_operation_modification(op)
            count += 1
    return count


__all__ = [
    "EliminationResult",
    "InPlace",
    "aliasing_operands",
    "ancestor_in_block",
    "dominates",
    "eliminate_empty_tensors",
    "eliminate_linalg_anchored_empty_tensors",
    "find_in_reverse_use_def_chain",
    "move_value_definitions",
    "properly_dominates",
    "value_properly_dominates",
]
