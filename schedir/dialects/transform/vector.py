"""Vector transform extension (upstream VectorTransformOps.td): pattern-set descriptors
for lowering and simplifying vector ops, used inside `transform.apply_patterns`.

```mlir
transform.apply_patterns to %f {
  transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
  transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerreduction
} : !transform.any_op
```

Enum options are stored as `i32`, in upstream's order.

Given their pattern sets by `schedir.transform.ops.vector`.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.descriptors import Option, descriptor

CONTRACT_LOWERING = ("dot", "llvmintr", "outerproduct", "parallelarith")
MULTI_REDUCTION_LOWERING = ("innerparallel", "innerreduction")
TRANSPOSE_LOWERING = ("eltwise", "llvmintr", "shuffle_1d", "shuffle_16x16")
TRANSFER_SPLIT = ("none", "vector-transfer", "linalg-copy", "force-in-bounds")

ApplyVectorLowerContractionOp = descriptor(
    "vector.lower_contraction",
    "Lower vector.contract (outerproduct by default).",
    Option("lowering_strategy", "enum", 2, CONTRACT_LOWERING),
)

ApplyVectorLowerTransferOp = descriptor(
    "vector.lower_transfer",
    "Lower transfer ops of rank up to max_transfer_rank to loads/stores.",
    Option("max_transfer_rank", "int", 1),
)

ApplyVectorTransferPermutationPatternsOp = descriptor(
    "vector.transfer_permutation_patterns",
    "Lower permutation maps of transfer ops.",
)

ApplyVectorLowerBroadcastOp = descriptor(
    "vector.lower_broadcast",
    "Lower vector.broadcast.",
)

ApplyVectorLowerShapeCastOp = descriptor(
    "vector.lower_shape_cast",
    "Lower vector.shape_cast.",
)

ApplyVectorReorderMultiReductionDimsOp = descriptor(
    "vector.reorder_multi_reduction_dims",
    "Transpose multi_reduction dims to the strategy's order.",
    Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),
)

ApplyVectorMultiReductionFlatteningOp = descriptor(
    "vector.multi_reduction_flattening",
    "Flatten multi_reduction to 2-D.",
    Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),
)

ApplyVectorMultiReductionUnrollingOp = descriptor(
    "vector.multi_reduction_unrolling",
    "Unroll 2-D multi_reduction into reductions.",
    Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),
)

ApplyVectorLowerMultiReductionOp = descriptor(
    "vector.lower_multi_reduction",
    "Lower multi_reduction: reorder its dims, flatten to 2-D and unroll (the three stages "
    "in one set, as upstream named it before splitting it).",
    Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),
)

ApplyVectorLowerTransposeOp = descriptor(
    "vector.lower_transpose",
    "Lower vector.transpose.",
    Option("lowering_strategy", "enum", 0, TRANSPOSE_LOWERING),
    Option("avx2_lowering_strategy", "bool", False),
)

ApplyVectorLowerOuterproductOp = descriptor(
    "vector.lower_outerproduct",
    "Lower vector.outerproduct.",
)

ApplyVectorLowerMasksOp = descriptor(
    "vector.lower_masks",
    "Lower create_mask/constant_mask.",
)

ApplyVectorLowerMaskedTransfersOp = descriptor(
    "vector.lower_masked_transfers",
    "Lower masked transfer ops.",
)

ApplyVectorLowerCreateMaskOp = descriptor(
    "vector.lower_create_mask",
    "Lower vector.create_mask.",
)

ApplyVectorLowerGatherOp = descriptor(
    "vector.lower_gather",
    "Lower vector.gather.",
)

ApplyVectorLowerScanOp = descriptor(
    "vector.lower_scan",
    "Lower vector.scan.",
)

ApplyVectorLowerBitcastOp = descriptor(
    "vector.lower_bitcast",
    "Lower vector.bitcast.",
)

ApplyVectorLowerInterleaveOp = descriptor(
    "vector.lower_interleave",
    "Lower vector.interleave.",
)

ApplyVectorLowerStepOp = descriptor(
    "vector.lower_step",
    "Lower vector.step.",
    Option("index_bitwidth", "int", required=True),
)

ApplyVectorTransferToScfOp = descriptor(
    "vector.transfer_to_scf",
    "Lower transfer ops to scf loops of lower-rank transfers.",
    Option("max_transfer_rank", "int", 1),
    Option("full_unroll", "bool", False),
)

ApplyVectorSplitTransferFullPartialOp = descriptor(
    "vector.split_transfer_full_partial",
    "Split transfers into a fast in-bounds path and a slow path.",
    Option("split_transfer_strategy", "enum", 2, TRANSFER_SPLIT),
)

ApplyVectorCastAwayVectorLeadingOneDimOp = descriptor(
    "vector.cast_away_vector_leading_one_dim",
    "Drop leading unit dims of vector ops.",
)

ApplyVectorRankReducingSubviewPatternsOp = descriptor(
    "vector.rank_reducing_subview_patterns",
    "Rank-reducing subviews for transfers with unit dims.",
)

ApplyVectorDropUnitDimsWithShapeCastOp = descriptor(
    "vector.drop_unit_dims_with_shape_cast",
    "Drop unit dims of elementwise vector ops with shape_cast.",
)

ApplyVectorDropInnerMostUnitDimsFromXferOpsOp = descriptor(
    "vector.drop_inner_most_unit_dims_from_xfer_ops",
    "Drop innermost unit dims of transfers.",
)

ApplyVectorFlattenVectorTransferOpsOp = descriptor(
    "vector.flatten_vector_transfer_ops",
    "Flatten contiguous transfers to 1-D.",
    Option("target_vector_bitwidth", "uint"),
)

ApplyVectorFoldArithExtensionOp = descriptor(
    "vector.fold_arith_extension",
    "Fold arith extensions into vector.contract.",
)

ApplyVectorReductionToContractOp = descriptor(
    "vector.reduction_to_contract",
    "Rewrite reductions of elementwise products as vector.contract.",
)

ApplyVectorElementwiseToVectorOp = descriptor(
    "vector.elementwise_to_vector",
    "Vectorize elementwise ops on vectors.",
)

ApplyVectorMaterializeMasksOp = descriptor(
    "vector.materialize_masks",
    "Materialize masks.",
)

ApplyVectorSinkOpsOp = descriptor(
    "vector.sink_ops",
    "Sink elementwise ops through broadcast/transpose.",
)

ApplyVectorSinkMemOpsOp = descriptor(
    "vector.sink_mem_ops",
    "Sink loads through extract ops.",
)

ApplyVectorRewriteNarrowTypesOp = descriptor(
    "vector.rewrite_narrow_types",
    "Rewrite narrow-type bitcasts and extensions.",
)

ApplyVectorUnrollToElementsOp = descriptor(
    "vector.unroll_to_elements",
    "Unroll vector.to_elements.",
)

ApplyVectorUnrollFromElementsOp = descriptor(
    "vector.unroll_from_elements",
    "Unroll vector.from_elements.",
)

ApplyVectorInterleaveAndDeinterleaveToShuffleOp = descriptor(
    "vector.interleave_and_deinterleave_to_shuffle",
    "Lower (de)interleave to shuffles.",
)

OPS: tuple[type[IRDLOperation], ...] = (
    ApplyVectorLowerContractionOp,
    ApplyVectorLowerTransferOp,
    ApplyVectorTransferPermutationPatternsOp,
    ApplyVectorLowerBroadcastOp,
    ApplyVectorLowerShapeCastOp,
    ApplyVectorReorderMultiReductionDimsOp,
    ApplyVectorMultiReductionFlatteningOp,
    ApplyVectorMultiReductionUnrollingOp,
    ApplyVectorLowerMultiReductionOp,
    ApplyVectorLowerTransposeOp,
    ApplyVectorLowerOuterproductOp,
    ApplyVectorLowerMasksOp,
    ApplyVectorLowerMaskedTransfersOp,
    ApplyVectorLowerCreateMaskOp,
    ApplyVectorLowerGatherOp,
    ApplyVectorLowerScanOp,
    ApplyVectorLowerBitcastOp,
    ApplyVectorLowerInterleaveOp,
    ApplyVectorLowerStepOp,
    ApplyVectorTransferToScfOp,
    ApplyVectorSplitTransferFullPartialOp,
    ApplyVectorCastAwayVectorLeadingOneDimOp,
    ApplyVectorRankReducingSubviewPatternsOp,
    ApplyVectorDropUnitDimsWithShapeCastOp,
    ApplyVectorDropInnerMostUnitDimsFromXferOpsOp,
    ApplyVectorFlattenVectorTransferOpsOp,
    ApplyVectorFoldArithExtensionOp,
    ApplyVectorReductionToContractOp,
    ApplyVectorElementwiseToVectorOp,
    ApplyVectorMaterializeMasksOp,
    ApplyVectorSinkOpsOp,
    ApplyVectorSinkMemOpsOp,
    ApplyVectorRewriteNarrowTypesOp,
    ApplyVectorUnrollToElementsOp,
    ApplyVectorUnrollFromElementsOp,
    ApplyVectorInterleaveAndDeinterleaveToShuffleOp,
)

__all__ = [
    "CONTRACT_LOWERING",
    "MULTI_REDUCTION_LOWERING",
    "OPS",
    "TRANSFER_SPLIT",
    "TRANSPOSE_LOWERING",
]
