"""`lower-affine`: affine.apply/min/max/load/store/for/yield to arith, memref and scf.

    %n = affine.min affine_map<(d0) -> (16, -d0 + 50)>(%i)
becomes
    %c16 = arith.constant 16 : index
    %c-1 = arith.constant -1 : index
    %m = arith.muli %i, %c-1 : index
    %c50 = arith.constant 50 : index
    %s = arith.addi %m, %c50 : index
    %n = arith.minsi %c16, %s : index

Affine semantics are kept exactly: `floordiv` rounds toward negative infinity,
`ceildiv` toward positive infinity, and `mod` is never negative (upstream's
AffineToStandard expansion: `remsi` then add the divisor when the remainder is negative).
xDSL's own lower-affine lacks min/max, symbols in load/store maps, and the `mod` fix.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter

from schedir.diagnostics import LoweringError
from schedir.dialects.affine import MaxOp as AffineMaxOp
from schedir.dialects.syntax import op_location


class _Emitter:
    """Builds the arith ops of affine expressions before an op, sharing constants."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []
        self._constants: dict[int, SSAValue] = {}

    def constant(self, value: int) -> SSAValue:
        if value not in self._constants:
            op = arith.ConstantOp(IntegerAttr(value, IndexType()))
            self.ops.append(op)
            self._constants[value] = op.result
        return self._constants[value]

    def emit(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def expr(
        self, expr: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue]
    ) -> SSAValue:
        match expr:
            case AffineConstantExpr():
                return self.constant(expr.value)
            case AffineDimExpr():
                return dims[expr.position]
            case AffineSymExpr():
                return syms[expr.position]
            case AffineBinaryOpExpr():
                lhs = self.expr(expr.lhs, dims, syms)
                rhs = self.expr(expr.rhs, dims, syms)
                match expr.kind:
                    case AffineBinaryOpKind.Add:
                        return self.emit(arith.AddiOp(lhs, rhs))
                    case AffineBinaryOpKind.Mul:
                        return self.emit(arith.MuliOp(lhs, rhs))
                    case AffineBinaryOpKind.FloorDiv:
                        return self.emit(arith.FloorDivSIOp(lhs, rhs))
                    case AffineBinaryOpKind.CeilDiv:
                        return self.emit(arith.CeilDivSIOp(lhs, rhs))
                    case AffineBinaryOpKind.Mod:
                        # The divisor of an affine mod is a positive constant or symbol.
                        rem = self.emit(arith.RemSIOp(lhs, rhs))
                        negative = self.emit(arith.CmpiOp(rem, self.constant(0), "slt"))
                        shifted = self.emit(arith.AddiOp(rem, rhs))
                        return self.emit(arith.SelectOp(negative, shifted, rem))
        raise ValueError(f"unexpected affine expression {expr}")

    def results(self, amap: AffineMap, operands: Sequence[SSAValue]) -> list[SSAValue]:
        dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
        return [self.expr(e, dims, syms) for e in amap.results]

    def fold(self, values: list[SSAValue], op_class: Callable[..., Operation]) -> SSAValue:
        """min/max of several values as a chain of arith.minsi/maxsi."""
        result = values[0]
        for value in values[1:]:
            result = self.emit(op_class(result, value))
        return result


def _map(op: Operation, name: str) -> AffineMap:
    attr = op.properties.get(name) or op.attributes.get(name)
    if attr is None:
        raise LoweringError(f"'{op.name}' has no '{name}' affine map", op_location(op))
    return cast(AffineMapAttr, attr).data  # the affine ops' map properties


def _lower(op: Operation, rewriter: PatternRewriter) -> None:
    emit = _Emitter()
    match op:
        case affine.ApplyOp():
            (value,) = emit.results(_map(op, "map"), list(op.operands))
            rewriter.insert(emit.ops)
            rewriter.replace(op, [], [value])
        case affine.MinOp() | AffineMaxOp():
            values = emit.results(_map(op, "map"), list(op.operands))
            combine = arith.MinSIOp if isinstance(op, affine.MinOp) else arith.MaxSIOp
            result = emit.fold(values, combine)
            rewriter.insert(emit.ops)
            rewriter.replace(op, [], [result])
        case affine.LoadOp():
            amap = _map(op, "map")
            indices = emit.results(amap, list(op.operands[1:]))
            load = memref.LoadOp.get(op.operands[0], indices)
            rewriter.insert(emit.ops)
            rewriter.replace(op, load)
        case affine.StoreOp():
            amap = _map(op, "map")
            indices = emit.results(amap, list(op.operands[2:]))
            store = memref.StoreOp.get(op.operands[0], op.operands[1], indices)
            rewriter.insert(emit.ops)
            rewriter.replace(op, store)
        case affine.ForOp():
            _lower_for(op, rewriter, emit)
        case affine.YieldOp():
            rewriter.replace(op, scf.YieldOp(*op.operands))
        case _:
            raise LoweringError(f"'{op.name}' is not supported by lower-affine", op_location(op))


def _lower_for(op: Operation, rewriter: PatternRewriter, emit: _Emitter) -> None:
    lb_map, ub_map = _map(op, "lowerBoundMap"), _map(op, "upperBoundMap")
    lb_count = lb_map.num_dims + lb_map.num_symbols
    ub_count = ub_map.num_dims + ub_map.num_symbols
    operands = list(op.operands)
    lb_operands, ub_operands = operands[:lb_count], operands[lb_count : lb_count + ub_count]
    inits = operands[lb_count + ub_count :]
    # Several lower bounds: the loop starts at their maximum; several upper: their minimum.
    lb = emit.fold(emit.results(lb_map, lb_operands), arith.MaxSIOp)
    ub = emit.fold(emit.results(ub_map, ub_operands), arith.MinSIOp)
    step_attr = op.properties.get("step") or op.attributes.get("step")
    step = emit.constant(cast(IntegerAttr, step_attr).value.data)  # affine.for's step
    rewriter.insert(emit.ops)
    loop = scf.ForOp(
        lb, ub, step, inits, rewriter.move_region_contents_to_new_regions(op.regions[0])
    )
    rewriter.replace(op, loop)


_AFFINE: tuple[type[Operation], ...] = (
    affine.ApplyOp,
    affine.MinOp,
    AffineMaxOp,
    affine.LoadOp,
    affine.StoreOp,
    affine.ForOp,
    affine.YieldOp,
)
"""The affine ops this pass lowers (xDSL's classes, which schedir's replacements
subclass, and schedir's `affine.max`)."""


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    """Lower the affine ops schedir uses to arith, memref and scf (upstream's lower-affine)."""

    name = "lower-affine"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Outer ops first (pre-order) so an affine.for's body is lowered after the loop is
        # rebuilt; collecting first keeps the walk valid while ops are replaced.
        for target in [o for o in op.walk() if isinstance(o, _AFFINE)]:
            if target.parent is None:
                continue
            _lower(target, PatternRewriter(target))
