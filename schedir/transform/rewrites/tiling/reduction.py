"""Partial-reduction tiling (upstream's `tileUsingSCF` with the
`PartialReductionOuterReduction` / `PartialReductionOuterParallel` strategies and the
`PartialReductionOpInterface` of linalg ops, TilingInterfaceImpl.cpp).

`scf.for` (tile_reduction_using_for): a partial accumulator holds one value per position
of the reduction tile; each iteration folds its tile into it with the reduction loops
made parallel, and a `linalg.reduce` with the same combiner merges the partials:

    %p0 = linalg.fill %neutral into tensor<?x5xf32>
    %p = scf.for %k = 0 to %K step 5 iter_args(%acc = %p0) {
      %in  = tensor.extract_slice %A[0, %k] [%M, %sz]
      %ac  = tensor.extract_slice %acc[0, 0] [%M, %sz]
      %t = linalg.generic [p, p] ins(%in) outs(%ac) { acc + in }
      tensor.insert_slice %t into %acc[0, 0] [%M, %sz]
    }
    %r = linalg.reduce ins(%p) outs(%C) dimensions = [1] { in + init }

`scf.forall` (tile_reduction_using_forall): each thread (or each tile) reduces its chunk
into its own slot of the partials (a rank-reducing slice), then the same merge.

A subtracting combiner `acc - x` accumulates from 0 (each partial is minus the sum of
its tile), so its partials are merged with an add (`init + sum(partials)`), not with the
combiner itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import scf as xscf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
)
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import ExtractSliceOp, ParallelInsertSliceOp
from schedir.transform.rewrites.split_reduction import match_single_combiner, neutral_element
from schedir.transform.rewrites.tiling.affine import Aff, IndexBuilder, Ofr, compose, constant_of
from schedir.transform.rewrites.tiling.interface import (
    Range,
    insertion_point,
    iteration_domain,
    offset_indices,
    slice_parameters,
)
from schedir.transform.rewrites.tiling.tile_using_scf import bounded_tile_size, insert_slice


class PartialReductionError(Exception):
    """The op cannot be tiled so; upstream reports `message` at the payload op."""


@dataclass(frozen=True)
class ReductionTilingResult:
    """The partials' fills, the partial (tiled) ops, the merging ops, the outermost loop
    and the values replacing the op's results."""

    fills: tuple[Operation, ...]
    partial_ops: tuple[Operation, ...]
    merge_ops: tuple[Operation, ...]
    loop: Operation
    replacements: tuple[SSAValue, ...] = field(default=())


_SUBTRACTING: tuple[tuple[type[Operation], type[arith.AddfOp | arith.AddiOp]], ...] = (
    (arith.SubfOp, arith.AddfOp),
    (arith.SubiOp, arith.AddiOp),
)
"""Combiners `acc - x` and the op that merges their partials."""


def _merging_op(combiner: Operation) -> type[arith.AddfOp | arith.AddiOp] | None:
    """The op merging the partials of a subtracting combiner (None for other combiners)."""
    return next((merge for sub, merge in _SUBTRACTING if isinstance(combiner, sub)), None)


@dataclass
class _Reduction:
    """One init of the op: its combiner, the partials' neutral element and map."""

    combiner: Operation
    neutral: Attribute
    partial_map: AffineMap


def _reductions(op: Operation, reduction_dims: Sequence[int]) -> list[_Reduction]:
    """Upstream's `generateInitialTensorForPartialReduction` checks, per init."""
    found: list[_Reduction] = []
    num_inputs = len(dps_inputs(op))
    maps = indexing_maps(op)
    for index in range(len(dps_inits(op))):
        combiner = match_single_combiner(op, index)
        if combiner is None:
            raise PartialReductionError("Failed to anaysis the reduction operation.")
        neutral = neutral_element(combiner)
        if neutral is None and _is_subtraction_of_input(op, index, combiner):
            type_ = combiner.results[0].type
            neutral = _zero(type_)
        if neutral is None:
            raise PartialReductionError(
                "Failed to get an identity value for the reduction operation."
            )
        init_map = maps[num_inputs + index]
        partial_map = AffineMap(
            init_map.num_dims,
            0,
            (*init_map.results, *(AffineDimExpr(d) for d in reduction_dims)),
        )
        found.append(_Reduction(combiner, neutral, partial_map))
    return found


