"""Shared pieces of the vector dialect: its attributes, affine-map facts, syntax helpers.

- `#vector.kind<add>` (xDSL's `CombiningKindAttr`) and `#vector.iterator_type<parallel>`
  (`IteratorTypeAttr`, which xDSL lacks);
- which combining kinds an element type supports (upstream's `isSupportedCombiningKind`);
- permutation-map facts the transfer ops and their lowerings share (minor identity with
  broadcasting, permutations of it, the mask type of a transfer);
- syntax helpers for upstream's keyword lists (`offsets = [0, 2]`) and for properties
  given the pre-LLVM-24 way, in the attribute dictionary.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TypeVar

from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    BytesAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.dialects.vector import CombiningKindAttr, CombiningKindFlag
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class IteratorType(StrEnum):
    """The iterator kinds of `vector.contract`."""

    PARALLEL = "parallel"
    REDUCTION = "reduction"


@irdl_attr_definition
class IteratorTypeAttr(EnumAttribute[IteratorType]):
    """`#vector.iterator_type<parallel>`; `vector.contract` prints it as a string."""

    name = "vector.iterator_type"

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(self.data)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> IteratorType:
        with parser.in_angle_brackets():
            return IteratorType(parser.parse_identifier())


PARALLEL = IteratorTypeAttr(IteratorType.PARALLEL)
REDUCTION = IteratorTypeAttr(IteratorType.REDUCTION)

_INT_KINDS = frozenset({"minui", "minsi", "maxui", "maxsi", "and", "or", "xor"})
_FLOAT_KINDS = frozenset({"minnumf", "maxnumf", "minimumf", "maximumf"})


def kind_name(kind: Attribute) -> str:
    """The keyword of a `#vector.kind` attribute (`add`, `maxnumf`, ...)."""
    assert isinstance(kind, CombiningKindAttr)
    return kind.data.value


def make_kind(name: str) -> CombiningKindAttr:
    return CombiningKindAttr(CombiningKindFlag(name))


def is_int_or_index(t: Attribute) -> bool:
    return isinstance(t, IntegerType | IndexType)


def is_supported_kind(kind: str, element_type: Attribute) -> bool:
    """Upstream's `isSupportedCombiningKind`."""
    if kind in ("add", "mul"):
        return is_int_or_index(element_type) or isinstance(element_type, AnyFloat)
    if kind in _INT_KINDS:
        return is_int_or_index(element_type)
    if kind in _FLOAT_KINDS:
        return isinstance(element_type, AnyFloat)
    return False


def no_fastmath() -> FastMathFlagsAttr:
    return FastMathFlagsAttr("none")


def element_type(t: Attribute) -> Attribute:
    """The element type of a vector, or the type itself."""
    return t.get_element_type() if isinstance(t, VectorType) else t


def vec(
    shape: Sequence[int], elem: Attribute, scalable: Sequence[bool] | None = None
) -> VectorType:
    """`vector<shape x elem>` (scalable dims where given)."""
    if scalable is not None and any(scalable):
        return VectorType(elem, list(shape), ArrayAttr(BoolAttr.from_bool(s) for s in scalable))
    return VectorType(elem, list(shape))


def scalable_dims(t: VectorType) -> tuple[bool, ...]:
    return t.get_scalable_dims() if t.get_num_scalable_dims() else (False,) * t.get_num_dims()


def type_str(t: Attribute) -> str:
    """A type as upstream prints it inside a message."""
    return str(t)


# --- affine maps ----------------------------------------------------------------------------


def dim_position(expr: AffineExpr) -> int | None:
    return expr.position if isinstance(expr, AffineDimExpr) else None


def is_zero(expr: AffineExpr) -> bool:
    return isinstance(expr, AffineConstantExpr) and expr.value == 0


def minor_identity(num_dims: int, num_results: int) -> AffineMap:
    return AffineMap.minor_identity(num_dims, num_results)


def transfer_minor_identity(
    shaped_rank: int, shaped_elem: Attribute, vtype: VectorType
) -> AffineMap:
    """Upstream's `getTransferMinorIdentityMap`."""
    if shaped_rank == 0 and vtype.get_shape() == (1,):
        return AffineMap(0, 0, (AffineExpr.constant(0),))
    elem_rank = shaped_elem.get_num_dims() if isinstance(shaped_elem, VectorType) else 0
    return AffineMap.minor_identity(shaped_rank, vtype.get_num_dims() - elem_rank)


