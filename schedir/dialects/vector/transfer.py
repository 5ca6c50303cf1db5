"""Vector transfers in upstream syntax: `vector.transfer_read` / `transfer_write`.

    %v = vector.transfer_read %m[%i, %j], %pad, %mask {in_bounds = [true],
           permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
    vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>

Transfers keep `in_bounds` and `permutation_map` in the attribute dictionary, as upstream
still prints them; the verifiers give upstream's messages. The classes subclass xDSL's
(same constructors and property names). Loads and stores are in `memory`, masks in
`masks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IndexType,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.vector.attributes import (
    bool_array,
    dim_position,
    in_bounds_values,
    infer_transfer_mask_type,
    is_minor_identity,
    is_zero,
    parse_indexed,
    print_indexed,
    print_operands,
    resolve_indices,
    transfer_minor_identity,
)
from schedir.dialects.vector.masks import MaskableOpInterface


def bitwidth(t: Attribute) -> int | None:
    """Bits of a scalar element type as upstream's data layout counts them."""
    if isinstance(t, IndexType):
        return 64
    width = getattr(t, "bitwidth", None)
    if isinstance(width, int):
        return width
    inner = getattr(t, "width", None)
    return inner.data if inner is not None else None


def is_last_dim_unit_stride(t: MemRefType) -> bool:
    """Upstream's `MemRefType::isLastDimUnitStride` on static layouts."""
    layout = t.layout
    rank = t.get_num_dims()
    if isinstance(layout, NoneAttr) or rank == 0:
        return True
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides())[-1] == 1
    if isinstance(layout, AffineMapAttr):
        amap = layout.data
        if amap.num_symbols or len(amap.results) != 1:
            return False
        # A strided map is linear in the dims: the last stride is f(e_last) - f(0).
        origin = amap.eval([0] * rank, [])[0]
        unit = amap.eval([0] * (rank - 1) + [1], [])[0]
        return unit - origin == 1
    return False


# --- transfers --------------------------------------------------------------------------


def _pop_transfer_attrs(
    parser: Parser,
    attrs: dict[str, Attribute],
    shaped: MemRefType[Attribute] | TensorType[Attribute],
    vtype: VectorType,
    types_pos: int,
) -> tuple[AffineMapAttr, ArrayAttr[BoolAttr]]:
    perm = attrs.pop("permutation_map", None)
    if perm is None:
        shaped_rank = shaped.get_num_dims()
        elem = shaped.get_element_type()
        elem_rank = elem.get_num_dims() if isinstance(elem, VectorType) else 0
        if shaped_rank < vtype.get_num_dims() - elem_rank:
            parser.raise_error(
                "expected a custom permutation_map when rank(source) != rank(destination)",
                at_position=types_pos,
            )
        perm = AffineMapAttr(transfer_minor_identity(shaped_rank, elem, vtype))
    if not isinstance(perm, AffineMapAttr):
        parser.raise_error("invalid kind of attribute specified", at_position=types_pos)
    in_bounds = attrs.pop("in_bounds", None)
    if in_bounds is None:
        in_bounds = bool_array([False] * len(perm.data.results))
    return perm, cast(ArrayAttr[BoolAttr], in_bounds)


def _print_transfer_attrs(printer: Printer, op: TransferReadOp | TransferWriteOp) -> None:
    perm, in_bounds = op.permutation_map, op.in_bounds
    shown: dict[str, Attribute] = dict(op.attributes)
    if not is_minor_identity(perm.data):
        shown["permutation_map"] = perm
    if any(in_bounds_values(in_bounds, 0)):
        shown["in_bounds"] = in_bounds
    if shown:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(shown.items())))


