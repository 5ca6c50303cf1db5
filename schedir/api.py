"""The Python entry points: `compile` (payload -> runnable `Kernel`) and the opt driver."""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from schedir.diagnostics import Diagnostic, InputError, SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import op_location, parse_module, print_op
from schedir.dialects.types import EntrySignature, entry_signature, find_entry
from schedir.options import CompileOptions
from schedir.pipeline import (
    CpuExecutable,
    CudaExecutable,
    StepChecker,
    apply_schedule,
    emit_llvm_ir,
    lower,
    parse_pass_pipeline,
    prepare_entry,
    run_passes,
    strip_schedule,
)

PayloadSource = str | os.PathLike[str]
"""A payload or schedule: a path to a .mlir file, or MLIR text."""


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
    target: str | None = None
    generic: bool = False
    verify_each_transform: bool = False
    print_ir_after_all: Callable[[str, str], None] | None = None
    on_diagnostic: Callable[[Diagnostic], None] | None = None
    """Receives the remarks and warnings of the schedule (errors are raised)."""


def run_opt(request: OptRequest, sources: SourceManager) -> str:
    """Parse, schedule, run passes and print, as `schedir-opt` does; returns the output text."""
    ctx = get_context()
    module = parse_module(
        request.text, request.filename, ctx=ctx, sources=sources, offset=request.offset
    )
    if request.apply_schedule:
        library = _parse_library(request.schedule, ctx, sources)
        checker = (
            StepChecker.for_module(ctx, module, None, CompileOptions())
            if request.verify_each_transform
            else None
        )
        apply_schedule(
            ctx,
            module,
            library,
            entry_point=request.entry_point,
            after_step=checker,
            on_diagnostic=request.on_diagnostic,
        )
    elif request.emit != "mlir":
        # As mlir-opt without the interpreter, an unapplied schedule stays in the printed
        # module; it is only dropped when the payload is compiled further.
        strip_schedule(module)
    passes = parse_pass_pipeline(request.pipeline)
    after = None
    if request.print_ir_after_all is not None:
        dump = request.print_ir_after_all

        def after(p: object, m: ModuleOp) -> None:
            dump(getattr(p, "name", type(p).__name__), print_op(m, generic=request.generic))

    run_passes(ctx, module, passes, after_pass=after)
    if request.emit == "mlir":
        return print_op(module, generic=request.generic)
    from schedir.pipeline import emit_ptx

    if request.emit == "llvm":
        return emit_llvm_ir(ctx, module, target=request.target or "cpu", after_pass=after)
    return emit_ptx(ctx, module, options=CompileOptions(target="cuda"), after_pass=after)


def _parse_library(
    schedule: tuple[str, str] | None, ctx: Context, sources: SourceManager
) -> ModuleOp | None:
    """The module of a separate schedule file (upstream's preloaded transform library)."""
    if schedule is None:
        return None
    name, text = schedule
    return parse_module(text, name, ctx=ctx, sources=sources)


