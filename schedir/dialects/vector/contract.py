"""`vector.contract` in upstream syntax, its verifier and the queries on its maps and
iterators (`contract_maps`, `dim_map`, `contract_mask_type`, ...).

    %r = vector.contract {indexing_maps = [#a, #b, #c], iterator_types = ["parallel",
           "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c
           : vector<4x8xf32>, vector<8x2xf32> into vector<4x2xf32>

It prints `iterator_types` as strings and its trait attributes (and a non-default
`fastmath`) in the leading dictionary, as upstream does.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IntegerType,
    Signedness,
    StringAttr,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
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
    IteratorType,
    IteratorTypeAttr,
    element_type,
    is_supported_kind,
    kind_name,
    make_kind,
    no_fastmath,
)
from schedir.dialects.vector.compute_syntax import is_default_fastmath
from schedir.dialects.vector.masks import MaskableOpInterface


def contract_maps(op: Operation) -> list[AffineMap]:
    """The indexing maps of `vector.contract` op `op`: lhs, rhs, acc."""
    assert isinstance(op, ContractionOp)
    return [m.data for m in op.indexing_maps.data]


def contract_iterators(op: Operation) -> list[str]:
    """The iterator types of `vector.contract` op `op`, one per loop."""
    assert isinstance(op, ContractionOp)
    return [str(t.data) for t in op.iterator_types.data]


def _result_index(m: AffineMap, dim: int) -> int:
    for i, e in enumerate(m.results):
        if isinstance(e, AffineDimExpr) and e.position == dim:
            return i
    return -1


def dim_map(op: Operation, kind: str) -> list[tuple[int, int]]:
    """Upstream's `getContractingDimMap` ("reduction") / `getBatchDimMap` ("parallel")."""
    maps = contract_maps(op)
    pairs: list[tuple[int, int]] = []
    for index, it in enumerate(contract_iterators(op)):
        if it != kind:
            continue
        lhs, rhs = _result_index(maps[0], index), _result_index(maps[1], index)
        if lhs >= 0 and rhs >= 0:
            pairs.append((lhs, rhs))
    return pairs


def contract_mask_type(op: Operation) -> VectorType:
    """Upstream's `ContractionOp::getExpectedMaskType`: one dim per iterator."""
    maps = contract_maps(op)
    shape = [0] * maps[0].num_dims
    for operand, m in ((op.operands[0], maps[0]), (op.operands[1], maps[1])):
        for i, size in enumerate(cast(VectorType, operand.type).get_shape()):
            shape[cast(AffineDimExpr, m.results[i]).position] = size
    return VectorType(i1, shape)


