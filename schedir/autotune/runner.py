"""The tuning loop: ask the strategy for candidates, compile them in the pool, verify and
time them in the measurement workers, tell the store, until the budget is spent.

One process runs one loop; several processes (or hosts) running the same problem against
one storage share the study: each counts every finished candidate of the study against
the budget, skips points already finished or in flight, and stops when the study is done.

Budget. A candidate counts once it is compiled (whatever became of it: verified, pruned,
failed, crashed); statically invalid points and repeats of finished ones cost nothing and
do not count. `time_budget` stops asking for new candidates after that many seconds.

On the CPU target the compile workers are paused (SIGSTOP) while a candidate is timed, so
that compilation never disturbs a measurement; their deadlines move by the paused time.
They keep compiling while a candidate is built and verified: the measurement worker
announces its timing phase and waits until the loop has paused them.

Pipelining: an idle compile worker takes a new candidate while fewer than
`MEASURE_AHEAD` compiled candidates per device wait for a measurement worker, so up to
`compile_workers` candidates compile ahead of measurement and the queue stays short. When
compiling outruns measuring (many compile workers, slow timings), the workers wait instead
of filling an unbounded queue: the strategy is asked again only when its last answers are
nearly measured (TPE learns from them), a time budget ends the run within a few
measurements of its end instead of after the whole queue, and the host stays quieter
while the GPU is timed.

Reference results. The loop does not wait for them: a worker of their own computes them
(paused with the compile workers on the CPU target) while the first candidates compile and
are timed. Until they are written, a measurement worker checks a candidate's inputs, keeps
its results and times it; the candidate stays in flight (neither told to the study nor
able to win) until the worker compares the kept results (`VerifyJob`). A measurement worker
restarted meanwhile lost what it kept: those candidates are measured again.

Code identity. A compiled candidate carries the digest of its LLVM IR
(`compile_pool.code_identity`). Knob points that compile to the same code (a cache block
past the problem's size, a knob the schedule ignores at this shape) are one kernel: only
the first is measured; each other one is told as a `duplicate` of it with its time (or its
failure), costs no measurement and does not count against the budget (like a repeated
point). A candidate whose code is being measured waits for that measurement. Records keep
their code, so a resumed run or another process sharing the study answers its twins too.

Every run fills a `schedir.autotune.breakdown.Breakdown` (where the time went).
"""

from __future__ import annotations

import itertools
import time
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schedir.autotune import strategies
from schedir.autotune.breakdown import Breakdown
from schedir.autotune.compile_pool import CompileJob, CompileResult, compile_handler
from schedir.autotune.measure import (
    LOST,
    NOISE_BAND,
    SLOW_CUTOFF,
    MeasureJob,
    Measurement,
    MeasureSetup,
    Verdicts,
    VerifyJob,
    measure_handler,
    relative_spread,
)
from schedir.autotune.space import Point, Space, key
from schedir.autotune.store import (
    FINAL,
    HEARTBEAT_S,
    MESSAGE_LIMIT,
    Record,
    heartbeat,
    owner,
    record_of,
    records,
)
from schedir.autotune.worker import Died, HandlerFactory, Worker, wait_any
from schedir.diagnostics import InputError
from schedir.options import CompileOptions

if TYPE_CHECKING:
    import optuna


MEASURE_AHEAD = 2
"""Compiled candidates per measurement worker that may wait for it before the compile
workers take new ones (see the module doc's pipelining)."""

_CLAIM_WAIT_S = 2.0
"""How long `Runner._claimed_elsewhere` waits for an earlier trial to say its point."""


@dataclass(frozen=True)
class Problem:
    """What is tuned: payload and schedule texts, the space, target and entry."""

    payload: str
    payload_name: str
    space: Space
    render: Callable[[Point], str]
    """The schedule text (library, or the whole payload when embedded) for a point."""
    embedded: bool
    entry: str | None
    options: CompileOptions


@dataclass(frozen=True)
class Settings:
    """How the loop runs (see `schedir.tune` for the meaning of each)."""

    budget: int | None
    time_budget: float | None
    strategy: str
    seed: int
    compile_workers: int
    devices: tuple[int | None, ...]
    compile_timeout: float = 120.0
    first_timeout: float = 30.0
    """Per-call watchdog before any time is known (then max(1 s, 20x the best))."""
    min_time: float = 0.1
    max_duplicates: int = 64


