"""arith canonicalization patterns (upstream ArithCanonicalization.td): constants are
reassociated through chains of `addi` / `subi` / `muli`, `xori(cmpi, true)` inverts the
predicate, nested selects on one condition collapse.

    %a = arith.addi %x, %c2 : index
    %b = arith.addi %a, %c3 : index      // -> arith.addi %x, %c5
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.canonicalize.arith import CMPI_INVERTED
from schedir.transform.rewrites.constants import constant_int, int_attr, int_width, wrap
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter


def _const_operand(value: SSAValue) -> int | None:
    return constant_int(value)


def _flags(*ops: Operation) -> dict[str, Attribute]:
    """Overflow flags kept by a reassociation: those all combined ops agree on."""
    flags = [op.properties.get("overflowFlags") for op in ops]
    if flags and all(f == flags[0] for f in flags) and flags[0] is not None:
        return {"overflowFlags": flags[0]}
    return {}


def _new_binary(
    rw: CanonRewriter,
    cls: type[arith.AddiOp | arith.SubiOp | arith.MuliOp],
    lhs: SSAValue,
    rhs: SSAValue,
    like: Operation,
    flags: dict[str, Attribute],
) -> SSAValue:
    op = cls.create(
        operands=[lhs, rhs], result_types=[like.results[0].type], properties=dict(flags)
    )
    return rw.create(op, like).results[0]


def _new_constant(rw: CanonRewriter, value: int, like: Operation) -> SSAValue:
    """An `arith.constant` of `value` in the type of `like`'s result: a scalar, or a splat of
    a vector or tensor of integers (subi(subi(a, b), a) -> subi(0, b) applies to those)."""
    type_ = like.results[0].type
    if isinstance(type_, VectorType | TensorType):
        element = int_attr(value, type_.get_element_type()).value.data
        attr = DenseIntOrFPElementsAttr.from_list(type_, [element])  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the shaped type checked here
        return rw.create(arith.ConstantOp(attr), like).results[0]
    return rw.create(arith.ConstantOp(int_attr(value, type_)), like).results[0]


def add_add_sub_constants(op: Operation, rw: CanonRewriter) -> bool:
    """addi(addi(x, c0), c1) -> addi(x, c0 + c1); addi(subi(x, c0), c1) ->
    addi(x, c1 - c0); addi(subi(c0, x), c1) -> subi(c0 + c1, x);
    addi(x, muli(y, -1)) -> subi(x, y) (and mirrored)."""
    lhs, rhs = op.operands
    c1 = _const_operand(rhs)
    if c1 is not None:
        inner = lhs.owner
        if isinstance(inner, arith.AddiOp | arith.SubiOp):
            a, b = inner.operands
            ca, cb = _const_operand(a), _const_operand(b)
            flags = _flags(op, inner)
            if isinstance(inner, arith.AddiOp) and cb is not None:
                new = _new_binary(rw, arith.AddiOp, a, _new_constant(rw, cb + c1, op), op, flags)
            elif isinstance(inner, arith.SubiOp) and cb is not None:
                new = _new_binary(rw, arith.AddiOp, a, _new_constant(rw, c1 - cb, op), op, flags)
            elif isinstance(inner, arith.SubiOp) and ca is not None:
                new = _new_binary(rw, arith.SubiOp, _new_constant(rw, ca + c1, op), b, op, flags)
            else:
                return False
            rw.replace_values(op, [new])
            return True
    for x, y in ((lhs, rhs), (rhs, lhs)):
        mul = y.owner
        if isinstance(mul, arith.MuliOp):
            width = int_width(op.results[0].type)
            c = _const_operand(mul.operands[1])
            if width is not None and c is not None and wrap(c, width) == -1:
                new = _new_binary(rw, arith.SubiOp, x, mul.operands[0], op, {})
                rw.replace_values(op, [new])
                return True
    return False


def sub_constants(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's SubI* DRR patterns: reassociate constants through addi/subi chains."""
    lhs, rhs = op.operands
    c_rhs, c_lhs = _const_operand(rhs), _const_operand(lhs)
    new: SSAValue | None
    if c_rhs is not None and isinstance(inner := lhs.owner, arith.AddiOp | arith.SubiOp):
        a, b = inner.operands
        flags = _flags(op, inner)
        ca, cb = _const_operand(a), _const_operand(b)
        if isinstance(inner, arith.AddiOp) and cb is not None:  # (x + c0) - c1
            new = _new_binary(rw, arith.AddiOp, a, _new_constant(rw, cb - c_rhs, op), op, flags)
        elif isinstance(inner, arith.SubiOp) and cb is not None:  # (x - c0) - c1
            new = _new_binary(rw, arith.SubiOp, a, _new_constant(rw, cb + c_rhs, op), op, flags)
        elif isinstance(inner, arith.SubiOp) and ca is not None:  # (c0 - x) - c1
            new = _new_binary(rw, arith.SubiOp, _new_constant(rw, ca - c_rhs, op), b, op, flags)
        else:
            new = None
        if new is not None:
            rw.replace_values(op, [new])
            return True
    if c_lhs is not None and isinstance(inner := rhs.owner, arith.AddiOp | arith.SubiOp):
        a, b = inner.operands
        flags = _flags(op, inner)
        ca, cb = _const_operand(a), _const_operand(b)
        if isinstance(inner, arith.AddiOp) and cb is not None:  # c1 - (x + c0)
            new = _new_binary(rw, arith.SubiOp, _new_constant(rw, c_lhs - cb, op), a, op, flags)
        elif isinstance(inner, arith.SubiOp) and cb is not None:  # c1 - (x - c0)
            new = _new_binary(rw, arith.SubiOp, _new_constant(rw, cb + c_lhs, op), a, op, flags)
        elif isinstance(inner, arith.SubiOp) and ca is not None:  # c1 - (c0 - x)
            new = _new_binary(rw, arith.AddiOp, b, _new_constant(rw, c_lhs - ca, op), op, flags)
        else:
            new = None
        if new is not None:
            rw.replace_values(op, [new])
            return True
    # subi(subi(a, b), a) -> subi(0, b)
    inner = lhs.owner
    if isinstance(inner, arith.SubiOp) and inner.operands[0] is rhs:
        new = _new_binary(rw, arith.SubiOp, _new_constant(rw, 0, op), inner.operands[1], op, {})
        rw.replace_values(op, [new])
        return True
    return False


