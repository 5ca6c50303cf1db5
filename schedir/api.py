"""The Python entry points: `compile` (payload -> runnable `Kernel`) and the opt driver.

Both run the stage table of `schedir.pipeline`: `compile` every stage of its target,
`run_opt` the schedule, the `-p` passes, then the stages up to what `--emit` asks for.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from schedir.abi import EntrySignature
from schedir.diagnostics import Diagnostic, InputError, Note, ParseError, SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import check_buffer_sizes, parse_module, print_op
from schedir.options import TARGETS, CompileOptions, Target
from schedir.pipeline import (
    PAYLOAD,
    SCHEDULED,
    AfterPass,
    Compilation,
    Entry,
    Executable,
    PayloadSource,
    Schedule,
    Source,
    StepCheck,
    emit,
    emit_stage,
    emit_target,
    load_source,
    parse_pass_pipeline,
    run_passes,
    run_stages,
    strip_schedule,
)
from schedir.pipeline import compile as compile_stages
from schedir.transform.knobs import KnobValue

if TYPE_CHECKING:
    from schedir.gpu import CudaExecutable
    from schedir.verify_each import StepChecker


@dataclass(frozen=True)
class OptRequest:
    """What `schedir-opt` was asked to do with one input (or one split chunk)."""

    text: str
    filename: str
    offset: int = 0
    schedule: tuple[str, str] | None = None
    apply_schedule: bool = True
    entry_point: str = "__transform_main"
    pipeline: str = ""
    emit: str = "mlir"
    """"mlir", "llvm" or a stage name of `schedir.pipeline.EMIT_CHOICES`."""
    target: Target | None = None
    generic: bool = False
    verify_each_transform: bool = False
    runtime_verification: bool = False
    """Insert `generate-runtime-verification` before the cpu lowering (`--emit` stages)."""
    print_ir_after_all: Callable[[str, str], None] | None = None
    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the remarks and warnings of the schedule (errors are raised)."""
    allow_unregistered_dialect: bool = False
    """Parse ops of unknown dialects (generic form) as opaque ops, as mlir-opt's flag does."""
    print_local_scope: bool = False
    """Print affine maps where they are used instead of as `#map` aliases at the top."""


def run_opt(request: OptRequest, sources: SourceManager) -> str | bytes:
    """Parse, schedule, run passes and print, as `schedir-opt` does; returns the output
    (bytes for `--emit cubin`)."""
    stage = emit_stage(request.emit)
    target = (request.target or "cpu") if stage is None else emit_target(stage, request.target)
    after: AfterPass | None = None
    if request.print_ir_after_all is not None:
        dump = request.print_ir_after_all

        def print_after(p: object, m: ModuleOp) -> None:
            dump(getattr(p, "name", type(p).__name__), print_op(m, generic=request.generic))

        after = print_after
    library = None if request.schedule is None else Source(request.schedule[1], request.schedule[0])
    checkers: list[StepChecker] = []
    step_check = (
        _step_check(None, CompileOptions(), checkers) if request.verify_each_transform else None
    )
    ctx = get_context()
    ctx.allow_unregistered = request.allow_unregistered_dialect
    c = Compilation(
        ctx,
        CompileOptions(
            target=target,
            runtime_verification=request.runtime_verification and target == "cpu",
        ),
        payload=Source(request.text, request.filename, request.offset),
        sources=sources,
        schedule=Schedule(library, request.entry_point, step_check, request.on_diagnostic),
        after_pass=after,
        generic=request.generic,
    )
    run_stages(c, (PAYLOAD, SCHEDULED) if request.apply_schedule else (PAYLOAD,))
    _report_steps(checkers)
    if not request.apply_schedule and stage is not None:
        # As mlir-opt without the interpreter, an unapplied schedule stays in the printed
        # module; it is only dropped when the payload is compiled further.
        strip_schedule(c.ir)
    passes = parse_pass_pipeline(request.pipeline)
    run_passes(c.ctx, c.ir, passes, after_pass=after)
    if stage is None:
        return print_op(
            c.ir, generic=request.generic, mlir_style=True, aliases=not request.print_local_scope
        )
    return emit(c, stage, target)


def _step_check(
    entry: str | None, options: CompileOptions, checkers: list[StepChecker]
) -> Callable[[Context, ModuleOp], StepCheck]:
    """Makes the per-step check of `--verify-each-transform` from the payload; each step
    reports a line on stderr as it goes, and the checker is kept in `checkers` for the
    summary (`_report_steps`)."""

    def make(ctx: Context, module: ModuleOp) -> StepCheck:
        # Deferred: the checker loads the reference and the CPU JIT, needed only here.
        from schedir.verify_each import StepChecker

        checker = StepChecker.for_module(ctx, module, entry, options, progress=_stderr)
        checkers.append(checker)
        return checker

    return make


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _report_steps(checkers: Sequence[StepChecker]) -> None:
    """The summary line of each per-step check that ran: steps checked and skipped."""
    for checker in checkers:
        _stderr(checker.summary())


