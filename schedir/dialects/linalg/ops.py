"""linalg's map, reduce, transpose, broadcast and the aggregate softmax, in upstream's
current syntax (generic, yield and index are in `generic`).

Upstream details kept here: `linalg.map`'s body takes the init's element as a last argument
(LLVM 24); `linalg.map { arith.addf } ...` and `linalg.reduce { arith.addf } ...` are the
short forms printed whenever the body is a single payload op applied to the block
arguments in order (reduce: init first); transpose, broadcast and reduce print no result
types (they are the inits').
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self, cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.linalg.base import (
    build_payload,
    element_type,
    parse_arrow_types,
    parse_i64_list,
    parse_long_form_body,
    parse_operand_group,
    parse_short_form,
    payload_op,
    print_arrow_types,
    print_long_form_body,
    print_operand_group,
    print_short_form,
    verify_result_types,
)
from schedir.dialects.linalg.generic import YieldOp
from schedir.dialects.linalg.interface import StructuredOpInterface

# ---------------------------------------------------------------------------------------
# map


@irdl_op_definition
class MapOp(IRDLOperation, StructuredOpInterface):
    """Elementwise map of N inputs into one init (all the same shape), body on scalars.

        %r = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>)
                                       outs(%o : tensor<8xf32>)
        %r = linalg.map ins(%a : tensor<8xf32>) outs(%o : tensor<8xf32>)
          (%x: f32, %out: f32) {
            %e = math.exp %x : f32
            linalg.yield %e : f32
          }

    As in LLVM 24, the body takes one argument per input plus one for the init.
    """

    name = "linalg.map"

    inputs = var_operand_def()
    init = operand_def(ShapedType)
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init: SSAValue,
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> None:
        result_types = [init.type] if isinstance(init.type, TensorType) else []
        super().__init__(
            operands=[inputs, init],
            result_types=[result_types],
            regions=[body],
            attributes=dict(attributes or {}),
        )

    def structured_inputs(self) -> Sequence[SSAValue]:
        return self.inputs

    def structured_inits(self) -> Sequence[SSAValue]:
        return (self.init,)

    def structured_body(self) -> Region:
        return self.mapper

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(cast(ShapedType, self.init.type).get_shape())
        return ArrayAttr([AffineMapAttr(AffineMap.identity(rank))] * (len(self.inputs) + 1))

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(cast(ShapedType, self.init.type).get_shape())
        return ArrayAttr([IteratorTypeAttr.parallel()] * rank)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = parse_short_form(parser)
        ins = parse_operand_group(parser, "ins")
        pos = parser.pos
        outs = parse_operand_group(parser, "outs")
        if len(outs) != 1:
            parser.raise_error(f"expected one init, got {len(outs)}", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        if short is not None:
            types = [element_type(v.type) for v in (*ins, *outs)]
            block = Block(arg_types=types)
            payload = build_payload(short[0], short[1], block.args[: len(ins)], types[-1])
            block.add_ops([payload, YieldOp(payload.results[0])])
            body = Region(block)
        else:
            body = parse_long_form_body(parser)
        return cls(ins, outs[0], body, attrs)

    def print(self, printer: Printer) -> None:
        payload = payload_op(self.mapper.block, self.mapper.block.args[: len(self.inputs)])
        if payload is not None:
            print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", [self.init])
        printer.print_op_attributes(self.attributes)
        if payload is None:
            print_long_form_body(printer, self.mapper)

    def verify_(self) -> None:
        init_type = cast(ShapedType, self.init.type)
        block = self.mapper.block
        num_args = len(self.inputs) + 1
        if len(block.args) != num_args:
            raise VerifyException(
                "expects number of operands to match the arity of mapper, but got: "
                f"{num_args} and {len(block.args)}"
            )
        for index, (operand, arg) in enumerate(
            zip([*self.inputs, self.init], block.args, strict=True)
        ):
            if element_type(operand.type) != arg.type:
                raise VerifyException(
                    f"expected element type of input {element_type(operand.type)} to match "
                    f"bbArg type {arg.type}"
                    if index < len(self.inputs)
                    else f"expected element type of init {element_type(operand.type)} to "
                    f"match bbArg type {arg.type}"
                )
        for operand in self.inputs:
            shape = cast(ShapedType, operand.type).get_shape()
            if shape != init_type.get_shape():
                raise VerifyException(
                    "expected shape of input ("
                    + ", ".join(map(str, shape))
                    + ") to match shape of output ("
                    + ", ".join(map(str, init_type.get_shape()))
                    + ")"
                )
        verify_result_types(len(self.inputs), [self.init], self.result)


# ---------------------------------------------------------------------------------------
# reduce, transpose, broadcast


def _dims_attr(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, list(values))


def _print_dims(printer: Printer, keyword: str, values: Sequence[int]) -> None:
    printer.print_string(f" {keyword} = [" + ", ".join(str(v) for v in values) + "]")


def _parse_dims(parser: Parser, keyword: str) -> list[int]:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parse_i64_list(parser)


@irdl_op_definition
class ReduceOp(LinalgStructuredOperation):
    """Reduces the inputs along `dimensions` into the inits with the combiner body.

        %r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>)
                                          outs(%o : tensor<4xf32>) dimensions = [1]
        %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%o : tensor<4xf32>) dimensions = [1]
          (%in: f32, %init: f32) {
            %m = arith.maximumf %in, %init : f32
            linalg.yield %m : f32
          }

    The short form applies the op to (init, input), as upstream does.
    """

    name = "linalg.reduce"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        dimensions: Sequence[int],
        body: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ) -> None:
        super().__init__(
            operands=[inputs, inits],
            result_types=[[v.type for v in inits if isinstance(v.type, TensorType)]],
            properties={"dimensions": _dims_attr(dimensions)},
            regions=[body],
            attributes=dict(attributes or {}),
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(cast(ShapedType, self.inputs[0].type).get_shape())
        reduced = set(self.dimensions.get_values())
        init_map = AffineMap(
            rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in reduced)
        )
        return ArrayAttr(
            [AffineMapAttr(AffineMap.identity(rank))] * len(self.inputs)
            + [AffineMapAttr(init_map)] * len(self.outputs)
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(cast(ShapedType, self.inputs[0].type).get_shape())
        reduced = set(self.dimensions.get_values())
        return ArrayAttr(
            IteratorTypeAttr.reduction() if d in reduced else IteratorTypeAttr.parallel()
            for d in range(rank)
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        short = parse_short_form(parser)
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        dims = _parse_dims(parser, "dimensions")
        attrs = parser.parse_optional_attr_dict()
        if short is not None:
            types = [element_type(v.type) for v in (*ins, *outs)]
            block = Block(arg_types=types)
            # initFirst: the payload combines (init, inputs...).
            operands = [block.args[-1], *block.args[:-1]]
            payload = build_payload(short[0], short[1], operands, types[-1])
            block.add_ops([payload, YieldOp(payload.results[0])])
            body = Region(block)
        else:
            body = parse_long_form_body(parser)
        return cls(ins, outs, dims, body, attrs)

    def print(self, printer: Printer) -> None:
        args = self.body.block.args
        payload = payload_op(self.body.block, [args[-1], *args[:-1]] if args else [])
        if payload is not None:
            print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        _print_dims(printer, "dimensions", self.dimensions.get_values())
        printer.print_op_attributes(self.attributes)
        if payload is None:
            print_long_form_body(printer, self.body)

    def verify_(self) -> None:
        dims = self.dimensions.get_values()
        in_type = cast(ShapedType, self.inputs[0].type)
        in_shape = in_type.get_shape()
        for index, value in enumerate(self.inputs[1:], start=1):
            if cast(ShapedType, value.type).get_shape() != in_shape:
                raise VerifyException(
                    f"expects all inputs to have the same shapes. Shape at input-index "
                    f"{index} is not equal to the shape at input-index 0."
                )
        init_shape = cast(ShapedType, self.outputs[0].type).get_shape()
        for index, value in enumerate(self.outputs[1:], start=1):
            if cast(ShapedType, value.type).get_shape() != init_shape:
                raise VerifyException(
                    f"expects all outputs to have the same shapes. Shape at output-index "
                    f"{index} is not equal to the shape at output-index 0."
                )
        for dim in dims:
            if dim < 0 or dim >= len(in_shape):
                raise VerifyException(
                    f"dimensions for reduction should be in the range [0, {len(in_shape) - 1}]."
                )
        kept = [s for d, s in enumerate(in_shape) if d not in set(dims)]
        if len(init_shape) != len(kept):
            raise VerifyException(
                f"number of dimensions after reduction {len(kept)} doesn't match the init "
                f"rank {len(init_shape)}"
            )
        if kept != list(init_shape):
            raise VerifyException(
                "init dimensions ["
                + ", ".join(map(str, init_shape))
                + "] doesn't match input dimensions after reduction ["
                + ", ".join(map(str, kept))
                + "]"
            )
        block = self.body.block
        n = len(self.inputs)
        if len(block.args) != 2 * n:
            raise VerifyException(
                f"mismatching number of operands and block arguments: expected {2 * n}, "
                f"got {len(block.args)}"
            )
        for value, arg in zip(self.inputs, block.args[:n], strict=True):
            if element_type(value.type) != arg.type:
                raise VerifyException(
                    f"input element type {element_type(value.type)} does not match "
                    f"corresponding block argument type {arg.type}"
                )
        for value, arg in zip(self.outputs, block.args[n:], strict=True):
            if element_type(value.type) != arg.type:
                raise VerifyException(
                    f"output element type {element_type(value.type)} does not match "
                    f"corresponding block argument type {arg.type}"
                )
        verify_result_types(n, self.outputs, self.res)


def _copy_body(input_type: Attribute, init_type: Attribute) -> Region:
    block = Block(arg_types=[element_type(input_type), element_type(init_type)])
    block.add_op(YieldOp(block.args[0]))
    return Region(block)


@irdl_op_definition
class TransposeOp(LinalgStructuredOperation):
    """Permutes the dimensions of the input into the init: `init[i] = input[perm[i]]`.

    %t = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%o : tensor<8x4xf32>)
                          permutation = [1, 0]
    """

    name = "linalg.transpose"

    permutation = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, input: SSAValue, init: SSAValue, permutation: Sequence[int]) -> None:
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"permutation": _dims_attr(permutation)},
            regions=[_copy_body(input.type, init.type)],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        perm = self.permutation.get_values()
        inverse = [0] * len(perm)
        for out_dim, in_dim in enumerate(perm):
            inverse[in_dim] = out_dim
        rank = len(perm)
        return ArrayAttr(
            [
                AffineMapAttr(AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in inverse))),
                AffineMapAttr(AffineMap.identity(rank)),
            ]
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * len(self.permutation.get_values()))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        perm = _parse_dims(parser, "permutation")
        attrs = parser.parse_optional_attr_dict()
        if len(ins) != 1 or len(outs) != 1:
            parser.raise_error("expected one input and one init")
        op = cls(ins[0], outs[0], perm)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        _print_dims(printer, "permutation", self.permutation.get_values())
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        perm = self.permutation.get_values()
        in_shape = cast(ShapedType, self.inputs[0].type).get_shape()
        init_shape = cast(ShapedType, self.outputs[0].type).get_shape()
        if sorted(perm) != list(range(len(perm))):
            raise VerifyException("permutation is not valid")
        if len(in_shape) != len(perm):
            raise VerifyException(
                f"input rank {len(in_shape)} does not match permutation size {len(perm)}"
            )
        if len(init_shape) != len(in_shape):
            raise VerifyException(
                f"input rank {len(in_shape)} does not match init rank {len(init_shape)}"
            )
        for i, p in enumerate(perm):
            if in_shape[p] != init_shape[i]:
                raise VerifyException(
                    f"dim(result, {i}) = {init_shape[i]} doesn't match dim(input, "
                    f"permutation[{i}]) = {in_shape[p]}"
                )
        verify_result_types(1, self.outputs, self.res)


@irdl_op_definition
class BroadcastOp(LinalgStructuredOperation):
    """Broadcasts the input into the init, adding the init's `dimensions`.

    %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%o : tensor<4x8xf32>)
                          dimensions = [1]
    """

    name = "linalg.broadcast"

    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(self, input: SSAValue, init: SSAValue, dimensions: Sequence[int]) -> None:
        super().__init__(
            operands=[[input], [init]],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"dimensions": _dims_attr(dimensions)},
            regions=[_copy_body(input.type, init.type)],
        )

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(cast(ShapedType, self.outputs[0].type).get_shape())
        added = set(self.dimensions.get_values())
        input_map = AffineMap(
            rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in added)
        )
        return ArrayAttr([AffineMapAttr(input_map), AffineMapAttr(AffineMap.identity(rank))])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        rank = len(cast(ShapedType, self.outputs[0].type).get_shape())
        return ArrayAttr([IteratorTypeAttr.parallel()] * rank)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        dims = _parse_dims(parser, "dimensions")
        attrs = parser.parse_optional_attr_dict()
        if len(ins) != 1 or len(outs) != 1:
            parser.raise_error("expected one input and one init")
        op = cls(ins[0], outs[0], dims)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        _print_dims(printer, "dimensions", self.dimensions.get_values())
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        dims = self.dimensions.get_values()
        in_shape = cast(ShapedType, self.inputs[0].type).get_shape()
        init_shape = cast(ShapedType, self.outputs[0].type).get_shape()
        if len(in_shape) + len(dims) != len(init_shape):
            raise VerifyException(
                f"input rank plus added dimensions does not match init rank. input rank: "
                f"{len(in_shape)}, dimensions size: {len(dims)}, init rank: {len(init_shape)}"
            )
        for index, dim in enumerate(dims):
            if dim < 0 or dim >= len(init_shape):
                raise VerifyException(
                    f"dimension {index} is out of range. expected range: [0, "
                    f"{len(init_shape) - 1}], got: {dim}"
                )
        kept = [d for d in range(len(init_shape)) if d not in set(dims)]
        for input_dim, init_dim in enumerate(kept):
            if in_shape[input_dim] != init_shape[init_dim]:
                raise VerifyException(
                    f"input dim {input_dim} should match init dim {init_dim}. input: "
                    f"{in_shape[input_dim]}, init: {init_shape[init_dim]}"
                )
        verify_result_types(1, self.outputs, self.res)


# ---------------------------------------------------------------------------------------
# softmax


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """Softmax along `dimension`: exp(x - max) / sum(exp(x - max)).

        %r = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>)
                                         outs(%o : tensor<4x8xf32>) -> tensor<4x8xf32>

    An aggregate op with no body; `aggregate.decompose_softmax` lowers it to fills and
    generics exactly as upstream's `decomposeOperation`.
    """

    name = "linalg.softmax"

    input = operand_def(ShapedType)
    output = operand_def(ShapedType)
    dimension = prop_def(IntegerAttr[i64])
    result = var_result_def(TensorType)

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        dimension: int,
        result_types: Sequence[Attribute] | None = None,
    ) -> None:
        if result_types is None:
            result_types = [output.type] if isinstance(output.type, TensorType) else []
        super().__init__(
            operands=[input, output],
            result_types=[result_types],
            properties={"dimension": IntegerAttr(dimension, i64)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("dimension")
        parser.parse_punctuation("(")
        dim = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        ins = parse_operand_group(parser, "ins")
        outs = parse_operand_group(parser, "outs")
        if len(ins) != 1 or len(outs) != 1:
            parser.raise_error("expected one input and one output")
        result_types = parse_arrow_types(parser)
        op = cls(ins[0], outs[0], dim, result_types)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" dimension({self.dimension.value.data})")
        printer.print_op_attributes(self.attributes)
        print_operand_group(printer, "ins", [self.input])
        print_operand_group(printer, "outs", [self.output])
        print_arrow_types(printer, self.result_types)

    def verify_(self) -> None:
        in_type = cast(ShapedType, self.input.type)
        out_type = cast(ShapedType, self.output.type)
        in_shape, out_shape = in_type.get_shape(), out_type.get_shape()
        if any(
            a >= 0 and b >= 0 and a != b for a, b in zip(in_shape, out_shape, strict=False)
        ) or len(in_shape) != len(out_shape):
            raise VerifyException("incompatible output shape")
        rank = len(in_shape)
        dim = self.dimension.value.data
        if dim < 0 or dim >= rank:
            raise VerifyException("incorrect dimension specified")
        verify_result_types(1, [self.output], self.result)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = len(cast(ShapedType, self.input.type).get_shape())
        return ArrayAttr([AffineMapAttr(AffineMap.identity(rank))] * 2)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        # Upstream's softmax tiles every dimension in parallel (TilingInterface).
        rank = len(cast(ShapedType, self.input.type).get_shape())
        return ArrayAttr([IteratorTypeAttr.parallel()] * rank)


LINALG_OPS = (MapOp, ReduceOp, TransposeOp, BroadcastOp, SoftmaxOp)
"""The ops defined with irdl_op_definition here (generic, yield and index subclass xDSL's)."""
