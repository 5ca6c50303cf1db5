"""Verifying and timing candidates in a measurement worker process (one per device).

Measurement protocol, version `PROTOCOL_VERSION` (part of every study key: a change here
never reuses an old time):

1. Build: the candidate's LLVM IR is JIT-compiled in the worker (on cuda, loaded on the
   worker's device; `CUDA_VISIBLE_DEVICES` is set to it before CUDA starts). On cuda the
   kernels come as the cubins `ptxas -v` made in the compile worker (version 2; version 1
   loaded PTX through the driver's JIT), as PTX only where no ptxas is installed. On the
   CPU the compile worker optimizes and compiles the LLVM IR to object code (the same
   code the JIT would make from it here), and the build only loads it.
2. Verify: one call on the study's inputs (seeded random, non-trivial, of the payload's
   odd sizes) into fresh output buffers pre-filled with NaN (integers: a sentinel), so an
   element the kernel never writes cannot pass. Every result is compared with
   `schedir.reference` (float64, dtype-aware tolerances: `schedir.reference.compare`), and
   every input is compared bit for bit with its copy taken before the call. A failure is
   a `wrong-result`: it is never timed and can never win. (`Screen` decides quickly where
   every element is well inside compare's tolerance; any other result goes to compare.)
   The reference results are computed by their own worker while the first candidates
   compile and run; a candidate verified before they exist keeps its results in the
   measurement worker (the inputs are checked at once), is timed, and is compared when
   they are written (`VerifyJob`): it is recorded, and can win, only after that.
3. Time: warm-up, then repeats. CPU: the compile workers are stopped first (the worker
   waits for the runner's go), then one warm-up call, then calls until `min_time`
   seconds and at least `min_runs` calls (at most `max_runs`), wall time of each call.
   cuda: `schedir.gpu.time_function` (CUDA events around every run, the L2 cache flushed
   before each) on fresh device copies of the inputs (uploaded once per worker): one
   warm-up run (the verification call ran the kernel before), a first
   series of `min_runs` runs that sizes the second, then the second series (`min_time`
   seconds, within [min_runs, max_runs] runs), whose times are the result. The result is
   the median and the spread (the interquartile range relative to the median).
   A candidate that cannot win is not timed further (version 3): when the median of its
   first `min_runs` runs is above the job's `cutoff_ms` (the runner's best verified
   median times `SLOW_CUTOFF`), those runs are its times. Such a candidate is far
   outside the noise band of the best, so a longer series could not change the winner;
   it only cost measurement time (most of a search's candidates are slow).
   A worker's first timing is done twice and the first discarded (version 3): the first
   seconds of work of a fresh process, or of an idle machine, run slow (page faults on
   fresh memory, which a virtual machine maps on first touch; clocks ramping up); on a
   VM host the default, timed first, measured 1.7x its later time.
4. Accept: a candidate faster than the best so far is timed again (`remeasure`, on the
   executable built for its first timing) and its time is the median of both series;
   times within the noise band (`NOISE_BAND`, or the measured spreads when larger) are
   ties, broken by the candidate's canonical knob key, so workers and hosts agree on the
   winner (`schedir.autotune.runner.winner`).

A hook (`MeasureHook`) can stand between the worker and the kernel's verification call:
tests use it to inject faults (a segfault, a hang, wrong numbers) as a broken candidate
would. The runner's watchdog gives each phase a deadline (building: the compile timeout;
verifying and timing: max(1 s, 20x the best time so far) per call) and restarts a worker
that crashes or hangs.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from schedir.abi import EntrySignature
from schedir.options import CompileOptions

PROTOCOL_VERSION = 3
NOISE_BAND = 0.02
"""Relative difference below which two medians are a tie."""
SLOW_CUTOFF = 1.25
"""A candidate whose first runs' median exceeds the best verified median by this factor
is not timed further (step 3 of the protocol)."""

MeasureHook = Callable[[Mapping[str, Any], Callable[[], list[np.ndarray]]], list[np.ndarray]]
"""`hook(knobs, run) -> results`: called for a candidate's verification call instead of
`run()` (which calls the kernel once and returns its results)."""


@dataclass(frozen=True)
class MeasureSetup:
    """What a measurement worker needs once: where the inputs and expected results are,
    the device, the tolerances and the timing effort."""

    target: str
    device: int | None
    data: Path
    """An .npz file holding `in_<i>` (the inputs)."""
    reference: Path
    """An .npz file holding `out_<i>` (the reference results) and, for float results,
    `err_<i>` (their forward error bounds) and `floor_<i>` (the smallest normal number of
    the result's dtype, compare's absolute tolerance). It may not exist yet when the
    worker starts (it is computed while the first candidates compile and run): then
    results wait in the worker until a `VerifyJob` says it is there."""
    reduction_length: int
    min_time: float
    min_runs: int = 5
    max_runs: int = 200
    hook: MeasureHook | None = None


@dataclass(frozen=True)
class MeasureJob:
    """One candidate to verify and time (or, with `remeasure`, only to time again)."""

    candidate: int
    knobs: Mapping[str, Any]
    llvm_ir: str
    signature: EntrySignature
    written: tuple[int, ...]
    options: CompileOptions
    remeasure: bool = False
    handshake: bool = False
    """Wait for the runner's go before timing (it stops the compile workers first)."""
    object_code: Any = None
    """The candidate's object code (`schedir.cpu.jit.ObjectCode`; on cuda its host code's,
    which embeds the kernels), made by the compile worker: the build only loads it."""
    cutoff_ms: float | None = None
    """Stop timing after the first runs when their median is above this (step 3 of the
    protocol); None: time in full."""


