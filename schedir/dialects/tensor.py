"""The tensor dialect as schedir uses it: xDSL's ops, completed and checked against upstream.

Added: `tensor.parallel_insert_slice` (the only op `scf.forall.in_parallel` may hold) and
`tensor.generate`. Replaced (subclassing xDSL's class): `extract_slice` / `insert_slice`
get upstream's verifiers (offset/size/stride ranks, rank-reduced result types, static
bounds), `collapse_shape` / `expand_shape` print their reassociation as upstream does
(`[[0, 1], [2]]`, not `[[0 : i64, 1 : i64], [2 : i64]]`). The other ops are xDSL's: their
syntax matches upstream's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Self, cast

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    DynamicIndexList,
)
from xdsl.dialects.utils.reshape_ops_utils import verify_reshape_like_types
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.scf.forall import ForallOp, InParallelOp, ParallelCombiningOpInterface
from schedir.dialects.utils import (
    Mixed,
    mixed_values,
    parse_reshape,
    print_reshape,
    split_mixed,
    verify_offsets_sizes_strides,
    verify_rank_reduced_slice,
    verify_slice_in_bounds,
)


def _slice_type_str(sizes: Sequence[int], element_type: Attribute) -> str:
    return str(TensorType(element_type, sizes))


class _SliceAccessors:
    """Mixed offsets/sizes/strides of the slice ops (`int | SSAValue` lists).

    A mixin without field annotations: IRDL reads a class's annotations as its fields.
    """

    if TYPE_CHECKING:
        offsets: Sequence[SSAValue]
        sizes: Sequence[SSAValue]
        strides: Sequence[SSAValue]
        static_offsets: DenseArrayBase[IntegerType]
        static_sizes: DenseArrayBase[IntegerType]
        static_strides: DenseArrayBase[IntegerType]

    @property
    def mixed_offsets(self) -> list[Mixed]:
        return mixed_values(self.static_offsets, self.offsets)

    @property
    def mixed_sizes(self) -> list[Mixed]:
        return mixed_values(self.static_sizes, self.sizes)

    @property
    def mixed_strides(self) -> list[Mixed]:
        return mixed_values(self.static_strides, self.strides)

    def _verify_slice(self, sliced: ShapedType, slice_type: ShapedType) -> None:
        verify_offsets_sizes_strides(
            len(sliced.get_shape()),
            (self.static_offsets, self.offsets),
            (self.static_sizes, self.sizes),
            (self.static_strides, self.strides),
        )
        sizes = self.static_sizes.get_values()
        element_type = cast(TensorType[Attribute], sliced).get_element_type()
        verify_rank_reduced_slice(
            sizes, element_type, slice_type, _slice_type_str(sizes, element_type)
        )
        verify_slice_in_bounds(
            sliced.get_shape(), self.static_offsets, self.static_sizes, self.static_strides
        )


class ExtractSliceOp(_SliceAccessors, xtensor.ExtractSliceOp):
    """Extracts a (possibly rank-reduced) slice of a tensor.

        %s = tensor.extract_slice %t[%i, 0] [1, 16] [1, 1]
            : tensor<128x64xf32> to tensor<16xf32>

    The result type is the slice sizes, with any unit dimensions possibly dropped.
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        self._verify_slice(cast(ShapedType, self.source.type), cast(ShapedType, self.result.type))


class InsertSliceOp(_SliceAccessors, xtensor.InsertSliceOp):
    """Inserts a tensor into a slice of another; the result is the updated destination.

    %r = tensor.insert_slice %s into %t[0, %i] [32, 16] [1, 1]
        : tensor<32x16xf32> into tensor<128x64xf32>
    """

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        self._verify_slice(cast(ShapedType, self.dest.type), cast(ShapedType, self.source.type))