def verify_transfer(
    op: Operation,
    shaped: Attribute,
    vtype: VectorType,
    mask: SSAValue | None,
    perm_attr: Attribute,
    in_bounds: Attribute,
) -> None:
    """Upstream's `verifyTransferOp` and `verifyPermutationMap`."""
    if "masked" in op.attributes:
        raise VerifyException("masked attribute has been removed. Use in_bounds instead.")
    if not isinstance(shaped, MemRefType | TensorType):
        raise VerifyException("requires source to be a memref or ranked tensor type")
    assert isinstance(perm_attr, AffineMapAttr)
    perm = perm_attr.data
    elem = shaped.get_element_type()
    if isinstance(elem, VectorType):
        src_bits = (bitwidth(elem.get_element_type()) or 0) * elem.get_shape()[-1]
        res_bits = (bitwidth(vtype.get_element_type()) or 0) * vtype.get_shape()[-1]
        if src_bits and res_bits % src_bits:
            raise VerifyException(
                "requires the bitwidth of the minor 1-D vector to be an integral multiple of "
                "the bitwidth of the minor 1-D vector of the source"
            )
        if elem.get_num_dims() > vtype.get_num_dims():
            raise VerifyException(
                "requires source vector element and vector result ranks to match."
            )
        if len(perm.results) != vtype.get_num_dims() - elem.get_num_dims():
            raise VerifyException(
                "requires a permutation_map with result dims of the same rank as the vector type"
            )
        if mask is not None:
            raise VerifyException("does not support masks with vector element type")
    else:
        minor = 1 if vtype.get_num_dims() == 0 else vtype.get_shape()[-1]
        res_bits = (bitwidth(vtype.get_element_type()) or 0) * minor
        elem_bits = bitwidth(elem)
        if elem_bits and res_bits % elem_bits:
            raise VerifyException(
                "requires the bitwidth of the minor 1-D vector to be an integral multiple of "
                "the bitwidth of the source element type"
            )
        if len(perm.results) != vtype.get_num_dims():
            raise VerifyException(
                "requires a permutation_map with result dims of the same rank as the vector type"
            )
    if perm.num_symbols:
        raise VerifyException("requires permutation_map without symbols")
    if perm.num_dims != shaped.get_num_dims():
        raise VerifyException(
            "requires a permutation_map with input dims of the same rank as the source type"
        )
    if mask is not None:
        inferred = infer_transfer_mask_type(vtype, perm)
        if mask.type != inferred:
            raise VerifyException(
                f"inferred mask type ({inferred}) and mask operand type ({mask.type}) don't match"
            )
    size = len(in_bounds.data) if isinstance(in_bounds, ArrayAttr) else 0
    if len(perm.results) != size:
        raise VerifyException(
            "expects the in_bounds attr of same rank as permutation_map results: "
            f"{perm_attr} vs inBounds of size: {size}"
        )


def verify_permutation_map(perm: AffineMapAttr) -> None:
    seen: set[int] = set()
    for expr in perm.data.results:
        if is_zero(expr):
            continue
        pos = dim_position(expr)
        if pos is None:
            raise VerifyException(
                "requires a projected permutation_map (at most one dim or the zero constant "
                "can appear in each result)"
            )
        if pos in seen:
            raise VerifyException(
                "requires a permutation_map that is a permutation (found one dim used more "
                "than once)"
            )
        seen.add(pos)


def verify_index_count(num_indices: int, shaped: Attribute) -> None:
    """One index per dimension of the memref/tensor (`requires N indices`)."""
    # The op's operand constraint (checked first) made `shaped` a memref or tensor.
    rank = cast(ShapedType, shaped).get_num_dims()
    if num_indices != rank:
        raise VerifyException(f"requires {rank} indices")


@dataclass(frozen=True)
class _TransferTail:
    """What follows a transfer's operands: its types, properties, mask and attr-dict."""

    shaped: MemRefType | TensorType
    vtype: VectorType
    properties: dict[str, Attribute]
    mask: list[SSAValue]
    attrs: dict[str, Attribute]


def _parse_transfer_tail(parser: Parser, vector_first: bool) -> _TransferTail:
    """`[, %mask] {attrs} : t0, t1`, the vector type first for a write."""
    mask: UnresolvedOperand | None = None
    mask_pos = 0
    if parser.parse_optional_punctuation(","):
        mask_pos = parser.pos
        mask = parser.parse_unresolved_operand()
    attrs = parser.parse_optional_attr_dict()
    types_pos = parser.pos
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    if len(types) != 2:
        parser.raise_error("requires two types", at_position=types_pos)
    checks = [
        (MemRefType | TensorType, "requires memref or ranked tensor type"),
        (VectorType, "requires vector type"),
    ]
    if vector_first:
        checks.reverse()
    for t, (kind, message) in zip(types, checks, strict=True):
        if not isinstance(t, kind):
            parser.raise_error(message, at_position=types_pos)
    vtype, shaped = types if vector_first else reversed(types)
    assert isinstance(vtype, VectorType) and isinstance(shaped, MemRefType | TensorType)
    perm, in_bounds = _pop_transfer_attrs(parser, attrs, shaped, vtype, types_pos)
    resolved_mask: list[SSAValue] = []
    if mask is not None:
        if isinstance(shaped.get_element_type(), VectorType):
            parser.raise_error(
                "does not support masks with vector element type", at_position=mask_pos
            )
        if vtype.get_num_dims() != len(perm.data.results):
            parser.raise_error(
                "expected the same rank for the vector and the results of the permutation map",
                at_position=types_pos,
            )
        mask_type = infer_transfer_mask_type(vtype, perm.data)
        resolved_mask = [parser.resolve_operand(mask, mask_type)]
    properties: dict[str, Attribute] = {"permutation_map": perm, "in_bounds": in_bounds}
    return _TransferTail(shaped, vtype, properties, resolved_mask, attrs)


