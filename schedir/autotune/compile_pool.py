"""Compiling candidates in a pool of worker processes, each job with a timeout.

A candidate is the payload and the schedule with its knobs selected. A worker runs the
target's compile stages up to LLVM IR (the executable is built where it runs: JIT code
cannot cross processes; the worker also optimizes and compiles the IR (on cuda the host
code, which embeds the kernels) to object code, which the measurement worker only loads)
and classifies the outcome:

- `ok`: the LLVM IR, the entry's signature and (cuda) the arguments it writes;
- `pruned`: the schedule failed *silenceably* (a precondition of a transform op, such as a
  tile size a transform cannot use), or the kernel breaks a limit of the target (threads
  per block, shared memory per block, registers spilled or wgmma serialized (C751x) as
  `ptxas -v` reports them);
- `compile-error`: anything else the compiler reported (an error, an internal error).

On cuda the worker assembles each kernel module with `ptxas -v` (which it needs anyway for
the spill and shared-memory limits) and puts the cubin in place of the PTX before the host
code is lowered: the host code then embeds the cubin, and the measurement worker loads it
without the driver's PTX JIT. Without ptxas the PTX stays (the driver compiles it).

Every result carries where its time went (`CompileResult.stages`: wall and CPU seconds of
this process per stage; `ptxas_s`), for the tuner's throughput breakdown.

A worker that hangs past the timeout or dies is killed and replaced by `Worker`; the
candidate is recorded as `compile-timeout` or `compile-crashed` by the runner.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from schedir.diagnostics import SchedirError, SourceManager, TransformError
from schedir.options import CompileOptions

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp

    from schedir.abi import EntrySignature
    from schedir.cpu.jit import ObjectCode

MAX_THREADS_PER_BLOCK = 1024
MAX_STATIC_SHARED_BYTES = 48 * 1024
"""Static shared memory a block may hold without the dynamic opt-in (every sm_70+ GPU)."""


@dataclass(frozen=True)
class CompileJob:
    """One candidate to compile: payload and schedule texts, and how."""

    candidate: int
    payload: str
    payload_name: str
    schedule: str | None
    """The schedule library with the candidate's selections (None: embedded in `payload`)."""
    entry: str | None
    options: CompileOptions
    check_spills: bool = True


