"""Read-only analyses of structured (linalg) payload ops behind the `match.structured`
predicates. Upstream keeps them in LinalgInterfaces.cpp (isContractionBody,
inferContractionDims, inferConvolutionDims), Linalg/Utils (isElementwise) and
SliceAnalysis.cpp (matchReduction); they read the payload only.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
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
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, MemoryEffect, is_side_effect_free

from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
)

# they read the payload only.

_SCALAR_BODY_OPS = frozenset(
    {
        "arith.constant",
        "func.constant",
        "tensor.extract",
        "linalg.yield",
        "linalg.index",
        "affine.apply",
    }
)
"""Ops hasOnlyScalarElementwiseOp accepts besides the ElementwiseMappable ones."""

_EFFECT_FREE_DIALECTS = frozenset({"arith", "math"})
"""Dialects whose ops are all memory-effect-free, and (but arith.constant) elementwise
mappable, upstream."""


def type_text(type_: Attribute) -> str:
    """A type as MLIR prints it (`tensor<?xindex>`), for messages."""
    stream = io.StringIO()
    Printer(stream=stream).print_attribute(type_)
    return stream.getvalue()


def is_permutation(map_: AffineMap) -> bool:
    """Upstream's `AffineMap::isPermutation`."""
    return map_.num_dims == len(map_.results) and map_.is_projected_permutation()


def _is_pure(op: Operation) -> bool:
    """Whether `op` declares memory effects and has none (MemoryEffectOpInterface)."""
    # Upstream declares every arith and math op effect-free; xDSL 0.74 misses the trait
    # on a few of them (arith.extsi, arith.remui).
    if op.name.split(".", 1)[0] in _EFFECT_FREE_DIALECTS:
        return True
    return bool(op.get_traits_of_type(MemoryEffect)) and is_side_effect_free(op)


def _skip_unary(value: SSAValue) -> SSAValue:
    """Upstream's getSourceSkipUnary: up through single-operand side-effect-free ops."""
    while isinstance(value, OpResult) and len(value.op.operands) == 1 and _is_pure(value.op):
        value = value.op.operands[0]
    return value


def _defining_op(value: SSAValue) -> Operation | None:
    return value.op if isinstance(value, OpResult) else None


def contraction_body_error(block: Block, elementwise: str, reduction: str) -> str | None:
    """Upstream's isContractionBody for ops named `elementwise` and `reduction`: None when
    `block` computes `u5(u1(out) <red> u2(u3(a) <elem> u4(b)))`, otherwise the reason."""
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator):
        return "no terminator in the block"
    if len(block.args) != 3:
        return "expected block with 3 arguments"
    if len(last.operands) != 1:
        return "expected terminator with 1 operand"
    reduction_op = _defining_op(_skip_unary(last.operands[0]))
    if reduction_op is None or len(reduction_op.results) != 1 or len(reduction_op.operands) != 2:
        return "expected reduction op to be binary"
    lhs = _skip_unary(reduction_op.operands[0])
    rhs = _skip_unary(reduction_op.operands[1])
    if block.args[2] not in (lhs, rhs):
        return (
            "expected reduction to take block argument #2 as one of the operands "
            "(modulo unary casts)"
        )
    contributed = _skip_unary(rhs if isinstance(lhs, BlockArgument) else lhs)
    elementwise_op = _defining_op(contributed)
    if (
        elementwise_op is None
        or len(elementwise_op.results) != 1
        or len(elementwise_op.operands) != 2
    ):
        return "expected elementwise op to be binary"
    if elementwise_op.name != elementwise or reduction_op.name != reduction:
        return "expected reduction/elementwise op kind not satisfied"
    operands = [_skip_unary(v) for v in elementwise_op.operands]
    if operands in ([block.args[0], block.args[1]], [block.args[1], block.args[0]]):
        return None
    return "expected elementwise op to apply to block arguments (modulo unary casts)"


