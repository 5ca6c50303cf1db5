"""LLVM dialect ops that `convert-vector-to-llvm` emits, in upstream MLIR's syntax.

xDSL's llvm dialect lacks the vector reductions but `fadd`/`fmul`, `llvm.intr.masked.load`
and a `llvm.select` on vector conditions, and prints the ones it has in another syntax.
`schedir.dialects.llvm` registers these in place of xDSL's:

    %r = "llvm.intr.vector.reduce.add"(%v) : (vector<16xi32>) -> i32
    %s = llvm.intr.vector.reduce.fadd(%acc, %v) fastmath<reassoc> : (f32, vector<16xf32>) -> f32
    %m = llvm.intr.vector.reduce.fmaximum(%v) : (vector<16xf32>) -> f32
    %l = llvm.intr.masked.load(%p, %mask, %pass), alignment(4) : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
    llvm.intr.masked.store(%v, %p, %mask), alignment(4) : vector<16xf32>, vector<16xi1> into !llvm.ptr
    %x = llvm.select %mask, %a, %b : vector<16xi1>, vector<16xf32>

The integer reductions have no custom form upstream and print generically, as here.
"""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects import llvm as _x
from xdsl.dialects.builtin import (
    I1,
    AnyFloatConstr,
    IntegerAttr,
    SignlessIntegerConstraint,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.llvm.syntax import (
    BOOL_OR_VECTOR,
    fastmath_from,
    parse_fastmath,
    parse_intrinsic_operands,
    parse_intrinsic_signature,
    print_fastmath,
    print_intrinsic_call,
)

FastMathAttr = _x.FastMathAttr
LLVMPointerType = _x.LLVMPointerType


def _parse_fastmath(parser: Parser) -> tuple[FastMathAttr, dict[str, Attribute]]:
    """An optional `fastmath<...>` then the attr-dict; without the keyword form, a legacy
    `fastmathFlags` entry of the attr-dict gives the flags."""
    keyword = parse_fastmath(parser)
    attrs = parser.parse_optional_attr_dict()
    return fastmath_from(attrs, keyword), attrs


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, VectorType) else t


# --- reductions ----------------------------------------------------------------------------------


class _IntReduce(IRDLOperation, ABC):
    """`"llvm.intr.vector.reduce.<kind>"(%v) : (vector<NxiK>) -> iK` (generic form)."""

    input = operand_def(VectorType.constr(SignlessIntegerConstraint))
    res = result_def(SignlessIntegerConstraint)

    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue | Operation):
        vt = SSAValue.get(vector).type
        super().__init__(operands=[vector], result_types=[_element(vt)])

    def verify_(self) -> None:
        if self.res.type != _element(self.input.type):
            raise VerifyException("result type must be the element type of the operand")


def _int_reduce(class_name: str, kind: str) -> type[IRDLOperation]:
    cls = type(class_name, (_IntReduce,), {"name": f"llvm.intr.vector.reduce.{kind}"})
    return irdl_op_definition(cls)


ReduceAddOp = _int_reduce("ReduceAddOp", "add")
ReduceMulOp = _int_reduce("ReduceMulOp", "mul")
ReduceAndOp = _int_reduce("ReduceAndOp", "and")
ReduceOrOp = _int_reduce("ReduceOrOp", "or")
ReduceXorOp = _int_reduce("ReduceXorOp", "xor")
ReduceSMaxOp = _int_reduce("ReduceSMaxOp", "smax")
ReduceSMinOp = _int_reduce("ReduceSMinOp", "smin")
ReduceUMaxOp = _int_reduce("ReduceUMaxOp", "umax")
ReduceUMinOp = _int_reduce("ReduceUMinOp", "umin")


