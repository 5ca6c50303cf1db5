"""The pattern sets of the vector descriptors (upstream's VectorTransformOps.cpp
`populatePatterns`), from `schedir.transform.rewrites.patterns.vector`: each set is built
with the descriptor's options (`lowering_strategy`, `max_transfer_rank`, ...) and folds
the vector ops it meets.
"""

from __future__ import annotations

from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.vector import (
    ApplyVectorCastAwayVectorLeadingOneDimOp,
    ApplyVectorElementwiseToVectorOp,
    ApplyVectorFoldArithExtensionOp,
    ApplyVectorInterleaveAndDeinterleaveToShuffleOp,
    ApplyVectorLowerBitcastOp,
    ApplyVectorLowerBroadcastOp,
    ApplyVectorLowerContractionOp,
    ApplyVectorLowerCreateMaskOp,
    ApplyVectorLowerInterleaveOp,
    ApplyVectorLowerMaskedTransfersOp,
    ApplyVectorLowerMasksOp,
    ApplyVectorLowerMultiReductionOp,
    ApplyVectorLowerOuterproductOp,
    ApplyVectorLowerShapeCastOp,
    ApplyVectorLowerTransferOp,
    ApplyVectorLowerTransposeOp,
    ApplyVectorMultiReductionFlatteningOp,
    ApplyVectorMultiReductionUnrollingOp,
    ApplyVectorRankReducingSubviewPatternsOp,
    ApplyVectorReorderMultiReductionDimsOp,
    ApplyVectorSinkOpsOp,
    ApplyVectorTransferPermutationPatternsOp,
    ApplyVectorTransferToScfOp,
)
from schedir.transform.interface import populates
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.patterns.vector import descriptor_pattern_set


@populates(ApplyVectorLowerContractionOp)
def lower_contraction(op: Descriptor) -> PatternSet:
    """Lower vector.contract (outerproduct by default)."""
    return descriptor_pattern_set("vector.lower_contraction", op)


@populates(ApplyVectorLowerOuterproductOp)
def lower_outerproduct(op: Descriptor) -> PatternSet:
    """Lower vector.outerproduct."""
    return descriptor_pattern_set("vector.lower_outerproduct", op)


@populates(ApplyVectorFoldArithExtensionOp)
def fold_arith_extension(op: Descriptor) -> PatternSet:
    """Fold arith extensions into vector.contract."""
    return descriptor_pattern_set("vector.fold_arith_extension", op)


@populates(ApplyVectorLowerTransferOp)
def lower_transfer(op: Descriptor) -> PatternSet:
    """Lower transfer ops of rank up to max_transfer_rank to loads/stores."""
    return descriptor_pattern_set("vector.lower_transfer", op)


@populates(ApplyVectorTransferPermutationPatternsOp)
def transfer_permutation_patterns(op: Descriptor) -> PatternSet:
    """Lower permutation maps of transfer ops."""
    return descriptor_pattern_set("vector.transfer_permutation_patterns", op)


@populates(ApplyVectorRankReducingSubviewPatternsOp)
def rank_reducing_subview_patterns(op: Descriptor) -> PatternSet:
    """Rank-reducing subviews for transfers with unit dims."""
    return descriptor_pattern_set("vector.rank_reducing_subview_patterns", op)


@populates(ApplyVectorTransferToScfOp)
def transfer_to_scf(op: Descriptor) -> PatternSet:
    """Lower transfer ops to scf loops of lower-rank transfers."""
    return descriptor_pattern_set("vector.transfer_to_scf", op)


@populates(ApplyVectorLowerBroadcastOp)
def lower_broadcast(op: Descriptor) -> PatternSet:
    """Lower vector.broadcast."""
    return descriptor_pattern_set("vector.lower_broadcast", op)


@populates(ApplyVectorLowerShapeCastOp)
def lower_shape_cast(op: Descriptor) -> PatternSet:
    """Lower vector.shape_cast."""
    return descriptor_pattern_set("vector.lower_shape_cast", op)


@populates(ApplyVectorLowerTransposeOp)
def lower_transpose(op: Descriptor) -> PatternSet:
    """Lower vector.transpose."""
    return descriptor_pattern_set("vector.lower_transpose", op)


@populates(ApplyVectorReorderMultiReductionDimsOp)
def reorder_multi_reduction_dims(op: Descriptor) -> PatternSet:
    """Transpose multi_reduction dims to the strategy's order."""
    return descriptor_pattern_set("vector.reorder_multi_reduction_dims", op)


@populates(ApplyVectorMultiReductionFlatteningOp)
def multi_reduction_flattening(op: Descriptor) -> PatternSet:
    """Flatten multi_reduction to 2-D."""
    return descriptor_pattern_set("vector.multi_reduction_flattening", op)


@populates(ApplyVectorMultiReductionUnrollingOp)
def multi_reduction_unrolling(op: Descriptor) -> PatternSet:
    """Unroll 2-D multi_reduction into reductions."""
    return descriptor_pattern_set("vector.multi_reduction_unrolling", op)


@populates(ApplyVectorElementwiseToVectorOp)
def elementwise_to_vector(op: Descriptor) -> PatternSet:
    """Products of broadcast vectors as outer products; extensions folded into contractions."""
    return descriptor_pattern_set("vector.elementwise_to_vector", op)


@populates(ApplyVectorLowerMultiReductionOp)
def lower_multi_reduction(op: Descriptor) -> PatternSet:
    """Reorder, flatten and unroll multi_reduction (the three stages in one set)."""
    return descriptor_pattern_set("vector.lower_multi_reduction", op)


@populates(ApplyVectorLowerMasksOp)
def lower_masks(op: Descriptor) -> PatternSet:
    """Lower create_mask/constant_mask."""
    return descriptor_pattern_set("vector.lower_masks", op)


@populates(ApplyVectorLowerCreateMaskOp)
def lower_create_mask(op: Descriptor) -> PatternSet:
    """Lower vector.create_mask."""
    return descriptor_pattern_set("vector.lower_create_mask", op)


@populates(ApplyVectorLowerMaskedTransfersOp)
def lower_masked_transfers(op: Descriptor) -> PatternSet:
    """Lower masked transfer ops."""
    return descriptor_pattern_set("vector.lower_masked_transfers", op)


@populates(ApplyVectorCastAwayVectorLeadingOneDimOp)
def cast_away_vector_leading_one_dim(op: Descriptor) -> PatternSet:
    """Drop leading unit dims of vector ops."""
    return descriptor_pattern_set("vector.cast_away_vector_leading_one_dim", op)


@populates(ApplyVectorSinkOpsOp)
def sink_ops(op: Descriptor) -> PatternSet:
    """Sink elementwise ops through broadcast/transpose."""
    return descriptor_pattern_set("vector.sink_ops", op)


@populates(ApplyVectorLowerBitcastOp)
def lower_bitcast(op: Descriptor) -> PatternSet:
    """Lower vector.bitcast."""
    return descriptor_pattern_set("vector.lower_bitcast", op)


@populates(ApplyVectorLowerInterleaveOp)
def lower_interleave(op: Descriptor) -> PatternSet:
    """Lower vector.interleave."""
    return descriptor_pattern_set("vector.lower_interleave", op)


@populates(ApplyVectorInterleaveAndDeinterleaveToShuffleOp)
def interleave_and_deinterleave_to_shuffle(op: Descriptor) -> PatternSet:
    """Lower (de)interleave to shuffles."""
    return descriptor_pattern_set("vector.interleave_and_deinterleave_to_shuffle", op)
