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
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    Signedness,
    StringAttr,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects._vector_attrs import (
    CombiningKindAttr,
    IteratorType,
    IteratorTypeAttr,
    element_type,
    int_values,
    is_supported_kind,
    kind_name,
    make_kind,
    no_fastmath,
    parse_int_list,
    print_int_list,
    vec,
)


def _parse_kind(parser: Parser) -> CombiningKindAttr:
    """`<add>` (as declarative formats print the enum) or `#vector.kind<add>`."""
    if parser.parse_optional_punctuation("<") is not None:
        name = parser.parse_identifier()
        parser.parse_punctuation(">")
        try:
            return make_kind(name)
        except ValueError:
            parser.raise_error(f"expected a vector.kind, got '{name}'")
    attr = parser.parse_attribute()
    if not isinstance(attr, CombiningKindAttr):
        parser.raise_error("expected a #vector.kind attribute")
    return attr


def _parse_fastmath(parser: Parser) -> FastMathFlagsAttr | None:
    """`fastmath<reassoc,nnan>` after the operands (declarative-format spelling)."""
    if not parser.parse_optional_keyword("fastmath"):
        return None
    return FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))


def _is_default_fastmath(attr: Attribute | None) -> bool:
    return attr is None or attr == no_fastmath()


# --- contract ----------------------------------------------------------------------------


def contract_maps(op: Operation) -> list[AffineMap]:
    maps = op.properties["indexing_maps"]
    assert isinstance(maps, ArrayAttr)
    return [cast(AffineMapAttr, m).data for m in maps.data]


def contract_iterators(op: Operation) -> list[str]:
    its = op.properties["iterator_types"]
    assert isinstance(its, ArrayAttr)
    return [cast(IteratorTypeAttr, t).data.value for t in its.data]


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
class ContractionOp(IRDLOperation):
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
        if not _is_default_fastmath(self.fastmath):
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


# --- reductions --------------------------------------------------------------------------


@irdl_op_definition
class MultiDimReductionOp(IRDLOperation):
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
        kind = _parse_kind(parser)
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


class ReductionOp(xvector.ReductionOp):
    """Reduces a 1-D vector to a scalar, optionally combined with an accumulator.

    %s = vector.reduction <add>, %v, %acc fastmath<reassoc> : vector<8xf32> into f32
    """

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
        kind = _parse_kind(parser)
        parser.parse_punctuation(",")
        vector = parser.parse_unresolved_operand()
        acc: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(","):
            acc = parser.parse_unresolved_operand()
        fastmath = _parse_fastmath(parser)
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
        if not _is_default_fastmath(self.fastmath):
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


# --- outer product, fma, step -------------------------------------------------------------


@irdl_op_definition
class OuterProductOp(IRDLOperation):
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


COMPUTE_OPS: tuple[type[Operation], ...] = (
    ContractionOp,
    MultiDimReductionOp,
    ReductionOp,
    OuterProductOp,
    FMAOp,
    StepOp,
)

__all__ = [
    "COMPUTE_OPS",
    "ContractionOp",
    "FMAOp",
    "MultiDimReductionOp",
    "OuterProductOp",
    "ReductionOp",
    "StepOp",
    "contract_iterators",
    "contract_maps",
    "contract_mask_type",
    "dim_map",
]
