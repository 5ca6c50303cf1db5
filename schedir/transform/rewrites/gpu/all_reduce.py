"""A reduction over the threads of a block as one `gpu.all_reduce` per thread: the payload
algorithm of `transform.schedir.gpu.reduce_to_all_reduce`; and its per-warp form, one
`gpu.subgroup_reduce` per lane and row (`reduce_to_subgroup_reduce`, of
`transform.schedir.gpu.reduce_to_subgroup_reduce`: several rows, each reduced by its own
cluster of lanes, each lane first combining its adjacent partials in order).

The target is the merge of per-thread partial results that `tile_reduction_using_for` /
`tile_reduction_using_forall` leave (a `linalg.reduce` of a `1x...xN` partial tensor into a
`1x...x1` init): every dim but one is a parallel dim of extent 1, the reduction dim has a
static extent N, and the body combines the input with the init in one recognized op. The
partials go through an `scf.forall` over N iterations (one per thread once mapped) in which
iteration `t` reads partial `t`, reduces it over the block with `gpu.all_reduce` and writes
the result back into slot `t` (its own: no two iterations touch the same element); the
target then merges only slot 0 into its init (a one-element reduction, for one thread to
run: `tile_using_forall ... num_threads [1]`).

    %r = linalg.reduce ins(%p : tensor<1x256xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %out: f32) { %s = arith.addf %in, %out : f32  linalg.yield %s : f32 }

becomes

    %r = scf.forall (%t) in (256) shared_outs(%o = %p) -> (tensor<1x256xf32>) {
      %v = tensor.extract %o[%c0, %t] : tensor<1x256xf32>
      %a = gpu.all_reduce add %v uniform {
      } : (f32) -> f32
      %slot = tensor.extract_slice %o[0, %t] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
      %f = linalg.fill ins(%a : f32) outs(%slot : tensor<1x1xf32>) -> tensor<1x1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %o[0, %t] [1, 1] [1, 1]
          : tensor<1x1xf32> into tensor<1x256xf32>
      }
    } {mapping = [#gpu.thread<x>]}
    %first = tensor.extract_slice %r[0, 0] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
    %m = linalg.reduce ins(%first : tensor<1x1xf32>) outs(%init : tensor<1xf32>) dimensions = [1] ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ShapedType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu, linalg
from schedir.dialects.gpu.reduce import AllReduceOperation
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
)
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import (
    ExtractOp,
    ExtractSliceOp,
    ParallelInsertSliceOp,
)

_KINDS: Sequence[tuple[type[Operation], AllReduceOperation]] = (
    (arith.AddfOp, AllReduceOperation.ADD),
    (arith.AddiOp, AllReduceOperation.ADD),
    (arith.MulfOp, AllReduceOperation.MUL),
    (arith.MuliOp, AllReduceOperation.MUL),
    (arith.MaxnumfOp, AllReduceOperation.MAXNUMF),
    (arith.MinnumfOp, AllReduceOperation.MINNUMF),
    (arith.MaximumfOp, AllReduceOperation.MAXIMUMF),
    (arith.MinimumfOp, AllReduceOperation.MINIMUMF),
    (arith.MaxSIOp, AllReduceOperation.MAXSI),
    (arith.MinSIOp, AllReduceOperation.MINSI),
    (arith.MaxUIOp, AllReduceOperation.MAXUI),
    (arith.MinUIOp, AllReduceOperation.MINUI),
    (arith.AndIOp, AllReduceOperation.AND),
    (arith.OrIOp, AllReduceOperation.OR),
    (arith.XOrIOp, AllReduceOperation.XOR),
)
"""The combiner ops of a reduction body and the `gpu.all_reduce` operation of each."""


class AllReduceRewriteError(Exception):
    """The target is not a reduction this rewrite handles (a silenceable failure)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class AllReduceRewrite:
    """What `reduce_to_all_reduce` built: the forall, its `gpu.all_reduce`, and the target
    now merging only the first (reduced) partial."""

    forall: ForallOp
    all_reduce: gpu.AllReduceOp
    merge: Operation


