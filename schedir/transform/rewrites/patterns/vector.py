"""The pattern sets of the `transform.apply_patterns.vector.*` descriptors.

`schedir.transform.ops.patterns.descriptor_patterns` looks a descriptor named
`vector.<set>` up in `DESCRIPTOR_PATTERNS` here; the descriptor op is passed so that
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
from schedir.transform.rewrites.vector.utils import with_folds

_MULTI_REDUCTION = ("innerparallel", "innerreduction")
_TRANSPOSE = ("eltwise", "llvmintr", "shuffle_1d", "shuffle_16x16")


def _option(descriptor: Operation | None, name: str, default: int) -> int:
    if descriptor is None:
        return default
    value = descriptor.properties.get(name)
    if value is None:  # not `or`: an IntegerAttr of 0 is falsy
        value = descriptor.attributes.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else default


def _lower_contraction(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.contract import STRATEGIES, lower_contraction_patterns

    return lower_contraction_patterns(STRATEGIES[_option(d, "lowering_strategy", 2)])


def _lower_outerproduct(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.outerproduct import lower_outer_product_patterns

    return lower_outer_product_patterns()


def _fold_arith_extension(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.outerproduct import fold_arith_extension_patterns

    return fold_arith_extension_patterns()


def _lower_transfer(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.transfer import lower_transfer_patterns

    return lower_transfer_patterns(_option(d, "max_transfer_rank", 1))


def _transfer_permutation(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.transfer import permutation_patterns

    return permutation_patterns()


def _rank_reducing_subview(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.transfer import rank_reducing_subview_patterns

    return rank_reducing_subview_patterns()


def _transfer_to_scf(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.to_scf import transfer_to_scf_patterns

    return transfer_to_scf_patterns(
        _option(d, "max_transfer_rank", 1), bool(_option(d, "full_unroll", 0))
    )


def _lower_broadcast(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.shape import lower_broadcast_patterns

    return lower_broadcast_patterns()


def _lower_shape_cast(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.shape import lower_shape_cast_patterns

    return lower_shape_cast_patterns()


def _lower_transpose(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.shape import lower_transpose_patterns

    return lower_transpose_patterns(_TRANSPOSE[_option(d, "lowering_strategy", 0)])


def _multi_reduction(stage: str) -> Callable[[Operation | None], PatternSet]:
    def build(d: Operation | None) -> PatternSet:
        from schedir.transform.rewrites.vector import reduction as vector_reduction

        strategy = _MULTI_REDUCTION[_option(d, "lowering_strategy", 0)]
        return getattr(vector_reduction, f"{stage}_patterns")(strategy)

    return build


def _lower_masks(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.masks import lower_masks_patterns

    return lower_masks_patterns()


def _lower_masked_transfers(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.masks import lower_masked_transfers_patterns

    return lower_masked_transfers_patterns()


def _cast_away_leading_one_dim(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.unit_dims import cast_away_leading_one_dim_patterns

    return cast_away_leading_one_dim_patterns()


def _sink_ops(d: Operation | None) -> PatternSet:
    from schedir.transform.rewrites.vector.sink import sink_patterns

    return sink_patterns()


def _prep(name: str) -> Callable[[Operation | None], PatternSet]:
    def build(d: Operation | None) -> PatternSet:
        from schedir.transform.rewrites.vector import llvm_prep as vector_llvm_prep

        return getattr(vector_llvm_prep, f"{name}_patterns")()

    return build


BUILDERS: Mapping[str, Callable[[Operation | None], PatternSet]] = {
    "vector.lower_contraction": _lower_contraction,
    "vector.lower_outerproduct": _lower_outerproduct,
    "vector.fold_arith_extension": _fold_arith_extension,
    "vector.lower_transfer": _lower_transfer,
    "vector.transfer_permutation_patterns": _transfer_permutation,
    "vector.rank_reducing_subview_patterns": _rank_reducing_subview,
    "vector.transfer_to_scf": _transfer_to_scf,
    "vector.lower_broadcast": _lower_broadcast,
    "vector.lower_shape_cast": _lower_shape_cast,
    "vector.lower_transpose": _lower_transpose,
    "vector.reorder_multi_reduction_dims": _multi_reduction("reorder"),
    "vector.multi_reduction_flattening": _multi_reduction("flattening"),
    "vector.multi_reduction_unrolling": _multi_reduction("unrolling"),
    "vector.lower_masks": _lower_masks,
    "vector.lower_create_mask": _lower_masks,
    "vector.lower_masked_transfers": _lower_masked_transfers,
    "vector.cast_away_vector_leading_one_dim": _cast_away_leading_one_dim,
    "vector.sink_ops": _sink_ops,
    "vector.lower_bitcast": _prep("lower_bitcast"),
    "vector.lower_interleave": _prep("lower_interleave"),
    "vector.interleave_and_deinterleave_to_shuffle": _prep("interleave_to_shuffle"),
}
"""Descriptor name (without `transform.apply_patterns.`) -> builder of its pattern set."""


def descriptor_pattern_set(name: str, descriptor: Operation | None = None) -> PatternSet:
    """The pattern set of descriptor `name` with the descriptor's options, folds included."""
    return with_folds(BUILDERS[name](descriptor))


def _with_options(name: str) -> Callable[[Operation], PatternSet]:
    return lambda descriptor: descriptor_pattern_set(name, descriptor)


def _default(name: str) -> Callable[[], PatternSet]:
    return lambda: descriptor_pattern_set(name)


DESCRIPTOR_PATTERN_BUILDERS: Mapping[str, Callable[[Operation], PatternSet]] = {
    name: _with_options(name) for name in BUILDERS
}
"""What `descriptor_patterns` reads: each descriptor's set, built from the descriptor."""

DESCRIPTOR_PATTERNS: Mapping[str, Callable[[], PatternSet]] = {
    name: _default(name) for name in BUILDERS
}
"""Each descriptor's set with default options."""

__all__ = [
    "BUILDERS",
    "DESCRIPTOR_PATTERNS",
    "DESCRIPTOR_PATTERN_BUILDERS",
    "descriptor_pattern_set",
]