@dataclass(frozen=True)
class VerifyJob:
    """The reference results are written: compare the held results of `candidates`."""

    candidates: tuple[int, ...]


@dataclass(frozen=True)
class Verdicts:
    """For each candidate of a `VerifyJob`: None (verified), why it is wrong, or `LOST`
    (this worker holds no results of it: it was restarted since)."""

    failures: dict[int, str | None]


LOST = "lost"


@dataclass(frozen=True)
class Measurement:
    """The outcome: `status` "verified", "unverified" (timed, its results held until
    the reference results exist: a `VerifyJob` decides), "wrong-result", "error" (the
    kernel raised) or "crashed" (an error that poisons the worker's CUDA context, or out
    of memory: the runner replaces the worker)."""

    candidate: int
    status: str
    times_ms: tuple[float, ...] = ()
    build_s: float = 0.0
    error_class: str = ""
    message: str = ""
    call_s: float = 0.0
    """The verification call: on cuda the module load (a cubin, or PTX the driver
    compiles), the copies to and from the device and one run."""
    check_s: float = 0.0
    """Comparing the results with the reference and the inputs with their copies."""
    time_s: float = 0.0
    """Timing (warm-up and repeats)."""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms) if self.times_ms else float("inf")

    @property
    def spread(self) -> float:
        """Interquartile range of the times relative to their median."""
        return relative_spread(self.times_ms)


def relative_spread(times: Sequence[float]) -> float:
    """Interquartile range of `times` relative to their median (0 for fewer than 4)."""
    if len(times) < 4:
        return 0.0
    q = statistics.quantiles(times, n=4)
    median = statistics.median(times)
    return (q[2] - q[0]) / median if median > 0 else 0.0