def _kind(combiner: Operation) -> AllReduceOperation | None:
    return next((kind for cls, kind in _KINDS if isinstance(combiner, cls)), None)


def _check(op: Operation, *, rows: bool = False) -> tuple[int, int, Operation, AllReduceOperation]:
    """The reduction dim, its extent, the combiner and its operation, or an error; with
    `rows`, the parallel dims may have any static extent."""
    if not is_structured(op):
        raise AllReduceRewriteError("expected a linalg operation")
    inputs, inits = dps_inputs(op), dps_inits(op)
    if len(inputs) != 1 or len(inits) != 1:
        raise AllReduceRewriteError(
            f"expected one input and one init, got {len(inputs)} and {len(inits)}"
        )
    types = [inputs[0].type, inits[0].type]
    if not all(isinstance(t, TensorType) for t in types):
        raise AllReduceRewriteError("expected an operation on tensors")
    shapes = [cast(ShapedType, t).get_shape() for t in types]
    if any(d < 0 for shape in shapes for d in shape):
        got = " and ".join("x".join("?" if d < 0 else str(d) for d in shape) for shape in shapes)
        raise AllReduceRewriteError(
            f"expected static shapes, got {got} (a tile of a dimension its tile size does "
            "not divide has a dynamic size)"
        )
    iterators = iterator_types(op)
    reductions = [i for i, it in enumerate(iterators) if it == "reduction"]
    if len(reductions) != 1:
        raise AllReduceRewriteError(f"expected one reduction dim, got {len(reductions)}")
    (dim,) = reductions
    in_map, init_map = indexing_maps(op)
    for m in (in_map, init_map):
        if not all(isinstance(e, AffineDimExpr) for e in m.results):
            raise AllReduceRewriteError("expected projected permutation indexing maps")
    extents = dict.fromkeys(range(len(iterators)), 1)
    for expr, size in zip(in_map.results, shapes[0], strict=True):
        extents[cast(AffineDimExpr, expr).position] = size
    parallel = [extents[d] for d in range(len(iterators)) if d != dim]
    if not rows and any(size != 1 for size in parallel):
        raise AllReduceRewriteError(
            f"expected parallel dims of extent 1 (one reduction per block), got {parallel}"
        )
    body = op.regions[0].block
    in_arg, out_arg = body.args
    ops = list(body.ops)
    if len(ops) != 2 or len(ops[0].operands) != 2 or set(ops[0].operands) != {in_arg, out_arg}:
        raise AllReduceRewriteError("expected a body that combines the input with the init")
    combiner = ops[0]
    if tuple(ops[1].operands) != (combiner.results[0],):
        raise AllReduceRewriteError("expected a body that yields its combination")
    kind = _kind(combiner)
    if kind is None:
        raise AllReduceRewriteError(f"'{combiner.name}' is not a combiner gpu.all_reduce has")
    return dim, extents[dim], combiner, kind


