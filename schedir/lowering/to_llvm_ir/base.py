"""The LLVM IR translator's state and the lookups its op families share (see to_llvm_ir.py)."""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from schedir.diagnostics import LoweringError, SchedirError, UnsupportedError
from schedir.dialects.syntax import op_location


class TranslatorBase:
    """The source module, the llvmlite module being built, and the SSA value and block maps."""

    source: ModuleOp
    module: ir.Module
    values: dict[SSAValue, ir.Value]
    blocks: dict[Block, ir.Block]

    def _unexpected(self, op: Operation) -> SchedirError:
        if op.name == "builtin.unrealized_conversion_cast":
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

    def _v(self, value: SSAValue) -> ir.Value:
        found = self.values.get(value)
        if found is None:
            raise LoweringError("a value is used where its definition does not dominate", None)
        return found

    def _set(self, op: Operation, value: ir.Value) -> None:
        self.values[op.results[0]] = value

    def _function(self, name: str, ftype: ir.FunctionType) -> ir.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            if existing.function_type != ftype:  # type: ignore[attr-defined]
                raise UnsupportedError(
                    f"'{name}' is used with types {existing.function_type} and {ftype}"
                )  # type: ignore[attr-defined]
            return existing  # type: ignore[return-value]
        return ir.Function(self.module, ftype, name=name)