def load_source(source: PayloadSource, what: str = "payload") -> tuple[str, str]:
    """(text, display name) of a payload given as a path or as MLIR text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8"), str(path)
        except OSError as err:
            raise InputError(f"could not read {what} file '{path}': {err.strerror}") from None
        except UnicodeDecodeError:
            raise InputError(f"could not read {what} file '{path}': not UTF-8 text") from None
    return str(source), f"<{what}>"


def _looks_like_path(text: str) -> bool:
    """MLIR text always has a brace or a newline; a path never needs them."""
    if "\n" in text or "{" in text:
        return False
    return text.endswith(".mlir") or Path(text).exists()


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
    _executable: CpuExecutable | CudaExecutable = field(repr=False)

    @property
    def name(self) -> str:
        return self.signature.name

    def __call__(self, *args: Any) -> Any:
        results = self.run(*args)
        if len(results) == 1:
            return results[0]
        return tuple(results) if results else None

    def run(self, *args: Any, prefill_nan: bool = False) -> list[np.ndarray]:
        """Call the kernel and return every result in a list.

        With `prefill_nan`, caller-allocated outputs start as NaN (integers: a sentinel), so
        an element the kernel never writes cannot pass a check.
        """
        return self._executable.run(args, prefill_nan=prefill_nan)

    def bind(self, *args: Any) -> Any:
        """A call with fixed arguments, for timing: on cuda it queues one run without
        waiting (arguments uploaded once, see `schedir.gpu.host.BoundHostCall`; close it
        when done), on the CPU it runs."""
        return self._executable.bind(args)

    def run_device(self, *args: Any) -> list[Any]:
        """(cuda) Call the kernel; the results stay on the device as `DeviceArray`s."""
        if not isinstance(self._executable, CudaExecutable):
            raise InputError("run_device is only available for the cuda target")
        return self._executable.run_device(args)

    def benchmark(self, *args: Any, min_time: float = 0.5, max_runs: int = 1000) -> BenchResult:
        """Median time of the kernel call on `args` (outputs allocated once).

        On cuda the time is GPU time between CUDA events around each run (L2 flushed
        before each, `schedir.gpu.time_function`); on the CPU it is wall time.
        """
        if isinstance(self._executable, CudaExecutable):
            return _benchmark_cuda(self._executable, args, min_time, max_runs)
        call = self._executable.bind(args)
        call()  # warm up: page in code and data
        times: list[float] = []
        start = time.perf_counter()
        while len(times) < max_runs and (time.perf_counter() - start < min_time or len(times) < 5):
            t0 = time.perf_counter()
            call()
            times.append(time.perf_counter() - t0)
        return BenchResult(statistics.median(times), min(times), len(times))


def _benchmark_cuda(
    executable: CudaExecutable, args: Sequence[Any], min_time: float, max_runs: int
) -> BenchResult:
    from schedir.gpu import time_function

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
    """Parse a payload file for `schedir-run`; `apply_schedule=False` drops its schedule."""
    module = parse_module(text, name, ctx=get_context(), sources=sources)
    if not apply_schedule:
        strip_schedule(module)
    return module


def compile(
    payload: PayloadSource | ModuleOp,
    schedule: PayloadSource | None = None,
    target: str = "cpu",
    entry: str | None = None,
    options: CompileOptions | None = None,
    *,
    verify_each: bool = False,
) -> Kernel:
    """Compile `payload` (path or MLIR text) for `target` and return a callable `Kernel`.

    `schedule` (path or text) is a transform library applied instead of / besides the
    schedule embedded in the payload. With `verify_each`, the payload is run after every
    top-level transform op and compared with the reference (a failing step is reported at
    its line).
    """
    if verify_each:
        options = replace(options or CompileOptions(target=target), verify_each=True)  # type: ignore[arg-type]
    return compile_with_sources(payload, schedule, target, entry, options, SourceManager())


def compile_with_sources(
    payload: PayloadSource | ModuleOp,
    schedule: PayloadSource | None,
    target: str,
    entry: str | None,
    options: CompileOptions | None,
    sources: SourceManager,
) -> Kernel:
    """`compile`, recording the source texts in `sources` for rendering diagnostics."""
    if options is None:
        options = CompileOptions(target=target)  # type: ignore[arg-type]
    elif options.target != target and target != "cpu":
        raise InputError(f"target '{target}' disagrees with options.target '{options.target}'")
    timer = _StageTimer()
    ctx = get_context()
    with timer("parse"):
        if isinstance(payload, ModuleOp):
            module = payload.clone()
        else:
            text, name = load_source(payload)
            module = parse_module(text, name, ctx=ctx, sources=sources)
    stages: dict[str, str] = {"payload": print_op(module)}
    with timer("schedule"):
        library = None
        if schedule is not None:
            text, name = load_source(schedule, "schedule")
            library = _parse_library((name, text), ctx, sources)
        checker = (
            StepChecker.for_module(ctx, module, entry, options) if options.verify_each else None
        )
        apply_schedule(
            ctx,
            module,
            library,
            after_step=checker,
            on_diagnostic=lambda d: print(d.render(sources), file=sys.stderr),
        )
    stages["scheduled"] = print_op(module)
    fn = find_entry(module, entry)
    signature = entry_signature(fn)
    if options.target == "cuda":
        return _compile_cuda(ctx, module, fn, signature, options, stages, timer)
    prepare_entry(fn)
    with timer("lower"):
        lower(ctx, module, "cpu")
    stages["llvm-dialect"] = print_op(module)
    with timer("translate"):
        llvm_ir = emit_llvm_ir(ctx, module, target="cpu")
    stages["llvm-ir"] = llvm_ir
    _dump(options, stages)
    with timer("jit"):
        executable = CpuExecutable.build(llvm_ir, signature, options)
    return Kernel(
        signature, options, MappingProxyType(stages), MappingProxyType(timer.seconds), executable
    )


def _compile_cuda(
    ctx: Context,
    module: ModuleOp,
    fn: Any,
    signature: EntrySignature,
    options: CompileOptions,
    stages: dict[str, str],
    timer: _StageTimer,
) -> Kernel:
    """The cuda half of `compile`: lower with the "cuda" pipeline, JIT the host code."""
    from schedir.diagnostics import UnsupportedError
    from schedir.lowering.gpu import written_arguments
    from schedir.pipeline import cuda_passes, has_gpu_kernels, kernels_ptx

    if not has_gpu_kernels(module):
        raise UnsupportedError(
            f"nothing in @{signature.name} runs on the GPU: the schedule must map the "
            "computation to blocks and threads (tile_using_forall with #gpu.block mapping, "
            "bufferization, then transform.gpu.map_forall_to_blocks)",
            op_location(fn),
        )
    prepare_entry(fn)
    written = written_arguments(fn)

    def grab_ptx(p: object, m: ModuleOp) -> None:
        if getattr(p, "name", "") == "gpu-module-to-binary":
            stages["ptx"] = kernels_ptx(m)

    with timer("lower"):
        lower(ctx, module, cuda_passes(options), after_pass=grab_ptx)
    stages["llvm-dialect"] = print_op(module)
    with timer("translate"):
        llvm_ir = emit_llvm_ir(ctx, module, target="cpu")
    stages["llvm-ir"] = llvm_ir
    _dump(options, stages)
    with timer("jit"):
        executable = CudaExecutable.build(llvm_ir, signature, options, written)
    return Kernel(
        signature, options, MappingProxyType(stages), MappingProxyType(timer.seconds), executable
    )


class _StageTimer:
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


def _dump(options: CompileOptions, stages: Mapping[str, str]) -> None:
    if options.dump_dir is None:
        return
    folder = Path(options.dump_dir)
    folder.mkdir(parents=True, exist_ok=True)
    suffix = {"llvm-ir": ".ll", "ptx": ".ptx"}
    for index, (name, text) in enumerate(stages.items()):
        (folder / f"{index}-{name}{suffix.get(name, '.mlir')}").write_text(text)


__all__ = ["BenchResult", "Kernel", "OptRequest", "compile", "load_source", "run_opt"]