def reduce_to_all_reduce(
    rewriter: PatternRewriter,
    op: Operation,
    mapping: Sequence[Attribute],
    *,
    merge_in_threads: bool = False,
) -> AllReduceRewrite:
    """Reduce the partials of `op` over the block with one `gpu.all_reduce` per thread and
    leave `op` merging only the first of them (see the module docstring); `mapping` is the
    forall's (one thread or warp dimension). With `merge_in_threads`, every iteration
    combines its reduced value with the init itself (the body's combiner, operands in the
    body's order) and writes that into its slot, and `op` is replaced by slot 0 (a
    rank-reducing `tensor.extract_slice`, returned as the merge): no thread merges alone."""
    dim, extent, combiner, kind = _check(op)
    (source,) = dps_inputs(op)
    in_map = indexing_maps(op)[0]
    rank = len(in_map.results)
    rewriter.insertion_point = InsertPoint.before(op)
    forall = ForallOp([0], [extent], [1], [source], list(mapping))
    rewriter.insert(forall)
    t = forall.induction_vars[0]
    (slots,) = forall.region_iter_args
    rewriter.insertion_point = InsertPoint.before(forall.terminator)
    zero = rewriter.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).results[0]
    position = [i for i, e in enumerate(in_map.results) if cast(AffineDimExpr, e).position == dim]
    indices = [t if i in position else zero for i in range(rank)]
    element_type = cast(TensorType[Attribute], source.type).get_element_type()
    value = rewriter.insert(ExtractOp(slots, indices, element_type)).results[0]
    all_reduce = gpu.AllReduceOp(value, kind, uniform=True)
    rewriter.insert(all_reduce)
    result: SSAValue = all_reduce.result
    (init,) = dps_inits(op)
    init_type = cast(TensorType[Attribute], init.type)
    if merge_in_threads:
        # The init is one element (every parallel dim has extent 1): each thread reads it
        # and combines, as the body combines the (reduced) input with the accumulator.
        init_rank = len(init_type.get_shape())
        at = [zero] * init_rank
        acc = rewriter.insert(ExtractOp(init, at, element_type)).results[0]
        in_arg, out_arg = op.regions[0].block.args
        clone = combiner.clone(value_mapper={in_arg: result, out_arg: acc})
        result = rewriter.insert(clone).results[0]
    one_type = TensorType(element_type, [1] * rank)
    # The result is written by filling this thread's own 1x..x1 slot (bufferized in place,
    # no copy), not by inserting a new tensor.
    offsets: list[SSAValue | int] = [t if i in position else 0 for i in range(rank)]
    slot = rewriter.insert(ExtractSliceOp(slots, offsets, [1] * rank, [1] * rank, one_type))
    filled = rewriter.insert(linalg.FillOp([result], [slot.results[0]], [one_type]))
    rewriter.insertion_point = InsertPoint.at_end(forall.terminator.region.block)
    rewriter.insert(ParallelInsertSliceOp(filled.results[0], slots, offsets, [1] * rank))
    rewriter.insertion_point = InsertPoint.before(op)
    if merge_in_threads:
        head = ExtractSliceOp(forall.results[0], [0] * rank, [1] * rank, [1] * rank, init_type)
        rewriter.replace(op, head)
        return AllReduceRewrite(forall, all_reduce, head)
    first = rewriter.insert(
        ExtractSliceOp(forall.results[0], [0] * rank, [1] * rank, [1] * rank, one_type)
    )
    op.operands[0] = first.results[0]
    return AllReduceRewrite(forall, all_reduce, op)


@dataclass(frozen=True)
class SubgroupReduceRewrite:
    """What `reduce_to_subgroup_reduce` built: the forall, its `gpu.subgroup_reduce`, and
    the target now merging only the first partial of each lane group."""

    forall: ForallOp
    subgroup_reduce: gpu.SubgroupReduceOp
    merge: Operation


WARP_LANES = 32
"""The lanes of an NVIDIA warp (the widest cluster a subgroup reduction has)."""