def is_minor_identity(m: AffineMap) -> bool:
    """Upstream's `isMinorIdentity` (rank-0 maps with no results count)."""
    if len(m.results) > m.num_dims:
        return False
    return m == AffineMap.minor_identity(m.num_dims, len(m.results))


def minor_identity_with_broadcasting(m: AffineMap) -> list[int] | None:
    """Upstream's `isMinorIdentityWithBroadcasting`: the broadcast result positions, or
    None when the map is not a minor identity up to zero results."""
    if m.num_symbols or m.num_dims < len(m.results):
        return None
    broadcast: list[int] = []
    lead = m.num_dims - len(m.results)
    for i, expr in enumerate(m.results):
        if is_zero(expr):
            broadcast.append(i)
            continue
        pos = dim_position(expr)
        if pos is None or pos != lead + i:
            return None
    return broadcast


def permutation_of_minor_identity_with_broadcasting(m: AffineMap) -> list[int] | None:
    """Upstream's `isPermutationOfMinorIdentityWithBroadcasting`: the permutation that
    turns the map into a minor identity with broadcasting, or None."""
    num_results, num_dims = len(m.results), m.num_dims
    projection_start = num_dims - num_results if num_results < num_dims else 0
    leading_broadcast = num_results - num_dims if num_results > num_dims else 0
    found = [False] * max(num_dims, num_results)
    permutation = [0] * num_results
    broadcast: list[int] = []
    for i, expr in enumerate(m.results):
        if isinstance(expr, AffineConstantExpr):
            if expr.value != 0:
                return None
            broadcast.append(i)
            continue
        pos = dim_position(expr)
        if pos is None or pos < projection_start:
            return None
        new_position = pos - projection_start + leading_broadcast
        permutation[i] = new_position
        found[new_position] = True
    # Broadcast results take the free minor positions, in order (any would do).
    slot = 0
    for res in broadcast:
        while slot < len(found) and found[slot]:
            slot += 1
        permutation[res] = slot
        slot += 1
    return permutation


def permutation_map(permutation: Sequence[int]) -> AffineMap:
    """`(d0, ..., dn) -> (d_perm[0], ...)`: upstream's `AffineMap::getPermutationMap`."""
    return AffineMap(len(permutation), 0, tuple(AffineExpr.dimension(p) for p in permutation))


def inverse_permutation(m: AffineMap) -> AffineMap:
    inv = m.inverse_permutation()
    assert inv is not None
    return inv


def compress_unused_dims(m: AffineMap) -> AffineMap:
    """Upstream's `compressUnusedDims`: drop the dims no result uses."""
    used = m.used_dims()
    return m.drop_dims(tuple(i not in used for i in range(m.num_dims)))


def infer_transfer_mask_type(vtype: VectorType, m: AffineMap) -> VectorType:
    """Upstream's `inferTransferOpMaskType`: the vector dims in source order, without
    broadcast dims."""
    compressed = compress_unused_dims(m)
    inv = compressed.inverse_permutation()
    assert inv is not None
    shape = list(inv.eval(vtype.get_shape(), ()))
    scal = list(inv.eval(tuple(int(s) for s in scalable_dims(vtype)), ())) if shape else []
    if not shape:
        shape, scal = [1], [0]
    return vec(shape, i1, [bool(s) for s in scal])


def broadcast_dims(m: AffineMap) -> list[int]:
    return [i for i, e in enumerate(m.results) if is_zero(e)]


_Int = TypeVar("_Int", bound=IntegerType)

# --- syntax ------------------------------------------------------------------------------------


def i64_array(values: Sequence[int]) -> ArrayAttr[IntegerAttr]:
    """An `ArrayAttr` of i64 (`[0, 2]`), what strided-slice offsets are."""
    return ArrayAttr(IntegerAttr(v, i64) for v in values)


def dense_array(t: _Int, values: Sequence[int]) -> DenseArrayBase[_Int]:
    """A dense integer array (`array<i64: 0, 2>`) packed in one step: xDSL's `from_list`
    normalizes every value through the attribute machinery, which made the shuffle masks
    of wide vectors (thousands of lanes, one mask per shuffle) most of the compile time.
    The values must fit `t` (positions and masks do)."""
    return DenseArrayBase(t, BytesAttr(t.pack(values)))


@lru_cache(maxsize=8192)
def dense_ints(attr: DenseArrayBase[IntegerType]) -> tuple[int, ...]:
    """The integers of a dense i64 array (positions, shapes), unpacked once per distinct
    array: the vector folds read the same few positions hundreds of thousands of times,
    and xDSL unpacks the bytes on every `get_values`."""
    return tuple(int(v) for v in attr.get_values())


