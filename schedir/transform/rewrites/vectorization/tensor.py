"""Vectorization of `tensor.pad`, `tensor.insert_slice` and `memref.copy` (upstream
Vectorization.cpp: `vectorizeAsTensorPadOp`, `vectorizeAsInsertSliceOp`, `vectorizeCopy`,
the `PadOpVectorizationWith*` patterns and `DecomposePadOpPattern`).

With vector sizes, a pad reads its source under a mask of the source sizes, padded with
the pad value, and writes the whole vector into a `tensor.empty` of the result shape,
masked by the result sizes (low padding must be 0):

    %r = tensor.pad %a low[0, 0] high[3, 2] { tensor.yield %cst } : tensor<5x6xf32> to tensor<8x8xf32>
  => (vector_sizes [8, 8])
    %m = vector.create_mask %c5, %c6 : vector<8x8xi1>
    %v = vector.mask %m { vector.transfer_read %a[%c0, %c0], %cst {in_bounds = [true, true]} ... }
    %e = tensor.empty() : tensor<8x8xf32>
    %r = vector.transfer_write %v, %e[%c0_0, %c0_0] {in_bounds = [true, true]} ...

An insert_slice becomes a read of its source and a write at its offsets. Where schedir
departs from upstream it is to stay correct: a masked write is bounded by the source sizes
(upstream bounds it by the destination, overwriting elements outside the slice), and an
unmasked insert of a dynamically sized source is only vectorized when the destination
already holds the padding value there and the offsets are known to fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
    TensorType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from schedir.dialects import linalg, vector
from schedir.dialects.linalg.interface import dps_inputs
from schedir.dialects.tensor import InsertSliceOp
from schedir.dialects.utils import Mixed, mixed_values
from schedir.dialects.vector.attributes import bool_array, vec
from schedir.transform.rewrites.canonicalize.affine import composed_folded_apply
from schedir.transform.rewrites.canonicalize.tensor import slice_params
from schedir.transform.rewrites.constants import constant_attr, constant_int, materialize_constant
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import mask_operation, zero
from schedir.transform.rewrites.vectorization.state import (
    VectorizationFailure,
    VectorizeResult,
    is_valid_element_type,
    is_valid_masked_input_vector,
)

# --- helpers -------------------------------------------------------------------------------------


def _index(rw: CanonRewriter, value: int, loc: Operation) -> SSAValue:
    return rw.constant_index(value, loc)


def _value(rw: CanonRewriter, entry: Mixed, loc: Operation) -> SSAValue:
    return entry if isinstance(entry, SSAValue) else _index(rw, entry, loc)


def mixed_sizes(rw: CanonRewriter, value: SSAValue, loc: Operation) -> list[Mixed]:
    """Upstream's `tensor::getMixedSizes` / `memref::getMixedSizes`: static dims as ints,
    dynamic dims as new `tensor.dim` / `memref.dim` ops."""
    sizes: list[Mixed] = []
    for position, size in enumerate(cast(ShapedType, value.type).get_shape()):
        if size != DYNAMIC_INDEX:
            sizes.append(size)
            continue
        index = _index(rw, position, loc)
        dim = (
            xtensor.DimOp(value, index)
            if isinstance(value.type, TensorType)
            else xmemref.DimOp.from_source_and_index(value, index)
        )
        sizes.append(rw.create(dim, loc).results[0])
    return sizes


def pad_value(op: xtensor.PadOp) -> SSAValue | None:
    """Upstream's `PadOp::getConstantPaddingValue`: the yielded value when it is not
    computed in the pad body."""
    block = op.region.block
    terminator = block.last_op
    if terminator is None or not terminator.operands:
        return None
    value = terminator.operands[0]
    owner = value.owner
    if isinstance(owner, Operation):
        if owner.parent_block() is block and not isinstance(owner, arith.ConstantOp):
            return None
        return value
    return None if owner is block else value


def pad_low(op: xtensor.PadOp) -> list[Mixed]:
    """The low padding of each dim, static or dynamic."""
    return mixed_values(op.static_low, list(op.low))


def pad_high(op: xtensor.PadOp) -> list[Mixed]:
    """The high padding of each dim, static or dynamic."""
    return mixed_values(op.static_high, list(op.high))


def masked_read(
    rw: CanonRewriter,
    loc: Operation,
    source: SSAValue,
    shape: Sequence[int],
    padding: SSAValue,
    in_bounds_instead_of_mask: bool,
) -> SSAValue:
    """Upstream's `vector::createReadOrMaskedRead`."""
    source_shape = list(cast(ShapedType, source.type).get_shape())
    vtype = vec(list(shape), padding.type)
    zero = _index(rw, 0, loc)
    in_bounds = [True] * len(shape)
    if in_bounds_instead_of_mask:
        in_bounds = [
            s == v and s != DYNAMIC_INDEX for s, v in zip(source_shape, shape, strict=True)
        ]
    read = vector.TransferReadOp(
        source,
        [zero] * len(shape),
        padding,
        vtype,
        bool_array(in_bounds),
        AffineMapAttr(AffineMap.minor_identity(len(source_shape), len(shape))),
    )
    rw.create(read, loc)
    if list(shape) == source_shape or in_bounds_instead_of_mask:
        return read.result
    bounds: list[SSAValue | Operation] = [_value(rw, s, loc) for s in mixed_sizes(rw, source, loc)]
    mask = rw.create(vector.CreateMaskOp(bounds, vec(list(shape), i1)), loc).results[0]
    return mask_operation(rw, read, mask).results[0]


