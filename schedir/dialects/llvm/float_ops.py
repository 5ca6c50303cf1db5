"""llvm float arithmetic and float intrinsics with upstream's fastmath keyword:
`llvm.fadd %a, %b fastmath<fast> : f32`, `llvm.intr.exp(%x) fastmath<nnan, ninf> : (f32) -> f32`."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.llvm.syntax import (
    FLOAT_OR_VECTOR,
    FastMathAttr,
    fastmath_from,
    parse_fastmath,
    parse_intrinsic_operands,
    parse_intrinsic_signature,
    print_fastmath,
    print_intrinsic_call,
)


class _FastMathOp(IRDLOperation, ABC):
    """What the float ops with fastmath flags share: the flags, the constructor (result type =
    first operand's; flags by keyword or positionally) and the operand count check."""

    ARITY: ClassVar[int]
    """The operand count, checked by the verifier."""

    args = var_operand_def()

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(self, *args: SSAValue | Operation, fastmath: FastMathAttr | None = None):
        values = [a for a in args if not isinstance(a, FastMathAttr)]
        flags = next((a for a in args if isinstance(a, FastMathAttr)), None) or fastmath
        super().__init__(
            operands=[values],
            result_types=[SSAValue.get(values[0]).type],
            properties={"fastmathFlags": flags or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        want = self.ARITY
        if len(self.args) != want:
            raise VerifyException(f"expects {want} operands, got {len(self.args)}")


class _FloatArith(_FastMathOp):
    """`llvm.<op> %a, %b [fastmath<...>] : T` and the unary `llvm.fneg %a ... : T`."""

    T: ClassVar = VarConstraint("T", FLOAT_OR_VECTOR)

    args = var_operand_def(T)
    res = result_def(T)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.args, printer.print_ssa_value)
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> _FloatArith:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        operands = parser.resolve_operands(names, [t] * len(names), parser.pos)
        op = cls(*operands, fastmath=fastmath_from(attrs, fastmath))
        op.attributes |= attrs
        return op


@irdl_op_definition
class FAddOp(_FloatArith):
    name = "llvm.fadd"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class FSubOp(_FloatArith):
    name = "llvm.fsub"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class FMulOp(_FloatArith):
    name = "llvm.fmul"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class FDivOp(_FloatArith):
    name = "llvm.fdiv"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class FRemOp(_FloatArith):
    name = "llvm.frem"
    ARITY: ClassVar[int] = 2


@irdl_op_definition
class FNegOp(_FloatArith):
    name = "llvm.fneg"
    ARITY: ClassVar[int] = 1


class _FloatIntrinsic(_FastMathOp):
    """`llvm.intr.X(%a, ...) [fastmath<...>] : (T, ...) -> T`, float result = first operand."""

    INTEGER_EXPONENT: ClassVar[bool] = False
    """Whether the second operand is an integer (powi); every other operand has the result type."""

    args = var_operand_def()
    res = result_def(FLOAT_OR_VECTOR)

    def verify_(self) -> None:
        super().verify_()
        float_args = self.args[:1] if self.INTEGER_EXPONENT else self.args
        for arg in float_args:
            if arg.type != self.res.type:
                raise VerifyException(
                    f"operand type {arg.type} differs from result type {self.res.type}"
                )

    def print(self, printer: Printer) -> None:
        print_intrinsic_call(
            printer, self, self.args, lambda: print_fastmath(printer, self.fastmathFlags)
        )

    @classmethod
    def parse(cls, parser: Parser) -> _FloatIntrinsic:
        names = parse_intrinsic_operands(parser)
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        operands, result_types = parse_intrinsic_signature(parser, names)
        op = cls.create(
            operands=operands,
            result_types=result_types,
            properties={"fastmathFlags": fastmath_from(attrs, fastmath)},
        )
        op.attributes |= attrs
        return op


def _intrinsic(
    class_name: str, name: str, arity: int, doc: str, *, integer_exponent: bool = False
) -> type[IRDLOperation]:
    fields = {"name": name, "__doc__": doc, "ARITY": arity, "INTEGER_EXPONENT": integer_exponent}
    annotations = {"ARITY": "ClassVar[int]", "INTEGER_EXPONENT": "ClassVar[bool]"}
    cls = type(class_name, (_FloatIntrinsic,), {**fields, "__annotations__": annotations})
    return irdl_op_definition(cls)


FAbsOp = _intrinsic("FAbsOp", "llvm.intr.fabs", 1, "Absolute value.")
FCeilOp = _intrinsic("FCeilOp", "llvm.intr.ceil", 1, "Round toward +inf.")
FFloorOp = _intrinsic("FFloorOp", "llvm.intr.floor", 1, "Round toward -inf.")
FTruncOp = _intrinsic("FTruncOp", "llvm.intr.trunc", 1, "Round toward zero.")
RoundOp = _intrinsic("RoundOp", "llvm.intr.round", 1, "Round half away from zero.")
RoundEvenOp = _intrinsic("RoundEvenOp", "llvm.intr.roundeven", 1, "Round half to even.")
FSqrtOp = _intrinsic("FSqrtOp", "llvm.intr.sqrt", 1, "Square root.")
FExpOp = _intrinsic("FExpOp", "llvm.intr.exp", 1, "e^x.")
FExp2Op = _intrinsic("FExp2Op", "llvm.intr.exp2", 1, "2^x.")
FLogOp = _intrinsic("FLogOp", "llvm.intr.log", 1, "Natural logarithm.")
FLog2Op = _intrinsic("FLog2Op", "llvm.intr.log2", 1, "Base-2 logarithm.")
Log10Op = _intrinsic("Log10Op", "llvm.intr.log10", 1, "Base-10 logarithm.")
FSinOp = _intrinsic("FSinOp", "llvm.intr.sin", 1, "Sine.")
FCosOp = _intrinsic("FCosOp", "llvm.intr.cos", 1, "Cosine.")
FPowOp = _intrinsic("FPowOp", "llvm.intr.pow", 2, "x^y.")
PowIOp = _intrinsic("PowIOp", "llvm.intr.powi", 2, "x^n for an integer n.", integer_exponent=True)
FCopySignOp = _intrinsic("FCopySignOp", "llvm.intr.copysign", 2, "|x| with the sign of y.")
MaximumOp = _intrinsic(
    "MaximumOp", "llvm.intr.maximum", 2, "IEEE 754-2019 maximum: NaN if either is NaN, -0 < +0."
)
MinimumOp = _intrinsic(
    "MinimumOp", "llvm.intr.minimum", 2, "IEEE 754-2019 minimum: NaN if either is NaN, -0 < +0."
)
MaxNumOp = _intrinsic("MaxNumOp", "llvm.intr.maxnum", 2, "libm fmax: a NaN operand is ignored.")
MinNumOp = _intrinsic("MinNumOp", "llvm.intr.minnum", 2, "libm fmin: a NaN operand is ignored.")
FMAOp = _intrinsic("FMAOp", "llvm.intr.fma", 3, "x * y + z rounded once.")
FMulAddOp = _intrinsic("FMulAddOp", "llvm.intr.fmuladd", 3, "x * y + z, fused where faster.")
