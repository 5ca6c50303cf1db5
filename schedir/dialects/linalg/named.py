"""linalg's named structured ops (matmul family, fill, copy, convolutions, pooling).

Each op is a structured op whose body is hidden in the text: it is rebuilt from the operand
types exactly as upstream's OpDSL region builder does (see `base.cast_to`), so a
mixed-precision `linalg.matmul` f16 x f16 -> f32 has `arith.extf` in its body and
i8 x i8 -> i32 has `arith.extsi` (or `arith.extui` with `cast = #linalg.type_fn<cast_unsigned>`).
Syntax is upstream's: `<{props}>`? `{attrs}`? `ins(...)` `outs(...)` `-> types`, with
matmul and batch_matmul also taking `indexing_maps = [...]` in front.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.linalg.base import (
    BinaryFn,
    TypeFn,
    TypeFnAttr,
    binary,
    cast_to,
    element_type,
    parse_arrow_types,
    parse_operand_group,
    print_arrow_types,
    print_operand_group,
    verify_block_args,
    verify_result_types,
    verify_structured,
)
from schedir.dialects.linalg.generic import YieldOp


def affine_maps(num_dims: int, *results: Sequence[AffineExpr]) -> tuple[AffineMap, ...]:
    return tuple(AffineMap(num_dims, 0, tuple(r)) for r in results)


def loop_dims(n: int) -> tuple[AffineDimExpr, ...]:
    return tuple(AffineDimExpr(i) for i in range(n))


class NamedStructuredOp(LinalgStructuredOperation, ABC):
    """Base of the named structured ops: hidden body, `ins`/`outs` syntax, upstream verifier.

    Subclasses give their default indexing maps, iterator types and body builder.
    """

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    ITERATORS: ClassVar[tuple[str, ...]] = ()
    """Iterator types ("parallel", "reduction", "window"), when they do not depend on
    the operands."""

    ELIDED_PROPERTIES: ClassVar[tuple[str, ...]] = ("operandSegmentSizes",)
    """Properties never printed in the attribute dictionary."""

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        result_types: Sequence[Attribute] | None = None,
        *,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> None:
        if result_types is None:
            result_types = [o.type for o in outputs if isinstance(o.type, TensorType)]
        props = dict(properties or {})
        props.update(self.default_properties(props))
        super().__init__(
            operands=[inputs, outputs],
            result_types=[result_types],
            properties=props,
            attributes=dict(attributes or {}),
            regions=[self.build_body([v.type for v in inputs], [v.type for v in outputs], props)],
        )

    # -- what a subclass defines -------------------------------------------------------

    @classmethod
    def default_properties(cls, given: Mapping[str, Attribute | None]) -> dict[str, Attribute]:
        """Properties upstream always materializes (e.g. matmul's indexing_maps)."""
        return {}

    @classmethod
    @abstractmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        """Append the body ops (ending with linalg.yield) to `block`, whose arguments are
        the element types of the inputs then the outputs."""

    @abstractmethod
    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        """The indexing maps, inputs then outputs."""

    def iterator_type_names(self) -> tuple[str, ...]:
        return self.ITERATORS

    # -- LinalgStructuredOperation interface -------------------------------------------

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return ArrayAttr(AffineMapAttr(m) for m in self.default_indexing_maps())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(IteratorTypeAttr(IteratorType(n)) for n in self.iterator_type_names())

    @classmethod
    def build_body(
        cls,
        input_types: Sequence[Attribute],
        output_types: Sequence[Attribute],
        properties: Mapping[str, Attribute | None],
    ) -> Region:
        block = Block(arg_types=[element_type(t) for t in (*input_types, *output_types)])
        cls.fill_body(block, len(input_types), properties)
        return Region(block)

    # -- syntax ------------------------------------------------------------------------

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        """Op-specific syntax before the attribute dictionary (matmul's indexing_maps)."""
        return {}

    def print_prefix(self, printer: Printer) -> set[str]:
        """Print op-specific syntax; return the property names it covered."""
        return set()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = cls.parse_prefix(parser)
        if parser.parse_optional_punctuation("<"):
            prop_dict = parser.parse_attribute()
            parser.parse_punctuation(">")
            if not isinstance(prop_dict, DictionaryAttr):
                parser.raise_error("expected a property dictionary")
            props |= prop_dict.data
        attrs = parser.parse_optional_attr_dict()
        prop_names = cls.get_irdl_definition().properties
        for name in list(attrs):
            if name in prop_names:
                props[name] = attrs.pop(name)
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        result_types = parse_arrow_types(parser)
        return cls(ins, outs, result_types, properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        covered = self.print_prefix(printer)
        shown = {
            k: v
            for k, v in self.properties.items()
            if k not in covered and k not in self.ELIDED_PROPERTIES
        }
        printer.print_op_attributes({**shown, **self.attributes})
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        print_arrow_types(printer, self.result_types)

    # -- verification ------------------------------------------------------------------

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        verify_result_types(len(self.inputs), self.outputs, self.res)
        maps = self.default_indexing_maps()
        verify_structured([*self.inputs, *self.outputs], maps, len(self.iterator_type_names()))
        verify_block_args([*self.inputs, *self.outputs], self.body.block)


def _cast_fn(properties: Mapping[str, Attribute | None]) -> bool:
    """Whether the op's `cast` property asks for unsigned casts."""
    attr = properties.get("cast")
    return isinstance(attr, TypeFnAttr) and attr.data == TypeFn.CAST_UNSIGNED


def multiply_accumulate(
    block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
) -> None:
    """`out += cast(a) * cast(b)`, the body of every contraction and convolution."""
    a, b, out = block.args[0], block.args[1], block.args[num_inputs]
    unsigned = _cast_fn(properties)
    lhs = cast_to(block, a, out.type, unsigned)
    rhs = cast_to(block, b, out.type, unsigned)
    product = binary(block, BinaryFn.MUL, lhs, rhs)
    block.add_op(YieldOp(binary(block, BinaryFn.ADD, out, product)))


class _ContractionWithMapsOp(NamedStructuredOp, ABC):
    """matmul / batch_matmul: `indexing_maps = [...]` (printed when not the default) and
    `cast`."""

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    @classmethod
    @abstractmethod
    def default_maps(cls) -> tuple[AffineMap, ...]: ...

    @classmethod
    def default_properties(cls, given: Mapping[str, Attribute | None]) -> dict[str, Attribute]:
        if given.get("indexing_maps") is not None:
            return {}
        return {"indexing_maps": ArrayAttr(AffineMapAttr(m) for m in cls.default_maps())}

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        multiply_accumulate(block, num_inputs, properties)

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        return tuple(m.data for m in self.indexing_maps.data)

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        if not parser.parse_optional_keyword("indexing_maps"):
            return {}
        parser.parse_punctuation("=")
        pos = parser.pos
        maps = parser.parse_attribute()
        if not isinstance(maps, ArrayAttr) or not all(
            isinstance(m, AffineMapAttr) for m in maps.data
        ):
            parser.raise_error("expected affine map attribute", pos, parser.pos)
        return {"indexing_maps": maps}

    def print_prefix(self, printer: Printer) -> set[str]:
        if self.default_indexing_maps() != self.default_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        return {"indexing_maps"}

    def verify_(self) -> None:
        super().verify_()
        maps = self.default_indexing_maps()
        num_loops = len(self.iterator_type_names())
        if len(maps) != 3:
            raise VerifyException(f"expected 3 indexing maps, got {len(maps)}")
        defaults = self.default_maps()
        reduction_dim = AffineDimExpr(num_loops - 1)
        for map_, default in zip(maps[:2], defaults[:2], strict=True):
            # Upstream's verifyExtendedMatmulSemantic: an operand may be transposed (its
            # default dims in any order) or broadcast along everything but the reduction.
            if not set(map_.results) <= set(default.results):
                raise VerifyException("Unexpected dim expression in map result.")
            if len(map_.results) < len(default.results) and map_.results != (reduction_dim,):
                raise VerifyException(f"Invalid broadcast requested, should be (d{num_loops - 1}).")
        output_dims = set(defaults[2].results)
        if set(maps[2].results) != output_dims or len(maps[2].results) != len(output_dims):
            raise VerifyException(
                "Unexpected result dim expression (outside the set of default result dims)."
            )
        for map_ in maps:
            if map_.num_dims != num_loops:
                raise VerifyException(
                    f"expected indexing_map to have {num_loops} dim(s) to match the number of loops"
                )


@irdl_op_definition
class MatmulOp(_ContractionWithMapsOp):
    """C += A * B, with operands cast to the accumulator's element type.

        %c2 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x5xf16>)
                            outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>

    `indexing_maps = [...]` before `ins` describes transposed or broadcast operands
    (default `(m, k)`, `(k, n)`, `(m, n)` over loops (m, n, k));
    `{cast = #linalg.type_fn<cast_unsigned>}` makes integer casts unsigned.
    """

    name = "linalg.matmul"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "parallel", "reduction")

    @classmethod
    def default_maps(cls) -> tuple[AffineMap, ...]:
        m, n, k = loop_dims(3)
        return affine_maps(3, (m, k), (k, n), (m, n))


@irdl_op_definition
class BatchMatmulOp(_ContractionWithMapsOp):
    """Batched C[b] += A[b] * B[b].

    %c2 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x5xf32>)
                              outs(%c : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
    """

    name = "linalg.batch_matmul"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "parallel", "parallel", "reduction")

    @classmethod
    def default_maps(cls) -> tuple[AffineMap, ...]:
        b, m, n, k = loop_dims(4)
        return affine_maps(4, (b, m, k), (b, k, n), (b, m, n))


