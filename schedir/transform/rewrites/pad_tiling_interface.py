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

from xdsl.dialects import arith, scf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
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
from schedir.transform.rewrites.canonicalize.affine import is_valid_symbol
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
        # As upstream's builders, operands that are not valid symbols (values defined
        # in loops) are dims; canonicalization then keeps the others as symbols.
        dims = [i for i in used if not is_valid_symbol(self.symbols[i])]
        syms = [i for i in used if is_valid_symbol(self.symbols[i])]
        renumber: dict[int, AffineExpr] = {}
        for position, index in enumerate(dims):
            renumber[index] = AffineDimExpr(position)
        for position, index in enumerate(syms):
            renumber[index] = AffineSymExpr(position)
        replacements = [renumber.get(i, AffineConstantExpr(0)) for i in range(len(self.symbols))]
        compact = expr.replace_dims_and_symbols([], replacements)
        map_ = AffineMap(len(dims), len(syms), (compact,))
        operands = [self.symbols[i] for i in (*dims, *syms)]
        apply = self.add(affine.ApplyOp(operands, AffineMapAttr(map_)))
        return apply.results[0]


# --- bounds (the part of ValueBoundsOpInterface that tile sizes need) ---------------------

_Range = tuple[int | None, int | None]


def _linear(expr: AffineExpr, n: int, num_dims: int) -> tuple[list[int], int] | None:
    """`expr` as coefficients of its `n` operands (dims first) and a constant."""
    if isinstance(expr, AffineConstantExpr):
        return [0] * n, expr.value
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        coefficients = [0] * n
        offset = num_dims if isinstance(expr, AffineSymExpr) else 0
        coefficients[offset + expr.position] = 1
        return coefficients, 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        lhs, rhs = _linear(expr.lhs, n, num_dims), _linear(expr.rhs, n, num_dims)
        if lhs is None or rhs is None:
            return None
        return [a + b for a, b in zip(lhs[0], rhs[0], strict=True)], lhs[1] + rhs[1]
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        for term, factor in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            if isinstance(factor, AffineConstantExpr) and (inner := _linear(term, n, num_dims)):
                return [c * factor.value for c in inner[0]], inner[1] * factor.value
    return None


def _trip_remainder(coefficients: list[int], operands: Sequence[SSAValue]) -> bool:
    """`ub - iv` of an `scf.for` with a positive step: at least 1 inside the loop."""
    terms = [(c, v) for c, v in zip(coefficients, operands, strict=True) if c]
    if len(terms) != 2 or sorted(c for c, _ in terms) != [-1, 1]:
        return False
    ub = next(v for c, v in terms if c == 1)
    iv = next(v for c, v in terms if c == -1)
    loop = iv.block.parent_op() if isinstance(iv, BlockArgument) else None
    if not isinstance(loop, scf.ForOp) or iv is not loop.body.block.args[0]:
        return False
    step = _value_range(loop.step)[0]
    return loop.ub is ub and step is not None and step > 0


def _value_range(value: SSAValue, depth: int = 0) -> _Range:
    """Closed integer bounds of an index value (None: unbounded that way)."""
    if depth > 16:
        return None, None
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data, attr.value.data
    if isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if isinstance(loop, scf.ForOp) and value is loop.body.block.args[0]:
            lb = _value_range(loop.lb, depth + 1)[0]
            ub = _value_range(loop.ub, depth + 1)[1]
            return lb, None if ub is None else ub - 1
        return None, None
    return None, None


def min_ceil_div_is_one(value: SSAValue, divisor: int) -> bool:
    """Upstream's `composeAffineMin` rule: `%m ceildiv c` is 1 when `%m` is an
    `affine.min` with a result `c` and every result is positive (`0 < %m <= c`)."""
    if not isinstance(value, OpResult) or not isinstance(value.op, affine.MinOp):
        return False
    map_ = value.op.properties["map"]
    assert isinstance(map_, AffineMapAttr)
    if AffineConstantExpr(divisor) not in map_.data.results:
        return False
    operands = list(value.op.operands)
    ranges = [_value_range(v) for v in operands]
    for result in map_.data.results:
        lo = _expr_range(result, ranges, map_.data.num_dims)[0]
        flat = _linear(result, len(operands), map_.data.num_dims)
        if flat is not None and _trip_remainder(flat[0], operands):
            lo = 1 + flat[1] if lo is None else max(lo, 1 + flat[1])
        if lo is None or lo < 1:
            return False
    return True


def _expr_range(expr: AffineExpr, ranges: Sequence[_Range], num_dims: int = 0) -> _Range:
    """Interval bounds of `expr` over operand `ranges` (dims first, then symbols)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return ranges[expr.position]
    if isinstance(expr, AffineSymExpr):
        return ranges[num_dims + expr.position]
    if not isinstance(expr, AffineBinaryOpExpr):
        return None, None
    lhs = _expr_range(expr.lhs, ranges, num_dims)
    rhs = _expr_range(expr.rhs, ranges, num_dims)
    if expr.kind == AffineBinaryOpKind.Add:
        lo = None if lhs[0] is None or rhs[0] is None else lhs[0] + rhs[0]
        hi = None if lhs[1] is None or rhs[1] is None else lhs[1] + rhs[1]
        return lo, hi
    if rhs[0] is None or rhs[0] != rhs[1]:
        return None, None
    c = rhs[0]
    if expr.kind == AffineBinaryOpKind.Mul:
        bounds = [None if b is None else b * c for b in lhs]
        return (bounds[0], bounds[1]) if c >= 0 else (bounds[1], bounds[0])
    if c <= 0:
        return None, None
    if expr.kind in (AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.FloorDiv):
        ceil = expr.kind == AffineBinaryOpKind.CeilDiv

        def divide(b: int | None) -> int | None:
            if b is None:
                return None
            return -(-b // c) if ceil else b // c

        return divide(lhs[0]), divide(lhs[1])
    return 0, c - 1


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
                if isinstance(size, AffineSymExpr) and min_ceil_div_is_one(
                    b.symbols[size.position], step
                ):
                    total = AffineConstantExpr(step)
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
