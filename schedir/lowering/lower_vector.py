"""`lower-vector` (schedir's own pass): lower the vector IR a schedule left to what
`convert-vector-to-llvm` converts, with upstream's descriptor pattern sets.

Upstream's `convert-vector-to-llvm` expects the high-level vector ops to be lowered by
the schedule (`transform.apply_patterns.vector.*`) or earlier passes; a schedule that
vectorizes but does not lower leaves `vector.contract`, `vector.multi_reduction`, n-D
transfers and the like. This pass applies a default choice of the descriptors in three
greedy stages (each to a fixpoint, vector folds included), so any vectorized payload
compiles:

1. `lower_masked_transfers`, `transfer_permutation_patterns`, `lower_contraction
   lowering_strategy = outerproduct`, `lower_outerproduct`, the multi-reduction stages
   (`reorder_multi_reduction_dims`, then schedir's unrolling on the n-D parallel dims
   instead of `multi_reduction_flattening` and `multi_reduction_unrolling`), `lower_broadcast`, `lower_transpose`
   (`eltwise`), `lower_shape_cast`, `lower_masks`;
2. `transfer_to_scf max_transfer_rank = 1 full_unroll = true` (n-D transfers to rows of
   1-D ones, guarded by `scf.if` where a row may be out of bounds), with
   `lower_transfer max_transfer_rank = 1` and stage 1's shape lowerings for what it
   creates;
3. nothing else: 1-D transfers that may run out of bounds, strided slices, masks, etc.
   are left to `convert-vector-to-llvm`'s own first step, as upstream.

A module without vector ops is left untouched (and not walked by the rewrite driver).

Before:

    %r = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
           affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
           iterator_types = ["parallel", "parallel", "reduction"],
           kind = #vector.kind<add>} %a, %b, %c
           : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>

After (per k, each row of the result an fma of a splat of a's element and b's row):

    %at = vector.transpose %a, [1, 0] ...   (lowered element by element)
    %a0 = vector.extract %at[0] : vector<2xf32> from vector<3x2xf32>
    %b0 = vector.extract %b[0] : vector<4xf32> from vector<3x4xf32>
    %s = vector.extract %a0[0] : f32 from vector<2xf32>
    %sb = vector.broadcast %s : f32 to vector<4xf32>
    %c0 = vector.extract %c[0] : vector<4xf32> from vector<2x4xf32>
    %f = vector.fma %sb, %b0, %c0 : vector<4xf32>
    ...
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import cast

from xdsl.context import Context
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from schedir.dialects import vector
from schedir.dialects.vector import Vector, YieldOp
from schedir.dialects.vector.attributes import vec
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.greedy import Pattern, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import broadcast, shape_cast, transpose

_VECTOR_OPS: tuple[type[Operation], ...] = (*xvector.Vector.operations, *Vector.operations)
"""The ops of the vector dialect, xDSL's classes and schedir's."""

_VECTOR_OPS_LEFT_ALONE: tuple[type[Operation], ...] = (
    xvector.LoadOp,
    xvector.StoreOp,
    xvector.MaskedLoadOp,
    xvector.MaskedStoreOp,
    xvector.ExtractOp,
    xvector.InsertOp,
    xvector.FMAOp,
    xvector.ReductionOp,
    xvector.ShuffleOp,
    YieldOp,
)
"""Ops already in the form convert-vector-to-llvm converts (1-D ones, anyway); xDSL's
classes, which schedir's replacements subclass."""


def _transpose_of_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """transpose(broadcast(x)) -> broadcast(transpose(x)): transpose the small vector and
    broadcast (stretching its unit dims) to the transposed shape.

    A vectorized matmul reads its operands as broadcasts and transposes them to the
    iteration shape (m x n x k); lowered element by element that transpose is one
    extract and insert per element of the whole iteration space, where the operand
    itself has m x k or k x n elements."""
    assert isinstance(op, vector.TransposeOp)
    bcast = op.vector.owner
    if not isinstance(bcast, vector.BroadcastOp):
        return False
    src, res_t = bcast.source, cast(VectorType, op.result.type)
    full = cast(VectorType, bcast.vector.type)
    if full.get_num_scalable_dims() or res_t.get_num_scalable_dims():
        return False
    elem = full.get_element_type()
    if not isinstance(src.type, VectorType):  # a splat transposed is the same splat
        rw.replace_values(op, [broadcast(rw, src, res_t, op)])
        return True
    if src.type.get_num_scalable_dims():
        return False
    shape = list(src.type.get_shape())
    rank = full.get_num_dims()
    padded = [1] * (rank - len(shape)) + shape
    if prod(padded) == prod(full.get_shape()):
        return False  # nothing is broadcast: the transpose is as large either way
    value = src if len(shape) == rank else shape_cast(rw, src, vec(padded, elem), op)
    perm = op.perm()
    if list(perm) != list(range(rank)):
        value = transpose(rw, value, perm, op)
    rw.replace_values(op, [broadcast(rw, value, res_t, op)])
    return True


