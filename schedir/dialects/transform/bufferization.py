"""Bufferization transform extension (upstream BufferizationTransformOps.td).

`one_shot_bufferize` (with `layout{...}` for function boundaries and its options),
`eliminate_empty_tensors`, `empty_tensor_to_alloc_tensor` and `buffer_loop_hoisting`.

Applied by `schedir.transform.ops.bufferization`.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import I32, BoolAttr, IntegerAttr, StringAttr, i1, i32
from xdsl.dialects.transform import OperationType, TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_functional_type,
    parse_prop_and_attr_dict,
    print_functional_type,
    print_prop_and_attr_dict,
)

LAYOUT_MAP_OPTIONS = ("InferLayoutMap", "IdentityLayoutMap", "FullyDynamicLayoutMap")
"""Upstream `LayoutMapOption`, by stored `i32` value."""

_FALSE = IntegerAttr(0, i1)
_TRUE = IntegerAttr(1, i1)


@irdl_transform_op
class OneShotBufferizeOp(IRDLOperation):
    """Runs One-Shot Bufferize on the target (the module, with
    `bufferize_function_boundaries`, whose argument layout `layout{...}` chooses).

    ```mlir
    %m2 = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <bufferize_function_boundaries = true> : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target (handles to ops nested in it are invalidated) and
    returns the same ops, modified in place. Silenceable failure "expected module or
    function target" / "expected module target" (function boundaries on a function), and
    "bufferization failed" (after an error at the payload op schedir cannot bufferize).
    Definite failure for `print_conflicts` / `dump_alias_sets`, which schedir's analysis
    does not report.
    """

    name = "transform.bufferization.one_shot_bufferize"

    target = operand_def(TransformOpHandleType)
    function_boundary_type_conversion = opt_prop_def(IntegerAttr[I32])
    allow_return_allocs_from_loops = prop_def(BoolAttr, default_value=_FALSE)
    allow_unknown_ops = prop_def(BoolAttr, default_value=_FALSE)
    bufferize_function_boundaries = prop_def(BoolAttr, default_value=_FALSE)
    dump_alias_sets = prop_def(BoolAttr, default_value=_FALSE)
    test_analysis_only = prop_def(BoolAttr, default_value=_FALSE)
    print_conflicts = prop_def(BoolAttr, default_value=_FALSE)
    check_parallel_regions = prop_def(BoolAttr, default_value=_TRUE)
    memcpy_op = prop_def(StringAttr, default_value=StringAttr("memref.copy"))
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> OneShotBufferizeOp:
        props: dict[str, object] = {}
        if parser.parse_optional_keyword("layout") is not None:
            parser.parse_punctuation("{")
            start = parser.pos
            word = parser.parse_identifier()
            if word not in LAYOUT_MAP_OPTIONS:
                parser.raise_error(
                    f"expected one of [{', '.join(LAYOUT_MAP_OPTIONS)}] for layout map "
                    f"option, got '{word}'",
                    at_position=start,
                    end_position=parser.pos,
                )
            parser.parse_punctuation("}")
            props["function_boundary_type_conversion"] = IntegerAttr(
                LAYOUT_MAP_OPTIONS.index(word), i32
            )
        target = parser.parse_unresolved_operand()
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        if len(inputs) != 1:
            parser.raise_error(f"1 operands present, but expected {len(inputs)}")
        return cls.create(
            operands=[parser.resolve_operand(target, inputs[0])],
            result_types=outputs,
            properties=cast(dict, props) | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        layout = self.function_boundary_type_conversion
        if layout is not None:
            value = layout.value.data
            word = LAYOUT_MAP_OPTIONS[value] if 0 <= value < 3 else str(value)
            printer.print_string(f" layout{{{word}}}")
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        print_prop_and_attr_dict(printer, self, elided=("function_boundary_type_conversion",))
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        layout = self.function_boundary_type_conversion
        if layout is not None and not 0 <= layout.value.data < 3:
            raise VerifyException(
                "attribute 'function_boundary_type_conversion' failed to satisfy "
                "constraint: allowed 32-bit signless integer cases: 0, 1, 2"
            )
        if self.memcpy_op.data not in ("memref.copy", "linalg.copy"):
            raise VerifyException(f"unsupported memcpy op: {self.memcpy_op.data}")
        # Upstream's OneShotBufferizeOp::verify: both only annotate the analysis.
        for option in ("print_conflicts", "dump_alias_sets"):
            if getattr(self, option).value.data and not self.test_analysis_only.value.data:
                raise VerifyException(f"'{option}' requires 'test_analysis_only'")


@irdl_transform_op
class EliminateEmptyTensorsOp(IRDLOperation):
    """Rewrites `tensor.empty` ops in the target into slices of the final destination
    where that avoids an allocation (run before One-Shot Bufferize).

    ```mlir
    transform.bufferization.eliminate_empty_tensors %func : !transform.any_op
    ```

    Return modes: only reads the target (the payload is modified). Silenceable failure
    "empty tensor elimination failed", at the target, if One-Shot analysis fails on it.
    """

    name = "transform.bufferization.eliminate_empty_tensors"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class EmptyTensorToAllocTensorOp(IRDLOperation):
    """Replaces `tensor.empty` ops by `bufferization.alloc_tensor`.

    ```mlir
    %a = transform.bufferization.empty_tensor_to_alloc_tensor %e
        : (!transform.op<"tensor.empty">) -> !transform.op<"bufferization.alloc_tensor">
    ```

    Return modes: consumes the target; returns the new alloc_tensor ops. Never fails (the
    handle type guarantees `tensor.empty` payloads).
    """

    name = "transform.bufferization.empty_tensor_to_alloc_tensor"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        if self.target.type != OperationType("tensor.empty"):
            raise VerifyException(
                "operand #0 must be Transform IR handle to tensor.empty operations, but "
                f"got '{self.target.type}'"
            )
        if self.transformed.type != OperationType("bufferization.alloc_tensor"):
            raise VerifyException(
                "result #0 must be Transform IR handle to bufferization.alloc_tensor "
                f"operations, but got '{self.transformed.type}'"
            )


@irdl_transform_op
class BufferLoopHoistingOp(IRDLOperation):
    """Hoists buffer allocations out of loops in the target.

    ```mlir
    transform.bufferization.buffer_loop_hoisting %func : !transform.any_op
    ```

    Return modes: only reads the target (the payload is modified); never fails.
    """

    name = "transform.bufferization.buffer_loop_hoisting"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


OPS: tuple[type[IRDLOperation], ...] = (
    BufferLoopHoistingOp,
    EliminateEmptyTensorsOp,
    EmptyTensorToAllocTensorOp,
    OneShotBufferizeOp,
)

__all__ = [
    "LAYOUT_MAP_OPTIONS",
    "OPS",
    "BufferLoopHoistingOp",
    "EliminateEmptyTensorsOp",
    "EmptyTensorToAllocTensorOp",
    "OneShotBufferizeOp",
]
