"""Split a reduction into a parallel partial reduction and a combining reduction
(upstream's `splitReduction` / `splitReductionByScaling`,
mlir/lib/Dialect/Linalg/Transforms/SplitReduction.cpp).

    C[m, n] += A[m, k] * B[k, n]       split_factor = 4, insert_split_dimension = 2
  becomes (k = 4 * k0 + k1, the k0 chunk made parallel):
    %a = tensor.expand_shape %A [[0], [1, 2]] : 16x32 into 16x4x8
    %b = tensor.expand_shape %B [[0, 1], [2]] : 32x24 into 4x8x24
    %p = linalg.fill 0 into tensor<16x24x4>
    %p2 = linalg.generic [p, p, p, r] (%a[m, k0, k1], %b[k0, k1, n]) -> %p[m, n, k0]
    %C2 = linalg.generic [p, p, r] (%p2[m, n, k0]) -> %C[m, n]        (the combiner op)

With `inner_parallel` the parallel chunk is the inner one (k = k0 * ratio + k1, k1
parallel). The scaling algorithm keeps the inputs and reindexes them
(k -> k0 * factor + k1) with a shape-only `tensor<(K/factor) x factor x i1>` operand.
Dynamic parallel sizes come from the operands (`tensor.dim`); a `linalg.index` of the
body is recomputed from the new loops (`k0 * scale + k1` for the split one). The partial
accumulators start at the combiner's neutral element
(`arith::getNeutralElement`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith, bufferization
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    i1,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects.affine import ApplyOp
from schedir.dialects.linalg import interface as structured
from schedir.dialects.tensor import ExpandShapeOp
from schedir.transform.rewrites.structured_misc import RewriteFailure


@dataclass(frozen=True)
class SplitReductionResult:
    """The partials' tensor.empty (or alloc_tensor), their fill, the split op and the
    combining op (which replaced the original)."""

    init_or_alloc: Operation
    fill: Operation
    split: Operation
    combining: Operation


# --- reduction matching ------------------------------------------------------------------

_FLOAT_NEUTRAL: tuple[tuple[type[Operation], float], ...] = (
    (arith.AddfOp, 0.0),
    (arith.MulfOp, 1.0),
    (arith.MaximumfOp, float("-inf")),
    (arith.MinimumfOp, float("inf")),
)
_NAN_NEUTRAL = (arith.MaxnumfOp, arith.MinnumfOp)
"""maxnum(NaN, x) = x: upstream's neutral elements are -NaN / +NaN."""


def _int_neutral(combiner: Operation, width: int) -> int | None:
    values: tuple[tuple[type[Operation], int], ...] = (
        (arith.AddiOp, 0),
        (arith.OrIOp, 0),
        (arith.XOrIOp, 0),
        (arith.MaxUIOp, 0),
        (arith.AndIOp, -1),
        (arith.MinUIOp, -1),
        (arith.MuliOp, 1),
        (arith.MaxSIOp, -(1 << (width - 1))),
        (arith.MinSIOp, (1 << (width - 1)) - 1),
    )
    return next((value for cls, value in values if isinstance(combiner, cls)), None)


