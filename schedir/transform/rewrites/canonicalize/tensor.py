"""tensor folders and canonicalization patterns (upstream TensorOps.cpp); the
`tensor.fold_tensor_subset_ops` set is in `tensor_subsets`.

Folders: identity casts and slices, `dim` of static shapes / `tensor.empty` / slices /
casts / destination-style results, `extract_slice(insert_slice)` and
`insert_slice(extract_slice)` of the same place, an insert over a previous insert of the
same place; the element ops' folders (`extract`, `insert`, `from_elements`, `reshape`)
are in `tensor_elements`.

Patterns: constant offsets/sizes/strides of the slice ops become static (the result type
gets static sizes and a `tensor.cast` restores the old type), casts are folded into slice
ops and `tensor.empty`, chained casts merge, constant dynamic sizes of `tensor.empty`
become static, zero padding folds away.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor as xtensor
from xdsl.dialects import vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from schedir.dialects.linalg.interface import dps_inits, is_structured
from schedir.dialects.tensor import (
    ExtractSliceOp,
    GenerateOp,
    InsertSliceOp,
    ParallelInsertSliceOp,
)
from schedir.dialects.utils import Mixed, split_mixed
from schedir.transform.rewrites.canonicalize import tensor_elements
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import Folder, PatternSet
from schedir.transform.rewrites.mixed import (
    fold_mixed_lists,
    in_bounds_slice,
    same_mixed,
    same_mixed_strict,
)
from schedir.transform.rewrites.rewriter import CanonRewriter

# --- slice helpers ----------------------------------------------------------------------------

SliceParams = tuple[list[Mixed], list[Mixed], list[Mixed]]


def slice_params(op: Operation) -> SliceParams:
    """Mixed offsets, sizes and strides of extract/insert/parallel_insert_slice."""
    return (list(op.mixed_offsets), list(op.mixed_sizes), list(op.mixed_strides))  # type: ignore[attr-defined]  # the op is one of schedir's slice ops, which define the mixed accessors


def same_slice(a: SliceParams, b: SliceParams, *, strict: bool = False) -> bool:
    """Equal offsets, sizes and strides (by constant value, or with `strict` as upstream's
    folders compare them: the same SSA value or the same static entry)."""
    same = same_mixed_strict if strict else same_mixed
    return all(
        len(x) == len(y) and all(same(p, q) for p, q in zip(x, y, strict=True))
        for x, y in zip(a, b, strict=True)
    )


def _static(values: Sequence[Mixed]) -> list[int]:
    return [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]


def is_identity_slice(params: SliceParams, shape: Sequence[int]) -> bool:
    """Offsets 0, strides 1, sizes equal to the (static or same-SSA) shape."""
    offsets, sizes, strides = params
    if any(constant_int(o) != 0 for o in offsets) or any(constant_int(s) != 1 for s in strides):
        return False
    return all(
        constant_int(s) == d and d != DYNAMIC_INDEX for s, d in zip(sizes, shape, strict=True)
    )


def build_extract_slice(
    source: SSAValue, params: SliceParams, result_type: Attribute
) -> ExtractSliceOp:
    offsets, sizes, strides = params
    so, do = split_mixed(offsets)
    ss, ds = split_mixed(sizes)
    st, dt = split_mixed(strides)
    return ExtractSliceOp.build(
        operands=[source, do, ds, dt],
        result_types=[result_type],
        properties={"static_offsets": so, "static_sizes": ss, "static_strides": st},
    )


def build_insert_slice(
    source: SSAValue,
    dest: SSAValue,
    params: SliceParams,
    cls: type[InsertSliceOp | ParallelInsertSliceOp] = InsertSliceOp,
) -> Operation:
    offsets, sizes, strides = params
    so, do = split_mixed(offsets)
    ss, ds = split_mixed(sizes)
    st, dt = split_mixed(strides)
    return cls.build(
        operands=[source, dest, do, ds, dt],
        result_types=[dest.type] if cls is InsertSliceOp else [],
        properties={"static_offsets": so, "static_sizes": ss, "static_strides": st},
    )


def dropped_dims(full: Sequence[Mixed], reduced_shape: Sequence[int]) -> list[int]:
    """Positions of the unit sizes in `full` that a rank-reducing slice to `reduced_shape`
    drops: upstream's `computeRankReductionMask` (a unit size is kept while it matches the
    next reduced dim, so `[1, 6, 1]` to `1x6` drops the last dim, not the first)."""
    mask = rank_reduction_mask(_static(full), reduced_shape, match_dynamic=True)
    assert mask is not None, f"{reduced_shape} is not a rank reduction of {list(full)}"
    return sorted(mask)


def slice_dropped_dims(op: Operation) -> list[int]:
    """The dims an extract_slice (from its result type) or an insert_slice (from its source
    type) drops."""
    sizes = slice_params(op)[1]
    reduced = op.results[0].type if isinstance(op, xtensor.ExtractSliceOp) else op.operands[0].type
    assert isinstance(reduced, TensorType)
    return dropped_dims(sizes, reduced.get_shape())


def reduced_slice_type(
    element_type: Attribute, sizes: Sequence[Mixed], dropped: Sequence[int]
) -> TensorType:
    """The slice type of `sizes` with the `dropped` dims removed (upstream's
    ExtractSliceReturnTypeCanonicalizer: a fold keeps the rank reduction of the original
    op instead of inferring a canonical one, which may drop a different unit dim)."""
    shape = _static(sizes)
    return TensorType(element_type, [d for i, d in enumerate(shape) if i not in dropped])


def preserves_static_information(source: Attribute, target: Attribute) -> bool:
    """Upstream's `preservesStaticInformation(source, target)`: `target` keeps every
    static size of `source`."""
    if not isinstance(source, TensorType) or not isinstance(target, TensorType):
        return False
    if source.get_element_type() != target.get_element_type():
        return False
    s, t = source.get_shape(), target.get_shape()
    if len(s) != len(t):
        return False
    return all(a in (DYNAMIC_INDEX, b) for a, b in zip(s, t, strict=True))


def can_fold_into_consumer(cast: Operation) -> bool:
    """A `tensor.cast` that only erases static information (its source is more static)."""
    return isinstance(cast, xtensor.CastOp) and preserves_static_information(
        cast.results[0].type, cast.operands[0].type
    )


# --- folders ----------------------------------------------------------------------------------


def fold_cast(op: Operation) -> list[Attribute | SSAValue] | None:
    """Only identity casts fold (chains are a pattern)."""
    source = op.operands[0]
    if source.type == op.results[0].type:
        return [source]
    return None


def fold_dim(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    source, index_value = op.operands
    index = constant_int(index_value)
    if index is None or not isinstance(source.type, TensorType):
        return None
    shape = source.type.get_shape()
    if not 0 <= index < len(shape):
        return None
    if shape[index] != DYNAMIC_INDEX:
        return [IntegerAttr(shape[index], IndexType())]
    owner = source.owner
    if not isinstance(owner, Operation) or not isinstance(source, OpResult):
        return None
    if isinstance(owner, GenerateOp):
        dynamic = [i for i, d in enumerate(shape) if d == DYNAMIC_INDEX]
        return [owner.operands[dynamic.index(index)]]
    if isinstance(owner, xtensor.ExtractSliceOp):
        if len(owner.results[0].type.get_shape()) == len(owner.operands[0].type.get_shape()):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
            size = owner.mixed_sizes[index]  # type: ignore[attr-defined]  # the op is one of schedir's slice ops, which define the mixed accessors
            if isinstance(size, SSAValue):
                return [size]
        return None
    # dim(cast(x)) -> dim(x), in place (upstream's foldTensorCast).
    if isinstance(owner, xtensor.CastOp):
        op.operands = [owner.operands[0], index_value]
        return True
    return None


def fold_extract_slice(op: Operation) -> list[Attribute | SSAValue] | None:
    source = op.operands[0]
    params = slice_params(op)
    if source.type == op.results[0].type and is_identity_slice(params, source.type.get_shape()):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return [source]
    inner = source.owner
    if (
        isinstance(inner, xtensor.InsertSliceOp)
        and inner.operands[0].type == op.results[0].type
        and same_slice(slice_params(inner), params, strict=True)
    ):
        return [inner.operands[0]]
    return None


def fold_insert_slice(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    source, dest = op.operands[0], op.operands[1]
    params = slice_params(op)
    if (
        source.type == dest.type
        and DYNAMIC_INDEX not in dest.type.get_shape()  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        and is_identity_slice(params, dest.type.get_shape())  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    ):
        return [source]
    # insert_slice(extract_slice(dest, same place), dest) -> dest
    inner = source.owner
    if (
        isinstance(inner, xtensor.ExtractSliceOp)
        and inner.operands[0] is dest
        and same_slice(slice_params(inner), params, strict=True)
    ):
        return [dest]
    if any(constant_int(s) == 0 for s in params[1]):
        return [dest]
    # insert_slice(x into insert_slice(y into d at P) at P) -> insert_slice(x into d at P)
    prev = dest.owner
    if (
        isinstance(prev, xtensor.InsertSliceOp)
        and prev.operands[0].type == source.type
        and same_slice(slice_params(prev), params, strict=True)
    ):
        operands = list(op.operands)
        operands[1] = prev.operands[1]
        op.operands = operands
        return True
    return None


FOLDERS: dict[type[Operation], Folder] = {
    xtensor.CastOp: fold_cast,
    xtensor.DimOp: fold_dim,
    xtensor.ExtractSliceOp: fold_extract_slice,
    xtensor.InsertSliceOp: fold_insert_slice,
    **tensor_elements.FOLDERS,
}


# --- patterns ---------------------------------------------------------------------------------


def _cast(rw: CanonRewriter, value: SSAValue, type_: Attribute, loc: Operation) -> SSAValue:
    if value.type == type_:
        return value
    return rw.create(xtensor.CastOp(value, type_), loc).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors


def extract_slice_constant_arguments(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's OpWithOffsetSizesAndStridesConstantArgumentFolder for extract_slice."""
    folded = fold_mixed_lists(*slice_params(op))
    if folded is None:
        return False
    offsets, sizes, strides = folded
    if not in_bounds_slice(op.operands[0].type.get_shape(), offsets, sizes, strides):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return False
    old_type = op.results[0].type
    source = op.operands[0]
    new_type = reduced_slice_type(
        source.type.get_element_type(),  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        sizes,
        slice_dropped_dims(op),
    )
    new = rw.create(build_extract_slice(source, (offsets, sizes, strides), new_type), op)
    rw.replace_values(op, [_cast(rw, new.results[0], old_type, op)])
    return True


