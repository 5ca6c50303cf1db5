"""Lowering of `vector.broadcast`, `vector.shape_cast` and `vector.transpose` to element
moves (upstream LowerVectorBroadcast.cpp, LowerVectorShapeCast.cpp,
LowerVectorTranspose.cpp).

- `lower_broadcast`: a vector-to-vector broadcast becomes inserts of lower-rank
  broadcasts, down to broadcasts of scalars (what the LLVM conversion takes);
- `lower_shape_cast`: extracts / strided slices / inserts over the common suffix of the two
  shapes, in units of gcd-sized "atomic" slices;
- `lower_transpose`: 2-D transposes of a unit dim become shape_casts; `eltwise` extracts
  and inserts each element (or row, when trailing dims are not transposed); `shuffle_1d`
  / `shuffle_16x16` turn 2-D transposes into one `vector.shuffle` (or the AVX-512 unpack
  sequence for 16x16) between shape_casts.

Before (lower_broadcast):

    %b = vector.broadcast %v : vector<3xf32> to vector<2x3xf32>

After:

    %p = ub.poison : vector<2x3xf32>
    %0 = vector.insert %v, %p [0] : vector<3xf32> into vector<2x3xf32>
    %b = vector.insert %v, %0 [1] : vector<3xf32> into vector<2x3xf32>
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from math import gcd, log2, prod
from typing import cast

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue

from schedir.dialects import vector
from schedir.dialects.vector.attributes import scalable_dims, vec
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    broadcast,
    extract,
    insert,
    poison,
    shape_cast,
    shuffle,
    zero,
)

# --- broadcast ---------------------------------------------------------------------------------


def lower_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `BroadcastOpLowering`."""
    assert isinstance(op, vector.BroadcastOp)
    dst = cast(VectorType, op.vector.type)
    src = op.source.type
    if not isinstance(src, VectorType):
        return False  # a scalar broadcast is the lowered form
    src_rank, dst_rank = src.get_num_dims(), dst.get_num_dims()
    if src_rank <= 1 and dst_rank == 1:
        ext = extract(rw, op.source, [0] * src_rank, op)
        rw.replace_values(op, [broadcast(rw, ext, dst, op)])
        return True
    elem = dst.get_element_type()
    if src_rank < dst_rank:
        sub = vec(dst.get_shape()[1:], elem, scalable_dims(dst)[1:])
        bcst = broadcast(rw, op.source, sub, op)
        result = poison(rw, dst, op)
        for d in range(dst.get_shape()[0]):
            result = insert(rw, bcst, result, [d], op)
        rw.replace_values(op, [result])
        return True
    mismatch = next((r for r in range(dst_rank) if src.get_shape()[r] != dst.get_shape()[r]), -1)
    if mismatch == -1:
        rw.replace_values(op, [op.source])
        return True
    sub = vec(dst.get_shape()[1:], elem, scalable_dims(dst)[1:])
    result = poison(rw, dst, op)
    if mismatch == 0:
        ext = extract(rw, op.source, [0], op)
        bcst = broadcast(rw, ext, sub, op)
        for d in range(dst.get_shape()[0]):
            result = insert(rw, bcst, result, [d], op)
    else:
        if scalable_dims(dst)[0]:
            return False
        for d in range(dst.get_shape()[0]):
            ext = extract(rw, op.source, [d], op)
            bcst = broadcast(rw, ext, sub, op)
            result = insert(rw, bcst, result, [d], op)
    rw.replace_values(op, [result])
    return True


def lower_broadcast_patterns() -> PatternSet:
    return PatternSet().add(vector.BroadcastOp, lower_broadcast)


# --- shape_cast --------------------------------------------------------------------------------


def _inplace_add(lhs: int, base: Sequence[int], rhs: list[int]) -> None:
    """Upstream's `inplaceAdd`: rhs += lhs in the mixed radix `base`."""
    for dim in reversed(range(len(rhs))):
        incremented = rhs[dim] + lhs
        lhs = incremented // base[dim]
        rhs[dim] = incremented % base[dim]
        if lhs == 0:
            break


