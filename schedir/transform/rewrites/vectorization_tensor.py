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
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ShapedType,
    TensorType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from schedir.dialects import linalg, vector
from schedir.dialects._utils import Mixed, mixed_values
from schedir.dialects._vector_attrs import bool_array, vec
from schedir.dialects.tensor import InsertSliceOp
from schedir.transform.rewrites.canonicalize import PatternSet
from schedir.transform.rewrites.canonicalize_tensor import build_insert_slice, slice_params
from schedir.transform.rewrites.canonicalize_utils import (
    CanonRewriter,
    constant_attr,
    constant_int,
    materialize_constant,
)
from schedir.transform.rewrites.vector_utils import mask_operation
from schedir.transform.rewrites.vectorization import (
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
    from xdsl.dialects import memref as xmemref

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


def pad_value(op: Operation) -> SSAValue | None:
    """Upstream's `PadOp::getConstantPaddingValue`: the yielded value when it is not
    computed in the pad body."""
    block = op.regions[0].block
    terminator = block.last_op
    if terminator is None or not terminator.operands:
        return None
    value = terminator.operands[0]
    owner = value.owner
    if isinstance(owner, Operation):
        if owner.parent_block() is block and owner.name != "arith.constant":
            return None
        return value
    return None if value.block is block else value  # type: ignore[union-attr]


def _pad_mixed(op: Operation, kind: str) -> list[Mixed]:
    static = op.properties[f"static_{kind}"]
    dynamic = list(getattr(op, kind))
    return mixed_values(static, dynamic)  # type: ignore[arg-type]


def _masked_read(
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
        in_bounds = [s == v and s != DYNAMIC_INDEX for s, v in zip(source_shape, shape, strict=True)]
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
    bounds = [_value(rw, s, loc) for s in mixed_sizes(rw, source, loc)]
    mask = rw.create(vector.CreateMaskOp(bounds, vec(list(shape), i1)), loc).results[0]
    return mask_operation(rw, read, mask).results[0]


def _write(
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
    bounds = [_value(rw, b, loc) for b in mask_bounds]
    mask = rw.create(vector.CreateMaskOp(bounds, vec(vtype.get_shape(), i1)), loc).results[0]
    return mask_operation(rw, write, mask).results[0]


# --- tensor.pad ----------------------------------------------------------------------------------


def vectorize_pad(rw: CanonRewriter, op: Operation, sizes: Sequence[int]) -> VectorizeResult:
    """Upstream's `vectorizeAsTensorPadOp` (vector sizes are required)."""
    padding = pad_value(op)
    if padding is None:
        raise VectorizationFailure("pad value is not constant")
    result_type = cast(TensorType, op.results[0].type)
    if not is_valid_masked_input_vector(result_type.get_shape(), sizes):
        raise VectorizationFailure("invalid vector sizes for the pad result")
    low = _pad_mixed(op, "low")
    if any(constant_int(v) != 0 for v in low):
        raise VectorizationFailure("low pad must all be zero")
    if not is_valid_element_type(result_type.get_element_type()):
        raise VectorizationFailure("invalid element type")
    rw.set_insertion_point(op)
    result_sizes = _reify_pad(rw, op)
    read = _masked_read(rw, op, op.operands[0], sizes, padding, False)
    dynamic = [s for s in result_sizes if isinstance(s, SSAValue)]
    empty = rw.create(xtensor.EmptyOp(dynamic, result_type), op).results[0]
    return VectorizeResult((_write_whole(rw, op, read, empty, sizes),))


def _write_whole(
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
    return _write(rw, loc, value, dest, [zero] * len(dest_shape), [True] * rank, bounds)


def _reify_pad(rw: CanonRewriter, op: Operation) -> list[Mixed]:
    """The pad's result sizes: static, or source size + low + high (folded)."""
    from schedir.transform.rewrites.canonicalize_affine import composed_folded_apply

    result_shape = cast(TensorType, op.results[0].type).get_shape()
    low, high = _pad_mixed(op, "low"), _pad_mixed(op, "high")
    sizes: list[Mixed] = []
    source = op.operands[0]
    for dim, size in enumerate(result_shape):
        if size != DYNAMIC_INDEX:
            sizes.append(size)
            continue
        src = mixed_sizes(rw, source, op)[dim] if cast(
            TensorType, source.type
        ).get_shape()[dim] == DYNAMIC_INDEX else cast(TensorType, source.type).get_shape()[dim]
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
    if op is None:
        return None
    if op.name == "vector.broadcast":
        source = op.operands[0]
        return None if isinstance(source.type, VectorType) else source
    if op.name == "linalg.fill":
        return linalg.dps_inputs(op)[0]
    if op.name == "vector.transfer_write":
        return static_pad_value(_owner(op.operands[0]), rw, loc)
    if op.name == "tensor.insert_slice":
        return static_pad_value(_owner(op.operands[1]), rw, loc)
    if op.name == "arith.constant":
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
    rw: CanonRewriter, op: Operation, sizes: Sequence[int]
) -> VectorizeResult:
    """Upstream's `vectorizeAsInsertSliceOp`."""
    source, dest = op.operands[0], op.operands[1]
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
        from schedir.transform.rewrites.vector_utils import zero

        padding = zero(rw, elem, op)
    read = _masked_read(rw, op, source, shape, padding, unmasked)
    indices = [_value(rw, o, op) for o in offsets]
    if unmasked:
        in_bounds = [
            d != DYNAMIC_INDEX and d >= v
            for d, v in zip(dst_shape[rank_diff:], shape, strict=True)
        ]
        return VectorizeResult((_write(rw, op, read, dest, indices, in_bounds, None),))
    bounds: list[Mixed] | None = None
    if shape != src_shape:
        bounds = mixed_sizes(rw, source, op)
    return VectorizeResult((_write(rw, op, read, dest, indices, [True] * len(shape), bounds),))


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
    try:
        result = vectorize_insert_slice(rw, op, ())
    except VectorizationFailure:
        return False
    rw.replace_values(op, list(result.replacements))
    return True


# --- patterns on tensor.pad users (vectorize_padding) --------------------------------------------


def _zero_low(op: Operation) -> bool:
    return all(constant_int(v) == 0 for v in _pad_mixed(op, "low"))


def _pad_result_uses(op: Operation) -> list[tuple[Operation, SSAValue]]:
    """The users of a pad's result, and the value they use: the result itself, or a
    `tensor.cast` of it to a static type (how schedir's transform.structured.pad keeps
    xDSL's tensor.pad verifier happy)."""
    uses: list[tuple[Operation, SSAValue]] = []
    for use in list(op.results[0].uses):
        user = use.operation
        if user.name == "tensor.cast":
            uses.extend((inner.operation, user.results[0]) for inner in list(user.results[0].uses))
        else:
            uses.append((user, op.results[0]))
    return uses


def pad_into_transfer_read(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `PadOpVectorizationWithTransferReadPattern`: an in-bounds, unmasked
    read of the pad reads its source, padded with the pad value."""
    if not _zero_low(op):
        return False
    padding = pad_value(op)
    if padding is None:
        return False
    changed = False
    for read, value in _pad_result_uses(op):
        if not isinstance(read, vector.TransferReadOp) or read.source is not value:
            continue
        if read.mask is not None:
            continue
        rank = cast(VectorType, read.result.type).get_num_dims()
        if not all(bool(b.value.data) for b in read.in_bounds.data):  # type: ignore[attr-defined]
            continue
        operands = list(read.operands)
        operands[0] = op.operands[0]
        operands[1 + len(read.indices)] = padding
        read.operands = operands
        read.properties["in_bounds"] = bool_array([False] * rank)
        rw.modified(read)
        changed = True
    return changed


def _same_tensor_size(before: SSAValue, after: Operation) -> bool:
    """Upstream's `hasSameTensorSize(beforePadding, afterTrimming)`."""
    owner = before.owner
    if (
        isinstance(owner, Operation)
        and owner.name == "tensor.cast"
        and _same_tensor_size(owner.operands[0], after)
    ):
        return True
    t1, t2 = before.type, after.results[0].type
    if not isinstance(t1, TensorType) or not isinstance(t2, TensorType):
        return False
    s1, s2 = t1.get_shape(), t2.get_shape()
    if len(s1) != len(s2):
        return False
    for a, b in zip(s1, s2, strict=True):
        if (a == DYNAMIC_INDEX) != (b == DYNAMIC_INDEX) or (a != DYNAMIC_INDEX and a != b):
            return False
    if DYNAMIC_INDEX not in s1:
        return True
    if not isinstance(owner, Operation) or owner.name != "tensor.extract_slice":
        return False
    before_sizes = slice_params(owner)[1]
    after_sizes = slice_params(after)[1]
    for i, size in enumerate(s1):
        if size != DYNAMIC_INDEX:
            continue
        x, y = before_sizes[i], after_sizes[i]
        if x is y or (constant_int(x) is not None and constant_int(x) == constant_int(y)):
            continue
        vx, vy = _owner(x) if isinstance(x, SSAValue) else None, _owner(y) if isinstance(y, SSAValue) else None
        if (
            vx is not None
            and vy is not None
            and vx.name == vy.name == "affine.min"
            and vx.properties.get("map") == vy.properties.get("map")
            and list(vx.operands) == list(vy.operands)
        ):
            continue
        return False
    return True


def pad_into_transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `PadOpVectorizationWithTransferWritePattern`: a write into the pad whose
    result is trimmed back to the source size writes into the source (out of bounds
    parts are dropped)."""
    if not _zero_low(op) or pad_value(op) is None:
        return False
    changed = False
    for write, value in _pad_result_uses(op):
        if not isinstance(write, vector.TransferWriteOp) or write.source is not value:
            continue
        if cast(VectorType, write.vector.type).get_num_dims() == 0:
            continue
        uses = list(write.results[0].uses)
        if len(uses) != 1 or uses[0].operation.name != "tensor.extract_slice":
            continue
        trim = uses[0].operation
        if any(constant_int(o) != 0 for o in slice_params(trim)[0]):
            continue
        if not _same_tensor_size(op.operands[0], trim):
            continue
        rw.set_insertion_point(write)
        rank = cast(VectorType, write.vector.type).get_num_dims()
        new = vector.TransferWriteOp(
            write.vector,
            op.operands[0],
            list(write.indices),
            bool_array([False] * rank),
            write.mask,
            write.permutation_map,
            cast(TensorType[Attribute], op.operands[0].type),
        )
        rw.create(new, write)
        rw.replace_values(trim, [new.results[0]])
        rw.erase(write)
        changed = True
    return changed


def pad_into_insert_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `PadOpVectorizationWithInsertSlicePattern`: inserting a whole static pad
    becomes a padded read of its source and an in-bounds write."""
    if not _zero_low(op):
        return False
    padding = pad_value(op)
    if padding is None:
        return False
    changed = False
    for insert, value in _pad_result_uses(op):
        result_type = cast(TensorType, value.type)
        if DYNAMIC_INDEX in result_type.get_shape():
            continue
        if not isinstance(insert, InsertSliceOp) or insert.source is not value or insert.dest is value:
            continue
        offsets, sizes, strides = slice_params(insert)
        if any(constant_int(s) != 1 for s in strides):
            continue
        pad_shape = list(result_type.get_shape())
        dest_rank = len(sizes)
        expected = [1] * (dest_rank - len(pad_shape)) + pad_shape
        if [constant_int(s) for s in sizes] != expected:
            continue
        rw.set_insertion_point(insert)
        zero = _index(rw, 0, op)
        vtype = vec(pad_shape, result_type.get_element_type())
        read = vector.TransferReadOp(
            op.operands[0],
            [zero] * len(pad_shape),
            padding,
            vtype,
            bool_array([False] * len(pad_shape)),
            AffineMapAttr(AffineMap.minor_identity(len(pad_shape), len(pad_shape))),
        )
        rw.create(read, op)
        indices = [_value(rw, o, op) for o in offsets]
        written = _write(rw, insert, read.result, insert.operands[1], indices, [True] * len(pad_shape), None)
        rw.replace_values(insert, [written])
        changed = True
    return changed


def decompose_pad(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `DecomposePadOpPattern`: `tensor.empty` + `linalg.fill` (or
    `tensor.generate`) + `tensor.insert_slice` of the source at the low pads."""
    from schedir.dialects.tensor import GenerateOp

    result_type = cast(TensorType, op.results[0].type)
    low, high = _pad_mixed(op, "low"), _pad_mixed(op, "high")
    source = op.operands[0]
    source_shape = cast(TensorType, source.type).get_shape()
    dynamic: list[SSAValue] = []
    for dim, size in enumerate(result_type.get_shape()):
        if size != DYNAMIC_INDEX:
            continue
        src: Mixed = source_shape[dim]
        if src == DYNAMIC_INDEX:
            src = mixed_sizes(rw, source, op)[dim]
        total = _value(rw, src, op)
        for extra in (low[dim], high[dim]):
            if constant_int(extra) == 0:
                continue
            total = rw.create(arith.AddiOp(total, _value(rw, extra, op)), op).results[0]
        dynamic.append(total)
    empty = rw.create(xtensor.EmptyOp(dynamic, result_type), op).results[0]
    padding = pad_value(op)
    if padding is not None:
        filled = rw.create(linalg.FillOp([padding], [empty]), op).results[0]
    else:
        # The pad body computes the value from the indices: it becomes a generate body.
        generate = GenerateOp(dynamic, result_type, op.regions[0].clone())
        filled = rw.create(generate, op).results[0]
    sizes = mixed_sizes(rw, source, op)
    params = (low, sizes, [1] * len(sizes))
    insert = build_insert_slice(source, filled, params)
    rw.replace_with_op(op, insert)
    return True


def pad_patterns() -> PatternSet:
    """Upstream's `populatePadOpVectorizationPatterns` and `populateDecomposePadPatterns`
    (the user patterns first: they have the higher benefit)."""
    return PatternSet().add(
        "tensor.pad",
        pad_into_transfer_read,
        pad_into_transfer_write,
        pad_into_insert_slice,
        decompose_pad,
    )


# --- memref.copy ---------------------------------------------------------------------------------


def vectorize_copy(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CopyVectorizationPattern` (`vectorizeCopy`): a static `memref.copy`
    becomes a whole read and a whole write."""
    source, target = op.operands[0], op.operands[1]
    src_t, dst_t = source.type, target.type
    if not isinstance(src_t, MemRefType) or not isinstance(dst_t, MemRefType):
        return False
    if DYNAMIC_INDEX in src_t.get_shape() or DYNAMIC_INDEX in dst_t.get_shape():
        return False
    if not is_valid_element_type(src_t.get_element_type()):
        return False
    rank = len(src_t.get_shape())
    zero = _index(rw, 0, op)
    read_t = vec(list(src_t.get_shape()), src_t.get_element_type())
    identity = AffineMapAttr(AffineMap.identity(rank))
    from xdsl.dialects.ub import PoisonOp

    padding = rw.create(PoisonOp(src_t.get_element_type()), op).results[0]
    read = rw.create(
        vector.TransferReadOp(source, [zero] * rank, padding, read_t, bool_array([False] * rank), identity),
        op,
    ).results[0]
    if rank == 0:
        scalar = rw.create(vector.ExtractOp(read, []), op).results[0]
        read = rw.create(vector.BroadcastOp(scalar, vec([], dst_t.get_element_type())), op).results[0]
    rw.create(
        vector.TransferWriteOp(read, target, [zero] * rank, bool_array([False] * rank), None, identity),
        op,
    )
    rw.erase(op)
    return True


__all__ = [
    "decompose_pad",
    "insert_slice_vectorization",
    "mixed_sizes",
    "pad_into_insert_slice",
    "pad_into_transfer_read",
    "pad_into_transfer_write",
    "pad_patterns",
    "pad_value",
    "static_pad_value",
    "vectorize_copy",
    "vectorize_insert_slice",
    "vectorize_pad",
]