def _print_transfer_tail(
    printer: Printer, op: TransferReadOp | TransferWriteOp, *types: Attribute
) -> None:
    """`[, %mask] {attrs} : t0, t1`."""
    if op.mask is not None:
        printer.print_string(", ")
        printer.print_operand(op.mask)
    _print_transfer_attrs(printer, op)
    printer.print_string(" : " + ", ".join(str(t) for t in types))


class TransferReadOp(xvector.TransferReadOp, MaskableOpInterface):
    """Reads a (masked, padded, permuted) vector from a memref or tensor.

    %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
    """

    SUPPORTS_PASSTHRU: ClassVar[bool] = True

    def get_expected_mask_type(self) -> VectorType:
        return infer_transfer_mask_type(
            cast(VectorType, self.result.type), self.permutation_map.data
        )

    @classmethod
    def parse(cls, parser: Parser) -> TransferReadOp:
        source, indices = parse_indexed(parser)
        parser.parse_punctuation(",")
        padding = parser.parse_unresolved_operand()
        tail = _parse_transfer_tail(parser, vector_first=False)
        return cls.build(
            operands=[
                parser.resolve_operand(source, tail.shaped),
                resolve_indices(parser, indices),
                parser.resolve_operand(padding, tail.shaped.get_element_type()),
                tail.mask,
            ],
            result_types=[tail.vtype],
            properties=tail.properties,
            attributes=tail.attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_indexed(printer, self.source, self.indices)
        printer.print_string(", ")
        printer.print_operand(self.padding)
        _print_transfer_tail(printer, self, self.source.type, self.result.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        shaped = self.source.type
        vtype = cast(VectorType, self.result.type)
        verify_index_count(len(self.indices), shaped)
        verify_transfer(self, shaped, vtype, self.mask, self.permutation_map, self.in_bounds)
        # The IRDL verification above made the source a memref or tensor.
        elem = cast(MemRefType[Attribute] | TensorType[Attribute], shaped).get_element_type()
        if isinstance(elem, VectorType):
            if elem != self.padding.type:
                raise VerifyException("requires source element type and padding type to match.")
        elif self.padding.type != elem:
            raise VerifyException("requires formal padding and source of the same elemental type")
        verify_permutation_map(self.permutation_map)


class TransferWriteOp(xvector.TransferWriteOp, MaskableOpInterface):
    """Writes a (masked, permuted) vector into a memref, or into a tensor (new value).

    vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
    """

    def get_expected_mask_type(self) -> VectorType:
        return infer_transfer_mask_type(
            cast(VectorType, self.vector.type), self.permutation_map.data
        )

    @classmethod
    def parse(cls, parser: Parser) -> TransferWriteOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest, indices = parse_indexed(parser)
        tail = _parse_transfer_tail(parser, vector_first=True)
        return cls.build(
            operands=[
                parser.resolve_operand(value, tail.vtype),
                parser.resolve_operand(dest, tail.shaped),
                resolve_indices(parser, indices),
                tail.mask,
            ],
            result_types=[[tail.shaped] if isinstance(tail.shaped, TensorType) else []],
            properties=tail.properties,
            attributes=tail.attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.vector)
        printer.print_string(", ")
        print_indexed(printer, self.source, self.indices)
        _print_transfer_tail(printer, self, self.vector.type, self.source.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        shaped = self.source.type
        vtype = cast(VectorType, self.vector.type)
        verify_index_count(len(self.indices), shaped)
        if any(is_zero(e) for e in self.permutation_map.data.results):
            raise VerifyException("should not have broadcast dimensions")
        verify_transfer(self, shaped, vtype, self.mask, self.permutation_map, self.in_bounds)
        verify_permutation_map(self.permutation_map)


def transfer_vector_type(op: Operation) -> VectorType:
    """The vector type transfer op `op` reads or writes."""
    if isinstance(op, TransferReadOp):
        return cast(VectorType, op.result.type)
    if isinstance(op, TransferWriteOp):
        return cast(VectorType, op.vector.type)
    raise TypeError(f"'{op.name}' is not a vector transfer")


TRANSFER_OPS: tuple[type[Operation], ...] = (TransferReadOp, TransferWriteOp)

__all__ = [
    "TRANSFER_OPS",
    "TransferReadOp",
    "TransferWriteOp",
    "bitwidth",
    "is_last_dim_unit_stride",
    "transfer_vector_type",
    "verify_index_count",
    "verify_permutation_map",
    "verify_transfer",
]
