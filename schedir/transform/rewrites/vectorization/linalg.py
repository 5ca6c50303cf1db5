"""Vectorization of linalg ops (upstream Linalg/Transforms/Vectorization.cpp).

`vectorize_linalg(rw, op, vector_sizes)` rewrites one structured op (generic, a named op through
its generic form, map, reduce, transpose, broadcast) into vector ops, as upstream's
`vectorizeAsLinalgGeneric` does: the iteration space is the canonical vector shape (the
static loop ranges, or `vector_sizes`); every operand is read whole with a
`vector.transfer_read` whose permutation map broadcasts and transposes it into that shape
(inputs) or into the loop order of its own dims (inits); the body is replayed on vectors
(reductions become `vector.multi_reduction`, `linalg.index` a `vector.step`); each yielded
value is written back with a `vector.transfer_write`. With `vector_sizes` larger than the
(possibly dynamic) iteration space, transfers and reductions are masked (`vector.mask` on a
`vector.create_mask` of the iteration-space sizes), masked transfers being in bounds.

    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
           ins(%a : tensor<8xf32>) outs(%c : tensor<8xf32>) { math.exp ... }
  =>
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %p = ub.poison : f32
    %v = vector.transfer_read %a[%c0], %p : tensor<8xf32>, vector<8xf32>
    ...
    %e = math.exp %v : vector<8xf32>
    %r = vector.transfer_write %e, %c[%c0_0] : vector<8xf32>, tensor<8xf32>

With `create_named_contraction`, a named contraction becomes one `vector.contract`
instead (`vectorize_contraction`). The body is replayed by `body`; `tensor.pad` and
`tensor.insert_slice` are vectorized by `tensor` (`dispatch.vectorize` picks). A
precondition that does not hold raises `VectorizationFailure` before the IR changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    ShapedType,
    TensorType,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from schedir.dialects import linalg, vector
from schedir.dialects.affine import ApplyOp
from schedir.dialects.linalg.conv import CONV_OPS
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
    static_loop_ranges,
)
from schedir.dialects.vector.attributes import (
    PARALLEL,
    REDUCTION,
    bool_array,
    compress_unused_dims,
    make_kind,
)
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import ELEMENTWISE_ARITH_MATH_OPS, ShapedOperand, zero
from schedir.transform.rewrites.vectorization.body import (
    body_op_vectorizable,
    check_extract_patterns,
    combiner_kind,
    expand_affine_applies,
    match_reduction,
    vectorize_body,
)
from schedir.transform.rewrites.vectorization.state import (
    VectorizationFailure,
    VectorizationState,
    VectorizeResult,
    is_valid_element_type,
    is_valid_masked_input_vector,
)
from schedir.transform.rewrites.vectorization.tensor import masked_read, write_whole

CONTRACTION_OPS: tuple[type[Operation], ...] = (
    linalg.MatmulOp,
    linalg.BatchMatmulOp,
    linalg.MatvecOp,
    linalg.VecmatOp,
    linalg.DotOp,
)
"""The ops implementing upstream's `ContractionOpInterface`."""


# --- op kinds ------------------------------------------------------------------------------


def is_convolution(op: Operation) -> bool:
    """Upstream's `ConvolutionOpInterface` (the named convolutions and poolings)."""
    return isinstance(op, CONV_OPS)


def is_elementwise(op: Operation) -> bool:
    """Upstream's `linalg::isElementwise`: parallel loops, projected-permutation maps,
    permutation init maps, and a body of elementwise scalar ops."""
    if any(t != "parallel" for t in iterator_types(op)):
        return False
    maps = indexing_maps(op)
    if not all(m.is_projected_permutation() for m in maps):
        return False
    num_inputs = len(dps_inputs(op))
    if not all(_is_permutation(m) for m in maps[num_inputs:]):
        return False
    generic = as_generic(op)
    try:
        return all(_is_scalar_elementwise(inner) for inner in generic.body.block.ops)
    finally:
        generic.erase()


def _is_permutation(m: AffineMap) -> bool:
    return m.is_projected_permutation() and len(m.results) == m.num_dims


_SCALAR_BODY_OPS: tuple[type[Operation], ...] = (
    arith.ConstantOp,
    tensor.ExtractOp,
    linalg.YieldOp,
    linalg.IndexOp,
    ApplyOp,
    *ELEMENTWISE_ARITH_MATH_OPS,
)
"""The ops of upstream's `hasOnlyScalarElementwiseOp`: the ElementwiseMappable arith and
math ops, and the body ops that have a scalar form."""


def _is_scalar_elementwise(op: Operation) -> bool:
    """An op of upstream's `hasOnlyScalarElementwiseOp` with scalar results."""
    if not isinstance(op, _SCALAR_BODY_OPS):
        return False
    return all(is_valid_element_type(t) for t in op.result_types)


