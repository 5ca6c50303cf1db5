"""Structured (linalg) transform ops that pad, hoist pads and promote tensors
(LinalgTransformOps.td): `hoist_pad`, `hoist_pad.build_packing_loop_nest`,
`pad_tiling_interface` and `promote_tensor`.

Applied by `schedir.transform.ops.structured.padding`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.transform import (
    TransformHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
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
    print_functional_type,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.structured._index_lists import resolve_segments

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"
_EMPTY = DenseArrayBase.from_list(i64, ())


def _verify_permutation(op: IRDLOperation, transpose: DenseArrayBase) -> None:
    values = list(dense_values(transpose))
    if sorted(values) != list(range(len(values))):
        # Upstream streams the ArrayRef: the values without brackets.
        found = ", ".join(str(v) for v in values)
        raise VerifyException(f"expects transpose to be a permutation, found {found}")


@irdl_transform_op
class HoistPadOp(IRDLOperation):
    """Hoists a `tensor.pad` above `num_loops` enclosing `scf.for` loops, packing the
    padded tiles of every iteration of the loops that index them into one tensor built by
    a packing loop nest before the outermost loop (upstream's `hoistPaddingOnTensors`).

    ```mlir
    %hoisted = transform.structured.hoist_pad %pad by 2 loops, transpose by [1, 0]
        : (!transform.any_op) -> !transform.any_op
    ```

    With `transpose`, the packed tiles are stored transposed (a `linalg.transpose` in the
    packing loop) and transposed back where the pad was.

    Return modes: consumes the target; returns the hoisted `tensor.pad` (the clone in the
    packing loop nest). Silenceable failure ("... failed to apply", note "when applied to
    this op") when the pad cannot be hoisted: it is not a `tensor.pad`, no `scf.for`
    encloses it, its source is not a `tensor.extract_slice` of a tensor defined above the
    loops, its padding value is not a constant, or its index computation uses ops with
    regions, memory effects or non-index operands.
    """

    name = "transform.structured.hoist_pad"

    target = operand_def(TransformHandleType)
    num_loops = prop_def(IntegerAttr[I64])
    transpose = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    transformed = result_def(TransformHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `by` $num_loops `loops` (`,` `transpose` `by` $transpose^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        _verify_permutation(self, self.transpose)


@irdl_transform_op
class HoistPadBuildPackingLoopNestOp(IRDLOperation):
    """Builds the packing loop nest that hoisting a `tensor.pad` above `loop` needs,
    before `loop`, without replacing the pad (upstream's `buildPackingLoopNest`).

    ```mlir
    %packing = transform.structured.hoist_pad.build_packing_loop_nest %pad above %loop
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the target and loop handles; returns the outermost packing
    loop (or the cloned pad when no loop indexes it). Definite failure unless each handle
    holds exactly one op ("requires exactly one target and one loop handle (got N and
    M)"), unless they are a `tensor.pad` and an `scf.for` ("requires exactly 2 non-null
    handles"), and when the pad cannot be packed ("could not build packing loop nest").
    """

    name = "transform.structured.hoist_pad.build_packing_loop_nest"

    target = operand_def(TransformHandleType)
    loop = operand_def(TransformHandleType)
    transpose = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    packing_loop = result_def(TransformHandleType)

    assembly_format = "$target `above` $loop (`,` `transpose` `by` $transpose^)? " + _FUNCTIONAL

    def verify_(self) -> None:
        _verify_permutation(self, self.transpose)


@irdl_transform_op
class PadTilingInterfaceOp(IRDLOperation):
    """Pads the tensor operands of a TilingInterface (structured) op to the given sizes
    of its iteration domain, or to multiples of them with `pad_to_multiple_of`, and
    replaces its results with slices of the padded op's (upstream's
    `linalg::rewriteAsPaddedOp` for TilingInterface, PadTilingInterface.cpp).

    ```mlir
    %padded, %pad = transform.structured.pad_tiling_interface %op
        to padding_sizes [8, 0, 14] pad_to_multiple_of
        padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    A padding size of 0 (or a missing one) leaves that dimension at its size (at a
    multiple of 1 with `pad_to_multiple_of`). Padding values default to zeros.

    Return modes: consumes the target; returns the padded op and the `tensor.pad` ops.
    Silenceable failure ("expected TilingInterface target") on ops that are not
    structured, and ("failed to pad op") when an operand is not a tensor or has no
    padding value; definite failure on padding sizes that are not index constants.
    """

    name = "transform.structured.pad_tiling_interface"

    target = operand_def(TransformHandleType)
    padding_sizes = var_operand_def(TransformHandleType)
    padding_values = prop_def(ArrayAttr, default_value=ArrayAttr([]))
    static_padding_sizes = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    pad_to_multiple_of = opt_prop_def(UnitAttr)
    padded = result_def(TransformHandleType)
    pad = result_def(TransformHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> PadTilingInterfaceOp:
        target = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        props: dict[str, Attribute] = {}
        dynamic: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("padding_sizes") is not None:
            dynamic, static, _ = parse_dynamic_index_list(parser)
            props["static_padding_sizes"] = DenseArrayBase.from_list(i64, static)
        if parser.parse_optional_keyword("pad_to_multiple_of") is not None:
            props["pad_to_multiple_of"] = UnitAttr()
        if parser.parse_optional_keyword("padding_values") is not None:
            parser.parse_punctuation("=")
            props["padding_values"] = parser.parse_attribute()
            if not isinstance(props["padding_values"], ArrayAttr):
                parser.raise_error("expected an array of padding values")
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        resolved_target, resolved_dynamic = resolve_segments(parser, [[target], dynamic], inputs)
        return cls.create(
            operands=[*resolved_target, *resolved_dynamic],
            result_types=outputs,
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_string(" to")
        if dense_values(self.static_padding_sizes) or self.padding_sizes:
            printer.print_string(" padding_sizes ")
            print_dynamic_index_list(
                printer, self.padding_sizes, dense_values(self.static_padding_sizes)
            )
        if self.pad_to_multiple_of is not None:
            printer.print_string(" pad_to_multiple_of")
        if self.padding_values.data:
            printer.print_string(" padding_values = ")
            printer.print_attribute(self.padding_values)
        print_prop_and_attr_dict(
            printer, self, elided=("static_padding_sizes", "pad_to_multiple_of", "padding_values")
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        dynamic = sum(1 for v in dense_values(self.static_padding_sizes) if v < 0)
        if dynamic != len(self.padding_sizes):
            raise VerifyException(
                "expected as many dynamic padding_sizes values as kDynamic entries"
            )


@irdl_transform_op
class PromoteTensorOp(IRDLOperation):
    """Requests that a tensor value live in a fresh allocation (in `memory_space` when
    given) once bufferized: `bufferization.alloc_tensor` right after the value's
    definition, filled by `bufferization.materialize_in_destination` when a use may read
    it, and every other use of the value redirected to the promoted one.

    ```mlir
    %promoted = transform.structured.promote_tensor to 3 %value : !transform.any_value
    ```

    Return modes: only reads the handle; returns the promoted values. Silenceable
    failure ("non-tensor type: ...") on a value that is not a ranked tensor.
    """

    name = "transform.structured.promote_tensor"

    T: ClassVar = VarConstraint("T", BaseAttr(TransformValueHandleType))

    tensor = operand_def(T)
    memory_space = opt_prop_def(Attribute)
    promoted = result_def(T)

    assembly_format = "(`to` $memory_space^)? $tensor attr-dict `:` type($tensor)"


OPS: tuple[type[IRDLOperation], ...] = (
    HoistPadBuildPackingLoopNestOp,
    HoistPadOp,
    PadTilingInterfaceOp,
    PromoteTensorOp,
)

__all__ = [
    "OPS",
    "HoistPadBuildPackingLoopNestOp",
    "HoistPadOp",
    "PadTilingInterfaceOp",
    "PromoteTensorOp",
]
