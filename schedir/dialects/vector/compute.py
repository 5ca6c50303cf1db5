"""Vector compute ops in upstream syntax: contraction, reductions, outer product, fma, step.

    %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel",
           "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c
           : vector<4x8xf32>, vector<8x2xf32> into vector<4x2xf32>
    %m = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    %s = vector.reduction <maxnumf>, %v, %acc fastmath<nnan> : vector<8xf32> into f32
    %o = vector.outerproduct %a, %b, %acc {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32>
    %i = vector.step : vector<4xindex>

`vector.contract` prints `iterator_types` as strings and its trait attributes (and a
non-default `fastmath`) in the leading dictionary, as upstream does.

The contraction is in `contract`, the reductions in `reductions`; this module holds the
outer product, fma and step.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import IndexType, VectorType, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.vector.attributes import (
    CombiningKindAttr,
    is_supported_kind,
    kind_name,
    make_kind,
    scalable_dims,
    vec,
)
from schedir.dialects.vector.masks import MaskableOpInterface

# --- outer product, fma, step -------------------------------------------------------------


@irdl_op_definition
class OuterProductOp(IRDLOperation, MaskableOpInterface):
    """Outer product of two 1-D vectors (or AXPY with a scalar rhs), plus an accumulator.

    %o = vector.outerproduct %a, %b, %acc {kind = #vector.kind<add>} : vector<4xf32>, vector<8xf32>
    """

    name = "vector.outerproduct"

    lhs = operand_def(VectorType)
    rhs = operand_def()
    acc = opt_operand_def(VectorType)
    result = result_def(VectorType)

    kind = prop_def(CombiningKindAttr, default_value=make_kind("add"))

    traits = traits_def(Pure())

    def get_expected_mask_type(self) -> VectorType:
        res = cast(VectorType, self.result.type)
        return vec(res.get_shape(), i1, scalable_dims(res))

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        acc: SSAValue | None = None,
        kind: CombiningKindAttr | None = None,
    ):
        lhs_t = cast(VectorType, lhs.type)
        if acc is not None:
            res: Attribute = acc.type
        elif isinstance(rhs.type, VectorType):
            res = vec([lhs_t.get_shape()[0], rhs.type.get_shape()[0]], lhs_t.get_element_type())
        else:
            res = lhs_t
        super().__init__(
            operands=[lhs, rhs, [acc] if acc is not None else []],
            result_types=[res],
            properties={"kind": kind or make_kind("add")},
        )

    @classmethod
    def parse(cls, parser: Parser) -> OuterProductOp:
        name_pos = parser.pos
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        if len(operands) < 2:
            parser.raise_error("expected at least 2 operands", at_position=name_pos)
        if not isinstance(lhs_t, VectorType):
            parser.raise_error("expected vector type for operand #1", at_position=name_pos)
        if isinstance(rhs_t, VectorType):
            res_t = vec([lhs_t.get_shape()[0], rhs_t.get_shape()[0]], lhs_t.get_element_type())
        else:
            res_t = vec([lhs_t.get_shape()[0]], lhs_t.get_element_type())
        kind = attrs.pop("kind", None) or make_kind("add")
        op = cls.build(
            operands=[
                parser.resolve_operand(operands[0], lhs_t),
                parser.resolve_operand(operands[1], rhs_t),
                [parser.resolve_operand(operands[2], res_t)] if len(operands) > 2 else [],
            ],
            result_types=[res_t],
            properties={"kind": kind},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.acc is not None:
            # Upstream prints the attribute dictionary (kind included) only with an acc.
            printer.print_string(", ")
            printer.print_operand(self.acc)
            printer.print_string(" ")
            printer.print_attr_dict(dict(sorted({**self.attributes, "kind": self.kind}.items())))
        printer.print_string(f" : {self.lhs.type}, {self.rhs.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        lhs = cast(VectorType, self.lhs.type)
        res = cast(VectorType, self.result.type)
        rhs = self.rhs.type
        if lhs.get_num_dims() != 1:
            raise VerifyException("expected 1-d vector for operand #1")
        if isinstance(rhs, VectorType):
            if rhs.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector for operand #2")
            if res.get_num_dims() != 2:
                raise VerifyException("expected 2-d vector result")
            if lhs.get_shape()[0] != res.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
            if rhs.get_shape()[0] != res.get_shape()[1]:
                raise VerifyException("expected #2 operand dim to match result dim #2")
        else:
            if res.get_num_dims() != 1:
                raise VerifyException("expected 1-d vector result")
            if lhs.get_shape()[0] != res.get_shape()[0]:
                raise VerifyException("expected #1 operand dim to match result dim #1")
        if self.acc is not None and self.acc.type != res:
            raise VerifyException("expected operand #3 of same type as result type")
        if not is_supported_kind(kind_name(self.kind), res.get_element_type()):
            raise VerifyException("unsupported outerproduct type")


FMAOp = xvector.FMAOp
"""Elementwise fused multiply-add: `%r = vector.fma %a, %b, %c : vector<4xf32>` (xDSL's)."""


@irdl_op_definition
class StepOp(IRDLOperation):
    """The vector `[0, 1, ..., n-1]`: `%s = vector.step : vector<4xindex>`."""

    name = "vector.step"

    result = result_def(VectorType.constr(IndexType))

    traits = traits_def(Pure())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if cast(VectorType, self.result.type).get_num_dims() != 1:
            raise VerifyException(
                f"result #0 must be vector of index values of ranks 1, but got '{self.result.type}'"
            )


COMPUTE_OPS: tuple[type[Operation], ...] = (OuterProductOp, FMAOp, StepOp)
"""The compute ops defined here (contraction and reductions have their own modules)."""

__all__ = ["COMPUTE_OPS", "FMAOp", "OuterProductOp", "StepOp"]
