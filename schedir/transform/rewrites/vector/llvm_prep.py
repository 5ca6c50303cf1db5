"""The vector-to-vector rewrites `convert-vector-to-llvm` runs before converting (upstream's
ConvertVectorToLLVMPass first greedy step, besides the descriptor sets schedir already has):

- `populateVectorBitCastLoweringPatterns` (target rank 1): an n-D `vector.bitcast` becomes
  1-D bitcasts of its rows;
- `populateVectorInterleaveLoweringPatterns`: n-D `vector.interleave` / `deinterleave`
  become 1-D ones on rows;
- `populateVectorInsertExtractStridedSliceTransforms`: 1-D strided slices become
  `vector.shuffle`s, n-D ones extracts / inserts of rows of lower rank;
- `populateVectorStepLoweringPatterns`: `vector.step` becomes a constant;
- `populateVectorRankReducingFMAPattern`: an n-D `vector.fma` becomes 1-D ones on rows;
- `populateVectorMaskMaterializationPatterns` (its transfer part): a 1-D minor-identity
  transfer that may run out of bounds gets the mask `create_mask(dim - offset)` (and its
  own mask) and becomes in bounds, so that `lower_transfer` makes it a masked load/store.

Before (1-D extract_strided_slice):

    %s = vector.extract_strided_slice %v offsets = [2], sizes = [4], strides = [1]
           : vector<8xf32> to vector<4xf32>

After:

    %s = vector.shuffle %v, %v [2, 3, 4, 5] : vector<8xf32>, vector<8xf32>
"""

from __future__ import annotations

from itertools import product
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
    i1,
)
from xdsl.dialects.memref import DimOp
from xdsl.ir import Operation

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    bool_array,
    in_bounds_values,
    int_values,
    is_minor_identity,
    scalable_dims,
    vec,
)
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    constant,
    extract,
    index,
    insert,
    poison,
    shuffle,
    zero,
)


def _rows(t: VectorType) -> list[tuple[int, ...]]:
    """Every position of the leading dims of `t` (all but the last), in order."""
    return list(product(*(range(d) for d in t.get_shape()[:-1])))


# --- unrolling by rows ----------------------------------------------------------------------


def unroll_bitcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `BitCastRewritePattern` (target rank 1)."""
    assert isinstance(op, vector.BitCastOp)
    src = cast(VectorType, op.source.type)
    dst = cast(VectorType, op.result.type)
    if src.get_num_dims() <= 1 or any(scalable_dims(src)):
        return False
    row_type = vec(dst.get_shape()[-1:], dst.get_element_type())
    result = poison(rw, dst, op)
    for pos in _rows(src):
        row = extract(rw, op.source, list(pos), op)
        cast_row = rw.create(vector.BitCastOp(row, row_type), op).results[0]
        result = insert(rw, cast_row, result, list(pos), op)
    rw.replace_values(op, [result])
    return True


def unroll_interleave(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `UnrollInterleaveOp`: n-D interleave -> interleaves of the rows."""
    assert isinstance(op, vector.InterleaveOp)
    t = cast(VectorType, op.result.type)
    if t.get_num_dims() <= 1 or any(scalable_dims(t)):
        return False
    result = zero(rw, t, op)  # upstream starts from zeros here (poison for bitcasts)
    for pos in _rows(t):
        a = extract(rw, op.lhs, list(pos), op)
        b = extract(rw, op.rhs, list(pos), op)
        row = rw.create(vector.InterleaveOp(a, b), op).results[0]
        result = insert(rw, row, result, list(pos), op)
    rw.replace_values(op, [result])
    return True