def transfer_write(
    rw: CanonRewriter,
    loc: Operation,
    value: SSAValue,
    dest: SSAValue,
    indices: Sequence[SSAValue],
    in_bounds: Sequence[bool],
    mask_bounds: Sequence[Mixed] | None,
) -> SSAValue:
    """A transfer_write (masked by `mask_bounds` when given) of `value` into `dest`."""
    vtype = cast(VectorType, value.type)
    dest_rank = cast(ShapedType, dest.type).get_num_dims()
    write = vector.TransferWriteOp(
        value,
        dest,
        list(indices),
        bool_array(list(in_bounds)),
        None,
        AffineMapAttr(AffineMap.minor_identity(dest_rank, vtype.get_num_dims())),
        cast(TensorType[Attribute], dest.type) if isinstance(dest.type, TensorType) else None,
    )
    rw.create(write, loc)
    if mask_bounds is None:
        return write.results[0]
    bounds: list[SSAValue | Operation] = [_value(rw, b, loc) for b in mask_bounds]
    mask = rw.create(vector.CreateMaskOp(bounds, vec(vtype.get_shape(), i1)), loc).results[0]
    return mask_operation(rw, write, mask).results[0]


# --- tensor.pad ----------------------------------------------------------------------------------


def vectorize_pad(rw: CanonRewriter, op: xtensor.PadOp, sizes: Sequence[int]) -> VectorizeResult:
    """Upstream's `vectorizeAsTensorPadOp` (vector sizes are required)."""
    padding = pad_value(op)
    if padding is None:
        raise VectorizationFailure("pad value is not constant")
    result_type = cast(TensorType, op.results[0].type)
    if not is_valid_masked_input_vector(result_type.get_shape(), sizes):
        raise VectorizationFailure("invalid vector sizes for the pad result")
    low = pad_low(op)
    if any(constant_int(v) != 0 for v in low):
        raise VectorizationFailure("low pad must all be zero")
    if not is_valid_element_type(result_type.get_element_type()):
        raise VectorizationFailure("invalid element type")
    rw.set_insertion_point(op)
    result_sizes = _reify_pad(rw, op)
    read = masked_read(rw, op, op.operands[0], sizes, padding, False)
    dynamic = [s for s in result_sizes if isinstance(s, SSAValue)]
    empty = rw.create(xtensor.EmptyOp(dynamic, result_type), op).results[0]
    return VectorizeResult((write_whole(rw, op, read, empty, sizes),))


def write_whole(
    rw: CanonRewriter, loc: Operation, value: SSAValue, dest: SSAValue, sizes: Sequence[int]
) -> SSAValue:
    """Upstream's `createWriteOrMaskedWrite` at index 0 (masked by the destination sizes
    when they differ from the vector's)."""
    dest_shape = list(cast(ShapedType, dest.type).get_shape())
    zero = _index(rw, 0, loc)
    rank = len(sizes)
    bounds: list[Mixed] | None = None
    if dest_shape[len(dest_shape) - rank :] != list(sizes):
        bounds = mixed_sizes(rw, dest, loc)[len(dest_shape) - rank :]
    return transfer_write(rw, loc, value, dest, [zero] * len(dest_shape), [True] * rank, bounds)


def _reify_pad(rw: CanonRewriter, op: xtensor.PadOp) -> list[Mixed]:
    """The pad's result sizes: static, or source size + low + high (folded)."""
    result_shape = cast(TensorType, op.results[0].type).get_shape()
    low, high = pad_low(op), pad_high(op)
    sizes: list[Mixed] = []
    source = op.operands[0]
    for dim, size in enumerate(result_shape):
        if size != DYNAMIC_INDEX:
            sizes.append(size)
            continue
        src = (
            mixed_sizes(rw, source, op)[dim]
            if cast(TensorType, source.type).get_shape()[dim] == DYNAMIC_INDEX
            else cast(TensorType, source.type).get_shape()[dim]
        )
        terms = [_value(rw, v, op) for v in (src, low[dim], high[dim])]
        sum_map = AffineMap(
            0, 3, (AffineExpr.symbol(0) + AffineExpr.symbol(1) + AffineExpr.symbol(2),)
        )
        sizes.append(composed_folded_apply(rw, sum_map, terms, op))
    return sizes


# --- tensor.insert_slice ---------------------------------------------------------------------------


