"""What every vectorization shares (upstream Vectorization.cpp): the failure that leaves
the IR unchanged, the result record, the element types and vector sizes vectors take, and
`VectorizationState`, the canonical vector shape of one op with the masks its transfers
and reductions need.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
    i1,
)
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, indexing_maps
from schedir.dialects.vector.attributes import vec
from schedir.dialects.vector.masks import expected_mask_type
from schedir.transform.rewrites.constants import materialize_constant
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.folders import fold_broadcast
from schedir.transform.rewrites.vector.utils import mask_operation


class VectorizationFailure(Exception):
    """The op cannot be vectorized (upstream's `failure()`); the IR is unchanged."""


@dataclass(frozen=True)
class VectorizeResult:
    """The values replacing the vectorized op's results (empty on buffers)."""

    replacements: tuple[SSAValue, ...]


def is_valid_element_type(t: Attribute) -> bool:
    """Upstream's `VectorType::isValidElementType`: integers, index and floats."""
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
        """A new `arith.constant <value> : index`."""
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
        bounds: list[SSAValue | Operation] = list(m.apply_permutation(self.value_sizes))
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
        if isinstance(folded, list):
            new.erase()
            replacement = folded[0]
            if isinstance(replacement, SSAValue):
                return replacement
            const = materialize_constant(self.rw, replacement, target, self.op.location)
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


__all__ = [
    "VectorizationFailure",
    "VectorizationState",
    "VectorizeResult",
    "is_valid_element_type",
    "is_valid_masked_input_vector",
]