# --- preconditions -------------------------------------------------------------------------


def _reduction_preconditions(op: Operation, block: Block) -> bool:
    """Upstream's `reductionPreconditions`: a reduction iterator, and a single known
    combiner for each init whose map is not a permutation."""
    if "reduction" not in iterator_types(op):
        return False
    num_inputs = len(dps_inputs(op))
    maps = indexing_maps(op)
    out_args = list(block.args[num_inputs:])
    for position in range(len(dps_inits(op))):
        if _is_permutation(maps[num_inputs + position]):
            continue
        combiner = match_reduction(out_args, position)
        if combiner is None or combiner_kind(combiner[1]) is None:
            return False
    return True


def check_linalg_preconditions(
    op: Operation, block: Block, vector_sizes: Sequence[int], nd_extract: bool
) -> None:
    """Upstream's `vectorizeLinalgOpPrecondition`, plus a check that every body op has
    a vector form (upstream finds out half-way through the rewrite)."""
    operands = [*dps_inputs(op), *dps_inits(op)]
    for operand in operands:
        if isinstance(operand.type, ShapedType) and 0 in operand.type.get_shape():
            raise VectorizationFailure("an operand has a dimension of size 0")
    ranges = list(static_loop_ranges(op))
    if vector_sizes and not is_valid_masked_input_vector(ranges, vector_sizes):
        raise VectorizationFailure("invalid vector sizes for the iteration space")
    if DYNAMIC_INDEX in ranges or -1 in ranges:
        _dynamic_preconditions(op, block)
    for inner in block.ops:
        if isinstance(inner, tensor.ExtractOp) and _extract_precondition(inner, nd_extract):
            continue
        types = [*inner.operand_types, *inner.result_types]
        if any(not is_valid_element_type(t) for t in types):
            raise VectorizationFailure(f"'{inner.name}' has a non-vectorizable type")
        if not body_op_vectorizable(inner):
            raise VectorizationFailure(f"'{inner.name}' has no vector form")
    if is_elementwise(op):
        return
    if is_convolution(op):
        # Upstream vectorizes 1-D convolutions only; schedir's are 2-D.
        raise VectorizationFailure("only 1-D convolutions are vectorized")
    if not all(m.is_projected_permutation() for m in indexing_maps(op)):
        raise VectorizationFailure("not projected permutations")
    if not _reduction_preconditions(op, block):
        raise VectorizationFailure("reduction preconditions")


def _dynamic_preconditions(op: Operation, block: Block) -> None:
    """Upstream's `vectorizeDynamicLinalgOpPrecondition`."""
    if is_convolution(op):
        raise VectorizationFailure("dynamic convolutions are not vectorized")
    has_reduction = isinstance(op, linalg.ReduceOp) or (
        isinstance(op, linalg.GenericOp) and "reduction" in iterator_types(op)
    )
    if has_reduction:
        if not _reduction_preconditions(op, block):
            raise VectorizationFailure("reduction preconditions")
        return
    contraction = isinstance(op, CONTRACTION_OPS)
    if not (is_elementwise(op) or isinstance(op, linalg.GenericOp | linalg.CopyOp) or contraction):
        raise VectorizationFailure("dynamic shapes of this op are not vectorized")


def _extract_precondition(op: tensor.ExtractOp, nd_extract: bool) -> bool:
    """Upstream's `tensorExtractVectorizationPrecondition`."""
    indices = list(op.indices)
    if len(indices) != 1 and not nd_extract:
        return False
    if indices and not is_valid_element_type(indices[0].type):
        return False
    return all(is_valid_element_type(t) for t in op.result_types)


# --- the generic vectorization -----------------------------------------------------------


def vectorize_linalg(
    rw: CanonRewriter,
    op: Operation,
    vector_sizes: Sequence[int] = (),
    *,
    nd_extract: bool = False,
    assume_dynamic_dims_match_vec_sizes: bool = False,
    create_named_contraction: bool = False,
) -> VectorizeResult:
    """Upstream's `vectorize` on a LinalgOp: preconditions, state, then the contraction
    path (`create_named_contraction`) or the generic one."""
    generic = as_generic(op)
    try:
        block = generic.body.block
        check_linalg_preconditions(op, block, vector_sizes, nd_extract)
        ranges = list(static_loop_ranges(op))
        shape = list(vector_sizes) if vector_sizes else ranges
        if any(s < 0 for s in shape):
            raise VectorizationFailure("dynamic shapes need vector sizes")
        check_extract_patterns(op, block, ranges, shape)
        rw.set_insertion_point(op)
        state = VectorizationState(rw, op, shape)
        sizes = ranges
        if assume_dynamic_dims_match_vec_sizes:
            sizes = [v if s < 0 else s for s, v in zip(ranges, shape, strict=True)]
        try:
            state.precompute_sizes(op, sizes)
            expand_affine_applies(block)
            if create_named_contraction and isinstance(op, CONTRACTION_OPS):
                results = vectorize_contraction(state, op, block)
            else:
                results = _vectorize_generic(state, op, block)
        except VectorizationFailure:
            for created in reversed(state.created):
                if created.parent is not None:
                    created.detach()
                    created.erase(safe_erase=False)
            raise
    finally:
        generic.erase(safe_erase=False)
    return VectorizeResult(tuple(results))


