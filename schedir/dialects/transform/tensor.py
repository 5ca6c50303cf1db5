"""Tensor transform extension (upstream TensorTransformOps.td): tensor pattern-set
descriptors for `transform.apply_patterns` and `tensor.make_loop_independent`.

Applied by `schedir.transform.ops.tensor`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IntegerAttr
from xdsl.dialects.transform import TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, prop_def, result_def

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform.descriptors import Option, descriptor

ApplyTensorFoldTensorSubsetOpsOp = descriptor(
    "tensor.fold_tensor_subset_ops",
    "Fold extract/insert_slice into other slices and transfer ops.",
)

ApplyTensorFoldTensorSubsetOpsIntoVectorTransfersOp = descriptor(
    "tensor.fold_tensor_subset_ops_into_vector_transfers",
    "Fold tensor slices into vector.transfer_read/write indices.",
)

ApplyTensorFoldTensorEmptyOp = descriptor(
    "tensor.fold_tensor_empty",
    "Fold reshapes and slices of tensor.empty into tensor.empty.",
    Option("fold_single_use_only", "bool", False),
)

ApplyTensorRewriteAsConstantOp = descriptor(
    "tensor.rewrite_as_constant",
    "Rewrite tensor.generate of a constant and tensor.pad of a constant as arith.constant "
    "(`aggressive`: also pads whose constant source has other uses).",
    Option("aggressive", "unit"),
)

ApplyTensorMergeConsecutiveInsertExtractSliceOp = descriptor(
    "tensor.merge_consecutive_insert_extract_slice",
    "Merge consecutive insert/extract slices.",
)

ApplyTensorReassociativeReshapeFoldingOp = descriptor(
    "tensor.reassociative_reshape_folding",
    "Fold reassociative reshapes.",
)

ApplyTensorBubbleUpExtractSliceOp = descriptor(
    "tensor.bubble_up_extract_slice",
    "Move extract_slice above its producer.",
)

ApplyTensorDropRedundantInsertSliceRankExpansionOp = descriptor(
    "tensor.drop_redundant_insert_slice_rank_expansion",
    "Drop rank-expanding insert_slice round trips.",
)

ApplyTensorFoldIntoPackAndUnpackOp = descriptor(
    "tensor.fold_into_pack_and_unpack",
    "Fold pads and slices into pack/unpack.",
)


@irdl_transform_op
class TensorMakeLoopIndependentOp(IRDLOperation):
    """Rewrites tensor ops (e.g. `tensor.pad`, `tensor.empty`) inside `num_loops`
    enclosing loops so their shapes no longer depend on the induction variables (upper
    bounds plus slices).

    ```mlir
    %t2 = transform.tensor.make_loop_independent %t num_loops = 1
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the replacement ops. Silenceable failure
    if a bound cannot be computed.
    """

    name = "transform.tensor.make_loop_independent"

    target = operand_def(TransformOpHandleType)
    num_loops = prop_def(IntegerAttr[I64])
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `num_loops` `=` $num_loops attr-dict `:` functional-type(operands, results)"
    )


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyTensorRewriteAsConstantOp,
    ApplyTensorFoldTensorSubsetOpsOp,
    ApplyTensorFoldTensorSubsetOpsIntoVectorTransfersOp,
    ApplyTensorFoldTensorEmptyOp,
    ApplyTensorMergeConsecutiveInsertExtractSliceOp,
    ApplyTensorReassociativeReshapeFoldingOp,
    ApplyTensorBubbleUpExtractSliceOp,
    ApplyTensorDropRedundantInsertSliceRankExpansionOp,
    ApplyTensorFoldIntoPackAndUnpackOp,
    TensorMakeLoopIndependentOp,
)

__all__ = ["OPS", "TensorMakeLoopIndependentOp"]