def _zero(type_: Attribute) -> Attribute:
    if isinstance(type_, IntegerType):
        return IntegerAttr(0, type_)
    return FloatAttr(0.0, type_)  # type: ignore[arg-type]  # subf: a float type


def _is_subtraction_of_input(op: Operation, index: int, combiner: Operation) -> bool:
    """`acc - x` with the accumulator on the left: partials from 0 merge by addition."""
    if _merging_op(combiner) is None:
        return False
    body = op.regions[0].block
    accumulator = body.args[len(dps_inputs(op)) + index]
    return combiner.operands[0] is accumulator


def _check_sizes(op: Operation, sizes: Sequence[Ofr], reduction_dims: Sequence[int]) -> None:
    iterators = iterator_types(op)
    for d, size in enumerate(sizes):
        if constant_of(size) != 0 and (iterators[d] != "reduction" or d not in reduction_dims):
            raise PartialReductionError(
                "tiling parallel dimensions is not supported with partial reduction tiling "
                "strategies"
            )


def _padded(values: Sequence[Ofr], n: int) -> list[Ofr]:
    return (list(values) + [0] * n)[:n]


def _partials(
    b: IndexBuilder,
    op: Operation,
    reductions: Sequence[_Reduction],
    shape_of: dict[int, Ofr],
    domain: Sequence[Range],
) -> tuple[list[Operation], list[SSAValue]]:
    """The partial accumulators: `tensor.empty` of the partial shape filled with the
    combiner's neutral element. `shape_of` sizes the reduction dims, the domain the rest."""
    fills: list[Operation] = []
    values: list[SSAValue] = []
    for index, reduction in enumerate(reductions):
        sizes: list[Ofr] = []
        for expr in reduction.partial_map.results:
            d = cast(AffineDimExpr, expr).position
            sizes.append(shape_of[d] if d in shape_of else domain[d].size)
        element = op.regions[0].block.args[len(dps_inputs(op)) + index].type
        type_ = TensorType(element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes])
        empty = b.insert(xtensor.EmptyOp([s for s in sizes if isinstance(s, SSAValue)], type_))
        constant = b.insert(arith.ConstantOp(reduction.neutral))  # type: ignore[arg-type]  # xDSL's ConstantOp wants a narrower attribute type than the typed attribute built here
        fill = b.insert(linalg.FillOp([constant.results[0]], [empty.results[0]]))
        fills.append(fill)
        values.append(fill.results[0])
    return fills, values


def _slice(
    b: IndexBuilder,
    source: SSAValue,
    offsets: Sequence[Ofr],
    sizes: Sequence[Ofr],
    dropped: Sequence[bool],
) -> SSAValue:
    """A unit-stride slice whose `dropped` unit dims are rank-reduced away."""
    source_type = cast(TensorType[Attribute], source.type)
    kept = [s for s, drop in zip(sizes, dropped, strict=True) if not drop]
    result_type = TensorType(
        source_type.get_element_type(), [s if isinstance(s, int) else DYNAMIC_INDEX for s in kept]
    )
    op = ExtractSliceOp(source, list(offsets), list(sizes), [1] * len(sizes), result_type)
    return b.insert(op).results[0]


def _tiled_inputs(
    b: IndexBuilder,
    op: Operation,
    offsets: Sequence[Ofr],
    sizes: Sequence[Ofr],
    tiled_dims: Sequence[int],
) -> list[SSAValue]:
    """Upstream's `makeTiledShapes` for the inputs: sliced when their map uses a tiled
    loop, left whole otherwise."""
    values: list[SSAValue] = []
    maps = indexing_maps(op)
    for value, map_ in zip(dps_inputs(op), maps, strict=False):
        used = set().union(*(e.used_dims() for e in map_.results)) if map_.results else set()
        if not isinstance(value.type, ShapedType) or not used & set(tiled_dims):
            values.append(value)
            continue
        slice_offsets, slice_sizes = slice_parameters(b, value, map_, offsets, sizes)
        values.append(_slice(b, value, slice_offsets, slice_sizes, [False] * len(slice_sizes)))
    return values


