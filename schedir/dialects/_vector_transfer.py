"""Vector memory ops and masks in upstream syntax: transfers, loads and stores, masks.

    %v = vector.transfer_read %m[%i, %j], %pad, %mask {in_bounds = [true],
           permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<?x?xf32>, vector<4xf32>
    vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
    %l = vector.load %m[%i, %j] alignment = 16 nontemporal = true : memref<?x?xf32>, vector<4xf32>
    %k = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %c = vector.create_mask %n : vector<4xi1>
    %d = vector.constant_mask [2, 3] : vector<4x8xi1>
    %r = vector.mask %mask, %pass { vector.transfer_read ... } : vector<4xi1> -> vector<4xf32>

Transfers keep `in_bounds` and `permutation_map` in the attribute dictionary, as upstream
still prints them; loads and stores spell `alignment = N` / `nontemporal = true` as
keywords (upstream's strict-property syntax) and still accept the older `{...}` spelling.
The classes subclass xDSL's where one exists (same constructors and property names).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    I1,
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoMemoryEffect, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from schedir.dialects._vector_attrs import (
    bool_array,
    dim_position,
    in_bounds_values,
    infer_transfer_mask_type,
    int_values,
    is_minor_identity,
    is_zero,
    parse_int_list,
    print_int_list,
    scalable_dims,
    transfer_minor_identity,
    vec,
)


def bitwidth(t: Attribute) -> int | None:
    """Bits of a scalar element type as upstream's data layout counts them."""
    if isinstance(t, IndexType):
        return 64
    width = getattr(t, "bitwidth", None)
    if isinstance(width, int):
        return width
    inner = getattr(t, "width", None)
    return inner.data if inner is not None else None


def _is_last_dim_unit_stride(t: MemRefType) -> bool:
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
    shaped: Attribute,
    vtype: VectorType,
    types_pos: int,
) -> tuple[AffineMapAttr, ArrayAttr[BoolAttr]]:
    perm = attrs.pop("permutation_map", None)
    if perm is None:
        shaped_rank = shaped.get_num_dims()  # type: ignore[attr-defined]
        elem = shaped.get_element_type()  # type: ignore[attr-defined]
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


def _print_transfer_attrs(printer: Printer, op: Operation) -> None:
    perm = op.properties["permutation_map"]
    in_bounds = op.properties["in_bounds"]
    shown: dict[str, Attribute] = dict(op.attributes)
    if not (isinstance(perm, AffineMapAttr) and is_minor_identity(perm.data)):
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


def _parse_types(parser: Parser) -> tuple[Attribute, Attribute, int]:
    types_pos = parser.pos
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    if len(types) != 2:
        parser.raise_error("requires two types", at_position=types_pos)
    return types[0], types[1], types_pos