def extract_slice_of_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ExtractSliceOpCastFolder: slice the cast's source, cast the result."""
    cast = op.operands[0].owner
    if not isinstance(cast, Operation) or not can_fold_into_consumer(cast):
        return False
    params = slice_params(op)
    old_type = op.results[0].type
    source = cast.operands[0]
    new_type = reduced_slice_type(
        source.type.get_element_type(),  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        params[1],
        slice_dropped_dims(op),
    )
    new = rw.create(build_extract_slice(source, params, new_type), op)
    rw.replace_values(op, [_cast(rw, new.results[0], old_type, op)])
    return True


def _insert_constant_arguments(op: Operation, rw: CanonRewriter) -> bool:
    folded = fold_mixed_lists(*slice_params(op))
    if folded is None:
        return False
    offsets, sizes, strides = folded
    source, dest = op.operands[0], op.operands[1]
    if not in_bounds_slice(dest.type.get_shape(), offsets, sizes, strides):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        return False
    source_type = reduced_slice_type(
        dest.type.get_element_type(),  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        sizes,
        slice_dropped_dims(op),
    )
    if isinstance(op, ParallelInsertSliceOp):
        # The cast goes before the in_parallel terminator, as upstream.
        parent = op.parent_op()
        assert parent is not None
        rw.set_insertion_point(parent)
    to_insert = _cast(rw, source, source_type, op)
    rw.set_insertion_point(op)
    cls = ParallelInsertSliceOp if isinstance(op, ParallelInsertSliceOp) else InsertSliceOp
    new = build_insert_slice(to_insert, dest, (offsets, sizes, strides), cls)
    new.location = op.location
    rw.replace(op, new, list(new.results))
    return True


