"""`vector.multi_reduction` lowering in three composable stages (upstream
LowerVectorMultiReduction.cpp after the removal of `lower_multi_reduction`):

- `reorder_multi_reduction_dims`: transpose so the reduced dims are innermost
  (`innerreduction`) or outermost (`innerparallel`);
- `multi_reduction_flattening`: shape_cast n-D reductions in that form to 2-D (1-D when
  everything is reduced);
- `multi_reduction_unrolling`: 1-D to `vector.reduction`; 2-D [parallel, reduction] to one
  `vector.reduction` per row (`innerreduction`), 2-D [reduction, parallel] to a chain of
  elementwise combines (`innerparallel`).

Before (all three stages, innerreduction):

    %r = vector.multi_reduction <add>, %v, %acc [1] : vector<2x4xf32> to vector<2xf32>

After:

    %z = arith.constant dense<0.000000e+00> : vector<2xf32>
    %0 = vector.extract %v[0] : vector<4xf32> from vector<2x4xf32>
    %1 = vector.extract %acc[0] : f32 from vector<2xf32>
    %2 = vector.reduction <add>, %0, %1 : vector<4xf32> into f32
    %3 = vector.insert %2, %z [0] : f32 into vector<2xf32>
    ... (row 1)
"""

from __future__ import annotations

from itertools import product
from math import prod
from typing import cast

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, SSAValue

from schedir.dialects import vector
from schedir.dialects.vector.attributes import scalable_dims, vec
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    arith_reduction,
    extract,
    insert,
    mask_operation,
    masking_op,
    shape_cast,
    transpose,
    zero,
)


def _new_reduction(
    rw: CanonRewriter,
    op: vector.MultiDimReductionOp,
    source: SSAValue,
    acc: SSAValue,
    mask: list[bool],
    vector_mask: SSAValue | None = None,
) -> SSAValue:
    """A multi_reduction of `source` over the dims set in `mask`, in a `vector.mask` of
    `vector_mask` when there is one."""
    dims = [i for i, m in enumerate(mask) if m]
    new = rw.create(vector.MultiDimReductionOp(op.kind, source, acc, dims), op)
    return mask_operation(rw, new, vector_mask).results[0]


def _root(op: Operation, rw: CanonRewriter) -> tuple[Operation, SSAValue | None]:
    """The op a maskable lowering replaces (the `vector.mask` around `op`, or `op`) and
    the mask; new ops go before it (upstream's maskable-pattern setup)."""
    mask_op = masking_op(op)
    if mask_op is None:
        return op, None
    rw.set_insertion_point(mask_op)
    return mask_op, mask_op.mask


