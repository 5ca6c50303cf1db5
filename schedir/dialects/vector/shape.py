"""Vector ops that move elements, in upstream syntax (strided slices, shuffles,
interleaves and element lists are in `slices`).

    %b = vector.broadcast %s : f32 to vector<4x8xf32>
    %c = vector.shape_cast %v : vector<4x8xf32> to vector<32xf32>
    %t = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
    %e = vector.extract %v[1, %i] : f32 from vector<4x8xf32>
    %n = vector.insert %s, %v [1, 2] : f32 into vector<4x8xf32>

Positions may be `poison` (printed `-1`, as upstream prints it). The legacy spelling
`vector.splat %s : vector<4xf32>` (now a `vector.broadcast`) is accepted and printed the
current way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    VectorType,
    i64,
)
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
    dense_ints,
    int_values,
    parse_attrs_and_types,
    parse_int_list,
    parse_operands,
    print_attrs_and_types,
    print_int_list,
    print_operands,
    resolve_indices,
    scalable_dims,
    vec,
)

POISON_INDEX = -1
"""Upstream's `kPoisonIndex`: a position that yields poison."""


# --- broadcast, shape_cast, transpose ------------------------------------------------------


def broadcast_mismatch(src: Attribute, dst: VectorType) -> str | None:
    """Upstream's `isBroadcastableTo`: None if `src` broadcasts to `dst`, else the reason."""
    if not isinstance(src, VectorType):
        if src == dst.get_element_type():
            return None
        return "source type is not a vector"
    src_rank, dst_rank = src.get_num_dims(), dst.get_num_dims()
    if src_rank > dst_rank:
        return "source rank higher than destination rank"
    lead = dst_rank - src_rank
    for i, s in enumerate(src.get_shape()):
        d = dst.get_shape()[lead + i]
        if s != 1 and s != d:
            return f"dimension mismatch ({s} vs. {d})"
    return None


