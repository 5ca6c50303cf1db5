"""What the throughput work relies on: the breakdown of a run (start-up, compile stages,
measurement steps, idle workers, rates), the cubin a cuda candidate hands to the
measurement worker, the timing handshake that keeps CPU compiles out of timings, and the
verification's fast screen (never more lenient than `schedir.reference.compare`)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedir.abi import EntrySignature
from schedir.autotune.breakdown import Breakdown
from schedir.autotune.compile_pool import (
    CompileJob,
    assemble_checked,
    compile_candidate,
    ptx_limits,
)
from schedir.autotune.measure import (
    SLOW_CUTOFF,
    MeasureJob,
    Measurer,
    MeasureSetup,
    Screen,
    same_bits,
)
from schedir.autotune.runner import MEASURE_AHEAD
from schedir.autotune.worker import Worker, wait_any
from schedir.diagnostics import SchedirError
from schedir.options import CompileOptions
from schedir.reference import Expected, compare
from schedir.reference.bounds import SAFETY, tiny
from tests.unit.autotune import faults
from tests.unit.autotune.conftest import SCHEDULE, tune_small

ROOT = Path(__file__).resolve().parents[3]


def _every_tile(folder: Path) -> str:
    """The small schedule with every tile size of the 23x21 result as an option: 483
    points, nearly all distinct kernels."""
    schedule = folder / "tiles.mlir"
    text = SCHEDULE.read_text()
    text = text.replace("options = [4, 8, 16]", f"options = {list(range(1, 24))}")
    schedule.write_text(text.replace("options = [4, 7, 32]", f"options = {list(range(1, 22))}"))
    return str(schedule)


def test_a_time_budget_alone_searches_a_large_space_with_tpe(tmp_path: Path) -> None:
    """`auto` with only a time budget: the 483 valid points exceed the effort's preset
    budget, so TPE searches them (exhaustive would measure the first corner of the
    enumeration: tile_m 1 and 2 for a few minutes' budget)."""
    result = tune_small(schedule=_every_tile(tmp_path), time_budget=2.0, seed=3)
    assert result.strategy == "tpe"


def test_compiling_never_runs_far_ahead_of_measuring(tmp_path: Path) -> None:
    """Measuring slower than compiling (a second per candidate, hundreds of distinct
    kernels): the compile workers take a new candidate only while fewer than
    MEASURE_AHEAD compiled ones wait for the measurement worker, so at most those and the
    compiles under way wait, and a time budget ends the run after them, not after a
    backlog. The progress line counts the candidates without a candidate budget too."""
    workers = 3
    seen: list[tuple[int, int]] = []
    started = time.monotonic()
    result = tune_small(
        schedule=_every_tile(tmp_path),
        time_budget=4.0,
        compile_workers=workers,
        strategy="random",
        seed=7,
        measure_hook=faults.slow_verification,
        progress=lambda stats: seen.append((stats.waiting, stats.done)),
    )
    elapsed = time.monotonic() - started
    assert seen and max(waiting for waiting, _ in seen) <= MEASURE_AHEAD + workers - 1
    assert seen[-1][1] == result.candidates > 1
    # Past the budget: at most those, a second each (and the start-up, the reference).
    assert elapsed < 4.0 + (MEASURE_AHEAD + workers) * 1.0 + 15, elapsed


def test_a_run_reports_where_its_time_went() -> None:
    result = tune_small(budget=4, seed=3)
    b = result.breakdown
    assert b is not None and b.ended is not None
    assert b.candidates == result.candidates == 4
    for step in ("prepare (parse, space, study key)", "inputs"):
        assert b.startup[step] >= 0
    # In memory, the reference results are computed (by their worker, during the loop).
    assert b.reference_s is not None and 0 <= b.reference_s <= b.loop_ended - b.loop_started
    # On the CPU the compile workers also make the object code (the measurement worker,
    # one for all candidates, only loads it).
    assert set(b.compile_stages) >= {
        "payload",
        "scheduled",
        "llvm-dialect",
        "llvm-ir",
        "object code",
    }
    assert len(b.compile_wall) == 4
    for wall, cpu in b.compile_stages["scheduled"]:
        assert wall > 0 and cpu >= 0
    verified = sum(1 for r in result.trials if r.status == "verified")
    assert len(b.measure["time_s"]) == verified + b.remeasures
    assert len(b.measure["build_s"]) >= verified
    # every worker was spawned, and each one's idle time lies within the loop
    assert {"compile-0", "compile-1", "measure-cpu", "reference"} <= set(b.spawn)
    assert b.loop_started is not None and b.loop_ended is not None
    loop = b.loop_ended - b.loop_started
    assert all(0 <= idle <= loop + 0.5 for idle in b.idle.values())
    whole, steady = b.whole_rate(), b.steady_rate()
    assert whole is not None and steady is not None and steady >= whole
    text = b.render()
    for part in (
        "start-up",
        "compile, per candidate",
        "measurement, per candidate",
        "reference results",
        "idle",
    ):
        assert part in text


# (drawing the lists is slow only on a loaded machine, where the health check failed)
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.floats(0, 1e4, allow_nan=False), min_size=2, max_size=50), st.floats(0, 50))
def test_rates_count_candidates_over_their_span(finished: list[float], before: float) -> None:
    b = Breakdown(started=min(finished) - before)
    b.finished = list(finished)
    b.ended = max(finished) + 1.0
    span = max(finished) - min(finished)
    if span > 0:
        assert b.steady_rate() == (len(finished) - 1) / span
    else:
        assert b.steady_rate() is None
    whole = b.whole_rate()
    assert whole is not None and abs(whole - len(finished) / (b.ended - b.started)) < 1e-9


