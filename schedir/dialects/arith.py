"""The arith dialect as schedir uses it: xDSL's ops plus the upstream ones xDSL lacks.

Added: `arith.remf` (floating-point remainder, sign of the dividend, as C's fmod) and
`arith.index_castui` (index casts with zero extension), in upstream syntax.

Replaced: the comparisons, `arith.select` and the casts, which xDSL 0.74 defines on
scalars only (or, for `cmpf`/`cmpi` on vectors, with a scalar `i1` result). Upstream's
are elementwise: vector and tensor operands, `vector<4xi1>` comparison results, a
`select` condition that is a scalar `i1` or an `i1` container of the result's shape. The
replacements subclass xDSL's ops, so `isinstance` checks and canonicalization patterns
written against xDSL's classes still apply, and verify with upstream's messages:

    %m = arith.cmpf olt, %a, %b : vector<8xf32>
    %r = arith.select %m, %a, %b : vector<8xi1>, vector<8xf32>
    %i = arith.fptosi %r : vector<8xf32> to vector<8xi32>

Build these ops from this module (not from `xdsl.dialects.arith`) where the operands may
be vectors: xDSL's `CmpfOp(a, b, "olt")` gives an `i1` result whatever the operands.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as _x
from xdsl.dialects.arith import Arith as _XdslArith
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import (
    AnyFloat,
    AnyFloatConstr,
    ContainerType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    VectorType,
    container_of,
    i1,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.utils import FORMAT_PARSE, FORMAT_PRINT

_BOOL_LIKE = container_of(IntegerType(1))
_INT_LIKE = container_of(base(IntegerType))
_INDEX_OR_INT_LIKE = container_of(base(IntegerType) | base(IndexType))
_FLOAT_LIKE = container_of(AnyFloatConstr)


def i1_like(type_: Attribute) -> Attribute:
    """The `i1` type of `type_`'s shape (upstream's `getI1SameShape`)."""
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape(), type_.scalable_dims)
    if isinstance(type_, TensorType):
        return TensorType(i1, type_.get_shape())
    return i1


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, ShapedType) else None


def _element(type_: Attribute) -> Attribute:
    if isinstance(type_, ShapedType) and isinstance(type_, ContainerType):
        return type_.get_element_type()
    return type_


def _predicate(arg: int | str, names: list[str]) -> IntegerAttr:
    if isinstance(arg, str):
        if arg not in names:
            raise VerifyException(f"Unknown comparison mnemonic: {arg}")
        arg = names.index(arg)
    return IntegerAttr(arg, 64)


def _verify_compare(op: IRDLOperation) -> None:
    lhs, rhs = op.operands
    if lhs.type != rhs.type:
        raise VerifyException("requires all operands to have the same type")
    if op.results[0].type != i1_like(lhs.type):
        raise VerifyException(
            "failed to verify that result type has i1 element type and same shape as operands"
        )


@irdl_op_definition
class CmpiOp(_x.CmpiOp):
    """Integer comparison, elementwise on vectors and tensors:
    `%m = arith.cmpi slt, %a, %b : vector<4xi32>` gives a `vector<4xi1>`."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_INDEX_OR_INT_LIKE)
    rhs = operand_def(_INDEX_OR_INT_LIKE)
    result = result_def(_BOOL_LIKE)

    def __init__(
        self, operand1: Operation | SSAValue, operand2: Operation | SSAValue, arg: int | str
    ):
        lhs, rhs = SSAValue.get(operand1), SSAValue.get(operand2)
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": _predicate(arg, _x.CMPI_COMPARISON_OPERATIONS)},
        )

    def verify_(self) -> None:
        _verify_compare(self)


@irdl_op_definition
class CmpfOp(_x.CmpfOp):
    """Floating-point comparison, elementwise on vectors and tensors:
    `%m = arith.cmpf olt, %a, %b : vector<4xf32>` gives a `vector<4xi1>`."""

    predicate = prop_def(IntegerAttr)
    lhs = operand_def(_FLOAT_LIKE)
    rhs = operand_def(_FLOAT_LIKE)
    fastmath = prop_def(_x.FastMathFlagsAttr, default_value=_x.FastMathFlagsAttr("none"))
    result = result_def(_BOOL_LIKE)

    def __init__(
        self,
        operand1: SSAValue | Operation,
        operand2: SSAValue | Operation,
        arg: int | str,
        fastmath: _x.FastMathFlagsAttr | None = None,
    ):
        lhs, rhs = SSAValue.get(operand1), SSAValue.get(operand2)
        IRDLOperation.__init__(
            self,
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={
                "predicate": _predicate(arg, _x.CMPF_COMPARISON_OPERATIONS),
                "fastmath": fastmath or _x.FastMathFlagsAttr("none"),
            },
        )

    def verify_(self) -> None:
        _verify_compare(self)


