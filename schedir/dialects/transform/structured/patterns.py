"""The linalg pattern-set descriptors (upstream LinalgTransformOps.td), named inside
`transform.apply_patterns`.

```mlir
transform.apply_patterns to %f {
  transform.apply_patterns.linalg.tiling_canonicalization
} : !transform.any_op
```

Given their pattern sets by `schedir.transform.ops.structured.patterns`.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.descriptors import Option, descriptor

ApplyLinalgTilingCanonicalizationOp = descriptor(
    "linalg.tiling_canonicalization",
    "Canonicalizations of tiled code: affine.min/max of tile sizes, loop bounds, slices of slices.",
)

ApplyLinalgFoldUnitExtentDimsViaSlicesOp = descriptor(
    "linalg.fold_unit_extent_dims_via_slices",
    "Drop unit dims of linalg ops with rank-reducing extract/insert_slice.",
)

ApplyLinalgFoldUnitExtentDimsViaReshapesOp = descriptor(
    "linalg.fold_unit_extent_dims_via_reshapes",
    "Drop unit dims of linalg ops with collapse/expand_shape.",
)

ApplyLinalgPadVectorizationOp = descriptor(
    "linalg.pad_vectorization",
    "Vectorize tensor.pad into transfer ops.",
)

ApplyLinalgEraseUnusedOperandsAndResultsOp = descriptor(
    "linalg.erase_unused_operands_and_results",
    "Drop unused generic operands and results.",
)

ApplyLinalgEraseUnnecessaryInputsOp = descriptor(
    "linalg.erase_unnecessary_inputs",
    "Drop generic inputs the body does not read.",
)

ApplyLinalgFoldAddIntoDestOp = descriptor(
    "linalg.fold_add_into_dest",
    "Fold an add of a contraction result into its init.",
)

ApplyLinalgDataLayoutPropagationOp = descriptor(
    "linalg.data_layout_propagation",
    "Propagate linalg.pack/unpack through elementwise ops.",
    Option("poison_padding", "bool", False),
)

ApplyLinalgDecomposePackUnpackOp = descriptor(
    "linalg.decompose_pack_unpack",
    "Decompose linalg.pack/unpack into pad, reshape, transpose and slices.",
)

ApplyLinalgDecomposePadOp = descriptor(
    "linalg.decompose_pad",
    "Decompose tensor.pad into an empty tensor, a fill and an insert_slice.",
)

ApplyLinalgSwapExtractSliceWithFillOp = descriptor(
    "linalg.swap_extract_slice_with_fill",
    "Slice a fill's destination instead of its result.",
)

ApplyLinalgExtractSliceSinkingOp = descriptor(
    "linalg.extract_slice_sinking",
    "Sink extract_slice through producers.",
)

ApplyLinalgFoldPackUnpackIntoEmptyOp = descriptor(
    "linalg.fold_pack_unpack_into_empty",
    "Fold pack/unpack of empty tensors.",
    Option("fold_single_use_only", "bool", False),
)

OPS: tuple[type[IRDLOperation], ...] = (
    ApplyLinalgTilingCanonicalizationOp,
    ApplyLinalgFoldUnitExtentDimsViaSlicesOp,
    ApplyLinalgFoldUnitExtentDimsViaReshapesOp,
    ApplyLinalgPadVectorizationOp,
    ApplyLinalgEraseUnusedOperandsAndResultsOp,
    ApplyLinalgEraseUnnecessaryInputsOp,
    ApplyLinalgFoldAddIntoDestOp,
    ApplyLinalgDataLayoutPropagationOp,
    ApplyLinalgDecomposePackUnpackOp,
    ApplyLinalgDecomposePadOp,
    ApplyLinalgSwapExtractSliceWithFillOp,
    ApplyLinalgExtractSliceSinkingOp,
    ApplyLinalgFoldPackUnpackIntoEmptyOp,
)

__all__ = [
    "OPS",
    "ApplyLinalgDataLayoutPropagationOp",
    "ApplyLinalgDecomposePackUnpackOp",
    "ApplyLinalgDecomposePadOp",
    "ApplyLinalgEraseUnnecessaryInputsOp",
    "ApplyLinalgEraseUnusedOperandsAndResultsOp",
    "ApplyLinalgExtractSliceSinkingOp",
    "ApplyLinalgFoldAddIntoDestOp",
    "ApplyLinalgFoldPackUnpackIntoEmptyOp",
    "ApplyLinalgFoldUnitExtentDimsViaReshapesOp",
    "ApplyLinalgFoldUnitExtentDimsViaSlicesOp",
    "ApplyLinalgPadVectorizationOp",
    "ApplyLinalgSwapExtractSliceWithFillOp",
    "ApplyLinalgTilingCanonicalizationOp",
]