def _gpu_job(size: int) -> CompileJob:
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from tune import _problem  # pyright: ignore[reportMissingImports]  # benchmarks/tune.py

    problem = _problem("gpu", size).loaded.problem
    schedule = problem.render(problem.space.default())
    return CompileJob(
        0, problem.payload, problem.payload_name, schedule, problem.entry, problem.options
    )


def _have_ptxas() -> bool:
    from schedir.gpu import find_ptxas

    try:
        find_ptxas()
    except SchedirError:
        return False
    return True


def test_cuda_candidate_embeds_the_cubin_ptxas_made() -> None:
    result = compile_candidate(_gpu_job(256))
    assert result.status == "ok", result.message
    assert result.llvm_ir is not None
    have = _have_ptxas()
    # The measurement worker loads a cubin (no driver JIT) whenever ptxas could run.
    assert result.cubin == have
    assert ('c"\\7fELF' in result.llvm_ir) == have
    assert ("ptxas" in result.stages) == have
    assert set(result.stages) >= {
        "payload",
        "scheduled",
        "ptx",
        "llvm-dialect",
        "llvm-ir",
        "object code",
    }
    # The host code is compiled here too: the measurement worker only loads it.
    assert result.object_code is not None


def _fake_ptxas(log: str, write: bool) -> Any:
    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        if write:
            Path(command[command.index("-o") + 1]).write_bytes(b"\x7fELF-fake")
        return subprocess.CompletedProcess(command, 0, "", log)

    return run


def test_ptxas_limits_and_cubin() -> None:
    ok = "ptxas info    : Used 40 registers, 0 bytes spill stores, 0 bytes spill loads\n"
    ok += "ptxas info    : Used 40 registers, 4096 bytes smem, 380 bytes cmem[0]"
    spill = "ptxas info    : 0 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads"
    smem = "ptxas info    : Used 40 registers, 65536 bytes smem, 380 bytes cmem[0]"
    if not _have_ptxas():
        assert assemble_checked("", "sm_90", _fake_ptxas(spill, True)) == (None, "")
        return
    assert assemble_checked("", "sm_90", _fake_ptxas(ok, True)) == (b"\x7fELF-fake", "")
    cubin, limit = assemble_checked("", "sm_90", _fake_ptxas(spill, True))
    assert cubin is not None and "spill" in limit and "8 bytes spill stores" in limit
    assert "shared memory" in ptx_limits("", "sm_90", _fake_ptxas(smem, False))
    # ptxas failed: no cubin (the driver will report the PTX's error), no limit
    assert assemble_checked("", "sm_90", _fake_ptxas("", False)) == (None, "")


