"""The autotuner: searches the knobs of a schedule on the real hardware.

    result = schedir.tune("examples/matmul_cpu.mlir", schedule="schedules/matmul_cpu.mlir",
                          budget=16, storage="~/.cache/schedir/tune.journal")
    result.knobs, result.best_ms, result.default_ms, result.schedule_text

The pieces, one module each: `space` (knobs and static constraints from the schedule IR),
`strategies` (Optuna samplers, ask-and-tell), `compile_pool` (candidates compiled in
worker processes with a timeout), `measure` (verification and timing in a worker per
device; the measurement protocol), `worker` (isolated child processes with a watchdog),
`store` (study keys and Optuna storage), `runner` (the loop), `breakdown` (where a run's
time goes: `TuneResult.breakdown`), `problem` (payload and schedule to a problem), `peer`
(numpy / cuBLAS times), `report` (display, table, files).
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schedir.autotune.breakdown import Breakdown
from schedir.autotune.interrupts import interrupt_safe
from schedir.autotune.names import STRATEGIES
from schedir.diagnostics import InputError, SourceManager
from schedir.options import CompileOptions, Target

if TYPE_CHECKING:
    # Imported where used: importing this package (for `worker.start_zygote`, the first
    # thing a run does) must not cost the seconds of xDSL, Optuna and numpy.
    from schedir.autotune.measure import MeasureHook
    from schedir.autotune.peer import PeerTime
    from schedir.autotune.runner import Progress
    from schedir.autotune.space import Point, Space
    from schedir.autotune.store import Record

EFFORTS: Mapping[str, tuple[int, float]] = {"quick": (32, 0.05), "full": (128, 0.25)}
"""Effort presets: (budget when none is given, seconds of timing per candidate)."""


class TuneError(InputError):
    """No verified candidate: the run ended without a winner."""


@dataclass(frozen=True)
class TuneResult:
    """The outcome of a tuning run.

    `knobs` the winner's selections, `best_ms` its median time, `default_ms` that of the
    schedule as written (None if not measured or failed: `schedir.autotune.report.
    default_reason` says why), `trials` every candidate's
    record, `schedule_text` the schedule with the winner selected (the whole payload when
    the schedule is embedded), `kernel` the winner compiled (on first use).
    """

    knobs: Point
    best_ms: float
    default_ms: float | None
    trials: list[Record]
    schedule_text: str
    space: Space
    strategy: str
    study_name: str
    peer: PeerTime | None = None
    from_store: bool = False
    breakdown: Breakdown | None = field(default=None, repr=False, compare=False)
    """Where the run's time went (`schedir.autotune.breakdown`)."""
    _build: Callable[[str], Any] | None = field(default=None, repr=False, compare=False)
    _kernel: list[Any] = field(default_factory=list, repr=False, compare=False)

    @property
    def candidates(self) -> int:
        from schedir.autotune.runner import counted

        return counted(self.trials)

    @property
    def kernel(self) -> Any:
        """The winner, compiled (once) by the builder the caller gave."""
        if not self._kernel:
            if self._build is None:
                raise InputError("this TuneResult has no compiler to build its kernel")
            self._kernel.append(self._build(self.schedule_text))
        return self._kernel[0]


