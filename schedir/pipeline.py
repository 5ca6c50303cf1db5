"""The compile stages as data, and the driver that runs them.

    payload -> scheduled -> llvm-dialect -> llvm-ir -> (cpu: native code | cuda: ptx -> cubin)

Each stage has a name (`STAGES`) so it can be printed (`--emit`), dumped (`dump_dir`) and
tested alone. Pass pipelines come from `schedir.lowering.pipelines`; passes run with the
verifier after each one, and every failure is a `SchedirError` with a location.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpecParseError
from xdsl.utils.exceptions import DiagnosticException

from schedir.diagnostics import (
    Diagnostic,
    InputError,
    LoweringError,
    Note,
    SchedirError,
    UnsupportedError,
)
from schedir.dialects.syntax import op_location, verify_module
from schedir.lowering import get_all_passes
from schedir.lowering.pipelines import PIPELINES
from schedir.options import CompileOptions


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
        specs = tuple(parse_pipeline(_quote_dotted_values(spec)))
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


_DOTTED_VALUE = re.compile(r"(?<=[=,])([A-Za-z_][\w-]*(?:\.[\w-]+)+)(?=[\s,}])")


def _quote_dotted_values(spec: str) -> str:
    """Quote option values such as `linalg.copy`, which upstream accepts bare.

    xDSL's pipeline lexer has no dots in identifiers; pass names never contain dots, so
    only option values are affected.
    """
    return _DOTTED_VALUE.sub(r'"\1"', spec)


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


def _schedule_ops(module: ModuleOp) -> list[Operation]:
    """Top-level transform ops, and nested modules that hold only a schedule.

    Upstream's own tests put the schedule in a nested `module attributes
    {transform.with_named_sequence}` next to the payload's functions.
    """
    found: list[Operation] = []
    for op in module.ops:
        if op.name.startswith("transform.") or (
            isinstance(op, ModuleOp)
            and "transform.with_named_sequence" in op.attributes
            and all(inner.name.startswith("transform.") for inner in op.ops)
        ):
            found.append(op)
    return found


def has_schedule(module: ModuleOp) -> bool:
    """True if the module carries transform IR (an embedded schedule)."""
    return "transform.with_named_sequence" in module.attributes or bool(_schedule_ops(module))


def strip_schedule(module: ModuleOp) -> None:
    """Remove the schedule (transform ops, or a nested schedule module) from a payload module."""
    for op in _schedule_ops(module):
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
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> bool:
    """Run the schedule of `module` (embedded, or `library`), then strip it from the payload.

    As upstream's transform interpreter, the payload root is the whole module; with a
    library (upstream's preloaded schedule) named sequences are looked up there first.
    Returns whether a schedule ran. Remarks and warnings of the run go to `on_diagnostic`
    (to stderr without it).
    """
    from schedir.transform.interpreter import InterpreterHooks, TransformInterpreter

    if library is None and not has_schedule(module):
        return False
    interp = TransformInterpreter(
        ctx,
        module,
        library if library is not None else module,
        passes=get_all_passes(),
        hooks=InterpreterHooks(after_top_level_op=after_step, on_diagnostic=on_diagnostic),
    )
    if (
        library is not None
        and interp.find_named_sequence(entry_point) is None
        and has_schedule(module)
    ):
        interp = TransformInterpreter(
            ctx,
            module,
            module,
            passes=get_all_passes(),
            hooks=InterpreterHooks(after_top_level_op=after_step, on_diagnostic=on_diagnostic),
        )
    interp.run(entry_point)
    strip_schedule(module)
    verify_module(module)
    return True


def lower(
    ctx: Context,
    module: ModuleOp,
    pipeline: str | Sequence[str],
    *,
    after_pass: AfterPass | None = None,
    verify_each: bool = False,
) -> None:
    """Run a lowering pipeline: a name of `schedir.lowering.pipelines.PIPELINES`, or the
    pass specs themselves (see `cuda_passes`).

    The module is verified once at the end; `verify_each` verifies after every pass, as
    `schedir-opt -p` does (it costs about as much as the passes themselves).
    """
    specs = PIPELINES[pipeline] if isinstance(pipeline, str) else tuple(pipeline)
    passes = parse_pass_pipeline(",".join(specs))
    run_passes(ctx, module, passes, after_pass=after_pass, verify_each=verify_each)
    if not verify_each:
        try:
            verify_module(module)
        except SchedirError as err:
            name = pipeline if isinstance(pipeline, str) else "cuda"
            err.notes += (Note(f"the IR is invalid after the '{name}' pipeline"),)
            raise


def _is_llvm_dialect(module: ModuleOp) -> bool:
    return all(op.name.startswith("llvm.") for op in module.ops)


def emit_llvm_ir(
    ctx: Context, module: ModuleOp, *, target: str = "cpu", after_pass: AfterPass | None = None
) -> str:
    """LLVM IR text of a module, lowering it to the LLVM dialect first if needed (for
    "cuda", the host code with the kernels embedded; `emit_ptx` gives the kernels)."""
    if target not in ("cpu", "cuda"):
        raise UnsupportedError(f"--emit llvm for target '{target}' is not supported")
    if not _is_llvm_dialect(module):
        if target == "cuda":
            lower(ctx, module, cuda_passes(CompileOptions(target="cuda")), after_pass=after_pass)
        else:
            lower(ctx, module, "cpu", after_pass=after_pass)
    from schedir.lowering.to_llvm_ir import translate_module

    return translate_module(module)


def cuda_passes(options: CompileOptions) -> tuple[str, ...]:
    """The "cuda" pipeline for the arch, PTX version and -O level of `options`."""
    from schedir.gpu import GpuTarget
    from schedir.lowering.pipelines import BUFFERIZE, cuda_to_llvm

    target = GpuTarget.from_options(options)
    return BUFFERIZE + cuda_to_llvm(target.arch, target.ptx_feature, options.opt_level)


def kernels_ptx(module: ModuleOp) -> str:
    """The PTX of the `gpu.binary` ops of `module` (one module after the other)."""
    texts = [
        obj.object.data  # type: ignore[attr-defined]
        for op in module.ops
        if op.name == "gpu.binary"
        for obj in op.properties["objects"].data  # type: ignore[attr-defined]
        if getattr(obj, "format", None) is not None and obj.format.data == "assembly"  # type: ignore[attr-defined]
    ]
    return "\n".join(texts)


def has_gpu_kernels(module: ModuleOp) -> bool:
    """Whether the (scheduled) module launches anything on the GPU."""
    return any(
        op.name in ("gpu.launch", "gpu.launch_func", "gpu.module", "gpu.binary")
        for op in module.walk()
    )


def emit_ptx(
    ctx: Context,
    module: ModuleOp,
    *,
    options: CompileOptions | None = None,
    after_pass: AfterPass | None = None,
) -> str:
    """PTX of a module's GPU kernels (no GPU needed).

    The module is lowered with the "cuda" pipeline up to `gpu-module-to-binary` unless its
    kernels are compiled already (`gpu.binary`).
    """
    options = options or CompileOptions(target="cuda")
    if not any(op.name == "gpu.binary" for op in module.ops):
        if not has_gpu_kernels(module):
            raise UnsupportedError(
                "the module has no GPU kernel: the schedule must map the computation to "
                "blocks and threads (transform.gpu.map_forall_to_blocks)",
                op_location(module),
            )
        passes = cuda_passes(options)
        last = next(i for i, p in enumerate(passes) if p.startswith("gpu-module-to-binary"))
        lower(ctx, module, passes[: last + 1], after_pass=after_pass)
    return kernels_ptx(module)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


__all__ = [
    "STAGES",
    "STAGE_NAMES",
    "Stage",
    "apply_schedule",
    "cuda_passes",
    "emit_llvm_ir",
    "emit_ptx",
    "has_gpu_kernels",
    "has_schedule",
    "kernels_ptx",
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