@dataclass
class Stats:
    """Counts and times the progress display shows."""

    budget: int | None
    done: int = 0
    best_ms: float | None = None
    counts: dict[str, int] = field(default_factory=dict)
    compile_s: float = 0.0
    measure_s: float = 0.0
    waiting: int = 0
    """Compiled candidates waiting for a measurement worker."""
    started: float = field(default_factory=time.monotonic)


Progress = Callable[[Stats], None]


@dataclass
class _Candidate:
    trial: Any
    point: Point
    key: str
    default: bool
    compile_s: float = 0.0
    compiled: CompileResult | None = None
    first: Measurement | None = None
    measure_started: float = 0.0
    holder: Worker | None = None
    """The measurement worker holding its results until the reference exists."""
    held_times: tuple[float, ...] = ()
    """Its times, while it waits for its verdict."""
    held_since: float = 0.0
    build_s: float = 0.0
    code: str = ""
    """Its code identity once compiled (`CompileResult.code`)."""


class Loop:
    """One tuning loop over a study (see the module doc)."""

    def __init__(
        self,
        problem: Problem,
        settings: Settings,
        study: optuna.Study,
        measure: MeasureSetup,
        progress: Progress | None = None,
        compilers: list[Worker] | None = None,
        breakdown: Breakdown | None = None,
        reference: tuple[HandlerFactory, Any] | None = None,
        head_start: HeadStart | None = None,
    ) -> None:
        self.problem = problem
        self.head_start = head_start
        """The default point's compile, sent before the loop (`head_start`)."""
        self._unsent: deque[int] = deque()
        """Candidates in flight whose compile is not sent yet (`_take_head_start`)."""
        self.reference = reference
        """The reference worker's handler factory and job, which writes the reference
        results to `measure.reference` (None: they are there)."""
        self.reference_ready = reference is None or measure.reference.is_file()
        self.to_verify: list[Worker] = []
        """Measurement workers to send a `VerifyJob` (the reference results exist now)."""
        self.breakdown = breakdown if breakdown is not None else Breakdown()
        self.compilers = compilers
        """Compile workers started (and warming up) before the loop (`start_compilers`)."""
        self.settings = settings
        self.study = study
        self.measure_setup = measure
        self.progress = progress
        self.space = problem.space
        self.dists = strategies.distributions(self.space)
        valid = self.space.valid_points()
        self.valid = valid
        self.valid_keys = [key(p) for p in valid] if valid is not None else None
        """The valid points' keys, in order (computed once: a space has thousands)."""
        self._next_valid = 0
        """Where the exhaustive order resumes looking for an untaken point."""
        self.strategy = strategies.resolve(
            settings.strategy, len(valid) if valid is not None else None, settings.budget
        )
        self.stats = Stats(settings.budget)
        self.in_flight: dict[int, _Candidate] = {}
        self.to_measure: deque[_Candidate] = deque()
        self.finished: dict[str, Record] = {}
        self.exhausted = False
        self.duplicates = 0
        self.owner = owner()
        self._next_id = 0
        self._pending_default = self.space.default()
        self._last_beat = 0.0
        self.elsewhere: set[str] = set()
        """Points other processes are running now."""
        self.by_code: dict[str, Record] = {}
        """The measured record of each code identity (see the module doc)."""
        self.code_first: dict[str, _Candidate] = {}
        """The candidate in flight that is measured for its code."""
        self.code_waiters: dict[str, list[_Candidate]] = {}
        """Compiled candidates waiting for the measurement of their code's first."""
        self.twins = 0
        """Candidates answered by their code's record (not measured)."""
        self._twins_in_a_row = 0
        self._counted = 0
        """Finished, counted candidates of the study seen by `_refresh`."""
        self._running_elsewhere = 0
        self._best_seen: float | None = None
        self._settled = 0
        """Trials before this index are finished and read (see `_refresh`)."""
        self._seen_finished: set[int] = set()
        """Finished trials read at or after `_settled` (behind an unfinished one)."""
        self.refreshes = 0
        """Reads of the study (`_refresh`), for the tests."""
        self._unclaimed: set[int] = set()
        """Running trials of others that never said their point (`_claimed_elsewhere`)."""

    # -- the study

    def _refresh(self) -> tuple[int, int]:
        """Reload the study's records; (counted finished, running elsewhere).

        Incremental: a finished trial (or one with its final status) never changes, so each is read once (its record
        taken into `finished`, `by_code`, the count and the best time); only the trials
        from the first unfinished one on are looked at again. The loop calls this once
        per turn, so a study of thousands of trials (invalid points are trials too) costs
        a constant per turn, not a pass over all of them per idle worker."""
        from optuna.trial import TrialState

        self.refreshes += 1
        running = 0
        mine_numbers = {c.trial.number for c in self.in_flight.values()}
        self.elsewhere = set()
        trials = self.study.get_trials(deepcopy=False)
        settled = True
        for index in range(self._settled, len(trials)):
            trial = trials[index]
            if trial.number in self._seen_finished:
                if settled:
                    self._settled = index + 1
                continue
            status = trial.user_attrs.get("status")
            if not trial.state.is_finished() and status not in FINAL:
                # Running (a final status is written last, just before the trial is told:
                # a process killed in between leaves it running with its record whole).
                settled = False
                if status is not None:
                    rec = record_of(trial)
                    if rec is not None and rec.status == "duplicate" and rec.code:
                        self.finished.setdefault(rec.point, rec)
                elif trial.state == TrialState.RUNNING and trial.number not in mine_numbers:
                    running += 1
                    self.elsewhere.add(str(trial.user_attrs.get("point", "")))
                continue
            self._seen_finished.add(trial.number)
            if settled:
                self._settled = index + 1
            rec = record_of(trial)
            if rec is None:
                continue
            if rec.status in FINAL and rec.duplicate_of is None:
                self._counted += 1
                self.finished.setdefault(rec.point, rec)
                if rec.code:
                    self.by_code.setdefault(rec.code, rec)
                if rec.status == "verified" and rec.median_ms:
                    best = self._best_seen
                    self._best_seen = rec.median_ms if best is None else min(best, rec.median_ms)
            elif rec.status == "duplicate" and rec.code:
                # A point answered by its code: finished, not counted.
                self.finished.setdefault(rec.point, rec)
        if settled:
            self._seen_finished.clear()  # all below `_settled` now
        self.stats.best_ms = self._best_seen
        self.stats.done = self._counted
        return self._counted, running

    def _counted_now(self) -> int:
        counted, running = self._refresh()
        self._running_elsewhere = running
        return counted + running + len(self.in_flight)

    def _can_ask(self, started: float, refresh: bool = True) -> bool:
        """Whether another candidate may be asked for. `refresh`: read the study again
        (once per turn of the loop; later calls of the same turn count this process's
        new candidates on the counts that read found)."""
        if self.exhausted:
            return False
        s = self.settings
        if s.time_budget is not None and time.monotonic() - started >= s.time_budget:
            return False
        # (Read the study once per turn with a budget or without: the progress line
        # counts the finished candidates either way.)
        if refresh:
            counted = self._counted_now()
        else:
            counted = self._counted + self._running_elsewhere + len(self.in_flight)
        if s.budget is not None and counted >= s.budget:
            return False
        if self.valid_keys is not None and len(self.finished) + len(self.elsewhere) + len(
            self.in_flight
        ) >= len(self.valid_keys):
            # (Fewer points taken than valid ones cannot cover them: no set is built.)
            taken = set(self.finished) | self.elsewhere | {c.key for c in self.in_flight.values()}
            if taken.issuperset(self.valid_keys):
                self.exhausted = True
                return False
        return True

    def _ask(self) -> _Candidate | None:
        """The next candidate to compile, or None when the search is over."""

        flying = {c.key for c in self.in_flight.values()}

        def taken(k: str) -> bool:
            return k in self.finished or k in self.elsewhere or k in flying

        while True:
            forced: Point | None = None
            is_default = False
            if self._pending_default is not None:
                forced, self._pending_default = self._pending_default, None
                is_default = True
                if taken(key(forced)):
                    continue
            elif self.strategy == "exhaustive" and self.valid is not None:
                assert self.valid_keys is not None
                # The points before `_next_valid` were taken when it moved past them; one
                # freed since (an interrupted trial of another process) is found by a scan
                # from the start once the rest is taken.
                keys = self.valid_keys
                start = self._next_valid
                order = itertools.chain(range(start, len(keys)), range(start))
                index = next((i for i in order if not taken(keys[i])), None)
                if index is None:
                    self.exhausted = True
                    return None
                self._next_valid = index + 1
                forced = self.valid[index]
            if forced is not None:
                self.study.enqueue_trial(strategies.encode(self.space, forced))
            with warnings.catch_warnings():
                # Optuna expects heartbeats from Study.optimize; this loop beats itself.
                warnings.filterwarnings("ignore", "Heartbeat of storage", UserWarning)
                trial = self.study.ask(self.dists)
            point = strategies.decode(self.space, trial.params)
            k = key(point)
            trial.set_user_attr("point", k)
            trial.set_user_attr("owner", self.owner)
            if is_default and k == key(forced or {}):
                trial.set_user_attr("default", True)
            reason = self.space.violation(point)
            if reason is not None:
                self._finish_trial(trial, "invalid", message=reason)
                continue
            previous = self.finished.get(k)
            if previous is not None or taken(k) or self._claimed_elsewhere(trial.number, k):
                self._duplicate(trial, previous)
                self.duplicates += 1
                if self.duplicates >= self.settings.max_duplicates:
                    self.exhausted = True
                    return None
                continue
            self.duplicates = 0
            return _Candidate(trial, point, k, bool(trial.user_attrs.get("default")))

    def _claimed_elsewhere(self, number: int, point: str) -> bool:
        """Whether an earlier trial of another process runs or ran this point (the earlier
        trial keeps it: processes that asked at the same moment agree on who measures).

        A process writes a trial's point just after asking for it: an earlier trial that
        runs without one yet may be this point, so the check waits (briefly) until it
        has one. One that never gets it (its process died in between) is passed over
        after `_CLAIM_WAIT_S`, then for good."""
        from optuna.trial import TrialState

        deadline = time.monotonic() + _CLAIM_WAIT_S
        while True:
            unknown: list[int] = []
            trials = self.study.get_trials(deepcopy=False)
            # The trials before `_settled` are finished and in `finished` (checked first).
            for other in trials[self._settled :]:
                if other.number >= number:
                    break
                attrs = other.user_attrs
                other_point = attrs.get("point")
                if other_point is None:
                    if other.state == TrialState.RUNNING and other.number not in self._unclaimed:
                        unknown.append(other.number)
                    continue
                if other_point != point:
                    continue
                status = attrs.get("status")
                if status in FINAL or (status is None and other.state == TrialState.RUNNING):
                    return True
            if not unknown:
                return False
            if time.monotonic() >= deadline:
                self._unclaimed.update(unknown)
                return False
            time.sleep(0.002)

    def _duplicate(self, trial: Any, previous: Record | None) -> None:
        from optuna.trial import TrialState

        trial.set_user_attr("status", "duplicate")
        if previous is not None and previous.duplicate_of is not None:
            # A repeat of a point that was its code's twin: answered by the measured one.
            previous = next(
                (r for r in self.by_code.values() if r.number == previous.duplicate_of), previous
            )
        if previous is None:
            self.study.tell(trial, state=TrialState.FAIL)
            return
        trial.set_user_attr("duplicate_of", previous.number)
        if previous.status == "verified" and previous.median_ms is not None:
            trial.set_user_attr("median_ms", previous.median_ms)
            self.study.tell(trial, previous.median_ms)
        elif previous.status == "pruned":
            self.study.tell(trial, state=TrialState.PRUNED)
        else:
            self.study.tell(trial, state=TrialState.FAIL)

    def _finish_trial(self, trial: Any, status: str, **attrs: Any) -> None:
        from optuna.trial import TrialState

        if "message" in attrs:
            attrs["message"] = str(attrs["message"])[:MESSAGE_LIMIT]
        for name, value in attrs.items():
            trial.set_user_attr(name, value)
        trial.set_user_attr("status", status)
        if status == "verified":
            self.study.tell(trial, float(attrs["median_ms"]))
        elif status in ("pruned", "invalid"):
            self.study.tell(trial, state=TrialState.PRUNED)
        else:
            self.study.tell(trial, state=TrialState.FAIL)
        if status != "invalid":
            self.stats.counts[status] = self.stats.counts.get(status, 0) + 1
            self.breakdown.finished.append(time.monotonic())

    def _finish(self, cand: _Candidate, status: str, **attrs: Any) -> None:
        attrs.setdefault("compile_s", cand.compile_s)
        if cand.code:
            attrs.setdefault("code", cand.code)
        self._finish_trial(cand.trial, status, **attrs)
        rec = record_of(self.study._storage.get_trial(cand.trial._trial_id))  # pyright: ignore[reportPrivateUsage]  # the trial's stored record
        if rec is not None:
            self.finished.setdefault(rec.point, rec)
            if (
                status == "verified"
                and rec.median_ms is not None
                and (self.stats.best_ms is None or rec.median_ms < self.stats.best_ms)
            ):
                self.stats.best_ms = rec.median_ms
        for cid, c in list(self.in_flight.items()):
            if c is cand:
                del self.in_flight[cid]
        if cand in self.to_measure:
            self.to_measure.remove(cand)  # re-queued when its holder died, then finished
        if cand.code and self.code_first.get(cand.code) is cand:
            del self.code_first[cand.code]
            if rec is not None:
                self.by_code.setdefault(cand.code, rec)
                for twin in self.code_waiters.pop(cand.code, []):
                    self._twin(twin, rec)

    def _twin(self, cand: _Candidate, measured: Record) -> None:
        """`cand` compiled to the code of `measured`: told as its duplicate, unmeasured."""
        cand.trial.set_user_attr("code", cand.code)
        cand.trial.set_user_attr("compile_s", cand.compile_s)
        self._duplicate(cand.trial, measured)
        rec = record_of(self.study._storage.get_trial(cand.trial._trial_id))  # pyright: ignore[reportPrivateUsage]  # the trial's stored record
        if rec is not None:
            self.finished.setdefault(rec.point, rec)
        for cid, c in list(self.in_flight.items()):
            if c is cand:
                del self.in_flight[cid]
        self.twins += 1
        self.stats.counts["same code"] = self.stats.counts.get("same code", 0) + 1
        self._twins_in_a_row += 1
        if self._twins_in_a_row >= self.settings.max_duplicates and self.strategy != "exhaustive":
            self.exhausted = True  # the search keeps finding kernels it has measured

    # -- the loop

    def per_call_timeout(self) -> float:
        best = self.stats.best_ms
        if best is None:
            return self.settings.first_timeout
        return max(1.0, 20 * best / 1e3)

    def run(self) -> None:
        s = self.settings
        compilers = self.compilers or start_compilers(
            s.compile_workers, self.problem.options.target, s.compile_timeout
        )
        measurers = [
            Worker(
                measure_handler,
                MeasureSetup(**{**self.measure_setup.__dict__, "device": d}),
                f"measure-{d if d is not None else 'cpu'}",
                s.compile_timeout,
            )
            for d in s.devices
        ]
        for w in measurers:
            w.start()
        reference: list[Worker] = []
        if not self.reference_ready and self.reference is not None:
            reference.append(
                Worker(self.reference[0], None, "reference", max(600.0, s.compile_timeout))
            )
            reference[0].start()
        self._reference_worker = reference[0] if reference else None
        background = compilers + reference
        """Paused while a CPU candidate is timed."""
        workers = compilers + measurers + reference
        started = time.monotonic()
        self.breakdown.loop_started = started
        cpu = self.problem.options.target == "cpu"
        idle_since: dict[str, float] = {}
        reference_sent = False
        try:
            if self.head_start is not None:
                self._take_head_start(started)
            while True:
                if reference and not reference_sent and reference[0].idle:
                    assert self.reference is not None
                    reference[0].submit(self.reference[1], reference[0].start_timeout)
                    reference_sent = True
                fresh = True
                for w in compilers:
                    if w.idle and self._unsent:
                        cid = self._unsent.popleft()
                        job = compile_job(self.problem, cid, self.in_flight[cid].point)
                        w.submit(job, self.settings.compile_timeout)
                    elif (
                        w.idle
                        and len(self.to_measure) < MEASURE_AHEAD * len(measurers)
                        and self._can_ask(started, refresh=fresh)
                    ):
                        fresh = False
                        cand = self._ask()
                        if cand is None:
                            break
                        self._submit_compile(w, cand)
                for w in measurers:
                    if w.idle and w in self.to_verify:
                        self.to_verify.remove(w)
                        held = tuple(i for i, c in self.in_flight.items() if c.holder is w)
                        w.submit(VerifyJob(held), s.compile_timeout)
                    elif w.idle and self.to_measure:
                        cand = self.to_measure.popleft()
                        self._submit_measure(w, cand)
                self._account_idle(workers, idle_since)
                if cpu:
                    timing = any(w.job is not None and w.phase == "timing" for w in measurers)
                    for w in background:
                        (w.pause if timing else w.resume)()
                    for w in measurers:
                        if w.job is not None and w.phase == "timing" and w.waiting:
                            w.go()  # the compile workers are stopped: time now
                if not self.in_flight and (not self._can_ask(started) or self.exhausted):
                    break
                self._report()
                self._beat()
                deadlines = [w.deadline for w in workers if w.deadline is not None]
                now = time.monotonic()
                timeout = max(0.0, min(deadlines) - now) if deadlines else 1.0
                for w in wait_any(workers, min(timeout, 1.0)):
                    job = w.job
                    message = w.receive()
                    if w in reference:
                        self._on_reference(message, measurers)
                    elif isinstance(message, Died):
                        if job is not None:
                            self._on_died(w, job, message, measurers)
                    else:
                        self._on_message(w, message, measurers)
                now = time.monotonic()
                for w in workers:
                    if w.expired(now):
                        job = w.job
                        died = w.kill_for_timeout()
                        if w in reference:
                            self._on_reference(died, measurers)
                        elif job is not None:
                            self._on_died(w, job, died, measurers)
        finally:
            self._account_idle(workers, idle_since)
            self.breakdown.loop_ended = time.monotonic()
            for w in workers:
                if w.ready_s is not None:
                    self.breakdown.spawn.setdefault(w.label, w.ready_s)
                w.stop()
            self._abandon()
        self._refresh()
        self._report()

    def _account_idle(self, workers: list[Worker], idle_since: dict[str, float]) -> None:
        """Add the time since the last call to each worker that was idle then and since."""
        now = time.monotonic()
        for w in workers:
            since = idle_since.pop(w.label, None)
            if since is not None:
                self.breakdown.add_idle(w.label, now - since)
            if w.idle:
                idle_since[w.label] = now

    def _beat(self) -> None:
        now = time.monotonic()
        if now - self._last_beat >= HEARTBEAT_S / 2:
            self._last_beat = now
            heartbeat(self.study, [c.trial._trial_id for c in self.in_flight.values()])

    def _submit_compile(self, w: Worker, cand: _Candidate) -> None:
        cid = self._next_id
        self._next_id += 1
        self.in_flight[cid] = cand
        w.submit(compile_job(self.problem, cid, cand.point), self.settings.compile_timeout)

    def _take_head_start(self, started: float) -> None:
        """Make the head start's compile (`HeadStart`) the first candidate's when the
        first point asked is its point; otherwise that compile's result is ignored and
        the point asked, in flight (counted) from now on, waits for an idle compile worker
        (`_unsent`)."""
        head = self.head_start
        assert head is not None
        self._next_id = max(self._next_id, head.candidate + 1)
        if not self._can_ask(started):
            return
        cand = self._ask()
        if cand is None:
            return
        if cand.key == head.key:
            self.in_flight[head.candidate] = cand
            self.breakdown.head_start = True
        else:
            self.in_flight[self._next_id] = cand
            self._unsent.append(self._next_id)
            self._next_id += 1

    def _submit_measure(self, w: Worker, cand: _Candidate, remeasure: bool = False) -> None:
        compiled = cand.compiled
        assert (
            compiled is not None and compiled.llvm_ir is not None and compiled.signature is not None
        )
        cid = next(i for i, c in self.in_flight.items() if c is cand)
        job = MeasureJob(
            cid,
            dict(cand.point),
            compiled.llvm_ir,
            compiled.signature,
            compiled.written,
            self.problem.options,
            remeasure=remeasure,
            handshake=self.problem.options.target == "cpu",
            object_code=compiled.object_code,
            cutoff_ms=None
            if remeasure or self.stats.best_ms is None
            else self.stats.best_ms * SLOW_CUTOFF,
        )
        cand.measure_started = time.monotonic()
        w.submit(job, self.settings.compile_timeout)

    def _on_message(
        self, w: Worker, message: tuple[Any, ...] | None, measurers: list[Worker]
    ) -> None:
        if message is None:
            return
        if message[0] == "phase":
            per_call = self.per_call_timeout()
            if message[1] == "built":
                timeout = per_call + 5.0  # one call, plus the comparison with the reference
            else:
                timeout = 3 * self.settings.min_time + 12 * per_call + 5.0
            w.extend(timeout)
            return
        result = message[1]
        if isinstance(result, CompileResult):
            self._on_compiled(result)
        elif isinstance(result, Measurement):
            self._on_measured(w, result, measurers)
        elif isinstance(result, Verdicts):
            self._on_verdicts(result)

    def _on_verdicts(self, verdicts: Verdicts) -> None:
        now = time.monotonic()
        for cid, failure in verdicts.failures.items():
            cand = self.in_flight.get(cid)
            if cand is None:
                continue
            if failure == LOST:
                cand.holder, cand.first, cand.held_times = None, None, ()
                self.to_measure.append(cand)
                continue
            self.breakdown.verify_waits.append(now - cand.held_since)
            if failure is not None:
                self._finish(
                    cand,
                    "wrong-result",
                    error_class="WrongResult",
                    message=failure,
                    build_s=cand.build_s,
                )
            else:
                self._accept(cand, cand.held_times, cand.build_s)

    def _on_reference(self, message: Any, measurers: list[Worker]) -> None:
        """The reference worker's answer: the results are written (the measurement workers
        verify what they hold), or why they cannot be computed (the run ends)."""
        if message is None or (isinstance(message, tuple) and message[0] == "phase"):
            return
        if isinstance(message, Died):
            raise InputError(f"the reference results could not be computed: {message.message}")
        if message[1] is not None:
            raise InputError(str(message[1]))
        self.reference_ready = True
        loop_started = self.breakdown.loop_started
        if loop_started is not None:
            self.breakdown.reference_s = time.monotonic() - loop_started
        self.to_verify = list(measurers)
        if self._reference_worker is not None:
            self._reference_worker.stop()

    def _requeue_held(self, w: Worker) -> None:
        """The candidates whose results `w` held before it was restarted: measured again."""
        for cand in self.in_flight.values():
            if cand.holder is w:
                cand.holder, cand.first, cand.held_times = None, None, ()
                self.to_measure.append(cand)

    def _on_died(self, w: Worker, job: Any, died: Died, measurers: list[Worker]) -> None:
        if w in measurers:
            self._requeue_held(w)
        if isinstance(job, VerifyJob):
            if self.reference_ready:
                self.to_verify.append(w)
            return
        cand = self.in_flight.get(job.candidate)
        if cand is None:
            return
        timed_out = died.kind == "timed-out"
        if isinstance(job, CompileJob):
            status = "compile-timeout" if timed_out else "compile-crashed"
        else:
            self.stats.measure_s += time.monotonic() - cand.measure_started
            status = "timed-out" if timed_out else "crashed"
        self._finish(cand, status, error_class=died.kind, message=died.message)

    def _on_compiled(self, result: CompileResult) -> None:
        cand = self.in_flight.get(result.candidate)
        if cand is None:
            return
        cand.compile_s = result.seconds
        self.stats.compile_s += result.seconds
        self.breakdown.add_compile(result.stages, result.seconds, result.ptxas_s)
        if result.status == "ok" and result.cubin:
            self.breakdown.cubins += 1
        if result.status == "ok":
            cand.compiled = result
            cand.code = result.code
            if cand.code:
                measured = self.by_code.get(cand.code)
                if measured is not None:
                    self._twin(cand, measured)
                    return
                if cand.code in self.code_first:
                    self.code_waiters.setdefault(cand.code, []).append(cand)
                    return
                self.code_first[cand.code] = cand
            self._twins_in_a_row = 0
            self.to_measure.append(cand)
            return
        self._finish(cand, result.status, error_class=result.error_class, message=result.message)

    def _on_measured(self, w: Worker, m: Measurement, measurers: list[Worker]) -> None:
        cand = self.in_flight.get(m.candidate)
        if cand is None:
            return
        wall = time.monotonic() - cand.measure_started
        self.stats.measure_s += wall
        self.breakdown.add_measure(
            # a re-timing reuses the executable built for the first timing
            build_s=m.build_s if cand.first is None else 0.0,
            call_s=m.call_s,
            check_s=m.check_s,
            time_s=m.time_s,
            wall_s=wall,
        )
        if m.status == "crashed":
            w.replace(m.message)
            self._requeue_held(w)
        if m.status not in ("verified", "unverified"):
            self._finish(
                cand, m.status, error_class=m.error_class, message=m.message, build_s=m.build_s
            )
            return
        if m.status == "unverified":
            cand.holder = w
        if cand.first is None:
            best = self._best_timed()
            if best is not None and m.median_ms < best * (1 - NOISE_BAND):
                # A new best is timed again before it is accepted.
                cand.first = m
                self.breakdown.remeasures += 1
                self._submit_measure(w, cand, remeasure=True)
                return
            times = m.times_ms
        else:
            times = cand.first.times_ms + m.times_ms
        if cand.holder is not None:
            # Timed before the reference existed: it waits for its verdict (in flight,
            # so it is neither told to the study nor a possible winner until then).
            cand.held_times, cand.held_since, cand.build_s = times, time.monotonic(), m.build_s
            return
        self._accept(cand, times, m.build_s)

    def _accept(self, cand: _Candidate, times: tuple[float, ...], build_s: float) -> None:
        import math
        import statistics

        median = statistics.median(times)
        if not math.isfinite(median) or median < 0:
            # A timer that gave no usable time: the candidate cannot win, and no table
            # prints a `nan` for it.
            self._finish(
                cand,
                "error",
                error_class="NoTime",
                message=f"the timing gave no finite time (median {median} ms)",
                build_s=build_s,
            )
            return
        self._finish(
            cand,
            "verified",
            median_ms=median,
            times_ms=list(times[:200]),
            spread=relative_spread(times),
            build_s=build_s,
        )

    def _best_timed(self) -> float | None:
        """The best median so far, of verified candidates and of those waiting for their
        verdict (a new best of either is timed again while its executable is loaded)."""
        import statistics

        found = [statistics.median(c.held_times) for c in self.in_flight.values() if c.held_times]
        if self.stats.best_ms is not None:
            found.append(self.stats.best_ms)
        return min(found) if found else None

    def _abandon(self) -> None:
        """Candidates left in flight (an interrupted run): failed as interrupted."""
        from optuna.trial import TrialState

        for cand in list(self.in_flight.values()):
            cand.trial.set_user_attr("status", "interrupted")
            self.study.tell(cand.trial, state=TrialState.FAIL, skip_if_finished=True)
        self.in_flight.clear()

    def _report(self) -> None:
        self.stats.waiting = len(self.to_measure)
        if self.progress is not None:
            self.progress(self.stats)


