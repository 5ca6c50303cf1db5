"""The state of one module's translation to LLVM IR, and what every op family uses of it.

A translation function of an op family (`values`, `arithmetic`, `memory`, `control`,
`calls`, `intrinsics`, `nvvm`) has the form `def _load(t: Translation, op: llvm.LoadOp)`:
it reads the LLVM IR values of the op's operands with `t.value`, builds instructions with
`t.builder` (positioned at the end of the op's block) and records the op's result with
`t.set`. Each family module lists its functions in a table keyed by op class; `module`
assembles the one dispatch table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import llvmlite.ir as ir
from xdsl.backend.llvm.convert_op import convert_op as xdsl_convert_op
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Block, Operation, SSAValue

from schedir.diagnostics import LoweringError, SchedirError, UnsupportedError
from schedir.dialects.syntax import op_location
from schedir.lowering.to_llvm_ir.llvmlite_ir import IRValue


class Translation:
    """The source module, the llvmlite module being built, the SSA value and block maps,
    and the builder of the block being translated."""

    def __init__(self, source: ModuleOp, module: ir.Module) -> None:
        self.source = source
        self.module = module
        self.values: dict[SSAValue, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}
        self.builder = ir.IRBuilder()

    def value(self, value: SSAValue) -> IRValue:
        """The LLVM IR value of `value` (translated before: its definition dominates)."""
        found = self.values.get(value)
        if found is None:
            raise LoweringError("a value is used where its definition does not dominate", None)
        # What the translation functions and xDSL's convert_op record is an instruction,
        # argument, global or constant.
        return cast(IRValue, found)

    def set(self, op: Operation, value: ir.Value) -> None:
        """Record `value` as the LLVM IR value of `op`'s (one) result."""
        self.values[op.results[0]] = value

    def function(self, name: str, ftype: ir.FunctionType) -> ir.Function:
        """The function `@name` of type `ftype`, declared on first use."""
        existing = self.module.globals.get(name)
        if existing is None:
            return ir.Function(self.module, ftype, name=name)
        # A global that is not a function fails below, as llvmlite fails on bad input.
        function = cast(ir.Function, existing)
        if function.function_type != ftype:
            raise UnsupportedError(
                f"'{name}' is used with types {function.function_type} and {ftype}"
            )
        return function


Translate = Callable[[Translation, Any], None]
"""A translation function; its op parameter has the class its table entry is keyed by."""


def delegate(t: Translation, op: Operation) -> None:
    """Translate `op` with xDSL's `convert_op` (the ops it translates correctly)."""
    xdsl_convert_op(op, t.builder, t.values, t.blocks)


def unexpected(op: Operation) -> SchedirError:
    """The error for an op that has no LLVM IR translation."""
    if isinstance(op, UnrealizedConversionCastOp):
        return LoweringError(
            "an unrealized conversion cast remains "
            f"({', '.join(str(v.type) for v in op.operands)} to "
            f"{', '.join(str(r.type) for r in op.results)}): some op was not lowered "
            "to the LLVM dialect, or reconcile-unrealized-casts did not run",
            op_location(op),
        )
    return UnsupportedError(
        f"'{op.name}' is not in the LLVM dialect: lower it before translating to LLVM IR",
        op_location(op),
    )


__all__ = ["Translate", "Translation", "delegate", "unexpected"]