def _reduction_layout(op: Operation) -> str:
    """The multi-reduction strategy that needs no transpose for `op`: `innerreduction`
    when its reduction dims are the innermost, `innerparallel` otherwise (upstream's
    default, which transposes the reduction dims outermost when they are not)."""
    assert isinstance(op, vector.MultiDimReductionOp)
    mask = op.reduction_mask()
    parallel = [i for i, m in enumerate(mask) if not m]
    return "innerreduction" if parallel == list(range(len(parallel))) else "innerparallel"


def _adaptive(strategies: dict[str, Pattern]) -> Pattern:
    def pattern(op: Operation, rw: CanonRewriter) -> bool:
        return strategies[_reduction_layout(op)](op, rw)

    return pattern


def _multi_reduction_patterns() -> PatternSet:
    """The multi-reduction stages with the strategy chosen per op (`_reduction_layout`):
    a reduction over the innermost dims (a vectorized matmul's) becomes one
    `vector.reduction` per row instead of a transpose element by element. After the
    reorder, the parallel dims are not flattened (`reduction.unrolled_in_place`: LLVM
    22's x86 backend miscompiles the shuffles that cut a flattened vector<24xi32> back
    into rows)."""
    from schedir.transform.rewrites.vector.reduction import in_place_patterns, reorder_patterns

    by = {s: reorder_patterns(s).patterns_of(vector.MultiDimReductionOp)[0] for s in _STRATEGIES}
    return PatternSet().add(vector.MultiDimReductionOp, _adaptive(by)).update(in_place_patterns())


_STRATEGIES = ("innerreduction", "innerparallel")


def _stage_zero() -> PatternSet:
    """Transfers permuted, and transposes of broadcasts turned around, before stage one
    lowers the broadcasts (after that, the transpose sees only a chain of inserts)."""
    from schedir.transform.rewrites.vector import with_folds
    from schedir.transform.rewrites.vector.transfer import permutation_patterns
    from schedir.transform.rewrites.vectorization.contract import reduction_to_contract_patterns

    return with_folds(
        PatternSet()
        .add(vector.TransposeOp, _transpose_of_broadcast)
        .update(permutation_patterns())
        .update(reduction_to_contract_patterns())
    )


def _stage_one() -> PatternSet:
    from schedir.transform.rewrites.vector import with_folds
    from schedir.transform.rewrites.vector.contract import lower_contraction_patterns
    from schedir.transform.rewrites.vector.masks import (
        lower_masked_transfers_patterns,
        lower_masks_patterns,
    )
    from schedir.transform.rewrites.vector.outerproduct import lower_outer_product_patterns
    from schedir.transform.rewrites.vector.shape import (
        lower_broadcast_patterns,
        lower_shape_cast_patterns,
        lower_transpose_patterns,
    )
    from schedir.transform.rewrites.vector.transfer import permutation_patterns

    patterns = PatternSet().add(vector.TransposeOp, _transpose_of_broadcast)
    for part in (
        lower_masked_transfers_patterns(),
        permutation_patterns(),
        lower_contraction_patterns("outerproduct"),
        lower_outer_product_patterns(),
        _multi_reduction_patterns(),
        lower_broadcast_patterns(),
        lower_transpose_patterns("eltwise"),
        lower_shape_cast_patterns(),
        lower_masks_patterns(),
    ):
        patterns.update(part)
    return with_folds(patterns)


def _stage_two() -> PatternSet:
    from schedir.transform.rewrites.vector import with_folds
    from schedir.transform.rewrites.vector.shape import (
        lower_broadcast_patterns,
        lower_shape_cast_patterns,
        lower_transpose_patterns,
    )
    from schedir.transform.rewrites.vector.to_scf import transfer_to_scf_patterns
    from schedir.transform.rewrites.vector.transfer import (
        lower_transfer_patterns,
        permutation_patterns,
    )

    patterns = PatternSet().add(vector.TransposeOp, _transpose_of_broadcast)
    for part in (
        transfer_to_scf_patterns(1, True),
        permutation_patterns(),
        lower_transfer_patterns(1),
        lower_broadcast_patterns(),
        lower_transpose_patterns("eltwise"),
        lower_shape_cast_patterns(),
    ):
        patterns.update(part)
    return with_folds(patterns)


def _needs_lowering(module: ModuleOp) -> bool:
    for op in module.walk():
        if not isinstance(op, _VECTOR_OPS):
            continue
        if not isinstance(op, _VECTOR_OPS_LEFT_ALONE):
            return True
        for result in op.results:
            t = result.type
            if isinstance(t, VectorType) and t.get_num_dims() > 1:
                return True
    return False


def lower_vector(module: ModuleOp) -> None:
    """Apply the default vector lowering (see the module docstring) to `module`."""
    if not _needs_lowering(module):
        return
    apply_patterns_greedily(module, _stage_zero())
    apply_patterns_greedily(module, _stage_one())
    apply_patterns_greedily(module, _stage_two())


@dataclass(frozen=True)
class LowerVectorPass(ModulePass):
    """Lower contractions, multi-reductions, n-D transfers and shape ops to 1-D vector
    ops (see the module docstring)."""

    name = "lower-vector"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_vector(op)


__all__ = ["LowerVectorPass", "lower_vector"]
