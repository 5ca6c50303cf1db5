"""Where a tuning run's time goes: the throughput breakdown.

The loop (`schedir.autotune.runner.Loop`) and `schedir.tune` fill one `Breakdown` per
run; `TuneResult.breakdown` holds it and `benchmarks/tune.py throughput` prints it
(`Breakdown.render`). It has three parts:

- start-up, paid once per run: preparing the problem (parsing payload and schedule, the
  study key), opening the study, writing the inputs, and how long the compile and
  measurement workers took from spawn to ready (forked from the warmed-up zygote: the
  first waits for its imports; the measurement worker's includes its CUDA context);
- the reference results: computed by their own worker while the loop runs (nothing waits
  for them but the verdicts of the candidates timed before they exist), or loaded from
  the study's cache;
- per candidate: the compile worker's wall and CPU seconds by stage (`ptxas` apart), and
  the measurement worker's build (it loads the object code the compile worker made), verification call (on cuda the module
  load, the copies and one run), comparison with the reference, and timing;
- idleness: seconds each measurement worker sat ready without a candidate (waiting for
  compiles) and each compile worker sat ready without a job (everything asked for was in
  flight or the budget was spent), while the loop ran.

Rates: the whole-run rate counts every candidate over the whole call (start-up
included); the steady-state rate counts the candidates finished after the first one over
the time between the first finish and the last.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass
class Breakdown:
    """Timings of one tuning run (see the module doc)."""

    started: float = field(default_factory=time.monotonic)
    ended: float | None = None
    startup: dict[str, float] = field(default_factory=dict)
    """Named start-up steps, seconds each (in the order they ran)."""
    spawn: dict[str, float] = field(default_factory=dict)
    """Worker label -> seconds from its spawn to its ready message (the first start)."""
    compile_stages: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    """Stage -> (wall, CPU) seconds of each candidate that reached it."""
    compile_wall: list[float] = field(default_factory=list)
    ptxas: list[float] = field(default_factory=list)
    cubins: int = 0
    """Candidates whose kernels reached the measurement worker as cubins."""
    measure: dict[str, list[float]] = field(default_factory=dict)
    """Measurement step (build, call, check, time) -> seconds of each candidate."""
    remeasures: int = 0
    idle: dict[str, float] = field(default_factory=dict)
    """Worker label -> seconds it sat ready without a job while the loop ran."""
    finished: list[float] = field(default_factory=list)
    """Monotonic time at which each counted candidate finished."""
    loop_started: float | None = None
    loop_ended: float | None = None
    reference_s: float | None = None
    """Seconds from the loop's start until the reference results were written by their
    worker (overlapping compilation and measurement); None: loaded from the cache."""
    verify_waits: list[float] = field(default_factory=list)
    """Seconds each candidate timed before the reference existed waited for it."""
    head_start: bool = False
    """The first candidate (the schedule as written) compiled from the start, while the
    valid points were enumerated and the inputs written (`runner.HeadStart`)."""

    # -- recording

    def step(self, name: str, seconds: float) -> None:
        self.startup[name] = self.startup.get(name, 0.0) + seconds

    def add_compile(
        self, stages: dict[str, tuple[float, float]], wall: float, ptxas_s: float
    ) -> None:
        for name, times in stages.items():
            self.compile_stages.setdefault(name, []).append(times)
        self.compile_wall.append(wall)
        if ptxas_s:
            self.ptxas.append(ptxas_s)

    def add_measure(self, **seconds: float) -> None:
        for name, value in seconds.items():
            if value:
                self.measure.setdefault(name, []).append(value)

    def add_idle(self, label: str, seconds: float) -> None:
        self.idle[label] = self.idle.get(label, 0.0) + seconds

    # -- results

    @property
    def candidates(self) -> int:
        return len(self.finished)

    def whole_rate(self) -> float | None:
        """Candidates per second over the whole run, start-up included."""
        end = self.ended if self.ended is not None else time.monotonic()
        elapsed = end - self.started
        return len(self.finished) / elapsed if elapsed > 0 and self.finished else None

    def steady_rate(self) -> float | None:
        """Candidates per second between the first finished candidate and the last."""
        if len(self.finished) < 2:
            return None
        span = max(self.finished) - min(self.finished)
        return (len(self.finished) - 1) / span if span > 0 else None

    def first_result_s(self) -> float | None:
        """Seconds from the call to the first finished candidate."""
        return min(self.finished) - self.started if self.finished else None

    def render(self) -> str:
        """The breakdown as a text table."""
        lines: list[str] = []
        end = self.ended if self.ended is not None else time.monotonic()
        lines.append(f"whole run {end - self.started:.2f} s, {self.candidates} candidates")
        lines.append(
            f"  rate: whole run {_rate(self.whole_rate())}, steady state "
            f"{_rate(self.steady_rate())}, first result after {_s(self.first_result_s())}"
        )
        lines.append("start-up (once per run):")
        for name, seconds in self.startup.items():
            lines.append(f"  {name:40} {seconds:8.2f} s")
        if self.spawn:
            spawns = sorted(self.spawn.values())
            lines.append(
                f"  {'worker spawn to ready':40} {_spread(spawns)} ({len(spawns)} workers)"
            )
        if self.head_start:
            lines.append(
                "  the first candidate compiled from the spawn of its worker on (head start)"
            )
        lines.append("compile, per candidate (wall / CPU of the worker process):")
        lines.append(f"  {'total wall':40} {_spread(self.compile_wall)}")
        for name, values in self.compile_stages.items():
            walls = [w for w, _ in values]
            cpus = [c for _, c in values]
            lines.append(f"  {name:40} {_spread(walls)}   CPU {statistics.fmean(cpus):6.3f} s mean")
        if self.ptxas:
            lines.append(f"  {'ptxas -v (cubin)':40} {_spread(self.ptxas)}")
        lines.append(
            f"  kernels handed over as cubin: {self.cubins} of {len(self.compile_wall)} compiled"
        )
        lines.append("measurement, per candidate (in the measurement worker):")
        names = {
            "build_s": "build (load the object code)",
            "call_s": "verification call (load, copies, run)",
            "check_s": "comparison with the reference",
            "time_s": "timing",
            "wall_s": "whole measurement (runner's view)",
        }
        for name, label in names.items():
            if name in self.measure:
                lines.append(f"  {label:40} {_spread(self.measure[name])}")
        lines.append(f"  new bests timed again: {self.remeasures}")
        if self.reference_s is None:
            lines.append("reference results: loaded from the study's cache")
        else:
            lines.append(
                f"reference results: written {self.reference_s:.2f} s after the loop started "
                f"(in their own worker); {len(self.verify_waits)} candidates timed before, "
                f"waiting for them {_spread(self.verify_waits)}"
            )
        if self.loop_started is not None:
            loop_end = self.loop_ended if self.loop_ended is not None else end
            loop = loop_end - self.loop_started
            lines.append(f"idle while the loop ran ({loop:.2f} s):")
            for kind in ("measure", "compile"):
                idle = {k: v for k, v in self.idle.items() if k.startswith(kind)}
                if idle:
                    total = sum(idle.values())
                    share = total / (loop * len(idle)) if loop > 0 else 0.0
                    lines.append(
                        f"  {kind + ' workers':40} {total:8.2f} s in all, "
                        f"{100 * share:5.1f}% of their time ({len(idle)} workers)"
                    )
        return "\n".join(lines)


def _rate(value: float | None) -> str:
    return f"{value:.2f}/s" if value is not None else "n/a"


def _s(value: float | None) -> str:
    return f"{value:.2f} s" if value is not None else "n/a"


def _spread(values: Iterable[float]) -> str:
    """Mean, median and max of `values` in seconds."""
    found = list(values)
    if not found:
        return "      n/a"
    return (
        f"{statistics.fmean(found):8.3f} s mean, {statistics.median(found):.3f} median, "
        f"{max(found):.3f} max (n={len(found)})"
    )


__all__ = ["Breakdown"]