class _FixedMapsOp(NamedStructuredOp, ABC):
    """Named contraction with fixed maps and signed casts (matvec, vecmat, dot)."""

    MAPS: ClassVar[tuple[AffineMap, ...]] = ()

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        # Upstream's OpDSL definitions fix cast_signed; a `cast` attribute is not read.
        multiply_accumulate(block, num_inputs, {})

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        return self.MAPS


@irdl_op_definition
class MatvecOp(_FixedMapsOp):
    """y[m] += A[m, n] * x[n].

    %y2 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>)
                        outs(%y : tensor<4xf32>) -> tensor<4xf32>
    """

    name = "linalg.matvec"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "reduction")
    MAPS: ClassVar[tuple[AffineMap, ...]] = affine_maps(
        2, loop_dims(2), (AffineDimExpr(1),), (AffineDimExpr(0),)
    )


@irdl_op_definition
class VecmatOp(_FixedMapsOp):
    """x[n] += y[m] * A[m, n].

    %x2 = linalg.vecmat ins(%y, %a : tensor<4xf32>, tensor<4x8xf32>)
                        outs(%x : tensor<8xf32>) -> tensor<8xf32>
    """

    name = "linalg.vecmat"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel", "reduction")
    MAPS: ClassVar[tuple[AffineMap, ...]] = affine_maps(
        2, (AffineDimExpr(1),), (AffineDimExpr(1), AffineDimExpr(0)), (AffineDimExpr(0),)
    )


