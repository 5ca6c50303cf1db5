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
   (`reorder_multi_reduction_dims`, `multi_reduction_flattening`,
   `multi_reduction_unrolling`, `innerparallel`), `lower_broadcast`, `lower_transpose`
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

from xdsl.context import Context
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import ModuleOp, VectorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from schedir.dialects.vector import Vector, YieldOp
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.greedy import PatternSet

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


def _stage_one() -> PatternSet:
    from schedir.transform.rewrites.vector import with_folds
    from schedir.transform.rewrites.vector.contract import lower_contraction_patterns
    from schedir.transform.rewrites.vector.masks import (
        lower_masked_transfers_patterns,
        lower_masks_patterns,
    )
    from schedir.transform.rewrites.vector.outerproduct import lower_outer_product_patterns
    from schedir.transform.rewrites.vector.reduction import (
        flattening_patterns,
        reorder_patterns,
        unrolling_patterns,
    )
    from schedir.transform.rewrites.vector.shape import (
        lower_broadcast_patterns,
        lower_shape_cast_patterns,
        lower_transpose_patterns,
    )
    from schedir.transform.rewrites.vector.transfer import permutation_patterns

    patterns = PatternSet()
    for part in (
        lower_masked_transfers_patterns(),
        permutation_patterns(),
        lower_contraction_patterns("outerproduct"),
        lower_outer_product_patterns(),
        reorder_patterns("innerparallel"),
        flattening_patterns("innerparallel"),
        unrolling_patterns("innerparallel"),
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

    patterns = PatternSet()
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
