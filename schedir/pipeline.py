"""The compile stages as data, and the one loop that runs them.

    cpu:   payload -> scheduled -> llvm-dialect -> llvm-ir              (-> jit)
    cuda:  payload -> scheduled -> ptx [-> cubin] -> llvm-dialect -> llvm-ir   (-> jit)

Each stage of DESIGN.md is a `Stage` record: its name, what its text holds, the suffix of
its dump file, the compile step of `Kernel.timings` its work counts towards, and its
functions: `run` takes a `Compilation` to the stage, `text` gives the stage's text,
`reached` tells whether a module is there already, `check` whether it can get there at all.
`BACKENDS` gives, per target, its stages in order and how the executable is built after the
last one. Every driver runs stages through one loop, `run_stages`:

- `compile` (`schedir.compile`, `schedir-run`) runs every stage of the target, keeps each
  text (`Kernel.stages`), writes it to the dump folder (`CompileOptions.dump_dir`, files
  `{index}-{name}{suffix}`), times it, then builds the executable (the "jit" step);
- `emit` (`schedir-opt --emit`) runs only the stages between where the module is and the
  stage asked for ("start from a stage": a module already in the LLVM dialect is only
  translated, one whose kernels are a `gpu.binary` already has its PTX).

On cuda the `ptx` stage compiles the kernels (the "cuda" pipeline up to and including
`gpu-module-to-binary`) and `llvm-dialect` lowers the host code (the rest of it). `cubin`
runs only on request (`--emit cubin`): a compiled program embeds the PTX, which the CUDA
driver turns into a cubin when the program loads it. Pass pipelines come from
`schedir.lowering.pipelines`; passes run with the verifier, and every failure is a
`SchedirError` with a location.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, TypeAlias

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from schedir.abi import EntrySignature
from schedir.cpu.llvm_worker import default_worker
from schedir.diagnostics import (
    Diagnostic,
    InputError,
    LoweringError,
    Note,
    SchedirError,
    SourceManager,
    UnsupportedError,
)
from schedir.dialects import gpu
from schedir.dialects.syntax import op_location, parse_module, print_op, verify_module
from schedir.dialects.types import entry_signature, find_entry
from schedir.lowering import get_all_passes
from schedir.lowering.generate_runtime_verification import GenerateRuntimeVerification
from schedir.lowering.gpu import written_arguments
from schedir.lowering.pipelines import BUFFERIZE, PIPELINES, cuda_to_llvm
from schedir.options import CompileOptions, Target
from schedir.output import prepare_directory, write_output
from schedir.transform.knobs import KnobValue
from schedir.transform.knobs import select as select_knobs

if TYPE_CHECKING:
    from schedir.cpu import CpuExecutable
    from schedir.gpu import CudaExecutable

AfterPass = Callable[[ModulePass, ModuleOp], None]
RUNTIME_VERIFICATION = GenerateRuntimeVerification.name


def parse_pass_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """Passes from a `-p` spec such as `canonicalize,one-shot-bufferize{x=true}`."""
    if not spec.strip():
        return ()
    available = get_all_passes()
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


def prepare_entry(fn: func.FuncOp) -> None:
    """Mark the entry function for the CPU ABI before bufferization.

    Its arguments become read-only buffers (`bufferization.writable = false`), so a kernel
    never writes into the caller's input arrays, and it gets the `llvm.emit_c_interface`
    wrapper (`_mlir_ciface_<name>`) that the Python runtime calls.
    """
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


def lower(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[str],
    name: str,
    *,
    after_pass: AfterPass | None = None,
    verify_each: bool = False,
) -> None:
    """Run the pass specs `passes` (a pipeline of `schedir.lowering.pipelines`, or part of
    one, called `name` in messages).

    The module is verified once at the end; `verify_each` verifies after every pass, as
    `schedir-opt -p` does (it costs about as much as the passes themselves).
    """
    run_passes(
        ctx,
        module,
        parse_pass_pipeline(",".join(passes)),
        after_pass=after_pass,
        verify_each=verify_each,
    )
    if not verify_each:
        try:
            verify_module(module)
        except SchedirError as err:
            err.notes += (Note(f"the IR is invalid after the '{name}' pipeline"),)
            raise


def cuda_passes(options: CompileOptions) -> tuple[str, ...]:
    """The "cuda" pipeline for the arch, PTX version and -O level of `options`."""
    from schedir.gpu import GpuTarget  # deferred: schedir.gpu loads llvmlite

    target = GpuTarget.from_options(options)
    return BUFFERIZE + cuda_to_llvm(target.arch, target.ptx_feature, options.opt_level)


def _split_cuda_passes(options: CompileOptions) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The "cuda" pipeline cut after `gpu-module-to-binary`: the passes that compile the
    kernels (to the `ptx` stage), and those that lower the host code."""
    passes = cuda_passes(options)
    last = next(i for i, p in enumerate(passes) if p.startswith("gpu-module-to-binary"))
    return passes[: last + 1], passes[last + 1 :]


