"""The Python entry points: `compile` (payload -> runnable `Kernel`) and the opt driver."""

from __future__ import annotations

import contextlib
import os
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from schedir.diagnostics import InputError, SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.dialects.types import ArgSpec, EntrySignature, entry_signature, find_entry
from schedir.options import CompileOptions
from schedir.pipeline import (
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


def run_opt(request: OptRequest, sources: SourceManager) -> str:
    """Parse, schedule, run passes and print, as `schedir-opt` does; returns the output text."""
    ctx = get_context()
    module = parse_module(
        request.text, request.filename, ctx=ctx, sources=sources, offset=request.offset
    )
    if request.apply_schedule:
        library = _parse_library(request.schedule, ctx, sources)
        apply_schedule(ctx, module, library, entry_point=request.entry_point)
    else:
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
    return emit_ptx(ctx, module, after_pass=after)


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
    declared dtype and shape, or Python/numpy scalars) and returns its results as new
    arrays: one result is returned as is, several as a tuple. Inputs are never modified.
    `stages` holds the text of every compile stage ("payload", "scheduled",
    "llvm-dialect", "llvm-ir"); `timings` the seconds spent in each compile step ("parse",
    "schedule", "lower", "translate", "jit").
    """

    signature: EntrySignature
    options: CompileOptions
    stages: Mapping[str, str]
    timings: Mapping[str, float]
    _function: Any = field(repr=False)

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
        params = self._params(args, prefill_nan)
        returned = self._function(*params)
        return self._collect(params, returned)

    def benchmark(self, *args: Any, min_time: float = 0.5, max_runs: int = 1000) -> BenchResult:
        """Median wall time of the kernel call on `args` (outputs allocated once)."""
        params = self._params(args, False)
        self._function(*params)  # warm up: page in code and data
        times: list[float] = []
        start = time.perf_counter()
        while len(times) < max_runs and (time.perf_counter() - start < min_time or len(times) < 5):
            t0 = time.perf_counter()
            self._function(*params)
            times.append(time.perf_counter() - t0)
        return BenchResult(statistics.median(times), min(times), len(times))

    def _params(self, args: Sequence[Any], prefill_nan: bool) -> list[Any]:
        sig = self.signature
        if len(args) != len(sig.args):
            raise InputError(
                f"@{sig.name} takes {len(sig.args)} argument(s) "
                f"({', '.join(a.mlir_type for a in sig.args)}), got {len(args)}"
            )
        params = [
            _check_arg(i, spec, value)
            for i, (spec, value) in enumerate(zip(sig.args, args, strict=True))
        ]
        for spec in sig.results:
            if spec.shape is not None and spec.is_static:
                params.append(_new_output(spec, prefill_nan))
        return params

    def _collect(self, params: list[Any], returned: Sequence[Any]) -> list[np.ndarray]:
        outs = iter(params[len(self.signature.args) :])
        rets = iter(returned)
        results: list[np.ndarray] = []
        for spec in self.signature.results:
            if spec.shape is not None and spec.is_static:
                results.append(next(outs))
            else:
                results.append(np.asarray(next(rets), dtype=spec.dtype))
        return results


@dataclass(frozen=True)
class BenchResult:
    """Timing of a kernel: median and best seconds per call, and how many calls."""

    median: float
    best: float
    runs: int


def _check_arg(index: int, spec: ArgSpec, value: Any) -> Any:
    """The argument as the runtime takes it; InputError if it does not fit `spec`."""
    if spec.shape is None:
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise InputError(
                f"argument {index}: expected a scalar of type {spec.mlir_type}, got an array"
            )
        return (
            np.asarray(value).astype(spec.dtype, casting="same_kind").item()
            if spec.dtype.kind != "V"
            else value
        )
    array = np.asarray(value) if not isinstance(value, np.ndarray) else value
    if array.dtype != spec.dtype:
        raise InputError(
            f"argument {index}: expected an array of dtype {spec.dtype} ({spec.mlir_type}), got {array.dtype}"
        )
    if array.ndim != len(spec.shape) or any(
        want >= 0 and want != got for want, got in zip(spec.shape, array.shape, strict=True)
    ):
        raise InputError(
            f"argument {index}: expected shape {_shape_text(spec.shape)} ({spec.mlir_type}), got {tuple(array.shape)}"
        )
    return np.ascontiguousarray(array)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join("?" if d < 0 else str(d) for d in shape) + ")"


def _new_output(spec: ArgSpec, prefill_nan: bool) -> np.ndarray:
    assert spec.shape is not None
    if not prefill_nan:
        return np.empty(spec.shape, dtype=spec.dtype)
    from schedir.reference import nan_filled

    return nan_filled(spec)


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
) -> Kernel:
    """Compile `payload` (path or MLIR text) for `target` and return a callable `Kernel`."""
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
        apply_schedule(ctx, module, library)
    stages["scheduled"] = print_op(module)
    fn = find_entry(module, entry)
    signature = entry_signature(fn)
    if options.target != "cpu":
        from schedir.diagnostics import UnsupportedError

        raise UnsupportedError(f"target '{options.target}' is not supported yet")
    prepare_entry(fn)
    with timer("lower"):
        lower(ctx, module, "cpu")
    stages["llvm-dialect"] = print_op(module)
    with timer("translate"):
        llvm_ir = emit_llvm_ir(ctx, module, target="cpu")
    stages["llvm-ir"] = llvm_ir
    _dump(options, stages)
    with timer("jit"):
        function = _cpu_function(llvm_ir, signature, options)
    return Kernel(
        signature, options, MappingProxyType(stages), MappingProxyType(timer.seconds), function
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


def _cpu_function(llvm_ir: str, signature: EntrySignature, options: CompileOptions) -> Any:
    """The JIT-compiled `_mlir_ciface_` wrapper of the entry, with its ABI specs."""
    from schedir.cpu.jit import JitModule
    from schedir.cpu.runtime import CpuFunction, MemRefSpec, ScalarSpec

    def spec(a: ArgSpec) -> MemRefSpec | ScalarSpec:
        if a.shape is None:
            return ScalarSpec(a.dtype)
        return MemRefSpec(a.dtype, tuple(None if d < 0 else d for d in a.shape))

    params = [spec(a) for a in signature.args]
    params += [spec(r) for r in signature.results if r.shape is not None and r.is_static]
    results = [spec(r) for r in signature.results if r.shape is None or not r.is_static]
    jit = JitModule(
        llvm_ir,
        opt_level=options.opt_level,
        cpu_name=options.cpu_name,
        cpu_features=options.cpu_features,
    )
    return CpuFunction(jit, f"_mlir_ciface_{signature.name}", params, results)


__all__ = ["BenchResult", "Kernel", "OptRequest", "compile", "load_source", "run_opt"]