def neutral_element(combiner: Operation) -> Attribute | None:
    """Upstream's `arith::getNeutralElement` of a combiner op (None if it has none)."""
    type_ = combiner.results[0].type
    for cls, neutral in _FLOAT_NEUTRAL:
        if isinstance(combiner, cls):
            return FloatAttr(neutral, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here
    if isinstance(combiner, _NAN_NEUTRAL):
        negative = isinstance(combiner, arith.MaxnumfOp)
        return FloatAttr(_nan(type_, negative=negative), type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here
    if not isinstance(type_, IntegerType):
        return None
    value = _int_neutral(combiner, type_.width.data)
    if value is None:
        return None
    return IntegerAttr(value, type_)


def _nan(type_: Attribute, *, negative: bool) -> float:
    del type_  # a NaN of any width: the sign is what the max/min identity needs
    return -float("nan") if negative else float("nan")


def match_single_combiner(op: Operation, init_index: int = 0) -> Operation | None:
    """Upstream's `matchReduction`: the one op combining the init's block argument with a
    value that does not depend on any init, yielded in the init's position."""
    body = op.regions[0].block
    num_inputs = len(structured.dps_inputs(op))
    out_args = list(body.args[num_inputs:])
    carried = out_args[init_index]
    uses = list(carried.uses)
    if len(uses) != 1:
        return None
    combiner = uses[0].operation
    if len(combiner.operands) != 2:
        return None
    reduced = combiner.operands[1] if combiner.operands[0] is carried else combiner.operands[0]
    if _depends_on(reduced, set(out_args), body):
        return None
    chain: list[Operation] = []
    current = combiner
    while not isinstance(current, linalg.YieldOp):
        if current.regions or len(current.results) != 1 or current.parent_block() is not body:
            return None
        if current.results[0].uses.get_length() != 1:
            return None
        chain.append(current)
        current = next(iter(current.results[0].uses)).operation
    if len(chain) != 1 or current.operands[init_index] is not chain[0].results[0]:
        return None
    return chain[0]


def _depends_on(value: SSAValue, args: set[SSAValue], body: Block) -> bool:
    work = [value]
    seen: set[int] = set()
    while work:
        v = work.pop()
        if v in args:
            return True
        if id(v) in seen or not isinstance(v, OpResult) or v.op.parent_block() is not body:
            continue
        seen.add(id(v))
        work.extend(v.op.operands)
    return False


# --- helpers ------------------------------------------------------------------------------


def _dims(exprs: list[AffineExpr] | tuple[AffineExpr, ...]) -> list[int]:
    return [e.position for e in exprs if isinstance(e, AffineDimExpr)]


def _reassociation(groups: list[list[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    return ArrayAttr([ArrayAttr([IntegerAttr(i, i64) for i in group]) for group in groups])


def _shape(value: SSAValue) -> tuple[int, ...]:
    return value.type.get_shape() if isinstance(value.type, ShapedType) else ()


def _combining_op(
    partial: SSAValue,
    init: SSAValue,
    result_type: Attribute,
    rank: int,
    reduced_position: int,
    combiner: Operation,
) -> linalg.GenericOp:
    """`init[...] = combiner(partial[...], init[...])` reducing `reduced_position`."""
    element = partial.type.get_element_type()  # type: ignore[union-attr]  # the value is shaped (the op verifies it); xDSL declares the element type on each shaped class only
    block = Block(arg_types=[element, init.type.get_element_type()])  # type: ignore[union-attr]  # the value is shaped (the op verifies it); xDSL declares the element type on each shaped class only
    clone = combiner.clone()
    # Upstream sets the cloned combiner's operands to (input, init) in that order.
    clone.operands = [block.args[0], block.args[1]]
    block.add_ops([clone, linalg.YieldOp(clone.results[0])])
    out_map = AffineMap(
        rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d != reduced_position)
    )
    iterators = [
        IteratorTypeAttr.reduction() if d == reduced_position else IteratorTypeAttr.parallel()
        for d in range(rank)
    ]
    return linalg.GenericOp(
        [partial],
        [init],
        Region(block),
        [AffineMapAttr(AffineMap.identity(rank)), AffineMapAttr(out_map)],
        iterators,
        [result_type],
    )


def _check(op: Operation, ratio: int) -> tuple[int, int, Operation, Attribute]:
    """Common preconditions: the reduction dim, its static size, the combiner and its
    neutral element."""
    if ratio <= 1:
        raise RewriteFailure("split ratio needs to be greater than 1")
    if not structured.is_structured(op) or not all(
        isinstance(v.type, TensorType) for v in structured.dps_inits(op)
    ):
        raise RewriteFailure("expected an operation on tensors")
    iterators = structured.iterator_types(op)
    reductions = [d for d, it in enumerate(iterators) if it == "reduction"]
    if len(reductions) != 1:
        raise RewriteFailure("needs a single reduction dimension")
    if not all(m.is_projected_permutation() for m in structured.indexing_maps(op)):
        raise RewriteFailure("expected projected permutation indexing maps")
    reduction_dim = reductions[0]
    size = structured.static_loop_ranges(op)[reduction_dim]
    if size == -1 or size % ratio != 0:
        raise RewriteFailure("Reduction dimension not divisible by split ratio")
    if len(structured.dps_inits(op)) != 1:
        raise RewriteFailure("More than one output in split reduction")
    combiner = match_single_combiner(op)
    if combiner is None:
        raise RewriteFailure("Cannot match the reduction pattern")
    neutral = neutral_element(combiner)
    if neutral is None:
        raise RewriteFailure("Unknown identity value for the reduction")
    return reduction_dim, size, combiner, neutral


def _partials_init(
    shape: list[int],
    element: Attribute,
    neutral: Attribute,
    use_alloc: bool,
    init: SSAValue,
    init_positions: list[int | None],
) -> tuple[Operation, Operation, list[Operation]]:
    """The partials' tensor (empty or alloc_tensor) filled with the neutral element; a
    dynamic size is `tensor.dim` of the init's dimension `init_positions[d]`."""
    ops: list[Operation] = []
    dynamic: list[SSAValue] = []
    for size, position in zip(shape, init_positions, strict=True):
        if size != DYNAMIC_INDEX:
            continue
        assert position is not None  # the split dim is static (its size is the factor)
        index = arith.ConstantOp(IntegerAttr.from_index_int_value(position))
        dim = xtensor.DimOp(init, index.result)
        ops += [index, dim]
        dynamic.append(dim.results[0])
    type_ = TensorType(element, shape)
    if use_alloc:
        empty: Operation = bufferization.AllocTensorOp(type_, dynamic)
    else:
        empty = xtensor.EmptyOp(dynamic, type_)
    constant = arith.ConstantOp(neutral)  # type: ignore[arg-type]  # xDSL's ConstantOp wants a narrower attribute type than the typed attribute built here
    fill = linalg.FillOp([constant.result], [empty.results[0]])
    return empty, fill, [*ops, empty, constant, fill]


def _remap_indices(split: Operation, index_of: Callable[[int], list[Operation]]) -> None:
    """Replace each `linalg.index d` of the split op's body (not those of nested
    structured ops) by the ops `index_of(d)` computing the old loop index."""
    for op in list(split.regions[0].walk()):
        if not isinstance(op, linalg.IndexOp) or _enclosing_structured(op) is not split:
            continue
        new_ops = index_of(op.dim.value.data)
        block = op.parent_block()
        assert block is not None
        block.insert_ops_before(new_ops, op)
        op.results[0].replace_all_uses_with(new_ops[-1].results[0])
        block.erase_op(op)


def _enclosing_structured(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not structured.is_structured(parent):
        parent = parent.parent_op()
    return parent


def _linear_index(outer: int, inner: int, scale: int) -> list[Operation]:
    """`outer * scale + inner` of two loop indices, as upstream builds it."""
    outer_op, inner_op = linalg.IndexOp(outer), linalg.IndexOp(inner)
    map_ = AffineMap(0, 2, (AffineSymExpr(0) * scale + AffineSymExpr(1),))
    apply = ApplyOp([outer_op.results[0], inner_op.results[0]], AffineMapAttr(map_))
    return [outer_op, inner_op, apply]


def _new_generic(
    op: Operation,
    inputs: list[SSAValue],
    fill: Operation,
    maps: list[AffineMap],
    iterators: list[str],
) -> linalg.GenericOp:
    """The split op: `op`'s body (moved) over the new operands and loops."""
    return linalg.GenericOp(
        inputs,
        [fill.results[0]],
        op.regions[0].clone(),
        [AffineMapAttr(m) for m in maps],
        [
            IteratorTypeAttr.parallel() if it == "parallel" else IteratorTypeAttr.reduction()
            for it in iterators
        ],
        [fill.results[0].type],
    )


def _finish(
    rewriter: PatternRewriter, op: Operation, new_ops: list[Operation], combining: Operation
) -> None:
    for new_op in new_ops:
        new_op.location = op.location
    rewriter.insert(new_ops, InsertPoint.before(op))
    rewriter.replace(op, [], list(combining.results))


# --- the two algorithms --------------------------------------------------------------------


def split_reduction(
    rewriter: PatternRewriter,
    op: Operation,
    ratio: int,
    insert_index: int,
    inner_parallel: bool = False,
    use_alloc: bool = False,
) -> SplitReductionResult:
    """Upstream's `splitReduction`: expand the reduced dim of the inputs into
    (ratio, size / ratio) (or (size / ratio, ratio) with `inner_parallel`), reduce into
    partials with a new parallel dim, then combine the partials."""
    reduction_dim, size, combiner, neutral = _check(op, ratio)
    insert_dim = reduction_dim + 1 if inner_parallel else insert_index
    init = structured.dps_inits(op)[0]
    init_shape = list(_shape(init))
    if insert_index > len(init_shape):
        raise RewriteFailure(
            "Insert dimension position too large compared to intermediate tensor size"
        )

    def shift(dim: int) -> AffineDimExpr:
        return AffineDimExpr(dim if dim < insert_dim else dim + 1)

    maps = structured.indexing_maps(op)
    num_loops = structured.num_loops(op)
    new_ops: list[Operation] = []
    new_inputs: list[SSAValue] = []
    new_maps: list[AffineMap] = []
    for operand, map_ in zip(structured.dps_inputs(op), maps, strict=False):
        shape = _shape(operand)
        new_shape: list[int] = []
        exprs: list[AffineExpr] = []
        groups: list[list[int]] = []
        dynamic_positions: list[int] = []
        index = 0
        for position, dim in enumerate(_dims(map_.results)):
            if dim == reduction_dim:
                if inner_parallel:
                    new_shape += [shape[position] // ratio, ratio]
                    exprs += [shift(dim), AffineDimExpr(insert_dim)]
                else:
                    new_shape += [ratio, shape[position] // ratio]
                    exprs += [AffineDimExpr(insert_dim), shift(dim)]
                groups.append([index, index + 1])
                index += 2
                continue
            new_shape.append(shape[position])
            if shape[position] == DYNAMIC_INDEX:
                dynamic_positions.append(position)
            exprs.append(shift(dim))
            groups.append([index])
            index += 1
        new_maps.append(AffineMap(num_loops + 1, 0, tuple(exprs)))
        if tuple(new_shape) == tuple(shape):
            new_inputs.append(operand)
            continue
        expanded_type = TensorType(operand.type.get_element_type(), new_shape)  # type: ignore[union-attr]  # the value is shaped (the op verifies it); xDSL declares the element type on each shaped class only
        dynamic: list[SSAValue] = []
        for position in dynamic_positions:
            constant = arith.ConstantOp(IntegerAttr.from_index_int_value(position))
            dim_op = xtensor.DimOp(operand, constant.result)
            new_ops += [constant, dim_op]
            dynamic.append(dim_op.results[0])
        expand = ExpandShapeOp.build(
            operands=[operand, dynamic],
            result_types=[expanded_type],
            properties={
                "reassociation": _reassociation(groups),
                "static_output_shape": DenseArrayBase.from_list(i64, new_shape),
            },
        )
        new_ops.append(expand)
        new_inputs.append(expand.results[0])
    out_map = maps[len(structured.dps_inputs(op))]
    out_dims = _dims(out_map.results)
    partial_shape: list[int] = []
    init_positions: list[int | None] = []
    out_exprs: list[AffineExpr] = []
    for index in range(len(init_shape) + 1):
        if index == insert_index:
            partial_shape.append(ratio)
            init_positions.append(None)
            out_exprs.append(AffineDimExpr(insert_dim))
        if index < len(init_shape):
            partial_shape.append(init_shape[index])
            init_positions.append(index)
            out_exprs.append(shift(out_dims[index]))
    element = op.regions[0].block.args[len(structured.dps_inputs(op))].type
    empty, fill, init_ops = _partials_init(
        partial_shape, element, neutral, use_alloc, init, init_positions
    )
    new_ops += init_ops
    new_maps.append(AffineMap(num_loops + 1, 0, tuple(out_exprs)))
    iterators = list(structured.iterator_types(op))
    new_iterators: list[str] = []
    for index, it in enumerate(iterators):
        if index == insert_dim:
            new_iterators.append("parallel")
        new_iterators.append(it)
    if insert_dim == len(iterators):
        new_iterators.append("parallel")
    split = _new_generic(op, new_inputs, fill, new_maps, new_iterators)

    def index_of(dim: int) -> list[Operation]:
        if dim != reduction_dim:
            return [linalg.IndexOp(shift(dim).position)]
        if inner_parallel:  # k = k0 * ratio + k1, k1 the new parallel loop
            return _linear_index(shift(dim).position, insert_dim, ratio)
        return _linear_index(insert_dim, shift(dim).position, size // ratio)

    _remap_indices(split, index_of)
    combining = _combining_op(
        split.results[0], init, op.result_types[0], len(partial_shape), insert_index, combiner
    )
    new_ops += [split, combining]
    _finish(rewriter, op, new_ops, combining)
    return SplitReductionResult(empty, fill, split, combining)


def split_reduction_by_scaling(
    rewriter: PatternRewriter,
    op: Operation,
    factor: int,
    insert_dim: int,
    use_alloc: bool = False,
) -> SplitReductionResult:
    """Upstream's `splitReductionByScaling`: reindex the reduced dim k as
    `k0 * factor + k1` (k0 parallel, size / factor partials, k1 reduced) and combine."""
    reduction_dim, size, combiner, neutral = _check(op, factor)
    num_loops = structured.num_loops(op)
    if insert_dim >= num_loops:
        raise RewriteFailure("first reduction dimension not divisible by split factor")
    if insert_dim != reduction_dim:
        # Upstream inserts the partials' dim at `insert_split_dimension` in their type
        # but at the reduction position in their indexing map, and then combines along
        # the former: unless the two agree that computes a wrong result.
        raise RewriteFailure(
            f"the scaling algorithm needs insert_split_dimension ({insert_dim}) to be the "
            f"reduction dimension ({reduction_dim})"
        )
    chunks = size // factor
    init = structured.dps_inits(op)[0]
    init_shape = list(_shape(init))
    partial_shape = [*init_shape[:insert_dim], chunks, *init_shape[insert_dim:]]
    positions = list(range(len(init_shape)))
    init_positions = [*positions[:insert_dim], None, *positions[insert_dim:]]
    element = op.regions[0].block.args[len(structured.dps_inputs(op))].type
    empty, fill, new_ops = _partials_init(
        partial_shape, element, neutral, use_alloc, init, init_positions
    )
    # Old loop d (d > k) becomes d + 1; k becomes k0 * factor + k1 with k0 = k, k1 = k + 1.
    reindex = AffineMap(
        num_loops + 1,
        0,
        tuple(
            AffineDimExpr(d) * factor + AffineDimExpr(d + 1)
            if d == reduction_dim
            else AffineDimExpr(d if d < reduction_dim else d + 1)
            for d in range(num_loops)
        ),
    )
    shift = AffineMap(
        num_loops + 1,
        0,
        tuple(AffineDimExpr(d if d <= reduction_dim else d + 1) for d in range(num_loops)),
    )
    maps = structured.indexing_maps(op)
    inputs = list(structured.dps_inputs(op))
    new_maps = [m.compose(reindex) for m in maps[: len(inputs)]]
    new_maps.append(
        AffineMap(
            num_loops + 1, 0, (AffineDimExpr(reduction_dim), AffineDimExpr(reduction_dim + 1))
        )
    )
    out_map = maps[len(inputs)].compose(shift)
    out_results = list(out_map.results)
    out_results.insert(reduction_dim, AffineDimExpr(reduction_dim))
    new_maps.append(AffineMap(num_loops + 1, 0, tuple(out_results)))
    shape_only = xtensor.EmptyOp([], TensorType(i1, [chunks, factor]))
    new_ops.append(shape_only)
    iterators = list(structured.iterator_types(op))
    iterators.insert(reduction_dim, "parallel")
    split = _new_generic(op, [*inputs, shape_only.results[0]], fill, new_maps, iterators)
    body = split.regions[0].block
    # The shape-only operand's block argument follows the inputs.
    body.insert_arg(i1, len(inputs))

    def index_of(dim: int) -> list[Operation]:
        if dim == reduction_dim:  # k = k0 * factor + k1
            return _linear_index(dim, dim + 1, factor)
        return [linalg.IndexOp(dim if dim < reduction_dim else dim + 1)]

    _remap_indices(split, index_of)
    combining = _combining_op(
        split.results[0], init, op.result_types[0], len(partial_shape), insert_dim, combiner
    )
    new_ops += [split, combining]
    _finish(rewriter, op, new_ops, combining)
    return SplitReductionResult(empty, fill, split, combining)


__all__ = [
    "SplitReductionResult",
    "match_single_combiner",
    "neutral_element",
    "split_reduction",
    "split_reduction_by_scaling",
]
