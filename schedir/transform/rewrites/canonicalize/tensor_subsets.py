"""The `tensor.fold_tensor_subset_ops` set (upstream FoldTensorSubsetOps.cpp).

`transfer_read(extract_slice)` reads the source at the composed indices, `insert_slice`
of a `transfer_write` that writes a whole tensor writes into the destination, and a
rank-expanding `insert_slice` that fills its destination, inserted again, is inserted
directly:

    %s = tensor.extract_slice %t[%i, 4] [8, 16] [1, 1] : tensor<?x?xf32> to tensor<8x16xf32>
    %v = vector.transfer_read %s[%c1, %c2], %pad : tensor<8x16xf32>, vector<4xf32>
      => %v = vector.transfer_read %t[%i + 1, 6], %pad : tensor<?x?xf32>, vector<4xf32>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.dialects.utils import Mixed
from schedir.dialects.vector import TransferReadOp, TransferWriteOp
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


def _add_indices(rw: CanonRewriter, a: Mixed, b: SSAValue, loc: Operation) -> SSAValue:
    """a + b as an `affine.apply` (upstream's resolveIndicesIntoOpWithOffsetsAndStrides)."""
    offset = rw.mixed_value(a, loc) if isinstance(a, int) else a
    map_ = AffineMap(2, 0, (AffineExpr.dimension(0) + AffineExpr.dimension(1),))
    return composed_folded_apply(rw, map_, [offset, b], loc)


def _expand_map(map_: AffineMap, dropped: Sequence[int], full_rank: int) -> AffineMap:
    """A permutation map over the reduced rank re-expressed over the full rank."""
    reduced_to_full = [i for i in range(full_rank) if i not in dropped]
    dims = [AffineExpr.dimension(i) for i in reduced_to_full]
    return AffineMap(
        full_rank, 0, tuple(r.replace_dims_and_symbols(dims, ()) for r in map_.results)
    )


def transfer_read_of_extract_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's TransferReadOfExtractSliceOpFolder."""
    if not isinstance(op, TransferReadOp) or op.properties.get("mask") is not None:
        return False
    source = op.operands[0]
    slice_op = source.owner
    if not isinstance(slice_op, xtensor.ExtractSliceOp):
        return False
    offsets, sizes, strides = slice_params(slice_op)
    if any(constant_int(s) != 1 for s in strides):
        return False
    if len(op.operands) != 2 + len(slice_op.results[0].type.get_shape()):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return False  # masked reads are left alone
    reduced_rank = len(slice_op.results[0].type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    dropped = dropped_dims(sizes, slice_op.results[0].type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    indices = list(op.operands[1 : 1 + reduced_rank])
    padding = op.operands[1 + reduced_rank]
    new_indices: list[SSAValue] = []
    it = iter(indices)
    for i, offset in enumerate(offsets):
        if i in dropped:
            new_indices.append(rw.mixed_value(offset, op))
        else:
            new_indices.append(_add_indices(rw, offset, next(it), op))
    perm = op.properties["permutation_map"]
    assert isinstance(perm, AffineMapAttr)
    new_map = _expand_map(perm.data, dropped, len(offsets))
    props = {k: v for k, v in op.properties.items() if k != "operandSegmentSizes"}
    props["permutation_map"] = AffineMapAttr(new_map)
    new = type(op).build(
        operands=[slice_op.operands[0], new_indices, padding, []],
        result_types=[op.results[0].type],
        properties=props,
        attributes=dict(op.attributes),
    )
    rw.replace_with_op(op, new)
    return True


def insert_slice_of_transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's InsertSliceOfTransferWriteOpFolder: a transfer_write that overwrites a
    whole tensor at index 0, then inserted, writes into the destination directly."""
    write = op.operands[0].owner
    if not isinstance(write, TransferWriteOp) or not write.results:
        return False
    tensor_type = write.results[0].type
    vector = write.operands[0]
    assert isinstance(tensor_type, TensorType)
    rank = len(tensor_type.get_shape())
    if len(write.operands) != 2 + rank:
        return False  # masked
    if any(constant_int(v) != 0 for v in write.operands[2 : 2 + rank]):
        return False
    vshape = list(vector.type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    perm = write.properties["permutation_map"]
    assert isinstance(perm, AffineMapAttr)
    if perm.data != AffineMap.identity(rank) or vshape != list(tensor_type.get_shape()):
        return False
    in_bounds = write.properties.get("in_bounds")
    offsets, sizes, strides = slice_params(op)
    if any(constant_int(s) != 1 for s in strides):
        return False
    dest = op.operands[1]
    dropped = dropped_dims(sizes, tensor_type.get_shape())
    full_rank = len(offsets)
    rw.set_insertion_point(op)
    indices = [rw.mixed_value(o, op) for o in offsets]
    new_map = _expand_map(perm.data, dropped, full_rank)
    props = {k: v for k, v in write.properties.items() if k != "operandSegmentSizes"}
    props["permutation_map"] = AffineMapAttr(new_map)
    if in_bounds is not None:
        props["in_bounds"] = in_bounds
    new = type(write).build(
        operands=[vector, dest, indices, []],
        result_types=[[dest.type]],
        properties=props,
    )
    rw.replace_with_op(op, new)
    return True


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
    return (
        PatternSet()
        .add(TransferReadOp, transfer_read_of_extract_slice)
        .add(InsertSliceOp, insert_slice_of_transfer_write, insert_slice_of_insert_slice)
        .add(ParallelInsertSliceOp, insert_slice_of_insert_slice)
    )


__all__ = [
    "fold_tensor_subset_ops_patterns",
    "insert_slice_of_insert_slice",
    "insert_slice_of_transfer_write",
    "transfer_read_of_extract_slice",
]
