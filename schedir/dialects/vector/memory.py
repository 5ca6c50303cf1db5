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

from schedir.dialects.vector.attributes import (
    parse_indexed,
    parse_operands,
    parse_types,
    print_attrs_and_types,
    print_indexed,
    print_operands,
    resolve_indices,
)
from schedir.dialects.vector.transfer import is_last_dim_unit_stride, verify_index_count

# --- loads and stores -------------------------------------------------------------------


def _parse_memory_flags(
    parser: Parser, allowed: tuple[str, ...]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """`alignment = 16 nontemporal = true` in any order, then the attr-dict (whose
    `alignment` / `nontemporal` entries are the pre-LLVM-24 spelling): (props, attrs)."""
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
    attrs = parser.parse_optional_attr_dict()
    for name in allowed:
        legacy = attrs.pop(name, None)
        if legacy is None or name in props:
            continue
        if name == "alignment" and isinstance(legacy, IntegerAttr):
            props[name] = IntegerAttr(legacy.value.data, i64)
        elif name == "nontemporal" and isinstance(legacy, IntegerAttr):
            props[name] = BoolAttr.from_bool(bool(legacy.value.data))
    return props, attrs


def _print_memory_flags(
    printer: Printer, op: Operation, allowed: tuple[str, ...], *types: Attribute | str
) -> None:
    """The flags, the attr-dict and the types (`print_attrs_and_types`)."""
    for name in allowed:
        value = op.properties.get(name)
        if value is None:
            continue
        if name == "alignment" and isinstance(value, IntegerAttr):
            printer.print_string(f" alignment = {value.value.data}")
        elif name == "nontemporal" and isinstance(value, IntegerAttr) and value.value.data:
            printer.print_string(" nontemporal = true")
    print_attrs_and_types(printer, op, *types)


def _verify_alignment(op: Operation) -> None:
    value = op.properties.get("alignment")
    if isinstance(value, IntegerAttr):
        v = value.value.data
        if v <= 0 or v & (v - 1):
            raise VerifyException(
                "'alignment' failed to satisfy constraint: 64-bit signless integer attribute "
                "whose value is positive and whose value is a power of two > 0"
            )


def _verify_load_store(
    op: Operation,
    vtype: VectorType,
    mtype: MemRefType,
    num_indices: int,
    value: str,
    rank_message: str,
    elem_message: str,
) -> None:
    """Upstream's `LoadOp::verify` / `StoreOp::verify` (`value` names the vector)."""
    _verify_alignment(op)
    # Upstream's `verifyLoadStoreMemRefLayout`.
    multi = vtype.get_num_dims() != 0 and vtype.element_count() != 1
    if multi and not is_last_dim_unit_stride(mtype):
        raise VerifyException("most minor memref dim must have unit stride")
    if mtype.get_num_dims() < vtype.get_num_dims():
        raise VerifyException(rank_message)
    elem = mtype.get_element_type()
    if isinstance(elem, VectorType):
        if elem != vtype:
            raise VerifyException(f"base memref and {value} vector types should match")
        elem = elem.get_element_type()
    if vtype.get_element_type() != elem:
        raise VerifyException(elem_message)
    verify_index_count(num_indices, mtype)


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
        base, indices = parse_indexed(parser)
        props, attrs = _parse_memory_flags(parser, _LOAD_FLAGS)
        mtype, vtype = parse_types(parser, ",")
        return cls.build(
            operands=[parser.resolve_operand(base, mtype), resolve_indices(parser, indices)],
            result_types=[vtype],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_indexed(printer, self.base, self.indices)
        _print_memory_flags(printer, self, _LOAD_FLAGS, self.base.type, ",", self.result.type)

    def verify_(self) -> None:
        _verify_load_store(
            self,
            cast(VectorType, self.result.type),
            cast(MemRefType, self.base.type),
            len(self.indices),
            "result",
            "destination memref has lower rank than the result vector",
            "base and result element types should match",
        )


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
        base, indices = parse_indexed(parser)
        props, attrs = _parse_memory_flags(parser, _LOAD_FLAGS)
        mtype, vtype = parse_types(parser, ",")
        return cls.build(
            operands=[
                parser.resolve_operand(value, vtype),
                parser.resolve_operand(base, mtype),
                resolve_indices(parser, indices),
            ],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.vector)
        printer.print_string(", ")
        print_indexed(printer, self.base, self.indices)
        _print_memory_flags(printer, self, _LOAD_FLAGS, self.base.type, ",", self.vector.type)

    def verify_(self) -> None:
        _verify_load_store(
            self,
            cast(VectorType, self.vector.type),
            cast(MemRefType, self.base.type),
            len(self.indices),
            "valueToStore",
            "source memref has lower rank than the vector to store",
            "base and valueToStore element type should match",
        )


_MASKED_FLAGS = ("alignment",)


def _parse_masked(
    parser: Parser, *type_separators: str
) -> tuple[
    list[SSAValue | list[SSAValue]], list[Attribute], dict[str, Attribute], dict[str, Attribute]
]:
    """`%base[%indices], %mask, %value flags {attrs} : types`: the operands resolved
    against the first three types, all types, the flags and the attr-dict."""
    base, indices = parse_indexed(parser)
    parser.parse_punctuation(",")
    mask, value = parse_operands(parser, 2)
    props, attrs = _parse_memory_flags(parser, _MASKED_FLAGS)
    types = parse_types(parser, *type_separators)
    operands: list[SSAValue | list[SSAValue]] = [
        parser.resolve_operand(base, types[0]),
        resolve_indices(parser, indices),
        parser.resolve_operand(mask, types[1]),
        parser.resolve_operand(value, types[2]),
    ]
    return operands, types, props, attrs


def _print_masked(
    printer: Printer, op: MaskedLoadOp | MaskedStoreOp, value: SSAValue, *result: Attribute | str
) -> None:
    """`%base[%indices], %mask, %value flags {attrs} : types`, `result` after the types."""
    printer.print_string(" ")
    print_indexed(printer, op.base, op.indices)
    printer.print_string(", ")
    printer.print_list((op.mask, value), printer.print_operand)
    types = (op.base.type, ",", op.mask.type, ",", value.type, *result)
    _print_memory_flags(printer, op, _MASKED_FLAGS, *types)


def _verify_masked(op: MaskedLoadOp | MaskedStoreOp, vtype: VectorType, value: str) -> None:
    """What `maskedload` and `maskedstore` both check (`value` names the vector)."""
    op.get_irdl_definition().verify(op)
    mtype = cast(MemRefType, op.base.type)
    _verify_alignment(op)
    if vtype.get_element_type() != mtype.get_element_type():
        raise VerifyException(f"base and {value} element type should match")
    verify_index_count(len(op.indices), mtype)
    if vtype.get_shape() != cast(VectorType, op.mask.type).get_shape():
        raise VerifyException(f"expected {value} shape to match mask shape")


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
        operands, types, props, attrs = _parse_masked(parser, ",", ",", "into")
        return cls.build(
            operands=operands, result_types=[types[3]], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        _print_masked(printer, self, self.pass_thru, "into", self.result.type)

    def verify_(self) -> None:
        vtype = cast(VectorType, self.result.type)
        _verify_masked(self, vtype, "result")
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
        operands, _, props, attrs = _parse_masked(parser, ",", ",")
        return cls.build(operands=operands, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_masked(printer, self, self.value_to_store)

    def verify_(self) -> None:
        vtype = cast(VectorType, self.value_to_store.type)
        _verify_masked(self, vtype, "valueToStore")


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
