"""Pad a structured op to (multiples of) sizes of its iteration domain (upstream's
`linalg::rewriteAsPaddedOp` for TilingInterface ops, Linalg/Transforms/
PadTilingInterface.cpp).

    %r = linalg.matmul ins(%a, %b : tensor<?x12xf32>, tensor<12x25xf32>)
                       outs(%c : tensor<?x25xf32>)
  padding_sizes [8]:
    %pa = tensor.pad %a high[8 - dim(%a, 0), 0]  : tensor<?x12xf32> to tensor<8x12xf32>
    %pb = tensor.pad %b high[0, 0]               : ... to tensor<12x25xf32>
    %pc = tensor.pad %c high[8 - dim(%c, 0), 0]  : ... to tensor<8x25xf32>
    %p = linalg.matmul ins(%pa, %pb) outs(%pc) -> tensor<8x25xf32>
    %r = tensor.extract_slice %p[0, 0] [dim(%c, 0), 25] [1, 1]

Every operand dimension is padded to the largest index its indexing expression reaches
when each padded loop runs to its padding size (or to the next multiple of it with
`pad_to_multiple_of`), plus one: for `d0 + d1` that is `(P0 - 1) + (P1 - 1) + 1`; a
dimension no padded loop reaches keeps its size. The slices of the results have the
sizes of the original results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, indexing_maps
from schedir.dialects.tensor import ExtractSliceOp, PadOp
from schedir.transform.rewrites.padding import dynamic_size
from schedir.transform.rewrites.rewriter import constant_name


class PadTilingInterfaceFailure(Exception):
    """The op cannot be padded (memref operands, a missing padding value)."""


@dataclass(frozen=True)
class Options:
    """Upstream's `PadTilingInterfaceOptions`."""

    padding_sizes: tuple[int, ...]
    pad_to_multiple_of: bool = False
    padding_values: tuple[Attribute, ...] = ()


@dataclass(frozen=True)
class Result:
    """The padded clone and the `tensor.pad` ops made."""

    padded: Operation
    pads: tuple[Operation, ...]


# A size: a constant, or an affine expression over symbols (index values).
_Size = int | AffineExpr


class _Builder:
    """Inserts new ops in order after the op being padded, with its location."""

    def __init__(self, rewriter: PatternRewriter, after: Operation) -> None:
        self.rewriter = rewriter
        self.anchor = after
        self.location = after.location
        self.symbols: list[SSAValue] = []

    def add(self, op: Operation) -> Operation:
        op.location = self.location
        if isinstance(op, arith.ConstantOp):
            op.results[0].name_hint = constant_name(op.value)
        self.rewriter.insert(op, InsertPoint.after(self.anchor))
        self.anchor = op
        return op

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType()))).results[0]

    def dim(self, value: SSAValue, position: int) -> _Size:
        """Upstream's `createFoldedDimOp`: a static size, or a symbol for a `tensor.dim`."""
        assert isinstance(value.type, TensorType)
        size = value.type.get_shape()[position]
        if size != DYNAMIC_INDEX:
            return size
        # `tensor.dim` folds to the size a slice or an empty tensor was made with.
        dim = dynamic_size(value, position)
        if dim is None:
            index = self.index(position)
            dim = self.add(xtensor.DimOp(value, index)).results[0]
        if dim not in self.symbols:
            self.symbols.append(dim)
        return AffineSymExpr(self.symbols.index(dim))

    def value(self, size: _Size) -> SSAValue | int:
        """A constant, or an `affine.apply` of the expression (its used symbols only)."""
        if isinstance(size, int):
            return size
        expr = size
        if isinstance(expr, AffineConstantExpr):
            return expr.value
        if isinstance(expr, AffineSymExpr):
            return self.symbols[expr.position]
        used = sorted(_symbols(expr))
        renumber = {old: AffineSymExpr(new) for new, old in enumerate(used)}
        compact = expr.replace_dims_and_symbols(
            [], [renumber.get(i, AffineConstantExpr(0)) for i in range(len(self.symbols))]
        )
        map_ = AffineMap(0, len(used), (compact,))
        apply = self.add(affine.ApplyOp([self.symbols[i] for i in used], AffineMapAttr(map_)))
        return apply.results[0]