def test_timing_waits_for_the_go() -> None:
    w = Worker(faults.handshake_handler, None, "handshake", start_timeout=60.0)
    w.start()
    try:
        end = time.monotonic() + 60
        while not w.idle and time.monotonic() < end:
            for ready in wait_any([w], 0.2):
                ready.receive()
        w.submit("job", 60.0)
        message = None
        while message is None and time.monotonic() < end:
            for ready in wait_any([w], 0.2):
                message = ready.receive()
        assert message == ("phase", "timing", True) and w.waiting and w.phase == "timing"
        assert wait_any([w], 0.5) == []  # it does not go on by itself
        go = time.monotonic()
        w.go()
        assert not w.waiting
        done = None
        while done is None and time.monotonic() < end:
            for ready in wait_any([w], 0.2):
                done = ready.receive()
        assert isinstance(done, tuple) and done[0] == "done" and done[1] >= go
        assert w.phase is None and w.idle
    finally:
        w.stop()


_FLOATS = st.sampled_from([np.float32, np.float64, np.float16])


@st.composite
def _results(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.dtype]:
    """(reference value, its error bound, an actual result, the result dtype): results at,
    inside and just outside the tolerance, and NaN/inf, on odd shapes."""
    dtype = np.dtype(draw(_FLOATS))
    shape = draw(st.sampled_from([(1,), (5,), (3, 1), (1, 3, 1)]))
    n = int(np.prod(shape))
    finite = st.floats(-1e3, 1e3, allow_nan=False, width=16)
    value = np.array(draw(st.lists(finite, min_size=n, max_size=n)), np.float64).reshape(shape)
    error = np.array(
        draw(st.lists(st.floats(0, 1.0, width=16), min_size=n, max_size=n)), np.float64
    ).reshape(shape)
    tol = SAFETY * error + tiny(dtype)
    kinds = st.tuples(
        st.sampled_from(["exact", "inside", "edge-in", "edge-out", "out", "nan", "inf"]),
        st.sampled_from([-1.0, 1.0]),
    )
    actual = np.empty(shape, np.float64)
    for i, (kind, sign) in enumerate(draw(st.lists(kinds, min_size=n, max_size=n))):
        v, t = value.flat[i], tol.flat[i]
        actual.flat[i] = {
            "exact": v,
            "inside": v + sign * t / 2,
            "edge-in": v + sign * t,
            "edge-out": np.nextafter(v + sign * t, sign * np.inf),
            "out": v + sign * 3 * t,
            "nan": np.nan,
            "inf": sign * np.inf,
        }[kind]
    with np.errstate(over="ignore"):
        return value, error, actual.astype(dtype), dtype


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_results())
def test_screen_passes_only_what_compare_passes(case: Any) -> None:
    value, error, actual, dtype = case
    screen = Screen.of(value, error, tiny(dtype))
    assert screen is not None
    if screen.passes(actual, dtype):
        assert compare(actual, Expected(value, error, dtype), dtype).ok


