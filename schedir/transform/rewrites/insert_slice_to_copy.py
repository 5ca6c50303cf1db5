"""Make the copy of a slice insertion explicit (upstream's `InsertSliceToCopyOp`,
mlir/lib/Dialect/Linalg/TransformOps/LinalgTransformOps.cpp).

A `tensor.insert_slice` / `tensor.parallel_insert_slice` whose source is not already a
`linalg.copy` gets one into the slice of its destination; the insertion then inserts
the copy's result (which bufferizes in place, so the copy is the only data movement and
can be tiled or mapped to threads like any structured op):

    %r = tensor.insert_slice %s into %d[0, %i] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>
    // ->
    %e = tensor.extract_slice %d[0, %i] [4, 8] [1, 1] : tensor<16x64xf32> to tensor<4x8xf32>
    %c = linalg.copy ins(%s : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %r = tensor.insert_slice %c into %d[0, %i] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x64xf32>

For `parallel_insert_slice` the slice and the copy go before the `scf.forall.in_parallel`
terminator (only insertions may live in it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Attribute, Operation, OpResult
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.linalg import CopyOp
from schedir.dialects.tensor import ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp


@dataclass(frozen=True)
class CopyResult:
    """The `linalg.copy` now feeding the insertion."""

    copy: Operation


def insert_slice_to_copy(
    rewriter: PatternRewriter, op: InsertSliceOp | ParallelInsertSliceOp
) -> CopyResult:
    """Rewrite the insertion `op` to insert a `linalg.copy` of its source (module doc)."""
    source = op.operands[0]
    if isinstance(source, OpResult) and isinstance(source.op, CopyOp):
        return CopyResult(source.op)
    anchor: Operation = op
    if isinstance(op, ParallelInsertSliceOp):
        parent = op.parent_op()
        assert parent is not None
        anchor = parent
    dest = op.operands[1]
    sizes = op.mixed_sizes
    dest_type = cast(TensorType[Attribute], dest.type)
    source_type = cast(TensorType[Attribute], source.type)
    if len(source_type.get_shape()) == len(sizes):
        # Upstream infers the slice's type from the sizes (no rank reduction).
        slice_type: Attribute = TensorType(
            dest_type.get_element_type(),
            [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes],
        )
    else:
        slice_type = source_type
    extract = ExtractSliceOp(dest, op.mixed_offsets, sizes, op.mixed_strides, slice_type)
    rewriter.insert(extract, InsertPoint.before(anchor))
    extract.location = op.location
    copy = CopyOp([source], [extract.results[0]])
    rewriter.insert(copy, InsertPoint.before(anchor))
    copy.location = op.location
    new_insert = type(op).create(
        operands=[copy.results[0], *op.operands[1:]],
        result_types=[r.type for r in op.results],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )
    rewriter.replace(op, new_insert)
    new_insert.location = op.location
    return CopyResult(copy)


__all__ = ["CopyResult", "insert_slice_to_copy"]