def _symbols(expr: AffineExpr) -> set[int]:
    if isinstance(expr, AffineSymExpr):
        return {expr.position}
    if isinstance(expr, AffineBinaryOpExpr):
        return _symbols(expr.lhs) | _symbols(expr.rhs)
    return set()


def _expr(size: _Size) -> AffineExpr:
    return AffineConstantExpr(size) if isinstance(size, int) else size


def _fold(expr: AffineExpr) -> _Size:
    simplified = expr
    if isinstance(simplified, AffineConstantExpr):
        return simplified.value
    return simplified


def _loop_sizes(
    b: _Builder, operands: Sequence[SSAValue], maps: Sequence[AffineMap]
) -> list[_Size]:
    """The iteration domain sizes: the size of the first operand dim each loop indexes
    alone (upstream's `getIterationDomain` of structured ops)."""
    num_loops = maps[0].num_dims if maps else 0
    sizes: list[_Size | None] = [None] * num_loops
    for operand, map_ in zip(operands, maps, strict=True):
        if not isinstance(operand.type, TensorType):
            continue
        for position, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = b.dim(operand, position)
    if any(s is None for s in sizes):
        raise PadTilingInterfaceFailure("loop size not defined by an operand")
    return [s for s in sizes if s is not None]


def _multiplier(expr: AffineExpr) -> int:
    """Upstream's `extractConstantMultiplier`: `c` of `d * c` or `c * d`, else 1."""
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        if isinstance(expr.lhs, AffineDimExpr) and isinstance(expr.rhs, AffineConstantExpr):
            return expr.rhs.value
        if isinstance(expr.lhs, AffineConstantExpr) and isinstance(expr.rhs, AffineDimExpr):
            return expr.lhs.value
    return 1


def _project(expr: AffineExpr, keep: int, num_dims: int) -> AffineExpr:
    """`projectDims` of every dim but `keep` (set to 0), `keep` renumbered to d0."""
    dims = [AffineDimExpr(0) if i == keep else AffineConstantExpr(0) for i in range(num_dims)]
    return expr.replace_dims_and_symbols(dims, [])


def padded_shape(
    b: _Builder,
    operand: SSAValue,
    map_: AffineMap,
    loop_sizes: Sequence[_Size],
    options: Options,
) -> list[_Size]:
    """Upstream's `computePaddedShape`."""
    assert isinstance(operand.type, TensorType)
    padding: list[_Size] = []
    for index, loop_size in enumerate(loop_sizes):
        size = options.padding_sizes[index] if index < len(options.padding_sizes) else 0
        if size == 0:
            padding.append(1 if options.pad_to_multiple_of else loop_size)
        else:
            padding.append(size)
    shape: list[_Size] = []
    for position, expr in enumerate(map_.results):
        terms: list[AffineExpr] = []
        for dim in range(len(padding)):
            if dim not in expr.used_dims():
                continue
            projected = _project(expr, dim, map_.num_dims)
            if options.pad_to_multiple_of:
                size = _expr(loop_sizes[dim])
                step = padding[dim]
                assert isinstance(step, int)
                total = size.ceil_div(step) * step
            else:
                total = _expr(padding[dim])
            reached = projected.replace_dims_and_symbols([total], [])
            terms.append(reached - _multiplier(projected))
        if not terms:
            shape.append(b.dim(operand, position))
            continue
        summed = terms[0]
        for term in terms[1:]:
            summed = summed + term
        shape.append(_fold(summed + 1))
    return shape


