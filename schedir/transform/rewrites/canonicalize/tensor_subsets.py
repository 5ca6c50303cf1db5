"""The tensor subset folds (upstream FoldTensorSubsetOps.cpp): the
`tensor.fold_tensor_subset_ops_into_vector_transfers` set (also part of
`vectorize_children_and_apply_patterns`) and the `tensor.fold_tensor_subset_ops` set, which
adds the insert-of-insert folders.

A transfer read of an `extract_slice` reads the slice's source at the composed indices; a
transfer write of a whole static tensor, inserted by an `insert_slice`, writes into the
insert's destination (unit strides, in-bounds and unmasked transfers only: an out-of-bounds
read of a slice reads padding where the source may hold data); a rank-expanding
`insert_slice` that fills its destination, inserted again, is inserted directly:

    %s = tensor.extract_slice %t[%i, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
    %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, true]} : ...
  =>
    %v = vector.transfer_read %t[%i, %c0], %pad {in_bounds = [true, true]} : ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.tensor import ExtractSliceOp, InsertSliceOp, ParallelInsertSliceOp
from schedir.dialects.vector.attributes import in_bounds_values
from schedir.transform.rewrites.canonicalize.affine import composed_folded_apply
from schedir.transform.rewrites.canonicalize.tensor import (
    build_insert_slice,
    dropped_dims,
    is_identity_slice,
    slice_params,
)
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import defining


def _resolve_indices(
    rw: CanonRewriter,
    offsets: Sequence[object],
    dropped: Sequence[int],
    indices: Sequence[SSAValue],
    loc: Operation,
) -> list[SSAValue]:
    """Upstream's `resolveIndicesIntoOpWithOffsetsAndStrides` for unit strides."""
    result: list[SSAValue] = []
    remaining = iter(indices)
    add = AffineMap(0, 2, (AffineExpr.symbol(0) + AffineExpr.symbol(1),))
    for position, offset in enumerate(offsets):
        offset_value = (
            offset if isinstance(offset, SSAValue) else rw.constant_index(cast(int, offset), loc)
        )
        if position in dropped:
            result.append(offset_value)
            continue
        result.append(composed_folded_apply(rw, add, [offset_value, next(remaining)], loc))
    return result


def _expand_map(m: AffineMap, rank: int, dropped: Sequence[int]) -> AffineMap:
    """Upstream's `expandDimsToRank`."""
    kept = [d for d in range(rank) if d not in dropped]
    return AffineMap(
        rank,
        0,
        tuple(
            e.replace_dims_and_symbols([AffineExpr.dimension(d) for d in kept], [])
            for e in m.results
        ),
    )


def _foldable_transfer(op: Operation, slice_op: Operation) -> bool:
    """Upstream's `preconditionsFoldExtractOrInsertWithTransferOp`."""
    rank = len(cast(AffineMapAttr, op.properties["permutation_map"]).data.results)
    if not all(in_bounds_values(op.properties.get("in_bounds"), rank)):
        return False
    if cast(vector.TransferReadOp | vector.TransferWriteOp, op).mask is not None:
        return False
    return all(constant_int(s) == 1 for s in slice_params(slice_op)[2])


def transfer_read_of_extract_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferReadOfExtractSliceOpFolder` (a masking `vector.mask` stays
    around the new read)."""
    assert isinstance(op, vector.TransferReadOp)
    slice_op = defining(op.source, ExtractSliceOp)
    if slice_op is None or not _foldable_transfer(op, slice_op):
        return False
    offsets, sizes, _ = slice_params(slice_op)
    dropped = dropped_dims(sizes, cast(TensorType, slice_op.result.type).get_shape())
    indices = _resolve_indices(rw, offsets, dropped, list(op.indices), op)
    new_map = _expand_map(op.permutation_map.data, len(offsets), dropped)
    new = vector.TransferReadOp(
        slice_op.source, indices, op.padding, op.result.type, op.in_bounds, AffineMapAttr(new_map)
    )
    rw.replace_with_op(op, new)
    return True


def insert_slice_of_transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `InsertSliceOfTransferWriteOpFolder`: a write covering a whole static
    tensor, then inserted, writes into the destination."""
    assert isinstance(op, InsertSliceOp)
    write = defining(op.source, vector.TransferWriteOp)
    if write is None or not _foldable_transfer(write, op):
        return False
    shaped = cast(TensorType, write.source.type)
    if -1 in shaped.get_shape() or list(cast(VectorType, write.vector.type).get_shape()) != list(
        shaped.get_shape()
    ):
        return False
    offsets, sizes, _ = slice_params(op)
    dropped = dropped_dims(sizes, shaped.get_shape())
    indices = _resolve_indices(rw, offsets, dropped, list(write.indices), op)
    new_map = _expand_map(write.permutation_map.data, len(offsets), dropped)
    new = vector.TransferWriteOp(
        write.vector,
        op.dest,
        indices,
        write.in_bounds,
        None,
        AffineMapAttr(new_map),
        cast(TensorType, op.dest.type),
    )
    rw.replace_with_op(op, new)
    return True


def fold_tensor_subset_into_transfers_patterns() -> PatternSet:
    """`transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers`."""
    return (
        PatternSet()
        .add(vector.TransferReadOp, transfer_read_of_extract_slice)
        .add(InsertSliceOp, insert_slice_of_transfer_write)
    )


def insert_slice_of_insert_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's InsertSliceOfInsertSliceFolder: a rank-expanding insert_slice that
    fills its whole destination, inserted again, is inserted directly."""
    inner = op.operands[0].owner
    if not isinstance(inner, xtensor.InsertSliceOp):
        return False
    inner_dest_type = inner.operands[1].type
    assert isinstance(inner_dest_type, TensorType)
    inner_params = slice_params(inner)
    if not is_identity_slice(inner_params, inner_dest_type.get_shape()):
        return False
    inner_source = inner.operands[0]
    cls = ParallelInsertSliceOp if isinstance(op, ParallelInsertSliceOp) else InsertSliceOp
    new = build_insert_slice(inner_source, op.operands[1], slice_params(op), cls)
    new.location = op.location
    rw.replace(op, new, list(new.results))
    return True


def fold_tensor_subset_ops_patterns() -> PatternSet:
    """`transform.apply_patterns.tensor.fold_tensor_subset_ops`."""
    return (
        fold_tensor_subset_into_transfers_patterns()
        .add(InsertSliceOp, insert_slice_of_insert_slice)
        .add(ParallelInsertSliceOp, insert_slice_of_insert_slice)
    )


__all__ = [
    "fold_tensor_subset_into_transfers_patterns",
    "fold_tensor_subset_ops_patterns",
    "insert_slice_of_insert_slice",
    "insert_slice_of_transfer_write",
    "transfer_read_of_extract_slice",
]
