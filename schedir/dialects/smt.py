"""The SMT dialect with upstream's integer theory (SMTIntOps.td), which xDSL 0.74 lacks.

xDSL's `smt` dialect defines the core (bool) and bitvector ops; upstream also has the
`Int` sort: `!smt.int`, `smt.int.constant`, `smt.int.{add,mul,sub,div,mod,abs,cmp}`.
schedules use them in `transform.smt.constrain_params` regions to state constraints on
knob values (`schedir.transform.constraints` evaluates them):

```mlir
^bb0(%m: !smt.int, %r: !smt.int):
  %c0 = smt.int.constant 0
  %rem = smt.int.mod %m, %r
  %ok = smt.eq %rem, %c0 : !smt.int
  smt.assert %ok
```

The dialect object `Smt` holds xDSL's bool and bitvector ops, these int ops, and schedir's
versions of the ops whose xDSL operand constraints leave out `!smt.int` (`smt.eq`,
`smt.distinct`, `smt.ite`) or whose parent constraint leaves out the transform extension's
region (`smt.yield`, the implicit terminator of `constrain_params`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import ClassVar

from xdsl.dialects import smt as xsmt
from xdsl.dialects.builtin import IntAttr, IntegerAttr, i64
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_attr_definition,
    irdl_op_definition,
    irdl_to_attr_constraint,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class IntType(ParametrizedAttribute, TypeAttribute):
    """The (infinite-precision) `Int` sort of SMT-LIB's Ints theory."""

    name = "smt.int"


SortConstr = irdl_to_attr_constraint(xsmt.BoolType | xsmt.BitVectorType | IntType)
"""Every sort a value in a `constrain_params` region may have (not `!smt.func`)."""


@irdl_op_definition
class IntConstantOp(IRDLOperation):
    """An integer literal: `%c = smt.int.constant -3`."""

    name = "smt.int.constant"

    value = prop_def(IntAttr)
    result = result_def(IntType)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: int) -> None:
        super().__init__(properties={"value": IntAttr(value)}, result_types=[IntType()])

    @classmethod
    def parse(cls, parser: Parser) -> IntConstantOp:
        value = parser.parse_integer(allow_boolean=False, allow_negative=True)
        op = cls(value)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.data}")
        printer.print_op_attributes(self.attributes)


class _VariadicIntOp(IRDLOperation):
    """Upstream's `VariadicIntOp`: `$inputs attr-dict`, all `!smt.int`."""

    inputs = var_operand_def(IntType)
    result = result_def(IntType)

    traits = traits_def(Pure())

    assembly_format = "$inputs attr-dict"

    def __init__(self, *inputs: SSAValue) -> None:
        super().__init__(operands=[inputs], result_types=[IntType()])


@irdl_op_definition
class IntAddOp(_VariadicIntOp):
    """Integer addition."""

    name = "smt.int.add"


@irdl_op_definition
class IntMulOp(_VariadicIntOp):
    """Integer multiplication."""

    name = "smt.int.mul"


class _BinaryIntOp(IRDLOperation):
    """Upstream's `BinaryIntOp`: `$lhs, $rhs attr-dict`."""

    lhs = operand_def(IntType)
    rhs = operand_def(IntType)
    result = result_def(IntType)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs: SSAValue, rhs: SSAValue) -> None:
        super().__init__(operands=[lhs, rhs], result_types=[IntType()])


@irdl_op_definition
class IntSubOp(_BinaryIntOp):
    """Integer subtraction."""

    name = "smt.int.sub"


@irdl_op_definition
class IntDivOp(_BinaryIntOp):
    """Integer division (SMT-LIB: Euclidean, the remainder is never negative)."""

    name = "smt.int.div"


@irdl_op_definition
class IntModOp(_BinaryIntOp):
    """Integer remainder (SMT-LIB: Euclidean, in [0, |rhs|))."""

    name = "smt.int.mod"


@irdl_op_definition
class IntAbsOp(IRDLOperation):
    """The absolute value of an integer."""

    name = "smt.int.abs"

    input = operand_def(IntType)
    result = result_def(IntType)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict"

    def __init__(self, value: SSAValue) -> None:
        super().__init__(operands=[value], result_types=[IntType()])


class IntPredicate(IntEnum):
    """Upstream's `IntPredicate` (an i64 enum: its values are the stored numbers)."""

    lt = 0
    le = 1
    gt = 2
    ge = 3