@irdl_op_definition
class ParallelInsertSliceOp(_SliceAccessors, IRDLOperation, ParallelCombiningOpInterface):
    """Inserts a slice into a shared output of the enclosing `scf.forall`, in parallel.

    Only valid inside `scf.forall.in_parallel`, and only into one of the forall's
    `shared_outs` block arguments; it has no result (the forall's result is the output).

        scf.forall.in_parallel {
          tensor.parallel_insert_slice %s into %o[%i, 0] [32, 16] [1, 1]
              : tensor<32x16xf32> into tensor<128x16xf32>
        }
    """

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        strides: Sequence[Mixed] | None = None,
    ) -> None:
        if strides is None:
            strides = [1] * len(sizes)
        static_offsets, dyn_offsets = split_mixed(offsets)
        static_sizes, dyn_sizes = split_mixed(sizes)
        static_strides, dyn_strides = split_mixed(strides)
        super().__init__(
            operands=[source, dest, dyn_offsets, dyn_sizes, dyn_strides],
            properties={
                "static_offsets": static_offsets,
                "static_sizes": static_sizes,
                "static_strides": static_strides,
            },
        )

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, InParallelOp):
            raise VerifyException(f"expected InParallelOpInterface parent, got: '{parent.name}'")
        forall = parent.parent_op() if parent is not None else None
        if isinstance(forall, ForallOp) and self.dest not in forall.region_iter_args:
            raise VerifyException("may only insert into an output block argument")
        self._verify_slice(cast(ShapedType, self.dest.type), cast(ShapedType, self.source.type))


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """Builds a tensor whose elements the body computes from their indices.

        %t = tensor.generate %n {
        ^bb0(%i: index, %j: index):
          tensor.yield %v : f32
        } : tensor<?x3xf32>

    One index operand per dynamic dimension of the result, one body argument per dimension.
    """

    name = "tensor.generate"

    dynamicExtents = var_operand_def(IndexType)
    result = result_def(TensorType)
    body = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(xtensor.YieldOp))

    assembly_format = "$dynamicExtents $body attr-dict `:` type($result)"

    def __init__(
        self,
        dynamic_extents: Sequence[SSAValue | Operation],
        result_type: TensorType[Attribute],
        body: Region | None = None,
    ) -> None:
        if body is None:
            body = Region(Block(arg_types=[IndexType()] * result_type.get_num_dims()))
        super().__init__(operands=[dynamic_extents], result_types=[result_type], regions=[body])

    def verify_(self) -> None:
        result_type = cast(TensorType[Attribute], self.result.type)
        num_dynamic = sum(1 for d in result_type.get_shape() if d < 0)
        if num_dynamic != len(self.dynamicExtents):
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamicExtents)}, "
                f"expected {num_dynamic}"
            )
        block = self.body.block
        if len(block.args) != result_type.get_num_dims() or any(
            not isinstance(a.type, IndexType) for a in block.args
        ):
            raise VerifyException("must have one body argument per input dimension")
        yield_op = block.last_op
        if (
            not isinstance(yield_op, xtensor.YieldOp)
            or len(yield_op.arguments) != 1
            or yield_op.arguments[0].type != result_type.get_element_type()
        ):
            raise VerifyException(
                "body must be terminated with a `yield` operation of the tensor element type"
            )