@interrupt_safe
def tune(
    payload: str | os.PathLike[str],
    schedule: str | os.PathLike[str] | None = None,
    target: str = "cpu",
    entry: str | None = None,
    *,
    budget: int | None = None,
    time_budget: float | None = None,
    effort: str = "quick",
    strategy: str = "auto",
    seed: int = 0,
    storage: str | os.PathLike[str] | None = None,
    study: str | None = None,
    compile_workers: int | None = None,
    devices: tuple[int, ...] | None = None,
    options: CompileOptions | None = None,
    measure_hook: MeasureHook | None = None,
    first_timeout: float = 30.0,
    compile_timeout: float = 120.0,
    peer: bool = True,
    progress: Progress | None = None,
    build_kernel: Callable[[str], Any] | None = None,
    sources: SourceManager | None = None,
) -> TuneResult:
    """Search the knobs of `schedule` (or of the payload's embedded one) for `target`.

    `budget` candidates (or `effort`'s preset), stopping early after `time_budget`
    seconds; `strategy` auto|exhaustive|random|tpe|cmaes, seeded by `seed`; `storage` an
    Optuna storage URL or journal path (None: in memory), shared by every process tuning
    the same problem; `compile_workers` (default: the core count) and `devices` (cuda:
    one measurement worker per device). `measure_hook` stands in for every verification
    call (fault injection). Raises `TuneError` when no candidate verifies.
    """
    from schedir.autotune.compile_pool import warm_imports
    from schedir.autotune.worker import start_zygote

    # The arguments first: a call refused starts no process.
    if effort not in EFFORTS:
        raise InputError(f"unknown effort '{effort}' (one of {', '.join(EFFORTS)})")
    if strategy not in STRATEGIES:
        raise InputError(f"unknown strategy '{strategy}' (one of {', '.join(STRATEGIES)})")
    if budget is not None and budget < 1:
        raise InputError(f"the budget must be at least 1 candidate, got {budget}")
    # The workers' zygote imports what they need while this process imports and
    # prepares the problem: the first thing, before the imports below.
    start_zygote(warm_imports)
    from schedir.autotune import problem as problems
    from schedir.autotune import store as stores
    from schedir.autotune import strategies
    from schedir.autotune.measure import MeasureSetup
    from schedir.autotune.peer import PeerTime, peer_time
    from schedir.autotune.runner import (
        HeadStart,
        Loop,
        Settings,
        default_record,
        head_start,
        start_compilers,
        winner,
    )
    from schedir.autotune.space import key
    from schedir.autotune.worker import Worker

    preset_budget, min_time = EFFORTS[effort]
    if budget is None and time_budget is None:
        budget = preset_budget
    options = options or CompileOptions(target=_target(target))
    if options.target != target:
        raise InputError(f"target '{target}' disagrees with options.target '{options.target}'")
    sources = sources or SourceManager()
    breakdown = Breakdown()
    lap = _Lap(breakdown)
    prepared = prepare(payload, schedule, entry, options, devices, study, sources)
    lap("prepare (parse, space, study key)")
    loaded, parts, name, device_list = (
        prepared.loaded,
        prepared.key_parts,
        prepared.study_name,
        prepared.devices,
    )
    space = loaded.problem.space
    # The sampler is set once the strategy is resolved (below).
    the_study = stores.open_study(stores.open_storage(storage), name, None)
    if not the_study.user_attrs.get("key"):
        the_study.set_user_attr("key", parts)
    stores.recover_interrupted(the_study)
    lap("open the study")
    # At least two candidates per device compile ahead of measurement.
    workers = compile_workers or max(os.cpu_count() or 1, 2 * len(device_list))
    compilers: list[Worker] = []
    head: HeadStart | None = None
    if not the_study.get_trials(deepcopy=False):
        # A fresh study (nothing to answer from the store): the schedule as written, the
        # first candidate, compiles while the valid points are enumerated and the inputs
        # written.
        compilers = start_compilers(workers, options.target, compile_timeout)
        head = head_start(compilers[0], loaded.problem, compile_timeout)
        lap("spawn the compile workers" + (", head start" if head else " (zygote)"))
    valid = space.valid_points()
    # With only a time budget, `auto` is exhaustive when the valid points fit the effort's
    # preset budget: a large space enumerated in order for a few minutes would measure only
    # its first corner.
    resolved = strategies.resolve(
        strategy,
        len(valid) if valid is not None else None,
        budget if budget is not None else preset_budget,
    )
    the_study.sampler = strategies.sampler(resolved, seed, budget, space)
    lap("valid points, strategy")

    def finished() -> bool:
        found = stores.records(the_study)
        done = sum(1 for r in found if r.status in stores.FINAL and r.duplicate_of is None)
        if budget is not None and done >= budget:
            return True
        return valid is not None and {key(p) for p in valid} <= {r.point for r in found}

    from_store = finished() and time_budget is None
    if from_store:
        for w in compilers:  # (an empty valid space)
            w.stop()
    with tempfile.TemporaryDirectory(prefix="schedir-tune-") as folder:
        if not from_store:
            if not compilers:
                compilers = start_compilers(workers, options.target, compile_timeout)
                lap("spawn the compile workers (zygote)")
            try:
                data, reduction = problems.write_inputs(loaded, Path(folder), seed)
                cached = problems.reference_cache(storage, name, seed)
                reference = cached or Path(folder) / "reference.npz"
                job = problems.ReferenceJob(loaded.canonical_payload, loaded.entry, data, reference)
                lap("inputs")
                settings = Settings(
                    budget,
                    time_budget,
                    strategy,
                    seed,
                    workers,
                    device_list,
                    compile_timeout=compile_timeout,
                    first_timeout=first_timeout,
                    min_time=min_time,
                )
                setup = MeasureSetup(
                    target, device_list[0], data, reference, reduction, min_time, hook=measure_hook
                )
                Loop(
                    loaded.problem,
                    settings,
                    the_study,
                    setup,
                    progress,
                    compilers,
                    breakdown,
                    reference=(problems.reference_handler, job),
                    head_start=head,
                ).run()
                lap.mark()
            finally:
                for w in compilers:
                    w.stop()
            if peer and "peer" not in the_study.user_attrs:
                found_peer = peer_time(loaded.payload, target, data, None, device_list[0])
                the_study.set_user_attr(
                    "peer", [found_peer.name, found_peer.ms] if found_peer is not None else None
                )
                lap("peer timing")
    found = stores.records(the_study)
    breakdown.ended = time.monotonic()
    best = winner(found)
    if best is None:
        raise TuneError(_no_winner(found))
    default = space.default()
    default_rec = default_record(found, key(default) if default is not None else None)
    stored_peer = the_study.user_attrs.get("peer")
    assert best.median_ms is not None
    from schedir.autotune.space import from_key

    point = from_key(best.point)
    return TuneResult(
        point,
        best.median_ms,
        default_rec.median_ms
        if default_rec is not None
        and default_rec.status == "verified"
        and default_rec.median_ms is not None
        and math.isfinite(default_rec.median_ms)
        else None,
        found,
        loaded.problem.render(point),
        space,
        resolved,
        name,
        PeerTime(stored_peer[0], float(stored_peer[1])) if stored_peer else None,
        from_store,
        breakdown,
        build_kernel,
    )


