"""Func transform extension (upstream FuncTransformOps.td): `func.cast_and_call`,
`func.replace_func_signature`, `func.deduplicate_func_args` and the
`apply_conversion_patterns.func.func_to_llvm` conversion descriptor.

Applied by `schedir.transform.ops.func`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, SymbolRefAttr, UnitAttr, i32
from xdsl.dialects.transform import TransformHandleType, TransformValueHandleType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_functional_type,
    parse_prop_and_attr_dict,
    print_functional_type,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.core.conversion import ConversionPatternDescriptorOpInterface

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class ApplyFuncToLLVMConversionPatternsOp(IRDLOperation, ConversionPatternDescriptorOpInterface):
    """Conversion patterns: func ops (`func.func`, `func.call`, `func.return`) to the LLVM
    dialect; they need an LLVM type converter.

    ```mlir
    transform.apply_conversion_patterns.func.func_to_llvm
    ```

    Return modes: a descriptor inside `apply_conversion_patterns`; no handles.
    """

    name = "transform.apply_conversion_patterns.func.func_to_llvm"

    assembly_format = "attr-dict"


@irdl_transform_op
class CastAndCallOp(IRDLOperation):
    """Builds a call to a function, before or after an insertion point, from the payload
    values of `inputs`, and replaces the uses of the payload values of `outputs` by its
    results.

    ```mlir
    %call = transform.func.cast_and_call @f(%ins) -> %outs before %op
        : (!transform.any_value, !transform.any_value, !transform.any_op) -> !transform.any_op
    ```

    turns `%1 = "test.bar"(%0)` (with `%0` the input and `%1` the output) into
    `%c = func.call @f(%0)` before it, the users of `%1` now using `%c`. The callee is a
    symbol (looked up from the insertion point) or a handle to one `func.func`. The
    optional region holds type-converter builder ops for the casts; schedir has none, so
    the argument and result types must match the values' types.

    Return modes: only reads its operand handles; returns the call. Silenceable failure
    if the outputs are not unique, the insertion point is not exactly one op, or the
    function's arity differs from the inputs and outputs. Definite failure if an output
    user is not dominated by the insertion point, an input does not dominate it, the
    callee cannot be resolved, or a type would need a cast.
    """

    name = "transform.func.cast_and_call"

    # Operand order is upstream's: the functional type lists the types in this order.
    insertion_point = operand_def(TransformHandleType)
    inputs = opt_operand_def(TransformValueHandleType)
    outputs = opt_operand_def(TransformValueHandleType)
    function = opt_operand_def(TransformHandleType)
    function_name = opt_prop_def(SymbolRefAttr)
    insert_after = opt_prop_def(UnitAttr)
    conversions = opt_region_def()
    result = result_def(TransformHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> CastAndCallOp:
        props: dict[str, Attribute] = {}
        # insertion point, inputs, outputs, function: the operand (and type) order.
        groups: list[list[UnresolvedOperand]] = [[], [], [], []]
        if (symbol := parser.parse_optional_symbol_name()) is not None:
            props["function_name"] = SymbolRefAttr(symbol)
        elif (function := parser.parse_optional_unresolved_operand()) is not None:
            groups[3].append(function)
        if parser.parse_optional_punctuation("(") is not None:
            groups[1].append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
        if parser.parse_optional_punctuation("->") is not None:
            groups[2].append(parser.parse_unresolved_operand())
        if parser.parse_optional_keyword("after") is not None:
            props["insert_after"] = UnitAttr()
        else:
            parser.parse_keyword("before")
        groups[0].append(parser.parse_unresolved_operand())
        region = parser.parse_optional_region()
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        extra.pop("operandSegmentSizes", None)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        if sum(len(g) for g in groups) != len(inputs):
            parser.raise_error(
                f"{sum(len(g) for g in groups)} operands present, but expected {len(inputs)}"
            )
        resolved: list[list[SSAValue]] = []
        types = iter(inputs)
        for group in groups:
            resolved.append([parser.resolve_operand(o, next(types)) for o in group])
        op = cls.create(
            operands=[v for group in resolved for v in group],
            result_types=outputs,
            properties=props | extra,
            attributes=attrs,
            regions=[region] if region is not None else [],
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(g) for g in resolved]
        )
        return op

    def print(self, printer: Printer) -> None:
        if self.function_name is not None:
            printer.print_string(" ")
            printer.print_attribute(self.function_name)
        if self.function is not None:
            printer.print_string(" ")
            printer.print_ssa_value(self.function)
        if self.inputs is not None:
            printer.print_string("(")
            printer.print_ssa_value(self.inputs)
            printer.print_string(")")
        if self.outputs is not None:
            printer.print_string(" -> ")
            printer.print_ssa_value(self.outputs)
        printer.print_string(" after " if self.insert_after is not None else " before ")
        printer.print_ssa_value(self.insertion_point)
        if self.conversions is not None:
            printer.print_string(" ")
            printer.print_region(self.conversions, print_empty_block=False)
        print_prop_and_attr_dict(
            printer, self, elided=("function_name", "insert_after", "operandSegmentSizes")
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        if self.conversions is not None and self.conversions.blocks:
            for child in self.conversions.block.ops:
                # Upstream accepts ops of TypeConverterBuilderOpInterface here; schedir
                # defines none, so any op is one without the interface.
                raise VerifyException(
                    "expected children ops to implement TypeConverterBuilderOpInterface"
                    f" (found '{child.name}')"
                )
        if self.function is None and self.function_name is None:
            raise VerifyException("expected a function handle or name to call")
        if self.function is not None and self.function_name is not None:
            raise VerifyException("function handle and name are mutually exclusive")


@irdl_transform_op
class ReplaceFuncSignatureOp(IRDLOperation):
    """Reorders the arguments and results of a function of a module, and (with
    `adjust_func_calls`) the operands and results of its calls.

    ```mlir
    %m2, %f2 = transform.func.replace_func_signature @f args_interchange = [1, 0]
        results_interchange = [0] at %m : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    `args_interchange[i]` is the old position of new argument `i`: `(%a, %b) -> ...`
    becomes `(%b, %a) -> ...` above.

    Return modes: consumes the module handle; returns the module and the new function.
    Definite failure if the handle is not one op; silenceable failure if it is not a
    module, the function is not in it, or an interchange has the wrong length, a repeated
    or an out-of-bounds index.
    """

    name = "transform.func.replace_func_signature"

    module = operand_def(TransformHandleType)
    function_name = prop_def(SymbolRefAttr)
    args_interchange = prop_def(DenseArrayBase.constr(i32))
    results_interchange = prop_def(DenseArrayBase.constr(i32))
    adjust_func_calls = opt_prop_def(UnitAttr)
    transformed_module = result_def(TransformHandleType)
    transformed_function = result_def(TransformHandleType)

    consumed_operands = ("module",)
    assembly_format = (
        "$function_name `args_interchange` `=` $args_interchange "
        "`results_interchange` `=` $results_interchange `at` $module " + _FUNCTIONAL
    )


@irdl_transform_op
class DeduplicateFuncArgsOp(IRDLOperation):
    """Merges the arguments of a function that its one call passes the same value to.

    ```mlir
    %m2, %f2 = transform.func.deduplicate_func_args @f at %m
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    With `call @f(%x, %x, %y)`, `@f(%a, %b, %c)` becomes `@f(%a, %c)` (uses of `%b` now use
    `%a`) and the call `call @f(%x, %y)`.

    Return modes: consumes the module handle; returns the module and the new function.
    Definite failure if the handle is not one op; silenceable failure if it is not a
    module, the function is not in it, or the function does not have exactly one call
    passing a value twice.
    """

    name = "transform.func.deduplicate_func_args"

    module = operand_def(TransformHandleType)
    function_name = prop_def(SymbolRefAttr)
    transformed_module = result_def(TransformHandleType)
    transformed_function = result_def(TransformHandleType)

    consumed_operands = ("module",)
    assembly_format = "$function_name `at` $module " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyFuncToLLVMConversionPatternsOp,
    CastAndCallOp,
    DeduplicateFuncArgsOp,
    ReplaceFuncSignatureOp,
)

__all__ = [
    "OPS",
    "ApplyFuncToLLVMConversionPatternsOp",
    "CastAndCallOp",
    "DeduplicateFuncArgsOp",
    "ReplaceFuncSignatureOp",
]