@irdl_op_definition
class DotOp(_FixedMapsOp):
    """c[] += a[k] * b[k].

    %c2 = linalg.dot ins(%a, %b : tensor<8xf32>, tensor<8xf32>)
                     outs(%c : tensor<f32>) -> tensor<f32>
    """

    name = "linalg.dot"
    ITERATORS: ClassVar[tuple[str, ...]] = ("reduction",)
    MAPS: ClassVar[tuple[AffineMap, ...]] = affine_maps(
        1, (AffineDimExpr(0),), (AffineDimExpr(0),), ()
    )


class _ElementwiseCopyOp(NamedStructuredOp, ABC):
    """Ops whose body yields its (cast) first argument: fill and copy."""

    def iterator_type_names(self) -> tuple[str, ...]:
        return ("parallel",) * self._rank()

    def _rank(self) -> int:
        out = self.outputs[0].type if self.outputs else None
        return len(out.get_shape()) if isinstance(out, ShapedType) else 0

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        out_type = block.args[num_inputs].type if len(block.args) > num_inputs else None
        value = block.args[0]
        if out_type is not None:
            value = cast_to(block, value, out_type, _cast_fn(properties))
        block.add_op(YieldOp(value))


@irdl_op_definition
class FillOp(_ElementwiseCopyOp):
    """Fills the output with a scalar value.

    %t2 = linalg.fill ins(%zero : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
    """

    name = "linalg.fill"

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        rank = self._rank()
        return (AffineMap(rank, 0, ()), AffineMap.identity(rank))

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if len(self.inputs) != 1 or len(self.outputs) != 1:
            raise VerifyException(
                f"expected 1 input and 1 output, got {len(self.inputs)} and {len(self.outputs)}"
            )
        value_type = self.inputs[0].type
        out_element = element_type(self.outputs[0].type)
        if value_type != out_element:
            raise VerifyException(
                f"expected fill value type ('{value_type}') to match output element type "
                f"('{out_element}')"
            )
        super().verify_()


@irdl_op_definition
class CopyOp(_ElementwiseCopyOp):
    """Copies the input into the output, casting elements to the output element type.

    %t2 = linalg.copy ins(%s : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
    """

    name = "linalg.copy"

    cast = opt_prop_def(TypeFnAttr)

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        rank = self._rank()
        return (AffineMap.identity(rank), AffineMap.identity(rank))


NAMED_OPS = (
    MatmulOp,
    BatchMatmulOp,
    MatvecOp,
    VecmatOp,
    DotOp,
    FillOp,
    CopyOp,
)
"""Every named structured op class defined here."""