@dataclass(frozen=True)
class CompileResult:
    """What a worker made of a candidate (see the module doc for `status`)."""

    candidate: int
    status: str
    seconds: float
    llvm_ir: str | None = None
    signature: EntrySignature | None = None
    written: tuple[int, ...] = ()
    error_class: str = ""
    message: str = ""
    resources: dict[str, int] = field(default_factory=dict)
    stages: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Per stage reached: (wall seconds, CPU seconds of the worker process; the LLVM
    worker's code generation counts only as wall time)."""
    ptxas_s: float = 0.0
    cubin: bool = False
    """The kernels are embedded as cubins (ptxas ran), not as PTX."""
    object_code: ObjectCode | None = None
    """The optimized object code of `llvm_ir` (cuda: of the host code; the measurement
    worker only loads it)."""
    code: str = ""
    """The candidate's code identity (`code_identity` of `llvm_ir`): candidates of equal
    identity are the same kernel (the object code is a function of the IR and the study's
    compile options), so the tuner measures only the first of them."""


def compile_candidate(job: CompileJob) -> CompileResult:
    """Compile one candidate in this process; never raises for a compiler error."""
    start = time.perf_counter()

    def result(status: str, **kw: object) -> CompileResult:
        return CompileResult(job.candidate, status, time.perf_counter() - start, **kw)  # pyright: ignore[reportArgumentType]  # the fields are given by name

    sources = SourceManager()
    clock = _StageClock()
    try:
        ir, signature, written, module_limits = _run_stages(job, sources, clock)
        code = _object_code(ir, job.options, clock) if ir and not module_limits else None
    except TransformError as err:
        # A silenceable failure is reported as an error at the entry point (escalated).
        status = "pruned" if err.silenceable or err.escalated else "compile-error"
        return result(status, error_class=type(err).__name__, message=err.render(sources))
    except SchedirError as err:
        return result("compile-error", error_class=type(err).__name__, message=err.render(sources))
    except RecursionError:
        return result("compile-error", error_class="RecursionError", message="IR nests too deeply")
    except Exception as err:  # an internal compiler error: a failed candidate, not a failed run
        return result(
            "compile-error",
            error_class=type(err).__name__,
            message=f"internal compiler error: {type(err).__name__}: {err}",
        )
    times = {"stages": clock.stages, "ptxas_s": clock.ptxas_s}
    if module_limits:
        return result("pruned", error_class="TargetLimit", message=module_limits, **times)
    return result(
        "ok",
        code=code_identity(ir) if ir else "",
        llvm_ir=ir,
        signature=signature,
        written=written,
        cubin=clock.cubin,
        object_code=code,
        **times,
    )


_NAMES_ONLY = re.compile(r"^(?:;.*|source_filename = .*)(?:\n|$)", re.M)
"""Lines of LLVM IR that name where it came from and change no code."""


def code_identity(llvm_ir: str) -> str:
    """A digest of the code `llvm_ir` compiles to (comments and the source file name off):
    two knob points of equal identity are one kernel (e.g. a cache block past the
    problem's size changes nothing)."""
    import hashlib

    return hashlib.sha256(_NAMES_ONLY.sub("", llvm_ir).encode()).hexdigest()[:32]


def _object_code(ir: str, options: CompileOptions, clock: _StageClock) -> ObjectCode:
    """Optimize and compile the LLVM IR (on cuda: the host code, which embeds the kernels)
    to object code for this host here, in parallel with the other candidates, instead of
    in the (one, serial) measurement worker, which only loads it."""
    from schedir.cpu.jit import object_code
    from schedir.cpu.llvm_worker import default_worker

    code = object_code(
        ir,
        opt_level=options.opt_level,
        cpu_name=options.cpu_name,
        cpu_features=options.cpu_features,
        worker=default_worker() if options.isolate_llvm else None,
        on_diagnostic=lambda d: None,  # a retry without a crashed pass: not the user's business
    )
    clock.lap("object code")
    return code


class _StageClock:
    """Wall and CPU seconds of each stage of one compile (and of ptxas)."""

    def __init__(self) -> None:
        self.stages: dict[str, tuple[float, float]] = {}
        self.ptxas_s = 0.0
        self.cubin = False
        self._mark = (time.perf_counter(), time.process_time())

    def lap(self, name: str) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        self.stages[name] = (wall - self._mark[0], cpu - self._mark[1])
        self._mark = (wall, cpu)


def _run_stages(
    job: CompileJob, sources: SourceManager, clock: _StageClock
) -> tuple[str, EntrySignature, tuple[int, ...], str]:
    """(LLVM IR, signature, written arguments, broken target limit or "")."""
    from schedir.dialects import get_context
    from schedir.pipeline import (
        BACKENDS,
        PTX,
        SCHEDULED,
        Compilation,
        Entry,
        Schedule,
        Source,
        Stage,
        run_stages,
    )

    c = Compilation(
        get_context(),
        job.options,
        payload=Source(job.payload, job.payload_name),
        sources=sources,
        schedule=Schedule(
            Source(job.schedule, "<tuned schedule>") if job.schedule is not None else None,
            on_diagnostic=lambda d: None,  # remarks of a candidate are not the user's business
        ),
        entry=Entry(job.entry),
    )
    limit = ""

    def after(stage: Stage) -> None:
        nonlocal limit
        clock.lap(stage.name)
        if stage is SCHEDULED and job.options.target == "cuda":
            limit = launch_limits(c.ir)
            if limit:
                raise _Pruned
        if stage is PTX and job.check_spills and not limit:
            start = time.perf_counter()
            limit, clock.cubin = assemble_kernels(c.ir, job.options.arch)
            clock.ptxas_s = time.perf_counter() - start
            clock.lap("ptxas")
            if limit:
                raise _Pruned

    stages = [s for s in BACKENDS[job.options.target].stages if not s.on_request]
    try:
        run_stages(c, stages, on_stage=after)
    except _Pruned:
        return "", _dummy_signature(), (), limit
    assert c.llvm_ir is not None and c.signature is not None
    return c.llvm_ir, c.signature, c.written, ""


class _Pruned(Exception):
    """Stops the stages at a broken target limit."""


def _dummy_signature() -> EntrySignature:
    from schedir.abi import EntrySignature  # at run time too (the import above is for types)

    return EntrySignature("", (), ())


def launch_limits(module: object) -> str:
    """The first launch limit a scheduled module breaks (threads per block), or ""."""
    from xdsl.dialects.builtin import IntegerAttr

    from schedir.dialects import arith, gpu

    assert hasattr(module, "walk")
    for op in module.walk():  # pyright: ignore[reportAttributeAccessIssue]  # a ModuleOp
        if not isinstance(op, gpu.LaunchOp):
            continue
        sizes: list[int] = []
        for value in (op.blockSizeX, op.blockSizeY, op.blockSizeZ):
            owner = value.owner
            if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
                sizes.append(int(owner.value.value.data))
        if len(sizes) == 3 and sizes[0] * sizes[1] * sizes[2] > MAX_THREADS_PER_BLOCK:
            return (
                f"{sizes[0]}x{sizes[1]}x{sizes[2]} threads per block exceed the limit of "
                f"{MAX_THREADS_PER_BLOCK}"
            )
    return ""


_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")
_SMEM = re.compile(r"Used (\d+) registers.*?(\d+) bytes smem")
_TARGET = re.compile(r"^\s*\.target\s+(sm_\d+a)\b", re.M)


def assembly_arch(ptx: str, arch: str) -> str:
    """The `-arch` ptxas assembles `ptx` for: the arch-specific target the PTX names
    (`.target sm_90a`: wgmma and setmaxnreg kernels compiled for an sm_90 study, which
    ptxas rejects for plain sm_90), else the study's `arch`."""
    found = _TARGET.search(ptx)
    return found.group(1) if found else arch


def ptx_limits(
    ptx: str, arch: str, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run
) -> str:
    """What `ptxas -v` says the kernels break (spilled registers, shared memory), or ""."""
    return assemble_checked(ptx, arch, run)[1]


def assemble_checked(
    ptx: str, arch: str, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run
) -> tuple[bytes | None, str]:
    """(the cubin, or None without a toolkit or when ptxas failed; the limit `ptxas -v`
    says the kernels break (spills, static shared memory, serialized wgmma: C751x), or
    ""), for `arch` or the arch-specific target the PTX names (`assembly_arch`)."""
    from schedir.gpu import find_ptxas
    from schedir.gpu.ptx import serialization_warnings

    try:
        ptxas = find_ptxas()
    except SchedirError:
        return None, ""  # no toolkit here: the limits are checked when the driver loads the PTX
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "kernels.ptx"
        cubin_path = Path(folder) / "k.cubin"
        path.write_text(ptx)
        out = run(
            [
                str(ptxas),
                "-v",
                f"-arch={assembly_arch(ptx, arch)}",
                str(path),
                "-o",
                str(cubin_path),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        cubin = cubin_path.read_bytes() if out.returncode == 0 and cubin_path.is_file() else None
    log = out.stdout + out.stderr
    for stores, loads in _SPILL.findall(log):
        if int(stores) or int(loads):
            return cubin, (
                f"ptxas -v: registers spill ({stores} bytes spill stores, {loads} bytes spill loads)"
            )
    for _, smem in _SMEM.findall(log):
        if int(smem) > MAX_STATIC_SHARED_BYTES:
            return cubin, (
                f"ptxas -v: {smem} bytes of shared memory per block exceed {MAX_STATIC_SHARED_BYTES}"
            )
    serialized = serialization_warnings(log)
    if serialized:
        # A correct kernel whose wgmma ptxas runs one at a time: a fraction of the speed.
        return cubin, f"ptxas -v: wgmma serialized ({serialized[0]})"
    return cubin, ""


def assemble_kernels(module: ModuleOp, arch: str) -> tuple[str, bool]:
    """Assemble every PTX object of the `gpu.binary` ops of `module` with `ptxas -v` and
    put the cubin in its place; (the first target limit broken or "", whether every PTX
    object became a cubin). An object ptxas cannot assemble keeps its PTX: the driver
    then reports the error when it loads it, as it would without the tuner."""
    from xdsl.dialects.builtin import ArrayAttr

    from schedir.dialects import gpu

    every = True
    for op in module.ops:
        if not isinstance(op, gpu.BinaryOp):
            continue
        objects: list[gpu.ObjectAttr] = []
        for obj in op.objects.data:
            if not isinstance(obj, gpu.ObjectAttr) or obj.format.data != "assembly":
                objects.append(obj)  # pyright: ignore[reportArgumentType]  # kept as it is
                continue
            cubin, limit = assemble_checked(obj.object.data, arch)
            if limit:
                return limit, False
            if cubin is None:
                every = False
                objects.append(obj)
            else:
                objects.append(gpu.ObjectAttr(obj.target, "bin", cubin.decode("latin-1")))
        op.objects = ArrayAttr(objects)
    return "", every


def compile_handler(target: object) -> Callable[[CompileJob, Callable[[str], None]], CompileResult]:
    """The compile worker's handler (`schedir.autotune.worker.serve`), warmed up first."""
    warm_up(str(target) if target is not None else None)

    def handle(job: CompileJob, _progress: Callable[[str], None]) -> CompileResult:
        return compile_candidate(job)

    return handle


WARM_PACKAGES = ("schedir.transform.ops", "schedir.transform.rewrites", "schedir.lowering")
"""Packages whose modules a compile worker imports before its first job: the stages
import them lazily, and a worker's first candidate would otherwise pay for all of them."""


def warm_up(target: str | None) -> None:
    """Import what compiling needs and start the LLVM worker (for `target`'s code
    generator), so that the first candidate's compile time is like every other's.

    A worker warms up while the tuner opens its study and computes the reference results,
    before it reports ready."""
    import importlib
    import pkgutil

    from schedir.cpu.llvm_worker import default_worker
    from schedir.dialects.context import DIALECT_FACTORIES

    for _name, factory in DIALECT_FACTORIES:
        factory()
    for package_name in WARM_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            importlib.import_module(info.name)
    importlib.import_module("schedir.pipeline")
    if target is not None:
        default_worker().start()  # its start-up (~0.3 s) overlaps the tuner's set-up


def warm_imports() -> None:
    """The zygote's warm-up (`schedir.autotune.worker.Zygote`): what compiling and
    measuring import, but no LLVM worker (each forked worker starts its own)."""
    import importlib

    warm_up(None)
    for name in ("schedir.cpu", "schedir.autotune.measure", "schedir.reference"):
        importlib.import_module(name)


__all__ = [
    "MAX_STATIC_SHARED_BYTES",
    "MAX_THREADS_PER_BLOCK",
    "CompileJob",
    "CompileResult",
    "assemble_checked",
    "assemble_kernels",
    "assembly_arch",
    "compile_candidate",
    "compile_handler",
    "launch_limits",
    "ptx_limits",
    "warm_imports",
    "warm_up",
]