class _Lap:
    """Records the seconds since the previous lap as a start-up step of a breakdown."""

    def __init__(self, breakdown: Breakdown) -> None:
        self.breakdown = breakdown
        self.mark()

    def mark(self) -> None:
        self.last = time.monotonic()

    def __call__(self, name: str) -> None:
        now = time.monotonic()
        self.breakdown.step(name, now - self.last)
        self.last = now


@dataclass(frozen=True)
class Prepared:
    """A loaded problem, its study key's parts and name, and the measurement devices."""

    loaded: Any
    key_parts: dict[str, str]
    study_name: str
    devices: tuple[int | None, ...]


def prepare(
    payload: str | os.PathLike[str],
    schedule: str | os.PathLike[str] | None,
    entry: str | None,
    options: CompileOptions,
    devices: tuple[int, ...] | None = None,
    study: str | None = None,
    sources: SourceManager | None = None,
) -> Prepared:
    """Parse payload and schedule and compute the study key (nothing is compiled)."""
    from schedir.autotune import problem as problems
    from schedir.autotune import store as stores
    from schedir.autotune.measure import PROTOCOL_VERSION
    from schedir.pipeline import load_source

    sources = sources or SourceManager()
    payload_text, payload_name = load_source(payload)
    sources.add(payload_name, payload_text)
    schedule_source = None
    if schedule is not None:
        schedule_source = load_source(schedule, "schedule")
        sources.add(schedule_source[1], schedule_source[0])
    loaded = problems.load(payload_text, payload_name, schedule_source, entry, options, sources)
    target = options.target
    device_list: tuple[int | None, ...] = (
        (tuple(devices) if devices else (0,)) if target == "cuda" else (None,)
    )
    device, tools = problems.device_description(options, device_list[0])
    parts = stores.key_parts(
        payload=loaded.canonical_payload,
        schedule=loaded.canonical_schedule,
        target=target,
        entry=loaded.entry,
        device=device,
        options=problems.options_text(options),
        tools=tools,
        protocol=PROTOCOL_VERSION,
    )
    return Prepared(loaded, parts, stores.study_name(parts, study), device_list)


def _no_winner(found: list[Record]) -> str:
    counts: dict[str, int] = {}
    for r in found:
        if r.duplicate_of is None and r.status in (
            "verified",
            "wrong-result",
            "pruned",
            "crashed",
            "timed-out",
            "compile-error",
            "compile-timeout",
            "compile-crashed",
            "error",
        ):
            counts[r.status] = counts.get(r.status, 0) + 1
    summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no candidate ran"
    return f"no candidate was verified ({summary})"


def _target(name: str) -> Target:
    return name  # pyright: ignore[reportReturnType]  # CompileOptions rejects an unknown target with the list


__all__ = ["EFFORTS", "Prepared", "TuneError", "TuneResult", "prepare", "tune"]
