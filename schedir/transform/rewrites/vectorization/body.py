"""The body of a linalg op on vectors (upstream's `vectorizeOneOp` and its hooks).

Each scalar op of the body is replayed on the vectors its operands were mapped to:

* `linalg.yield`: each value is written into its init (`write_output`);
* `linalg.index %d`: a `vector.step` along loop d, broadcast and transposed into the
  canonical shape;
* `tensor.extract`: a broadcast read (loop-invariant indices) or a contiguous read (the
  trailing index follows the innermost loop); upstream's gather is not available;
* `arith.constant`: cloned as a scalar, broadcast at its users;
* a combiner whose other operand is an init block argument (a reduction) becomes a
  `vector.multi_reduction` over the reduction loops when the shapes differ;
* any other arith / math op: the same op on the operands broadcast to the first operand
  of highest rank.

`affine.apply` in the body is expanded into arith ops first (upstream's
`convertAffineApply`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects import arith as shaped_arith
from schedir.dialects import linalg, vector
from schedir.dialects.affine import ApplyOp
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
    static_loop_ranges,
)
from schedir.dialects.vector.attributes import bool_array, compress_unused_dims, make_kind, vec
from schedir.transform.rewrites.vector.utils import ELEMENTWISE_ARITH_MATH_OPS, ShapedOperand
from schedir.transform.rewrites.vectorization.state import (
    VectorizationFailure,
    VectorizationState,
)

_KINDS: dict[type[Operation], str] = {
    arith.AddiOp: "add",
    arith.AddfOp: "add",
    arith.AndIOp: "and",
    arith.MaxSIOp: "maxsi",
    arith.MaxUIOp: "maxui",
    arith.MaximumfOp: "maximumf",
    arith.MaxnumfOp: "maxnumf",
    arith.MinSIOp: "minsi",
    arith.MinUIOp: "minui",
    arith.MinimumfOp: "minimumf",
    arith.MinnumfOp: "minnumf",
    arith.MuliOp: "mul",
    arith.MulfOp: "mul",
    arith.OrIOp: "or",
    arith.XOrIOp: "xor",
}
"""Upstream's `getCombinerOpKind`, by op class."""


def combiner_kind(op: Operation) -> str | None:
    """The combining kind of the reduction `op` computes, if it is a combiner."""
    return _KINDS.get(type(op))


def match_reduction(
    out_args: Sequence[BlockArgument], position: int
) -> tuple[SSAValue, Operation] | None:
    """Upstream's `matchReduction`: (reduced value, the single combiner op) when the init
    argument at `position` flows through one binary op into the yield at `position`."""
    arg = out_args[position]
    uses = list(arg.uses)
    if len(uses) != 1:
        return None
    combiner = uses[0].operation
    if len(combiner.operands) != 2:
        return None
    reduced = combiner.operands[1] if combiner.operands[0] is arg else combiner.operands[0]
    region_op = arg.block.parent_op()
    if _depends_on(reduced, set(out_args), region_op):
        return None
    chain: list[Operation] = []
    current = combiner
    while not isinstance(current, linalg.YieldOp):
        if (
            not isinstance(current, ELEMENTWISE_ARITH_MATH_OPS)
            or len(current.results) != 1
            or len(list(current.results[0].uses)) != 1
            or current.parent_op() is not region_op
        ):
            return None
        chain.append(current)
        current = next(iter(current.results[0].uses)).operation
    if len(chain) != 1:
        return None
    if current.operands[position] is not chain[-1].results[0]:
        return None
    return reduced, chain[0]


def _depends_on(value: SSAValue, args: set[SSAValue], region_op: Operation | None) -> bool:
    """Upstream's `dependsOnCarriedVals` (backward slice inside the op)."""
    if value in args:
        return True
    seen: set[Operation] = set()
    work = [value]
    while work:
        current = work.pop()
        owner = current.owner
        if not isinstance(owner, Operation) or owner in seen:
            continue
        if region_op is None or not region_op.is_ancestor(owner):
            continue
        seen.add(owner)
        for operand in owner.operands:
            if operand in args:
                return True
            work.append(operand)
    return False


_BODY_OPS: tuple[type[Operation], ...] = (
    linalg.YieldOp,
    linalg.IndexOp,
    tensor.ExtractOp,
    arith.ConstantOp,
    ApplyOp,
    *ELEMENTWISE_ARITH_MATH_OPS,
)
"""The body ops `vectorizeOneOp` has a rule for (the elementwise arith and math ops
included); `affine.apply` is expanded into arith ops first."""


def body_op_vectorizable(op: Operation) -> bool:
    """Whether `vectorizeOneOp` has a rule for `op` (checked before rewriting)."""
    return isinstance(op, _BODY_OPS)


# --- affine.apply --------------------------------------------------------------------------


