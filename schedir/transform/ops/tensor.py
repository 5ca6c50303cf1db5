"""The pattern sets of the tensor descriptors (upstream's TensorTransformOps.cpp
`populatePatterns`): `fold_tensor_subset_ops` (from the canonicalization driver's sets),
`fold_tensor_subset_ops_into_vector_transfers`, `fold_tensor_empty` and
`merge_consecutive_insert_extract_slice` (its extract half).
"""

from __future__ import annotations

from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.tensor import (
    ApplyTensorFoldTensorEmptyOp,
    ApplyTensorFoldTensorSubsetOpsIntoVectorTransfersOp,
    ApplyTensorFoldTensorSubsetOpsOp,
    ApplyTensorMergeConsecutiveInsertExtractSliceOp,
    ApplyTensorRewriteAsConstantOp,
)
from schedir.transform.interface import populates
from schedir.transform.rewrites.canonicalize.driver import pattern_set
from schedir.transform.rewrites.canonicalize.tensor_subsets import (
    fold_tensor_subset_into_transfers_patterns,
)
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.patterns.tensor import (
    fold_tensor_empty_patterns,
    merge_consecutive_insert_extract_slice_patterns,
    rewrite_as_constant_patterns,
)


@populates(ApplyTensorFoldTensorSubsetOpsOp)
def fold_tensor_subset_ops(op: Descriptor) -> PatternSet:
    """Fold extract/insert_slice into other slices and transfer ops."""
    return pattern_set(["tensor.fold_tensor_subset_ops"])


@populates(ApplyTensorFoldTensorSubsetOpsIntoVectorTransfersOp)
def fold_tensor_subset_ops_into_vector_transfers(op: Descriptor) -> PatternSet:
    """Fold tensor slices into vector.transfer_read/write indices."""
    return fold_tensor_subset_into_transfers_patterns()


@populates(ApplyTensorRewriteAsConstantOp)
def rewrite_as_constant(op: Descriptor) -> PatternSet:
    """tensor.generate / tensor.pad of constants as arith.constant."""
    return rewrite_as_constant_patterns(bool(op.option("aggressive")))


@populates(ApplyTensorFoldTensorEmptyOp)
def fold_tensor_empty(op: Descriptor) -> PatternSet:
    """Fold reshapes and slices of tensor.empty into tensor.empty."""
    return fold_tensor_empty_patterns(bool(op.option("fold_single_use_only")))


@populates(ApplyTensorMergeConsecutiveInsertExtractSliceOp)
def merge_consecutive_insert_extract_slice(op: Descriptor) -> PatternSet:
    """Merge an extract_slice of an extract_slice into one slice."""
    return merge_consecutive_insert_extract_slice_patterns()