def _partial_op(
    b: IndexBuilder,
    op: Operation,
    inputs: Sequence[SSAValue],
    inits: Sequence[SSAValue],
    reductions: Sequence[_Reduction],
    reduction_dims: Sequence[int],
    outer_reduction: bool,
) -> Operation:
    """The op on one tile: with the outer-reduction strategy a generic whose inits use
    the partial maps and whose tiled reduction loops are parallel; otherwise `op` itself
    on the tiled operands."""
    if not outer_reduction:
        partial = type(op).create(
            operands=[*inputs, *inits],
            result_types=[v.type for v in inits],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[op.regions[0].clone()],
        )
        return b.insert(partial)
    maps = list(indexing_maps(op))
    iterators = list(iterator_types(op))
    num_inputs = len(dps_inputs(op))
    for index, reduction in enumerate(reductions):
        maps[num_inputs + index] = reduction.partial_map
    for d in reduction_dims:
        iterators[d] = "parallel"
    partial = linalg.GenericOp(
        list(inputs),
        list(inits),
        op.regions[0].clone(),
        [AffineMapAttr(m) for m in maps],
        [
            IteratorTypeAttr.parallel() if it == "parallel" else IteratorTypeAttr.reduction()
            for it in iterators
        ],
        [v.type for v in inits],
    )
    return b.insert(partial)


def _merge(
    b: IndexBuilder,
    op: Operation,
    partials: Sequence[SSAValue],
    reductions: Sequence[_Reduction],
    count: int,
) -> list[Operation]:
    """`linalg.reduce` of each partial over its appended dims into the original init."""
    merges: list[Operation] = []
    for partial, init, reduction in zip(partials, dps_inits(op), reductions, strict=True):
        rank = len(cast(ShapedType, init.type).get_shape())
        element = cast(TensorType[Attribute], partial.type).get_element_type()
        block = Block(
            arg_types=[element, cast(TensorType[Attribute], init.type).get_element_type()]
        )
        combiner = reduction.combiner
        merged = _merging_op(combiner)
        if merged is not None and neutral_element(combiner) is None:
            body_op: Operation = merged(block.args[0], block.args[1])
        else:
            body_op = combiner.clone()
            body_op.operands = [block.args[0], block.args[1]]
        block.add_ops([body_op, linalg.YieldOp(body_op.results[0])])
        reduce = linalg.ReduceOp([partial], [init], list(range(rank, rank + count)), Region(block))
        merges.append(b.insert(reduce))
    return merges


def _common(
    rewriter: PatternRewriter,
    op: Operation,
    reduction_dims: Sequence[int] | None,
    sizes: Sequence[Ofr],
) -> tuple[IndexBuilder, list[Range], list[int], list[_Reduction]]:
    if not is_structured(op):
        raise PartialReductionError("Operation should implement PartialReductionOpInterface")
    if not all(isinstance(v.type, TensorType) for v in dps_inits(op)):
        raise PartialReductionError("expected an operation on tensors")
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.before(op)
    domain = iteration_domain(b, op)
    n = len(domain)
    padded = _padded(sizes, n)
    iterators = iterator_types(op)
    dims = (
        list(reduction_dims)
        if reduction_dims
        else [d for d in range(n) if iterators[d] == "reduction" and constant_of(padded[d]) != 0]
    )
    _check_sizes(op, padded, dims)
    return b, domain, dims, _reductions(op, dims)