def expand_affine_applies(block: Block) -> None:
    """Upstream's `convertAffineApply`: `affine.apply` in the body becomes arith ops."""
    for op in list(block.ops):
        if not isinstance(op, ApplyOp):
            continue
        m = op.map.data
        dims = list(op.mapOperands[: m.num_dims])
        syms = list(op.mapOperands[m.num_dims :])
        new_ops: list[Operation] = []
        value = _expand(m.results[0], dims, syms, new_ops)
        for new in new_ops:
            new.location = op.location
            block.insert_op_before(new, op)
        op.results[0].replace_all_uses_with(value)
        op.detach()
        op.erase()


def _expand(
    expr: AffineExpr, dims: list[SSAValue], syms: list[SSAValue], out: list[Operation]
) -> SSAValue:
    """Upstream's `expandAffineExpr` (AffineToStandard's lowering of one expression)."""

    def emit(new: Operation) -> SSAValue:
        out.append(new)
        return new.results[0]

    def const(value: int) -> SSAValue:
        return emit(arith.ConstantOp(IntegerAttr(value, IndexType())))

    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return const(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _expand(expr.lhs, dims, syms, out)
    rhs = _expand(expr.rhs, dims, syms, out)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return emit(arith.AddiOp(lhs, rhs))
    if kind == AffineBinaryOpKind.Mul:
        return emit(arith.MuliOp(lhs, rhs))
    if kind == AffineBinaryOpKind.Mod:
        rem = emit(arith.RemSIOp(lhs, rhs))
        zero = const(0)
        negative = emit(shaped_arith.CmpiOp(rem, zero, "slt"))
        corrected = emit(arith.AddiOp(rem, rhs))
        return emit(shaped_arith.SelectOp(negative, corrected, rem))
    if kind == AffineBinaryOpKind.FloorDiv:
        zero = const(0)
        minus_one = const(-1)
        negative = emit(shaped_arith.CmpiOp(lhs, zero, "slt"))
        negated = emit(arith.SubiOp(minus_one, lhs))
        dividend = emit(shaped_arith.SelectOp(negative, negated, lhs))
        quotient = emit(arith.DivSIOp(dividend, rhs))
        corrected = emit(arith.SubiOp(minus_one, quotient))
        return emit(shaped_arith.SelectOp(negative, corrected, quotient))
    zero = const(0)
    one = const(1)
    non_positive = emit(shaped_arith.CmpiOp(lhs, zero, "sle"))
    negated = emit(arith.SubiOp(zero, lhs))
    decremented = emit(arith.SubiOp(lhs, one))
    dividend = emit(shaped_arith.SelectOp(non_positive, negated, decremented))
    quotient = emit(arith.DivSIOp(dividend, rhs))
    negated_q = emit(arith.SubiOp(zero, quotient))
    incremented = emit(arith.AddiOp(quotient, one))
    return emit(shaped_arith.SelectOp(non_positive, negated_q, incremented))


# --- tensor.extract --------------------------------------------------------------------------


def _access_kind(op: Operation, extract: tensor.ExtractOp, ranges: Sequence[int]) -> str:
    """Upstream's `getTensorExtractMemoryAccessPattern`: "broadcast", "contiguous" or
    "gather"."""
    source_shape = cast(ShapedType, extract.tensor.type).get_shape()
    if not source_shape:
        return "broadcast"
    if any(r < 0 for r in ranges):
        return "gather"
    if sum(1 for r in ranges if r > 1) != 1:
        return "gather"
    block = extract.parent_block()
    assert block is not None
    indices = list(extract.indices)
    trailing = len(ranges) - 1
    for i, index in enumerate(indices[:-1]):
        if source_shape[i] != 1 and not _loop_invariant(index, block, trailing):
            return "gather"
    if _loop_invariant(indices[-1], block, trailing):
        return "broadcast"
    found = [False]
    if _contiguous(indices[-1], block, trailing, found) and found[0]:
        return "contiguous"
    return "gather"


def _ancestor_in(block: Block, op: Operation) -> Operation | None:
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def _loop_invariant(value: SSAValue, block: Block, trailing: int) -> bool:
    """Upstream's `isLoopInvariantIdx`."""
    if isinstance(value, BlockArgument):
        return value.block is not block
    owner = cast(OpResult, value).op
    if isinstance(owner, linalg.IndexOp):
        return _index_dim(owner) != trailing
    ancestor = _ancestor_in(block, owner)
    if ancestor is None or isinstance(ancestor, arith.ConstantOp):
        return True
    return all(_loop_invariant(v, block, trailing) for v in ancestor.operands)


def _contiguous(value: SSAValue, block: Block, trailing: int, found: list[bool]) -> bool:
    """Upstream's `isContiguousLoadIdx`."""
    if isinstance(value, BlockArgument):
        return value.block is not block
    owner = cast(OpResult, value).op
    if isinstance(owner, linalg.IndexOp):
        found[0] = _index_dim(owner) == trailing
        return True
    ancestor = _ancestor_in(block, owner)
    if not isinstance(ancestor, arith.AddiOp | arith.ConstantOp | linalg.IndexOp):
        return False
    result = False
    for operand in ancestor.operands:
        result |= _contiguous(operand, block, trailing, found)
    return result


def _index_dim(op: linalg.IndexOp) -> int:
    return op.dim.value.data


def check_extract_patterns(
    op: Operation, block: Block, ranges: Sequence[int], shape: Sequence[int]
) -> None:
    """Fail before rewriting on the extracts upstream turns into `vector.gather`, which
    schedir's vector dialect lacks, and on masked extracts."""
    for inner in block.ops:
        if not isinstance(inner, tensor.ExtractOp):
            continue
        if _access_kind(op, inner, ranges) == "gather":
            raise VectorizationFailure("tensor.extract needs a vector.gather")
        if list(ranges) != list(shape):
            raise VectorizationFailure("masked tensor.extract is not supported")


def _vectorize_extract(
    state: VectorizationState,
    op: Operation,
    extract: tensor.ExtractOp,
    bvm: dict[SSAValue, SSAValue],
) -> SSAValue:
    """Upstream's `vectorizeTensorExtract` for broadcast and contiguous reads."""
    source = extract.tensor
    source_type = cast(TensorType, source.type)
    result_type = state.vec_type(extract.results[0].type)
    kind = _access_kind(op, extract, static_loop_ranges(op))
    indices: list[SSAValue] = []
    for index in extract.indices:
        mapped = bvm.get(index, index)
        if isinstance(mapped.type, IndexType):
            indices.append(mapped)
            continue
        flat = state.value(
            vector.ShapeCastOp(mapped, vec([result_type.get_shape()[-1]], IndexType()))
        )
        indices.append(state.value(vector.ExtractOp(flat, [0])))
    dst_rank = result_type.get_num_dims()
    src_rank = len(source_type.get_shape())
    in_bounds = bool_array([True] * dst_rank)
    if kind == "broadcast":
        perm = AffineMap(src_rank, 0, tuple(AffineExpr.constant(0) for _ in range(dst_rank)))
    else:
        minor = AffineMap.minor_identity(src_rank, min(dst_rank, src_rank))
        leading = tuple(AffineExpr.constant(0) for _ in range(dst_rank - src_rank))
        perm = AffineMap(src_rank, 0, leading + minor.results)
    padding = state.poison(source_type.get_element_type())
    read = vector.TransferReadOp(
        source, indices, padding, result_type, in_bounds, AffineMapAttr(perm)
    )
    return state.value(read, extract)


# --- one op ----------------------------------------------------------------------------------


def vectorize_body(
    state: VectorizationState, op: Operation, block: Block, bvm: dict[SSAValue, SSAValue]
) -> list[SSAValue]:
    """Step 5 of `vectorizeAsLinalgGeneric`: every body op in order; returns the values
    written into the inits."""
    results: list[SSAValue] = []
    for inner in block.ops:
        if isinstance(inner, linalg.YieldOp):
            for index, value in enumerate(inner.operands):
                written = write_output(state, bvm.get(value, value), op, index)
                if written is not None:
                    results.append(written)
            continue
        new_values = _vectorize_one(state, op, block, inner, bvm)
        for old, new in zip(inner.results, new_values, strict=True):
            bvm[old] = new
    return results


def _vectorize_one(
    state: VectorizationState,
    op: Operation,
    block: Block,
    inner: Operation,
    bvm: dict[SSAValue, SSAValue],
) -> list[SSAValue]:
    """Upstream's `vectorizeOneOp` (the result is masked when maskable)."""
    if isinstance(inner, linalg.IndexOp):
        return [_vectorize_index(state, _index_dim(inner))]
    if isinstance(inner, tensor.ExtractOp):
        return [_vectorize_extract(state, op, inner, bvm)]
    if isinstance(inner, arith.ConstantOp):
        clone = inner.clone()
        return list(state.create(clone, inner).results)
    if not isinstance(inner, ELEMENTWISE_ARITH_MATH_OPS):
        raise VectorizationFailure(f"'{inner.name}' has no vector form")
    num_inputs = len(dps_inputs(op))
    out_args = list(block.args[num_inputs:])
    for operand in inner.operands:
        if not isinstance(operand, BlockArgument) or operand.block is not block:
            continue
        if operand.index < num_inputs:
            continue
        matched = match_reduction(out_args, operand.index - num_inputs)
        if matched is None:
            continue
        reduced = _reduce_if_needed(state, op, inner, bvm.get(matched[0], matched[0]), bvm[operand])
        if reduced is not None:
            return [reduced]
        break
    return _vectorize_elementwise(state, inner, bvm)


def _reduce_if_needed(
    state: VectorizationState, op: Operation, combiner: Operation, value: SSAValue, acc: SSAValue
) -> SSAValue | None:
    """Upstream's `reduceIfNeeded`: a `vector.multi_reduction` when shapes differ."""
    value_type = value.type
    acc_type = acc.type
    if not isinstance(value_type, VectorType):
        return None
    if isinstance(acc_type, VectorType) and acc_type.get_shape() == value_type.get_shape():
        return None
    kind = combiner_kind(combiner)
    if kind is None:
        raise VectorizationFailure(f"'{combiner.name}' is not a known combiner")
    dims = [i for i, t in enumerate(iterator_types(op)) if t == "reduction"]
    reduction = vector.MultiDimReductionOp(make_kind(kind), value, acc, dims)
    state.create(reduction, combiner)
    return state.mask(reduction).results[0]


def _vectorize_elementwise(
    state: VectorizationState, inner: Operation, bvm: dict[SSAValue, SSAValue]
) -> list[SSAValue]:
    """Step 5 of `vectorizeOneOp`: broadcast to the first operand of highest rank."""
    operands = [bvm.get(v, v) for v in inner.operands]
    widest: VectorType | None = None
    for value in operands:
        t = value.type
        if isinstance(t, VectorType) and (
            widest is None or widest.get_num_dims() < t.get_num_dims()
        ):
            widest = t
    if widest is not None:
        shape = widest.get_shape()
        operands = [
            state.broadcast(
                v, vec(shape, v.type.element_type if isinstance(v.type, VectorType) else v.type)
            )
            for v in operands
        ]
        result_types = [vec(widest.get_shape(), t) for t in inner.result_types]
    else:
        result_types = list(inner.result_types)
    new = type(inner).create(
        operands=operands,
        result_types=result_types,
        properties=dict(inner.properties),
        attributes=dict(inner.attributes),
    )
    state.create(new, inner)
    try:
        new.verify()
    except VerifyException as err:
        # An xDSL op definition that takes scalars only (upstream's takes vectors too).
        raise VectorizationFailure(f"'{inner.name}' has no vector form in xDSL: {err}") from None
    masked = state.mask(new)
    return list(masked.results)


def _vectorize_index(state: VectorizationState, dim: int) -> SSAValue:
    """Upstream's `vectorizeLinalgIndex`."""
    shape = state.shape
    steps = state.value(vector.StepOp(vec([shape[dim]], IndexType())))
    last = len(shape) - 1
    if dim == last:
        return steps
    pattern = list(range(len(shape)))
    pattern[dim], pattern[last] = pattern[last], pattern[dim]
    permuted = vec([shape[p] for p in pattern], IndexType())
    broadcast = state.value(vector.BroadcastOp(steps, permuted))
    return state.value(vector.TransposeOp(broadcast, pattern))


def write_output(
    state: VectorizationState, value: SSAValue, op: Operation, init_index: int
) -> SSAValue | None:
    """Upstream's `buildVectorWrite`: write a yielded value into its init at index 0."""
    operand = dps_inits(op)[init_index]
    shaped = cast(ShapedOperand, operand.type)
    m = indexing_maps(op)[len(dps_inputs(op)) + init_index]
    used = {e.position for e in m.results if isinstance(e, AffineDimExpr)}
    type_map = AffineMap(
        m.num_dims, 0, tuple(AffineExpr.dimension(d) for d in range(m.num_dims) if d in used)
    )
    vtype = state.vec_type(shaped.get_element_type(), type_map)
    zero = state.index(0)
    result_type = operand.type if isinstance(operand.type, TensorType) else None
    rank = vtype.get_num_dims()
    if rank > 0:
        write_map = compress_unused_dims(m).inverse_permutation()
        assert write_map is not None
        value = state.broadcast(value, vtype)
        indices = [zero] * shaped.get_num_dims()
    else:
        if not isinstance(value.type, VectorType):
            value = state.value(vector.BroadcastOp(value, vtype))
        write_map = AffineMap(0, 0, ())
        indices = []
    if value.type != vtype:
        raise VectorizationFailure(f"yielded value of type {value.type}, expected {vtype}")
    write = vector.TransferWriteOp(
        value,
        operand,
        indices,
        bool_array([False] * rank),
        None,
        AffineMapAttr(write_map),
        cast(TensorType[Attribute], result_type) if result_type is not None else None,
    )
    state.create(write)
    wrapped = state.mask(write, m)
    if wrapped is not write:
        write.properties["in_bounds"] = bool_array([True] * rank)
    return wrapped.results[0] if wrapped.results else None


__all__ = [
    "body_op_vectorizable",
    "check_extract_patterns",
    "combiner_kind",
    "expand_affine_applies",
    "match_reduction",
    "vectorize_body",
    "write_output",
]