def compile_job(problem: Problem, candidate: int, point: Point) -> CompileJob:
    """The compile job of `point` of `problem`, numbered `candidate`."""
    schedule = problem.render(point)
    return CompileJob(
        candidate,
        schedule if problem.embedded else problem.payload,
        problem.payload_name,
        None if problem.embedded else schedule,
        problem.entry,
        problem.options,
    )


@dataclass(frozen=True)
class HeadStart:
    """The compile of a fresh study's first point (the schedule as written), sent to a
    compile worker as soon as it is spawned, while the caller still enumerates the valid
    points and writes the inputs: the first candidate reaches the measurement worker that
    much sooner. The loop takes it over (`Loop._take_head_start`)."""

    worker: Worker
    key: str
    """The point's key."""
    candidate: int
    """The job's candidate number (the loop numbers its own from the next)."""


def head_start(worker: Worker, problem: Problem, timeout: float) -> HeadStart | None:
    """Send the compile of `problem`'s default point to `worker` (started, maybe not
    ready yet); None when the schedule selects no default point or a constraint rejects
    it (invalid points are never compiled)."""
    point = problem.space.default()
    if point is None or problem.space.violation(point) is not None:
        return None
    worker.submit(compile_job(problem, 0, point), timeout)
    return HeadStart(worker, key(point), 0)