class TransferReadOp(xvector.TransferReadOp):
    """Reads a (masked, padded, permuted) vector from a memref or tensor.

    %v = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> TransferReadOp:
        source = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        padding = parser.parse_unresolved_operand()
        mask: UnresolvedOperand | None = None
        mask_pos = 0
        if parser.parse_optional_punctuation(","):
            mask_pos = parser.pos
            mask = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        shaped, vtype, types_pos = _parse_types(parser)
        if not isinstance(shaped, MemRefType | TensorType):
            parser.raise_error("requires memref or ranked tensor type", at_position=types_pos)
        if not isinstance(vtype, VectorType):
            parser.raise_error("requires vector type", at_position=types_pos)
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
        op = cls.build(
            operands=[
                parser.resolve_operand(source, shaped),
                [parser.resolve_operand(i, IndexType()) for i in indices],
                parser.resolve_operand(padding, shaped.get_element_type()),
                resolved_mask,
            ],
            result_types=[vtype],
            properties={"permutation_map": perm, "in_bounds": in_bounds},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.padding)
        if self.mask is not None:
            printer.print_string(", ")
            printer.print_operand(self.mask)
        _print_transfer_attrs(printer, self)
        printer.print_string(f" : {self.source.type}, {self.result.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        shaped = self.source.type
        vtype = cast(VectorType, self.result.type)
        rank = shaped.get_num_dims()  # type: ignore[attr-defined]
        if len(self.indices) != rank:
            raise VerifyException(f"requires {rank} indices")
        verify_transfer(self, shaped, vtype, self.mask, self.permutation_map, self.in_bounds)
        elem = shaped.get_element_type()  # type: ignore[attr-defined]
        if isinstance(elem, VectorType):
            if elem != self.padding.type:
                raise VerifyException("requires source element type and padding type to match.")
        elif self.padding.type != elem:
            raise VerifyException("requires formal padding and source of the same elemental type")
        verify_permutation_map(self.permutation_map)


class TransferWriteOp(xvector.TransferWriteOp):
    """Writes a (masked, permuted) vector into a memref, or into a tensor (new value).

    vector.transfer_write %v, %m[%i, %j] {in_bounds = [true]} : vector<4xf32>, memref<?x?xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> TransferWriteOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dest = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        mask: UnresolvedOperand | None = None
        mask_pos = 0
        if parser.parse_optional_punctuation(","):
            mask_pos = parser.pos
            mask = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        vtype, shaped, types_pos = _parse_types(parser)
        if not isinstance(vtype, VectorType):
            parser.raise_error("requires vector type", at_position=types_pos)
        if not isinstance(shaped, MemRefType | TensorType):
            parser.raise_error("requires memref or ranked tensor type", at_position=types_pos)
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
            resolved_mask = [
                parser.resolve_operand(mask, infer_transfer_mask_type(vtype, perm.data))
            ]
        op = cls.build(
            operands=[
                parser.resolve_operand(value, vtype),
                parser.resolve_operand(dest, shaped),
                [parser.resolve_operand(i, IndexType()) for i in indices],
                resolved_mask,
            ],
            result_types=[[shaped] if isinstance(shaped, TensorType) else []],
            properties={"permutation_map": perm, "in_bounds": in_bounds},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.vector)
        printer.print_string(", ")
        printer.print_operand(self.source)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        if self.mask is not None:
            printer.print_string(", ")
            printer.print_operand(self.mask)
        _print_transfer_attrs(printer, self)
        printer.print_string(f" : {self.vector.type}, {self.source.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        shaped = self.source.type
        vtype = cast(VectorType, self.vector.type)
        rank = shaped.get_num_dims()  # type: ignore[attr-defined]
        if len(self.indices) != rank:
            raise VerifyException(f"requires {rank} indices")
        if any(is_zero(e) for e in self.permutation_map.data.results):
            raise VerifyException("should not have broadcast dimensions")
        verify_transfer(self, shaped, vtype, self.mask, self.permutation_map, self.in_bounds)
        verify_permutation_map(self.permutation_map)


def transfer_vector_type(op: Operation) -> VectorType:
    """The vector type a transfer reads or writes."""
    t = op.results[0].type if op.name == "vector.transfer_read" else op.operands[0].type
    return cast(VectorType, t)


def transfer_shaped(op: Operation) -> SSAValue:
    """The memref/tensor a transfer reads or writes."""
    return op.operands[0] if op.name == "vector.transfer_read" else op.operands[1]


# --- loads and stores -------------------------------------------------------------------


def _parse_memory_flags(parser: Parser, allowed: tuple[str, ...]) -> dict[str, Attribute]:
    """`alignment = 16 nontemporal = true` in any order, then the attr-dict (whose
    `alignment` / `nontemporal` entries are the pre-LLVM-24 spelling)."""
    props: dict[str, Attribute] = {}
    progress = True
    while progress:
        progress = False
        for name in allowed:
            if name not in props and parser.parse_optional_keyword(name):
                parser.parse_punctuation("=")
                if name == "alignment":
                    props[name] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
                else:
                    props[name] = BoolAttr.from_bool(parser.parse_boolean())
                progress = True
    return props


def _take_legacy_flags(
    attrs: dict[str, Attribute], props: dict[str, Attribute], allowed: tuple[str, ...]
) -> None:
    for name in allowed:
        legacy = attrs.pop(name, None)
        if legacy is None or name in props:
            continue
        if name == "alignment" and isinstance(legacy, IntegerAttr):
            props[name] = IntegerAttr(legacy.value.data, i64)
        elif name == "nontemporal" and isinstance(legacy, IntegerAttr):
            props[name] = BoolAttr.from_bool(bool(legacy.value.data))


def _print_memory_flags(printer: Printer, op: Operation, allowed: tuple[str, ...]) -> None:
    for name in allowed:
        value = op.properties.get(name)
        if value is None:
            continue
        if name == "alignment" and isinstance(value, IntegerAttr):
            printer.print_string(f" alignment = {value.value.data}")
        elif name == "nontemporal" and isinstance(value, IntegerAttr) and value.value.data:
            printer.print_string(" nontemporal = true")


def _verify_alignment(op: Operation) -> None:
    value = op.properties.get("alignment")
    if isinstance(value, IntegerAttr):
        v = value.value.data
        if v <= 0 or v & (v - 1):
            raise VerifyException(
                "'alignment' failed to satisfy constraint: 64-bit signless integer attribute "
                "whose value is positive and whose value is a power of two > 0"
            )


def _verify_layout(vtype: VectorType, mtype: MemRefType) -> None:
    """Upstream's `verifyLoadStoreMemRefLayout`."""
    if vtype.get_num_dims() == 0 or vtype.element_count() == 1:
        return
    if not _is_last_dim_unit_stride(mtype):
        raise VerifyException("most minor memref dim must have unit stride")


_LOAD_FLAGS = ("alignment", "nontemporal")


@irdl_op_definition
class LoadOp(xvector.LoadOp):
    """Loads a vector of consecutive elements (n-D: rows of the trailing dimensions).

    %v = vector.load %m[%i, %j] alignment = 16 : memref<?x?xf32>, vector<4xf32>
    """

    name = "vector.load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)
    nontemporal = opt_prop_def(BoolAttr)

    irdl_options = ()
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        base = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        props = _parse_memory_flags(parser, _LOAD_FLAGS)
        attrs = parser.parse_optional_attr_dict()
        _take_legacy_flags(attrs, props, _LOAD_FLAGS)
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        parser.parse_punctuation(",")
        vtype = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(base, mtype),
                [parser.resolve_operand(i, IndexType()) for i in indices],
            ],
            result_types=[vtype],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_memory_flags(printer, self, _LOAD_FLAGS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.base.type}, {self.result.type}")

    def verify_(self) -> None:
        vtype = cast(VectorType, self.result.type)
        mtype = cast(MemRefType, self.base.type)
        _verify_alignment(self)
        _verify_layout(vtype, mtype)
        if mtype.get_num_dims() < vtype.get_num_dims():
            raise VerifyException("destination memref has lower rank than the result vector")
        elem = mtype.get_element_type()
        if isinstance(elem, VectorType):
            if elem != vtype:
                raise VerifyException("base memref and result vector types should match")
            elem = elem.get_element_type()
        if vtype.get_element_type() != elem:
            raise VerifyException("base and result element types should match")
        if len(self.indices) != mtype.get_num_dims():
            raise VerifyException(f"requires {mtype.get_num_dims()} indices")


