"""Hoist a `tensor.pad` above enclosing `scf.for` loops (upstream's
`hoistPaddingOnTensors` and `buildPackingLoopNest`, Linalg/Transforms/HoistPadding.cpp).

    scf.for %i = %c0 to %c24 step %c5 {
      %sz = affine.min (d0) -> (-d0 + 24, 5) (%i)
      %s = tensor.extract_slice %A[%i, 0] [%sz, 12] [1, 1]
      %p = tensor.pad %s high[5 - %sz, 0] : tensor<?x12xf32> to tensor<5x12xf32>
      use(%p)
    }
  hoisted by 1 loop becomes
    %e = tensor.empty(%c5) : tensor<?x5x12xf32>            // one tile per iteration
    %packed = scf.for %i = %c0 to %c24 step %c5 iter_args(%t = %e) {
      %sz = affine.min ...; %s = tensor.extract_slice ...; %p = tensor.pad ...
      %k = affine.apply (d0) -> (d0 ceildiv 5) (%i)
      %t2 = tensor.insert_slice %p into %t[%k, 0, 0] [1, 5, 12] [1, 1, 1]
      scf.yield %t2
    }
    scf.for %i ... {
      %k = affine.apply (d0) -> (d0 ceildiv 5) (%i)
      %p = tensor.extract_slice %packed[%k, 0, 0] [1, 5, 12] [1, 1, 1]
      use(%p)
    }

The packing loops are the enclosing loops whose induction variables index the padded
data (the backward slice of the pad, restricted to its index computation); the other
loops read the same tile in every iteration and add nothing to the packed tensor. With a
transpose vector, the tiles are stored transposed (`linalg.transpose` in the packing
loop) and transposed back where the pad was.

Not handled, as upstream today: a pad whose source is not a `tensor.extract_slice` of a
tensor defined above the outermost loop, a non-constant padding value, index
computations with regions, memory effects or non-index operands. Unlike upstream, a pad
whose slice feeds an `scf.for` iter_arg (hoisting an init operand) is not hoisted either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine, linalg
from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.semi_affine import binary
from schedir.dialects.tensor import ExtractSliceOp, PadOp
from schedir.dialects.utils import Mixed
from schedir.transform.rewrites.canonicalize.tensor import build_extract_slice, build_insert_slice
from schedir.transform.rewrites.effects import is_memory_effect_free
from schedir.transform.rewrites.loops.licm import hoist_loop_invariant_subsets
from schedir.transform.rewrites.padding import index_upper_bound
from schedir.transform.rewrites.rewriter import CanonRewriter


class HoistPaddingFailure(Exception):
    """The pad cannot be hoisted (the analysis or the packing failed)."""


@dataclass(frozen=True)
class HoistResult:
    """The replacement of the pad, the pad cloned into the packing nest, the outermost
    packing loop (None without packing loops) and the transposes built."""

    replacement: SSAValue | None
    hoisted_pad: PadOp
    packing_loop: scf.ForOp | None
    transposes: tuple[Operation, ...]


# --- analysis -----------------------------------------------------------------------------


def _enclosing_loops(pad: PadOp, limit: int | None, until: scf.ForOp | None) -> list[scf.ForOp]:
    """Upstream's `getAtMostNEnclosingLoops` / `getEnclosingLoopsUntil`: the immediately
    enclosing `scf.for` loops, innermost first, stopping at the first other parent."""
    loops: list[scf.ForOp] = []
    parent = pad.parent_op()
    while isinstance(parent, scf.ForOp):
        if limit is not None and len(loops) >= limit:
            break
        loops.append(parent)
        if parent is until:
            break
        parent = parent.parent_op()
    return loops


def _defined_outside(loop: Operation, value: SSAValue) -> bool:
    """`isDefinedOutsideOfLoop`: the value's definition is not nested in `loop`."""
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    return op is None or not loop.is_ancestor(op)


def _constant_padding_value(pad: PadOp) -> SSAValue | None:
    """The value the pad's body yields when it is an `arith.constant`."""
    yielded = pad.region.block.last_op
    if yielded is None or len(yielded.operands) != 1:
        return None
    value = yielded.operands[0]
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        return value
    return None


