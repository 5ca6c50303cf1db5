"""Vector ops on slices and lanes, in upstream syntax.

    %x = vector.extract_strided_slice %v offsets = [0, 2], sizes = [2, 4], strides = [1, 1]
           : vector<4x8xf32> to vector<2x4xf32>
    %y = vector.insert_strided_slice %x, %v offsets = [0, 2], strides = [1, 1]
           : vector<2x4xf32> into vector<4x8xf32>
    %s = vector.shuffle %a, %b [0, 5] : vector<4xf32>, vector<4xf32>
    %f = vector.from_elements %a, %b : vector<2xf32>
    %l:2 = vector.to_elements %f : vector<2xf32>
    %i = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    %b = vector.bitcast %v : vector<4xf32> to vector<16xi8>

The legacy strided-slice attribute dictionary `{offsets = [..], ...}` is accepted and
printed the current way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.vector.attributes import (
    i64_array,
    int_values,
    parse_attrs_and_types,
    parse_int_list,
    parse_keyword_list,
    parse_operands,
    parse_types,
    print_attrs_and_types,
    print_int_list,
    print_operands,
    scalable_dims,
    vec,
)
from schedir.dialects.vector.shape import POISON_INDEX

# --- strided slices -------------------------------------------------------------------------


def _parse_slice_lists(
    parser: Parser, names: tuple[str, ...]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """`offsets = [..], sizes = [..], strides = [..]`, or the legacy attr-dict spelling:
    (the lists as properties, the rest of the attr-dict)."""
    lists: dict[str, list[int]] = {}
    for index, name in enumerate(names):
        if index and (not lists or parser.parse_optional_punctuation(",") is None):
            break
        values = parse_keyword_list(parser, name)
        if values is None:
            break
        lists[name] = values
    attrs = parser.parse_optional_attr_dict()
    for name in names:
        legacy = attrs.pop(name, None)
        if name not in lists and isinstance(legacy, ArrayAttr):
            lists[name] = int_values(legacy)
    for name in names:
        if name not in lists:
            parser.raise_error(f"expected '{name}'")
    return {k: i64_array(v) for k, v in lists.items()}, attrs


def _print_slice_lists(printer: Printer, op: Operation, names: tuple[str, ...]) -> None:
    for index, name in enumerate(names):
        printer.print_string(", " if index else " ")
        printer.print_string(f"{name} = ")
        print_int_list(printer, int_values(op.properties[name]))


def _verify_offsets(offsets: Sequence[int], shape: Sequence[int]) -> None:
    for index, (o, d) in enumerate(zip(offsets, shape, strict=False)):
        if not 0 <= o < d:
            raise VerifyException(f"expected offsets dimension {index} to be confined to [0, {d})")


def _verify_strides_and_ends(
    strides: Sequence[int],
    offsets: Sequence[int],
    sizes: Sequence[int],
    shape: Sequence[int],
    sizes_name: str,
) -> None:
    """Unit strides, and each slice ends inside `shape` (`sizes_name` names `sizes`)."""
    if not all(1 <= s < 2 for s in strides):
        raise VerifyException("expected strides to be confined to [1, 2)")
    for index, (o, s, d) in enumerate(zip(offsets, sizes, shape, strict=False)):
        if not 0 <= o + s < d + 1:
            raise VerifyException(
                f"expected sum(offsets, {sizes_name}) dimension {index} to be confined to "
                f"[1, {d + 1})"
            )


@irdl_op_definition
class ExtractStridedSliceOp(IRDLOperation):
    """Extracts a strided slice of the leading dimensions.

    %x = vector.extract_strided_slice %v offsets = [0, 2], sizes = [2, 4],
           strides = [1, 1] : vector<4x8xf32> to vector<2x4xf32>
    """

    name = "vector.extract_strided_slice"

    vector = operand_def(VectorType)
    result = result_def(VectorType)
    offsets = prop_def(ArrayAttr[IntegerAttr])
    sizes = prop_def(ArrayAttr[IntegerAttr])
    strides = prop_def(ArrayAttr[IntegerAttr])

    traits = traits_def(Pure())

    def __init__(
        self, vector: SSAValue, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
    ):
        vt = cast(VectorType, vector.type)
        shape = list(sizes) + list(vt.get_shape()[len(sizes) :])
        super().__init__(
            operands=[vector],
            result_types=[vec(shape, vt.get_element_type(), scalable_dims(vt))],
            properties={
                "offsets": i64_array(offsets),
                "sizes": i64_array(sizes),
                "strides": i64_array(strides),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExtractStridedSliceOp:
        operand = parser.parse_unresolved_operand()
        props, attrs = _parse_slice_lists(parser, ("offsets", "sizes", "strides"))
        src_t, res_t = parse_types(parser, "to")
        return cls.build(
            operands=[parser.resolve_operand(operand, src_t)],
            result_types=[res_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.vector)
        _print_slice_lists(printer, self, ("offsets", "sizes", "strides"))
        print_attrs_and_types(printer, self, self.vector.type, "to", self.result.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        vt = cast(VectorType, self.vector.type)
        shape = vt.get_shape()
        offsets, sizes, strides = (
            int_values(self.offsets),
            int_values(self.sizes),
            int_values(self.strides),
        )
        if not len(offsets) == len(sizes) == len(strides):
            raise VerifyException("expected offsets, sizes and strides attributes of same size")
        for name, values in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
            if len(values) > len(shape):
                raise VerifyException(
                    f"expected {name} attribute of rank no greater than vector rank"
                )
        _verify_offsets(offsets, shape)
        for index, (s, d) in enumerate(zip(sizes, shape, strict=False)):
            if not 1 <= s < d + 1:
                raise VerifyException(
                    f"expected sizes dimension {index} to be confined to [1, {d + 1})"
                )
        _verify_strides_and_ends(strides, offsets, sizes, shape, "sizes")
        expected = vec(
            list(sizes) + list(shape[len(sizes) :]), vt.get_element_type(), scalable_dims(vt)
        )
        if self.result.type != expected:
            raise VerifyException(f"expected result type to be {expected}")


@irdl_op_definition
class InsertStridedSliceOp(IRDLOperation):
    """Inserts a vector as a strided slice of the trailing dimensions of another.

    %y = vector.insert_strided_slice %x, %v offsets = [0, 2], strides = [1, 1]
           : vector<2x4xf32> into vector<4x8xf32>
    """

    name = "vector.insert_strided_slice"

    source = operand_def(VectorType)
    dest = operand_def(VectorType)
    result = result_def(VectorType)
    offsets = prop_def(ArrayAttr[IntegerAttr])
    strides = prop_def(ArrayAttr[IntegerAttr])

    traits = traits_def(Pure())

    def __init__(
        self, source: SSAValue, dest: SSAValue, offsets: Sequence[int], strides: Sequence[int]
    ):
        super().__init__(
            operands=[source, dest],
            result_types=[dest.type],
            properties={"offsets": i64_array(offsets), "strides": i64_array(strides)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> InsertStridedSliceOp:
        source, dest = parse_operands(parser, 2)
        props, attrs = _parse_slice_lists(parser, ("offsets", "strides"))
        src_t, dst_t = parse_types(parser, "into")
        return cls.build(
            operands=[parser.resolve_operand(source, src_t), parser.resolve_operand(dest, dst_t)],
            result_types=[dst_t],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.source, self.dest)
        _print_slice_lists(printer, self, ("offsets", "strides"))
        print_attrs_and_types(printer, self, self.source.type, "into", self.dest.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        src = cast(VectorType, self.source.type)
        dst = cast(VectorType, self.dest.type)
        offsets, strides = int_values(self.offsets), int_values(self.strides)
        if self.result.type != dst:
            raise VerifyException("failed to verify that all of {dest, result} have same type")
        if len(offsets) != dst.get_num_dims():
            raise VerifyException("expected offsets of same size as destination vector rank")
        if len(strides) != src.get_num_dims():
            raise VerifyException("expected strides of same size as source vector rank")
        if src.get_num_dims() > dst.get_num_dims():
            raise VerifyException("expected source rank to be no greater than destination rank")
        dshape = dst.get_shape()
        sshape = [0] * (len(dshape) - src.get_num_dims()) + list(src.get_shape())
        _verify_offsets(offsets, dshape)
        _verify_strides_and_ends(strides, offsets, sshape, dshape, "source vector shape")


# --- shuffle, interleave, from/to elements ----------------------------------------------------


class ShuffleOp(xvector.ShuffleOp):
    """Picks elements of the leading dimension of two vectors by a static mask.

    %s = vector.shuffle %a, %b [0, 5] : vector<4xf32>, vector<4xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> ShuffleOp:
        v1, v2 = parse_operands(parser, 2)
        mask = parse_int_list(parser)
        attrs, (t1, t2) = parse_attrs_and_types(parser, ",")
        assert isinstance(t1, VectorType)
        trailing = list(t1.get_shape()[1:])
        return cls.build(
            operands=[parser.resolve_operand(v1, t1), parser.resolve_operand(v2, t2)],
            result_types=[vec([max(1, len(mask)), *trailing], t1.get_element_type())],
            properties={"mask": DenseArrayBase.from_list(i64, mask)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.v1, self.v2)
        printer.print_string(" ")
        print_int_list(printer, [int(v) for v in self.mask.get_values()])
        print_attrs_and_types(printer, self, self.v1.type, ",", self.v2.type)

    def verify_(self) -> None:
        res = cast(VectorType, self.result.type)
        t1 = cast(VectorType, self.v1.type)
        t2 = cast(VectorType, self.v2.type)
        rank, r1, r2 = res.get_num_dims(), t1.get_num_dims(), t2.get_num_dims()
        if not ((r1 == 0 and r2 == 0 and rank == 1) or (r1 == rank and r2 == rank)):
            raise VerifyException("rank mismatch")
        for r in range(1, r1):
            if not res.get_shape()[r] == t1.get_shape()[r] == t2.get_shape()[r]:
                raise VerifyException("dimension mismatch")
        mask = [int(v) for v in self.mask.get_values()]
        if not mask:
            raise VerifyException("invalid mask length")
        if len(mask) != res.get_shape()[0]:
            raise VerifyException("mask length mismatch")
        size = (1 if r1 == 0 else t1.get_shape()[0]) + (1 if r2 == 0 else t2.get_shape()[0])
        for index, m in enumerate(mask):
            if m != POISON_INDEX and not 0 <= m < size:
                raise VerifyException(f"mask index #{index + 1} out of range")


@irdl_op_definition
class InterleaveOp(IRDLOperation):
    """Interleaves the trailing dimension of two vectors.

    %i = vector.interleave %a, %b : vector<4xf32> -> vector<8xf32>
    """

    name = "vector.interleave"

    T: ClassVar = VarConstraint("T", base(VectorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(VectorType)

    traits = traits_def(Pure())

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"

    def __init__(self, lhs: SSAValue, rhs: SSAValue):
        t = cast(VectorType, lhs.type)
        shape = list(t.get_shape())
        shape[-1] *= 2
        super().__init__(operands=[lhs, rhs], result_types=[vec(shape, t.get_element_type())])

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        t = cast(VectorType, self.lhs.type)
        if self.rhs.type != t:
            raise VerifyException("failed to verify that all of {lhs, rhs} have same type")
        shape = list(t.get_shape()) or [1]
        shape[-1] *= 2
        if self.result.type != vec(shape, t.get_element_type()):
            raise VerifyException(
                "failed to verify that type of 'result' is double the width of the inputs"
            )


@irdl_op_definition
class DeinterleaveOp(IRDLOperation):
    """Splits the trailing dimension into its even and odd elements.

    %e, %o = vector.deinterleave %v : vector<8xf32> -> vector<4xf32>
    """

    name = "vector.deinterleave"

    R: ClassVar = VarConstraint("R", base(VectorType))
    source = operand_def(VectorType)
    res1 = result_def(R)
    res2 = result_def(R)

    traits = traits_def(Pure())

    assembly_format = "$source attr-dict `:` type($source) `->` type($res1)"

    def __init__(self, source: SSAValue):
        t = cast(VectorType, source.type)
        shape = list(t.get_shape())
        shape[-1] //= 2
        half = vec(shape, t.get_element_type())
        super().__init__(operands=[source], result_types=[half, half])

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        t = cast(VectorType, self.source.type)
        if t.get_num_dims() == 0 or t.get_shape()[-1] % 2:
            raise VerifyException("the trailing dimension of the source vector must be even")
        if self.res1.type != self.res2.type:
            raise VerifyException("failed to verify that all of {res1, res2} have same type")


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """Builds a vector from scalars in row-major order.

    %f = vector.from_elements %a, %b : vector<2xf32>
    """

    name = "vector.from_elements"

    elements = var_operand_def()
    dest = result_def(VectorType)

    traits = traits_def(Pure())

    def __init__(self, elements: Sequence[SSAValue], result_type: VectorType):
        super().__init__(operands=[list(elements)], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> FromElementsOp:
        elements: list[UnresolvedOperand] = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            elements.append(first)
            while parser.parse_optional_punctuation(","):
                elements.append(parser.parse_unresolved_operand())
        attrs, (t,) = parse_attrs_and_types(parser)
        if not isinstance(t, VectorType):
            parser.raise_error("expected a vector type")
        elem = t.get_element_type()
        return cls.build(
            operands=[[parser.resolve_operand(e, elem) for e in elements]],
            result_types=[t],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        if self.elements:
            print_operands(printer, *self.elements)
        print_attrs_and_types(printer, self, self.dest.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        t = cast(VectorType, self.dest.type)
        count = max(1, t.element_count()) if t.get_num_dims() else 1
        if len(self.elements) != count:
            raise VerifyException(
                f"'dest' and 'elements' failed to satisfy constraint: {count} elements expected"
            )
        for e in self.elements:
            if e.type != t.get_element_type():
                raise VerifyException(
                    "failed to verify that operand types match result element type"
                )


@irdl_op_definition
class ToElementsOp(IRDLOperation):
    """Splits a vector into its scalars in row-major order.

    %e:2 = vector.to_elements %v : vector<2xf32>
    """

    name = "vector.to_elements"

    source = operand_def(VectorType)
    elements = var_result_def()

    traits = traits_def(Pure())

    def __init__(self, source: SSAValue):
        t = cast(VectorType, source.type)
        count = t.element_count() if t.get_num_dims() else 1
        super().__init__(operands=[source], result_types=[[t.get_element_type()] * count])

    @classmethod
    def parse(cls, parser: Parser) -> ToElementsOp:
        source = parser.parse_unresolved_operand()
        attrs, (t,) = parse_attrs_and_types(parser)
        assert isinstance(t, VectorType)
        op = cls(parser.resolve_operand(source, t))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_operands(printer, self.source)
        print_attrs_and_types(printer, self, self.source.type)


_BITS: dict[str, int] = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "index": 64}


def _bitwidth(t: Attribute) -> int | None:
    """Bits of a scalar type (index as 64, upstream's default data layout)."""
    if isinstance(t, IntegerType):
        return t.width.data
    return _BITS.get(str(t))


class BitCastOp(xvector.BitcastOp):
    """Reinterprets the bits of the innermost dimension.

    %b = vector.bitcast %v : vector<4xf32> to vector<16xi8>
    """

    def verify_(self) -> None:
        # Upstream's BitCastOp::verify (xDSL's messages differ).
        src, res = cast(VectorType, self.source.type), cast(VectorType, self.result.type)
        if src.get_num_dims() != res.get_num_dims():
            raise VerifyException("failed to verify that all of {source, result} have same rank")
        for i in range(src.get_num_dims() - 1):
            if src.get_shape()[i] != res.get_shape()[i]:
                raise VerifyException(f"dimension size mismatch at: {i}")
        sb, rb = _bitwidth(src.get_element_type()), _bitwidth(res.get_element_type())
        if sb is None or rb is None:
            return
        if src.get_num_dims() == 0:
            if sb != rb:
                raise VerifyException(
                    "source/result bitwidth of the 0-D vector element types must be equal"
                )
        elif sb * src.get_shape()[-1] != rb * res.get_shape()[-1]:
            raise VerifyException("source/result bitwidth of the minor 1-D vectors must be equal")


SLICE_OPS: tuple[type[Operation], ...] = (
    ExtractStridedSliceOp,
    InsertStridedSliceOp,
    ShuffleOp,
    InterleaveOp,
    DeinterleaveOp,
    FromElementsOp,
    ToElementsOp,
    BitCastOp,
)

__all__ = [
    "SLICE_OPS",
    "BitCastOp",
    "DeinterleaveOp",
    "ExtractStridedSliceOp",
    "FromElementsOp",
    "InsertStridedSliceOp",
    "InterleaveOp",
    "ShuffleOp",
    "ToElementsOp",
]
