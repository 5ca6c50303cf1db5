"""The pattern sets of the `transform.apply_patterns.linalg.*` descriptors that are not in
`canonicalize.driver`'s own table.

`schedir.transform.ops.structured.patterns` joins each descriptor class to its set here.

`linalg.swap_extract_slice_with_fill` (upstream's `SwapExtractSliceOfFill`,
`populateSwapExtractSliceWithFillPatterns`): a slice of a fill's result whose only use
is the slice becomes a fill of the slice of the fill's destination, so that the fill is
computed on the slice only (and a later fusion finds a fill where it looked for one):

    %f = linalg.fill ins(%z : f32) outs(%t : tensor<1000x1xf32>) -> tensor<1000x1xf32>
    %s = tensor.extract_slice %f[0, 0] [1000, 1] [1, 1] : tensor<1000x1xf32> to tensor<1000xf32>
    // ->
    %d = tensor.extract_slice %t[0, 0] [1000, 1] [1, 1] : tensor<1000x1xf32> to tensor<1000xf32>
    %s = linalg.fill ins(%z : f32) outs(%d : tensor<1000xf32>) -> tensor<1000xf32>
"""

from __future__ import annotations

from xdsl.ir import OpResult

from schedir.dialects.linalg import FillOp
from schedir.dialects.tensor import ExtractSliceOp
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter


def _swap_extract_slice_of_fill(op: ExtractSliceOp, rw: CanonRewriter) -> bool:
    source = op.source
    fill = source.owner if isinstance(source, OpResult) else None
    if not isinstance(fill, FillOp) or len(list(fill.results[0].uses)) != 1:
        return False
    rw.set_insertion_point(op)
    slice_ = rw.create(
        ExtractSliceOp(
            fill.outputs[0], op.mixed_offsets, op.mixed_sizes, op.mixed_strides, op.result.type
        ),
        op,
    )
    rw.replace_with_op(op, FillOp([fill.inputs[0]], [slice_.results[0]]))
    return True


def swap_extract_slice_with_fill_patterns() -> PatternSet:
    """The patterns of `linalg.swap_extract_slice_with_fill`."""
    return PatternSet().add(ExtractSliceOp, _swap_extract_slice_of_fill)


__all__ = ["swap_extract_slice_with_fill_patterns"]