@irdl_op_definition
class IntCmpOp(IRDLOperation):
    """Integer comparison: `%b = smt.int.cmp le %a, %c`."""

    name = "smt.int.cmp"

    pred = prop_def(IntegerAttr)
    lhs = operand_def(IntType)
    rhs = operand_def(IntType)
    result = result_def(xsmt.BoolType)

    traits = traits_def(Pure())

    def __init__(self, pred: IntPredicate, lhs: SSAValue, rhs: SSAValue) -> None:
        super().__init__(
            operands=[lhs, rhs],
            properties={"pred": IntegerAttr(int(pred), i64)},
            result_types=[xsmt.BoolType()],
        )

    @property
    def predicate(self) -> IntPredicate:
        return IntPredicate(self.pred.value.data)

    @classmethod
    def parse(cls, parser: Parser) -> IntCmpOp:
        names = ", ".join(p.name for p in IntPredicate)
        keyword = parser.parse_identifier(f"expected a predicate ({names})")
        if keyword not in IntPredicate.__members__:
            parser.raise_error(f"expected one of {names} as the predicate, got '{keyword}'")
        lhs = parser.resolve_operand(parser.parse_unresolved_operand(), IntType())
        parser.parse_punctuation(",")
        rhs = parser.resolve_operand(parser.parse_unresolved_operand(), IntType())
        op = cls(IntPredicate[keyword], lhs, rhs)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.predicate.name} ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if self.pred.value.data not in {int(p) for p in IntPredicate}:
            raise VerifyException(f"predicate {self.pred.value.data} is not one of lt, le, gt, ge")


class _VariadicPredicateOp(IRDLOperation):
    """Upstream's `VariadicPredicateOp` over any sort: `%a, %b, ... attr-dict : !sort`."""

    T: ClassVar = VarConstraint("T", SortConstr)

    inputs = var_operand_def(T)
    result = result_def(xsmt.BoolType)

    traits = traits_def(Pure())

    def __init__(self, *inputs: SSAValue) -> None:
        super().__init__(operands=[inputs], result_types=[xsmt.BoolType()])

    @classmethod
    def parse(cls, parser: Parser) -> _VariadicPredicateOp:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        sort = parser.parse_type()
        op = cls(*(parser.resolve_operand(o, sort) for o in operands))
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.inputs[0].type)

    def verify_(self) -> None:
        if len(self.inputs) < 2:
            raise VerifyException(f"'{self.name}' op expects at least 2 operands")


@irdl_op_definition
class EqOp(_VariadicPredicateOp):
    """Whether all operands are equal (chainable)."""

    name = "smt.eq"


@irdl_op_definition
class DistinctOp(_VariadicPredicateOp):
    """Whether all operands differ pairwise."""

    name = "smt.distinct"


@irdl_op_definition
class IteOp(IRDLOperation):
    """`%r = smt.ite %cond, %then, %else : !sort`."""

    name = "smt.ite"

    T: ClassVar = VarConstraint("T", SortConstr)

    cond = operand_def(xsmt.BoolType)
    then_value = operand_def(T)
    else_value = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$cond `,` $then_value `,` $else_value attr-dict `:` type($result)"

    def __init__(self, cond: SSAValue, then_value: SSAValue, else_value: SSAValue) -> None:
        super().__init__(operands=[cond, then_value, else_value], result_types=[then_value.type])


@irdl_op_definition
class YieldOp(IRDLOperation):
    """The terminator of SMT regions (also the implicit one of `constrain_params`)."""

    name = "smt.yield"

    values = var_operand_def(SortConstr)

    traits = traits_def(IsTerminator())

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, *values: SSAValue) -> None:
        super().__init__(operands=[values])


_REPLACED = frozenset({"smt.eq", "smt.distinct", "smt.ite", "smt.yield"})

OPS: tuple[type[Operation], ...] = (
    *(op for op in xsmt.SMT.operations if op.name not in _REPLACED),
    IntConstantOp,
    IntAddOp,
    IntMulOp,
    IntSubOp,
    IntDivOp,
    IntModOp,
    IntAbsOp,
    IntCmpOp,
    EqOp,
    DistinctOp,
    IteOp,
    YieldOp,
)
"""Every op class of the dialect (a region of `constrain_params` holds only these)."""

ATTRS: tuple[type[Attribute], ...] = (*xsmt.SMT.attributes, IntType)

Smt = Dialect("smt", list(OPS), list(ATTRS))


def sort_of(value: Attribute) -> str:
    """`int`, `bool` or `bv` (other types: their text)."""
    if isinstance(value, IntType):
        return "int"
    if isinstance(value, xsmt.BoolType):
        return "bool"
    if isinstance(value, xsmt.BitVectorType):
        return "bv"
    return str(value)


BoolType = xsmt.BoolType
AssertOp = xsmt.AssertOp
AndOp = xsmt.AndOp
OrOp = xsmt.OrOp
XOrOp = xsmt.XOrOp
NotOp = xsmt.NotOp
ImpliesOp = xsmt.ImpliesOp
ConstantBoolOp = xsmt.ConstantBoolOp


__all__ = [
    "ATTRS",
    "OPS",
    "AndOp",
    "AssertOp",
    "BoolType",
    "ConstantBoolOp",
    "DistinctOp",
    "EqOp",
    "ImpliesOp",
    "IntAbsOp",
    "IntAddOp",
    "IntCmpOp",
    "IntConstantOp",
    "IntDivOp",
    "IntModOp",
    "IntMulOp",
    "IntPredicate",
    "IntSubOp",
    "IntType",
    "IteOp",
    "NotOp",
    "OrOp",
    "Smt",
    "XOrOp",
    "YieldOp",
    "sort_of",
]
