"""linalg folders and canonicalization patterns (upstream LinalgOps.cpp), by upstream's
groups: the linalg and tensor dialects' patterns on linalg ops, and the linalg ops' own
(`driver` assembles them into `canonicalization` and `linalg.tiling_canonicalization`).

* Dead linalg ops on tensors (unused results) are erased by the driver (they have no
  memory effects); ops on a buffer with a zero-sized dimension are erased
  (EraseDeadLinalgOp).
* Information-erasing `tensor.cast`s feeding a linalg op are folded into it, its results
  cast back (FoldTensorCastProducerOp); `memref.cast`s are folded in place (the linalg
  folder's `foldMemRefCast`).
* Fills: `tensor.extract` of a fill is the fill value, `linalg.copy` of a fill is a fill
  of the copy's destination, a transpose of a fill is a fill of the transpose's init, a
  collapse/expand_shape of a fill is a fill of the reshaped init, and a pad of a fill with
  the fill's value is a fill of an empty tensor of the padded size.
* `linalg.copy` of a value into itself disappears (EraseSelfCopy); a `linalg.generic` or
  `linalg.broadcast` that only forwards an operand (all maps equal, a lone yield of a block
  argument) is replaced by it, cast to the result type where that is more static
  (EraseIdentityLinalgOp).
* Transposes: an identity (or rank-0) transpose on tensors folds to its input, a transpose
  of a transpose is one transpose of the composed permutation (FoldTransposeWithTranspose),
  and a transpose of a single-use broadcast becomes a broadcast of a transposed input
  (SwapTransposeWithBroadcast); a broadcast of a broadcast is one broadcast (FoldBroadcasts).
  Fused tiles of transpose chains so lose their dynamic-size ops as upstream's do.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, MemRefType, TensorType
from xdsl.dialects.tensor import CastOp, DimOp, EmptyOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from schedir.dialects import linalg
from schedir.dialects.linalg import FillOp, Linalg
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
)
from schedir.dialects.utils import mixed_values
from schedir.transform.rewrites.canonicalize.affine import composed_folded_apply
from schedir.transform.rewrites.canonicalize.memref import fold_cast_operands
from schedir.transform.rewrites.canonicalize.tensor import (
    can_fold_into_consumer,
    fold_dim,
    preserves_static_information,
)
from schedir.transform.rewrites.constants import constant_attr, constant_int
from schedir.transform.rewrites.greedy import Folder, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter


def _structured(op: Operation) -> bool:
    return is_structured(op)


def _inputs_inits(op: Operation) -> tuple[tuple[SSAValue, ...], tuple[SSAValue, ...]]:
    return dps_inputs(op), dps_inits(op)


def _fold_linalg(op: Operation) -> bool | None:
    """The linalg folder: `foldMemRefCast` on buffer operands."""
    if not _structured(op):
        return None
    before = list(op.operands)
    if not fold_cast_operands(op):
        return None
    try:
        op.verify()
    except VerifyException:
        # Named ops that compare operand shapes (transpose, broadcast, ...) may not take
        # a static operand next to a dynamic one whose cast has not been folded (yet):
        # the casts stay until both sides are static.
        op.operands = before
        return None
    return True


_LINALG_OPS: tuple[type[Operation], ...] = tuple(
    cls for cls in Linalg.operations if cls not in (linalg.YieldOp, linalg.IndexOp)
)
"""Every linalg op but the body terminator and linalg.index."""


def _fold_transpose(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    """Upstream's TransposeOp::fold: an identity permutation on tensors is its input; else
    the linalg folder."""
    assert isinstance(op, linalg.TransposeOp)
    source = op.inputs[0]
    perm = op.permutation.get_values()
    if (
        isinstance(source.type, TensorType)
        and list(perm) == list(range(len(perm)))
        and op.results
        and op.results[0].type == source.type
    ):
        return [source]
    return _fold_linalg(op)


FOLDERS: dict[type[Operation], Folder] = dict.fromkeys(_LINALG_OPS, _fold_linalg) | {
    linalg.TransposeOp: _fold_transpose
}


# --- patterns ---------------------------------------------------------------------------------


def erase_dead_linalg_op(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's EraseDeadLinalgOp: a buffer operand with a zero-sized dimension."""
    if not _structured(op):
        return False
    for value in op.operands:
        if isinstance(value.type, MemRefType) and 0 in value.type.get_shape():
            rw.erase(op)
            return True
    return False


