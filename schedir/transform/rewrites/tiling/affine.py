"""Index arithmetic for tiling: composed and folded affine expressions, as upstream builds them.

Tiling computes offsets and sizes that are either constants or index values. Upstream
represents them as `OpFoldResult`s and builds every computation with
`makeComposedFoldedAffineApply/Min/Max`: the operands are composed through the
`affine.apply` ops that define them and through constants, the map is simplified, and an
op is created only when the result is neither a constant nor one of the operands.

Here an `Ofr` is an `int` or an index `SSAValue`, and `Aff` is an affine expression over
index values that has not been materialized yet: arithmetic on `Aff` is free, and
`IndexBuilder.apply` / `.min` / `.max` create at most one op. Unlike upstream, the
intermediate steps (`size - 1`, `ub - offset`, ...) never become dead `affine.apply` ops.
Operands that are valid affine symbols (function arguments, values defined at function
level) become map symbols, the others (loop induction variables) map dimensions, as
upstream's map canonicalization orders them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass

from xdsl.dialects import affine, arith, func
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, LocationAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
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

from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.transform.rewrites.rewriter import constant_name

Ofr = int | SSAValue
"""An index that is a constant or a value (upstream's `OpFoldResult`)."""


def constant_of(value: Ofr) -> int | None:
    """The constant an index stands for: the int itself or an `arith.constant` of index."""
    if isinstance(value, int):
        return value
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            return attr.value.data
    return None


def is_zero(value: Ofr) -> bool:
    return constant_of(value) == 0


@dataclass(frozen=True)
class Aff:
    """An affine expression whose dimension `d<i>` stands for the index value `leaves[i]`."""

    expr: AffineExpr
    leaves: tuple[SSAValue, ...] = ()

    @staticmethod
    def const(value: int) -> Aff:
        return Aff(AffineExpr.constant(value))

    @staticmethod
    def opaque(value: SSAValue) -> Aff:
        """`value` as a leaf, without looking through the op that defines it."""
        return Aff(AffineExpr.dimension(0), (value,))

    @property
    def constant(self) -> int | None:
        return self.expr.value if isinstance(self.expr, AffineConstantExpr) else None

    def _merged(self, other: Aff) -> tuple[AffineExpr, AffineExpr, tuple[SSAValue, ...]]:
        leaves = list(self.leaves)
        index = {id(v): i for i, v in enumerate(leaves)}
        remap: list[AffineExpr] = []
        for leaf in other.leaves:
            if id(leaf) not in index:
                index[id(leaf)] = len(leaves)
                leaves.append(leaf)
            remap.append(AffineExpr.dimension(index[id(leaf)]))
        return self.expr, other.expr.replace_dims_and_symbols(remap, ()), tuple(leaves)

    def __add__(self, other: Aff | int) -> Aff:
        other = _lift(other)
        lhs, rhs, leaves = self._merged(other)
        return Aff(lhs + rhs, leaves)._simplified()

    def __sub__(self, other: Aff | int) -> Aff:
        other = _lift(other)
        lhs, rhs, leaves = self._merged(other)
        return Aff(lhs - rhs, leaves)._simplified()

    def __mul__(self, other: Aff | int) -> Aff:
        """Product; one side must be constant (a semi-affine product raises ValueError)."""
        other = _lift(other)
        if self.constant is None and other.constant is None:
            raise ValueError("semi-affine product")
        lhs, rhs, leaves = self._merged(other)
        return Aff(lhs * rhs, leaves)._simplified()

    def ceildiv(self, other: Aff | int) -> Aff:
        """Ceiling division by a constant (a division by a value raises ValueError)."""
        other = _lift(other)
        if other.constant is None:
            raise ValueError("semi-affine division")
        if other.constant == 1:
            return self
        if self.constant is not None:
            return Aff.const(-(-self.constant // other.constant))
        return Aff(self.expr.ceil_div(other.constant), self.leaves)._simplified()

    def _simplified(self) -> Aff:
        expr = self.expr
        if expr.is_pure_affine():
            with suppress(NotImplementedError, ZeroDivisionError):
                expr = expr.simplify(len(self.leaves), 0)
        return Aff(expr, self.leaves)


def _lift(value: Aff | int) -> Aff:
    return Aff.const(value) if isinstance(value, int) else value


def is_valid_symbol(value: SSAValue) -> bool:
    """Upstream's `isValidSymbol` for the IR tiling builds: defined at function level."""
    if isinstance(value, OpResult):
        if isinstance(value.op, arith.ConstantOp):
            return True
        parent = value.op.parent_op()
    elif isinstance(value, BlockArgument):
        parent = value.block.parent_op()
    else:
        return False
    return isinstance(parent, func.FuncOp | ModuleOp)


def compose(value: Ofr) -> Aff:
    """`value` as an expression, composed through constants and `affine.apply` producers."""
    if isinstance(value, int):
        return Aff.const(value)
    constant = constant_of(value)
    if constant is not None:
        return Aff.const(constant)
    if isinstance(value, OpResult) and isinstance(value.op, affine.ApplyOp):
        apply_op = value.op
        map_: AffineMap = apply_op.properties["map"].data  # type: ignore[union-attr]  # the verified op holds that property with this attribute kind
        operands = [compose(o) for o in apply_op.operands]
        try:
            return substitute(map_.results[0], map_.num_dims, operands)
        except ValueError:
            pass
    return Aff.opaque(value)


def substitute(expr: AffineExpr, num_dims: int, operands: Sequence[Aff]) -> Aff:
    """`expr` (dims then symbols of a map) with each operand expression substituted.

    Raises ValueError when the result would be semi-affine (xDSL cannot represent it).
    """
    if isinstance(expr, AffineConstantExpr):
        return Aff.const(expr.value)
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[num_dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = substitute(expr.lhs, num_dims, operands)
    rhs = substitute(expr.rhs, num_dims, operands)
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if expr.kind == AffineBinaryOpKind.Mul:
        return lhs * rhs
    if rhs.constant is None or rhs.constant <= 0:
        raise ValueError("semi-affine division")
    if expr.kind == AffineBinaryOpKind.CeilDiv:
        return lhs.ceildiv(rhs)
    if lhs.constant is not None:
        if expr.kind == AffineBinaryOpKind.FloorDiv:
            return Aff.const(lhs.constant // rhs.constant)
        return Aff.const(lhs.constant % rhs.constant)
    binary = (
        lhs.expr // rhs.constant
        if expr.kind == AffineBinaryOpKind.FloorDiv
        else lhs.expr % rhs.constant
    )
    return Aff(binary, lhs.leaves)._simplified()


def _as_map(affs: Sequence[Aff]) -> tuple[AffineMap, list[SSAValue]]:
    """One map for several expressions over their leaves: dims first, then symbols.

    Leaves that no expression uses are dropped; valid symbols become map symbols.
    """
    merged = Aff.const(0)
    exprs: list[AffineExpr] = []
    for aff in affs:
        _, expr, leaves = merged._merged(aff)
        merged = Aff(merged.expr, leaves)
        exprs.append(expr)
    used: set[int] = set()
    for expr in exprs:
        used |= expr.used_dims()
    dims = [
        i for i in range(len(merged.leaves)) if i in used and not is_valid_symbol(merged.leaves[i])
    ]
    syms = [i for i in range(len(merged.leaves)) if i in used and is_valid_symbol(merged.leaves[i])]
    remap: list[AffineExpr] = [AffineExpr.constant(0)] * len(merged.leaves)
    for position, leaf in enumerate(dims):
        remap[leaf] = AffineExpr.dimension(position)
    for position, leaf in enumerate(syms):
        remap[leaf] = AffineExpr.symbol(position)
    results = tuple(e.replace_dims_and_symbols(remap, ()) for e in exprs)
    operands = [merged.leaves[i] for i in dims] + [merged.leaves[i] for i in syms]
    return AffineMap(len(dims), len(syms), results), operands


class IndexBuilder:
    """Creates index computations at the rewriter's insertion point, with one location.

    Every op created through it (and through `insert`) gets `location`: tiling reports
    everything it generates at the op being tiled, as upstream does.
    """

    def __init__(self, rewriter: PatternRewriter, location: LocationAttr) -> None:
        self.rewriter = rewriter
        self.location = location

    def insert(self, op: Operation) -> Operation:
        op.location = self.location
        self.rewriter.insert(op)
        return op

    def constant(self, value: int) -> SSAValue:
        """A new `arith.constant` of index type (upstream does not reuse constants), named
        as upstream's printer names it (`%c4`: tests match names by prefix)."""
        attr = IntegerAttr(value, IndexType())
        result = self.insert(arith.ConstantOp(attr)).results[0]
        result.name_hint = constant_name(attr)
        return result

    def value(self, ofr: Ofr) -> SSAValue:
        """`ofr` as a value: constants materialize as `arith.constant`."""
        return self.constant(ofr) if isinstance(ofr, int) else ofr

    def apply(self, aff: Aff) -> Ofr:
        """Fold `aff` to a constant or one of its leaves, or create an `affine.apply`."""
        if aff.constant is not None:
            return aff.constant
        if isinstance(aff.expr, AffineDimExpr):
            return aff.leaves[aff.expr.position]
        map_, operands = _as_map([aff])
        return self.insert(ApplyOp(operands, AffineMapAttr(map_))).results[0]

    def mul(self, lhs: Aff, rhs: Aff) -> Aff:
        """`lhs * rhs`; a product of two values (semi-affine, which xDSL's affine maps
        cannot hold) is computed with `arith.muli` instead of upstream's affine.apply."""
        try:
            return lhs * rhs
        except ValueError:
            product = arith.MuliOp(self.value(self.apply(lhs)), self.value(self.apply(rhs)))
            return Aff.opaque(self.insert(product).results[0])

    def ceildiv(self, lhs: Aff, rhs: Aff) -> Aff:
        """`lhs ceildiv rhs`; by a value it is `arith.ceildivsi` (see `mul`)."""
        try:
            return lhs.ceildiv(rhs)
        except ValueError:
            quotient = arith.CeilDivSIOp(self.value(self.apply(lhs)), self.value(self.apply(rhs)))
            return Aff.opaque(self.insert(quotient).results[0])

    def min(self, affs: Sequence[Aff]) -> Ofr:
        return self._min_max(affs, MinOp, min)

    def max(self, affs: Sequence[Aff]) -> Ofr:
        return self._min_max(affs, MaxOp, max)

    def _min_max(
        self,
        affs: Sequence[Aff],
        op_class: type[MinOp | MaxOp],
        fold: Callable[[Iterable[int]], int],
    ) -> Ofr:
        unique: list[Aff] = []
        for aff in affs:
            if all(aff != seen for seen in unique):
                unique.append(aff)
        constants = [a.constant for a in unique if a.constant is not None]
        if len(constants) == len(unique):
            return fold(constants)
        if len(unique) == 1:
            return self.apply(unique[0])
        map_, operands = _as_map(unique)
        return self.insert(op_class(operands, AffineMapAttr(map_))).results[0]


__all__ = [
    "Aff",
    "IndexBuilder",
    "Ofr",
    "compose",
    "constant_of",
    "is_valid_symbol",
    "is_zero",
    "substitute",
]
