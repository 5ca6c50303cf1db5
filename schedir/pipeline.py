"""The compile stages as data, and the driver that runs them.

    payload -> scheduled -> llvm-dialect -> llvm-ir -> (cpu: native code | cuda: ptx -> cubin)

Each stage has a name (`STAGES`) so it can be printed (`--emit`), dumped (`dump_dir`) and
tested alone. Pass pipelines come from `schedir.lowering.pipelines`; passes run with the
verifier after each one, and every failure is a `SchedirError` with a location.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpecParseError
from xdsl.utils.exceptions import DiagnosticException

from schedir.diagnostics import InputError, LoweringError, Note, SchedirError, UnsupportedError
from schedir.dialects.syntax import op_location, verify_module
from schedir.lowering import get_all_passes
from schedir.lowering.pipelines import PIPELINES


@dataclass(frozen=True)
class Stage:
    """One named compile stage and what its text holds."""

    name: str
    description: str


STAGES: tuple[Stage, ...] = (
    Stage("payload", "the parsed payload module, as written"),
    Stage("scheduled", "the payload after its transform schedule"),
    Stage("llvm-dialect", "the module lowered to the LLVM dialect"),
    Stage("llvm-ir", "LLVM IR text, as llvmlite reads it"),
    Stage("ptx", "PTX assembly from LLVM's NVPTX backend"),
    Stage("cubin", "the CUDA binary loaded by the driver"),
)
STAGE_NAMES: tuple[str, ...] = tuple(s.name for s in STAGES)

AfterPass = Callable[[ModulePass, ModuleOp], None]


def parse_pass_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """Passes from a `-p` spec such as `canonicalize,one-shot-bufferize{x=true}`."""
    if not spec.strip():
        return ()
    available = get_all_passes()
    from xdsl.utils.arg_spec import parse_pipeline

    try:
        specs = tuple(parse_pipeline(spec))
    except ArgSpecParseError as err:
        raise InputError(f"invalid pass pipeline '{spec}': {err}") from None
    passes: list[ModulePass] = []
    for pass_spec in specs:
        factory = available.get(pass_spec.name)
        if factory is None:
            known = ", ".join(sorted(available))
            raise InputError(
                f"unknown pass '{pass_spec.name}'", notes=(Note(f"available passes: {known}"),)
            )
        try:
            passes.append(factory().from_pass_spec(pass_spec))
        except (ValueError, TypeError, ArgSpecParseError) as err:
            raise InputError(f"invalid options for pass '{pass_spec.name}': {err}") from None
    return tuple(passes)


def run_passes(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[ModulePass],
    *,
    after_pass: AfterPass | None = None,
    verify_each: bool = True,
) -> None:
    """Run `passes` in order on `module`, verifying after each; failures are SchedirErrors."""
    for p in passes:
        try:
            p.apply(ctx, module)
        except SchedirError:
            raise
        except DiagnosticException as err:
            raise LoweringError(
                f"pass '{p.name}' failed: {_first_line(err)}", op_location(module)
            ) from None
        if verify_each:
            try:
                verify_module(module)
            except SchedirError as err:
                err.notes += (Note(f"the IR is invalid after pass '{p.name}'"),)
                raise
        if after_pass is not None:
            after_pass(p, module)


def has_schedule(module: ModuleOp) -> bool:
    """True if the module carries transform IR (an embedded schedule)."""
    return "transform.with_named_sequence" in module.attributes or any(
        op.name.startswith("transform.") for op in module.ops
    )


def strip_schedule(module: ModuleOp) -> None:
    """Remove the schedule (top-level transform ops) from a payload module."""
    for op in [op for op in module.ops if op.name.startswith("transform.")]:
        op.detach()
        op.erase(safe_erase=False)
    module.attributes.pop("transform.with_named_sequence", None)


StepCheck = Callable[[Operation, Operation], None]
"""Called after each top-level transform op with (transform op, payload root)."""


def apply_schedule(
    ctx: Context,
    module: ModuleOp,
    library: ModuleOp | None = None,
    *,
    entry_point: str = "__transform_main",
    after_step: StepCheck | None = None,
) -> bool:
    """Run the schedule of `module` (embedded, or `library`), then strip it from the payload.

    As upstream's transform interpreter, the payload root is the whole module; with a
    library (upstream's preloaded schedule) named sequences are looked up there first.
    Returns whether a schedule ran.
    """
    from schedir.transform.interpreter import InterpreterHooks, TransformInterpreter

    if library is None and not has_schedule(module):
        return False
    interp = TransformInterpreter(
        ctx,
        module,
        library if library is not None else module,
        passes=get_all_passes(),
        hooks=InterpreterHooks(after_top_level_op=after_step),
    )
    if library is not None and interp.find_named_sequence(entry_point) is None and has_schedule(module):
        interp = TransformInterpreter(
            ctx, module, module, passes=get_all_passes(), hooks=InterpreterHooks(after_top_level_op=after_step)
        )
    interp.run(entry_point)
    strip_schedule(module)
    verify_module(module)
    return True


def lower(
    ctx: Context,
    module: ModuleOp,
    pipeline: str,
    *,
    after_pass: AfterPass | None = None,
) -> None:
    """Run the named lowering pipeline (see `schedir.lowering.pipelines.PIPELINES`)."""
    passes = parse_pass_pipeline(",".join(PIPELINES[pipeline]))
    run_passes(ctx, module, passes, after_pass=after_pass)


def _is_llvm_dialect(module: ModuleOp) -> bool:
    return all(op.name.startswith("llvm.") for op in module.ops)


def emit_llvm_ir(
    ctx: Context, module: ModuleOp, *, target: str = "cpu", after_pass: AfterPass | None = None
) -> str:
    """LLVM IR text of a module, lowering it to the LLVM dialect first if needed."""
    if target != "cpu":
        raise UnsupportedError(f"--emit llvm for target '{target}' is not supported yet")
    if not _is_llvm_dialect(module):
        lower(ctx, module, "cpu", after_pass=after_pass)
    from schedir.lowering.to_llvm_ir import translate_module

    return translate_module(module)


def emit_ptx(ctx: Context, module: ModuleOp, *, after_pass: AfterPass | None = None) -> str:
    """PTX of a module's GPU kernels."""
    raise UnsupportedError("--emit ptx is not supported yet: the CUDA target is not implemented")


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


__all__ = [
    "STAGES",
    "STAGE_NAMES",
    "Stage",
    "apply_schedule",
    "emit_llvm_ir",
    "emit_ptx",
    "has_schedule",
    "lower",
    "parse_pass_pipeline",
    "prepare_entry",
    "run_passes",
    "strip_schedule",
]


def prepare_entry(fn: func.FuncOp) -> None:
    """Mark the entry function for the CPU ABI before bufferization.

    Its arguments become read-only buffers (`bufferization.writable = false`), so a kernel
    never writes into the caller's input arrays, and it gets the `llvm.emit_c_interface`
    wrapper (`_mlir_ciface_<name>`) that the Python runtime calls.
    """
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, TensorType, UnitAttr

    attrs = (
        list(fn.arg_attrs.data) if fn.arg_attrs is not None else [DictionaryAttr({})] * len(fn.args)
    )
    new_attrs = []
    for arg, existing in zip(fn.args, attrs, strict=True):
        entries = dict(existing.data)
        if isinstance(arg.type, TensorType):
            entries["bufferization.writable"] = IntegerAttr.from_bool(False)
        new_attrs.append(DictionaryAttr(entries))
    fn.arg_attrs = ArrayAttr(new_attrs)
    fn.attributes["llvm.emit_c_interface"] = UnitAttr()