def _vectorize_generic(state: VectorizationState, op: Operation, block: Block) -> list[SSAValue]:
    """Upstream's `vectorizeAsLinalgGeneric`."""
    inputs = dps_inputs(op)
    inits = dps_inits(op)
    maps = indexing_maps(op)
    bvm: dict[SSAValue, SSAValue] = {}
    zero = state.index(0)
    operands = [*inputs, *inits]
    for index, (operand, bbarg, m) in enumerate(zip(operands, block.args, maps, strict=False)):
        if not isinstance(operand.type, ShapedType):
            bvm[bbarg] = operand
            continue
        value = _read_operand(state, operand, m, is_input=index < len(inputs), zero=zero)
        bvm[bbarg] = value
        bvm[operand] = value
    return vectorize_body(state, op, block, bvm)


def _read_operand(
    state: VectorizationState, operand: SSAValue, m: AffineMap, *, is_input: bool, zero: SSAValue
) -> SSAValue:
    """One operand read whole (steps 3.a-3.c of `vectorizeAsLinalgGeneric`)."""
    shaped = cast(ShapedOperand, operand.type)
    elem = shaped.get_element_type()
    zeros = tuple(isinstance(e, AffineConstantExpr) for e in m.results)
    masking_map = m.drop_results(zeros) if any(zeros) else m
    if is_input:
        read_map = m.inverse_and_broadcast_projected_permutation()
        read_type = state.vec_type(elem)
    else:
        read_map = compress_unused_dims(m).inverse_permutation()
        assert read_map is not None
        read_type = state.vec_type(elem, read_map.compose(m))
    rank = read_type.get_num_dims()
    indices = [zero] * shaped.get_num_dims()
    padding = state.poison(elem)
    read = vector.TransferReadOp(
        operand, indices, padding, read_type, bool_array([False] * rank), AffineMapAttr(read_map)
    )
    state.create(read)
    wrapped = state.mask(read, masking_map)
    if wrapped is not read:
        read.properties["in_bounds"] = bool_array([True] * rank)
    value = wrapped.results[0]
    if rank == 0:
        value = state.value(vector.ExtractOp(value, []))
    return value


def vectorize_contraction(state: VectorizationState, op: Operation, block: Block) -> list[SSAValue]:
    """Upstream's `vectorizeAsLinalgContraction` (`create_named_contraction`): each
    operand read in its own shape (zero padding, masked when the vector sizes exceed it),
    one `vector.contract` with the op's maps (masked by the iteration space), and a
    write of the result."""
    if not isinstance(op, CONTRACTION_OPS):
        raise VectorizationFailure("create_named_contraction needs a named contraction")
    num_inputs = len(dps_inputs(op))
    matched = match_reduction(list(block.args[num_inputs:]), 0)
    kind = combiner_kind(matched[1]) if matched is not None else None
    if kind is None:
        raise VectorizationFailure("the contraction's combiner is not known")
    maps = indexing_maps(op)
    used = {e.position for m in maps[:2] for e in m.results if isinstance(e, AffineDimExpr)}
    if len(used) != maps[0].num_dims:
        raise VectorizationFailure("a loop indexes neither contraction operand")
    rw = state.rw
    reads: list[SSAValue] = []
    for operand, m in zip([*dps_inputs(op), *dps_inits(op)], maps, strict=True):
        shaped = cast(ShapedOperand, operand.type)
        identity = AffineMap.identity(len(m.results))
        shape = list(state.vec_type(shaped.get_element_type(), identity.compose(m)).get_shape())
        padding = zero(rw, shaped.get_element_type(), op)
        reads.append(masked_read(rw, op, operand, shape, padding, False))
    iterators = [PARALLEL if t == "parallel" else REDUCTION for t in iterator_types(op)]
    contract = vector.ContractionOp(
        reads[0],
        reads[1],
        reads[2],
        ArrayAttr(AffineMapAttr(m) for m in maps),
        ArrayAttr(iterators),
        make_kind(kind),
    )
    state.create(contract)
    result = state.mask(contract).results[0]
    init = dps_inits(op)[0]
    written = write_whole(rw, op, result, init, list(cast(VectorType, result.type).get_shape()))
    return [written] if isinstance(init.type, TensorType) else []


__all__ = [
    "CONTRACTION_OPS",
    "check_linalg_preconditions",
    "is_convolution",
    "is_elementwise",
    "vectorize_contraction",
    "vectorize_linalg",
]