@dataclass(frozen=True)
class Kernel:
    """A compiled entry function: call it on numpy arrays.

    `kernel(*arrays)` takes the entry's arguments in declared order (numpy arrays of the
    declared dtype and shape, or Python/numpy scalars; on cuda also device arrays such as
    PyTorch or CuPy tensors, used without a copy) and returns its results as new numpy
    arrays: one result is returned as is, several as a tuple. Inputs are never modified.
    `stages` holds the text of every compile stage ("payload", "scheduled",
    "llvm-dialect", "llvm-ir", and on cuda "ptx"); `timings` the seconds spent in each
    compile step ("parse", "schedule", "lower", "translate", "jit").
    """

    signature: EntrySignature
    options: CompileOptions
    stages: Mapping[str, str]
    timings: Mapping[str, float]
    _executable: Executable = field(repr=False)

    @property
    def name(self) -> str:
        return self.signature.name

    def __call__(self, *args: Any) -> Any:
        results = self.run(*args)
        if len(results) == 1:
            return results[0]
        return tuple(results) if results else None

    def run(
        self,
        *args: Any,
        prefill_nan: bool = False,
        isolated: bool = False,
        timeout: float | None = None,
    ) -> list[np.ndarray]:
        """Call the kernel and return every result in a list.

        With `prefill_nan`, caller-allocated outputs start as NaN (integers: a sentinel), so
        an element the kernel never writes cannot pass a check.

        With `isolated` (cpu), the call runs in a forked child (`schedir.cpu.isolated`):
        a kernel killed by a signal (an out-of-bounds access, an integer division by zero)
        raises `KernelCrash`, one running past `timeout` seconds `KernelTimeout`. A call
        in this process (the default) cannot survive such a signal.
        """
        outputs = None
        if prefill_nan:
            from schedir.reference import nan_filled  # deferred: only checked runs need it

            outputs = [nan_filled(spec) for spec in self.signature.out_params]
        if isolated or timeout is not None:
            if self.options.target != "cpu":
                raise InputError(
                    "isolated runs are for the cpu target (CUDA does not survive fork)"
                )
            from schedir.cpu import CpuExecutable  # deferred: loaded with the executable
            from schedir.cpu.isolated import run_executable

            assert isinstance(self._executable, CpuExecutable)
            return run_executable(self._executable, args, outputs=outputs, timeout=timeout)
        return self._executable.run(args, outputs=outputs)

    def bind(self, *args: Any) -> Any:
        """A call with fixed arguments, for timing: on cuda it queues one run without
        waiting (arguments uploaded once, see `schedir.gpu.host.BoundHostCall`; close it
        when done), on the CPU it runs."""
        return self._executable.bind(args)

    def run_device(self, *args: Any) -> list[Any]:
        """(cuda) Call the kernel; the results stay on the device as `DeviceArray`s."""
        executable = self._cuda_executable()
        if executable is None:
            raise InputError("run_device is only available for the cuda target")
        return executable.run_device(args)

    def benchmark(self, *args: Any, min_time: float = 0.5, max_runs: int = 1000) -> BenchResult:
        """Median time of the kernel call on `args` (outputs allocated once).

        On cuda the time is GPU time between CUDA events around each run (L2 flushed
        before each, `schedir.gpu.time_function`); on the CPU it is wall time.
        """
        executable = self._cuda_executable()
        if executable is not None:
            return _benchmark_cuda(executable, args, min_time, max_runs)
        call = self._executable.bind(args)
        call()  # warm up: page in code and data
        times: list[float] = []
        start = time.perf_counter()
        while len(times) < max_runs and (time.perf_counter() - start < min_time or len(times) < 5):
            t0 = time.perf_counter()
            call()
            times.append(time.perf_counter() - t0)
        return BenchResult(statistics.median(times), min(times), len(times))

    def _cuda_executable(self) -> CudaExecutable | None:
        if self.options.target != "cuda":
            return None
        from schedir.gpu import CudaExecutable  # deferred: loaded with the cuda executable

        assert isinstance(self._executable, CudaExecutable)
        return self._executable


def _benchmark_cuda(
    executable: CudaExecutable, args: Sequence[Any], min_time: float, max_runs: int
) -> BenchResult:
    from schedir.gpu import time_function  # deferred: loaded with the cuda executable

    bound = executable.bind(args)
    try:
        first = time_function(bound, warmup=3, repeat=5)
        # Enough repeats to fill `min_time`, at most `max_runs`.
        repeat = max(5, min(max_runs, int(min_time * 1e3 / max(first.median_ms, 1e-3))))
        timing = time_function(bound, warmup=1, repeat=repeat)
    finally:
        bound.close()
    return BenchResult(timing.median_ms / 1e3, timing.min_ms / 1e3, timing.repeats)