def match_reduction(op: Operation, position: int) -> list[Operation] | None:
    """Upstream's matchReduction on the init block arguments: the combiner ops (exactly
    one) reducing init `position`, or None when the body is not such a reduction."""
    block = op.regions[0].block
    carried = list(block.args[len(block.args) - len(dps_inits(op)) :])
    if not 0 <= position < len(carried):
        return None  # upstream asserts
    value = carried[position]
    uses = list(value.uses)
    if len(uses) != 1:
        return None
    combiner = uses[0].operation
    if len(combiner.operands) != 2:
        return None
    reduced = combiner.operands[1] if combiner.operands[0] is value else combiner.operands[0]
    # Upstream's backward slice stops at the structured op, so a reduced value depends on
    # the carried values only by being one of them.
    if reduced in carried:
        return None
    combiners: list[Operation] = []
    while not combiner.has_trait(IsTerminator):
        users = list(combiner.results[0].uses) if len(combiner.results) == 1 else []
        if not _is_pure(combiner) or len(users) != 1 or combiner.parent_op() is not op:
            return None
        combiners.append(combiner)
        combiner = users[0].operation
    if len(combiners) != 1 or combiner.operands[position] is not combiners[-1].results[0]:
        return None
    return combiners


def is_elementwise(op: Operation) -> bool:
    """Upstream's linalg::isElementwise: all loops parallel, projected-permutation maps
    (zeros allowed), permutation init maps and a scalar elementwise body."""
    if any(kind != "parallel" for kind in iterator_types(op)):
        return False
    maps = indexing_maps(op)
    if not all(m.is_projected_permutation(allow_zero_in_results=True) for m in maps):
        return False
    if not all(is_permutation(m) for m in maps[len(dps_inputs(op)) :]):
        return False
    region = op.regions[0]
    if len(region.blocks) != 1:
        return False
    for body_op in region.block.ops:
        dialect = body_op.name.split(".", 1)[0]
        if body_op.name not in _SCALAR_BODY_OPS and dialect not in _EFFECT_FREE_DIALECTS:
            return False
        if not all(isinstance(t, IntegerType | IndexType | AnyFloat) for t in body_op.result_types):
            return False
    return True


def _permutation_dims(map_: AffineMap, iterators: Sequence[str], kind: str) -> set[int]:
    """Upstream's findPermutationsIndexingOperand: loops of `kind` that are a result of
    `map_` on their own and appear in no other result."""
    dims: set[int] = set()
    for expr in map_.results:
        if (
            isinstance(expr, AffineDimExpr)
            and iterators[expr.position] == kind
            and sum(expr.position in e.used_dims() for e in map_.results) == 1
        ):
            dims.add(expr.position)
    return dims


def infer_contraction_dims(op: Operation) -> tuple[list[int], ...] | None:
    """Upstream's inferContractionDims: sorted batch, m, n, k loops of a 2-input 1-init op."""
    if len(dps_inputs(op)) != 2 or len(dps_inits(op)) != 1:
        return None
    maps, iterators = indexing_maps(op), iterator_types(op)
    a, b, c = (_permutation_dims(m, iterators, "parallel") for m in maps)
    ra, rb = (_permutation_dims(m, iterators, "reduction") for m in maps[:2])
    return (sorted(a & b & c), sorted((a & c) - b), sorted((b & c) - a), sorted(ra & rb))