def unroll_deinterleave(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `UnrollDeinterleaveOp`."""
    assert isinstance(op, vector.DeinterleaveOp)
    t = cast(VectorType, op.res1.type)
    if t.get_num_dims() <= 1 or any(scalable_dims(t)):
        return False
    even = odd = zero(rw, t, op)
    for pos in _rows(t):
        row = extract(rw, op.source, list(pos), op)
        parts = rw.create(vector.DeinterleaveOp(row), op).results
        even = insert(rw, parts[0], even, list(pos), op)
        odd = insert(rw, parts[1], odd, list(pos), op)
    rw.replace_values(op, [even, odd])
    return True


def unroll_fma(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `VectorFMAOpNDRewritePattern`: rank-reduce an n-D fma by its first dim."""
    assert isinstance(op, vector.FMAOp)
    t = cast(VectorType, op.res.type)
    if t.get_num_dims() <= 1 or scalable_dims(t)[0]:
        return False
    result = poison(rw, t, op)
    for i in range(t.get_shape()[0]):
        a, b, c = (extract(rw, v, [i], op) for v in (op.lhs, op.rhs, op.acc))
        row = rw.create(vector.FMAOp(a, b, c), op).results[0]
        result = insert(rw, row, result, [i], op)
    rw.replace_values(op, [result])
    return True


# --- strided slices --------------------------------------------------------------------------------


def extract_strided_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `Convert1DExtractStridedSliceIntoShuffle` and
    `DecomposeNDExtractStridedSlice`."""
    assert isinstance(op, vector.ExtractStridedSliceOp)
    src = cast(VectorType, op.vector.type)
    dst = cast(VectorType, op.result.type)
    offsets, sizes, strides = (int_values(a) for a in (op.offsets, op.sizes, op.strides))
    if any(scalable_dims(src)):
        return False
    if src.get_num_dims() == 1:
        mask = [offsets[0] + i * strides[0] for i in range(sizes[0])]
        rw.replace_values(op, [shuffle(rw, op.vector, op.vector, mask, op)])
        return True
    result = poison(rw, dst, op)
    for j in range(sizes[0]):
        row = extract(rw, op.vector, [offsets[0] + j * strides[0]], op)
        if len(offsets) > 1:
            row = rw.create(
                vector.ExtractStridedSliceOp(row, offsets[1:], sizes[1:], strides[1:]), op
            ).results[0]
        result = insert(rw, row, result, [j], op)
    rw.replace_values(op, [result])
    return True


_WIDE = 64
"""Dest widths above which a 1-D insert_strided_slice of a quarter or less of the lanes
inserts lane by lane instead of shuffling the whole dest."""


def insert_strided_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `DecomposeDifferentRankInsertStridedSlice`,
    `ConvertSameRankInsertStridedSliceIntoShuffle` (1-D) and its n-D row loop."""
    assert isinstance(op, vector.InsertStridedSliceOp)
    src = cast(VectorType, op.source.type)
    dst = cast(VectorType, op.dest.type)
    offsets, strides = int_values(op.offsets), int_values(op.strides)
    if any(scalable_dims(src)) or any(scalable_dims(dst)):
        return False
    diff = dst.get_num_dims() - src.get_num_dims()
    if diff > 0:
        # Work on the (src-rank) sub-vector of dest that the source lands in.
        position = offsets[:diff]
        sub = extract(rw, op.dest, position, op)
        new = rw.create(vector.InsertStridedSliceOp(op.source, sub, offsets[diff:], strides), op)
        rw.replace_values(op, [insert(rw, new.results[0], op.dest, position, op)])
        return True
    if src == dst and all(o == 0 for o in offsets):
        rw.replace_values(op, [op.source])
        return True
    offset, stride = offsets[0], strides[0]
    n_src, n_dst = src.get_shape()[0], dst.get_shape()[0]
    if src.get_num_dims() == 1 and n_dst > _WIDE and n_src * 4 <= n_dst:
        # A few lanes into a wide vector: one insert per lane. The shuffle pair below
        # costs two masks of the dest's width per slice, quadratic when a wide vector is
        # assembled from its rows (a shape_cast of a 5x11x16x4 vector to 3,520 lanes:
        # 1,760 masks of 3,520 lanes).
        result = op.dest
        for i in range(n_src):
            lane = extract(rw, op.source, [i], op)
            result = insert(rw, lane, result, [offset + i * stride], op)
        rw.replace_values(op, [result])
        return True
    if src.get_num_dims() == 1:
        # Widen the source to the dest length, then pick lanes from it or from dest.
        widened = shuffle(rw, op.source, op.source, [*range(n_src), *[0] * (n_dst - n_src)], op)
        end = offset + n_src * stride
        mask = [
            (i - offset) // stride
            if offset <= i < end and (i - offset) % stride == 0
            else n_dst + i
            for i in range(n_dst)
        ]
        rw.replace_values(op, [shuffle(rw, widened, op.dest, mask, op)])
        return True
    result = op.dest
    for i in range(n_src):
        row = extract(rw, op.source, [i], op)
        target = offset + i * stride
        dest_row = extract(rw, op.dest, [target], op)
        new = rw.create(
            vector.InsertStridedSliceOp(row, dest_row, offsets[1:], strides[1:]), op
        ).results[0]
        result = insert(rw, new, result, [target], op)
    rw.replace_values(op, [result])
    return True


# --- step and masks --------------------------------------------------------------------------------


def lower_step(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `StepToArithConstantOpRewrite`."""
    assert isinstance(op, vector.StepOp)
    t = cast(VectorType[IndexType], op.result.type)
    if any(scalable_dims(t)):
        return False
    attr = DenseIntOrFPElementsAttr.from_list(t, list(range(t.get_shape()[0])))
    rw.replace_values(op, [constant(rw, attr, t, op)])
    return True


def _out_of_bounds(op: Operation) -> bool:
    perm = cast(AffineMapAttr, op.properties["permutation_map"]).data
    return not all(in_bounds_values(op.properties.get("in_bounds"), len(perm.results)))


def materialize_transfer_mask(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `MaterializeTransferMask`: a 1-D transfer that may run out of bounds
    reads/writes under `create_mask(dim - offset)` (anded with its mask) and becomes in
    bounds."""
    assert isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
    if not _out_of_bounds(op) or isinstance(op.parent_op(), vector.MaskOp):
        return False
    source = op.source
    vtype = cast(
        VectorType, op.result.type if isinstance(op, vector.TransferReadOp) else op.vector.type
    )
    perm = cast(AffineMapAttr, op.permutation_map).data
    if vtype.get_num_dims() > 1 or not op.indices or not is_minor_identity(perm):
        return False
    if not isinstance(source.type, MemRefType):
        return False
    last = len(op.indices) - 1
    size = source.type.get_shape()[last]
    if size >= 0:
        dim = index(rw, size, op)
    else:
        dim = rw.create(DimOp(source, index(rw, last, op)), op).results[0]
    bound = rw.create(arith.SubiOp(dim, op.indices[last]), op).results[0]
    mask_type = vec(vtype.get_shape(), i1, scalable_dims(vtype))
    mask = rw.create(vector.CreateMaskOp([bound], mask_type), op).results[0]
    if op.mask is not None:
        mask = rw.create(arith.AndIOp(mask, op.mask), op).results[0]
    segments = cast(DenseArrayBase[IntegerType], op.properties["operandSegmentSizes"])
    sizes = [int(v) for v in segments.get_values()]
    operands = list(op.operands)
    if sizes[-1]:
        operands[-1] = mask
    else:
        operands.append(mask)
        sizes[-1] = 1
    op.operands = operands
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(segments.elt_type, sizes)
    op.properties["in_bounds"] = bool_array([True])
    rw.modified(op)
    return True


def interleave_to_shuffle(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `InterleaveToShuffle` (1-D): lanes alternate between the operands."""
    assert isinstance(op, vector.InterleaveOp)
    t = cast(VectorType, op.lhs.type)
    if t.get_num_dims() != 1 or any(scalable_dims(t)):
        return False
    n = t.get_shape()[0]
    mask = [lane for i in range(n) for lane in (i, n + i)]
    rw.replace_values(op, [shuffle(rw, op.lhs, op.rhs, mask, op)])
    return True


def deinterleave_to_shuffle(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `DeinterleaveToShuffle` (1-D): even lanes, then odd lanes."""
    assert isinstance(op, vector.DeinterleaveOp)
    t = cast(VectorType, op.source.type)
    if t.get_num_dims() != 1 or any(scalable_dims(t)):
        return False
    half = t.get_shape()[0] // 2
    even = shuffle(rw, op.source, op.source, [2 * i for i in range(half)], op)
    odd = shuffle(rw, op.source, op.source, [2 * i + 1 for i in range(half)], op)
    rw.replace_values(op, [even, odd])
    return True


def lower_bitcast_patterns() -> PatternSet:
    """`transform.apply_patterns.vector.lower_bitcast`."""
    return PatternSet().add(vector.BitCastOp, unroll_bitcast)


def lower_interleave_patterns() -> PatternSet:
    """`transform.apply_patterns.vector.lower_interleave`."""
    return (
        PatternSet()
        .add(vector.InterleaveOp, unroll_interleave)
        .add(vector.DeinterleaveOp, unroll_deinterleave)
    )


def interleave_to_shuffle_patterns() -> PatternSet:
    """`transform.apply_patterns.vector.interleave_and_deinterleave_to_shuffle`."""
    return (
        PatternSet()
        .add(vector.InterleaveOp, interleave_to_shuffle)
        .add(vector.DeinterleaveOp, deinterleave_to_shuffle)
    )


def prep_patterns() -> PatternSet:
    """The rewrites above, for `convert-vector-to-llvm`'s first step."""
    return (
        PatternSet()
        .add(vector.BitCastOp, unroll_bitcast)
        .add(vector.InterleaveOp, unroll_interleave)
        .add(vector.DeinterleaveOp, unroll_deinterleave)
        .add(vector.FMAOp, unroll_fma)
        .add(vector.ExtractStridedSliceOp, extract_strided_slice)
        .add(vector.InsertStridedSliceOp, insert_strided_slice)
        .add(vector.StepOp, lower_step)
        .add(vector.TransferReadOp, materialize_transfer_mask)
        .add(vector.TransferWriteOp, materialize_transfer_mask)
    )


__all__ = [
    "interleave_to_shuffle_patterns",
    "lower_bitcast_patterns",
    "lower_interleave_patterns",
    "prep_patterns",
]