def tile_reduction_using_for(
    rewriter: PatternRewriter,
    op: Operation,
    tile_sizes: Sequence[int],
    reduction_dims: Sequence[int] = (),
) -> ReductionTilingResult:
    """Tile the reduction loops of `op` by `tile_sizes` into an `scf.for` nest that
    accumulates partials, then merge them (outer-reduction strategy)."""
    b, domain, dims, reductions = _common(rewriter, op, reduction_dims, tile_sizes)
    n = len(domain)
    tiles = _padded(tile_sizes, n)
    if not dims:
        raise PartialReductionError("no reduction dimension is tiled")
    fills, partials = _partials(b, op, reductions, {d: tiles[d] for d in dims}, domain)
    tiled = [d for d in range(n) if constant_of(tiles[d]) != 0]
    lbs = [b.value(domain[d].offset) for d in tiled]
    ubs = [b.value(domain[d].size) for d in tiled]
    steps = [b.value(tiles[d]) for d in tiled]
    loops: list[xscf.ForOp] = []
    ivs: dict[int, SSAValue] = {}
    iter_args: Sequence[SSAValue] = partials
    for d, lb, ub, step in zip(tiled, lbs, ubs, steps, strict=True):
        block = Block(arg_types=[IndexType(), *(v.type for v in iter_args)])
        loop = xscf.ForOp(lb, ub, step, list(iter_args), Region(block))
        b.insert(loop)
        loops.append(loop)
        ivs[d] = block.args[0]
        rewriter.insertion_point = InsertPoint.at_end(block)
        iter_args = block.args[1:]
    offsets: list[Ofr] = []
    sizes: list[Ofr] = []
    for d in range(n):
        if d in ivs:
            offsets.append(ivs[d])
            sizes.append(bounded_tile_size(b, domain[d], Aff.opaque(ivs[d]), tiles[d]))
        else:
            offsets.append(domain[d].offset)
            sizes.append(domain[d].size)
    inputs = _tiled_inputs(b, op, offsets, sizes, dims)
    inits: list[SSAValue] = []
    positions: list[tuple[list[Ofr], list[Ofr]]] = []
    for acc, reduction in zip(iter_args, reductions, strict=True):
        init_offsets: list[Ofr] = []
        init_sizes: list[Ofr] = []
        for expr in reduction.partial_map.results:
            d = cast(AffineDimExpr, expr).position
            init_offsets.append(0 if d in dims else offsets[d])
            init_sizes.append(sizes[d])
        inits.append(_slice(b, acc, init_offsets, init_sizes, [False] * len(init_sizes)))
        positions.append((init_offsets, init_sizes))
    partial = _partial_op(b, op, inputs, inits, reductions, dims, outer_reduction=True)
    offset_indices(b, partial, offsets)
    yielded = [
        insert_slice(b, value, acc, pos[0], pos[1])
        for value, acc, pos in zip(partial.results, iter_args, positions, strict=True)
    ]
    b.insert(xscf.YieldOp(*yielded))
    for outer, inner in pairwise(loops):
        rewriter.insertion_point = InsertPoint.at_end(outer.body.block)
        b.insert(xscf.YieldOp(*inner.results))
    rewriter.insertion_point = InsertPoint.before(op)
    merges = _merge(b, op, list(loops[0].results), reductions, len(dims))
    replacements = tuple(r for m in merges for r in m.results)
    rewriter.replace(op, [], list(replacements))
    return ReductionTilingResult(tuple(fills), (partial,), tuple(merges), loops[0], replacements)