def _concat(rw: CanonRewriter, parts: list[SSAValue], op: Operation) -> SSAValue:
    """The 1-D concatenation of the 1-D `parts`, by a balanced tree of `vector.shuffle`s."""
    while len(parts) > 1:
        joined: list[SSAValue] = []
        for a, b in zip(parts[0::2], parts[1::2], strict=False):
            na, nb = (cast(VectorType, v.type).get_shape()[0] for v in (a, b))
            # The LLVM conversion shuffles two operands of one type: widen the shorter one.
            if na < nb:
                a = shuffle(rw, a, a, [*range(na), *[0] * (nb - na)], op)
            elif nb < na:
                b = shuffle(rw, b, b, [*range(nb), *[0] * (na - nb)], op)
            n = max(na, nb)
            joined.append(shuffle(rw, a, b, [*range(na), *range(n, n + nb)], op))
        if len(parts) % 2:
            joined.append(parts[-1])
        parts = joined
    return parts[0]


def lower_shape_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ShapeCastOpRewritePattern`."""
    assert isinstance(op, vector.ShapeCastOp)
    src_t = cast(VectorType, op.source.type)
    res_t = cast(VectorType, op.result.type)
    if src_t.get_num_scalable_dims() or res_t.get_num_scalable_dims():
        return False
    src_shape, res_shape = list(src_t.get_shape()), list(res_t.get_shape())
    src_rank, res_rank = len(src_shape), len(res_shape)
    num_elements = prod(src_shape)
    source = op.source
    if res_rank == 1 and src_rank >= 2 and prod(src_shape[:-1]) > log2(num_elements) + 1:
        # Flattening many rows: concatenate them pairwise. Upstream inserts each row into the
        # whole result (one result-wide shuffle per row: quadratic, minutes for a few thousand
        # lanes in Python); the tree's masks add up to about n * log2(rows). Few rows keep
        # upstream's form (no more mask entries than the tree).
        rows = [extract(rw, source, list(i), op) for i in product(*map(range, src_shape[:-1]))]
        rw.replace_values(op, [_concat(rw, rows, op)])
        return True
    src_start, res_start = src_rank - 1, res_rank - 1
    while src_start >= 0 and res_start >= 0 and src_shape[src_start] == res_shape[res_start]:
        src_start -= 1
        res_start -= 1
    if src_start < 0 or res_start < 0:
        # Only leading unit dims differ: one extract / insert pair.
        delta = src_rank - res_rank
        result = poison(rw, res_t, op)
        extracted = extract(rw, source, [0] * max(delta, 0), op)
        rw.replace_values(op, [insert(rw, extracted, result, [0] * max(-delta, 0), op)])
        return True
    divisor = gcd(src_shape[src_start], res_shape[res_start])
    sliced_rank = src_rank - src_start
    extract_period = src_shape[src_start] // divisor
    insert_period = res_shape[res_start] // divisor
    atomic = [divisor, *src_shape[src_start + 1 :]]
    num_slices = num_elements // prod(atomic)
    if divisor == 1:
        src_start += 1
        res_start += 1
        extract_index = [0] * src_start
        insert_index = [0] * res_start
        result = poison(rw, res_t, op)
        for _ in range(num_slices):
            extracted = extract(rw, source, list(extract_index), op)
            result = insert(rw, extracted, result, list(insert_index), op)
            _inplace_add(1, src_shape[:src_start], extract_index)
            _inplace_add(1, res_shape[:res_start], insert_index)
        rw.replace_values(op, [result])
        return True
    strided_t = vec(res_shape[res_start:], res_t.get_element_type())
    extract_index = [0] * src_start
    insert_index = [0] * res_start
    extract_offsets = [0] * sliced_rank
    insert_offsets = [0] * sliced_rank
    sizes = [1] * sliced_rank
    result = poison(rw, res_t, op)
    part = poison(rw, strided_t, op)
    extracted: SSAValue = source
    inserted: SSAValue = part
    for i in range(num_slices):
        extract_phase = i % extract_period
        insert_phase = i % insert_period
        if extract_phase == 0:
            extracted = extract(rw, source, list(extract_index), op)
            _inplace_add(1, src_shape[:src_start], extract_index)
        extract_offsets[0] = extract_phase * divisor
        strided = rw.create(
            vector.ExtractStridedSliceOp(extracted, list(extract_offsets), atomic, sizes), op
        ).results[0]
        if insert_phase == 0:
            inserted = part
        insert_offsets[0] = insert_phase * divisor
        inserted = rw.create(
            vector.InsertStridedSliceOp(strided, inserted, list(insert_offsets), sizes), op
        ).results[0]
        if insert_phase + 1 == insert_period:
            result = insert(rw, inserted, result, list(insert_index), op)
            _inplace_add(1, res_shape[:res_start], insert_index)
    rw.replace_values(op, [result])
    return True


def lower_shape_cast_patterns() -> PatternSet:
    return PatternSet().add(vector.ShapeCastOp, lower_shape_cast)


# --- transpose ---------------------------------------------------------------------------------


def transpose_2d_unit_dim_to_shape_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `Transpose2DWithUnitDimToShapeCast`."""
    assert isinstance(op, vector.TransposeOp)
    res = cast(VectorType, op.result.type)
    scal = scalable_dims(res)
    if res.get_num_dims() != 2:
        return False
    shape = res.get_shape()
    if not ((shape[0] == 1 and not scal[0]) or (shape[1] == 1 and not scal[1])):
        return False
    rw.replace_values(op, [shape_cast(rw, op.vector, res, op)])
    return True


def transpose_2d_slice(op: vector.TransposeOp) -> tuple[int, int] | None:
    """Upstream's `isTranspose2DSlice`: the two non-unit source dims when the transpose
    swaps them and nothing else."""
    shape = cast(VectorType, op.vector.type).get_shape()
    big = [i for i, s in enumerate(shape) if s > 1]
    if len(big) != 2:
        return None
    for p in op.perm():
        if p == big[0]:
            return None
        if p == big[1]:
            return big[0], big[1]
    return None


def _transpose_eltwise(strategy: str):
    def transpose_eltwise(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `TransposeOpLowering`: unrolled extracts / inserts, trailing
        non-transposed dims kept as vectors."""
        assert isinstance(op, vector.TransposeOp)
        src_t = cast(VectorType, op.vector.type)
        res_t = cast(VectorType, op.result.type)
        if src_t.get_num_scalable_dims():
            return False
        if strategy in ("shuffle_1d", "shuffle_16x16") and transpose_2d_slice(op) is not None:
            return False
        perm = op.perm()
        kept = len(perm)
        for p in reversed(perm):
            if p != kept - 1:
                break
            kept -= 1
        pruned = perm[:kept]
        shape = src_t.get_shape()[:kept]
        result = poison(rw, res_t, op)
        for linear in range(prod(shape)):
            index: list[int] = []
            rest = linear
            for size in reversed(shape):
                index.append(rest % size)
                rest //= size
            index.reverse()
            target = [index[p] for p in pruned]
            value = extract(rw, op.vector, index, op)
            result = insert(rw, value, result, target, op)
        rw.replace_values(op, [result])
        return True

    return transpose_eltwise


def _unpack(base: Sequence[int], bits: int) -> list[int]:
    """Upstream's `getUnpackShufflePermFor128Lane`."""
    return [v + i for i in range(0, bits // 32, 4) for v in base]


def _select128(
    rw: CanonRewriter, a: SSAValue, b: SSAValue, control: int, loc: Operation
) -> SSAValue:
    """Upstream's `create4x128BitSuffle`."""
    mask: list[int] = []
    for base, c in (
        (0, control & 3),
        (0, (control >> 2) & 3),
        (16, (control >> 4) & 3),
        (16, (control >> 6) & 3),
    ):
        mask += [base + 4 * c + j for j in range(4)]
    return shuffle(rw, a, b, mask, loc)


def _transpose_16x16(rw: CanonRewriter, source: SSAValue, loc: Operation) -> SSAValue:
    """Upstream's `transposeToShuffle16x16` (AVX-512 unpack / 128-bit lane sequence)."""
    vs = [extract(rw, source, [i], loc) for i in range(16)]
    lo_ps, hi_ps = _unpack([0, 16, 1, 17], 512), _unpack([2, 18, 3, 19], 512)
    lo_pd, hi_pd = _unpack([0, 1, 16, 17], 512), _unpack([2, 3, 18, 19], 512)
    t = []
    for i in range(0, 16, 2):
        t.append(shuffle(rw, vs[i], vs[i + 1], lo_ps, loc))
        t.append(shuffle(rw, vs[i], vs[i + 1], hi_ps, loc))
    r = []
    for base in (0, 4, 8, 12):
        a, b, c, d = t[base], t[base + 1], t[base + 2], t[base + 3]
        r += [
            shuffle(rw, a, c, lo_pd, loc),
            shuffle(rw, a, c, hi_pd, loc),
            shuffle(rw, b, d, lo_pd, loc),
            shuffle(rw, b, d, hi_pd, loc),
        ]
    t2 = []
    for half in (0, 8):
        for control in (0x88, 0xDD):
            for j in range(4):
                t2.append(_select128(rw, r[half + j], r[half + 4 + j], control, loc))
    out = []
    for control in (0x88, 0xDD):
        for j in range(8):
            out.append(_select128(rw, t2[j], t2[8 + j], control, loc))
    t_src = cast(VectorType, source.type)
    result = zero(rw, vec([16, 16], t_src.get_element_type()), loc)
    for i in range(16):
        result = insert(rw, out[i], result, [i], loc)
    return result


def _transpose_shuffle(strategy: str):
    def transpose_shuffle(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `TransposeOp2DToShuffleLowering`."""
        assert isinstance(op, vector.TransposeOp)
        if strategy not in ("shuffle_1d", "shuffle_16x16"):
            return False
        dims = transpose_2d_slice(op)
        if dims is None:
            return False
        src_t = cast(VectorType, op.vector.type)
        m, n = src_t.get_shape()[dims[0]], src_t.get_shape()[dims[1]]
        elem = src_t.get_element_type()
        flat = shape_cast(rw, op.vector, vec([m * n], elem), op)
        if strategy == "shuffle_16x16" and m == 16 and n == 16:
            res = _transpose_16x16(rw, shape_cast(rw, flat, vec([m, n], elem), op), op)
        else:
            mask = [i * n + j for j in range(n) for i in range(m)]
            res = shuffle(rw, flat, flat, mask, op)
        rw.replace_values(op, [shape_cast(rw, res, cast(VectorType, op.result.type), op)])
        return True

    return transpose_shuffle


def lower_transpose_patterns(strategy: str) -> PatternSet:
    """`lower_transpose lowering_strategy = strategy` (`llvmintr` lowers as `eltwise`:
    schedir has no flat-transpose intrinsic)."""
    return PatternSet().add(
        vector.TransposeOp,
        transpose_2d_unit_dim_to_shape_cast,
        _transpose_eltwise(strategy),
        _transpose_shuffle(strategy),
    )


__all__ = [
    "lower_broadcast",
    "lower_broadcast_patterns",
    "lower_shape_cast",
    "lower_shape_cast_patterns",
    "lower_transpose_patterns",
    "transpose_2d_slice",
]