class BroadcastOp(xvector.BroadcastOp):
    """Broadcasts a scalar or a vector to a vector (leading dims added, unit dims stretched).

    %b = vector.broadcast %v : vector<1x8xf32> to vector<4x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> BroadcastOp:
        operand = parser.parse_unresolved_operand()
        attrs, (src_t, dst_t) = parse_attrs_and_types(parser, "to")
        return cls.build(
            operands=[parser.resolve_operand(operand, src_t)],
            result_types=[dst_t],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.source)
        print_attrs_and_types(printer, self, self.source.type, "to", self.vector.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = self.source.type
        dst = cast(VectorType, self.vector.type)
        elem = src.get_element_type() if isinstance(src, VectorType) else src
        if elem != dst.get_element_type():
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        reason = broadcast_mismatch(src, dst)
        if reason is not None:
            raise VerifyException(reason)


@irdl_op_definition
class SplatOp(IRDLOperation):
    """The removed `vector.splat %s : vector<4xf32>`: parsed into a `vector.broadcast`."""

    name = "vector.splat"

    input = operand_def()
    aggregate = result_def(VectorType)

    @classmethod
    def parse(cls, parser: Parser) -> Operation:
        operand = parser.parse_unresolved_operand()
        attrs, (t,) = parse_attrs_and_types(parser)
        if not isinstance(t, VectorType):
            parser.raise_error("expected a vector type")
        op = BroadcastOp(parser.resolve_operand(operand, t.get_element_type()), t)
        op.attributes |= attrs
        return op


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    """Reshapes a vector (same elements, row-major order).

    %c = vector.shape_cast %v : vector<4x8xf32> to vector<32xf32>
    """

    name = "vector.shape_cast"

    source = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue, result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(VectorType, self.source.type)
        res = cast(VectorType, self.result.type)
        if src.get_element_type() != res.get_element_type():
            raise VerifyException("has different source and result element types")
        if src.element_count() != res.element_count():
            raise VerifyException(
                f"has different number of elements at source ({src.element_count()}) and "
                f"result ({res.element_count()})"
            )
        if src.get_num_scalable_dims() != res.get_num_scalable_dims():
            raise VerifyException(
                "has different number of scalable dims at source "
                f"({src.get_num_scalable_dims()}) and result ({res.get_num_scalable_dims()})"
            )


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """Permutes the dimensions of a vector.

    %t = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
    """

    name = "vector.transpose"

    vector = operand_def(VectorType)
    result = result_def(VectorType)
    permutation = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure())

    def __init__(self, vector: SSAValue, permutation: Sequence[int]):
        vt = cast(VectorType, vector.type)
        shape = [vt.get_shape()[p] for p in permutation]
        scal = [scalable_dims(vt)[p] for p in permutation]
        super().__init__(
            operands=[vector],
            result_types=[vec(shape, vt.get_element_type(), scal)],
            properties={"permutation": DenseArrayBase.from_list(i64, list(permutation))},
        )

    def perm(self) -> list[int]:
        return int_values(self.permutation)

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        operand = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        perm = parse_int_list(parser)
        attrs, (src_t, res_t) = parse_attrs_and_types(parser, "to")
        return cls.build(
            operands=[parser.resolve_operand(operand, src_t)],
            result_types=[res_t],
            properties={"permutation": DenseArrayBase.from_list(i64, perm)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.vector)
        printer.print_string(", ")
        print_int_list(printer, self.perm())
        print_attrs_and_types(printer, self, self.vector.type, "to", self.result.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(VectorType, self.vector.type)
        res = cast(VectorType, self.result.type)
        if src.get_element_type() != res.get_element_type():
            raise VerifyException(
                "failed to verify that all of {vector, result} have same element type"
            )
        rank = res.get_num_dims()
        if src.get_num_dims() != rank:
            raise VerifyException(f"vector result rank mismatch: {rank}")
        perm = self.perm()
        if len(perm) != rank:
            raise VerifyException(f"transposition length mismatch: {len(perm)}")
        seen: set[int] = set()
        for index, p in enumerate(perm):
            if p < 0 or p >= rank:
                raise VerifyException(f"transposition index out of range: {p}")
            if p in seen:
                raise VerifyException(f"duplicate position index: {p}")
            seen.add(p)
            if res.get_shape()[index] != src.get_shape()[p]:
                raise VerifyException(f"dimension size mismatch at: {p}")


# --- extract / insert ---------------------------------------------------------------------


def parse_positions(parser: Parser) -> tuple[list[int], list[UnresolvedOperand]]:
    """`[1, %i, poison]` -> static positions (kDynamic for SSA ones) and the SSA ones."""
    static: list[int] = []
    dynamic: list[UnresolvedOperand] = []

    def one() -> None:
        if parser.parse_optional_keyword("poison"):
            static.append(POISON_INDEX)
            return
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            static.append(DYNAMIC_INDEX)
            dynamic.append(operand)
            return
        static.append(parser.parse_integer(allow_boolean=False))

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, one)
    return static, dynamic


def print_positions(printer: Printer, static: Sequence[int], dynamic: Sequence[SSAValue]) -> None:
    items = iter(dynamic)
    printer.print_string("[")
    for index, value in enumerate(static):
        if index:
            printer.print_string(", ")
        if value == DYNAMIC_INDEX:
            printer.print_operand(next(items))
        else:
            printer.print_string(str(value))
    printer.print_string("]")


def _position_props(static: Sequence[int]) -> dict[str, Attribute]:
    """The `static_position` property of `vector.extract` / `vector.insert`."""
    return {"static_position": DenseArrayBase.from_list(i64, list(static))}


def _verify_positions(
    static: Sequence[int], dynamic: Sequence[SSAValue], vtype: VectorType, dest: bool
) -> None:
    if sum(1 for s in static if s == DYNAMIC_INDEX) != len(dynamic):
        raise VerifyException(
            "mismatch between dynamic and static positions (kDynamic marker but no "
            "corresponding dynamic position) -- this can only happen due to an incorrect "
            "fold/rewrite"
        )
    for index, pos in enumerate(static):
        if pos == DYNAMIC_INDEX or index >= vtype.get_num_dims():
            continue
        if pos != POISON_INDEX and not 0 <= pos < vtype.get_shape()[index]:
            what = (
                "corresponding dest vector dimension"
                if dest
                else "corresponding vector dimension or poison (-1)"
            )
            raise VerifyException(
                f"expected position attribute #{index + 1} to be a non-negative integer "
                f"smaller than the {what}"
            )


def extract_type(vtype: VectorType, num_positions: int) -> Attribute:
    """The type of `vector.extract` with that many positions (scalar when full rank)."""
    if num_positions == vtype.get_num_dims():
        return vtype.get_element_type()
    return vec(
        vtype.get_shape()[num_positions:],
        vtype.get_element_type(),
        scalable_dims(vtype)[num_positions:],
    )


class ExtractOp(xvector.ExtractOp):
    """Extracts a scalar or a sub-vector at a static or dynamic position.

    %e = vector.extract %v[1, %i] : f32 from vector<4x8xf32>
    """

    def __init__(
        self,
        vector: SSAValue,
        positions: Sequence[SSAValue | int],
        result_type: Attribute | None = None,
    ):
        if result_type is None:
            result_type = extract_type(cast(VectorType, vector.type), len(positions))
        super().__init__(vector, positions, result_type)

    @classmethod
    def parse(cls, parser: Parser) -> ExtractOp:
        vector = parser.parse_unresolved_operand()
        static, dynamic = parse_positions(parser)
        attrs, (res_t, src_t) = parse_attrs_and_types(parser, "from")
        return cls.build(
            operands=[parser.resolve_operand(vector, src_t), resolve_indices(parser, dynamic)],
            result_types=[res_t],
            properties=_position_props(static),
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.vector)
        print_positions(printer, dense_ints(self.static_position), self.dynamic_position)
        print_attrs_and_types(printer, self, self.result.type, "from", self.vector.type)

    def verify_(self) -> None:
        res = self.result.type
        if isinstance(res, VectorType) and res.get_num_dims() == 0:
            raise VerifyException("expected a scalar instead of a 0-d vector as the result type")
        vtype = cast(VectorType, self.vector.type)
        static = list(dense_ints(self.static_position))
        _verify_positions(static, self.dynamic_position, vtype, dest=False)
        if len(static) > vtype.get_num_dims():
            raise VerifyException("expected position attribute of rank no greater than vector rank")
        expected = extract_type(vtype, len(static))
        compatible = res == expected or (
            isinstance(res, VectorType)
            and res.get_shape() == (1,)
            and res.get_element_type() == expected
        )
        if not compatible:
            raise VerifyException(
                f"failed to infer returned types: inferred type {expected} does not match "
                f"result type {res}"
            )


class InsertOp(xvector.InsertOp):
    """Inserts a scalar or a sub-vector at a static or dynamic position.

    %n = vector.insert %s, %v [1, 2] : f32 into vector<4x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> InsertOp:
        source, dest = parse_operands(parser, 2)
        static, dynamic = parse_positions(parser)
        attrs, (src_t, dst_t) = parse_attrs_and_types(parser, "into")
        return cls.build(
            operands=[
                parser.resolve_operand(source, src_t),
                parser.resolve_operand(dest, dst_t),
                resolve_indices(parser, dynamic),
            ],
            result_types=[dst_t],
            properties=_position_props(static),
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.source, self.dest)
        printer.print_string(" ")
        print_positions(printer, dense_ints(self.static_position), self.dynamic_position)
        print_attrs_and_types(printer, self, self.source.type, "into", self.dest.type)

    def verify_(self) -> None:
        src = self.source.type
        if isinstance(src, VectorType) and src.get_num_dims() == 0:
            raise VerifyException("expected a scalar instead of a 0-d vector as the source operand")
        dest = cast(VectorType, self.dest.type)
        static = list(dense_ints(self.static_position))
        if self.result.type != dest:
            raise VerifyException("failed to verify that all of {dest, result} have same type")
        if len(static) > dest.get_num_dims():
            raise VerifyException(
                "expected position attribute of rank no greater than dest vector rank"
            )
        if isinstance(src, VectorType):
            if src.get_num_dims() + len(static) != dest.get_num_dims():
                raise VerifyException(
                    "expected position attribute rank + source rank to match dest vector rank"
                )
        elif len(static) != dest.get_num_dims():
            raise VerifyException("expected position attribute rank to match the dest vector rank")
        _verify_positions(static, self.dynamic_position, dest, dest=True)


SHAPE_OPS: tuple[type[Operation], ...] = (
    BroadcastOp,
    SplatOp,
    ShapeCastOp,
    TransposeOp,
    ExtractOp,
    InsertOp,
)

__all__ = [
    "POISON_INDEX",
    "SHAPE_OPS",
    "BroadcastOp",
    "ExtractOp",
    "InsertOp",
    "ShapeCastOp",
    "SplatOp",
    "TransposeOp",
    "broadcast_mismatch",
    "extract_type",
]