def mul_mul_constant(op: Operation, rw: CanonRewriter) -> bool:
    """muli(muli(x, c0), c1) -> muli(x, c0 * c1)."""
    lhs, rhs = op.operands
    c1 = _const_operand(rhs)
    inner = lhs.owner
    if c1 is None or not isinstance(inner, arith.MuliOp):
        return False
    c0 = _const_operand(inner.operands[1])
    if c0 is None:
        return False
    new = _new_binary(
        rw, arith.MuliOp, inner.operands[0], _new_constant(rw, c0 * c1, op), op, _flags(op, inner)
    )
    rw.replace_values(op, [new])
    return True


def xori_not_cmpi(op: Operation, rw: CanonRewriter) -> bool:
    """xori(cmpi(pred, a, b), true) -> cmpi(not pred, a, b)."""
    lhs, rhs = op.operands
    cmp = lhs.owner
    mask = constant_int(rhs)
    if not (isinstance(cmp, arith.CmpiOp) and mask is not None and mask & 1):
        return False
    if not (isinstance(op.results[0].type, IntegerType) and op.results[0].type.width.data == 1):
        return False
    pred = cmp.predicate.value.data
    new = arith.CmpiOp.create(
        operands=list(cmp.operands),
        result_types=[op.results[0].type],
        properties={"predicate": IntegerAttr(CMPI_INVERTED[pred], cmp.predicate.type)},
    )
    rw.replace_with_op(op, new)
    return True


def select_same_condition(op: Operation, rw: CanonRewriter) -> bool:
    """select(c, select(c, a, b), d) -> select(c, a, d) (and the false side)."""
    cond, a, b = op.operands
    for index, value in ((1, a), (2, b)):
        inner = value.owner
        if isinstance(inner, arith.SelectOp) and inner.operands[0] is cond:
            operands = list(op.operands)
            operands[index] = inner.operands[index]
            rw.replace_with_op(
                op, arith.SelectOp.create(operands=operands, result_types=[op.results[0].type])
            )
            return True
    return False


def patterns() -> PatternSet:
    return (
        PatternSet()
        .add(arith.AddiOp, add_add_sub_constants)
        .add(arith.SubiOp, sub_constants)
        .add(arith.MuliOp, mul_mul_constant)
        .add(arith.XOrIOp, xori_not_cmpi)
        .add(arith.SelectOp, select_same_condition)
    )


__all__ = ["patterns"]
