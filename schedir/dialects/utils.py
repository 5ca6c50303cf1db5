"""Helpers shared by schedir's dialect modules: mixed static/dynamic lists, slice checks,
reassociation syntax, resetting an inherited custom syntax.

Upstream stores a list that mixes constants and SSA values (offsets, sizes, loop bounds) as
a dense i64 array with `ShapedType::kDynamic` at the dynamic positions plus one operand per
such position; these helpers convert between that encoding and Python lists of
`int | SSAValue`, and check slice types the way upstream's `OffsetSizeAndStrideOpInterface`
and `produceSliceErrorMsg` do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    ContainerType,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    i64,
)
from xdsl.dialects.utils import parse_dynamic_index_list_without_types, print_dynamic_index_list
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

# xDSL generates parse/print from `assembly_format` and refuses a class that defines either
# itself; a subclass of an op with a custom syntax inherits that syntax, so it resets the pair
# to Operation's (exactly these objects: xDSL compares them) before the format is generated
# for its own definitions. Typed Any: a classmethod object stored over a method is what xDSL
# checks for, and no method type says that.
FORMAT_PARSE: Any = classmethod(Operation.parse.__func__)
"""Assign to `parse` in an op class with an `assembly_format` whose base has a custom syntax."""
FORMAT_PRINT: Any = Operation.print
"""Assign to `print` in an op class with an `assembly_format` whose base has a custom syntax."""

Mixed = int | SSAValue
"""One entry of a mixed static/dynamic list: a constant or an index-typed SSA value."""


class LocatedVerifyException(VerifyException):
    """A verifier failure reported as upstream reports it: at `at` (default: the op),
    with `prefix=False` for upstream's `emitError()` (no `'<op>' op`), and with notes at
    other ops (e.g. "symbol declaration")."""

    def __init__(
        self,
        message: str,
        *,
        at: Operation | None = None,
        prefix: bool = True,
        notes: Sequence[tuple[Operation, str]] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.at = at
        self.prefix = prefix
        self.notes = tuple(notes)


def mixed_values(static: DenseArrayBase[IntegerType], dynamic: Sequence[SSAValue]) -> list[Mixed]:
    """Merge an upstream static array (kDynamic at dynamic positions) with its operands."""
    values = iter(dynamic)
    return [next(values) if v == DYNAMIC_INDEX else v for v in static.get_values()]


def split_mixed(values: Sequence[Mixed]) -> tuple[DenseArrayBase[IntegerType], list[SSAValue]]:
    """Split a mixed list into upstream's static array and dynamic operands."""
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    dynamic = [v for v in values if isinstance(v, SSAValue)]
    return DenseArrayBase.from_list(i64, static), dynamic


def constant_index(value: Mixed) -> int | None:
    """The constant an entry stands for: the int itself or an `arith.constant` result."""
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def verify_operands_or_integers(
    name: str, expected: int, static: DenseArrayBase[IntegerType], dynamic: Sequence[SSAValue]
) -> None:
    """Upstream's `verifyListOfOperandsOrIntegers`: lengths and dynamic-marker count."""
    values = static.get_values()
    if len(values) != expected:
        raise VerifyException(f"expected {expected} {name} values, got {len(values)}")
    num_dynamic = sum(1 for v in values if v == DYNAMIC_INDEX)
    if len(dynamic) != num_dynamic:
        raise VerifyException(f"expected {num_dynamic} dynamic {name} values")


def verify_offsets_sizes_strides(
    rank: int,
    offsets: tuple[DenseArrayBase[IntegerType], Sequence[SSAValue]],
    sizes: tuple[DenseArrayBase[IntegerType], Sequence[SSAValue]],
    strides: tuple[DenseArrayBase[IntegerType], Sequence[SSAValue]],
) -> None:
    """Upstream's `verifyOffsetSizeAndStrideOp` for a slice of a rank-`rank` shaped value."""
    n_off, n_size, n_stride = (len(x[0].get_values()) for x in (offsets, sizes, strides))
    if n_off != n_size:
        raise VerifyException(
            f"expected mixed offsets rank to match mixed sizes rank ({n_off} vs {n_size}) "
            "so the rank of the result type is well-formed."
        )
    if n_size != n_stride:
        raise VerifyException(
            f"expected mixed sizes rank to match mixed strides rank ({n_size} vs {n_stride}) "
            "so the rank of the result type is well-formed."
        )
    verify_operands_or_integers("offset", rank, *offsets)
    verify_operands_or_integers("size", rank, *sizes)
    verify_operands_or_integers("stride", rank, *strides)
    for what, (static, _) in (("offsets", offsets), ("sizes", sizes)):
        for v in static.get_values():
            if v != DYNAMIC_INDEX and v < 0:
                raise VerifyException(f"expected {what} to be non-negative, but got {v}")


