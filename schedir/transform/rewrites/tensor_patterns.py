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

from schedir.transform.rewrites.canonicalize import PatternSet


def _fold_tensor_subset_ops_into_vector_transfers() -> PatternSet:
    from schedir.transform.rewrites.vectorization_children import (
        fold_tensor_subset_into_transfers_patterns,
    )

    return fold_tensor_subset_into_transfers_patterns()


DESCRIPTOR_PATTERNS: Mapping[str, Callable[[], PatternSet]] = {
    "tensor.fold_tensor_subset_ops_into_vector_transfers": (
        _fold_tensor_subset_ops_into_vector_transfers
    ),
}
"""Descriptor name (without `transform.apply_patterns.`) -> its pattern set."""

__all__ = ["DESCRIPTOR_PATTERNS"]