def _backward_slice(pad: PadOp, outer: scf.ForOp) -> list[Operation]:
    """Upstream's `computeBackwardSlice`: the ops in (or being) `outer` that the pad
    depends on, through operands and through the loops owning block arguments, in
    topological order, the pad last."""
    order: list[Operation] = []
    seen: set[Operation] = set()

    def keep(op: Operation) -> bool:
        return outer.is_ancestor(op) and not (pad.is_ancestor(op) and op is not pad)

    def visit_value(value: SSAValue) -> None:
        owner = value.owner
        op = owner.parent_op() if isinstance(owner, Block) else owner
        if op is not None and keep(op):
            visit(op)

    def visit(op: Operation) -> None:
        if op in seen:
            return
        seen.add(op)
        for operand in op.operands:
            visit_value(operand)
        if op is pad:
            # Values the padding region uses from above.
            for inner in op.walk():
                for operand in inner.operands:
                    if not pad.is_ancestor(_owner_op(operand) or pad):
                        visit_value(operand)
        order.append(op)

    visit(pad)
    return order


def _owner_op(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner.parent_op() if isinstance(owner, Block) else owner


def _drop_non_index_dependencies(
    ops: list[Operation], pad: PadOp, slice_op: ExtractSliceOp
) -> list[Operation] | None:
    """Upstream's `dropNonIndexDependencies`: keep the ops of the index computation of
    the pad and its slice (and constants); None when that computation has an op with
    regions, memory effects or non-index operands."""
    edges: set[SSAValue] = set()

    def add_index_operands(op: Operation) -> None:
        edges.update(v for v in op.operands if isinstance(v.type, IndexType))

    removed: set[Operation] = set()
    for op in reversed(ops):
        if op is pad or op is slice_op:
            add_index_operands(op)
            continue
        has_index_result = any(r in edges for r in op.results)
        if isinstance(op, scf.ForOp) and not has_index_result and op.body.block.args[0] in edges:
            add_index_operands(op)
            continue
        if has_index_result:
            add_index_operands(op)
            if any(not isinstance(v.type, IndexType) for v in op.operands):
                return None
            if op.regions or not is_memory_effect_free(op):
                return None
            continue
        if not isinstance(op, arith.ConstantOp):
            removed.add(op)
    return [op for op in ops if op not in removed]


@dataclass
class _Analysis:
    pad: PadOp
    slice_op: ExtractSliceOp
    outer: scf.ForOp
    slice_ops: list[Operation]
    packing_loops: list[scf.ForOp]
    consuming_loop: scf.ForOp | None = None


def _analyze(
    pad: PadOp, loops: list[scf.ForOp], listener: PatternRewriterListener | None
) -> _Analysis:
    """Upstream's `HoistPaddingAnalysis`, with `enableHoistPadding`: when the sliced
    tensor is defined in the outermost loop, the loop's invariant subset pairs are
    hoisted first (which rebuilds that loop)."""
    if not loops:
        raise HoistPaddingFailure("no immediately enclosing loop")
    source = pad.source
    if not isinstance(source, OpResult) or not isinstance(source.op, ExtractSliceOp):
        raise HoistPaddingFailure("cannot find the extract slice op")
    slice_op = source.op
    if not _defined_outside(loops[-1], slice_op.source):
        hoisted = hoist_loop_invariant_subsets(loops[-1], listener)
        assert isinstance(hoisted, scf.ForOp)
        loops[-1] = hoisted
    outer = loops[-1]
    if not _defined_outside(outer, slice_op.source):
        raise HoistPaddingFailure("source not defined outside of loops")
    consuming: scf.ForOp | None = None
    if slice_op.result.has_one_use():
        user = slice_op.result.get_user_of_unique_use()
        if isinstance(user, scf.ForOp):
            consuming = user
    if _constant_padding_value(pad) is None:
        raise HoistPaddingFailure("cannot find constant padding value")
    ops = _backward_slice(pad, outer)
    if len(ops) <= 1:
        raise HoistPaddingFailure("empty backward slice")
    kept = _drop_non_index_dependencies(ops, pad, slice_op)
    if kept is None:
        raise HoistPaddingFailure("unsupported op in the index computation")
    packing = [loop for loop in reversed(loops) if loop in kept]
    if consuming is not None:
        # Upstream downgrades to one packing loop here and then builds an iter_arg of
        # the packed type; only the unpacked case is well-typed.
        if packing:
            raise HoistPaddingFailure("cannot hoist through loop iter_args with packing loops")
        if _yielding_slice(pad, slice_op, consuming) is None:
            raise HoistPaddingFailure("the loop does not yield a slice of the padded value")
    return _Analysis(pad, slice_op, outer, kept, packing, consuming)


def _iter_arg_number(slice_op: ExtractSliceOp, loop: scf.ForOp) -> int:
    return next(i for i, v in enumerate(loop.iter_args) if v is slice_op.result)


def _traces_back(value: SSAValue, expected: SSAValue) -> bool:
    """Upstream's `tracesBackToExpectedValue`: `value` reaches `expected` through the
    inits of destination-style ops."""
    current: SSAValue | None = value
    while current is not None and current is not expected:
        if not isinstance(current, OpResult) or not is_structured(current.op):
            return False
        current = dps_inits(current.op)[current.index]
    return current is expected


def _yielding_slice(pad: PadOp, slice_op: ExtractSliceOp, loop: scf.ForOp) -> ExtractSliceOp | None:
    """The `tensor.extract_slice` the loop yields for the iter_arg the slice initializes,
    when it slices a value computed in place of the pad."""
    terminator = loop.body.block.last_op
    assert terminator is not None
    yielded = terminator.operands[_iter_arg_number(slice_op, loop)]
    if not isinstance(yielded, OpResult) or not isinstance(yielded.op, ExtractSliceOp):
        return None
    return yielded.op if _traces_back(yielded.op.source, pad.result) else None


# --- building -----------------------------------------------------------------------------


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _iteration_count_map(lb: int | None, step: int | None) -> tuple[AffineMap, list[int]]:
    """`(iv - lb) ceildiv step` with the constant operands folded; the positions (0 iv,
    1 lb, 2 step) of the operands the map still takes."""
    iv: AffineExpr = AffineDimExpr(0)
    used = [0]
    dims = 1
    if lb is None:
        iv = iv - AffineDimExpr(1)
        used.append(1)
        dims = 2
    elif lb != 0:
        iv = iv - lb
    if step is None:
        expr = binary(AffineBinaryOpKind.CeilDiv, iv, AffineSymExpr(0))
        used.append(2)
        return AffineMap(dims, 1, (expr,)), used
    expr = iv if step == 1 else iv.ceil_div(step)
    return AffineMap(dims, 0, (expr,)), used


def _iteration_count(
    rewriter: CanonRewriter, outer: scf.ForOp, loop: scf.ForOp, iv: SSAValue, loc: Operation
) -> SSAValue:
    """Upstream's `buildLoopIterationCount`: `(iv - lb) ceildiv step`, independent of
    the loops in `outer`."""
    for bound in (loop.lb, loop.step):
        if not _defined_outside(outer, bound) and _constant(bound) is None:
            raise HoistPaddingFailure("loop independence prerequisite not met")
    map_, used = _iteration_count_map(_constant(loop.lb), _constant(loop.step))
    operands = [(iv, loop.lb, loop.step)[i] for i in used]
    return rewriter.create(affine.ApplyOp(operands, AffineMapAttr(map_)), loc).results[0]


def _packed_size(
    rewriter: CanonRewriter, outer: scf.ForOp, loop: scf.ForOp, loc: Operation
) -> SSAValue:
    """Upstream's `getHoistedPackedTensorSizes` for one loop: `(ub - lb) ceildiv step`
    with `ub` bounded independently of the loops."""
    lb, step = _constant(loop.lb), _constant(loop.step)
    ub_bound = index_upper_bound(loop.ub)
    if lb is not None and step is not None and ub_bound is not None:
        size = max(0, -(-(ub_bound - lb) // step))
        return rewriter.constant_index(size, loc)
    ub = loop.ub
    if not _defined_outside(outer, ub):
        raise HoistPaddingFailure("could not get upper bound")
    d_lb, d_ub = AffineDimExpr(0), AffineDimExpr(1)
    if step is None:
        expr = binary(AffineBinaryOpKind.CeilDiv, d_ub - d_lb, AffineSymExpr(0))
        map_ = AffineMap(2, 1, (expr,))
    else:
        map_ = AffineMap(2, 0, ((d_ub - d_lb).ceil_div(step),))
    operands = [loop.lb, ub, loop.step]
    return rewriter.create(affine.ApplyOp(operands, AffineMapAttr(map_)), loc).results[0]


def _transposed_type(
    type_: TensorType[Attribute], permutation: Sequence[int]
) -> TensorType[Attribute]:
    if not permutation:
        return type_
    shape = type_.get_shape()
    if len(permutation) != len(shape):
        raise HoistPaddingFailure("could not compute transposed type")
    return TensorType(type_.get_element_type(), [shape[p] for p in permutation])


def _inverse(permutation: Sequence[int]) -> list[int]:
    inverse = [0] * len(permutation)
    for position, p in enumerate(permutation):
        inverse[p] = position
    return inverse


def _clone_loop(
    rewriter: CanonRewriter,
    loop: scf.ForOp,
    mapping: dict[SSAValue, SSAValue],
    packed: SSAValue,
) -> scf.ForOp:
    """An empty `scf.for` with the bounds of `loop` carrying the packed tensor."""

    def get(value: SSAValue) -> SSAValue:
        return mapping.get(value, value)

    block = Block(arg_types=[IndexType(), packed.type])
    new = scf.ForOp(get(loop.lb), get(loop.ub), get(loop.step), [packed], Region(block))
    rewriter.create(new, loop)
    mapping[loop.body.block.args[0]] = block.args[0]
    for old, arg in zip(loop.body.block.args[1:], block.args[1:], strict=False):
        mapping[old] = arg
    return new


def _build_packing_loop_nest(
    analysis: _Analysis, transpose: Sequence[int]
) -> tuple[
    dict[SSAValue, SSAValue], list[scf.ForOp], list[SSAValue], list[Mixed], Operation | None
]:
    """Upstream's `buildPackingLoopNestImpl`, before the outermost loop: the value
    mapping, the cloned loops, the iteration counts, the sizes of the packed tile and
    the transpose built in the innermost loop."""
    pad = analysis.pad
    padded_type = pad.result.type
    assert isinstance(padded_type, TensorType)
    transposed = _transposed_type(padded_type, transpose)
    if any(d == DYNAMIC_INDEX for d in transposed.get_shape()):
        raise HoistPaddingFailure("dynamic padded shape")
    outer = analysis.outer
    rewriter = CanonRewriter(InsertPoint.before(outer))
    sizes_dynamic = [_packed_size(rewriter, outer, loop, pad) for loop in analysis.packing_loops]
    packed_type = TensorType(
        transposed.get_element_type(),
        [DYNAMIC_INDEX] * len(sizes_dynamic) + list(transposed.get_shape()),
    )
    empty = rewriter.create(xtensor.EmptyOp(sizes_dynamic, packed_type), pad)
    packed: SSAValue = empty.results[0]
    mapping: dict[SSAValue, SSAValue] = {}
    # The pad reads a loop's iter_arg: read the loop's init instead (upstream's step 0).
    source = pad.source
    while isinstance(source, BlockArgument):
        loop = source.block.parent_op()
        if not isinstance(loop, scf.ForOp) or not outer.is_ancestor(loop) or source.index == 0:
            break
        init = loop.iter_args[source.index - 1]
        mapping[source] = init
        source = init
    loops: list[scf.ForOp] = []
    counts: list[SSAValue] = []
    for op in analysis.slice_ops:
        if isinstance(op, scf.ForOp):
            if op not in analysis.packing_loops:
                continue
            new = _clone_loop(rewriter, op, mapping, packed)
            loops.append(new)
            rewriter.insertion_point = InsertPoint.at_end(new.body.block)
            counts.append(_iteration_count(rewriter, outer, new, new.body.block.args[0], pad))
            packed = new.body.block.args[1]
            continue
        clone = op.clone(value_mapper=mapping)
        rewriter.create(clone, op)
        for old, new_result in zip(op.results, clone.results, strict=True):
            mapping[old] = new_result
    rank = len(padded_type.get_shape())
    offsets: list[Mixed] = [*counts, *([0] * rank)]
    sizes: list[Mixed] = [*([1] * len(loops)), *transposed.get_shape()]
    strides: list[Mixed] = [1] * (len(loops) + rank)
    padded = mapping[pad.result]
    transpose_op: Operation | None = None
    if transpose:
        out = rewriter.create(
            build_extract_slice(packed, (offsets, sizes, strides), transposed), pad
        )
        transpose_op = rewriter.create(linalg.TransposeOp(padded, out.results[0], transpose), pad)
        padded = transpose_op.results[0]
    if loops:
        inserted = rewriter.create(
            build_insert_slice(padded, packed, (offsets, sizes, strides)), pad
        )
        value = inserted.results[0]
        for loop in reversed(loops):
            loop.body.block.add_op(scf.YieldOp(value))
            value = loop.results[0]
    return mapping, loops, counts, sizes, transpose_op


def hoist_padding(
    pad: PadOp,
    num_loops: int,
    transpose: Sequence[int],
    listener: PatternRewriterListener | None = None,
) -> HoistResult:
    """Hoist `pad` above at most `num_loops` enclosing loops (upstream's
    `hoistPaddingOnTensors`); the returned replacement value is for the caller to
    replace the pad with. `listener` hears of the loops rebuilt."""
    analysis = _analyze(pad, _enclosing_loops(pad, num_loops, None), listener)
    return _hoist(analysis, transpose, listener, replace=True)


def build_packing_loop_nest(
    pad: PadOp,
    outer: scf.ForOp,
    transpose: Sequence[int],
    listener: PatternRewriterListener | None = None,
) -> HoistResult:
    """Upstream's `buildPackingLoopNest`: the packing nest of `pad` before `outer`,
    leaving the pad in place."""
    loops = _enclosing_loops(pad, None, outer)
    if not loops or loops[-1] is not outer:
        raise HoistPaddingFailure("unexpected outermost enclosing loop")
    return _hoist(_analyze(pad, loops, listener), transpose, listener, replace=False)


def _hoist(
    analysis: _Analysis,
    transpose: Sequence[int],
    listener: PatternRewriterListener | None,
    replace: bool,
) -> HoistResult:
    pad = analysis.pad
    mapping, loops, _counts, sizes, transpose_op = _build_packing_loop_nest(analysis, transpose)
    hoisted = mapping[pad.result].owner
    assert isinstance(hoisted, PadOp)
    if not replace:
        return HoistResult(None, hoisted, loops[0] if loops else None, ())
    padded_type = pad.result.type
    assert isinstance(padded_type, TensorType)
    transposed = _transposed_type(padded_type, transpose)
    rank = len(padded_type.get_shape())
    rewriter = CanonRewriter(InsertPoint.before(pad))
    transposes: list[Operation] = [transpose_op] if transpose_op is not None else []
    if loops:
        counts = [
            _iteration_count(rewriter, analysis.outer, loop, loop.body.block.args[0], pad)
            for loop in analysis.packing_loops
        ]
        offsets: list[Mixed] = [*counts, *([0] * rank)]
        strides: list[Mixed] = [1] * (len(loops) + rank)
        packed = loops[0].results[0]
        result = rewriter.create(
            build_extract_slice(packed, (offsets, sizes, strides), transposed), pad
        ).results[0]
    elif analysis.consuming_loop is not None:
        result = _pad_through_iter_arg(analysis, mapping[pad.result], listener)
    else:
        result = mapping[pad.result]
    if transpose:
        empty = rewriter.create(xtensor.EmptyOp([], padded_type), pad)
        back = rewriter.create(
            linalg.TransposeOp(result, empty.results[0], _inverse(transpose)), pad
        )
        transposes.append(back)
        result = back.results[0]
    return HoistResult(result, hoisted, loops[0] if loops else None, tuple(transposes))


def _pad_through_iter_arg(
    analysis: _Analysis, hoisted: SSAValue, listener: PatternRewriterListener | None
) -> SSAValue:
    """Upstream's `padThroughLoopIterArg`: the loop the slice initializes carries the
    hoisted pad instead, and the slice of its result is taken after the loop. Returns
    the iter_arg that replaces the pad.

    Upstream slices the loop's result at the offsets of the original slice; the padded
    tile holds the slice's data at its origin, so the offsets here are zeros."""
    loop = analysis.consuming_loop
    assert loop is not None
    number = _iter_arg_number(analysis.slice_op, loop)
    yielding = _yielding_slice(analysis.pad, analysis.slice_op, loop)
    assert yielding is not None
    old_block = loop.body.block
    types = [a.type for a in old_block.args]
    types[1 + number] = hoisted.type
    block = Block(arg_types=types)
    inits = list(loop.iter_args)
    inits[number] = hoisted
    new = scf.ForOp(loop.lb, loop.ub, loop.step, inits, block)
    new.attributes.update(loop.attributes)
    rewriter = CanonRewriter(InsertPoint.before(loop), listener)
    rewriter.create(new, loop)
    for old_arg, new_arg in zip(old_block.args, block.args, strict=True):
        old_arg.replace_all_uses_with(new_arg)
    for op in list(old_block.ops):
        rewriter.move_op(op, InsertPoint.at_end(block))
    terminator = block.last_op
    assert terminator is not None
    operands = list(terminator.operands)
    operands[number] = yielding.source
    terminator.operands = operands
    sizes = analysis.slice_op.mixed_sizes
    rank = len(sizes)
    rewriter.set_insertion_point(InsertPoint.after(new))
    extracted = rewriter.create(
        build_extract_slice(
            new.results[number],
            ([0] * rank, list(sizes), [1] * rank),
            analysis.slice_op.result.type,
        ),
        loop,
    )
    values = list(new.results)
    values[number] = extracted.results[0]
    rewriter.replace_values(loop, values)
    return block.args[1 + number]


__all__ = ["HoistPaddingFailure", "HoistResult", "build_packing_loop_nest", "hoist_padding"]