class CollapseShapeOp(xtensor.CollapseShapeOp):
    """Merges groups of adjacent dimensions (xDSL's op, printed as upstream does).

    %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x4x8xf32> into tensor<8x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_reshape(cls, parser, expand=False)

    def print(self, printer: Printer) -> None:
        print_reshape(printer, self)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        verify_reshape(
            cast(ShapedType, self.result.type), cast(ShapedType, self.src.type), self.reassociation
        )


def verify_reshape(
    collapsed: ShapedType,
    expanded: ShapedType,
    reassociation: ArrayAttr[ArrayAttr[IntegerAttr[IntegerType | IndexType]]],
) -> None:
    """xDSL's reshape check, plus upstream's special case of collapsing to rank 0."""
    if not collapsed.get_shape():
        # `[]` collapses a tensor of unit dimensions to a 0-d tensor, and back.
        if reassociation.data or any(d != 1 for d in expanded.get_shape()):
            raise VerifyException(
                f"expected the expanded type, {expanded} to have all unit dimensions "
                "when the collapsed type is 0-d"
            )
        return
    verify_reshape_like_types(
        collapsed_type=collapsed, expanded_type=expanded, reassociation=reassociation
    )


class ExpandShapeOp(xtensor.ExpandShapeOp):
    """Splits dimensions into groups; `output_shape` gives the (possibly dynamic) result shape.

    %e = tensor.expand_shape %t [[0, 1], [2]] output_shape [%n, 4, 8]
        : tensor<?x8xf32> into tensor<?x4x8xf32>
    """

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return parse_reshape(cls, parser, expand=True)

    def print(self, printer: Printer) -> None:
        print_reshape(printer, self, (self.dynamic_output_shape, self.static_output_shape))

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        if len(self.static_output_shape) != len(cast(ShapedType, self.result.type).get_shape()):
            raise VerifyException(
                "expected number of static shape dims to be equal to the output rank "
                f"({len(cast(ShapedType, self.result.type).get_shape())}) but found "
                f"{len(self.static_output_shape)} inputs instead"
            )
        verify_reshape(
            cast(ShapedType, self.src.type), cast(ShapedType, self.result.type), self.reassociation
        )


class PadOp(xtensor.PadOp):
    """Pads a tensor with the value its region yields, `low` / `high` elements per dim.

    %p = tensor.pad %t low[0, %l] high[%h, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f32
    } : tensor<4x?xf32> to tensor<?x?xf32>

    Upstream's verifier: a result dim is inferred as `source + low + high` when all three
    are static and as dynamic otherwise, and the declared result type must agree with the
    inferred one where the latter is static. A dynamic pad amount may thus still give a
    static result dim (`high[%h]` with `%h = 7 - n` padding `tensor<?xf32>` to
    `tensor<7xf32>`), which xDSL's verifier rejects.
    """

    def verify_(self) -> None:
        low, high = self.static_low.get_values(), self.static_high.get_values()
        if len(low) != len(high):
            raise VerifyException(
                f"pad sizes low ({len(low)}) and high ({len(high)}) must have an equal "
                "number of dimensions"
            )
        source_type = cast(TensorType[Attribute], self.source.type)
        source_shape = source_type.get_shape()
        if len(low) != len(source_shape):
            raise VerifyException(
                f"number of pad sizes ({len(low)}) must equal number of dimensions in "
                f"source tensor ({len(source_shape)})"
            )
        result_type = cast(TensorType[Attribute], self.result.type)
        inferred = [
            DYNAMIC_INDEX if DYNAMIC_INDEX in (s, lo, hi) else s + lo + hi
            for s, lo, hi in zip(source_shape, low, high, strict=True)
        ]
        result_shape = result_type.get_shape()
        if len(result_shape) != len(inferred) or any(
            r != i and i != DYNAMIC_INDEX for r, i in zip(result_shape, inferred, strict=False)
        ):
            expected = TensorType(result_type.element_type, inferred)
            raise VerifyException(
                f"specified type {result_type} does not match the inferred type {expected}"
            )
        if len(self.region.block.args) != len(low):
            raise VerifyException(f"expected the block to have {len(low)} arguments")


# xDSL's tensor ops schedir keeps as they are, named here so that every tensor op class
# is imported from this module.
CastOp = xtensor.CastOp
ConcatOp = xtensor.ConcatOp
DimOp = xtensor.DimOp
EmptyOp = xtensor.EmptyOp
ExtractOp = xtensor.ExtractOp
FromElementsOp = xtensor.FromElementsOp
InsertOp = xtensor.InsertOp
ReshapeOp = xtensor.ReshapeOp
SplatOp = xtensor.SplatOp
YieldOp = xtensor.YieldOp

Tensor = Dialect(
    "tensor",
    [
        xtensor.CastOp,
        CollapseShapeOp,
        xtensor.ConcatOp,
        xtensor.DimOp,
        xtensor.EmptyOp,
        ExpandShapeOp,
        xtensor.ExtractOp,
        ExtractSliceOp,
        xtensor.FromElementsOp,
        GenerateOp,
        xtensor.InsertOp,
        InsertSliceOp,
        ParallelInsertSliceOp,
        xtensor.ReshapeOp,
        xtensor.SplatOp,
        PadOp,
        xtensor.YieldOp,
    ],
    [],
)

__all__ = [
    "CastOp",
    "CollapseShapeOp",
    "ConcatOp",
    "DimOp",
    "EmptyOp",
    "ExpandShapeOp",
    "ExtractOp",
    "ExtractSliceOp",
    "FromElementsOp",
    "GenerateOp",
    "InsertOp",
    "InsertSliceOp",
    "PadOp",
    "ParallelInsertSliceOp",
    "ReshapeOp",
    "SplatOp",
    "Tensor",
    "YieldOp",
]