def _reorder(strategy: str):
    inner_reduction = strategy == "innerreduction"

    def reorder(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `InnerOuterDimReductionConversion`."""
        assert isinstance(op, vector.MultiDimReductionOp)
        mask = op.reduction_mask()
        rank = len(mask)
        parallel = [i for i, m in enumerate(mask) if not m]
        reduction = [i for i, m in enumerate(mask) if m]
        if not parallel:
            return False
        if inner_reduction and parallel == list(range(len(parallel))):
            return False
        if not inner_reduction and parallel == list(range(rank - len(parallel), rank)):
            return False
        perm = parallel + reduction if inner_reduction else reduction + parallel
        root, vector_mask = _root(op, rw)
        if vector_mask is not None:
            vector_mask = transpose(rw, vector_mask, perm, op)
        transposed = transpose(rw, op.source, perm, op)
        new_mask = [False] * rank
        for i in range(len(reduction)):
            new_mask[rank - i - 1 if inner_reduction else i] = True
        new = _new_reduction(rw, op, transposed, op.acc, new_mask, vector_mask)
        rw.replace_values(root, [new])
        return True

    return reorder


def _flatten(strategy: str):
    inner_reduction = strategy == "innerreduction"

    def flatten(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `ReduceMultiDimReductionRank`."""
        assert isinstance(op, vector.MultiDimReductionOp)
        src_t = cast(VectorType, op.source.type)
        shape = src_t.get_shape()
        mask = op.reduction_mask()
        rank = len(mask)
        if rank < 2 or (rank == 2 and mask[0] != mask[-1]):
            return False
        parallel = [i for i, m in enumerate(mask) if not m]
        par_shape = [shape[i] for i in parallel]
        red_shape = [shape[i] for i, m in enumerate(mask) if m]
        if inner_reduction and parallel != list(range(len(parallel))):
            return False
        first = rank - len(parallel)
        if not inner_reduction and parallel != list(range(first, rank)):
            return False
        new_mask: list[bool] = []
        new_shape: list[int] = []
        if par_shape:
            new_mask.append(False)
            new_shape.append(prod(par_shape))
        if red_shape:
            new_mask.append(True)
            new_shape.append(prod(red_shape))
        if not inner_reduction and len(new_shape) == 2:
            new_mask.reverse()
            new_shape.reverse()
        elem = src_t.get_element_type()
        root, vector_mask = _root(op, rw)
        if vector_mask is not None:
            mask_elem = cast(VectorType, vector_mask.type).get_element_type()
            vector_mask = shape_cast(rw, vector_mask, vec(new_shape, mask_elem), op)
        source = shape_cast(rw, op.source, vec(new_shape, elem), op)
        acc = op.acc
        if par_shape:
            acc = shape_cast(rw, acc, vec([prod(par_shape)], elem), op)
        reduced = _new_reduction(rw, op, source, acc, new_mask, vector_mask)
        if not par_shape:
            rw.replace_values(root, [reduced])
            return True
        rw.replace_values(root, [shape_cast(rw, reduced, vec(par_shape, elem), op)])
        return True

    return flatten


def one_dim_to_reduction(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `OneDimMultiReductionToReduction` (maskable)."""
    assert isinstance(op, vector.MultiDimReductionOp)
    if cast(VectorType, op.source.type).get_num_dims() != 1 or not op.reduction_mask()[0]:
        return False
    mask_op = masking_op(op)
    root: Operation = mask_op if mask_op is not None else op
    rw.set_insertion_point(root)
    red = rw.create(vector.ReductionOp(op.source, op.kind, op.acc), op)
    result = mask_operation(rw, red, mask_op.mask if mask_op is not None else None)
    rw.replace_values(root, list(result.results))
    return True


def two_dim_to_reduction(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TwoDimMultiReductionToReduction`: one `vector.reduction` per row."""
    assert isinstance(op, vector.MultiDimReductionOp)
    mask = op.reduction_mask()
    if len(mask) != 2 or mask[0] or not mask[1]:
        return False
    root, vector_mask = _root(op, rw)
    result = zero(rw, op.dest.type, op)
    for i in range(cast(VectorType, op.source.type).get_shape()[0]):
        row = extract(rw, op.source, [i], op)
        acc = extract(rw, op.acc, [i], op)
        reduction = rw.create(vector.ReductionOp(row, op.kind, acc), op)
        if vector_mask is not None:
            row_mask = extract(rw, vector_mask, [i], op)
            reduction = mask_operation(rw, reduction, row_mask)
        result = insert(rw, reduction.results[0], result, [i], op)
    rw.replace_values(root, [result])
    return True


def two_dim_to_elementwise(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TwoDimMultiReductionToElementWise`: combine the rows one by one."""
    assert isinstance(op, vector.MultiDimReductionOp)
    mask = op.reduction_mask()
    if len(mask) != 2 or mask[1] or not mask[0]:
        return False
    root, vector_mask = _root(op, rw)
    result = op.acc
    for i in range(cast(VectorType, op.source.type).get_shape()[0]):
        row = extract(rw, op.source, [i], op)
        row_mask = extract(rw, vector_mask, [i], op) if vector_mask is not None else None
        result = arith_reduction(rw, op.kind, row, result, op, mask=row_mask)
    rw.replace_values(root, [result])
    return True


def unrolled_in_place(op: Operation, rw: CanonRewriter) -> bool:
    """schedir's unrolling of a multi_reduction whose reduced dims are all outermost or
    all innermost (after `reorder_patterns`), without `_flatten`'s shape_casts of the
    parallel dims: reduced dims outermost, the n-D parallel slices are combined
    elementwise into the accumulator; innermost, each parallel position gets one
    `vector.reduction` of its (1-D cast) reduced slice. Nothing else reduces.

    Upstream flattens the parallel dims first (vector<6x4xi32> to vector<24xi32>) and
    cuts the result back into rows with shuffles; LLVM 22's x86 backend merges the
    stores of two adjacent 128-bit rows cut at the middle of such a vector (lanes 12..19
    of a <24 x i32>) into one 256-bit store of the wrong lanes (8..15), so the default
    lowering (`schedir.lowering.lower_vector`) keeps the parallel dims as they are.

    A reduction of every dim of an n-D vector (n > 1) combines the rows elementwise into
    one row, then reduces that row with one `vector.reduction`: flattening first (what
    upstream does) makes one vector of every element, assembled from the rows by one
    full-width shuffle pair per row, quadratic in the size (a 5x11x16x4 reduction: 880
    rows, 1,760 shuffles of 3,520 lanes, minutes of compile). A masked one still goes
    through `_flatten`.
    """
    assert isinstance(op, vector.MultiDimReductionOp)
    mask = op.reduction_mask()
    n_red = sum(mask)
    rank = len(mask)
    if n_red == rank and rank > 1 and masking_op(op) is None:
        return _rows_then_reduction(op, rw)
    if n_red in (0, rank):
        return False
    outer = all(mask[:n_red])
    if not outer and not all(mask[rank - n_red :]):
        return False
    shape = cast(VectorType, op.source.type).get_shape()
    root, vector_mask = _root(op, rw)
    if outer:
        result = op.acc
        for pos in product(*(range(n) for n in shape[:n_red])):
            slice_mask = extract(rw, vector_mask, pos, op) if vector_mask is not None else None
            slice_ = extract(rw, op.source, pos, op)
            result = arith_reduction(rw, op.kind, slice_, result, op, mask=slice_mask)
        rw.replace_values(root, [result])
        return True
    red_shape = shape[rank - n_red :]
    elem = cast(VectorType, op.source.type).get_element_type()
    result = zero(rw, op.dest.type, op)
    for pos in product(*(range(n) for n in shape[: rank - n_red])):
        row = extract(rw, op.source, pos, op)
        if n_red > 1:
            row = shape_cast(rw, row, vec([prod(red_shape)], elem), op)
        reduction = rw.create(vector.ReductionOp(row, op.kind, extract(rw, op.acc, pos, op)), op)
        if vector_mask is not None:
            row_mask = extract(rw, vector_mask, pos, op)
            if n_red > 1:
                mask_elem = cast(VectorType, row_mask.type).get_element_type()
                row_mask = shape_cast(rw, row_mask, vec([prod(red_shape)], mask_elem), op)
            reduction = mask_operation(rw, reduction, row_mask)
        result = insert(rw, reduction.results[0], result, pos, op)
    rw.replace_values(root, [result])
    return True


def _rows_then_reduction(op: vector.MultiDimReductionOp, rw: CanonRewriter) -> bool:
    """A full reduction of an n-D vector: its rows combined elementwise (a balanced
    tree), then one `vector.reduction` of the result into the accumulator."""
    source_type = cast(VectorType, op.source.type)
    if any(scalable_dims(source_type)):
        return False
    shape = source_type.get_shape()
    rows = [
        extract(rw, op.source, list(pos), op) for pos in product(*(range(n) for n in shape[:-1]))
    ]
    while len(rows) > 1:
        paired = [
            arith_reduction(rw, op.kind, rows[i], rows[i + 1], op)
            for i in range(0, len(rows) - 1, 2)
        ]
        rows = paired + rows[len(rows) - len(rows) % 2 :]
    reduction = rw.create(vector.ReductionOp(rows[0], op.kind, op.acc), op)
    rw.replace_values(op, [reduction.results[0]])
    return True


def full_flattening(op: Operation, rw: CanonRewriter) -> bool:
    """`_flatten` of a multi_reduction of every dim (to one 1-D `vector.reduction`)."""
    assert isinstance(op, vector.MultiDimReductionOp)
    if not all(op.reduction_mask()):
        return False
    return _flatten("innerreduction")(op, rw)


def reorder_patterns(strategy: str) -> PatternSet:
    return PatternSet().add(vector.MultiDimReductionOp, _reorder(strategy))


def flattening_patterns(strategy: str) -> PatternSet:
    return PatternSet().add(vector.MultiDimReductionOp, _flatten(strategy))


def unrolling_patterns(strategy: str) -> PatternSet:
    two_dim = two_dim_to_reduction if strategy == "innerreduction" else two_dim_to_elementwise
    return PatternSet().add(vector.MultiDimReductionOp, one_dim_to_reduction, two_dim)


def in_place_patterns() -> PatternSet:
    """The default lowering's multi-reduction unrolling (`unrolled_in_place`, a full
    reduction flattened, 1-D to `vector.reduction`); run with `reorder_patterns`."""
    return PatternSet().add(
        vector.MultiDimReductionOp, unrolled_in_place, full_flattening, one_dim_to_reduction
    )


__all__ = [
    "flattening_patterns",
    "full_flattening",
    "in_place_patterns",
    "one_dim_to_reduction",
    "reorder_patterns",
    "two_dim_to_elementwise",
    "two_dim_to_reduction",
    "unrolled_in_place",
    "unrolling_patterns",
]
