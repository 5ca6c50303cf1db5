"""Apply function of `transform.apply_conversion_patterns` (upstream's
ApplyConversionPatternsOp::apply).

A conversion descriptor stands for one of schedir's `*-to-llvm` conversions, run by its
registered pass name (the transform layer does not import the lowering): the table below
is keyed by descriptor class (and, for `dialect_to_llvm`, by dialect). The conversion
target is upstream's: after the conversion, every op under the target must be legal
(`legal_ops`, `legal_dialects`), or with `partial_conversion` no op may be explicitly
illegal (`illegal_ops`, `illegal_dialects`).
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Operation

from schedir.diagnostics import Note, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.core.conversion import (
    ApplyConversionPatternsOp,
    ApplyToLLVMConversionPatternsOp,
    string_list,
)
from schedir.dialects.transform.func import ApplyFuncToLLVMConversionPatternsOp
from schedir.dialects.transform.memref import MemrefToLLVMTypeConverterOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.ops.core.apply import _run_on  # pyright: ignore[reportPrivateUsage]  # same package: the scratch-module runner apply_registered_pass uses
from schedir.transform.state import definite, is_ancestor, silenceable

_DESCRIPTOR_PASSES: Mapping[type[Operation], str] = {
    ApplyFuncToLLVMConversionPatternsOp: "convert-func-to-llvm",
}
"""The conversion (registered pass name) each descriptor class stands for."""

_DIALECT_TO_LLVM_PASSES: Mapping[str, str] = {
    "arith": "convert-arith-to-llvm",
    "cf": "convert-cf-to-llvm",
    "func": "convert-func-to-llvm",
    "math": "convert-math-to-llvm",
    "memref": "finalize-memref-to-llvm",
    "vector": "convert-vector-to-llvm",
}
"""The dialects whose `ConvertToLLVMPatternInterface` schedir implements, and how."""


def _pass_name(op: ApplyConversionPatternsOp, descriptor: Operation) -> str:
    if isinstance(descriptor, ApplyToLLVMConversionPatternsOp):
        dialect = descriptor.dialect.data
        name = _DIALECT_TO_LLVM_PASSES.get(dialect)
        if name is None:
            raise definite(
                op,
                "dialect does not implement ConvertToLLVMPatternInterface or extension was "
                f"not loaded: {dialect}",
            )
        return name
    name = _DESCRIPTOR_PASSES.get(type(descriptor))
    if name is None:
        raise definite(
            op, f"'{descriptor.name}' is not implemented yet in schedir's transform interpreter"
        )
    return name


def _check_type_converter(op: ApplyConversionPatternsOp) -> None:
    builder = op.type_converter_builder()
    if builder is None:
        if op.patterns.blocks and op.patterns.block.first_op is not None:
            first = op.patterns.block.first_op
            raise definite(
                op,
                "pattern descriptor does not specify type converter and "
                "apply_conversion_patterns op has no default type converter",
                notes=[op_note(first, "pattern descriptor op")],
            )
        return
    if isinstance(builder, MemrefToLLVMTypeConverterOp):
        unsupported = builder.unsupported_options()
        if unsupported:
            raise definite(
                op,
                "schedir's LLVM type converter implements only upstream's default "
                f"options, not {', '.join(unsupported)}",
                notes=[op_note(builder, "type converter")],
            )


def _illegal(op: ApplyConversionPatternsOp, payload: Operation) -> bool:
    name = payload.name
    dialect = name.split(".", 1)[0]
    if name in string_list(op.illegal_ops) or dialect in string_list(op.illegal_dialects):
        return True
    if op.partial_conversion is not None:
        return False
    return name not in string_list(op.legal_ops) and dialect not in string_list(op.legal_dialects)


@applies(ApplyConversionPatternsOp)
def apply_conversion_patterns(op: ApplyConversionPatternsOp, interp: Interpreter) -> None:
    """Run the descriptors' conversions on each target, then check legality."""
    _check_type_converter(op)
    descriptors = list(op.patterns.block.ops) if op.patterns.blocks else []
    passes = []
    for descriptor in descriptors:
        name = _pass_name(op, descriptor)
        factory = interp.passes.get(name)
        if factory is None:
            raise definite(op, f"unknown pass or pass pipeline: {name}")
        passes.append(factory()())
    for target in interp.state.payload_ops(op.target):
        if is_ancestor(target, op):
            raise definite(op, "cannot apply transform to itself (or one of its ancestors)")
        roots = [target]
        try:
            for pass_ in passes:
                roots = [moved for root in roots for moved in _run_on(op, interp, pass_, root)]
        except TransformError as err:
            raise TransformError(
                "dialect conversion failed", op_location(op), err.notes, silenceable=True
            ) from None
        for root in roots:
            for payload in root.walk():
                if _illegal(op, payload):
                    raise silenceable(
                        op,
                        "dialect conversion failed",
                        notes=[
                            op_note(root, "target op"),
                            Note(
                                f"failed to legalize operation '{payload.name}'",
                                op_location(payload),
                            ),
                        ],
                    )