@irdl_op_definition
class SelectOp(_x.SelectOp):
    """`%r = arith.select %c, %a, %b : vector<4xi1>, vector<4xf32>`: elementwise when the
    condition is an `i1` container of the result's shape, whole values when it is `i1`.
    The condition's type is printed only when it is not `i1` (upstream's syntax)."""

    _T: ClassVar = VarConstraint("_T", AnyAttr())
    cond = operand_def(_BOOL_LIKE)
    lhs = operand_def(_T)
    rhs = operand_def(_T)
    result = result_def(_T)

    # Upstream's custom syntax: `: i1-container, type` or, for an `i1` condition, `: type`.
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        pos = parser.pos
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type: Attribute = i1
        result_type = parser.parse_type()
        if parser.parse_optional_punctuation(",") is not None:
            cond_type, result_type = result_type, parser.parse_type()
        operands = parser.resolve_operands(
            [cond, lhs, rhs], [cond_type, result_type, result_type], pos
        )
        return cls.create(operands=operands, result_types=[result_type], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if self.cond.type != i1:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        cond, result = self.cond.type, self.result.type
        if cond == i1:
            return
        if isinstance(result, ShapedType) and type(cond) is not type(result):
            raise VerifyException(
                "all non-scalar operands/results must have the same shape and base type"
            )
        if cond != i1_like(result):
            raise VerifyException(
                "failed to verify that condition is signless i1 or has matching shape"
            )


# --- casts -----------------------------------------------------------------------------------


def _verify_cast(op: IRDLOperation, compatible: bool) -> None:
    """Upstream's `Arith_CastOp` checks: same shape, same container, then the element
    types (`areCastCompatible`)."""
    source, target = op.operands[0].type, op.results[0].type
    if _shape(source) != _shape(target):
        raise VerifyException("requires the same shape for all operands and results")
    if isinstance(source, ShapedType) and type(source) is not type(target):
        raise VerifyException(
            "failed to verify that input and output have the same tensor dimensions"
        )
    if not compatible:
        raise VerifyException(
            f"operand type '{source}' and result type '{target}' are cast incompatible"
        )


def _width(type_: Attribute) -> int:
    element = _element(type_)
    if isinstance(element, IntegerType):
        return element.width.data
    assert isinstance(element, AnyFloat)
    return element.bitwidth


class _WideningCast(IRDLOperation):
    """A cast to a wider element type of the same kind."""

    def verify_(self) -> None:
        _verify_cast(self, _width(self.results[0].type) > _width(self.operands[0].type))


class _NarrowingCast(IRDLOperation):
    """A cast to a narrower element type of the same kind."""

    def verify_(self) -> None:
        _verify_cast(self, _width(self.results[0].type) < _width(self.operands[0].type))


@irdl_op_definition
class ExtFOp(_WideningCast, _x.ExtFOp):
    """`%w = arith.extf %a : vector<4xf16> to vector<4xf32>`."""

    input = operand_def(_FLOAT_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class TruncFOp(_NarrowingCast, _x.TruncFOp):
    """`%n = arith.truncf %a : vector<4xf32> to vector<4xf16>`."""

    input = operand_def(_FLOAT_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class ExtSIOp(_WideningCast, _x.ExtSIOp):
    """`%w = arith.extsi %a : vector<4xi32> to vector<4xi64>`."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class ExtUIOp(_WideningCast, _x.ExtUIOp):
    """`%w = arith.extui %a : vector<4xi32> to vector<4xi64>`."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class TruncIOp(_NarrowingCast, _x.TruncIOp):
    """`%n = arith.trunci %a : vector<4xi32> to vector<4xi8>`."""

    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


class _ConvertCast(IRDLOperation):
    """A float <-> integer conversion: the operand definitions fix the element types."""

    def verify_(self) -> None:
        _verify_cast(self, True)


@irdl_op_definition
class FPToSIOp(_ConvertCast, _x.FPToSIOp):
    """`%i = arith.fptosi %a : vector<4xf32> to vector<4xi32>` (rounds toward zero)."""

    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class FPToUIOp(_ConvertCast, _x.FPToUIOp):
    """`%i = arith.fptoui %a : vector<4xf32> to vector<4xi32>` (rounds toward zero)."""

    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class SIToFPOp(_ConvertCast, _x.SIToFPOp):
    """`%f = arith.sitofp %a : vector<4xi32> to vector<4xf32>`."""

    input = operand_def(_INT_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class UIToFPOp(_ConvertCast, _x.UIToFPOp):
    """`%f = arith.uitofp %a : vector<4xi32> to vector<4xf32>`."""

    input = operand_def(_INT_LIKE)
    result = result_def(_FLOAT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


class _IndexCast(IRDLOperation):
    """Exactly one side of an index cast is `index` (element-wise)."""

    def verify_(self) -> None:
        source, target = _element(self.operands[0].type), _element(self.results[0].type)
        _verify_cast(self, isinstance(source, IndexType) ^ isinstance(target, IndexType))


@irdl_op_definition
class IndexCastOp(_IndexCast, _x.IndexCastOp):
    """`%i = arith.index_cast %a : vector<4xi32> to vector<4xindex>` (sign extension)."""

    input = operand_def(_INDEX_OR_INT_LIKE)
    result = result_def(_INDEX_OR_INT_LIKE)
    parse = FORMAT_PARSE
    print = FORMAT_PRINT


@irdl_op_definition
class IndexCastUIOp(_IndexCast):
    """Cast between index and an integer type, zero-extending when widening.

    %i = arith.index_castui %x : i32 to index
    """

    name = "arith.index_castui"

    input = operand_def(_INDEX_OR_INT_LIKE)
    result = result_def(_INDEX_OR_INT_LIKE)

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """Floating-point remainder: `%r = arith.remf %a, %b : f32` (the sign of `%a`)."""

    name = "arith.remf"

    traits = traits_def(Pure())


_REPLACED = (
    CmpiOp,
    CmpfOp,
    SelectOp,
    ExtFOp,
    TruncFOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    FPToSIOp,
    FPToUIOp,
    SIToFPOp,
    UIToFPOp,
    IndexCastOp,
)

# xDSL's arith ops schedir keeps as they are, named here so that every arith op class
# is imported from this module.
AddUIExtendedOp = _x.AddUIExtendedOp
AddfOp = _x.AddfOp
AddiOp = _x.AddiOp
AndIOp = _x.AndIOp
BitcastOp = _x.BitcastOp
CeilDivSIOp = _x.CeilDivSIOp
CeilDivUIOp = _x.CeilDivUIOp
ConstantOp = _x.ConstantOp
DivSIOp = _x.DivSIOp
DivUIOp = _x.DivUIOp
DivfOp = _x.DivfOp
FloorDivSIOp = _x.FloorDivSIOp
MaxSIOp = _x.MaxSIOp
MaxUIOp = _x.MaxUIOp
MaximumfOp = _x.MaximumfOp
MaxnumfOp = _x.MaxnumfOp
MinSIOp = _x.MinSIOp
MinUIOp = _x.MinUIOp
MinimumfOp = _x.MinimumfOp
MinnumfOp = _x.MinnumfOp
MulSIExtendedOp = _x.MulSIExtendedOp
MulUIExtendedOp = _x.MulUIExtendedOp
MulfOp = _x.MulfOp
MuliOp = _x.MuliOp
NegfOp = _x.NegfOp
OrIOp = _x.OrIOp
RemSIOp = _x.RemSIOp
RemUIOp = _x.RemUIOp
ShLIOp = _x.ShLIOp
ShRSIOp = _x.ShRSIOp
ShRUIOp = _x.ShRUIOp
SubfOp = _x.SubfOp
SubiOp = _x.SubiOp
XOrIOp = _x.XOrIOp

Arith = Dialect(
    "arith",
    [
        *(op for op in _XdslArith.operations if op.name not in {r.name for r in _REPLACED}),
        *_REPLACED,
        RemFOp,
        IndexCastUIOp,
    ],
    list(_XdslArith.attributes),
)

__all__ = [
    "AddUIExtendedOp",
    "AddfOp",
    "AddiOp",
    "AndIOp",
    "Arith",
    "BitcastOp",
    "CeilDivSIOp",
    "CeilDivUIOp",
    "CmpfOp",
    "CmpiOp",
    "ConstantOp",
    "DivSIOp",
    "DivUIOp",
    "DivfOp",
    "ExtFOp",
    "ExtSIOp",
    "ExtUIOp",
    "FPToSIOp",
    "FPToUIOp",
    "FloorDivSIOp",
    "IndexCastOp",
    "IndexCastUIOp",
    "MaxSIOp",
    "MaxUIOp",
    "MaximumfOp",
    "MaxnumfOp",
    "MinSIOp",
    "MinUIOp",
    "MinimumfOp",
    "MinnumfOp",
    "MulSIExtendedOp",
    "MulUIExtendedOp",
    "MulfOp",
    "MuliOp",
    "NegfOp",
    "OrIOp",
    "RemFOp",
    "RemSIOp",
    "RemUIOp",
    "SIToFPOp",
    "SelectOp",
    "ShLIOp",
    "ShRSIOp",
    "ShRUIOp",
    "SubfOp",
    "SubiOp",
    "TruncFOp",
    "TruncIOp",
    "UIToFPOp",
    "XOrIOp",
    "i1_like",
]
