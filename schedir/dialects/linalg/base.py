"""Shared machinery of schedir's linalg ops: scalar casts and arithmetic as upstream's
`RegionBuilderHelper` emits them, the structured-op verifier, `ins(...) outs(...)` syntax
and the short-form payload syntax of linalg.map and linalg.reduce.

Upstream builds the bodies of named ops with OpDSL's region builders; `cast_to` and
`binary` reproduce `convertScalarToDtype` and `buildBinaryFn` op for op, so a generalized
named op has exactly upstream's body (`arith.extf` for f16 -> f32, `arith.extsi` for
i8 -> i32, `arith.ori` for an i1 add, ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import auto
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as xops
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import IRDLOperation, irdl_attr_definition
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------------------
# attributes


class TypeFn(StrEnum):
    """Upstream's `linalg::TypeFn`: how a named op converts operands to the output type."""

    CAST_SIGNED = auto()
    CAST_UNSIGNED = auto()


@irdl_attr_definition
class TypeFnAttr(EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_signed|cast_unsigned>`, the `cast` of matmul-like ops."""

    name = "linalg.type_fn"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> TypeFn:
        with parser.in_angle_brackets():
            return TypeFn(parser.parse_str_enum(TypeFn))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


# ---------------------------------------------------------------------------------------
# scalar body builders (upstream's RegionBuilderHelper)


def element_type(type_: Attribute) -> Attribute:
    """The element type of a tensor or memref, or the type itself for a scalar."""
    # A plain isinstance: `isa` with a generic alias builds an IRDL constraint per call,
    # and this runs for every operand of every structured op the verifier sees.
    if isinstance(type_, TensorType | MemRefType):
        return type_.get_element_type()
    return type_


def is_float(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


def cast_to(block: Block, value: SSAValue, to_type: Attribute, unsigned: bool = False) -> SSAValue:
    """Upstream's `convertScalarToDtype`: append the one cast op needed (if any) to `block`."""
    from_type = value.type
    if from_type == to_type:
        return value
    op: Operation | None = None
    if isinstance(to_type, IntegerType):
        if is_float(from_type):
            op = (arith.FPToUIOp if unsigned else arith.FPToSIOp)(value, to_type)
        elif isinstance(from_type, IndexType):
            op = arith.IndexCastOp(value, to_type)
        elif isinstance(from_type, IntegerType):
            to_width, from_width = to_type.width.data, from_type.width.data
            if to_width > from_width:
                op = (arith.ExtUIOp if unsigned else arith.ExtSIOp)(value, to_type)
            elif to_width < from_width:
                op = arith.TruncIOp(value, to_type)
    elif is_float(to_type):
        to_float = cast(AnyFloat, to_type)
        if isinstance(from_type, IntegerType):
            op = (arith.UIToFPOp if unsigned else arith.SIToFPOp)(value, to_float)
        elif is_float(from_type):
            to_width = to_float.bitwidth
            from_width = cast(AnyFloat, from_type).bitwidth
            if to_width > from_width:
                op = arith.ExtFOp(value, to_float)
            elif to_width < from_width:
                op = arith.TruncFOp(value, to_float)
    if op is None:
        # Upstream leaves the value alone (e.g. f16 <-> bf16); the verifier then rejects it.
        return value
    block.add_op(op)
    return op.results[0]


class BinaryFn(StrEnum):
    """The binary functions of OpDSL that schedir's named ops use."""

    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()


def binary(block: Block, fn: BinaryFn, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """Upstream's `buildBinaryFn` on floats and integers (i1 add/mul are or/and)."""
    both_float = is_float(lhs.type) and is_float(rhs.type)
    both_bool = lhs.type == rhs.type == IntegerType(1)
    op: Operation
    match fn:
        case BinaryFn.ADD:
            op = (
                arith.AddfOp(lhs, rhs)
                if both_float
                else (arith.OrIOp(lhs, rhs) if both_bool else arith.AddiOp(lhs, rhs))
            )
        case BinaryFn.SUB:
            op = arith.SubfOp(lhs, rhs) if both_float else arith.SubiOp(lhs, rhs)
        case BinaryFn.MUL:
            op = (
                arith.MulfOp(lhs, rhs)
                if both_float
                else (arith.AndIOp(lhs, rhs) if both_bool else arith.MuliOp(lhs, rhs))
            )
        case BinaryFn.DIV:
            op = arith.DivfOp(lhs, rhs) if both_float else arith.DivSIOp(lhs, rhs)
        case BinaryFn.MAX_SIGNED:
            op = arith.MaximumfOp(lhs, rhs) if both_float else arith.MaxSIOp(lhs, rhs)
        case BinaryFn.MIN_SIGNED:
            op = arith.MinimumfOp(lhs, rhs) if both_float else arith.MinSIOp(lhs, rhs)
    block.add_op(op)
    return op.results[0]


# ---------------------------------------------------------------------------------------
# verification (upstream's verifyStructuredOpInterface and DPS checks)


def verify_dps_results(inits: Sequence[SSAValue], results: Sequence[SSAValue]) -> None:
    """Tensor inits produce results of the same types, in order; buffer inits none."""
    tensor_inits = [(i, v) for i, v in enumerate(inits) if isinstance(v.type, TensorType)]
    if len(tensor_inits) != len(results):
        raise VerifyException(
            f"expected the number of tensor results ({len(results)}) to be equal to the "
            f"number of output tensors ({len(tensor_inits)})"
        )
    return None


def verify_result_types(
    num_inputs: int, inits: Sequence[SSAValue], results: Sequence[SSAValue]
) -> None:
    """Each result has the type of its init (upstream's DestinationStyleOpInterface)."""
    verify_dps_results(inits, results)
    tensor_inits = [(i, v) for i, v in enumerate(inits) if isinstance(v.type, TensorType)]
    for (index, init), result in zip(tensor_inits, results, strict=True):
        if init.type != result.type:
            raise VerifyException(
                f"expected type of operand #{num_inputs + index} ('{init.type}') to match "
                f"type of corresponding result ('{result.type}')"
            )


def verify_structured(
    operands: Sequence[SSAValue],
    indexing_maps: Sequence[AffineMap],
    num_loops: int,
) -> None:
    """Operand kinds, indexing-map arity, invertibility and static shapes, as upstream."""
    shaped = [v.type for v in operands if isinstance(v.type, ShapedType)]
    if any(isinstance(t, TensorType) for t in shaped) and any(
        isinstance(t, MemRefType) for t in shaped
    ):
        raise VerifyException("expected to have pure tensor or buffer semantics")
    if len(indexing_maps) != len(operands):
        raise VerifyException(
            f"expected the number of indexing_map ({len(indexing_maps)}) to be equal to the "
            f"number of input/output operands ({len(operands)})"
        )
    for index, (operand, map_) in enumerate(zip(operands, indexing_maps, strict=True)):
        if map_.num_symbols:
            raise VerifyException(f"unexpected symbols in indexing_map #{index}")
        rank = len(operand.type.get_shape()) if isinstance(operand.type, ShapedType) else 0
        if len(map_.results) != rank:
            raise VerifyException(
                f"expected operand #{index} rank ({rank}) to match the result rank of "
                f"indexing_map ({len(map_.results)})"
            )
        if map_.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match the "
                "number of loops"
            )
    if not indexing_maps:
        return
    concat = AffineMap(num_loops, 0, tuple(r for m in indexing_maps for r in m.results))
    shapes_to_loops = concat.inverse_permutation()
    if shapes_to_loops is None:
        raise VerifyException(f"invalid indexing maps are non-invertible: ({concat})")
    shapes = [d for v in operands if isinstance(v.type, ShapedType) for d in v.type.get_shape()]
    if any(d < 0 for d in shapes):
        # Dynamic sizes give loop ranges known only at run time; upstream then checks
        # only the dimensions it can, which are those of fully static ops.
        return
    ends = tuple(r - 1 for r in shapes_to_loops.eval(shapes, []))
    starts = (0,) * len(ends)
    for index, (operand, map_) in enumerate(zip(operands, indexing_maps, strict=True)):
        if not isinstance(operand.type, ShapedType):
            continue
        lows, highs = map_.eval(starts, []), map_.eval(ends, [])
        for dim, (lo, hi, size) in enumerate(
            zip(lows, highs, operand.type.get_shape(), strict=True)
        ):
            if size == 0:
                continue
            if min(lo, hi) < 0:
                raise VerifyException(
                    f"unexpected result less than 0 at expression #{dim} in {map_}"
                )
            inferred = max(lo, hi) + 1
            if isinstance(map_.results[dim], AffineDimExpr):
                if inferred != size:
                    raise VerifyException(
                        f"inferred input/output operand #{index} has shape's dimension "
                        f"#{dim} to be {inferred}, but found {size}"
                    )
            elif inferred > size:
                raise VerifyException(
                    f"inferred input/output operand #{index} has shape's dimension #{dim} "
                    f"to be greater than or equal to {inferred}, but found {size}"
                )


def verify_block_args(operands: Sequence[SSAValue], block: Block) -> None:
    """One body argument per operand, of its element type (generic and named ops)."""
    if len(block.args) != len(operands):
        raise VerifyException(
            "expected as many non-induction variable region arguments as the number of "
            "input/output operands"
        )
    for index, (operand, arg) in enumerate(zip(operands, block.args, strict=True)):
        expected = element_type(operand.type)
        if arg.type != expected:
            raise VerifyException(
                f"expected type of bb argument #{index} ('{arg.type}') to match element or "
                f"self type of the corresponding operand ('{expected}')"
            )


# ---------------------------------------------------------------------------------------
# syntax helpers


def parse_operand_group(parser: Parser, keyword: str) -> list[SSAValue]:
    """`kw(%a, %b : t1, t2)` or nothing; the operands resolved against their types."""
    if not parser.parse_optional_keyword(keyword):
        return []
    parser.parse_punctuation("(")
    pos = parser.pos
    unresolved: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return list(parser.resolve_operands(unresolved, types, pos))


def print_operand_group(printer: Printer, keyword: str, values: Sequence[SSAValue]) -> None:
    """` kw(%a, %b : t1, t2)`, nothing for an empty group (upstream's common parts)."""
    if not values:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list([v.type for v in values], printer.print_attribute)
    printer.print_string(")")


def parse_arrow_types(parser: Parser) -> list[Attribute]:
    """Upstream's parseOptionalArrowTypeList: `-> t`, `-> (a, b)` or nothing."""
    if not parser.parse_optional_punctuation("->"):
        return []
    types = parser.parse_optional_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
    return list(types) if types is not None else [parser.parse_type()]


def print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """Upstream's printOptionalArrowTypeList."""
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    printer.print_string(")")


def parse_i64_list(parser: Parser) -> list[int]:
    """`[1, 0]`."""
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


# ---------------------------------------------------------------------------------------
# short-form payloads of map and reduce (upstream's printShortForm / findPayloadOp)


def payload_op(block: Block, operands: Sequence[SSAValue]) -> Operation | None:
    """The single payload op of a short-form body, if the body is one (upstream's
    findPayloadOp): one op applied to `operands` in order, whose result is yielded."""
    ops = list(block.ops)
    if len(ops) != 2 or not operands:
        return None
    payload, yield_op = ops
    if not isinstance(yield_op, xops.YieldOp) or len(payload.results) != 1:
        return None
    if list(yield_op.operands) != [payload.results[0]]:
        return None
    if payload.regions or list(payload.operands) != list(operands):
        return None
    return payload


def print_short_form(printer: Printer, payload: Operation) -> None:
    printer.print_string(f" {{ {payload.name}")
    attrs: dict[str, Attribute] = {**payload.properties, **payload.attributes}
    for key, value in list(attrs.items()):
        # Upstream elides a `fastmath = none` flag (and only that one).
        if isinstance(value, FastMathFlagsAttr) and not value.data:
            del attrs[key]
            break
    printer.print_op_attributes(attrs)
    printer.print_string(" }")


def parse_short_form(parser: Parser) -> tuple[type[Operation], dict[str, Attribute]] | None:
    """`{ dialect.op {attrs} }` before `ins`, or None."""
    if not parser.parse_optional_punctuation("{"):
        return None
    pos = parser.pos
    name = parser.parse_identifier()
    op_type = parser.ctx.get_optional_op(name)
    if op_type is None:
        parser.raise_error(f"custom op '{name}' is unknown", pos, parser.pos)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation("}")
    return op_type, attrs


def build_payload(
    op_type: type[Operation],
    attrs: Mapping[str, Attribute],
    operands: Sequence[SSAValue],
    result_type: Attribute,
) -> Operation:
    """The payload op of a short form, with attributes sorted into properties as declared."""
    prop_names: set[str] = set()
    if issubclass(op_type, IRDLOperation):
        prop_names = set(op_type.get_irdl_definition().properties)
    return op_type.create(
        operands=list(operands),
        result_types=[result_type],
        properties={k: v for k, v in attrs.items() if k in prop_names},
        attributes={k: v for k, v in attrs.items() if k not in prop_names},
    )


def print_long_form_body(printer: Printer, region: Region) -> None:
    with printer.indented():
        printer._print_new_line()  # pyright: ignore[reportPrivateUsage]  # xDSL's Printer has no public line break
        printer.print_string("(")
        printer.print_list(region.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(region, print_entry_block_args=False)


def parse_long_form_body(parser: Parser) -> Region:
    args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_argument)
    return parser.parse_region(args)


__all__ = [
    "BinaryFn",
    "TypeFn",
    "TypeFnAttr",
    "binary",
    "build_payload",
    "cast_to",
    "element_type",
    "is_float",
    "parse_arrow_types",
    "parse_i64_list",
    "parse_long_form_body",
    "parse_operand_group",
    "parse_short_form",
    "payload_op",
    "print_arrow_types",
    "print_long_form_body",
    "print_operand_group",
    "print_short_form",
    "verify_block_args",
    "verify_result_types",
    "verify_structured",
]
