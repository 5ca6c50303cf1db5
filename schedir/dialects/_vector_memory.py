"""Vector loads and stores in upstream syntax: `load`, `store`, `maskedload`,
`maskedstore`, and `type_cast` (the memref of one vector VectorToSCF's buffers use).

    %l = vector.load %m[%i, %j] alignment = 16 nontemporal = true : memref<?x?xf32>, vector<4xf32>
    %k = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    %v = vector.type_cast %m : memref<4x8xf32> to memref<vector<4x8xf32>>

`alignment = N` / `nontemporal = true` are keywords (upstream's strict-property syntax);
the older `{...}` spelling is still read. The classes subclass xDSL's where one exists.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    I1,
    BoolAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from schedir.dialects._vector_transfer import _is_last_dim_unit_stride

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
    LoadOp,
    StoreOp,
    MaskedLoadOp,
    MaskedStoreOp,
    TypeCastOp,
)

__all__ = ["MEMORY_OPS", "LoadOp", "MaskedLoadOp", "MaskedStoreOp", "StoreOp", "TypeCastOp"]
