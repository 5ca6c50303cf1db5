"""Structured (linalg) transform ops that partition reductions, iteration spaces and
operands (LinalgTransformOps.td): `tile_reduction_using_for`,
`tile_reduction_using_forall`, `split_reduction`, `multitile_sizes`, `split` and `pad`.

Applied by `schedir.transform.ops.structured.partition`.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.transform import TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import (
    dense_values,
    irdl_transform_op,
    parse_dynamic_index_list,
    print_dynamic_index_list,
)
from schedir.dialects.transform._syntax_helpers import (
    parse_functional_type,
    parse_prop_and_attr_dict,
    parse_type_list,
    print_functional_type,
    print_prop_and_attr_dict,
    print_types,
)
from schedir.dialects.transform.structured._index_lists import resolve_segments

_EMPTY_DENSE = DenseArrayBase.from_list(i64, ())


# --------------------------------------------------------------------------------------
# reductions
# --------------------------------------------------------------------------------------


_REDUCTION_RESULTS = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class TileReductionUsingForOp(IRDLOperation):
    """Partial-reduction tiling with an `scf.for`: a parallel partial op over tiles, then
    a combining op.

    ```mlir
    %fill, %part, %comb, %for = transform.structured.tile_reduction_using_for %op
        by tile_sizes = [0, 64] : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the partials' fills, the partial op, the
    merging `linalg.reduce` and the outermost loop. Silenceable failure (reported at the
    payload op) on ops without the partial-reduction interface, and ("failed to tile using
    partial reduction", after the reason at the payload op) when the op cannot be tiled so.
    """

    name = "transform.structured.tile_reduction_using_for"

    target = operand_def(TransformOpHandleType)
    reduction_dims = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    tile_sizes = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    fill_op = var_result_def(TransformOpHandleType)
    split_op = result_def(TransformOpHandleType)
    combining_op = result_def(TransformOpHandleType)
    for_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target (`reduction_dims` `=` $reduction_dims^)? `by` `tile_sizes` `=` $tile_sizes "
        + _REDUCTION_RESULTS
    )


@irdl_transform_op
class TileReductionUsingForallOp(IRDLOperation):
    """Partial-reduction tiling with an `scf.forall` over `num_threads` (optionally
    `tile_sizes` per thread), with an optional `mapping`; the basis of cross-thread
    reductions.

    ```mlir
    %fill, %part, %comb, %forall = transform.structured.tile_reduction_using_forall %op
        by num_threads = [0, 32] mapping = [#gpu.thread<x>] : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the partials' fills, the partial op, the
    merging `linalg.reduce` and the forall. Silenceable failure on non-structured ops and
    ("could not tile reduction", after the reason at the payload op) when the op cannot be
    tiled so.
    """

    name = "transform.structured.tile_reduction_using_forall"

    target = operand_def(TransformOpHandleType)
    reduction_dims = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    num_threads = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY_DENSE)
    tile_sizes = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY_DENSE)
    mapping = opt_prop_def(ArrayAttr)
    fill_op = var_result_def(TransformOpHandleType)
    split_op = result_def(TransformOpHandleType)
    combining_op = result_def(TransformOpHandleType)
    forall_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> TileReductionUsingForallOp:
        target = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("reduction_dims") is not None:
            parser.parse_punctuation("=")
            props["reduction_dims"] = _i64_array(parser.parse_attribute())
        parser.parse_keyword("by")
        # LLVM <= 23 separated the clauses with commas (`num_threads = [..], tile_sizes
        # = [], mapping = [..]`).
        first = True
        while True:
            if not first and parser.parse_optional_punctuation(",") is None:
                pass
            first = False
            if parser.parse_optional_keyword("num_threads") is not None:
                parser.parse_punctuation("=")
                props["num_threads"] = _dense(parser)
            elif parser.parse_optional_keyword("tile_sizes") is not None:
                parser.parse_punctuation("=")
                props["tile_sizes"] = _dense(parser)
            elif parser.parse_optional_keyword("mapping") is not None:
                parser.parse_punctuation("=")
                props["mapping"] = parser.parse_attribute()
            else:
                break
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        (resolved,) = resolve_segments(parser, [[target]], inputs)
        return cls.create(
            operands=resolved, result_types=outputs, properties=props | extra, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        if self.reduction_dims.data:
            printer.print_string(" reduction_dims = ")
            _print_i64_array(printer, self.reduction_dims)
        printer.print_string(" by")
        if dense_values(self.num_threads):
            printer.print_string(" num_threads = ")
            print_dynamic_index_list(printer, (), dense_values(self.num_threads))
        if dense_values(self.tile_sizes):
            printer.print_string(" tile_sizes = ")
            print_dynamic_index_list(printer, (), dense_values(self.tile_sizes))
        if self.mapping is not None:
            printer.print_string(" mapping = ")
            printer.print_attribute(self.mapping)
        print_prop_and_attr_dict(
            printer, self, elided=("reduction_dims", "num_threads", "tile_sizes", "mapping")
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)


def _dense(parser: Parser) -> DenseArrayBase:
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return DenseArrayBase.from_list(i64, values)


def _i64_array(attr: Attribute) -> Attribute:
    if isinstance(attr, ArrayAttr):
        return ArrayAttr(
            [
                IntegerAttr(cast(IntegerAttr[I64], a).value.data, i64)
                if isinstance(a, IntegerAttr)
                else a
                for a in cast(ArrayAttr[Attribute], attr).data
            ]
        )
    return attr


def _print_i64_array(printer: Printer, attr: ArrayAttr[IntegerAttr[I64]]) -> None:
    printer.print_string("[" + ", ".join(str(a.value.data) for a in attr.data) + "]")


@irdl_transform_op
class SplitReductionOp(IRDLOperation):
    """Splits a reduction into a parallel partial reduction over `split_factor` chunks
    (a new dim at `insert_split_dimension`) and a combining reduction.

    ```mlir
    %init, %fill, %split, %comb = transform.structured.split_reduction %op
        <{split_factor = 4, insert_split_dimension = 1}> : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the partials' `tensor.empty` (or
    `bufferization.alloc_tensor`), their fill, the split op and the combining op.
    Silenceable failure on ops that are not structured; definite failure ("failed to apply")
    when the op cannot be split, as upstream.
    """

    name = "transform.structured.split_reduction"

    target = operand_def(TransformOpHandleType)
    split_factor = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    insert_split_dimension = prop_def(IntegerAttr[I64], default_value=IntegerAttr(0, i64))
    inner_parallel = opt_prop_def(UnitAttr)
    use_scaling_algorithm = opt_prop_def(UnitAttr)
    use_alloc = opt_prop_def(UnitAttr)
    init_or_alloc_op = result_def(TransformOpHandleType)
    fill_op = result_def(TransformOpHandleType)
    split_linalg_op = result_def(TransformOpHandleType)
    combining_linalg_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MultiTileSizesOp(IRDLOperation):
    """Computes two tile sizes (low/high, multiples of `divisor`, near `target_size`)
    and the split point that tile dimension `dimension` exactly.

    ```mlir
    %lo, %hi, %split = transform.structured.multitile_sizes %op dimension = 0
        target_size = 3 : (!transform.any_op) -> !transform.param<i64>
    ```

    Return modes: only reads the target; results are params (upstream's op-handle
    results, the index computation for dynamic sizes, are a definite failure here).
    Silenceable failure if the dimension is dynamic or cannot be tiled so (not a multiple
    of `divisor`): schedules use it as a divisibility guard inside
    `transform.alternatives`.
    """

    name = "transform.structured.multitile_sizes"

    target = operand_def(TransformOpHandleType)
    dimension = prop_def(IntegerAttr[I64])
    target_size = prop_def(IntegerAttr[I64])
    divisor = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    low_size = result_def(TransformHandleType)
    high_size = result_def(TransformHandleType)
    split_point = result_def(TransformHandleType)

    @classmethod
    def parse(cls, parser: Parser) -> MultiTileSizesOp:
        target = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        for key in ("dimension", "target_size", "divisor"):
            if parser.parse_optional_keyword(key) is not None:
                parser.parse_punctuation("=")
                props[key] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        # Upstream `custom<MultitileSizesTypes>`: one result type for all three.
        parser.parse_punctuation("(")
        target_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(target, target_type)],
            result_types=[result_type] * 3,
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_string(f" dimension = {self.dimension.value.data}")
        printer.print_string(f" target_size = {self.target_size.value.data}")
        if self.divisor.value.data != 1:
            printer.print_string(f" divisor = {self.divisor.value.data}")
        print_prop_and_attr_dict(printer, self, elided=("dimension", "target_size", "divisor"))
        printer.print_string(" : (")
        printer.print_attribute(self.target.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.low_size.type)

    def verify_(self) -> None:
        types = set(self.result_types)
        if len(types) != 1:
            raise VerifyException("expects all results type to be the same")


@irdl_transform_op
class SplitOp(IRDLOperation):
    """Splits the iteration space of a structured op along `dimension` at `after`
    (static, param or handle), or into `multiway` chunks.

    ```mlir
    %parts = transform.structured.split %op after 42 {dimension = 1} : !transform.any_op
    ```

    Upstream keeps this op's options in the attr-dict (it was not converted to
    strict properties), so they print as `{dimension = 1 : i64}`.

    Return modes: consumes the target; returns the split parts. Silenceable failure if
    the split point is out of range.
    """

    name = "transform.structured.split"

    target = operand_def(TransformOpHandleType)
    dimension = prop_def(IntegerAttr[I64])
    static_chunk_sizes = prop_def(IntegerAttr[I64])
    dynamic_chunk_sizes = opt_operand_def(TransformHandleType)
    multiway = opt_prop_def(UnitAttr)
    split_list = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> SplitOp:
        target = parser.parse_unresolved_operand()
        parser.parse_keyword("after")
        dynamic = parser.parse_optional_unresolved_operand()
        static = DYNAMIC_INDEX if dynamic is not None else parser.parse_integer()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        types = parse_type_list(parser)
        operands = [target, *([dynamic] if dynamic is not None else [])]
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands present, but expected {len(types)}")
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
        props["static_chunk_sizes"] = IntegerAttr(static, i64)
        return cls.create(
            operands=values, result_types=[types[0]], properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_string(" after ")
        if self.dynamic_chunk_sizes is not None:
            printer.print_ssa_value(self.dynamic_chunk_sizes)
        else:
            printer.print_int(self.static_chunk_sizes.value.data)
        printer.print_string(" ")
        entries: dict[str, Attribute] = {"dimension": self.dimension}
        if self.multiway is not None:
            entries["multiway"] = self.multiway
        printer.print_string(" ")
        printer.print_attr_dict(entries | dict(self.attributes))
        printer.print_string(" : ")
        print_types(printer, self.operand_types)

    def verify_(self) -> None:
        dynamic = self.static_chunk_sizes.value.data == DYNAMIC_INDEX
        if dynamic != (self.dynamic_chunk_sizes is not None):
            raise VerifyException("expects either a dynamic or a static split point to be provided")


@irdl_transform_op
class PadOp(IRDLOperation):
    """Pads the operands of a structured op to static (or multiple-of) shapes.

    ```mlir
    %padded, %pad, %copy = transform.structured.pad %op pad_to_multiple_of [16, 16]
        <padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], padding_dimensions = [0, 1]>
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the padded ops, the `tensor.pad` ops made and
    the copy-back ops (none with `copy_back_op = "none"`). Silenceable failure on a non-
    structured op, an operand without a static bound, or `pad_to_multiple_of` params/handles
    that are not single constants; definite failure on an unknown `copy_back_op` or a
    padding value of the wrong type.
    """

    name = "transform.structured.pad"

    target = operand_def(TransformOpHandleType)
    pad_to_multiple_of = var_operand_def(TransformHandleType)
    padding_values = prop_def(ArrayAttr, default_value=ArrayAttr([]))
    padding_dimensions = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    static_pad_to_multiple_of = opt_prop_def(DenseArrayBase.constr(i64))
    nofold_flags = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    transpose_paddings = prop_def(ArrayAttr, default_value=ArrayAttr([]))
    copy_back_op = prop_def(
        StringAttr, default_value=StringAttr("bufferization.materialize_in_destination")
    )
    use_prescribed_tensor_shapes = opt_prop_def(UnitAttr)
    padded = result_def(TransformOpHandleType)
    pad = result_def(TransformOpHandleType)
    copy = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> PadOp:
        target = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        dynamic: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("pad_to_multiple_of") is not None:
            dynamic, static, _ = parse_dynamic_index_list(parser)
            props["static_pad_to_multiple_of"] = DenseArrayBase.from_list(i64, static)
        if parser.parse_optional_keyword("use_prescribed_tensor_shapes") is not None:
            props["use_prescribed_tensor_shapes"] = UnitAttr()
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        # LLVM <= 20 called `nofold_flags` `pack_paddings`.
        if "pack_paddings" in attrs:
            extra["nofold_flags"] = _i64_array(attrs.pop("pack_paddings"))
        if "pad_to_multiple_of" in attrs:
            legacy = cast(ArrayAttr[IntegerAttr[I64]], attrs.pop("pad_to_multiple_of"))
            extra["static_pad_to_multiple_of"] = DenseArrayBase.from_list(
                i64, [a.value.data for a in legacy.data]
            )
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        (resolved_target, resolved_dynamic) = resolve_segments(parser, [[target], dynamic], inputs)
        return cls.create(
            operands=[*resolved_target, *resolved_dynamic],
            result_types=outputs,
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        if self.static_pad_to_multiple_of is not None:
            printer.print_string(" pad_to_multiple_of ")
            print_dynamic_index_list(
                printer, self.pad_to_multiple_of, dense_values(self.static_pad_to_multiple_of)
            )
        if self.use_prescribed_tensor_shapes is not None:
            printer.print_string(" use_prescribed_tensor_shapes")
        print_prop_and_attr_dict(
            printer, self, elided=("static_pad_to_multiple_of", "use_prescribed_tensor_shapes")
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        flags = [cast(IntegerAttr[I64], a).value.data for a in self.nofold_flags.data]
        if any(f not in (0, 1) for f in flags):
            raise VerifyException(f"expects nofold_flags to contain booleans (0/1), found {flags}")
        dims = [cast(IntegerAttr[I64], a).value.data for a in self.padding_dimensions.data]
        if any(d < 0 for d in dims):
            raise VerifyException(
                f"expects padding_dimensions to contain positive integers, found {dims}"
            )
        if self.static_pad_to_multiple_of is not None:
            multiples = dense_values(self.static_pad_to_multiple_of)
            if len(multiples) != len(dims):
                raise VerifyException("expects as many multiples as padding_dimensions")
            if multiples.count(DYNAMIC_INDEX) != len(self.pad_to_multiple_of):
                raise VerifyException(
                    "expected as many dynamic pad_to_multiple_of values as kDynamic entries"
                )
        for item in self.transpose_paddings.data:
            if not isinstance(item, ArrayAttr):
                raise VerifyException("expects transpose_paddings to be an array of arrays")


OPS: tuple[type[IRDLOperation], ...] = (
    MultiTileSizesOp,
    PadOp,
    SplitOp,
    SplitReductionOp,
    TileReductionUsingForOp,
    TileReductionUsingForallOp,
)

__all__ = [
    "OPS",
    "MultiTileSizesOp",
    "PadOp",
    "SplitOp",
    "SplitReductionOp",
    "TileReductionUsingForOp",
    "TileReductionUsingForallOp",
]