@given(st.sampled_from([np.float32, np.float64]), st.integers(1, 40), st.integers(0, 2**31))
def test_screen_passes_a_correctly_rounded_result(dtype: Any, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    value = rng.uniform(-10, 10, (n, 3))
    error = np.abs(value) * np.finfo(dtype).eps * 4
    screen = Screen.of(value, error, tiny(dtype))
    assert screen is not None and screen.passes(value.astype(dtype), np.dtype(dtype))
    assert not screen.passes(value.astype(np.float16), np.dtype(dtype))  # wrong dtype


@given(
    st.lists(st.floats(allow_nan=True, width=32), min_size=0, max_size=12),
    st.integers(0, 11),
    st.sampled_from([np.float32, np.int32]),
)
def test_same_bits_is_byte_equality(values: list[float], flip: int, dtype: Any) -> None:
    a = np.array(values, np.float32).view(np.int32).astype(dtype, copy=False)
    b = a.copy()
    assert same_bits(a, b)
    if a.size:
        b.view(np.uint8)[flip % b.nbytes] ^= 1
        assert not same_bits(a, b)
    assert not same_bits(a, a.astype(np.float64))


def test_the_loop_reads_each_finished_trial_once(journal: str, monkeypatch: Any) -> None:
    """The loop reads the study once per turn, and a finished trial's record once: a
    pass over every trial per idle worker and turn made the main loop the bottleneck of
    a run on many cores (O(trials) per check, thousands of trials with invalid points)."""
    from schedir.autotune import runner

    first = tune_small(budget=4, storage=journal, strategy="random", seed=5)
    reads: list[int] = []
    record_of = runner.record_of

    def counting(trial: Any) -> Any:
        reads.append(trial.number)
        return record_of(trial)

    monkeypatch.setattr(runner, "record_of", counting)
    second = tune_small(budget=8, storage=journal, strategy="random", seed=6)
    trials = len(second.trials)
    assert trials > len(first.trials)
    # each trial once when it is seen finished, once more when this process tells it
    assert len(reads) <= 2 * trials, (len(reads), trials)


@given(_results())
def test_screen_in_float32_agrees_with_its_float64_interval(case: Any) -> None:
    """For float32 results the screen compares in float32 against its interval rounded
    inwards: for every float32 x that gives the verdict of the float64 interval."""
    value, error, actual, dtype = case
    screen = Screen.of(value, error, tiny(dtype))
    assert screen is not None
    got = np.asarray(actual)
    with np.errstate(invalid="ignore"):
        wide = bool(np.all((got >= screen.low) & (got <= screen.high)))
    assert screen.passes(actual, dtype) == wide


_NO_SIGNATURE = EntrySignature("never_built", (), ())
"""The signature of the jobs `_time` gets in these tests (nothing is built)."""


class _Sleeper:
    """An executable whose every call takes `seconds`, its first `slow` calls `slow_s`."""

    def __init__(self, seconds: float, slow: int = 0, slow_s: float = 0.0) -> None:
        self.seconds = seconds
        self.slow = slow
        self.slow_s = slow_s
        self.calls = 0

    def bind(self, args: list[np.ndarray]) -> Any:
        def call() -> None:
            self.calls += 1
            time.sleep(self.slow_s if self.calls <= self.slow else self.seconds)

        return call


@pytest.mark.parametrize(
    ("cutoff_ms", "cut"), [(None, False), (0.5, True), (2.0, True), (1000.0, False)]
)
def test_a_candidate_that_cannot_win_is_timed_briefly(
    tmp_path: Path, cutoff_ms: float | None, cut: bool
) -> None:
    data = tmp_path / "data.npz"
    np.savez(data, in_0=np.arange(3.0))
    setup = MeasureSetup("cpu", None, data, tmp_path / "absent.npz", 1, min_time=0.15)
    job = MeasureJob(
        0,
        {},
        "",
        _NO_SIGNATURE,
        (),
        CompileOptions(target="cpu"),
        cutoff_ms=cutoff_ms,
    )
    times = Measurer(setup)._time(job, _Sleeper(0.004))  # pyright: ignore[reportPrivateUsage]
    if cut:
        assert len(times) == setup.min_runs
    else:
        assert len(times) > setup.min_runs and sum(times) >= 0.15e3 * 0.9


def test_candidates_timed_briefly_were_slower_than_the_best_by_the_cutoff(journal: str) -> None:
    result = tune_small(budget=9, strategy="exhaustive", storage=journal, seed=3)
    verified = [r for r in result.trials if r.status == "verified" and r.duplicate_of is None]
    assert verified
    for r in verified:
        if len(r.times_ms) < 5 + 1:
            # Cut after its first runs: the best then was at least the final best.
            assert r.median_ms > result.best_ms * SLOW_CUTOFF, (r.point, r.times_ms)


def test_a_workers_first_timing_is_discarded(tmp_path: Path) -> None:
    # A fresh process (or machine) runs slow at first: its first series does not count.
    data = tmp_path / "data.npz"
    np.savez(data, in_0=np.arange(3.0))
    setup = MeasureSetup("cpu", None, data, tmp_path / "absent.npz", 1, min_time=0.05)
    job = MeasureJob(0, {}, "", _NO_SIGNATURE, (), CompileOptions(target="cpu"))
    measurer = Measurer(setup)
    first = _Sleeper(0.002, slow=5, slow_s=0.02)
    times = measurer._time(job, first)  # pyright: ignore[reportPrivateUsage]
    assert first.calls > 5 + len(times)
    assert max(times) < 0.015e3, times
    second = _Sleeper(0.002, slow=5, slow_s=0.02)
    times = measurer._time(job, second)  # pyright: ignore[reportPrivateUsage]
    # Timed once: its warm-up call, then the 4 other slow calls among its times.
    assert second.calls == 1 + len(times) and sorted(times)[-4] >= 0.015e3, times