@dataclass(frozen=True)
class BenchResult:
    """Timing of a kernel: median and best seconds per call, and how many calls."""

    median: float
    best: float
    runs: int


def parse_for_run(
    text: str, name: str, sources: SourceManager, *, apply_schedule: bool
) -> ModuleOp:
    """Parse a payload file for `schedir-run`; `apply_schedule=False` drops its schedule.

    A run allocates the payload's tensors (inputs, the reference's values, the kernel's
    buffers): a static shape larger than this process can allocate is an error at its op.
    """
    module = parse_module(text, name, ctx=get_context(), sources=sources)
    if not apply_schedule:
        strip_schedule(module)
    check_buffer_sizes(module, _allocatable_bytes())
    return module


def _allocatable_bytes() -> int:
    """The most one buffer may take: the physical memory, or half the address-space
    limit of this process when it has one."""
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return physical if soft == resource.RLIM_INFINITY else min(physical, soft // 2)


def compile(
    payload: PayloadSource | ModuleOp,
    schedule: PayloadSource | None = None,
    target: str = "cpu",
    entry: str | None = None,
    options: CompileOptions | None = None,
    *,
    verify_each: bool = False,
    knobs: Mapping[str, KnobValue] | None = None,
) -> Kernel:
    """Compile `payload` (path or MLIR text) for `target` and return a callable `Kernel`.

    `schedule` (path or text) is a transform library applied instead of / besides the
    schedule embedded in the payload. With `verify_each`, the payload is run after every
    top-level transform op and compared with the reference (a failing step is reported at
    its line). `knobs` selects the value of the schedule's `transform.tune.knob`s and the
    region of its `transform.tune.alternatives` by name (what `schedir.tune` found);
    knobs not named keep their `selected` value.
    """
    _check_source(payload, "payload")
    if schedule is not None:
        _check_source(schedule, "schedule")
    if verify_each:
        options = replace(options or CompileOptions(target=_target(target)), verify_each=True)
    try:
        return compile_with_sources(
            payload, schedule, target, entry, options, SourceManager(), knobs=knobs
        )
    except ParseError as err:
        raise (
            _missing_file(payload, "payload", err)
            or _missing_file(schedule, "schedule", err)
            or err
        ) from None


def _check_source(source: object, what: str) -> None:
    """An `InputError` unless `source` is a path, MLIR text or (a payload) a parsed module."""
    if isinstance(source, str | os.PathLike) or (
        what == "payload" and isinstance(source, ModuleOp)
    ):
        return
    kinds = "a path, MLIR text or a parsed module" if what == "payload" else "a path or MLIR text"
    raise InputError(f"the {what} must be {kinds}, got {type(source).__name__}")


def _missing_file(source: object, what: str, err: ParseError) -> InputError | None:
    """A string taken as MLIR text that does not parse and reads as a path of no file: the
    user meant a file, so say that it does not exist (the parse error is a note)."""
    if not isinstance(source, str):
        return None
    text = source.strip()
    if not text or "\n" in text or "{" in text or os.path.lexists(text):
        return None
    if err.location is not None and err.location.file != f"<{what}>":
        return None
    return InputError(
        f"could not read {what} file '{text}': no such file",
        notes=(Note(f"nor is it MLIR text: {err.message}"),),
    )


def compile_with_sources(
    payload: PayloadSource | ModuleOp,
    schedule: PayloadSource | None,
    target: str,
    entry: str | None,
    options: CompileOptions | None,
    sources: SourceManager,
    *,
    knobs: Mapping[str, KnobValue] | None = None,
) -> Kernel:
    """`compile`, recording the source texts in `sources` for rendering diagnostics."""
    if options is None:
        options = CompileOptions(target=_target(target))
    elif _target(target) != options.target and target != "cpu":
        raise InputError(f"target '{target}' disagrees with options.target '{options.target}'")
    checkers: list[StepChecker] = []
    compiled = compile_stages(
        Compilation(
            get_context(),
            options,
            payload=payload,
            sources=sources,
            schedule=Schedule(
                schedule,
                step_check=_step_check(entry, options, checkers) if options.verify_each else None,
                on_diagnostic=lambda d: print(d.render(sources), file=sys.stderr),
                knobs=knobs,
            ),
            entry=Entry(entry),
        )
    )
    _report_steps(checkers)
    return Kernel(
        compiled.signature, options, compiled.stages, compiled.timings, compiled.executable
    )


def _target(name: object) -> Target:
    if name not in TARGETS:
        raise InputError(f"unknown target '{name}' (expected one of {', '.join(TARGETS)})")
    return cast(Target, name)


__all__ = ["BenchResult", "Kernel", "OptRequest", "compile", "load_source", "run_opt"]