def reduce_to_subgroup_reduce(
    rewriter: PatternRewriter, op: Operation, lanes: int, mapping: Sequence[Attribute]
) -> SubgroupReduceRewrite:
    """Reduce the partials of `op` (P x N, the reduction dim last-mapped or not) over
    clusters of `lanes` lanes: iteration (p..., l) of a forall over (P..., lanes) combines
    its k = N / lanes contiguous partials l*k .. l*k+k-1 in order, reduces that over its
    cluster with `gpu.subgroup_reduce` (shuffles only) and writes the result into partial
    l*k; `op` then merges partial 0 of each row (see `ReduceToSubgroupReduceOp`)."""
    if lanes <= 0 or lanes & (lanes - 1) or lanes > WARP_LANES:
        raise AllReduceRewriteError(f"expected lanes to be a power of two <= 32, got {lanes}")
    dim, extent, combiner, kind = _check(op, rows=True)
    if extent % lanes:
        raise AllReduceRewriteError(
            f"expected the reduced extent ({extent}) to be a multiple of the lanes ({lanes})"
        )
    (source,) = dps_inputs(op)
    in_map = indexing_maps(op)[0]
    rank = len(in_map.results)
    positions = [cast(AffineDimExpr, e).position for e in in_map.results]
    shape = cast(TensorType[Attribute], source.type).get_shape()
    rows = [(i, size) for i, (d, size) in enumerate(zip(positions, shape, strict=True)) if d != dim]
    (red,) = [i for i, d in enumerate(positions) if d == dim]
    if len(mapping) != len(rows) + 1:
        raise AllReduceRewriteError(
            f"expected {len(rows) + 1} mapping attributes (one per parallel dim, then the "
            f"lanes), got {len(mapping)}"
        )
    per_lane = extent // lanes
    rewriter.insertion_point = InsertPoint.before(op)
    bounds = [size for _, size in rows] + [lanes]
    forall = ForallOp([0] * len(bounds), bounds, [1] * len(bounds), [source], list(mapping))
    rewriter.insert(forall)
    ivs = list(forall.induction_vars)
    (slots,) = forall.region_iter_args
    rewriter.insertion_point = InsertPoint.before(forall.terminator)
    row_index = {i: ivs[n] for n, (i, _) in enumerate(rows)}
    lane = ivs[-1]
    first: SSAValue = lane
    if per_lane > 1:
        k = rewriter.insert(arith.ConstantOp(IntegerAttr(per_lane, IndexType()))).results[0]
        first = rewriter.insert(arith.MuliOp(lane, k)).results[0]
    element_type = cast(TensorType[Attribute], source.type).get_element_type()

    def at(column: SSAValue) -> list[SSAValue]:
        return [column if i == red else row_index[i] for i in range(rank)]

    value = rewriter.insert(ExtractOp(slots, at(first), element_type)).results[0]
    for j in range(1, per_lane):
        offset = rewriter.insert(arith.ConstantOp(IntegerAttr(j, IndexType()))).results[0]
        column = rewriter.insert(arith.AddiOp(first, offset)).results[0]
        other = rewriter.insert(ExtractOp(slots, at(column), element_type)).results[0]
        # in order, as the target's body combines the next partial into the accumulator
        in_arg, out_arg = op.regions[0].block.args
        mapped: dict[SSAValue, SSAValue] = {in_arg: other, out_arg: value}
        clone = combiner.clone(value_mapper=mapped)
        value = rewriter.insert(clone).results[0]
    reduce = gpu.SubgroupReduceOp(
        value, kind, uniform=True, cluster_size=None if lanes == WARP_LANES else lanes
    )
    rewriter.insert(reduce)
    one_type = TensorType(element_type, [1] * rank)
    offsets: list[SSAValue | int] = list(at(first))
    slot = rewriter.insert(ExtractSliceOp(slots, offsets, [1] * rank, [1] * rank, one_type))
    filled = rewriter.insert(linalg.FillOp([reduce.result], [slot.results[0]], [one_type]))
    rewriter.insertion_point = InsertPoint.at_end(forall.terminator.region.block)
    rewriter.insert(ParallelInsertSliceOp(filled.results[0], slots, offsets, [1] * rank))
    rewriter.insertion_point = InsertPoint.before(op)
    sizes = [1 if i == red else shape[i] for i in range(rank)]
    first_type = TensorType(element_type, sizes)
    head = rewriter.insert(
        ExtractSliceOp(forall.results[0], [0] * rank, sizes, [1] * rank, first_type)
    )
    op.operands[0] = head.results[0]
    return SubgroupReduceRewrite(forall, reduce, op)


__all__ = [
    "WARP_LANES",
    "AllReduceRewrite",
    "AllReduceRewriteError",
    "SubgroupReduceRewrite",
    "reduce_to_all_reduce",
    "reduce_to_subgroup_reduce",
]
