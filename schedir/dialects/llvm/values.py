"""llvm casts and values schedir adds or corrects: fptosi/fptoui/uitofp/addrspacecast,
`mlir.poison`, `freeze`, `extractelement`, `fcmp`."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
    SignlessIntegerConstraint,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.llvm.syntax import (
    BOOL_OR_VECTOR,
    FLOAT_OR_VECTOR,
    FastMathAttr,
    LLVMPointerType,
    fastmath_from,
    parse_fastmath,
    print_fastmath,
)


class _CastOp(IRDLOperation, ABC):
    """`llvm.<cast> %x : T to U`."""

    arg = operand_def()
    res = result_def()

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$arg attr-dict `:` type($arg) `to` type($res)"

    def __init__(self, arg: SSAValue | Operation, res_type: Attribute):
        super().__init__(operands=[arg], result_types=[res_type])


@irdl_op_definition
class FPToSIOp(_CastOp):
    """Float to signed integer (poison when out of range), as `fptosi`."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(_CastOp):
    """Float to unsigned integer (poison when out of range), as `fptoui`."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(_CastOp):
    """Unsigned integer to float, as `uitofp`."""

    name = "llvm.uitofp"


@irdl_op_definition
class AddrSpaceCastOp(_CastOp):
    """Pointer from one address space to another, as `addrspacecast`."""

    name = "llvm.addrspacecast"

    arg = operand_def(LLVMPointerType)
    res = result_def(LLVMPointerType)


# ---------------------------------------------------------------------------------------
# values


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """`llvm.mlir.poison : T`: a poison value (what upstream builds descriptors from)."""

    name = "llvm.mlir.poison"

    res = result_def()

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, res_type: Attribute):
        super().__init__(result_types=[res_type])


@irdl_op_definition
class FreezeOp(IRDLOperation):
    """`llvm.freeze %x : T`: stops poison/undef propagation."""

    name = "llvm.freeze"

    T: ClassVar = VarConstraint("T", AnyAttr())

    val = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "$val attr-dict `:` type($val)"

    def __init__(self, val: SSAValue | Operation):
        super().__init__(operands=[val], result_types=[SSAValue.get(val).type])


@irdl_op_definition
class ExtractElementOp(IRDLOperation):
    """`llvm.extractelement %v[%i : i32] : vector<4xf32>`."""

    name = "llvm.extractelement"

    vector = operand_def(VectorType)
    position = operand_def(SignlessIntegerConstraint)
    res = result_def()

    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue | Operation, position: SSAValue | Operation):
        vec_type = SSAValue.get(vector).type
        assert isinstance(vec_type, VectorType)
        super().__init__(operands=[vector, position], result_types=[vec_type.element_type])

    def verify_(self) -> None:
        vec_type = self.vector.type
        assert isinstance(vec_type, VectorType)
        if self.res.type != vec_type.element_type:
            raise VerifyException(
                f"result type {self.res.type} is not the element type of {vec_type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.vector)
        printer.print_string("[")
        printer.print_ssa_value(self.position)
        printer.print_string(" : ")
        printer.print_attribute(self.position.type)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)

    @classmethod
    def parse(cls, parser: Parser) -> ExtractElementOp:
        vector = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        position = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        position_type = parser.parse_type()
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        vector_type = parser.parse_type()
        if not isinstance(vector_type, VectorType):
            parser.raise_error(f"expected a vector type, got {vector_type}")
        op = cls(
            parser.resolve_operand(vector, vector_type),
            parser.resolve_operand(position, position_type),
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`llvm.fcmp "olt" %a, %b : f32`; on vectors too (xDSL's is scalar-only)."""

    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", FLOAT_OR_VECTOR)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(BOOL_OR_VECTOR)

    predicate = prop_def(IntegerAttr[I64])
    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: str,
        fastmath: FastMathAttr | None = None,
    ):
        operand_type = SSAValue.get(lhs).type
        res_type: Attribute = (
            VectorType(i1, operand_type.get_shape()) if isinstance(operand_type, VectorType) else i1
        )
        super().__init__(
            operands=[lhs, rhs],
            result_types=[res_type],
            properties={
                "predicate": IntegerAttr(_x.FCmpPredicateFlag(predicate).to_int(), 64),
                "fastmathFlags": fastmath or FastMathAttr(None),
            },
        )

    @property
    def predicate_name(self) -> str:
        return _x.FCmpPredicateFlag.from_int(self.predicate.value.data).value

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{self.predicate_name}" ')
        printer.print_ssa_value(self.lhs)
        printer.print_string(", ")
        printer.print_ssa_value(self.rhs)
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)

    @classmethod
    def parse(cls, parser: Parser) -> FCmpOp:
        predicate = parser.parse_str_literal()
        if predicate not in {f.value for f in _x.FCmpPredicateFlag}:
            parser.raise_error(f"unknown fcmp predicate '{predicate}'")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        operand_type = parser.parse_type()
        a, b = parser.resolve_operands([lhs, rhs], [operand_type, operand_type], parser.pos)
        op = cls(a, b, predicate, fastmath_from(attrs, fastmath))
        op.attributes |= attrs
        return op