@dataclass
class _ConvAccessWalker:
    """Upstream's ConvAccessExprWalker over the results of the input map: plain dims are
    unconvolved, `d0 (* c)? + d1 (* c)?` pairs convolved (with their coefficient)."""

    convolved: set[int] = field(default_factory=set[int])
    unconvolved: set[int] = field(default_factory=set[int])
    pairs: dict[int, int] = field(default_factory=dict[int, int])
    coefficients: dict[int, AffineExpr] = field(default_factory=dict[int, AffineExpr])

    def visit(self, expr: AffineExpr) -> None:
        if isinstance(expr, AffineDimExpr):
            if expr.position not in self.unconvolved | self.convolved:
                self.unconvolved.add(expr.position)
            return
        if not isinstance(expr, AffineBinaryOpExpr) or expr.kind != AffineBinaryOpKind.Add:
            return
        # As upstream, both terms are recorded even when the other one does not fit.
        lhs = self._term(expr.lhs)
        rhs = self._term(expr.rhs)
        if lhs is not None and rhs is not None:
            self.pairs[lhs], self.pairs[rhs] = rhs, lhs

    def _term(self, expr: AffineExpr) -> int | None:
        """getDimExprOrMulExprDimPos: `d` (coefficient 1) or `d * c` / `d * s`."""
        if isinstance(expr, AffineDimExpr):
            dim, coefficient = expr.position, AffineConstantExpr(1)
        elif isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
            sides = (expr.lhs, expr.rhs)
            # A symbol factor is preferred over a constant one, as upstream.
            factor = next((s for s in sides if isinstance(s, AffineSymExpr)), None)
            if factor is None:
                factor = next((s for s in sides if isinstance(s, AffineConstantExpr)), None)
            dim_expr = next((s for s in sides if isinstance(s, AffineDimExpr)), None)
            if factor is None or dim_expr is None:
                return None
            dim, coefficient = dim_expr.position, factor
        else:
            return None
        if dim in self.convolved | self.unconvolved:
            return None
        self.coefficients[dim] = coefficient
        self.convolved.add(dim)
        return dim

    def clear_multi_use_dims(self, map_: AffineMap) -> None:
        """Drop dims used by several results of the input map (and their pair)."""
        for dim in range(map_.num_dims):
            if sum(dim in e.used_dims() for e in map_.results) <= 1:
                continue
            self.convolved.discard(dim)
            self.unconvolved.discard(dim)
            paired = self.pairs.pop(dim, None)
            if paired is not None:
                self.convolved.discard(paired)
                self.unconvolved.discard(paired)
                self.coefficients.pop(paired, None)
                self.pairs.pop(paired, None)


def _window_values(op: Operation, name: str) -> list[int] | None:
    """An integer elements `strides`/`dilations` attribute carried by the op, if any."""
    attr = op.properties.get(name, op.attributes.get(name))
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(
        attr.get_element_type(), IntegerType | IndexType
    ):
        return [int(v) for v in attr.get_values()]
    return None


def _coefficients(walker: _ConvAccessWalker, dims: Sequence[int]) -> list[int] | None:
    """The constant coefficients of convolved `dims`; None if one is symbolic or unknown."""
    values = [walker.coefficients.get(d) for d in dims]
    if not all(isinstance(v, AffineConstantExpr) for v in values):
        return None
    return [cast(AffineConstantExpr, v).value for v in values]


def infer_convolution_dims(op: Operation) -> tuple[list[int], ...] | None:
    """Upstream's inferConvolutionDims: sorted batch, output image and output channel
    loops, the filter loop paired with each output image loop, sorted input channel and
    depth loops, then strides (of the output image loops) and dilations (of the filter
    loops)."""
    if len(dps_inputs(op)) != 2 or len(dps_inits(op)) != 1:
        return None
    maps, iterators = indexing_maps(op), iterator_types(op)
    walker = _ConvAccessWalker()
    for expr in maps[0].results:
        walker.visit(expr)
    walker.clear_multi_use_dims(maps[0])
    filter_dims = _permutation_dims(maps[1], iterators, "parallel")
    output_dims = _permutation_dims(maps[2], iterators, "parallel")
    filter_reduced = _permutation_dims(maps[1], iterators, "reduction")
    output_image = sorted(walker.convolved & output_dims)
    if not output_image:
        return None
    # LLVM 24 pairs each output image loop with the loop added to it in the input map; an
    # unpaired one reads DenseMap::lookup's default, loop 0.
    filter_loop = [walker.pairs.get(d, 0) for d in output_image]
    # The op's own attributes win; otherwise the coefficients in the input map.
    strides = _window_values(op, "strides")
    if strides is None:
        strides = _coefficients(walker, output_image)
    dilations = _window_values(op, "dilations")
    if dilations is None:
        dilations = _coefficients(walker, filter_loop)
    if strides is None or dilations is None:
        return None  # upstream asserts on symbolic or missing strides and dilations
    return (
        sorted((walker.unconvolved & output_dims) - filter_dims),
        output_image,
        sorted((filter_dims & output_dims) - walker.unconvolved),
        filter_loop,
        sorted(walker.unconvolved & filter_reduced),
        sorted(filter_dims & output_dims & walker.unconvolved),
        strides,
        dilations,
    )


__all__ = [
    "contraction_body_error",
    "infer_contraction_dims",
    "infer_convolution_dims",
    "is_elementwise",
    "is_permutation",
    "match_reduction",
    "type_text",
]
