"""The arith dialect as schedir uses it: xDSL's ops plus the upstream ones xDSL lacks.

Added: `arith.remf` (floating-point remainder, sign of the dividend, as C's fmod) and
`arith.index_castui` (index casts with zero extension), in upstream syntax.
"""

from __future__ import annotations

from xdsl.dialects.arith import Arith as _XdslArith
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """Floating-point remainder: `%r = arith.remf %a, %b : f32` (the sign of `%a`)."""

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """Cast between index and an integer type, zero-extending when widening.

    %i = arith.index_castui %x : i32 to index
    """

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if not isinstance(self.input.type, IndexType) ^ isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"operand type '{self.input.type}' and result type '{self.result.type}' are cast incompatible"
            )


Arith = Dialect(
    "arith",
    [*_XdslArith.operations, RemFOp, IndexCastUIOp],
    list(_XdslArith.attributes),
)

__all__ = ["Arith", "IndexCastUIOp", "RemFOp"]