def start_compilers(count: int, target: str, timeout: float) -> list[Worker]:
    """`count` compile workers, started: each warms up (`compile_pool.warm_up`) until it
    reports ready, while the caller goes on (opening the study, computing the reference)."""
    workers = [
        Worker(compile_handler, target, f"compile-{i}", timeout) for i in range(max(1, count))
    ]
    for w in workers:
        w.start()
    return workers


def winner(found: list[Record]) -> Record | None:
    """The best verified record; ties (within the noise band) go to the smallest key."""
    verified = [
        r
        for r in found
        if r.status == "verified" and r.median_ms is not None and r.duplicate_of is None
    ]
    if not verified:
        return None
    best = min(verified, key=lambda r: (r.median_ms, r.point))
    assert best.median_ms is not None
    band = max(NOISE_BAND, 0.0)
    ties = [
        r
        for r in verified
        if r.median_ms is not None and r.median_ms <= best.median_ms * (1 + band)
    ]
    return min(ties, key=lambda r: r.point)


def default_record(found: list[Record], default_key: str | None) -> Record | None:
    """The record of the schedule as written."""
    if default_key is None:
        return None
    for r in found:
        if r.point == default_key and r.duplicate_of is None and r.status in FINAL:
            return r
    for r in found:
        if r.point == default_key and r.code and r.duplicate_of is not None:
            # The default compiled to the code of a point measured before it.
            return next((m for m in found if m.number == r.duplicate_of), None)
    return None


def counted(found: list[Record]) -> int:
    return sum(1 for r in found if r.status in FINAL and r.duplicate_of is None)


__all__ = [
    "Loop",
    "Problem",
    "Progress",
    "Settings",
    "Stats",
    "counted",
    "default_record",
    "records",
    "start_compilers",
    "winner",
]