def _pad(b: _Builder, source: SSAValue, shape: Sequence[_Size], padding: SSAValue) -> Operation:
    """A `tensor.pad` of `source` at the high end to `shape`."""
    assert isinstance(source.type, TensorType)
    static: list[int] = []
    for size in shape:
        value = b.value(size)
        static.append(value if isinstance(value, int) else DYNAMIC_INDEX)
    high_static: list[int] = []
    high_dynamic: list[SSAValue] = []
    for position, size in enumerate(shape):
        have = b.dim(source, position)
        high = b.value(_fold(_expr(size) - _expr(have)))
        if isinstance(high, int):
            high_static.append(high)
        else:
            high_static.append(DYNAMIC_INDEX)
            high_dynamic.append(high)
    block = Block(arg_types=[IndexType()] * len(shape))
    block.add_op(xtensor.YieldOp(padding))
    result_type = TensorType(source.type.get_element_type(), static)
    pad = PadOp(
        source, [], high_dynamic, Region(block), [0] * len(shape), high_static, result_type, None
    )
    return b.add(pad)


def pad_tiling_interface(rewriter: PatternRewriter, op: Operation, options: Options) -> Result:
    """Rewrite structured op `op` on padded operands and replace its results with slices
    of the padded results (upstream's `rewriteAsPaddedOp`)."""
    operands = [*dps_inputs(op), *dps_inits(op)]
    if any(not isinstance(v.type, TensorType) for v in dps_inits(op)):
        raise PadTilingInterfaceFailure("expected operation on tensors")
    maps = indexing_maps(op)
    b = _Builder(rewriter, op)
    loop_sizes = _loop_sizes(b, operands, maps)
    values = list(options.padding_values)
    new_operands: list[SSAValue] = []
    pads: list[Operation] = []
    for number, (operand, map_) in enumerate(zip(operands, maps, strict=True)):
        if not isinstance(operand.type, TensorType):
            new_operands.append(operand)
            continue
        if number >= len(values):
            raise PadTilingInterfaceFailure("no padding value specified")
        shape = padded_shape(b, operand, map_, loop_sizes, options)
        constant = b.add(arith.ConstantOp(values[number]))  # pyright: ignore[reportArgumentType]  # a typed padding attribute; xDSL's ConstantOp annotation is narrower
        pad = _pad(b, operand, shape, constant.results[0])
        pads.append(pad)
        new_operands.append(pad.results[0])
    num_inputs = len(dps_inputs(op))
    # Upstream reifies the result shapes (with dims of their own) before the clone.
    result_loop_sizes = _loop_sizes(b, operands, maps)
    result_sizes: list[list[SSAValue | int]] = []
    for init, map_ in zip(dps_inits(op), maps[num_inputs:], strict=True):
        assert isinstance(init.type, TensorType)
        sizes: list[SSAValue | int] = []
        for position, size in enumerate(init.type.get_shape()):
            if size != DYNAMIC_INDEX:
                sizes.append(size)
                continue
            expr = map_.results[position].replace_dims_and_symbols(
                [_expr(s) for s in result_loop_sizes], []
            )
            sizes.append(b.value(_fold(expr)))
        result_sizes.append(sizes)
    padded = type(op).create(
        operands=new_operands,
        result_types=[v.type for v in new_operands[num_inputs:]],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )
    b.add(padded)
    slices: list[SSAValue] = []
    for result, sizes in zip(padded.results, result_sizes, strict=True):
        assert isinstance(result.type, TensorType)
        rank = len(sizes)
        slice_type = TensorType(
            result.type.get_element_type(),
            [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes],
        )
        slice_op = ExtractSliceOp(result, [0] * rank, sizes, [1] * rank, slice_type)
        slices.append(b.add(slice_op).results[0])
    rewriter.replace(op, [], slices)
    return Result(padded, tuple(pads))


__all__ = ["Options", "PadTilingInterfaceFailure", "Result", "pad_tiling_interface", "padded_shape"]