class Measurer:
    """The measurement worker's handler: loads the data once, then verifies and times."""

    def __init__(self, setup: MeasureSetup) -> None:
        if setup.target == "cuda" and setup.device is not None:
            # Before anything starts CUDA in this process, the driver (which reads the C
            # environment at cuInit) is told to show the worker only its device.
            os.putenv("CUDA_VISIBLE_DEVICES", str(setup.device))
        self.setup = setup
        self._device_inputs: list[Any] | None = None
        """cuda: the inputs on the device (None for a scalar), uploaded at the first timing."""
        self._warm = False
        """Whether this worker has timed a candidate (its first timing is discarded)."""
        self._last: tuple[int, Any] | None = None
        """The last timed candidate and its executable (kept for a `remeasure`)."""
        self._held: dict[int, tuple[MeasureJob, list[np.ndarray]]] = {}
        """Results of candidates timed before the reference results existed."""
        with np.load(setup.data, allow_pickle=False) as data:
            count = sum(1 for k in data.files if k.startswith("in_"))
            self.inputs = [np.array(data[f"in_{i}"]) for i in range(count)]
        self.expected: list[tuple[np.ndarray, np.ndarray | None]] | None = None
        """(value, forward error bound or None) of each reference result, once loaded."""
        self._screens: dict[int, Screen | None] = {}
        if setup.reference.is_file():
            self._load_reference()
        if setup.target == "cuda":
            _start_cuda()  # the context starts while the first candidates compile

    def _load_reference(self) -> None:
        with np.load(self.setup.reference, allow_pickle=False) as data:
            results = sum(1 for k in data.files if k.startswith("out_"))
            self.expected = [
                (
                    np.array(data[f"out_{i}"]),
                    np.array(data[f"err_{i}"]) if f"err_{i}" in data.files else None,
                )
                for i in range(results)
            ]
            # Built now, not for the first candidate (`floor_<i>`: tiny of the result's
            # declared dtype), else on first use.
            self._screens = {
                i: Screen.of(*self.expected[i], float(data[f"floor_{i}"]))
                for i in range(results)
                if f"floor_{i}" in data.files
            }

    def verify_held(self, job: VerifyJob) -> Verdicts:
        """Compare the held results of `job.candidates` with the (now written) reference."""
        if self.expected is None:
            self._load_reference()
        failures: dict[int, str | None] = {}
        for candidate in job.candidates:
            held = self._held.pop(candidate, None)
            if held is None:
                failures[candidate] = LOST
                continue
            measure_job, results = held
            failures[candidate] = self._compare(measure_job, results)
        return Verdicts(failures)

    def __call__(
        self, job: MeasureJob | VerifyJob, progress: Callable[..., None]
    ) -> Measurement | Verdicts:
        if isinstance(job, VerifyJob):
            return self.verify_held(job)
        return self.measure(job, progress)

    def measure(self, job: MeasureJob, progress: Callable[..., None]) -> Measurement:
        """Build, verify (or hold the results) and time one candidate."""
        start = time.perf_counter()
        last = self._last
        self._last = None
        if job.remeasure and last is not None and last[0] == job.candidate:
            executable = last[1]  # timed again right after its first timing: not rebuilt
        else:
            try:
                executable = _build(job)
            except Exception as err:  # a JIT/load failure of this candidate only
                return Measurement(
                    job.candidate, "error", error_class=type(err).__name__, message=str(err)
                )
        spent: dict[str, float] = {"build_s": time.perf_counter() - start}

        def outcome(status: str, err: BaseException | None = None, **kw: Any) -> Measurement:
            if err is not None:
                kw.update(error_class=type(err).__name__, message=str(err))
            return Measurement(
                job.candidate,
                status,
                build_s=spent.get("build_s", 0.0),
                call_s=spent.get("call_s", 0.0),
                check_s=spent.get("check_s", 0.0),
                time_s=spent.get("time_s", 0.0),
                **kw,
            )

        progress("built")
        verified = "verified"
        if not job.remeasure:
            try:
                failure = self._verify(job, executable, spent)
            except Exception as err:  # poisons_context: see _verify
                return outcome("crashed", err)
            if failure is not None:
                return outcome("wrong-result", error_class="WrongResult", message=failure)
            if job.candidate in self._held:
                verified = "unverified"
        progress("timing", job.handshake)
        start = time.perf_counter()
        try:
            times = self._time(job, executable)
        except Exception as err:
            spent["time_s"] = time.perf_counter() - start
            return outcome("crashed" if poisons_context(err) else "error", err)
        spent["time_s"] = time.perf_counter() - start
        self._last = (job.candidate, executable)  # a new best is timed again next
        return outcome(verified, times_ms=tuple(times))

    def _device_copies(self, job: MeasureJob) -> list[Any]:
        """cuda: the inputs of a timing, each array a fresh device copy of the worker's
        device inputs (uploaded once; a kernel that wrote its inputs would change only its
        own copies), scalars as they are."""
        from schedir.abi import MemRefSpec
        from schedir.gpu import DeviceArray

        if self._device_inputs is None:
            self._device_inputs = [
                DeviceArray.from_numpy(a) if isinstance(spec, MemRefSpec) else None
                for a, spec in zip(self.inputs, job.signature.args, strict=True)
            ]
        return [
            d.copy() if d is not None else a.copy()
            for d, a in zip(self._device_inputs, self.inputs, strict=True)
        ]

    def _verify(self, job: MeasureJob, executable: Any, spent: dict[str, float]) -> str | None:
        """None when every result matches the reference and no input changed, else why not
        (the seconds of the call and of the comparison go to `spent`)."""
        from schedir.reference import nan_filled

        args = [a.copy() for a in self.inputs]
        outputs = [nan_filled(spec) for spec in job.signature.out_params]

        def run() -> list[np.ndarray]:
            return executable.run(args, outputs=outputs)

        start = time.perf_counter()
        try:
            results = self.setup.hook(job.knobs, run) if self.setup.hook is not None else run()
        except Exception as err:
            if poisons_context(err):
                raise  # an illegal address or the like: this worker must be replaced
            return f"the call raised {type(err).__name__}: {err}"
        finally:
            spent["call_s"] = time.perf_counter() - start
        start = time.perf_counter()
        try:
            for index, (before, after) in enumerate(zip(self.inputs, args, strict=True)):
                if not same_bits(before, np.asarray(after)):
                    return f"input {index} was modified by the kernel"
            if self.expected is None:
                # No reference results yet: hold these until a VerifyJob (the candidate
                # is timed meanwhile; it cannot be accepted before it is verified).
                self._held[job.candidate] = (job, list(results))
                return None
            return self._compare(job, results)
        finally:
            spent["check_s"] = time.perf_counter() - start

    def _compare(self, job: MeasureJob, results: list[np.ndarray]) -> str | None:
        """None when every result matches the reference (`self.expected`), else why not."""
        from schedir.reference import Expected, compare
        from schedir.reference.bounds import tiny

        assert self.expected is not None
        if len(results) != len(self.expected):
            return f"{len(results)} result(s), the reference has {len(self.expected)}"
        for index, (spec, got, want) in enumerate(
            zip(job.signature.results, results, self.expected, strict=True)
        ):
            dtype = np.dtype(spec.dtype)
            if index not in self._screens:
                self._screens[index] = Screen.of(*want, tiny(dtype)) if dtype.kind == "f" else None
            screen = self._screens[index]
            if screen is not None and screen.passes(got, dtype):
                continue
            check = compare(got, Expected(*want, np.dtype(spec.dtype)), spec.dtype)
            if not check.ok:
                return f"result {index}: {check.message}"
        return None

    def _time(self, job: MeasureJob, executable: Any) -> list[float]:
        """The times of `job`'s candidate (protocol step 3); a worker's first timing is
        done twice, the first discarded."""
        if not self._warm:
            self._series(replace(job, cutoff_ms=None), executable)
            self._warm = True
        return self._series(job, executable)

    def _series(self, job: MeasureJob, executable: Any) -> list[float]:
        if job.options.target == "cuda":
            from schedir.gpu import time_function

            args = self._device_copies(job)
            bound = executable.bind(args)
            try:
                # One warm-up run: the verification call (or, for a remeasure, the
                # first timing) has just run the kernel with its module loaded.
                first = time_function(bound, warmup=1, repeat=self.setup.min_runs)
                if _cannot_win(first.times_ms, job.cutoff_ms):
                    return list(first.times_ms)
                repeat = max(
                    self.setup.min_runs,
                    min(
                        self.setup.max_runs,
                        int(self.setup.min_time * 1e3 / max(first.median_ms, 1e-3)),
                    ),
                )
                timing = time_function(bound, warmup=1, repeat=repeat)
            finally:
                bound.close()
                for arg in args:
                    if not isinstance(arg, np.ndarray):
                        arg.free()
            return list(timing.times_ms)
        call = executable.bind([a.copy() for a in self.inputs])
        call()  # warm-up: page in code and data
        times: list[float] = []
        begin = time.perf_counter()
        while len(times) < self.setup.max_runs and (
            time.perf_counter() - begin < self.setup.min_time or len(times) < self.setup.min_runs
        ):
            t0 = time.perf_counter()
            call()
            times.append((time.perf_counter() - t0) * 1e3)
            if len(times) == self.setup.min_runs and _cannot_win(times, job.cutoff_ms):
                break
        return times


