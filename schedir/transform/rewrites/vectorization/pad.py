"""tensor.pad vectorization patterns for `vectorize_children_and_apply_patterns`'s
`vectorize_padding` (upstream's `populatePadOpVectorizationPatterns` and
`populateDecomposePadPatterns`), and `memref.copy` vectorization (`vectorizeCopy`).

A pad with zero low padding and a constant pad value is folded into its users: an
in-bounds read of the pad reads the pad's source, padded with the pad value; a write into
the pad trimmed back to the source size writes into the source; inserting a whole static
pad reads its source padded and writes in bounds. Any other pad is decomposed into
`tensor.empty` + `linalg.fill` (or `tensor.generate`) + `tensor.insert_slice` of the
source, which vectorize in turn. schedir's transform.structured.pad types its pads
dynamically and casts them to the static shape; the users are found through that cast.

    %p = tensor.pad %s low[0, 0] high[%h, 0] { tensor.yield %cst } : tensor<?x12xf32> to tensor<8x12xf32>
    %r = vector.transfer_read %p[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<8x12xf32>, vector<8x12xf32>
  =>
    %r = vector.transfer_read %s[%c0, %c0], %cst : tensor<?x12xf32>, vector<8x12xf32>
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    MemRefType,
    TensorType,
    VectorType,
)
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap

from schedir.dialects import linalg, memref, vector
from schedir.dialects.affine import MinOp
from schedir.dialects.tensor import ExtractSliceOp, GenerateOp, InsertSliceOp
from schedir.dialects.utils import Mixed
from schedir.dialects.vector.attributes import bool_array, vec
from schedir.transform.rewrites.canonicalize.tensor import build_insert_slice, slice_params
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vectorization.state import is_valid_element_type
from schedir.transform.rewrites.vectorization.tensor import (
    mixed_sizes,
    pad_high,
    pad_low,
    pad_value,
    transfer_write,
)


def _index(rw: CanonRewriter, value: int, loc: Operation) -> SSAValue:
    return rw.constant_index(value, loc)


def _value(rw: CanonRewriter, entry: Mixed, loc: Operation) -> SSAValue:
    return entry if isinstance(entry, SSAValue) else _index(rw, entry, loc)


def _owner(value: SSAValue) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


# --- patterns on tensor.pad users (vectorize_padding) --------------------------------------------


def _zero_low(op: xtensor.PadOp) -> bool:
    return all(constant_int(v) == 0 for v in pad_low(op))


def _pad_result_uses(op: xtensor.PadOp) -> list[tuple[Operation, SSAValue]]:
    """The users of a pad's result, and the value they use: the result itself, or a
    `tensor.cast` of it to a static type (how schedir's transform.structured.pad keeps
    xDSL's tensor.pad verifier happy)."""
    uses: list[tuple[Operation, SSAValue]] = []
    for use in list(op.results[0].uses):
        user = use.operation
        if isinstance(user, xtensor.CastOp):
            uses.extend((inner.operation, user.results[0]) for inner in list(user.results[0].uses))
        else:
            uses.append((user, op.results[0]))
    return uses


def pad_into_transfer_read(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `PadOpVectorizationWithTransferReadPattern`: an in-bounds, unmasked
    read of the pad reads its source, padded with the pad value."""
    assert isinstance(op, xtensor.PadOp)
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
        if not all(bool(b.value.data) for b in read.in_bounds.data):
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
    if isinstance(owner, xtensor.CastOp) and _same_tensor_size(owner.source, after):
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
    if not isinstance(owner, ExtractSliceOp):
        return False
    before_sizes = slice_params(owner)[1]
    after_sizes = slice_params(after)[1]
    for i, size in enumerate(s1):
        if size != DYNAMIC_INDEX:
            continue
        x, y = before_sizes[i], after_sizes[i]
        if x is y or (constant_int(x) is not None and constant_int(x) == constant_int(y)):
            continue
        vx, vy = (
            _owner(x) if isinstance(x, SSAValue) else None,
            _owner(y) if isinstance(y, SSAValue) else None,
        )
        if (
            isinstance(vx, MinOp)
            and isinstance(vy, MinOp)
            and vx.map == vy.map
            and list(vx.operands) == list(vy.operands)
        ):
            continue
        return False
    return True


def pad_into_transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `PadOpVectorizationWithTransferWritePattern`: a write into the pad whose
    result is trimmed back to the source size writes into the source (out of bounds
    parts are dropped)."""
    assert isinstance(op, xtensor.PadOp)
    if not _zero_low(op) or pad_value(op) is None:
        return False
    changed = False
    for write, value in _pad_result_uses(op):
        if not isinstance(write, vector.TransferWriteOp) or write.source is not value:
            continue
        if cast(VectorType, write.vector.type).get_num_dims() == 0:
            continue
        uses = list(write.results[0].uses)
        trim = uses[0].operation if len(uses) == 1 else None
        if not isinstance(trim, ExtractSliceOp):
            continue
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
    assert isinstance(op, xtensor.PadOp)
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
        if (
            not isinstance(insert, InsertSliceOp)
            or insert.source is not value
            or insert.dest is value
        ):
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
        written = transfer_write(
            rw, insert, read.result, insert.operands[1], indices, [True] * len(pad_shape), None
        )
        rw.replace_values(insert, [written])
        changed = True
    return changed


def decompose_pad(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `DecomposePadOpPattern`: `tensor.empty` + `linalg.fill` (or
    `tensor.generate`) + `tensor.insert_slice` of the source at the low pads."""
    assert isinstance(op, xtensor.PadOp)
    result_type = cast(TensorType, op.results[0].type)
    low, high = pad_low(op), pad_high(op)
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
    strides: list[Mixed] = [1] * len(sizes)
    params = (low, sizes, strides)
    insert = build_insert_slice(source, filled, params)
    rw.replace_with_op(op, insert)
    return True


def pad_patterns() -> PatternSet:
    """Upstream's `populatePadOpVectorizationPatterns` and `populateDecomposePadPatterns`
    (the user patterns first: they have the higher benefit)."""
    return PatternSet().add(
        xtensor.PadOp,
        pad_into_transfer_read,
        pad_into_transfer_write,
        pad_into_insert_slice,
        decompose_pad,
    )


# --- memref.copy ---------------------------------------------------------------------------------


def vectorize_copy(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CopyVectorizationPattern` (`vectorizeCopy`): a static `memref.copy`
    becomes a whole read and a whole write."""
    assert isinstance(op, memref.CopyOp)
    source, target = op.source, op.destination
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
    padding = rw.create(PoisonOp(src_t.get_element_type()), op).results[0]
    read = rw.create(
        vector.TransferReadOp(
            source, [zero] * rank, padding, read_t, bool_array([False] * rank), identity
        ),
        op,
    ).results[0]
    if rank == 0:
        scalar = rw.create(vector.ExtractOp(read, []), op).results[0]
        read = rw.create(vector.BroadcastOp(scalar, vec([], dst_t.get_element_type())), op).results[
            0
        ]
    rw.create(
        vector.TransferWriteOp(
            read, target, [zero] * rank, bool_array([False] * rank), None, identity
        ),
        op,
    )
    rw.erase(op)
    return True


__all__ = [
    "decompose_pad",
    "pad_into_insert_slice",
    "pad_into_transfer_read",
    "pad_into_transfer_write",
    "pad_patterns",
    "vectorize_copy",
]
