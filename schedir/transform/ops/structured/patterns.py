"""The pattern sets of the linalg descriptors (upstream's LinalgTransformOps.cpp
`populatePatterns`): `tiling_canonicalization`, from the canonicalization driver's sets,
`swap_extract_slice_with_fill`, and `fold_add_into_dest`
(`schedir.transform.rewrites.fold_add_into_dest`).
"""

from __future__ import annotations

from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.structured.patterns import (
    ApplyLinalgFoldAddIntoDestOp,
    ApplyLinalgSwapExtractSliceWithFillOp,
    ApplyLinalgTilingCanonicalizationOp,
)
from schedir.transform.interface import populates
from schedir.transform.rewrites.canonicalize.driver import pattern_set
from schedir.transform.rewrites.fold_add_into_dest import fold_add_into_dest_patterns
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.patterns.linalg import swap_extract_slice_with_fill_patterns


@populates(ApplyLinalgTilingCanonicalizationOp)
def tiling_canonicalization(op: Descriptor) -> PatternSet:
    """Canonicalizations of tiled code: affine.min/max of tile sizes, loop bounds, slices."""
    return pattern_set(["linalg.tiling_canonicalization"])


@populates(ApplyLinalgSwapExtractSliceWithFillOp)
def swap_extract_slice_with_fill(op: Descriptor) -> PatternSet:
    """A slice of a single-use fill becomes a fill of the slice of its destination."""
    return swap_extract_slice_with_fill_patterns()


@populates(ApplyLinalgFoldAddIntoDestOp)
def fold_add_into_dest(op: Descriptor) -> PatternSet:
    """Fold a `linalg.add` of a zero-initialized contraction into its destination."""
    return fold_add_into_dest_patterns()