def _cannot_win(times: Sequence[float], cutoff_ms: float | None) -> bool:
    """Whether the median of the first runs `times` is above `cutoff_ms` (protocol step 3)."""
    return cutoff_ms is not None and statistics.median(times) > cutoff_ms


_MIN_MARGIN = 4 * 5e-324
"""Four of the smallest subnormal doubles: the margin where 2^-50 of the size underflows."""


class Screen:
    """A fast check of a float result that passes only where `schedir.reference.compare`
    passes: each element must lie in [value - tol, value + tol] (compare's tolerance
    SAFETY x bound + tiny), both ends moved a few ulps inwards so that rounding never lets
    through what compare's |actual - value| <= tol rejects. The interval is computed once
    per worker; a result outside it (or NaN) goes to `compare`, which decides and explains.
    On a 4096x4096 result this takes a few milliseconds where `compare` takes seconds."""

    def __init__(self, low: np.ndarray, high: np.ndarray) -> None:
        self.low = low
        self.high = high
        self._narrow: dict[np.dtype, tuple[np.ndarray, np.ndarray]] = {}

    def _bounds(self, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
        """The interval in `dtype` (float32): its ends rounded inwards to the nearest
        float32, so that for every float32 x, low <= x exactly when low32 <= x (and
        likewise above): the same verdicts with no conversion of the result to float64
        and half the bytes read (a 4096x4096 result: 0.11 s -> a few hundredths)."""
        if dtype != np.float32:
            return self.low, self.high
        if dtype not in self._narrow:
            with np.errstate(over="ignore", invalid="ignore"):
                low = self.low.astype(np.float32)
                up = np.nextafter(low, np.float32(np.inf))
                low = np.where(low < self.low, up, low)
                high = self.high.astype(np.float32)
                down = np.nextafter(high, np.float32(-np.inf))
                high = np.where(high > self.high, down, high)
            self._narrow[dtype] = (low, high)
        return self._narrow[dtype]

    @staticmethod
    def of(value: np.ndarray, error: np.ndarray | None, floor: float) -> Screen | None:
        """The screen of a reference result (None: not a float result with bounds);
        `floor` is `tiny` of the result's declared dtype."""
        from schedir.reference.bounds import SAFETY

        if error is None or value.dtype.kind != "f" or value.size == 0:
            return None
        with np.errstate(invalid="ignore", over="ignore"):
            e = np.asarray(value, np.float64)
            tol = SAFETY * np.broadcast_to(np.asarray(error, np.float64), e.shape)
            tol += floor  # compare's tolerance, computed as compare computes it
            # A margin of at least 4 ulps of e +- tol (an ulp of x is at most |x| 2^-52):
            # the rounded ends lie strictly inside [e - tol, e + tol]. (In place: on a
            # large result every fresh array costs its page faults.)
            margin = np.abs(e)
            margin += tol
            margin *= 2.0**-50
            margin += _MIN_MARGIN
            low = e - tol
            low += margin
            high = np.add(e, tol, out=tol)
            high -= margin
        return Screen(low, high)

    def passes(self, actual: Any, dtype: np.dtype) -> bool:
        got = np.asarray(actual)
        if got.dtype != dtype or got.dtype.kind != "f" or got.shape != self.low.shape:
            return False
        low, high = self._bounds(got.dtype)
        flat_got, flat_low, flat_high = (a.reshape(-1) for a in (got, low, high))
        step = 1 << 18  # blocks whose temporaries stay in the cache
        with np.errstate(invalid="ignore"):
            for start in range(0, flat_got.size, step):
                part = flat_got[start : start + step]
                ok = part >= flat_low[start : start + step]
                ok &= part <= flat_high[start : start + step]
                if not ok.all():
                    return False
        return True


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays hold the same bytes (NaN payloads included)."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    flat_a = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    flat_b = np.ascontiguousarray(b).reshape(-1).view(np.uint8)
    # Compared as the widest words the size allows (a large input: 2.5x faster than bytes).
    word = next(
        w for w in (np.uint64, np.uint32, np.uint16, np.uint8) if flat_a.size % w().itemsize == 0
    )
    return bool(np.array_equal(flat_a.view(word), flat_b.view(word)))


_STICKY_CUDA_ERRORS = (
    "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION",
    "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_LAUNCH_FAILED",
    "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_OUT_OF_MEMORY",
    "CUDA_ERROR_LAUNCH_TIMEOUT",
)
"""Errors after which the process's CUDA context is unusable (or memory is exhausted)."""


def poisons_context(err: BaseException) -> bool:
    """Whether `err` leaves the worker's CUDA context unusable: the worker is replaced."""
    text = str(err)
    return isinstance(err, MemoryError) or any(code in text for code in _STICKY_CUDA_ERRORS)


def _build(job: MeasureJob) -> Any:
    if job.options.target == "cuda":
        from schedir.gpu import CudaExecutable

        return CudaExecutable.build(
            job.llvm_ir, job.signature, job.options, job.written, code=job.object_code
        )
    from schedir.cpu import CpuExecutable

    return CpuExecutable.build(job.llvm_ir, job.signature, job.options, code=job.object_code)


def _start_cuda() -> None:
    """Initialize this worker's CUDA context now (best effort: without a device, the
    first candidate's build reports why)."""
    try:
        from schedir.gpu import default_context

        default_context(0).ensure()
    except Exception:  # reported by the first build, with the candidate
        return


def measure_handler(setup: MeasureSetup) -> Measurer:
    """The measurement worker's handler (`schedir.autotune.worker.serve`)."""
    return Measurer(setup)


__all__ = [
    "LOST",
    "NOISE_BAND",
    "PROTOCOL_VERSION",
    "MeasureHook",
    "MeasureJob",
    "MeasureSetup",
    "Measurement",
    "Measurer",
    "Screen",
    "Verdicts",
    "VerifyJob",
    "measure_handler",
    "poisons_context",
    "relative_spread",
    "same_bits",
]
