"""llvm integer intrinsics, flagged intrinsics (abs, ctlz, cttz), is.fpclass, memcpy and trap."""

from __future__ import annotations

from abc import ABC
from typing import ClassVar

from xdsl.dialects.builtin import (
    I1,
    I32,
    BoolAttr,
    IntegerAttr,
    SignlessIntegerConstraint,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from schedir.dialects.llvm.syntax import (
    BOOL_OR_VECTOR,
    FLOAT_OR_VECTOR,
    INT_OR_VECTOR,
    LLVMPointerType,
)


class _IntBinaryIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", INT_OR_VECTOR)

    a = operand_def(T)
    b = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "`(` operands `)` attr-dict `:` functional-type(operands, results)"

    def __init__(self, a: SSAValue | Operation, b: SSAValue | Operation):
        super().__init__(operands=[a, b], result_types=[SSAValue.get(a).type])


class _IntUnaryIntrinsic(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", INT_OR_VECTOR)

    arg = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    assembly_format = "`(` operands `)` attr-dict `:` functional-type(operands, results)"

    def __init__(self, arg: SSAValue | Operation):
        super().__init__(operands=[arg], result_types=[SSAValue.get(arg).type])


@irdl_op_definition
class SMaxOp(_IntBinaryIntrinsic):
    name = "llvm.intr.smax"


@irdl_op_definition
class SMinOp(_IntBinaryIntrinsic):
    name = "llvm.intr.smin"


@irdl_op_definition
class UMaxOp(_IntBinaryIntrinsic):
    name = "llvm.intr.umax"


@irdl_op_definition
class UMinOp(_IntBinaryIntrinsic):
    name = "llvm.intr.umin"


@irdl_op_definition
class CtPopOp(_IntUnaryIntrinsic):
    name = "llvm.intr.ctpop"


# ---------------------------------------------------------------------------------------
# intrinsics upstream prints in generic form: an immediate flag as a property


class _IntUnaryWithFlag(IRDLOperation, ABC):
    T: ClassVar = VarConstraint("T", INT_OR_VECTOR)

    FLAG: ClassVar[str]
    """The name of the immediate i1 flag property."""

    in_ = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())

    def __init__(self, arg: SSAValue | Operation, flag: bool = False):
        super().__init__(
            operands=[arg],
            result_types=[SSAValue.get(arg).type],
            properties={self.FLAG: BoolAttr.from_bool(flag)},
        )

    @property
    def flag_value(self) -> bool:
        attr = self.properties.get(self.FLAG)
        return isinstance(attr, IntegerAttr) and bool(attr.value.data)


@irdl_op_definition
class AbsOp(_IntUnaryWithFlag):
    """Integer absolute value; `is_int_min_poison` says whether abs(INT_MIN) is poison."""

    name = "llvm.intr.abs"
    FLAG: ClassVar[str] = "is_int_min_poison"

    is_int_min_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class CountLeadingZerosOp(_IntUnaryWithFlag):
    name = "llvm.intr.ctlz"
    FLAG: ClassVar[str] = "is_zero_poison"

    is_zero_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class CountTrailingZerosOp(_IntUnaryWithFlag):
    name = "llvm.intr.cttz"
    FLAG: ClassVar[str] = "is_zero_poison"

    is_zero_poison = prop_def(IntegerAttr[I1])


FPCLASS_NAN = 0x003
"""`llvm.is.fpclass` test bits (LangRef): signaling | quiet NaN."""
FPCLASS_INF = 0x204
"""-inf | +inf."""
FPCLASS_NORMAL = 0x108
"""-normal | +normal."""
FPCLASS_FINITE = 0x1F8
"""every normal, subnormal and zero."""


@irdl_op_definition
class IsFPClassOp(IRDLOperation):
    """`"llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1`."""

    name = "llvm.intr.is.fpclass"

    in_ = operand_def(FLOAT_OR_VECTOR)
    res = result_def(BOOL_OR_VECTOR)

    bit = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())

    def __init__(self, arg: SSAValue | Operation, bits: int):
        arg_type = SSAValue.get(arg).type
        res_type: Attribute = (
            VectorType(i1, arg_type.get_shape()) if isinstance(arg_type, VectorType) else i1
        )
        super().__init__(
            operands=[arg], result_types=[res_type], properties={"bit": IntegerAttr(bits, 32)}
        )


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """`"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}> : (...) -> ()`."""

    name = "llvm.intr.memcpy"

    dst = operand_def(LLVMPointerType)
    src = operand_def(LLVMPointerType)
    len = operand_def(SignlessIntegerConstraint)

    isVolatile = prop_def(IntegerAttr[I1])

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        length: SSAValue | Operation,
        volatile: bool = False,
    ):
        super().__init__(
            operands=[dst, src, length],
            properties={"isVolatile": BoolAttr.from_bool(volatile)},
        )


@irdl_op_definition
class TrapOp(IRDLOperation):
    """`llvm.intr.trap`: abort execution."""

    name = "llvm.intr.trap"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()
