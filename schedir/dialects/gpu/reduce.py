"""The gpu dialect's collective reductions: `gpu.subgroup_reduce` and `gpu.all_reduce`.

Upstream's syntax and verifiers (mlir/include/mlir/Dialect/GPU/IR/GPUOps.td, GPUDialect.cpp):

    %a = gpu.subgroup_reduce add %v : (f32) -> f32
    %b = gpu.subgroup_reduce maxnumf %v uniform cluster(size = 8, stride = 2) : (f32) -> f32
    %c = gpu.subgroup_reduce add %w cluster(size = 4) : (vector<4xf32>) -> vector<4xf32>
    %d = gpu.all_reduce add %v uniform {
    } : (f32) -> f32
    %e = gpu.all_reduce %v {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      gpu.yield %s : f32
    } : (f32) -> f32

`gpu.subgroup_reduce` combines the values of the lanes of each cluster of a subgroup (a warp
on NVIDIA): clusters of `size` lanes `stride` apart (the whole subgroup without `cluster`);
every lane gets its cluster's result, elementwise for vectors. `gpu.all_reduce` combines the
values of every work item of the workgroup (the thread block), by a named operation or by
its region; every work item gets the result. `uniform` promises that all work items
(lanes) reach the op together. The lowering to warp shuffles is
schedir/lowering/nvvm/reductions.py.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    AnyFloat,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from schedir.dialects.gpu.module import YieldOp
from schedir.dialects.gpu.syntax import parse_enum_parameter


class AllReduceOperation(StrEnum):
    """The combining operations of upstream's `GPU_AllReduceOperation`."""

    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


FLOAT_OPERATIONS = frozenset(
    {
        AllReduceOperation.ADD,
        AllReduceOperation.MUL,
        AllReduceOperation.MINNUMF,
        AllReduceOperation.MAXNUMF,
        AllReduceOperation.MINIMUMF,
        AllReduceOperation.MAXIMUMF,
    }
)
"""The operations defined on floats."""

INTEGER_OPERATIONS = frozenset(
    {
        AllReduceOperation.ADD,
        AllReduceOperation.MUL,
        AllReduceOperation.MINUI,
        AllReduceOperation.MINSI,
        AllReduceOperation.MAXUI,
        AllReduceOperation.MAXSI,
        AllReduceOperation.AND,
        AllReduceOperation.OR,
        AllReduceOperation.XOR,
    }
)
"""The operations defined on integers."""


@irdl_attr_definition
class AllReduceOperationAttr(EnumAttribute[AllReduceOperation]):
    """`#gpu.all_reduce_op<add>`: the combining operation of a reduction (the custom forms
    of the ops print the bare keyword; `#gpu<all_reduce_op add>` is accepted too)."""

    name = "gpu.all_reduce_op"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AllReduceOperation:
        return parse_enum_parameter(parser, AllReduceOperation)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


_KEYWORDS = tuple(o.value for o in AllReduceOperation)


def _element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, VectorType) else t


def verify_operation_type(operation: AllReduceOperation, t: Attribute) -> None:
    """Fail unless `operation` is defined on the element type of `t` (upstream's message)."""
    element = _element_type(t)
    allowed = FLOAT_OPERATIONS if isinstance(element, AnyFloat) else INTEGER_OPERATIONS
    if not isinstance(element, AnyFloat | IntegerType) or operation not in allowed:
        raise VerifyException(
            f"`{operation.value}` reduction operation is not compatible with type '{t}'"
        )


def _parse_operation(parser: Parser) -> AllReduceOperationAttr | None:
    word = parser.parse_optional_keyword_in(_KEYWORDS)
    return None if word is None else AllReduceOperationAttr(AllReduceOperation(word))


