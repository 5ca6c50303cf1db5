"""The Python entry points: `compile` (payload -> runnable `Kernel`) and the opt driver."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp

from schedir.diagnostics import SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import parse_pass_pipeline, run_passes, split_schedule


@dataclass(frozen=True)
class OptRequest:
    """What `schedir-opt` was asked to do with one input (or one split chunk)."""

    text: str
    filename: str
    schedule: tuple[str, str] | None = None
    apply_schedule: bool = True
    entry_point: str = "__transform_main"
    pipeline: str = ""
    emit: str = "mlir"
    target: str | None = None
    generic: bool = False
    verify_each_transform: bool = False
    print_ir_after_all: Callable[[str, str], None] | None = None


def run_opt(request: OptRequest, sources: SourceManager) -> str:
    """Parse, schedule, run passes and print, as `schedir-opt` does; returns the output text."""
    ctx = get_context()
    module = parse_module(request.text, request.filename, ctx=ctx, sources=sources)
    split_schedule(module, request.apply_schedule, request.schedule)
    passes = parse_pass_pipeline(request.pipeline)
    after = None
    if request.print_ir_after_all is not None:
        dump = request.print_ir_after_all

        def after(p: object, m: ModuleOp) -> None:
            dump(getattr(p, "name", type(p).__name__), print_op(m, generic=request.generic))

    run_passes(ctx, module, passes, after_pass=after)
    if request.emit == "mlir":
        return print_op(module, generic=request.generic)
    from schedir.pipeline import emit_llvm_ir, emit_ptx

    if request.emit == "llvm":
        return emit_llvm_ir(ctx, module, target=request.target or "cpu", after_pass=after)
    return emit_ptx(ctx, module, after_pass=after)


__all__ = ["OptRequest", "run_opt"]