def verify_slice_in_bounds(
    shape: Sequence[int],
    offsets: DenseArrayBase[IntegerType],
    sizes: DenseArrayBase[IntegerType],
    strides: DenseArrayBase[IntegerType],
) -> None:
    """Static slices must stay inside the sliced value, as upstream checks."""
    for dim, (extent, off, size, stride) in enumerate(
        zip(shape, offsets.get_values(), sizes.get_values(), strides.get_values(), strict=True)
    ):
        if DYNAMIC_INDEX in (extent, off, size, stride) or size == 0:
            continue
        last = off + (size - 1) * stride
        if last >= extent:
            raise VerifyException(
                f"slice along dimension {dim} runs out-of-bounds: {last} >= {extent}"
            )


def verify_rank_reduced_slice(
    expected_shape: Sequence[int],
    element_type: Attribute,
    actual: ShapedType,
    expected_type_str: str,
) -> None:
    """Upstream's `isRankReducedType` + `produceSliceErrorMsg`: `actual` must be the
    expected slice type, possibly with some unit dimensions dropped."""
    actual_shape = actual.get_shape()
    if len(actual_shape) > len(expected_shape):
        raise VerifyException("expected rank to be smaller or equal to the other rank. ")
    if not _drops_only_unit_dims(list(expected_shape), list(actual_shape)):
        raise VerifyException(
            f"expected type to be '{expected_type_str}' or a rank-reduced version. (size mismatch) "
        )
    # Slices are tensors or memrefs, which hold their element type.
    if cast(ContainerType[Attribute], actual).get_element_type() != element_type:
        raise VerifyException(f"expected element type to be '{element_type}'")


def _drops_only_unit_dims(full: list[int], reduced: list[int]) -> bool:
    """Whether `reduced` is `full` with some size-1 dimensions removed (greedy, as upstream)."""
    j = 0
    for size in full:
        if j < len(reduced) and reduced[j] == size:
            j += 1
        elif size != 1:
            return False
    return j == len(reduced)


def reassociation_attr(groups: Sequence[Sequence[int]]) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    """`[[0, 1], [2]]` as the ArrayAttr of i64 arrays upstream stores."""
    return ArrayAttr(ArrayAttr(IntegerAttr(d, i64) for d in group) for group in groups)


def reassociation_groups(attr: Attribute) -> list[list[int]]:
    """The reassociation groups of an ArrayAttr of integer ArrayAttrs."""
    assert isa(attr, ArrayAttr[ArrayAttr[IntegerAttr]])
    return [[d.value.data for d in group.data] for group in attr.data]


def parse_reassociation(parser: Parser) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    """Parse `[[0, 1], [2]]` (bare integers, as upstream prints reassociations)."""
    groups = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE,
        lambda: parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        ),
    )
    return reassociation_attr(groups)


def print_reassociation(printer: Printer, attr: Attribute) -> None:
    """Print reassociation groups as `[[0, 1], [2]]`."""
    groups = reassociation_groups(attr)
    printer.print_string(
        "[" + ", ".join("[" + ", ".join(str(d) for d in g) + "]" for g in groups) + "]"
    )


_ReshapeT = TypeVar("_ReshapeT", bound=IRDLOperation)


def parse_reshape(cls: type[_ReshapeT], parser: Parser, *, expand: bool) -> _ReshapeT:
    """The custom form of `collapse_shape` / `expand_shape`, tensor and memref alike.

    `%src [[0, 1], [2]] (output_shape [%n, 4, 8])? attr-dict : src-type into result-type`
    (`output_shape` only when `expand`).
    """
    src = parser.parse_unresolved_operand()
    properties: dict[str, Attribute] = {"reassociation": parse_reassociation(parser)}
    dynamic: Sequence[UnresolvedOperand] = ()
    pos = parser.pos
    if expand:
        parser.parse_keyword("output_shape")
        pos = parser.pos
        dynamic, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        properties["static_output_shape"] = DenseArrayBase.from_list(i64, static)
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    src_type = parser.parse_type()
    parser.parse_keyword("into")
    result_type = parser.parse_type()
    operands: list[SSAValue | Sequence[SSAValue]] = [parser.resolve_operand(src, src_type)]
    if expand:
        operands.append(parser.resolve_operands(dynamic, [IndexType()] * len(dynamic), pos))
    op = cls.build(operands=operands, result_types=[result_type], properties=properties)
    op.attributes |= attrs
    return op


def print_reshape(
    printer: Printer,
    op: Operation,
    output_shape: tuple[Sequence[SSAValue], DenseArrayBase[IntegerType]] | None = None,
) -> None:
    """Print what `parse_reshape` reads (`output_shape`: the dynamic values and static sizes)."""
    src, result = op.operands[0], op.results[0]
    printer.print_string(" ")
    printer.print_operand(src)
    printer.print_string(" ")
    print_reassociation(printer, op.properties["reassociation"])
    if output_shape is not None:
        printer.print_string(" output_shape ")
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, output_shape[0], output_shape[1].get_values()
        )
    printer.print_op_attributes(op.attributes)
    printer.print_string(f" : {src.type} into {result.type}")