def _parse_function_type(parser: Parser) -> tuple[Attribute, Attribute]:
    parser.parse_punctuation(":")
    parser.parse_punctuation("(")
    operand = parser.parse_type()
    parser.parse_punctuation(")")
    parser.parse_punctuation("->")
    # upstream prints `-> f32`, but `-> (f32)` is accepted as a one-type list
    if parser.parse_optional_punctuation("(") is not None:
        result = parser.parse_type()
        parser.parse_punctuation(")")
    else:
        result = parser.parse_type()
    return operand, result


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


@irdl_op_definition
class SubgroupReduceOp(IRDLOperation):
    """`gpu.subgroup_reduce <op> %v [uniform] [cluster(size = N[, stride = S])] : (t) -> t`:
    combine `%v` over the lanes of each cluster of the subgroup; every lane gets the result.

    The operand is an integer, a float or a 1-D vector of them (reduced elementwise).
    Clusters hold `size` lanes `stride` apart (both powers of two; `stride` defaults to 1,
    `size` to the whole subgroup).
    """

    name = "gpu.subgroup_reduce"
    value = operand_def()
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    cluster_size = opt_prop_def(IntegerAttr)
    cluster_stride = opt_prop_def(IntegerAttr)
    result = result_def()

    def __init__(
        self,
        value: SSAValue,
        operation: AllReduceOperation | str,
        *,
        uniform: bool = False,
        cluster_size: int | None = None,
        cluster_stride: int = 1,
        result_type: Attribute | None = None,
    ) -> None:
        properties: dict[str, Attribute] = {
            "op": AllReduceOperationAttr(AllReduceOperation(operation)),
            "cluster_stride": IntegerAttr(cluster_stride, i32),
        }
        if uniform:
            properties["uniform"] = UnitAttr()
        if cluster_size is not None:
            properties["cluster_size"] = IntegerAttr(cluster_size, i32)
        super().__init__(
            operands=[value], result_types=[result_type or value.type], properties=properties
        )

    @property
    def operation(self) -> AllReduceOperation:
        assert self.op is not None
        return self.op.data

    @property
    def size(self) -> int | None:
        """The cluster size, or None for the whole subgroup."""
        return None if self.cluster_size is None else self.cluster_size.value.data

    @property
    def stride(self) -> int:
        return 1 if self.cluster_stride is None else self.cluster_stride.value.data

    def verify_(self) -> None:
        if self.op is None:
            raise VerifyException("'gpu.subgroup_reduce' op requires attribute 'op'")
        t = self.value.type
        if self.result.type != t:
            raise VerifyException(
                "'gpu.subgroup_reduce' op requires the same type for all operands and results"
            )
        element = _element_type(t)
        if (isinstance(t, VectorType) and (t.get_num_dims() != 1 or t.get_num_scalable_dims())) or (
            not isinstance(element, AnyFloat | IntegerType)
        ):
            raise VerifyException(
                "'gpu.subgroup_reduce' op operand #0 must be Integer or Float or fixed-length "
                f"vector of Integer or Float values of ranks 1, but got '{t}'"
            )
        verify_operation_type(self.operation, t)
        if self.size is not None and not _is_power_of_two(self.size):
            raise VerifyException(
                f"'gpu.subgroup_reduce' op cluster size {self.size} is not a power of two"
            )
        if not _is_power_of_two(self.stride):
            raise VerifyException(
                f"'gpu.subgroup_reduce' op cluster stride {self.stride} is not a power of two"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operation = _parse_operation(parser)
        if operation is None:
            parser.raise_error(
                "custom op 'gpu.subgroup_reduce' expected keyword containing one of the "
                f"following enum values for attribute 'op' [{', '.join(_KEYWORDS)}]"
            )
        value = parser.parse_unresolved_operand()
        uniform = parser.parse_optional_keyword("uniform") is not None
        size: int | None = None
        stride = 1
        if parser.parse_optional_keyword("cluster") is not None:
            parser.parse_punctuation("(")
            parser.parse_keyword("size")
            parser.parse_punctuation("=")
            size = parser.parse_integer(allow_negative=False, allow_boolean=False)
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("stride")
                parser.parse_punctuation("=")
                stride = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        operand_type, result_type = _parse_function_type(parser)
        op = cls(
            parser.resolve_operand(value, operand_type),
            operation.data,
            uniform=uniform,
            cluster_size=size,
            cluster_stride=stride,
            result_type=result_type,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.operation.value} ")
        printer.print_ssa_value(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        if self.size is not None:
            printer.print_string(f" cluster(size = {self.size}")
            if self.stride != 1:
                printer.print_string(f", stride = {self.stride}")
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """`gpu.all_reduce [<op>] %v [uniform] { region } : (t) -> t`: combine `%v` over every
    work item of the workgroup; every work item gets the result.

    The combination is the named operation (the region is then empty) or the region, whose
    block takes two values of the operand's type and `gpu.yield`s their combination. The
    operand is a scalar integer or float.
    """

    name = "gpu.all_reduce"
    value = operand_def()
    op = opt_prop_def(AllReduceOperationAttr)
    uniform = opt_prop_def(UnitAttr)
    result = result_def()
    body = region_def()
    traits = traits_def(IsolatedFromAbove())

    def __init__(
        self,
        value: SSAValue,
        operation: AllReduceOperation | str | None = None,
        body: Region | None = None,
        *,
        uniform: bool = False,
        result_type: Attribute | None = None,
    ) -> None:
        properties: dict[str, Attribute] = {}
        if operation is not None:
            properties["op"] = AllReduceOperationAttr(AllReduceOperation(operation))
        if uniform:
            properties["uniform"] = UnitAttr()
        super().__init__(
            operands=[value],
            result_types=[result_type or value.type],
            properties=properties,
            regions=[body if body is not None else Region()],
        )

    @property
    def operation(self) -> AllReduceOperation | None:
        return None if self.op is None else self.op.data

    def verify_(self) -> None:
        t = self.value.type
        if self.result.type != t:
            raise VerifyException(
                "'gpu.all_reduce' op requires the same type for all operands and results"
            )
        if not isinstance(t, AnyFloat | IntegerType):
            raise VerifyException(
                f"'gpu.all_reduce' op operand #0 must be Integer or Float, but got '{t}'"
            )
        has_body = bool(self.body.blocks) and bool(self.body.block.ops)
        if has_body == (self.op is not None):
            raise VerifyException("expected either an op attribute or a non-empty body")
        if self.op is not None:
            verify_operation_type(self.op.data, t)
            return
        block = self.body.block
        if block.arg_types != (t, t):
            raise VerifyException(f"'gpu.all_reduce' op expected two region arguments of type {t}")
        last = block.last_op
        if not isinstance(last, YieldOp) or tuple(v.type for v in last.values) != (t,):
            raise VerifyException(
                f"'gpu.all_reduce' op expected the region to end in gpu.yield of one {t}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operation = _parse_operation(parser)
        value = parser.parse_unresolved_operand()
        uniform = parser.parse_optional_keyword("uniform") is not None
        body = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        operand_type, result_type = _parse_function_type(parser)
        # `{}` parses to a region with one empty block; upstream's empty body has no block
        if body.blocks and not body.block.ops and not body.block.args:
            body = Region()
        op = cls(
            parser.resolve_operand(value, operand_type),
            None if operation is None else operation.data,
            body,
            uniform=uniform,
            result_type=result_type,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.op is not None:
            printer.print_string(f" {self.op.data.value}")
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        if self.uniform is not None:
            printer.print_string(" uniform")
        printer.print_string(" ")
        if self.body.blocks:
            printer.print_region(self.body, print_entry_block_args=True)
        else:
            printer.print_string("{\n")
            printer.print_string("}", indent=0)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


__all__ = [
    "FLOAT_OPERATIONS",
    "INTEGER_OPERATIONS",
    "AllReduceOp",
    "AllReduceOperation",
    "AllReduceOperationAttr",
    "SubgroupReduceOp",
    "verify_operation_type",
]