@irdl_op_definition
class StoreOp(xvector.StoreOp):
    """Stores a vector into consecutive elements.

    vector.store %v, %m[%i, %j] : memref<?x?xf32>, vector<4xf32>
    """

    name = "vector.store"

    vector = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    alignment = opt_prop_def(IntegerAttr)
    nontemporal = opt_prop_def(BoolAttr)

    irdl_options = ()
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        base = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        props = _parse_memory_flags(parser, _LOAD_FLAGS)
        attrs = parser.parse_optional_attr_dict()
        _take_legacy_flags(attrs, props, _LOAD_FLAGS)
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        parser.parse_punctuation(",")
        vtype = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(value, vtype),
                parser.resolve_operand(base, mtype),
                [parser.resolve_operand(i, IndexType()) for i in indices],
            ],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.vector)
        printer.print_string(", ")
        printer.print_operand(self.base)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("]")
        _print_memory_flags(printer, self, _LOAD_FLAGS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.base.type}, {self.vector.type}")

    def verify_(self) -> None:
        vtype = cast(VectorType, self.vector.type)
        mtype = cast(MemRefType, self.base.type)
        _verify_alignment(self)
        _verify_layout(vtype, mtype)
        if mtype.get_num_dims() < vtype.get_num_dims():
            raise VerifyException("source memref has lower rank than the vector to store")
        elem = mtype.get_element_type()
        if isinstance(elem, VectorType):
            if elem != vtype:
                raise VerifyException("base memref and valueToStore vector types should match")
            elem = elem.get_element_type()
        if vtype.get_element_type() != elem:
            raise VerifyException("base and valueToStore element type should match")
        if len(self.indices) != mtype.get_num_dims():
            raise VerifyException(f"requires {mtype.get_num_dims()} indices")