def insert_slice_constant_arguments(op: Operation, rw: CanonRewriter) -> bool:
    return _insert_constant_arguments(op, rw)


def rank_reduction_mask(
    original: Sequence[int], reduced: Sequence[int], *, match_dynamic: bool = False
) -> set[int] | None:
    """Upstream's `computeRankReductionMask`: the unit dims of `original` that, dropped
    greedily, leave `reduced`; None if there are none (with `match_dynamic`, a dynamic
    size on either side matches any size but 1)."""
    dropped: set[int] = set()
    j = 0
    for i, size in enumerate(original):
        if match_dynamic and j < len(reduced) and size != 1 and DYNAMIC_INDEX in (size, reduced[j]):
            j += 1
            continue
        if j < len(reduced) and size == reduced[j]:
            j += 1
            continue
        dropped.add(i)
        if size != 1:
            return None
    return dropped if j == len(reduced) else None


def insert_slice_cast_folder(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's InsertSliceOpCastFolder: fold information-erasing casts of source and
    destination into the insert; dynamic sizes the cast's source knows become static."""
    if any(constant_int(v) is not None for v in op.operands):
        return False  # the constant-argument folder goes first, as upstream
    source, dest = op.operands[0], op.operands[1]
    src_cast = (
        source.owner
        if isinstance(source.owner, Operation) and can_fold_into_consumer(source.owner)
        else None
    )
    dst_cast = (
        dest.owner
        if isinstance(dest.owner, Operation) and can_fold_into_consumer(dest.owner)
        else None
    )
    if src_cast is None and dst_cast is None:
        return False
    new_source = src_cast.operands[0] if src_cast is not None else source
    new_dest = dst_cast.operands[0] if dst_cast is not None else dest
    src_type, dst_type = new_source.type, new_dest.type
    if not isinstance(src_type, TensorType) or not isinstance(dst_type, TensorType):
        return False
    offsets, sizes, strides = slice_params(op)
    static_sizes = _static(sizes)
    src_shape = src_type.get_shape()
    mask = rank_reduction_mask(static_sizes, src_shape, match_dynamic=True)
    if mask is None:
        return False
    # As upstream, the source dim only advances past static dims of the cast's source.
    new_sizes = list(sizes)
    reduced = 0
    for i in range(len(static_sizes)):
        if i not in mask and src_shape[reduced] != DYNAMIC_INDEX:
            new_sizes[i] = src_shape[reduced]
            static_sizes[i] = src_shape[reduced]
            reduced += 1
    # The new op must verify: the source type is the slice type or a rank reduction.
    if src_type.get_element_type() != dst_type.get_element_type():
        return False
    if rank_reduction_mask(static_sizes, src_shape) is None:
        return False
    cls = ParallelInsertSliceOp if isinstance(op, ParallelInsertSliceOp) else InsertSliceOp
    new = build_insert_slice(new_source, new_dest, (offsets, new_sizes, strides), cls)
    if cls is ParallelInsertSliceOp:
        new.location = op.location
        rw.replace(op, new, [])
        return True
    rw.create(new, op)
    rw.set_insertion_point(InsertPoint.after(new))
    rw.replace_values(op, [_cast(rw, new.results[0], op.results[0].type, op)])
    return True


def insert_slice_source_cast_inserter(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's InsertSliceOpSourceCastInserter: cast the source to the static sizes."""
    source = op.operands[0]
    src_type = source.type
    assert isinstance(src_type, TensorType)
    params = slice_params(op)
    inferred = reduced_slice_type(src_type.get_element_type(), params[1], slice_dropped_dims(op))
    if inferred == src_type or not preserves_static_information(src_type, inferred):
        return False
    if isinstance(op, ParallelInsertSliceOp):
        parent = op.parent_op()
        assert parent is not None
        rw.set_insertion_point(parent)
    cast = _cast(rw, source, inferred, op)
    operands = list(op.operands)
    operands[0] = cast
    op.operands = operands
    rw.modified(op)
    return True


def dim_of_dest_style(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's DimOfDestStyleOp: dim of a destination-style result is dim of its init
    (a structured op's, an insert's, a `vector.transfer_write`'s on a tensor)."""
    source = op.operands[0]
    owner = source.owner
    if not isinstance(owner, Operation) or not isinstance(source, OpResult):
        return False
    new_source: SSAValue | None = None
    if isinstance(owner, xtensor.InsertSliceOp | xtensor.InsertOp):
        new_source = owner.operands[1]
    elif is_structured(owner):
        new_source = dps_inits(owner)[source.index]
    elif isinstance(owner, vector.TransferWriteOp):
        new_source = owner.source
    if new_source is None:
        return False
    op.operands = [new_source, op.operands[1]]
    rw.modified(op)
    return True


def dim_of_empty(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldEmptyTensorWithDimOp: dim of tensor.empty is its size operand."""
    source = op.operands[0]
    owner = source.owner
    index = constant_int(op.operands[1])
    if not isinstance(owner, xtensor.EmptyOp) or index is None:
        return False
    shape = source.type.get_shape()  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    if not 0 <= index < len(shape) or shape[index] != DYNAMIC_INDEX:
        return False
    dynamic = [i for i, d in enumerate(shape) if d == DYNAMIC_INDEX]
    rw.replace_values(op, [owner.operands[dynamic.index(index)]])
    return True


def empty_static_shape(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ReplaceEmptyTensorStaticShapeDims."""
    type_ = op.results[0].type
    assert isinstance(type_, TensorType)
    shape = list(type_.get_shape())
    dynamic = list(op.operands)
    new_shape: list[int] = []
    new_dynamic: list[SSAValue] = []
    changed = False
    it = iter(dynamic)
    for size in shape:
        if size != DYNAMIC_INDEX:
            new_shape.append(size)
            continue
        value = next(it)
        c = constant_int(value)
        if c is not None and c >= 0:
            new_shape.append(c)
            changed = True
        else:
            new_shape.append(DYNAMIC_INDEX)
            new_dynamic.append(value)
    if not changed:
        return False
    new_type = TensorType(type_.get_element_type(), new_shape)
    new = rw.create(xtensor.EmptyOp(new_dynamic, new_type), op)
    rw.replace_values(op, [_cast(rw, new.results[0], type_, op)])
    return True


def cast_of_empty(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldEmptyTensorWithCastOp: cast(empty) -> empty of the cast type."""
    empty = op.operands[0].owner
    if not isinstance(empty, xtensor.EmptyOp):
        return False
    src_type, dst_type = op.operands[0].type, op.results[0].type
    if not isinstance(dst_type, TensorType) or not preserves_static_information(src_type, dst_type):
        return False
    dynamic: list[SSAValue] = []
    it = iter(empty.operands)
    for s, d in zip(src_type.get_shape(), dst_type.get_shape(), strict=True):  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
        value = next(it) if s == DYNAMIC_INDEX else None
        if d == DYNAMIC_INDEX:
            assert value is not None
            dynamic.append(value)
    rw.replace_with_op(op, xtensor.EmptyOp(dynamic, dst_type))
    return True


def chained_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ChainedTensorCast: cast(cast(x)) -> cast(x) when the middle type adds
    no static information."""
    inner = op.operands[0].owner
    if not isinstance(inner, xtensor.CastOp):
        return False
    source = inner.operands[0]
    a, b, c = source.type, inner.results[0].type, op.results[0].type
    if not all(isinstance(t, TensorType) for t in (a, b, c)):
        return False
    sa, sb, sc = a.get_shape(), b.get_shape(), c.get_shape()  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    if not len(sa) == len(sb) == len(sc):
        return False
    for x, y, z in zip(sa, sb, sc, strict=True):
        if y != DYNAMIC_INDEX and x == DYNAMIC_INDEX and z == DYNAMIC_INDEX:
            return False  # the middle cast asserts a size nobody else knows
    rw.replace_with_op(op, xtensor.CastOp(source, c))  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
    return True


def cast_of_extract_slice(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's TensorCastExtractSlice: a cast adding static sizes to an extract_slice
    becomes an extract_slice with those static sizes."""
    extract = op.operands[0].owner
    result_type = op.results[0].type
    source_type = op.operands[0].type
    if not isinstance(extract, xtensor.ExtractSliceOp):
        return False
    if not isinstance(result_type, TensorType) or not isinstance(source_type, TensorType):
        return False
    # canFoldIntoProducerOp: the cast only adds static information.
    if not preserves_static_information(source_type, result_type):
        return False
    if list(result_type.get_shape()) == list(source_type.get_shape()):
        return False
    offsets, sizes, strides = slice_params(extract)
    dropped = set(dropped_dims(sizes, source_type.get_shape()))
    result_shape = list(result_type.get_shape())
    index = 0
    for i in range(len(sizes)):
        if i in dropped:
            continue
        dim = result_shape[index]
        index += 1
        if dim != DYNAMIC_INDEX:
            sizes[i] = dim
    new = build_extract_slice(extract.operands[0], (offsets, sizes, strides), result_type)
    rw.replace_with_op(op, new)
    return True


def pad_zero_padding(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldStaticZeroPadding: a pad with zero low/high padding is a cast."""
    if "nofold" in op.properties or "nofold" in op.attributes:
        return False
    lows = op.properties.get("static_low")
    highs = op.properties.get("static_high")
    if lows is None or highs is None:
        return False
    if any(v != 0 for v in lows.get_values()) or any(v != 0 for v in highs.get_values()):  # type: ignore[attr-defined]  # the verified op holds that property with this attribute kind
        return False
    rw.replace_with_op(op, xtensor.CastOp(op.operands[0], op.results[0].type))  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
    return True


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add(xtensor.ExtractSliceOp, extract_slice_constant_arguments, extract_slice_of_cast)
        .add(
            xtensor.InsertSliceOp,
            insert_slice_constant_arguments,
            insert_slice_cast_folder,
            insert_slice_source_cast_inserter,
        )
        .add(
            ParallelInsertSliceOp,
            insert_slice_constant_arguments,
            insert_slice_cast_folder,
            insert_slice_source_cast_inserter,
        )
        .add(xtensor.CastOp, chained_cast, cast_of_extract_slice, cast_of_empty)
        .add(xtensor.DimOp, dim_of_dest_style, dim_of_empty)
        .add(xtensor.EmptyOp, empty_static_shape)
        .add(xtensor.PadOp, pad_zero_padding)
        .update(tensor_elements.patterns())
    )


def tiling_patterns() -> PatternSet:
    """The tensor part of `linalg.tiling_canonicalization` (cast, empty, extract_slice,
    insert_slice and pad patterns)."""
    all_patterns = patterns()
    result = PatternSet()
    for root in (
        xtensor.CastOp,
        xtensor.EmptyOp,
        xtensor.ExtractSliceOp,
        xtensor.InsertSliceOp,
        xtensor.PadOp,
    ):
        result.add(root, *all_patterns.patterns_of(root))
    # tensor.empty's FoldEmptyTensorWithDimOp has tensor.dim as its root.
    return result.add(xtensor.DimOp, dim_of_empty)


__all__ = [
    "FOLDERS",
    "build_extract_slice",
    "build_insert_slice",
    "dropped_dims",
    "is_identity_slice",
    "patterns",
    "preserves_static_information",
    "rank_reduction_mask",
    "reduced_slice_type",
    "same_slice",
    "slice_dropped_dims",
    "slice_params",
    "tiling_patterns",
]