@irdl_op_definition
class ContractionOp(IRDLOperation, MaskableOpInterface):
    """Sum of products along contracting dimensions, combined into an accumulator.

    %r = vector.contract {indexing_maps = [#mk, #kn, #mn],
           iterator_types = ["parallel", "parallel", "reduction"],
           kind = #vector.kind<add>} %a, %b, %c
           : vector<4x8xf32>, vector<8x2xf32> into vector<4x2xf32>
    """

    name = "vector.contract"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def()
    result = result_def()

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[IteratorTypeAttr])
    kind = prop_def(CombiningKindAttr, default_value=make_kind("add"))
    fastmath = prop_def(FastMathFlagsAttr, default_value=no_fastmath())

    traits = traits_def(Pure())

    def get_expected_mask_type(self) -> VectorType:
        return contract_mask_type(self)

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        acc: SSAValue,
        indexing_maps: ArrayAttr[AffineMapAttr],
        iterator_types: ArrayAttr[IteratorTypeAttr],
        kind: CombiningKindAttr | None = None,
        fastmath: FastMathFlagsAttr | None = None,
    ):
        super().__init__(
            operands=[lhs, rhs, acc],
            result_types=[acc.type],
            properties={
                "indexing_maps": indexing_maps,
                "iterator_types": iterator_types,
                "kind": kind or make_kind("add"),
                "fastmath": fastmath or no_fastmath(),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        loc = parser.pos
        traits = parser.parse_attribute()
        if not isinstance(traits, Attribute) or not hasattr(traits, "data"):
            parser.raise_error("expected attribute dictionary", at_position=loc)
        trait_dict = dict(getattr(traits, "data", {}))
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        masks: list[UnresolvedOperand] = []
        while parser.parse_optional_punctuation(","):
            masks.append(parser.parse_unresolved_operand())
        if masks:
            parser.raise_error("expected zero or exactly 2 vector mask operands", at_position=loc)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        lhs_t = parser.parse_type()
        parser.parse_punctuation(",")
        rhs_t = parser.parse_type()
        parser.parse_keyword("into")
        res_t = parser.parse_type()
        merged = {**trait_dict, **attrs}
        iterators = merged.pop("iterator_types", None)
        if not isinstance(iterators, ArrayAttr):
            parser.raise_error("expected iterator_types array attribute", at_position=loc)
        its: list[IteratorTypeAttr] = []
        for it in iterators.data:
            if isinstance(it, IteratorTypeAttr):
                its.append(it)
                continue
            text = it.data if isinstance(it, StringAttr) else str(it)
            if text not in ("parallel", "reduction"):
                parser.raise_error(f"unexpected iterator_type ({text})", at_position=loc)
            its.append(IteratorTypeAttr(IteratorType(text)))
        props: dict[str, Attribute] = {"iterator_types": ArrayAttr(its)}
        for name in ("indexing_maps", "kind", "fastmath"):
            if name in merged:
                props[name] = merged.pop(name)
        if "kind" not in props:
            props["kind"] = make_kind("add")
        op = cls.build(
            operands=[
                parser.resolve_operand(lhs, lhs_t),
                parser.resolve_operand(rhs, rhs_t),
                parser.resolve_operand(acc, res_t),
            ],
            result_types=[res_t],
            properties=props,
        )
        op.attributes |= merged
        return op

    def print(self, printer: Printer) -> None:
        traits: dict[str, Attribute] = {
            "indexing_maps": self.indexing_maps,
            "iterator_types": ArrayAttr(StringAttr(t) for t in contract_iterators(self)),
            "kind": self.kind,
        }
        if not is_default_fastmath(self.fastmath):
            traits["fastmath"] = self.fastmath
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(traits.items())))
        printer.print_string(" ")
        printer.print_list([self.lhs, self.rhs, self.acc], printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.lhs.type}, {self.rhs.type} into {self.result.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        lhs_t = cast(VectorType, self.lhs.type)
        rhs_t = cast(VectorType, self.rhs.type)
        elem = lhs_t.get_element_type()
        if isinstance(elem, IntegerType) and elem.signedness.data != Signedness.SIGNLESS:
            raise VerifyException("only supports signless integer types")
        if lhs_t.get_element_type() != rhs_t.get_element_type():
            raise VerifyException("failed to verify that lhs and rhs have same element type")
        if (
            element_type(self.acc.type) != element_type(self.result.type)
            or self.acc.type != self.result.type
        ):
            raise VerifyException(
                "failed to verify that third operand acc and result have same element type"
            )
        maps = contract_maps(self)
        if len(maps) != 3:
            raise VerifyException("expected an indexing map for each vector operand")
        num_iterators = len(self.iterator_types.data)
        for index, (m, operand) in enumerate(zip(maps, self.operands, strict=True)):
            if m.num_symbols:
                raise VerifyException(f"expected indexing map {index} to have no symbols")
            rank = operand.type.get_num_dims() if isinstance(operand.type, VectorType) else 0
            if m.num_dims != num_iterators:
                raise VerifyException(
                    f"expected indexing map {index} to have {num_iterators} number of inputs"
                )
            if len(m.results) != rank:
                raise VerifyException(
                    f"expected indexing map {index} to have {rank} number of outputs"
                )
            if not _is_projected_permutation(m):
                raise VerifyException(
                    f"expected indexing map {index} to be a projected permutation of its inputs"
                )
        contracting = dim_map(self, "reduction")
        batch = dim_map(self, "parallel")
        if not contracting:
            raise VerifyException("expected at least one contracting dimension pair")
        if not _valid_dim_map(lhs_t, rhs_t, contracting):
            raise VerifyException("invalid contracting dimension map")
        if not _valid_dim_map(lhs_t, rhs_t, batch):
            raise VerifyException("invalid batch dimension map")
        _verify_output_shape(self, lhs_t, rhs_t, maps, contracting, batch)
        if not is_supported_kind(kind_name(self.kind), element_type(self.result.type)):
            raise VerifyException("unsupported contraction type")


def _is_projected_permutation(m: AffineMap) -> bool:
    seen: set[int] = set()
    for e in m.results:
        if not isinstance(e, AffineDimExpr) or e.position in seen:
            return False
        seen.add(e.position)
    return True


def _valid_dim_map(lhs: VectorType, rhs: VectorType, pairs: list[tuple[int, int]]) -> bool:
    for a, b in pairs:
        if not (0 <= a < lhs.get_num_dims() and 0 <= b < rhs.get_num_dims()):
            return False
        if lhs.get_shape()[a] != rhs.get_shape()[b]:
            return False
    return True


def _verify_output_shape(
    op: Operation,
    lhs: VectorType,
    rhs: VectorType,
    maps: list[AffineMap],
    contracting: list[tuple[int, int]],
    batch: list[tuple[int, int]],
) -> None:
    lhs_contracting = {a for a, _ in contracting}
    rhs_contracting = {b for _, b in contracting}
    rhs_batch = {b for _, b in batch}
    expected_dims = [s for i, s in enumerate(lhs.get_shape()) if i not in lhs_contracting]
    expected_dims += [
        s for i, s in enumerate(rhs.get_shape()) if i not in rhs_contracting and i not in rhs_batch
    ]
    res_t, acc_t = op.results[0].type, op.operands[2].type
    if not expected_dims:
        if isinstance(res_t, VectorType) or isinstance(acc_t, VectorType):
            raise VerifyException("invalid accumulator/result vector shape")
        return
    if not isinstance(res_t, VectorType) or not isinstance(acc_t, VectorType):
        raise VerifyException("invalid accumulator/result vector shape")
    used = {e.position for m in maps[:2] for e in m.results if isinstance(e, AffineDimExpr)}
    if len(used) != maps[0].num_dims:
        raise VerifyException("expected all dimensions to be either a LHS or a RHS dimension")
    extents: dict[int, int] = {}
    for t, m in ((lhs, maps[0]), (rhs, maps[1])):
        for i, size in enumerate(t.get_shape()):
            extents.setdefault(cast(AffineDimExpr, m.results[i]).position, size)
    shape = [extents[cast(AffineDimExpr, e).position] for e in maps[2].results]
    expected = VectorType(res_t.get_element_type(), shape)
    if res_t != expected or acc_t != expected:
        raise VerifyException(f"invalid accumulator/result vector shape, expected: {expected}")


__all__ = [
    "ContractionOp",
    "contract_iterators",
    "contract_maps",
    "contract_mask_type",
    "dim_map",
]