class _FloatReduce(IRDLOperation, ABC):
    """`llvm.intr.vector.reduce.fmax(%v) [fastmath<...>] : (vector<NxT>) -> T`."""

    input = operand_def(VectorType.constr(AnyFloatConstr))
    res = result_def(AnyFloatConstr)

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue | Operation, fastmath: FastMathAttr | None = None):
        vt = SSAValue.get(vector).type
        super().__init__(
            operands=[vector],
            result_types=[_element(vt)],
            properties={"fastmathFlags": fastmath or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        if self.res.type != _element(self.input.type):
            raise VerifyException("result type must be the element type of the operand")

    def print(self, printer: Printer) -> None:
        print_intrinsic_call(
            printer, self, [self.input], lambda: print_fastmath(printer, self.fastmathFlags)
        )

    @classmethod
    def parse(cls, parser: Parser) -> _FloatReduce:
        parser.parse_punctuation("(")
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        fastmath, attrs = _parse_fastmath(parser)
        operands, result_types = parse_intrinsic_signature(parser, [operand])
        op = cls.create(
            operands=operands,
            result_types=result_types,
            properties={"fastmathFlags": fastmath},
        )
        op.attributes |= attrs
        return op


def _float_reduce(class_name: str, kind: str) -> type[IRDLOperation]:
    cls = type(class_name, (_FloatReduce,), {"name": f"llvm.intr.vector.reduce.{kind}"})
    return irdl_op_definition(cls)


ReduceFMaxOp = _float_reduce("ReduceFMaxOp", "fmax")
ReduceFMinOp = _float_reduce("ReduceFMinOp", "fmin")
ReduceFMaximumOp = _float_reduce("ReduceFMaximumOp", "fmaximum")
ReduceFMinimumOp = _float_reduce("ReduceFMinimumOp", "fminimum")


class _OrderedReduce(IRDLOperation, ABC):
    """`llvm.intr.vector.reduce.fadd(%start, %v) [fastmath<...>] : (T, vector<NxT>) -> T`:
    sequential in lane order from `%start` unless `reassoc` allows any order."""

    start_value = operand_def(AnyFloatConstr)
    input = operand_def(VectorType.constr(AnyFloatConstr))
    res = result_def(AnyFloatConstr)

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(
        self,
        start: SSAValue | Operation,
        vector: SSAValue | Operation,
        fastmath: FastMathAttr | None = None,
    ):
        super().__init__(
            operands=[start, vector],
            result_types=[SSAValue.get(start).type],
            properties={"fastmathFlags": fastmath or FastMathAttr(None)},
        )

    def print(self, printer: Printer) -> None:
        print_intrinsic_call(
            printer,
            self,
            [self.start_value, self.input],
            lambda: print_fastmath(printer, self.fastmathFlags),
        )

    @classmethod
    def parse(cls, parser: Parser) -> _OrderedReduce:
        names = parse_intrinsic_operands(parser)
        fastmath, attrs = _parse_fastmath(parser)
        operands, result_types = parse_intrinsic_signature(parser, names)
        op = cls.create(
            operands=operands,
            result_types=result_types,
            properties={"fastmathFlags": fastmath},
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class ReduceFAddOp(_OrderedReduce):
    name = "llvm.intr.vector.reduce.fadd"


@irdl_op_definition
class ReduceFMulOp(_OrderedReduce):
    name = "llvm.intr.vector.reduce.fmul"


# --- masked memory ---------------------------------------------------------------------------


def _parse_alignment(parser: Parser) -> IntegerAttr | None:
    """The optional `, alignment(N)` after the operand list."""
    if parser.parse_optional_punctuation(",") is None:
        return None
    parser.parse_keyword("alignment")
    parser.parse_punctuation("(")
    value = parser.parse_integer()
    parser.parse_punctuation(")")
    return IntegerAttr(value, i64)


def _print_alignment(printer: Printer, alignment: IntegerAttr | None) -> None:
    if alignment is not None:
        printer.print_string(f", alignment({alignment.value.data})")


@irdl_op_definition
class MaskedLoadOp(IRDLOperation):
    """`llvm.intr.masked.load(%p, %mask[, %pass]), alignment(N) : (...) -> vector<..>`:
    lanes whose mask bit is clear are not read and take the pass-through value (poison
    without one)."""

    name = "llvm.intr.masked.load"

    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType.constr(I1))
    pass_thru = opt_operand_def(VectorType)
    res = result_def(VectorType)

    alignment = opt_prop_def(IntegerAttr)

    def __init__(
        self,
        data: SSAValue | Operation,
        mask: SSAValue | Operation,
        result_type: VectorType,
        pass_thru: SSAValue | Operation | None = None,
        alignment: int | None = None,
    ):
        super().__init__(
            operands=[data, mask, [pass_thru] if pass_thru is not None else []],
            result_types=[result_type],
            properties={"alignment": IntegerAttr(alignment, i64)} if alignment else {},
        )

    def verify_(self) -> None:
        if self.pass_thru is not None and self.pass_thru.type != self.res.type:
            raise VerifyException("pass-through type must be the result type")

    def print(self, printer: Printer) -> None:
        print_intrinsic_call(
            printer, self, self.operands, lambda: _print_alignment(printer, self.alignment)
        )

    @classmethod
    def parse(cls, parser: Parser) -> MaskedLoadOp:
        names = parse_intrinsic_operands(parser)
        alignment = _parse_alignment(parser)
        attrs = parser.parse_optional_attr_dict()
        operands, result_types = parse_intrinsic_signature(parser, names)
        result = result_types[0]
        if not isinstance(result, VectorType):
            parser.raise_error(f"expected a vector result, got {result}")
        op = cls(
            operands[0],
            operands[1],
            result,
            operands[2] if len(operands) > 2 else None,
            alignment.value.data if alignment is not None else None,
        )
        op.attributes |= attrs
        return op


@irdl_op_definition
class MaskedStoreOp(IRDLOperation):
    """`llvm.intr.masked.store(%v, %p, %mask), alignment(N) : vector<..>, vector<..xi1>
    into !llvm.ptr`: lanes whose mask bit is clear are not written."""

    name = "llvm.intr.masked.store"

    value = operand_def(VectorType)
    data = operand_def(LLVMPointerType)
    mask = operand_def(VectorType.constr(I1))

    alignment = opt_prop_def(IntegerAttr)

    def __init__(
        self,
        value: SSAValue | Operation,
        data: SSAValue | Operation,
        mask: SSAValue | Operation,
        alignment: int | None = None,
    ):
        super().__init__(
            operands=[value, data, mask],
            properties={"alignment": IntegerAttr(alignment, i64)} if alignment else {},
        )

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_string(")")
        _print_alignment(printer, self.alignment)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.mask.type)
        printer.print_string(" into ")
        printer.print_attribute(self.data.type)

    @classmethod
    def parse(cls, parser: Parser) -> MaskedStoreOp:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        alignment = _parse_alignment(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        mask_type = parser.parse_type()
        parser.parse_keyword("into")
        ptr_type = parser.parse_type()
        operands = parser.resolve_operands(names, [value_type, ptr_type, mask_type], parser.pos)
        op = cls(*operands, alignment=alignment.value.data if alignment is not None else None)
        op.attributes |= attrs
        return op


# --- select ----------------------------------------------------------------------------------------


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`llvm.select %c, %a, %b [fastmath<...>] : i1, T`; a vector of i1 selects per lane."""

    name = "llvm.select"

    T: ClassVar = VarConstraint("T", AnyAttr())

    cond = operand_def(BOOL_OR_VECTOR)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)

    fastmathFlags = prop_def(FastMathAttr, default_value=FastMathAttr(None))

    traits = traits_def(Pure())

    def __init__(
        self,
        cond: SSAValue | Operation,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        fastmath: FastMathAttr | None = None,
    ):
        super().__init__(
            operands=[cond, lhs, rhs],
            result_types=[SSAValue.get(lhs).type],
            properties={"fastmathFlags": fastmath or FastMathAttr(None)},
        )

    def verify_(self) -> None:
        c = self.cond.type
        if isinstance(c, VectorType) and (
            not isinstance(self.res.type, VectorType) or c.get_shape() != self.res.type.get_shape()
        ):
            raise VerifyException("a vector condition must have the shape of the operands")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.cond, self.lhs, self.rhs), printer.print_ssa_value)
        print_fastmath(printer, self.fastmathFlags)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_string(", ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        names = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        fastmath, attrs = _parse_fastmath(parser)
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        parser.parse_punctuation(",")
        value_type = parser.parse_type()
        operands = parser.resolve_operands(names, [cond_type, value_type, value_type], parser.pos)
        op = cls(*operands, fastmath=fastmath)
        op.attributes |= attrs
        return op


VECTOR_LLVM_OPS: tuple[type[Operation], ...] = (
    ReduceAddOp,
    ReduceMulOp,
    ReduceAndOp,
    ReduceOrOp,
    ReduceXorOp,
    ReduceSMaxOp,
    ReduceSMinOp,
    ReduceUMaxOp,
    ReduceUMinOp,
    ReduceFMaxOp,
    ReduceFMinOp,
    ReduceFMaximumOp,
    ReduceFMinimumOp,
    ReduceFAddOp,
    ReduceFMulOp,
    MaskedLoadOp,
    MaskedStoreOp,
    SelectOp,
)
"""What `schedir.dialects.llvm` registers (replacing xDSL's ops of the same names)."""

__all__ = [
    "VECTOR_LLVM_OPS",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "ReduceAddOp",
    "ReduceAndOp",
    "ReduceFAddOp",
    "ReduceFMaxOp",
    "ReduceFMaximumOp",
    "ReduceFMinOp",
    "ReduceFMinimumOp",
    "ReduceFMulOp",
    "ReduceMulOp",
    "ReduceOrOp",
    "ReduceSMaxOp",
    "ReduceSMinOp",
    "ReduceUMaxOp",
    "ReduceUMinOp",
    "ReduceXorOp",
    "SelectOp",
]