def static_pad_value(op: Operation | None, rw: CanonRewriter, loc: Operation) -> SSAValue | None:
    """Upstream's `getStaticPadVal`: the scalar a destination was filled with (through a
    fill, a broadcast write, or an insert_slice into such a destination). A splat constant
    counts too, since the broadcast of a constant folds into one."""
    if isinstance(op, vector.BroadcastOp):
        source = op.source
        return None if isinstance(source.type, VectorType) else source
    if isinstance(op, linalg.FillOp):
        return dps_inputs(op)[0]
    if isinstance(op, vector.TransferWriteOp):
        return static_pad_value(_owner(op.vector), rw, loc)
    if isinstance(op, InsertSliceOp):
        return static_pad_value(_owner(op.dest), rw, loc)
    if isinstance(op, arith.ConstantOp):
        attr = constant_attr(op.results[0])
        if not isinstance(attr, DenseIntOrFPElementsAttr) or not attr.is_splat():
            return None
        elem = attr.get_element_type()
        value = attr.get_values()[0]
        scalar: Attribute = (
            FloatAttr(float(value), cast(AnyFloat, elem))
            if isinstance(elem, AnyFloat)
            else IntegerAttr(int(value), cast(IndexType, elem))
        )
        const = materialize_constant(rw, scalar, elem, loc.location)
        return const.results[0] if const is not None else None
    return None


def _owner(value: SSAValue) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def vectorize_insert_slice(
    rw: CanonRewriter, op: InsertSliceOp, sizes: Sequence[int]
) -> VectorizeResult:
    """Upstream's `vectorizeAsInsertSliceOp`."""
    source, dest = op.source, op.dest
    source_type = cast(TensorType, source.type)
    dest_type = cast(TensorType, dest.type)
    offsets, _, strides = slice_params(op)
    if any(constant_int(s) != 1 for s in strides):
        raise VectorizationFailure("non-unit strides")
    if not is_valid_element_type(source_type.get_element_type()):
        raise VectorizationFailure("invalid element type")
    src_shape = list(source_type.get_shape())
    dst_shape = list(dest_type.get_shape())
    rank_diff = len(dst_shape) - len(src_shape)
    if sizes and len(sizes) != len(src_shape):
        raise VectorizationFailure("one vector size per source dim is required")
    shape: list[int] = []
    for i, size in enumerate(src_shape):
        if sizes:
            shape.append(sizes[i])
        elif size != DYNAMIC_INDEX:
            shape.append(size)
        elif dst_shape[rank_diff + i] != DYNAMIC_INDEX:
            shape.append(dst_shape[rank_diff + i])
        else:
            raise VectorizationFailure("neither source nor destination size is static")
    if sizes and any(v < s for v, s in zip(sizes, src_shape, strict=True) if s != DYNAMIC_INDEX):
        raise VectorizationFailure("vector sizes smaller than the source")
    rw.set_insertion_point(op)
    unmasked = not sizes
    # The read pads past the source and the write stores the padding: only right when the
    # destination holds the padding value there and the write stays in bounds.
    if unmasked and shape != src_shape and not _write_fits(offsets, shape, dst_shape, rank_diff):
        raise VectorizationFailure("cannot prove the padded write stays in bounds")
    padding = static_pad_value(op, rw, op)
    if padding is None:
        if unmasked and shape != src_shape:
            raise VectorizationFailure("unknown padding value of the destination")
        elem = source_type.get_element_type()
        padding = zero(rw, elem, op)
    read = masked_read(rw, op, source, shape, padding, unmasked)
    indices = [_value(rw, o, op) for o in offsets]
    if unmasked:
        in_bounds = [
            d != DYNAMIC_INDEX and d >= v for d, v in zip(dst_shape[rank_diff:], shape, strict=True)
        ]
        return VectorizeResult((transfer_write(rw, op, read, dest, indices, in_bounds, None),))
    bounds: list[Mixed] | None = None
    if shape != src_shape:
        bounds = mixed_sizes(rw, source, op)
    return VectorizeResult(
        (transfer_write(rw, op, read, dest, indices, [True] * len(shape), bounds),)
    )


def _write_fits(
    offsets: Sequence[Mixed], shape: Sequence[int], dst_shape: Sequence[int], rank_diff: int
) -> bool:
    for i, size in enumerate(shape):
        offset = constant_int(offsets[rank_diff + i])
        dim = dst_shape[rank_diff + i]
        if offset is None or dim == DYNAMIC_INDEX or offset + size > dim:
            return False
    return True


def insert_slice_vectorization(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `InsertSliceVectorizePattern`."""
    assert isinstance(op, InsertSliceOp)
    try:
        result = vectorize_insert_slice(rw, op, ())
    except VectorizationFailure:
        return False
    rw.replace_values(op, list(result.replacements))
    return True


__all__ = [
    "insert_slice_vectorization",
    "masked_read",
    "mixed_sizes",
    "pad_high",
    "pad_low",
    "pad_value",
    "static_pad_value",
    "transfer_write",
    "vectorize_insert_slice",
    "vectorize_pad",
    "write_whole",
]