def kernels_ptx(module: ModuleOp) -> str:
    """The PTX of the `gpu.binary` ops of `module` (one module after the other)."""
    texts = [
        obj.object.data
        for op in module.ops
        if isinstance(op, gpu.BinaryOp)
        for obj in op.objects.data
        if isinstance(obj, gpu.ObjectAttr) and obj.format.data == "assembly"
    ]
    return "\n".join(texts)


def has_gpu_kernels(module: ModuleOp) -> bool:
    """Whether the (scheduled) module launches anything on the GPU."""
    return any(
        isinstance(op, gpu.LaunchOp | gpu.LaunchFuncOp | gpu.ModuleOp | gpu.BinaryOp)
        for op in module.walk()
    )


# ---------------------------------------------------------------------------------------
# What the stages work on


PayloadSource: TypeAlias = str | os.PathLike[str]
"""A payload or schedule: a path to a .mlir file, or MLIR text."""


def load_source(source: PayloadSource, what: str = "payload") -> tuple[str, str]:
    """(text, display name) of a payload given as a path or as MLIR text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except FileNotFoundError:
            raise InputError(f"could not read {what} file '{path}': no such file") from None
        except OSError as err:
            reason = (err.strerror or str(err)).lower()
            raise InputError(f"could not read {what} file '{path}': {reason}") from None
        except UnicodeDecodeError:
            raise InputError(f"could not read {what} file '{path}': not UTF-8 text") from None
    return str(source), f"<{what}>"


def _looks_like_path(text: str) -> bool:
    """MLIR text always has a brace or a newline; a path never needs them."""
    if "\n" in text or "{" in text or not text.strip():
        return False  # (a blank string is empty MLIR text, not the current folder)
    return text.endswith(".mlir") or Path(text).exists()


@dataclass(frozen=True)
class Source:
    """MLIR text to parse: the text, the file name diagnostics show, and where the text
    starts in that file (a chunk of a `--split-input-file` input)."""

    text: str
    name: str
    offset: int = 0

    @staticmethod
    def load(source: PayloadSource, what: str = "payload") -> Source:
        """The source of a payload or schedule given as a path or as MLIR text."""
        text, name = load_source(source, what)
        return Source(text, name)


@dataclass(frozen=True)
class Schedule:
    """How the `scheduled` stage applies the transform schedule."""

    library: Source | PayloadSource | None = None
    """A separate schedule file (upstream's preloaded library), applied instead of or
    besides the schedule embedded in the payload."""
    entry_point: str = "__transform_main"
    step_check: Callable[[Context, ModuleOp], StepCheck] | None = None
    """Makes the check run after each top-level transform op from the payload before the
    schedule (`--verify-each-transform`)."""
    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the remarks and warnings of the schedule (to stderr without it)."""
    knobs: Mapping[str, KnobValue] | None = None
    """Selections of the schedule's knobs and alternatives by name (`transform.knobs.select`),
    made after parsing so that diagnostics keep their locations."""


@dataclass(frozen=True)
class Entry:
    """The function an executable calls (`name` None: the only public one)."""

    name: str | None = None


@dataclass
class Compilation:
    """A module on its way down the stages, and what the stages learned on the way.

    The payload stage parses `payload` into `module`; later stages transform `module` and
    leave what is not IR in `llvm_ir` and `cubin`. With an `entry`, the first lowering stage
    finds that function, records its `signature` (and, on cuda, the arguments it may write,
    `written`) and prepares it for the C ABI (`prepare_entry`); without one the module is
    lowered as a whole, as `schedir-opt` does.
    """

    ctx: Context
    options: CompileOptions
    payload: Source | PayloadSource | ModuleOp | None = None
    sources: SourceManager = field(default_factory=SourceManager)
    schedule: Schedule = field(default_factory=Schedule)
    entry: Entry | None = None
    after_pass: AfterPass | None = None
    """Called after every lowering pass (`--print-ir-after-all`)."""
    generic: bool = False
    """Print the MLIR stages in generic form."""
    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the warnings of the build step (an LLVM pass that crashed and was turned
    off); to stderr without it."""

    module: ModuleOp | None = None
    signature: EntrySignature | None = None
    written: tuple[int, ...] = ()
    cpu_written: tuple[int, ...] | None = None
    """The CPU entry's written arguments; None when unknown (every memref argument is copied)."""
    llvm_ir: str | None = None
    cubin: bytes | None = None

    @property
    def ir(self) -> ModuleOp:
        """The module (once the payload stage has run)."""
        assert self.module is not None, "the payload stage has not run"
        return self.module


# ---------------------------------------------------------------------------------------
# The stages' functions


def _parse(c: Compilation) -> None:
    if isinstance(c.payload, ModuleOp):
        c.module = c.payload.clone()
        return
    assert c.payload is not None, "nothing to parse"
    source = c.payload if isinstance(c.payload, Source) else Source.load(c.payload)
    c.module = parse_module(
        source.text, source.name, ctx=c.ctx, sources=c.sources, offset=source.offset
    )


def _apply_schedule(c: Compilation) -> None:
    schedule = c.schedule
    library = None
    if schedule.library is not None:
        source = schedule.library
        if not isinstance(source, Source):
            source = Source.load(source, "schedule")
        library = parse_module(
            source.text, source.name, ctx=c.ctx, sources=c.sources, offset=source.offset
        )
    if schedule.knobs:
        select_knobs(library if library is not None else c.ir, schedule.knobs)
    step_check = schedule.step_check(c.ctx, c.ir) if schedule.step_check is not None else None
    apply_schedule(
        c.ctx,
        c.ir,
        library,
        entry_point=schedule.entry_point,
        after_step=step_check,
        on_diagnostic=schedule.on_diagnostic,
    )


def _find_entry(c: Compilation, entry: Entry) -> func.FuncOp:
    fn = find_entry(c.ir, entry.name)
    c.signature = entry_signature(fn)
    return fn


def cpu_passes(options: CompileOptions) -> tuple[str, ...]:
    """The "cpu" pipeline, after `generate-runtime-verification` when the options ask for
    runtime checks (first, so that it checks the payload's own ops, not the loops and
    accesses the lowering creates, which are in bounds by construction)."""
    if options.runtime_verification:
        return (RUNTIME_VERIFICATION, *PIPELINES["cpu"])
    return PIPELINES["cpu"]


def _lower_for_cpu(c: Compilation) -> None:
    if c.entry is not None:
        fn = _find_entry(c, c.entry)
        prepare_entry(fn)
        # Arguments still on tensors are bufferized by the pipeline below, which may write
        # them in place: only a function already on memrefs has a known written set.
        if not any(isinstance(t, TensorType) for t in fn.function_type.inputs):
            c.cpu_written = tuple(written_arguments(fn))
    lower(c.ctx, c.ir, cpu_passes(c.options), "cpu", after_pass=c.after_pass)


def _compile_kernels(c: Compilation) -> None:
    if c.entry is not None:
        fn = _find_entry(c, c.entry)
        if not has_gpu_kernels(c.ir):
            raise UnsupportedError(
                f"nothing in @{fn.sym_name.data} runs on the GPU: the schedule must map the "
                "computation to blocks and threads (tile_using_forall with #gpu.block mapping, "
                "bufferization, then transform.gpu.map_forall_to_blocks)",
                op_location(fn),
            )
        prepare_entry(fn)
        c.written = tuple(written_arguments(fn))
    kernels, _ = _split_cuda_passes(c.options)
    lower(c.ctx, c.ir, kernels, "cuda", after_pass=c.after_pass)


def _lower_host(c: Compilation) -> None:
    _, host = _split_cuda_passes(c.options)
    lower(c.ctx, c.ir, host, "cuda", after_pass=c.after_pass)


def _translate(c: Compilation) -> None:
    from schedir.lowering.to_llvm_ir import translate_module  # deferred: llvmlite

    c.llvm_ir = translate_module(c.ir)


def _assemble(c: Compilation) -> None:
    from schedir.gpu import GpuTarget, assemble  # deferred: schedir.gpu loads llvmlite

    c.cubin = assemble(kernels_ptx(c.ir), GpuTarget.from_options(c.options))


def _module_text(c: Compilation) -> str:
    return print_op(c.ir, generic=c.generic)


def _llvm_ir_text(c: Compilation) -> str:
    assert c.llvm_ir is not None, "the llvm-ir stage has not run"
    return c.llvm_ir


def _ptx_text(c: Compilation) -> str:
    return kernels_ptx(c.ir)


def _cubin_bytes(c: Compilation) -> bytes:
    assert c.cubin is not None, "the cubin stage has not run"
    return c.cubin


def _in_llvm_dialect(c: Compilation) -> bool:
    """Every top-level op is in the LLVM dialect (compiled kernels: a `gpu.binary`)."""
    return all(op.dialect_name() == "llvm" or isinstance(op, gpu.BinaryOp) for op in c.ir.ops)


def _kernels_compiled(c: Compilation) -> bool:
    return any(isinstance(op, gpu.BinaryOp) for op in c.ir.ops)


def _require_kernels(c: Compilation) -> None:
    if not has_gpu_kernels(c.ir):
        raise UnsupportedError(
            "the module has no GPU kernel: the schedule must map the computation to "
            "blocks and threads (transform.gpu.map_forall_to_blocks)",
            op_location(c.ir),
        )


def _build_cpu(c: Compilation) -> CpuExecutable:
    from schedir.cpu import CpuExecutable  # deferred: llvmlite

    assert c.llvm_ir is not None and c.signature is not None
    return CpuExecutable.build(
        c.llvm_ir, c.signature, c.options, c.on_diagnostic, written=c.cpu_written
    )


def _build_cuda(c: Compilation) -> CudaExecutable:
    from schedir.gpu import CudaExecutable  # deferred: llvmlite

    assert c.llvm_ir is not None and c.signature is not None
    return CudaExecutable.build(c.llvm_ir, c.signature, c.options, c.written)


# ---------------------------------------------------------------------------------------
# The stage table


@dataclass(frozen=True)
class Stage:
    """One named compile stage: what its text holds, and the functions that make it."""

    name: str
    description: str
    suffix: str
    """Of its file in the dump folder."""
    step: str
    """The compile step of `Kernel.timings` its `run` counts towards."""
    run: Callable[[Compilation], None]
    """Takes the compilation from the previous stage of its target to this one."""
    text: Callable[[Compilation], str | bytes]
    """The stage's text (bytes for a binary), once `run` has been."""
    reached: Callable[[Compilation], bool] | None = None
    """Whether the module is at this stage already (None: cannot be told from the IR)."""
    check: Callable[[Compilation], None] | None = None
    """Raises when the module can never give this stage's text (before any work on it)."""
    on_request: bool = False
    """Run only when asked for by name (`emit`), never by `compile`."""


PAYLOAD = Stage(
    "payload", "the parsed payload module, as written", ".mlir", "parse", _parse, _module_text
)
SCHEDULED = Stage(
    "scheduled",
    "the payload after its transform schedule",
    ".mlir",
    "schedule",
    _apply_schedule,
    _module_text,
)
LLVM_DIALECT = Stage(
    "llvm-dialect",
    "the module lowered to the LLVM dialect",
    ".mlir",
    "lower",
    _lower_for_cpu,
    _module_text,
    reached=_in_llvm_dialect,
)
LLVM_IR = Stage(
    "llvm-ir", "LLVM IR text, as llvmlite reads it", ".ll", "translate", _translate, _llvm_ir_text
)
PTX = Stage(
    "ptx",
    "PTX assembly from LLVM's NVPTX backend",
    ".ptx",
    "lower",
    _compile_kernels,
    _ptx_text,
    reached=_kernels_compiled,
    check=_require_kernels,
)
CUBIN = Stage(
    "cubin",
    "the CUDA binary loaded by the driver",
    ".cubin",
    "assemble",
    _assemble,
    _cubin_bytes,
    check=_require_kernels,
    on_request=True,
)

STAGES: tuple[Stage, ...] = (PAYLOAD, SCHEDULED, LLVM_DIALECT, LLVM_IR, PTX, CUBIN)
"""Every stage, in DESIGN.md's order (cuda's `llvm-dialect` lowers only the host code)."""
STAGE_NAMES: tuple[str, ...] = tuple(s.name for s in STAGES)

Executable: TypeAlias = "CpuExecutable | CudaExecutable"


@dataclass(frozen=True)
class Backend:
    """A target's stages in order, and how its executable is built after the last one."""

    target: Target
    stages: tuple[Stage, ...]
    build: Callable[[Compilation], Executable]

    def stage(self, name: str) -> Stage:
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise UnsupportedError(f"target '{self.target}' has no stage '{name}'")


BACKENDS: Mapping[Target, Backend] = MappingProxyType(
    {
        "cpu": Backend("cpu", (PAYLOAD, SCHEDULED, LLVM_DIALECT, LLVM_IR), _build_cpu),
        "cuda": Backend(
            "cuda",
            (
                PAYLOAD,
                SCHEDULED,
                PTX,
                CUBIN,
                replace(LLVM_DIALECT, run=_lower_host),
                LLVM_IR,
            ),
            _build_cuda,
        ),
    }
)

EMIT_CHOICES: tuple[str, ...] = ("mlir", "llvm", *STAGE_NAMES[STAGE_NAMES.index("llvm-dialect") :])
"""What `schedir-opt --emit` prints: "mlir" (the module as it is), "llvm" (as "llvm-ir"),
or a stage past the schedule."""


def emit_stage(emit: str) -> str | None:
    """The stage `--emit` asks for (None: the module as it is)."""
    return {"mlir": None, "llvm": "llvm-ir"}.get(emit, emit)


def emit_target(stage: str, requested: Target | None) -> Target:
    """The target whose stages lead to `stage`: `requested` (default cpu) when it has it,
    else the one that has it (ptx and cubin are cuda's)."""
    target: Target = requested or "cpu"
    if any(s.name == stage for s in BACKENDS[target].stages):
        return target
    return next(t for t, b in BACKENDS.items() if any(s.name == stage for s in b.stages))


# ---------------------------------------------------------------------------------------
# The drivers


def run_stages(
    c: Compilation,
    stages: Sequence[Stage],
    *,
    timer: StepTimer | None = None,
    on_stage: Callable[[Stage], None] | None = None,
) -> None:
    """Run `stages` in order on `c`, each timed under its step; `on_stage` after each."""
    for stage in stages:
        with timer(stage.step) if timer is not None else contextlib.nullcontext():
            stage.run(c)
        if on_stage is not None:
            on_stage(stage)


@dataclass(frozen=True)
class Compiled:
    """What `compile` gives: the entry's signature, every stage's text, the seconds spent
    in each step, and the executable."""

    signature: EntrySignature
    stages: Mapping[str, str]
    timings: Mapping[str, float]
    executable: Executable


def compile(c: Compilation) -> Compiled:
    """Run every stage of the target of `c.options` from the payload, keeping (and dumping)
    each stage's text, then build the executable of `c.entry` (the "jit" step)."""
    backend = BACKENDS[c.options.target]
    if c.entry is None:
        c.entry = Entry()
    if c.options.isolate_llvm:
        # Its start-up (a Python process importing llvmlite) overlaps parsing and
        # scheduling instead of adding to the build step.
        default_worker().start()
    timer = StepTimer()
    texts: dict[str, str] = {}

    def keep(stage: Stage) -> None:
        text = stage.text(c)
        assert isinstance(text, str), "only on-request stages are binary"
        _dump(c.options.dump_dir, len(texts), stage, text)
        texts[stage.name] = text

    run_stages(c, [s for s in backend.stages if not s.on_request], timer=timer, on_stage=keep)
    with timer("jit"):
        executable = backend.build(c)
    assert c.signature is not None
    return Compiled(
        c.signature, MappingProxyType(texts), MappingProxyType(timer.seconds), executable
    )


def emit(c: Compilation, stage: str, target: Target) -> str | bytes:
    """The text of `stage` (of `target`'s stages) for the module of `c`, which is at least
    scheduled: only the stages from where the module is up to `stage` run."""
    stages = BACKENDS[target].stages
    wanted = BACKENDS[target].stage(stage)
    if wanted.check is not None:
        wanted.check(c)
    end = stages.index(wanted) + 1
    start = stages.index(SCHEDULED) + 1
    for index in range(end - 1, start - 1, -1):
        reached = stages[index].reached
        if reached is not None and reached(c):
            start = index + 1
            break
    run_stages(c, [s for s in stages[start:end] if not s.on_request or s is wanted])
    return wanted.text(c)


class StepTimer:
    """Wall-clock seconds spent in each named compile step."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - start


def _dump(folder: Path | None, index: int, stage: Stage, text: str) -> None:
    if folder is None:
        return
    # The CLI made and checked --dump-dir already; from the API the folder is checked here.
    folder = prepare_directory(folder, "dump_dir")
    write_output(folder / f"{index}-{stage.name}{stage.suffix}", text)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


__all__ = [
    "BACKENDS",
    "EMIT_CHOICES",
    "STAGES",
    "STAGE_NAMES",
    "AfterPass",
    "Backend",
    "Compilation",
    "Compiled",
    "Entry",
    "Executable",
    "PayloadSource",
    "Schedule",
    "Source",
    "Stage",
    "StepCheck",
    "StepTimer",
    "apply_schedule",
    "compile",
    "cpu_passes",
    "cuda_passes",
    "emit",
    "emit_stage",
    "emit_target",
    "has_gpu_kernels",
    "has_schedule",
    "kernels_ptx",
    "load_source",
    "lower",
    "parse_pass_pipeline",
    "prepare_entry",
    "run_passes",
    "run_stages",
    "strip_schedule",
]
