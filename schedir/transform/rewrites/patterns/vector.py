"""The pattern sets of the `transform.apply_patterns.vector.*` descriptors.

`schedir.transform.ops.vector` builds each descriptor's set with `descriptor_pattern_set`;
the descriptor op is passed so that
options (`lowering_strategy`, `max_transfer_rank`, ...) select the variant, as upstream's
`populatePatterns` reads them. Every set also folds the vector ops it meets (upstream's
greedy driver folds every op, whatever the pattern set).

    transform.apply_patterns to %f {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
      transform.apply_patterns.vector.lower_outerproduct
    } : !transform.any_op
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation

from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.vector import (
    STRATEGIES,
    cast_away_leading_one_dim_patterns,
    flattening_patterns,
    fold_arith_extension_patterns,
    interleave_to_shuffle_patterns,
    lower_bitcast_patterns,
    lower_broadcast_patterns,
    lower_contraction_patterns,
    lower_interleave_patterns,
    lower_masked_transfers_patterns,
    lower_masks_patterns,
    lower_outer_product_patterns,
    lower_shape_cast_patterns,
    lower_transfer_patterns,
    lower_transpose_patterns,
    permutation_patterns,
    rank_reducing_subview_patterns,
    reorder_patterns,
    sink_patterns,
    transfer_to_scf_patterns,
    unrolling_patterns,
    with_folds,
)
from schedir.transform.rewrites.vector.elementwise import elementwise_to_vector_patterns

_MULTI_REDUCTION = ("innerparallel", "innerreduction")
_TRANSPOSE = ("eltwise", "llvmintr", "shuffle_1d", "shuffle_16x16")

Builder = Callable[[Operation | None], PatternSet]
"""Builds a descriptor's pattern set from the descriptor (None: default options)."""


def _option(descriptor: Operation | None, name: str, default: int) -> int:
    if descriptor is None:
        return default
    value = descriptor.properties.get(name)
    if value is None:  # not `or`: an IntegerAttr of 0 is falsy
        value = descriptor.attributes.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else default


def _lower_contraction(d: Operation | None) -> PatternSet:
    return lower_contraction_patterns(STRATEGIES[_option(d, "lowering_strategy", 2)])


def _lower_transfer(d: Operation | None) -> PatternSet:
    return lower_transfer_patterns(_option(d, "max_transfer_rank", 1))


def _transfer_to_scf(d: Operation | None) -> PatternSet:
    return transfer_to_scf_patterns(
        _option(d, "max_transfer_rank", 1), bool(_option(d, "full_unroll", 0))
    )


def _lower_transpose(d: Operation | None) -> PatternSet:
    return lower_transpose_patterns(_TRANSPOSE[_option(d, "lowering_strategy", 0)])


def _multi_reduction(stage: Callable[[str], PatternSet]) -> Builder:
    """The builder of a multi_reduction stage's set, for the descriptor's strategy."""

    def build(d: Operation | None) -> PatternSet:
        return stage(_MULTI_REDUCTION[_option(d, "lowering_strategy", 0)])

    return build


def _without_options(patterns: Callable[[], PatternSet]) -> Builder:
    """The builder of a set that has no options."""
    return lambda d: patterns()


BUILDERS: Mapping[str, Builder] = {
    "vector.lower_contraction": _lower_contraction,
    "vector.lower_outerproduct": _without_options(lower_outer_product_patterns),
    "vector.fold_arith_extension": _without_options(fold_arith_extension_patterns),
    "vector.lower_transfer": _lower_transfer,
    "vector.transfer_permutation_patterns": _without_options(permutation_patterns),
    "vector.rank_reducing_subview_patterns": _without_options(rank_reducing_subview_patterns),
    "vector.transfer_to_scf": _transfer_to_scf,
    "vector.lower_broadcast": _without_options(lower_broadcast_patterns),
    "vector.lower_shape_cast": _without_options(lower_shape_cast_patterns),
    "vector.lower_transpose": _lower_transpose,
    "vector.reorder_multi_reduction_dims": _multi_reduction(reorder_patterns),
    "vector.multi_reduction_flattening": _multi_reduction(flattening_patterns),
    "vector.multi_reduction_unrolling": _multi_reduction(unrolling_patterns),
    "vector.elementwise_to_vector": _without_options(elementwise_to_vector_patterns),
    "vector.lower_multi_reduction": _multi_reduction(
        lambda strategy: (
            reorder_patterns(strategy)
            .update(flattening_patterns(strategy))
            .update(unrolling_patterns(strategy))
        )
    ),
    "vector.lower_masks": _without_options(lower_masks_patterns),
    "vector.lower_create_mask": _without_options(lower_masks_patterns),
    "vector.lower_masked_transfers": _without_options(lower_masked_transfers_patterns),
    "vector.cast_away_vector_leading_one_dim": _without_options(cast_away_leading_one_dim_patterns),
    "vector.sink_ops": _without_options(sink_patterns),
    "vector.lower_bitcast": _without_options(lower_bitcast_patterns),
    "vector.lower_interleave": _without_options(lower_interleave_patterns),
    "vector.interleave_and_deinterleave_to_shuffle": _without_options(
        interleave_to_shuffle_patterns
    ),
}
"""Descriptor name (without `transform.apply_patterns.`) -> builder of its pattern set."""


def descriptor_pattern_set(name: str, descriptor: Operation | None = None) -> PatternSet:
    """The pattern set of descriptor `name` with the descriptor's options, folds included."""
    return with_folds(BUILDERS[name](descriptor))


__all__ = [
    "BUILDERS",
    "descriptor_pattern_set",
]