def fold_tensor_cast_producer(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldTensorCastProducerOp: use the more static source of casts."""
    if not _structured(op) or not op.results:
        return False
    operands = list(op.operands)
    changed = False
    for i, value in enumerate(operands):
        cast = value.owner
        if isinstance(cast, Operation) and can_fold_into_consumer(cast):
            operands[i] = cast.operands[0]
            changed = True
    if not changed:
        return False
    inputs, _ = _inputs_inits(op)
    # Results take the types of their (possibly more static) inits.
    # Destination-style: inputs then inits; results take their inits' types.
    result_types: list[Attribute] = [v.type for v in operands[len(inputs) :]][: len(op.results)]
    new = _rebuild(op, operands, result_types)
    rw.create(new, op)
    rw.set_insertion_point(InsertPoint.after(new))
    results: list[SSAValue] = []
    for old, value in zip(op.results, new.results, strict=True):
        if value.type != old.type:
            value = rw.create(CastOp(value, old.type), op).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
        results.append(value)
    rw.replace_values(op, results)
    return True


def fold_tensor_cast_consumer(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldTensorCastConsumerOp: a cast making a linalg result more static is
    folded into the op (its init is cast instead; a cast back serves other users)."""
    source = op.operands[0]
    linalg_op = source.owner
    result_type = op.results[0].type
    if (
        not isinstance(linalg_op, Operation)
        or not _structured(linalg_op)
        or not isinstance(source, OpResult)
    ):
        return False
    if not preserves_static_information(source.type, result_type) or source.type == result_type:
        return False
    if op.parent_block() is not linalg_op.parent_block():
        return False
    inputs, inits = _inputs_inits(linalg_op)
    index = source.index
    rw.set_insertion_point(linalg_op)
    new_init = rw.create(CastOp(inits[index], result_type), linalg_op).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
    operands = [*inputs, *inits]
    operands[len(inputs) + index] = new_init
    result_types = [r.type for r in linalg_op.results]
    result_types[index] = result_type
    new = _rebuild(linalg_op, operands, result_types)
    rw.create(new, linalg_op)
    back = rw.create(CastOp(new.results[index], source.type), linalg_op).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
    results = list(new.results)
    results[index] = back
    rw.replace_values(linalg_op, results)
    rw.replace_values(op, [new.results[index]])
    return True


def infer_static_shape_of_operands(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's InferStaticShapeOfOperands: sizes known static on one operand (or the
    static source of a `tensor.cast` feeding it) are given to the others through casts."""
    if not _structured(op) or not op.results:
        return False
    # Pure tensor semantics only; and only a dynamic size can be made static, so a fully
    # static op (the common case) stops here, before its maps are read.
    dynamic = False
    for value in op.operands:
        type_ = value.type
        if isinstance(type_, MemRefType):
            return False
        if not dynamic and isinstance(type_, TensorType):
            dynamic = DYNAMIC_INDEX in type_.get_shape()
    if not dynamic:
        return False
    maps = indexing_maps(op)
    if any(not m.is_projected_permutation() for m in maps):
        return False
    inputs, inits = _inputs_inits(op)
    operands = [*inputs, *inits]
    sizes: dict[int, int] = {}
    for value, map_ in zip(operands, maps, strict=True):
        if not isinstance(value.type, TensorType):
            continue
        shape = list(value.type.get_shape())
        static_shape = shape
        cast = value.owner
        if isinstance(cast, CastOp):
            source_type = cast.operands[0].type
            if isinstance(source_type, TensorType) and DYNAMIC_INDEX not in source_type.get_shape():
                static_shape = list(source_type.get_shape())
        for i, expr in enumerate(map_.results):
            if shape[i] == DYNAMIC_INDEX:
                continue
            if isinstance(expr, AffineDimExpr):
                sizes.setdefault(expr.position, static_shape[i])
    new_operands: list[SSAValue] = []
    result_types: list[Attribute] = []
    changed = False
    rw.set_insertion_point(op)
    for position, (value, map_) in enumerate(zip(operands, maps, strict=True)):
        is_init = position >= len(inputs)
        if not isinstance(value.type, TensorType):
            new_operands.append(value)
            continue
        type_ = value.type
        shape = list(type_.get_shape())
        if DYNAMIC_INDEX not in shape and is_init:
            new_operands.append(value)
            result_types.append(type_)
            continue
        new_shape: list[int] = []
        needed = False
        for size, expr in zip(shape, map_.results, strict=True):
            if size == DYNAMIC_INDEX and isinstance(expr, AffineDimExpr) and expr.position in sizes:
                new_shape.append(sizes[expr.position])
                needed = True
            else:
                new_shape.append(size)
        new_type = TensorType(type_.get_element_type(), new_shape)
        if needed:
            changed = True
            value = rw.create(CastOp(value, new_type), op).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
        new_operands.append(value)
        if is_init:
            result_types.append(new_type)
    if not changed:
        return False
    new = _rebuild(op, new_operands, result_types[: len(op.results)])
    rw.create(new, op)
    results: list[SSAValue] = []
    for old, value in zip(op.results, new.results, strict=True):
        if value.type != old.type:
            value = rw.create(CastOp(value, old.type), op).results[0]  # type: ignore[arg-type]  # tensor.cast takes ranked tensor types; these values are ranked tensors
        results.append(value)
    rw.replace_values(op, results)
    return True


def _rebuild(op: Operation, operands: list[SSAValue], result_types: list[Attribute]) -> Operation:
    """A copy of `op` with new operands and result types; its regions move over."""
    regions = [Rewriter.move_region_contents_to_new_regions(r) for r in op.regions]
    return type(op).create(
        operands=operands,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=regions,
    )


def _fill_value(value: SSAValue) -> SSAValue | None:
    """The scalar a `linalg.fill` result holds."""
    owner = value.owner
    if isinstance(owner, FillOp) and isinstance(value, OpResult):
        return owner.operands[0]
    return None


def extract_of_fill(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldFillWithTensorExtract."""
    scalar = _fill_value(op.operands[0])
    if scalar is None or scalar.type != op.results[0].type:
        return False
    rw.replace_values(op, [scalar])
    return True


def _new_fill(rw: CanonRewriter, scalar: SSAValue, init: SSAValue, loc: Operation) -> Operation:
    fill = FillOp([scalar], [init])
    return rw.create(fill, loc)


def copy_of_fill(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldFillWithCopy: copy(fill(v)) -> fill(v) into the copy's init; a copy
    into a filled init does not need the fill."""
    if len(op.operands) != 2:
        return False
    source, init = op.operands
    scalar = _fill_value(source)
    if scalar is not None and op.results:
        new = _new_fill(rw, scalar, init, op)
        rw.replace_values(op, list(new.results))
        return True
    fill = init.owner
    if _fill_value(init) is not None and isinstance(fill, Operation) and op.results:
        op.operands = [source, fill.operands[1]]
        rw.modified(op)
        return True
    return False


def transpose_of_fill(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldFillWithTranspose."""
    if not op.results:
        return False
    scalar = _fill_value(op.operands[0])
    if scalar is None:
        return False
    new = _new_fill(rw, scalar, op.operands[1], op)
    rw.replace_values(op, list(new.results))
    return True


def reshape_of_fill(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's FoldFillWithTensorReshape: reshape(fill(v, init)) becomes
    fill(v, reshape(init)) (the reshape of the init at the fill's location)."""
    scalar = _fill_value(op.operands[0])
    if scalar is None:
        return False
    fill = op.operands[0].owner
    assert isinstance(fill, Operation)
    new_init = op.clone()
    new_init.operands = [fill.operands[1], *op.operands[1:]]
    rw.create(new_init, fill)
    new = _new_fill(rw, scalar, new_init.results[0], op)
    rw.replace_values(op, list(new.results))
    return True


def _constant_padding_value(pad: Operation) -> SSAValue | None:
    """Upstream's `PadOp::getConstantPaddingValue`: the yielded value when it is a
    constant or defined outside the pad's body."""
    block = pad.regions[0].blocks.first
    if block is None or not isinstance(block.last_op, tensor.YieldOp):
        return None
    value = block.last_op.operands[0]
    if constant_attr(value) is not None:
        return value
    owner = value.owner
    defining_block = owner.parent_block() if isinstance(owner, Operation) else owner
    return None if defining_block is block else value


def _pad_result_sizes(rw: CanonRewriter, pad: tensor.PadOp) -> list[int | SSAValue]:
    """Upstream's `PadOp::reifyResultShapes`: static sizes, or low + high + dim(source)."""

    result_type = pad.results[0].type
    assert isinstance(result_type, TensorType)
    source = pad.operands[0]
    lows = mixed_values(pad.static_low, pad.low)
    highs = mixed_values(pad.static_high, pad.high)
    add3 = AffineMap(
        3, 0, (AffineExpr.dimension(0) + AffineExpr.dimension(1) + AffineExpr.dimension(2),)
    )
    sizes: list[int | SSAValue] = []
    for i, size in enumerate(result_type.get_shape()):
        if size != DYNAMIC_INDEX:
            sizes.append(size)
            continue
        index = rw.constant_index(i, pad)
        dim = rw.create(DimOp(source, index), pad)
        folded = fold_dim(dim)
        dim_value: SSAValue = dim.results[0]
        if isinstance(folded, list):
            rw.erase(dim)
            value = folded[0]
            if not isinstance(value, SSAValue):
                assert isinstance(value, IntegerAttr)  # tensor.dim folds to an index
                value = rw.constant_index(value.value.data, pad)
            dim_value = value
        operands = [dim_value, rw.mixed_value(lows[i], pad), rw.mixed_value(highs[i], pad)]
        sizes.append(composed_folded_apply(rw, add3, operands, pad))
    return sizes


def _static_size(size: int | SSAValue) -> int:
    known = constant_int(size)
    return known if known is not None else DYNAMIC_INDEX


def pad_of_fill(op: tensor.PadOp, rw: CanonRewriter) -> bool:
    """Upstream's FoldFillWithPad: padding a fill with its own value is a fill of an
    empty tensor of the padded size."""
    scalar = _fill_value(op.operands[0])
    if scalar is None or _constant_padding_value(op) is not scalar:
        return False
    fill = op.operands[0].owner
    assert isinstance(fill, Operation)
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    sizes = _pad_result_sizes(rw, op)
    shape = [_static_size(s) for s in sizes]
    dynamic = [s for s, d in zip(sizes, shape, strict=True) if d == DYNAMIC_INDEX]
    empty_type = TensorType(result_type.get_element_type(), shape)
    empty = rw.create(EmptyOp(dynamic, empty_type), op)  # type: ignore[arg-type]  # the result type is a ranked tensor type
    new = _new_fill(rw, scalar, empty.results[0], fill)
    result = new.results[0]
    if result.type != result_type:
        result = rw.create(CastOp(result, result_type), fill).results[0]
    rw.replace_values(op, [result])
    return True


def erase_self_copy(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's EraseSelfCopy for linalg.copy."""
    if len(op.operands) != 2 or op.operands[0] is not op.operands[1]:
        return False
    if op.results:
        rw.replace_values(op, [op.operands[0]])
    else:
        rw.erase(op)
    return True


def _cast_compatible(source: Attribute, target: Attribute) -> bool:
    """`tensor.cast`'s areCastCompatible on ranked tensors: same element type and rank,
    sizes equal where both are static."""
    if not isinstance(source, TensorType) or not isinstance(target, TensorType):
        return False
    a, b = source.get_shape(), target.get_shape()
    return (
        source.get_element_type() == target.get_element_type()
        and len(a) == len(b)
        and all(x == y or DYNAMIC_INDEX in (x, y) for x, y in zip(a, b, strict=True))
    )


def erase_identity_linalg_op(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's EraseIdentityLinalgOp (generic, broadcast): all indexing maps equal and
    a body that yields block arguments; on tensors each result is replaced by the operand
    its yield forwards (cast to the result type when they differ), on buffers an op
    copying a buffer into itself is erased."""
    if not _structured(op):
        return False
    # The body (a lone yield) is the cheapest test, so it goes first.
    block = op.regions[0].block
    yielded = block.last_op
    if yielded is None or block.first_op is not yielded:
        return False
    maps = indexing_maps(op)
    if any(m != maps[0] for m in maps):
        return False
    inputs, inits = _inputs_inits(op)
    if all(isinstance(v.type, MemRefType) for v in op.operands):
        if len(inputs) != 1 or len(inits) != 1 or inputs[0] is not inits[0]:
            return False
        if not yielded.operands or not _own_argument(yielded.operands[0], block):
            return False
        rw.erase(op)
        return True
    if not all(isinstance(v.type, TensorType) for v in op.operands):
        return False  # mixed semantics, as upstream
    operands = [*inputs, *inits]
    replacements: list[SSAValue] = []
    rw.set_insertion_point(op)
    for value, result in zip(yielded.operands, op.results, strict=True):
        if not _own_argument(value, block):
            return False
        assert isinstance(value, BlockArgument)
        source = operands[value.index]
        if source.type != result.type:
            if not _cast_compatible(source.type, result.type):
                return False
            source = rw.create(CastOp(source, result.type), op).results[0]  # type: ignore[arg-type]  # both are ranked tensor types (checked above)
        replacements.append(source)
    if len(replacements) != len(op.results):
        return False
    rw.replace_values(op, replacements)
    return True


def _own_argument(value: SSAValue, block: Block) -> bool:
    return isinstance(value, BlockArgument) and value.block is block


def transpose_of_transpose(op: linalg.TransposeOp, rw: CanonRewriter) -> bool:
    """Upstream's FoldTransposeWithTranspose: one transpose of the composed permutation
    from the first transpose's input into the second's init."""
    producer = op.inputs[0].owner
    if not isinstance(producer, linalg.TransposeOp):
        return False
    inner = producer.permutation.get_values()
    folded = [inner[p] for p in op.permutation.get_values()]
    new = rw.create(linalg.TransposeOp(producer.inputs[0], op.outputs[0], folded), op)
    rw.replace_values(op, list(new.results))
    return True


def transpose_of_broadcast(op: linalg.TransposeOp, rw: CanonRewriter) -> bool:
    """Upstream's SwapTransposeWithBroadcast: transpose(broadcast(x)) becomes
    broadcast(transpose(x)) when the broadcast has no other use."""
    value = op.inputs[0]
    broadcast = value.owner
    if not isinstance(broadcast, linalg.BroadcastOp) or not value.has_one_use():
        return False
    source = broadcast.inputs[0]
    source_type = source.type
    if not isinstance(source_type, TensorType):
        return False
    added = list(broadcast.dimensions.get_values())
    perm = list(op.permutation.get_values())
    # The permutation without the added dims, renumbered over the input's dims.
    kept = [p - sum(1 for d in added if d < p) for p in perm if p not in added]
    inverse = [0] * len(perm)
    for position, p in enumerate(perm):
        inverse[p] = position
    new_dims = [inverse[d] for d in added]
    rw.set_insertion_point(op)
    shape = list(source_type.get_shape())
    sizes: list[SSAValue] = []
    for i in kept:
        if shape[i] == DYNAMIC_INDEX:
            sizes.append(rw.create(DimOp(source, rw.constant_index(i, op)), op).results[0])
    empty_type = TensorType(source_type.get_element_type(), [shape[i] for i in kept])
    empty = rw.create(EmptyOp(sizes, empty_type), op)  # type: ignore[arg-type]  # the result type is a ranked tensor type
    transposed = rw.create(linalg.TransposeOp(source, empty.results[0], kept), op)
    new = rw.create(linalg.BroadcastOp(transposed.results[0], op.outputs[0], new_dims), op)
    rw.replace_values(op, list(new.results))
    return True


def broadcast_of_broadcast(op: linalg.BroadcastOp, rw: CanonRewriter) -> bool:
    """Upstream's FoldBroadcasts: one broadcast adding both ops' dims."""
    producer = op.inputs[0].owner
    if not isinstance(producer, linalg.BroadcastOp):
        return False
    added = list(op.dimensions.get_values())
    init_type = op.outputs[0].type
    assert isinstance(init_type, TensorType | MemRefType)
    rank = len(init_type.get_shape())
    kept = [d for d in range(rank) if d not in added]
    folded = sorted([*added, *(kept[d] for d in producer.dimensions.get_values())])
    new = rw.create(linalg.BroadcastOp(producer.inputs[0], op.outputs[0], folded), op)
    rw.replace_values(op, list(new.results))
    return True


def _all_structured(
    pattern_set: PatternSet, *patterns: Callable[[Operation, CanonRewriter], bool]
) -> PatternSet:
    for root in _LINALG_OPS:
        pattern_set.add(root, *patterns)
    return pattern_set


def dialect_patterns() -> PatternSet:
    """The linalg dialect's patterns (EraseDeadLinalgOp, FoldTensorCastConsumerOp,
    InferStaticShapeOfOperands)."""
    result = PatternSet().add(CastOp, fold_tensor_cast_consumer)
    return _all_structured(result, erase_dead_linalg_op, infer_static_shape_of_operands)


def tensor_dialect_patterns() -> PatternSet:
    """The tensor dialect's FoldTensorCastProducerOp (on destination-style linalg ops)."""
    return _all_structured(PatternSet(), fold_tensor_cast_producer)


def op_patterns() -> PatternSet:
    """The linalg ops' own canonicalization patterns (broadcast, copy, fill, generic,
    transpose)."""
    return (
        PatternSet()
        .add(linalg.CopyOp, erase_self_copy, copy_of_fill)
        .add(tensor.ExtractOp, extract_of_fill)
        .add(tensor.PadOp, pad_of_fill)
        .add(tensor.CollapseShapeOp, reshape_of_fill)
        .add(tensor.ExpandShapeOp, reshape_of_fill)
        .add(linalg.BroadcastOp, erase_identity_linalg_op, broadcast_of_broadcast)
        .add(linalg.TransposeOp, transpose_of_fill, transpose_of_transpose, transpose_of_broadcast)
        .add(linalg.GenericOp, erase_identity_linalg_op)
    )


def patterns() -> PatternSet:
    """Upstream's order: dialect patterns (linalg, then tensor, by namespace), then the
    op patterns (by op name)."""
    return dialect_patterns().update(tensor_dialect_patterns()).update(op_patterns())


__all__ = ["FOLDERS", "dialect_patterns", "op_patterns", "patterns", "tensor_dialect_patterns"]