def tile_reduction_using_forall(
    rewriter: PatternRewriter,
    op: Operation,
    num_threads: Sequence[int],
    tile_sizes: Sequence[int] = (),
    mapping: Sequence[Attribute] = (),
) -> ReductionTilingResult:
    """Distribute the reduction loops of `op` over an `scf.forall` (by `num_threads`, or
    else by `tile_sizes`), each iteration reducing its chunk into its own slot of the
    partials, then merge them (outer-parallel strategy)."""
    by_threads = any(t != 0 for t in num_threads)
    b, domain, dims, reductions = _common(
        rewriter, op, None, num_threads if by_threads else tile_sizes
    )
    n = len(domain)
    if not dims:
        raise PartialReductionError("no reduction dimension is tiled")
    counts: dict[int, Ofr] = {}
    tiles: dict[int, Ofr] = {}
    if by_threads:
        threads = _padded(num_threads, n)
        for d in dims:
            extent = compose(domain[d].size) - compose(domain[d].offset)
            tiles[d] = b.apply(b.ceildiv(extent, compose(threads[d])))
            counts[d] = threads[d]
    else:
        sizes_by_dim = _padded(tile_sizes, n)
        for d in dims:
            tiles[d] = sizes_by_dim[d]
            counts[d] = b.apply(
                b.ceildiv(compose(domain[d].size) - compose(domain[d].offset), compose(tiles[d]))
            )
    fills, partials = _partials(b, op, reductions, counts, domain)
    if by_threads:
        forall = ForallOp(
            [0] * len(dims),
            [counts[d] for d in dims],
            [1] * len(dims),
            partials,
            list(mapping) or None,
        )
    else:
        forall = ForallOp(
            [domain[d].offset for d in dims],
            [domain[d].size for d in dims],
            [tiles[d] for d in dims],
            partials,
            list(mapping) or None,
        )
    b.insert(forall)
    rewriter.insertion_point = InsertPoint.before(forall.terminator)
    ivs = dict(zip(dims, forall.induction_vars, strict=True))
    offsets: list[Ofr] = []
    sizes: list[Ofr] = []
    slots: dict[int, Ofr] = {}
    for d in range(n):
        loop = domain[d]
        if d not in ivs:
            offsets.append(loop.offset)
            sizes.append(loop.size)
            continue
        iv = ivs[d]
        if by_threads:
            offset = b.apply(compose(loop.offset) + b.mul(Aff.opaque(iv), compose(tiles[d])))
            size: Ofr = tiles[d]
            if not _residual_is_zero(loop, counts[d], tiles[d]):
                size = b.min([compose(loop.size) - compose(offset), compose(tiles[d])])
            if not _can_omit_bounds_check(tiles[d], counts[d], loop.size):
                size = b.max([Aff.const(0), compose(size)])
            slots[d] = iv
        else:
            offset = iv
            size = bounded_tile_size(b, loop, Aff.opaque(iv), tiles[d])
            slots[d] = b.apply(_floordiv(iv, tiles[d]))
        offsets.append(offset)
        sizes.append(size)
    inputs = _tiled_inputs(b, op, offsets, sizes, dims)
    inits: list[SSAValue] = []
    positions: list[tuple[list[Ofr], list[Ofr]]] = []
    for acc, reduction in zip(forall.region_iter_args, reductions, strict=True):
        init_offsets: list[Ofr] = []
        init_sizes: list[Ofr] = []
        dropped: list[bool] = []
        for expr in reduction.partial_map.results:
            d = cast(AffineDimExpr, expr).position
            if d in dims:
                init_offsets.append(slots[d])
                init_sizes.append(1)
                dropped.append(True)
            else:
                init_offsets.append(offsets[d])
                init_sizes.append(sizes[d])
                dropped.append(False)
        inits.append(_slice(b, acc, init_offsets, init_sizes, dropped))
        positions.append((init_offsets, init_sizes))
    partial = _partial_op(b, op, inputs, inits, reductions, dims, outer_reduction=False)
    offset_indices(b, partial, offsets)
    with insertion_point(b, InsertPoint.at_end(forall.terminator.region.block)):
        for value, acc, (init_offsets, init_sizes) in zip(
            partial.results, forall.region_iter_args, positions, strict=True
        ):
            b.insert(ParallelInsertSliceOp(value, acc, init_offsets, init_sizes))
    rewriter.insertion_point = InsertPoint.before(op)
    merges = _merge(b, op, list(forall.results), reductions, len(dims))
    replacements = tuple(r for m in merges for r in m.results)
    rewriter.replace(op, [], list(replacements))
    return ReductionTilingResult(tuple(fills), (partial,), tuple(merges), forall, replacements)


def _floordiv(iv: SSAValue, tile: Ofr) -> Aff:
    """`iv floordiv tile`: which tile (and so which partial slot) an iteration is."""
    step = constant_of(tile)
    if step is None:
        raise PartialReductionError("dynamic tile sizes are not supported")
    return Aff(Aff.opaque(iv).expr // step, (iv,))


def _residual_is_zero(loop: Range, threads: Ofr, tile: Ofr) -> bool:
    """Whether every thread gets a full tile (`size - threads * tile` folds to 0)."""
    values = [constant_of(v) for v in (loop.offset, loop.size, threads, tile)]
    if any(v is None for v in values):
        return False
    offset, size, count, step = cast(list[int], values)
    return size - (offset + count * step) == 0


def _can_omit_bounds_check(tile: Ofr, threads: Ofr, size: Ofr) -> bool:
    """Whether no thread starts past the end (`tile * (threads - 1) < size`, static)."""
    values = [constant_of(v) for v in (tile, threads, size)]
    if any(v is None for v in values):
        return False
    step, count, extent = cast(list[int], values)
    return step * (count - 1) < extent


__all__ = [
    "PartialReductionError",
    "ReductionTilingResult",
    "tile_reduction_using_for",
    "tile_reduction_using_forall",
]
