"""Vectorization of linalg ops (upstream Linalg/Transforms/Vectorization.cpp).

`vectorize(rw, op, vector_sizes)` rewrites one structured op (generic, a named op through
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

`tensor.pad` and `tensor.insert_slice` are vectorized by `vectorization_tensor`. A
precondition that does not hold raises `VectorizationFailure` before the IR changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import memref as xmemref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    ShapedType,
    TensorType,
    VectorType,
    i1,
)
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
    static_loop_ranges,
)
from schedir.dialects.vector.attributes import bool_array, compress_unused_dims, vec
from schedir.dialects.vector.masks import expected_mask_type
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.folders import fold_broadcast
from schedir.transform.rewrites.vector.utils import mask_operation


class VectorizationFailure(Exception):
    """The op cannot be vectorized (upstream's `failure()`); the IR is unchanged."""


@dataclass(frozen=True)
class VectorizeResult:
    """The values replacing the vectorized op's results (empty on buffers)."""

    replacements: tuple[SSAValue, ...]


# --- op kinds ------------------------------------------------------------------------------


def has_vectorization_impl(op: Operation) -> bool:
    """Upstream's `hasVectorizationImpl`: linalg ops, `tensor.pad`, `tensor.insert_slice`
    (schedir has no `linalg.pack` / `linalg.unpack`)."""
    return is_structured(op) or op.name in ("tensor.pad", "tensor.insert_slice")


def is_convolution(op: Operation) -> bool:
    """Upstream's `ConvolutionOpInterface` (the named convolutions and poolings)."""
    return op.name.startswith(("linalg.conv_", "linalg.depthwise_conv", "linalg.pooling_"))


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


_SCALAR_BODY_OPS = frozenset(
    {"arith.constant", "tensor.extract", "linalg.yield", "linalg.index", "affine.apply"}
)


def _is_scalar_elementwise(op: Operation) -> bool:
    """An op of upstream's `hasOnlyScalarElementwiseOp` with scalar results."""
    if not (op.name in _SCALAR_BODY_OPS or _is_elementwise_mappable(op)):
        return False
    return all(is_valid_element_type(t) for t in op.result_types)


def _is_elementwise_mappable(op: Operation) -> bool:
    """Upstream's `ElementwiseMappable` trait: the arith and math ops on scalars."""
    dialect = op.name.split(".", 1)[0]
    return dialect in ("arith", "math") and op.name != "arith.constant" and not op.regions


def is_valid_element_type(t: Attribute) -> bool:
    """Upstream's `VectorType::isValidElementType`: integers, index and floats."""
    from xdsl.dialects.builtin import AnyFloat, IntegerType

    return isinstance(t, IntegerType | IndexType | AnyFloat)


def is_valid_masked_input_vector(shape: Sequence[int], sizes: Sequence[int]) -> bool:
    """Upstream's `isValidMaskedInputVector`: one positive size per dim, none smaller than
    a static dim."""
    if len(shape) != len(sizes):
        return False
    return all(
        size > 0 and (dim == DYNAMIC_INDEX or dim <= size)
        for dim, size in zip(shape, sizes, strict=True)
    )


# --- state --------------------------------------------------------------------------------


@dataclass
class VectorizationState:
    """Upstream's `VectorizationState`: the canonical vector shape and the masks of one op.

    Every op it builds is inserted before the vectorized op and takes its location.
    """

    rw: CanonRewriter
    op: Operation
    shape: list[int]
    static_sizes: list[int] = field(default_factory=list)
    value_sizes: list[SSAValue] = field(default_factory=list)
    masks: dict[AffineMap, SSAValue | None] = field(default_factory=dict)
    created: list[Operation] = field(default_factory=list)

    def create(self, new: Operation, loc: Operation | None = None) -> Operation:
        self.rw.create(new, loc or self.op)
        self.created.append(new)
        return new

    def value(self, new: Operation, loc: Operation | None = None) -> SSAValue:
        return self.create(new, loc).results[0]

    def index(self, value: int) -> SSAValue:
        from xdsl.dialects import arith
        from xdsl.dialects.builtin import IntegerAttr

        return self.value(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def poison(self, t: Attribute) -> SSAValue:
        """The padding of a read: a fresh `ub.poison` before it, as upstream's builder."""
        return self.value(PoisonOp(t))

    def vec_type(self, elem: Attribute, perm: AffineMap | None = None) -> VectorType:
        """The canonical vector type of `elem`, its dims permuted by `perm`."""
        shape = self.shape if perm is None else list(perm.apply_permutation(self.shape))
        return vec(shape, elem)

    # -- masks ------------------------------------------------------------------------------

    def precompute_sizes(self, op: Operation, sizes: Sequence[int]) -> None:
        """Constants and `tensor.dim` / `memref.dim` for each iteration-space dim."""
        self.static_sizes = list(sizes)
        operands = [*dps_inputs(op), *dps_inits(op)]
        maps = indexing_maps(op)
        for dim, size in enumerate(sizes):
            if size >= 0:
                self.value_sizes.append(self.index(size))
                continue
            found = _operand_dim(operands, maps, dim)
            if found is None:
                raise VectorizationFailure(f"no operand is indexed by loop {dim}")
            operand, position = found
            index = self.index(position)
            dim_op = (
                xtensor.DimOp(operand, index)
                if isinstance(operand.type, TensorType)
                else xmemref.DimOp.from_source_and_index(operand, index)
            )
            self.value_sizes.append(self.value(dim_op))

    def mask_for(self, masked: Operation, masking_map: AffineMap | None) -> SSAValue | None:
        """Upstream's `getOrCreateMaskFor`: the (cached) mask of a maskable op, None when
        the permuted iteration space fills the vector."""
        if expected_mask_type(masked) is None:
            return None
        m = masking_map if masking_map is not None else AffineMap.identity(len(self.shape))
        if m in self.masks:
            return self.masks[m]
        permuted_static = list(m.apply_permutation(self.static_sizes))
        mask_type = self.vec_type(i1, m)
        if permuted_static == list(mask_type.get_shape()):
            self.masks[m] = None
            return None
        bounds = list(m.apply_permutation(self.value_sizes))
        mask = self.value(vector.CreateMaskOp(bounds, mask_type))
        self.masks[m] = mask
        return mask

    def mask(self, masked: Operation, masking_map: AffineMap | None = None) -> Operation:
        """Upstream's `maskOperation`: wrap `masked` in a `vector.mask` if it needs one."""
        mask = self.mask_for(masked, masking_map)
        if mask is None:
            return masked
        wrapper = mask_operation(self.rw, masked, mask)
        self.created.append(wrapper)
        return wrapper

    def broadcast(self, value: SSAValue, target: VectorType) -> SSAValue:
        """Upstream's `broadcastIfNeeded` (a `createOrFold` of `vector.broadcast`)."""
        if target.get_num_dims() == 0 or value.type == target:
            return value
        if not _broadcastable(value.type, target):
            return value
        new = vector.BroadcastOp(value, target)
        folded = fold_broadcast(new)
        if isinstance(folded, list) and isinstance(folded[0], SSAValue):
            new.erase()
            return folded[0]
        if isinstance(folded, list):
            from schedir.transform.rewrites.constants import materialize_constant

            new.erase()
            const = materialize_constant(self.rw, folded[0], target, self.op.location)
            assert const is not None
            self.created.append(const)
            return const.results[0]
        return self.value(new)


def _operand_dim(
    operands: Sequence[SSAValue], maps: Sequence[AffineMap], dim: int
) -> tuple[SSAValue, int] | None:
    """Upstream's `mapIterationSpaceDimToOperandDim`: the first operand dim indexed by
    exactly loop `dim`."""
    for operand, m in zip(operands, maps, strict=True):
        for position, expr in enumerate(m.results):
            if isinstance(expr, AffineDimExpr) and expr.position == dim:
                return operand, position
    return None


def _broadcastable(src: Attribute, dst: VectorType) -> bool:
    """Upstream's `isBroadcastableTo` for fixed-size vectors."""
    if not isinstance(src, VectorType):
        return src == dst.get_element_type()
    src_shape, dst_shape = src.get_shape(), dst.get_shape()
    if len(src_shape) > len(dst_shape):
        return False
    lead = len(dst_shape) - len(src_shape)
    return all(s in (1, dst_shape[lead + i]) for i, s in enumerate(src_shape))


# --- preconditions -------------------------------------------------------------------------


def _reduction_preconditions(op: Operation, block: Block) -> bool:
    """Upstream's `reductionPreconditions`: a reduction iterator, and a single known
    combiner for each init whose map is not a permutation."""
    from schedir.transform.rewrites.vectorization.body import combiner_kind, match_reduction

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
    from schedir.transform.rewrites.vectorization.body import body_op_vectorizable

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
        if inner.name == "tensor.extract" and _extract_precondition(inner, nd_extract):
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
    has_reduction = op.name == "linalg.reduce" or (
        op.name == "linalg.generic" and "reduction" in iterator_types(op)
    )
    if has_reduction:
        if not _reduction_preconditions(op, block):
            raise VectorizationFailure("reduction preconditions")
        return
    contraction = op.name in (
        "linalg.matmul",
        "linalg.batch_matmul",
        "linalg.matvec",
        "linalg.vecmat",
        "linalg.dot",
    )
    if not (is_elementwise(op) or op.name in ("linalg.generic", "linalg.copy") or contraction):
        raise VectorizationFailure("dynamic shapes of this op are not vectorized")


def _extract_precondition(op: Operation, nd_extract: bool) -> bool:
    """Upstream's `tensorExtractVectorizationPrecondition`."""
    indices = list(op.operands[1:])
    if len(indices) != 1 and not nd_extract:
        return False
    if indices and not is_valid_element_type(indices[0].type):
        return False
    return all(is_valid_element_type(t) for t in op.result_types)


# --- entry point ---------------------------------------------------------------------------


def vectorize(
    rw: CanonRewriter,
    op: Operation,
    vector_sizes: Sequence[int] = (),
    scalable: Sequence[bool] = (),
    *,
    nd_extract: bool = False,
    assume_dynamic_dims_match_vec_sizes: bool = False,
    create_named_contraction: bool = False,
) -> VectorizeResult:
    """Upstream's `linalg::vectorize`: vector ops computing `op`, inserted before it; the
    caller replaces `op` by the result's values. Raises `VectorizationFailure` (IR
    unchanged) when a precondition does not hold.

    Scalable sizes are refused: schedir's CPU and GPU targets have no scalable vectors.
    """
    if any(scalable):
        raise VectorizationFailure("scalable vectors are not supported by schedir's targets")
    if is_structured(op):
        return vectorize_linalg(
            rw,
            op,
            vector_sizes,
            nd_extract=nd_extract,
            assume_dynamic_dims_match_vec_sizes=assume_dynamic_dims_match_vec_sizes,
            create_named_contraction=create_named_contraction,
        )
    from schedir.transform.rewrites.vectorization import tensor as vectorization_tensor

    if op.name == "tensor.pad":
        return vectorization_tensor.vectorize_pad(rw, op, vector_sizes)
    if op.name == "tensor.insert_slice":
        return vectorization_tensor.vectorize_insert_slice(rw, op, vector_sizes)
    raise VectorizationFailure(f"'{op.name}' has no vectorization")


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
    from schedir.transform.rewrites.vectorization import body as body_mod

    generic = as_generic(op)
    try:
        block = generic.body.block
        check_linalg_preconditions(op, block, vector_sizes, nd_extract)
        ranges = list(static_loop_ranges(op))
        shape = list(vector_sizes) if vector_sizes else ranges
        if any(s < 0 for s in shape):
            raise VectorizationFailure("dynamic shapes need vector sizes")
        body_mod.check_extract_patterns(op, block, ranges, shape)
        rw.set_insertion_point(op)
        state = VectorizationState(rw, op, shape)
        sizes = ranges
        if assume_dynamic_dims_match_vec_sizes:
            sizes = [v if s < 0 else s for s, v in zip(ranges, shape, strict=True)]
        try:
            state.precompute_sizes(op, sizes)
            body_mod.expand_affine_applies(block)
            if create_named_contraction and op.name in body_mod.CONTRACTION_OPS:
                results = body_mod.vectorize_contraction(state, op, block)
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
    from schedir.transform.rewrites.vectorization.body import vectorize_body

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
    shaped = cast(ShapedType, operand.type)
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


def write_output(
    state: VectorizationState, value: SSAValue, op: Operation, init_index: int
) -> SSAValue | None:
    """Upstream's `buildVectorWrite`: write a yielded value into its init at index 0."""
    operand = dps_inits(op)[init_index]
    shaped = cast(ShapedType, operand.type)
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
    "VectorizationFailure",
    "VectorizationState",
    "VectorizeResult",
    "check_linalg_preconditions",
    "has_vectorization_impl",
    "is_convolution",
    "is_elementwise",
    "is_valid_element_type",
    "is_valid_masked_input_vector",
    "vectorize",
    "vectorize_linalg",
    "write_output",
]