def int_values(attr: Attribute) -> list[int]:
    """Integers of an ArrayAttr of IntegerAttr or of a dense i64 array."""
    if isinstance(attr, DenseArrayBase):
        return list(dense_ints(attr))
    assert isinstance(attr, ArrayAttr)
    return [a.value.data for a in attr.data]


def parse_int_list(parser: Parser) -> list[int]:
    """`[1, 2, 3]`."""
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )


def print_int_list(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


def parse_keyword_list(parser: Parser, name: str) -> list[int] | None:
    """`name = [..]` when the next token is `name`."""
    if not parser.parse_optional_keyword(name):
        return None
    parser.parse_punctuation("=")
    return parse_int_list(parser)


def parse_operands(parser: Parser, count: int) -> list[UnresolvedOperand]:
    """`%a, %b, ...`: exactly `count` comma-separated operands."""
    operands = [parser.parse_unresolved_operand()]
    for _ in range(count - 1):
        parser.parse_punctuation(",")
        operands.append(parser.parse_unresolved_operand())
    return operands


def print_operands(printer: Printer, *values: SSAValue) -> None:
    """` %a, %b, ...` (with the space that follows the op name)."""
    printer.print_string(" ")
    printer.print_list(values, printer.print_operand)


def parse_indexed(parser: Parser) -> tuple[UnresolvedOperand, list[UnresolvedOperand]]:
    """`%base[%i, %j]`: the base and its indices."""
    base = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    return base, indices


def print_indexed(printer: Printer, base: SSAValue, indices: Sequence[SSAValue]) -> None:
    """`%base[%i, %j]`."""
    printer.print_operand(base)
    printer.print_string("[")
    printer.print_list(indices, printer.print_operand)
    printer.print_string("]")


def resolve_indices(parser: Parser, indices: Sequence[UnresolvedOperand]) -> list[SSAValue]:
    """Resolves index operands (`[%i, %j]`) as `index`."""
    return [parser.resolve_operand(i, IndexType()) for i in indices]


def parse_types(parser: Parser, *separators: str) -> list[Attribute]:
    """`: t0 sep t1 ...`, each separator `,` or a keyword (`to`, `into`, `from`)."""
    parser.parse_punctuation(":")
    types: list[Attribute] = [parser.parse_type()]
    for sep in separators:
        if sep == ",":
            parser.parse_punctuation(",")
        else:
            parser.parse_keyword(sep)
        types.append(parser.parse_type())
    return types


def parse_attrs_and_types(
    parser: Parser, *separators: str
) -> tuple[dict[str, Attribute], list[Attribute]]:
    """`{attr-dict} : t0 sep t1 ...` (see `parse_types`)."""
    attrs = parser.parse_optional_attr_dict()
    return attrs, parse_types(parser, *separators)


def print_attrs_and_types(printer: Printer, op: Operation, *parts: Attribute | str) -> None:
    """`{attr-dict} : t0 sep t1 ...`: `parts` are the types with their separators between."""
    printer.print_op_attributes(op.attributes)
    text = "".join(
        (", " if p == "," else f" {p} ") if isinstance(p, str) else str(p) for p in parts
    )
    printer.print_string(f" : {text}")


def in_bounds_values(attr: Attribute | None, rank: int) -> list[bool]:
    if not isinstance(attr, ArrayAttr):
        return [False] * rank
    return [bool(a.value.data) for a in attr.data]


def bool_array(values: Sequence[bool]) -> ArrayAttr[BoolAttr]:
    return ArrayAttr(BoolAttr.from_bool(bool(v)) for v in values)


__all__ = [
    "PARALLEL",
    "REDUCTION",
    "CombiningKindAttr",
    "IteratorType",
    "IteratorTypeAttr",
    "bool_array",
    "broadcast_dims",
    "compress_unused_dims",
    "dense_ints",
    "element_type",
    "i64_array",
    "in_bounds_values",
    "infer_transfer_mask_type",
    "int_values",
    "inverse_permutation",
    "is_minor_identity",
    "is_supported_kind",
    "kind_name",
    "make_kind",
    "minor_identity",
    "minor_identity_with_broadcasting",
    "parse_attrs_and_types",
    "parse_indexed",
    "parse_operands",
    "parse_types",
    "permutation_map",
    "permutation_of_minor_identity_with_broadcasting",
    "print_attrs_and_types",
    "print_indexed",
    "print_operands",
    "resolve_indices",
    "transfer_minor_identity",
    "vec",
]