_MASKED_FLAGS = ("alignment",)


@irdl_op_definition
class MaskedLoadOp(xvector.MaskedLoadOp):
    """Loads the lanes a 1-D mask enables, the pass-through value elsewhere.

    %v = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    """

    name = "vector.maskedload"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType.constr(I1))
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)

    irdl_options = ()
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> MaskedLoadOp:
        base = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        mask = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pass_thru = parser.parse_unresolved_operand()
        props = _parse_memory_flags(parser, _MASKED_FLAGS)
        attrs = parser.parse_optional_attr_dict()
        _take_legacy_flags(attrs, props, _MASKED_FLAGS)
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        parser.parse_punctuation(",")
        mask_type = parser.parse_type()
        parser.parse_punctuation(",")
        pass_type = parser.parse_type()
        parser.parse_keyword("into")
        result = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(base, mtype),
                [parser.resolve_operand(i, IndexType()) for i in indices],
                parser.resolve_operand(mask, mask_type),
                parser.resolve_operand(pass_thru, pass_type),
            ],
            result_types=[result],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.mask)
        printer.print_string(", ")
        printer.print_operand(self.pass_thru)
        _print_memory_flags(printer, self, _MASKED_FLAGS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(
            f" : {self.base.type}, {self.mask.type}, {self.pass_thru.type} into {self.result.type}"
        )

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        mtype = cast(MemRefType, self.base.type)
        vtype = cast(VectorType, self.result.type)
        _verify_alignment(self)
        if vtype.get_element_type() != mtype.get_element_type():
            raise VerifyException("base and result element type should match")
        if len(self.indices) != mtype.get_num_dims():
            raise VerifyException(f"requires {mtype.get_num_dims()} indices")
        if vtype.get_shape() != cast(VectorType, self.mask.type).get_shape():
            raise VerifyException("expected result shape to match mask shape")
        if vtype != self.pass_thru.type:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class MaskedStoreOp(xvector.MaskedStoreOp):
    """Stores the lanes a 1-D mask enables.

    vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32>
    """

    name = "vector.maskedstore"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType.constr(I1))
    value_to_store = operand_def(VectorType)
    alignment = opt_prop_def(IntegerAttr)

    irdl_options = ()
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> MaskedStoreOp:
        base = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        mask = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        props = _parse_memory_flags(parser, _MASKED_FLAGS)
        attrs = parser.parse_optional_attr_dict()
        _take_legacy_flags(attrs, props, _MASKED_FLAGS)
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        parser.parse_punctuation(",")
        mask_type = parser.parse_type()
        parser.parse_punctuation(",")
        vtype = parser.parse_type()
        op = cls.build(
            operands=[
                parser.resolve_operand(base, mtype),
                [parser.resolve_operand(i, IndexType()) for i in indices],
                parser.resolve_operand(mask, mask_type),
                parser.resolve_operand(value, vtype),
            ],
            properties=props,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("], ")
        printer.print_operand(self.mask)
        printer.print_string(", ")
        printer.print_operand(self.value_to_store)
        _print_memory_flags(printer, self, _MASKED_FLAGS)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.base.type}, {self.mask.type}, {self.value_to_store.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        mtype = cast(MemRefType, self.base.type)
        vtype = cast(VectorType, self.value_to_store.type)
        _verify_alignment(self)
        if vtype.get_element_type() != mtype.get_element_type():
            raise VerifyException("base and valueToStore element type should match")
        if len(self.indices) != mtype.get_num_dims():
            raise VerifyException(f"requires {mtype.get_num_dims()} indices")
        if vtype.get_shape() != cast(VectorType, self.mask.type).get_shape():
            raise VerifyException("expected valueToStore shape to match mask shape")


# --- masks --------------------------------------------------------------------------------


class CreateMaskOp(xvector.CreateMaskOp):
    """A mask whose lanes below the given bounds (per dimension) are set.

    %m = vector.create_mask %n, %c3 : vector<4x8xi1>
    """

    @classmethod
    def parse(cls, parser: Parser) -> CreateMaskOp:
        sizes = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls.build(
            operands=[[parser.resolve_operand(v, IndexType()) for v in sizes]],
            result_types=[t],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.mask_dim_sizes, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.mask_vector.type}")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        vtype = cast(VectorType, self.mask_vector.type)
        if vtype.get_num_dims() == 0:
            if len(self.mask_dim_sizes) != 1:
                raise VerifyException("must specify exactly one operand for 0-D create_mask")
        elif len(self.mask_dim_sizes) != vtype.get_num_dims():
            raise VerifyException("must specify an operand for each result vector dimension")


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """A mask set in the leading `[d0, d1, ...]` box of each dimension.

    %m = vector.constant_mask [2, 3] : vector<4x8xi1>
    """

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType.constr(I1))

    traits = traits_def(Pure())

    def __init__(self, sizes: list[int], result_type: VectorType):
        super().__init__(
            result_types=[result_type],
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantMaskOp:
        sizes = parse_int_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls.build(
            result_types=[t],
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_int_list(printer, self.sizes())
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.result.type}")

    def sizes(self) -> list[int]:
        return int_values(self.mask_dim_sizes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        rtype = cast(VectorType, self.result.type)
        sizes = self.sizes()
        if rtype.get_num_dims() == 0:
            if len(sizes) != 1:
                raise VerifyException("array attr must have length 1 for 0-D vectors")
            if sizes[0] not in (0, 1):
                raise VerifyException("mask dim size must be either 0 or 1 for 0-D vectors")
            return
        if len(sizes) != rtype.get_num_dims():
            raise VerifyException("must specify array attr of size equal vector result rank")
        for size, dim in zip(sizes, rtype.get_shape(), strict=True):
            if size < 0 or size > dim:
                raise VerifyException(
                    "array attr of size out of bounds of vector result dimension size"
                )
        if 0 in sizes and any(sizes):
            raise VerifyException(
                "expected all mask dim sizes to be zeros, as a result of conjunction with "
                "zero mask dim"
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminator of `vector.mask`: `vector.yield %v : vector<4xf32>`."""

    name = "vector.yield"

    operands_ = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(MaskOp)))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class MaskOp(IRDLOperation):
    """Masks the one maskable op of its region (a transfer, reduction, contract, ...).

    %r = vector.mask %m, %pass { vector.transfer_read ... } : vector<4xi1> -> vector<4xf32>
    """

    name = "vector.mask"

    mask = operand_def(VectorType.constr(I1))
    passthru = opt_operand_def()
    results_ = var_result_def()
    mask_region = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        mask: SSAValue,
        body: Region,
        result_types: list[Attribute],
        passthru: SSAValue | None = None,
    ):
        super().__init__(
            operands=[mask, [passthru] if passthru is not None else []],
            result_types=[result_types],
            regions=[body],
        )

    def maskable_op(self) -> Operation | None:
        """The masked op, or None for an empty mask."""
        block = self.mask_region.block
        first = block.first_op
        return first if first is not None and first is not block.last_op else None

    @classmethod
    def parse(cls, parser: Parser) -> MaskOp:
        mask = parser.parse_unresolved_operand()
        passthru: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(","):
            passthru = parser.parse_unresolved_operand()
        name_pos = parser.pos
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mask_type = parser.parse_type()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                result_types = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                result_types = [parser.parse_type()]
        _ensure_terminator(region)
        operands: list[SSAValue | list[SSAValue]] = [parser.resolve_operand(mask, mask_type)]
        if passthru is not None:
            if not result_types:
                parser.raise_error(
                    "expects a result if passthru operand is provided", at_position=name_pos
                )
            operands.append([parser.resolve_operand(passthru, result_types[0])])
        else:
            operands.append([])
        op = cls.build(operands=operands, result_types=[result_types], regions=[region])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.mask)
        if self.passthru is not None:
            printer.print_string(", ")
            printer.print_operand(self.passthru)
        printer.print_string(" { ")
        first = self.mask_region.block.first_op
        if first is not None and not isinstance(first, YieldOp):
            # Upstream prints the masked op alone: no result names, no terminator.
            printer.print_string(first.name)
            first.print(printer)
        elif first is not None:
            printer.print_op(first)
        printer.print_string(" }")
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" : {self.mask.type}")
        if self.results_:
            printer.print_string(" -> ")
            types = [str(r.type) for r in self.results_]
            printer.print_string(types[0] if len(types) == 1 else "(" + ", ".join(types) + ")")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        block = self.mask_region.block
        ops = list(block.ops)
        if not ops:
            raise VerifyException("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerifyException("expects only one operation to mask")
        terminator = ops[-1]
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expects a terminator within the mask region")
        if len(terminator.operands) != len(self.results):
            raise VerifyException("expects number of results to match mask region yielded values")
        if len(ops) == 1:
            return
        masked = ops[0]
        expected = expected_mask_type(masked)
        if expected is None:
            raise VerifyException("expects a MaskableOpInterface within the mask region")
        if len(masked.results) != len(self.results):
            raise VerifyException(
                "expects number of results to match maskable operation number of results"
            )
        if list(masked.results) != list(terminator.operands):
            raise VerifyException(
                "expects all the results from the MaskableOpInterface to match all the values "
                "returned by the terminator"
            )
        if [r.type for r in masked.results] != [r.type for r in self.results]:
            raise VerifyException("expects result type to match maskable operation result type")
        if sum(isinstance(r.type, VectorType) for r in masked.results) > 1:
            raise VerifyException("multiple vector results not supported")
        if self.mask.type != expected:
            raise VerifyException(f"expects a '{expected}' mask for the maskable operation")
        if self.passthru is not None:
            if masked.name not in _PASSTHRU_OPS:
                raise VerifyException(
                    "doesn't expect a passthru argument for this maskable operation"
                )
            if len(masked.results) != 1:
                raise VerifyException("expects result when passthru argument is provided")
            if self.passthru.type != masked.results[0].type:
                raise VerifyException("expects passthru type to match result type")


_PASSTHRU_OPS = frozenset({"vector.transfer_read", "vector.gather"})
"""Maskable ops whose `supportsPassthru()` is true upstream."""


def _ensure_terminator(region: Region) -> None:
    """Upstream's `MaskOp::ensureTerminator`: yield the masked op's results."""
    if not region.blocks:
        region.add_block(Block())
    block = region.block
    last = block.last_op
    if isinstance(last, YieldOp):
        return
    ops = list(block.ops)
    if len(ops) == 1:
        block.add_op(YieldOp(*ops[0].results))
    else:
        block.add_op(YieldOp())


def expected_mask_type(op: Operation) -> VectorType | None:
    """Upstream's `MaskableOpInterface::getExpectedMaskType`, or None if not maskable."""
    name = op.name
    if name == "vector.transfer_read":
        return infer_transfer_mask_type(
            cast(VectorType, op.results[0].type),
            op.properties["permutation_map"].data,  # type: ignore[attr-defined]
        )
    if name == "vector.transfer_write":
        return infer_transfer_mask_type(
            cast(VectorType, op.operands[0].type),
            op.properties["permutation_map"].data,  # type: ignore[attr-defined]
        )
    if name in ("vector.reduction", "vector.multi_reduction"):
        src = cast(VectorType, op.operands[0].type)
        return vec(src.get_shape(), i1, scalable_dims(src))
    if name == "vector.outerproduct":
        res = cast(VectorType, op.results[0].type)
        return vec(res.get_shape(), i1, scalable_dims(res))
    if name == "vector.contract":
        from schedir.dialects._vector_ops import contract_mask_type

        return contract_mask_type(op)
    if name == "vector.gather":
        idx = cast(VectorType, op.operands[-3].type)
        return vec(idx.get_shape(), i1)
    return None


@irdl_op_definition
class TypeCastOp(IRDLOperation):
    """Views a memref of scalars as a 0-d memref of one vector (VectorToSCF's buffers).

    %v = vector.type_cast %m : memref<4x8xf32> to memref<vector<4x8xf32>>
    """

    name = "vector.type_cast"

    memref = operand_def(MemRefType)
    result = result_def(MemRefType)

    traits = traits_def(NoMemoryEffect())

    assembly_format = "$memref attr-dict `:` type($memref) `to` type($result)"

    def __init__(self, memref: SSAValue):
        mtype = cast(MemRefType, memref.type)
        shape = list(mtype.get_shape())
        elem = mtype.get_element_type()
        if isinstance(elem, VectorType):
            shape += list(elem.get_shape())
            elem = elem.get_element_type()
        super().__init__(
            operands=[memref],
            result_types=[MemRefType(VectorType(elem, shape), [], memory_space=mtype.memory_space)],
        )

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(MemRefType, self.memref.type)
        res = cast(MemRefType, self.result.type)
        if not isinstance(src.layout, NoneAttr):
            raise VerifyException("expects operand to be a memref with identity layout")
        if not isinstance(res.layout, NoneAttr):
            raise VerifyException("expects result to be a memref with identity layout")
        if src.memory_space != res.memory_space:
            raise VerifyException("expects result in same memory space")

        def flat(t: MemRefType) -> tuple[list[int], Attribute]:
            shape, elem = list(t.get_shape()), t.get_element_type()
            if isinstance(elem, VectorType):
                shape += list(elem.get_shape())
                elem = elem.get_element_type()
            return shape, elem

        (src_shape, src_elem), (res_shape, res_elem) = flat(src), flat(res)
        if src_elem != res_elem:
            raise VerifyException(
                f"expects result and operand with same underlying scalar type: {res}"
            )
        if src_shape != res_shape:
            raise VerifyException(
                f"expects concatenated result and operand shapes to be equal: {res}"
            )


MEMORY_OPS: tuple[type[Operation], ...] = (
    TransferReadOp,
    TransferWriteOp,
    LoadOp,
    StoreOp,
    MaskedLoadOp,
    MaskedStoreOp,
    CreateMaskOp,
    ConstantMaskOp,
    MaskOp,
    YieldOp,
    TypeCastOp,
)

__all__ = [
    "MEMORY_OPS",
    "ConstantMaskOp",
    "CreateMaskOp",
    "LoadOp",
    "MaskOp",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "StoreOp",
    "TransferReadOp",
    "TransferWriteOp",
    "TypeCastOp",
    "YieldOp",
    "bitwidth",
    "expected_mask_type",
    "transfer_shaped",
    "transfer_vector_type",
    "verify_permutation_map",
    "verify_transfer",
]
