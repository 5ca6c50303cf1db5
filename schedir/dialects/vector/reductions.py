"""`vector.multi_reduction` and `vector.reduction` in upstream syntax.

%m = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
%s = vector.reduction <maxnumf>, %v, %acc fastmath<nnan> : vector<8xf32> into f32
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import DenseArrayBase, VectorType, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.vector.attributes import (
    CombiningKindAttr,
    int_values,
    is_supported_kind,
    kind_name,
    no_fastmath,
    parse_int_list,
    print_int_list,
    scalable_dims,
    vec,
)
from schedir.dialects.vector.compute_syntax import is_default_fastmath, parse_fastmath, parse_kind
from schedir.dialects.vector.masks import MaskableOpInterface


@irdl_op_definition
class MultiDimReductionOp(IRDLOperation, MaskableOpInterface):
    """Reduces the listed dimensions of an n-D vector into an accumulator.

    %r = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    """

    name = "vector.multi_reduction"

    source = operand_def(VectorType)
    acc = operand_def()
    dest = result_def()

    kind = prop_def(CombiningKindAttr)
    reduction_dims = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure())

    def get_expected_mask_type(self) -> VectorType:
        src = cast(VectorType, self.source.type)
        return vec(src.get_shape(), i1, scalable_dims(src))

    def __init__(self, kind: CombiningKindAttr, source: SSAValue, acc: SSAValue, dims: list[int]):
        super().__init__(
            operands=[source, acc],
            result_types=[acc.type],
            properties={"kind": kind, "reduction_dims": DenseArrayBase.from_list(i64, dims)},
        )

    def dims(self) -> list[int]:
        return int_values(self.reduction_dims)

    def reduction_mask(self) -> list[bool]:
        rank = cast(VectorType, self.source.type).get_num_dims()
        dims = set(self.dims())
        return [d in dims for d in range(rank)]

    @classmethod
    def parse(cls, parser: Parser) -> MultiDimReductionOp:
        kind = parse_kind(parser)
        parser.parse_punctuation(",")
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        dims = parse_int_list(parser)
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_keyword("to")
        dst_t = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(source, src_t), parser.resolve_operand(acc, dst_t)],
            result_types=[dst_t],
            properties={"kind": kind, "reduction_dims": DenseArrayBase.from_list(i64, dims)},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{kind_name(self.kind)}>, ")
        printer.print_operand(self.source)
        printer.print_string(", ")
        printer.print_operand(self.acc)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        print_int_list(printer, self.dims())
        printer.print_string(f" : {self.source.type} to {self.dest.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(VectorType, self.source.type)
        if self.acc.type != self.dest.type:
            raise VerifyException("failed to verify that all of {dest, acc} have same type")
        mask = self.reduction_mask()
        kept = [s for s, r in zip(src.get_shape(), mask, strict=True) if not r]
        inferred: Attribute = vec(kept, src.get_element_type()) if kept else src.get_element_type()
        if self.dest.type != inferred:
            raise VerifyException(
                f"destination type '{self.dest.type}' is incompatible with source type '{src}'"
            )


class ReductionOp(xvector.ReductionOp, MaskableOpInterface):
    """Reduces a 1-D vector to a scalar, optionally combined with an accumulator.

    %s = vector.reduction <add>, %v, %acc fastmath<reassoc> : vector<8xf32> into f32
    """

    def get_expected_mask_type(self) -> VectorType:
        src = cast(VectorType, self.vector.type)
        return vec(src.get_shape(), i1, scalable_dims(src))

    def __init__(
        self,
        vector: SSAValue | Operation,
        kind: CombiningKindAttr,
        acc: SSAValue | Operation | None = None,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        # xDSL's builder gives the result the vector type; upstream's is the element type.
        value = SSAValue.get(vector)
        IRDLOperation.__init__(
            self,
            operands=[value, [acc] if acc is not None else []],
            result_types=[cast(VectorType, value.type).get_element_type()],
            properties={"kind": kind, "fastmath": fastmath or no_fastmath()},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ReductionOp:
        kind = parse_kind(parser)
        parser.parse_punctuation(",")
        vector = parser.parse_unresolved_operand()
        acc: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(","):
            acc = parser.parse_unresolved_operand()
        fastmath = parse_fastmath(parser)
        attrs = parser.parse_optional_attr_dict()
        legacy = attrs.pop("fastmath", None)
        if fastmath is None and isinstance(legacy, FastMathFlagsAttr):
            fastmath = legacy
        parser.parse_punctuation(":")
        vtype = parser.parse_type()
        parser.parse_keyword("into")
        dest = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(vector, vtype),
                [parser.resolve_operand(acc, dest)] if acc is not None else [],
            ],
            result_types=[dest],
            properties={"kind": kind, "fastmath": fastmath or no_fastmath()},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{kind_name(self.kind)}>, ")
        printer.print_operand(self.vector)
        if self.acc is not None:
            printer.print_string(", ")
            printer.print_operand(self.acc)
        if not is_default_fastmath(self.fastmath):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.vector.type} into {self.dest.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        vtype = cast(VectorType, self.vector.type)
        if vtype.get_element_type() != self.dest.type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if vtype.get_num_dims() > 1:
            raise VerifyException(f"unsupported reduction rank: {vtype.get_num_dims()}")
        kind = kind_name(self.kind)
        if not is_supported_kind(kind, self.dest.type):
            raise VerifyException(
                f"unsupported reduction type ''{self.dest.type}'' for kind '{kind}'"
            )


__all__ = ["MultiDimReductionOp", "ReductionOp"]
