"""The pattern sets of `transform.apply_patterns.tensor.*` descriptors that are not in
`rewrites.canonicalize`'s own table.

`schedir.transform.ops.patterns.descriptor_patterns` looks a descriptor named
`tensor.<set>` up in `DESCRIPTOR_PATTERNS` here.

    transform.apply_patterns to %f {
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    } : !transform.any_op
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.ir import Operation

from schedir.transform.rewrites.canonicalize.driver import PatternSet


def _fold_tensor_subset_ops_into_vector_transfers() -> PatternSet:
    from schedir.transform.rewrites.vectorization import (
        fold_tensor_subset_into_transfers_patterns,
    )

    return fold_tensor_subset_into_transfers_patterns()


DESCRIPTOR_PATTERNS: Mapping[str, Callable[[], PatternSet]] = {
    "tensor.fold_tensor_subset_ops_into_vector_transfers": (
        _fold_tensor_subset_ops_into_vector_transfers
    ),
}
"""Descriptor name (without `transform.apply_patterns.`) -> its pattern set."""


def _fold_tensor_empty(descriptor: Operation) -> PatternSet:
    from schedir.transform.rewrites.bufferization.empty_tensor_folds import (
        fold_tensor_empty_from_descriptor,
    )

    return fold_tensor_empty_from_descriptor(descriptor)


DESCRIPTOR_PATTERN_BUILDERS: Mapping[str, Callable[[Operation], PatternSet]] = {
    "tensor.fold_tensor_empty": _fold_tensor_empty,
}
"""Descriptor sets built from the descriptor's options (`fold_single_use_only`)."""

__all__ = ["DESCRIPTOR_PATTERNS", "DESCRIPTOR_PATTERN_BUILDERS"]
