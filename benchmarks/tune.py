"""The autotuner's benchmark: search quality, throughput, and tuned kernels against peers.

    python benchmarks/tune.py record cpu [--size 256] [--options KNOB=V1,V2 ...] [--rounds 20]
    python benchmarks/tune.py record gpu [--size 4096]          # exhaustive matmul_smem_cuda sweep
    python benchmarks/tune.py table cpu|gpu [--size N]          # the table of a stopped sweep
    python benchmarks/tune.py replay [benchmarks/data/tune_sweep_cpu.json ...] [--by-point]
    python benchmarks/tune.py replay --synthetic 12 [--seeds 5]  # held-out synthetic spaces
    python benchmarks/tune.py codes cpu [--workers 2]           # code groups of an old sweep
    python benchmarks/tune.py recheck cpu [--top 12]            # time the recorded best again
    python benchmarks/tune.py twins cpu [--pool 64]             # the best points grouped by their code
    python benchmarks/tune.py throughput cpu|gpu [--budget 64] [--devices 0,1] [--size N]
                                     [--compile-workers N]
    python benchmarks/tune.py results cpu|gpu [--budget 64] [--size N]

(a) Search quality. `record` runs the whole valid space of a shipped schedule once
(strategy exhaustive, resumable: its journal sits beside the output; run the same command
again after an interruption; `--options` sweeps only some options of a knob) and writes
every point's time (None: failed or pruned) and its code identity as JSON under
`benchmarks/data/`. The candidates compile in parallel (one compile worker per core, LLVM's
optimization and code generation included); points that compile to the same code are one
kernel, measured once (`schedir.autotune.runner`). Then every kernel is timed again,
interleaved (`remeasure`: `--rounds` rounds over all kernels in a new order each round,
the median per kernel), so that drift and load hit every kernel alike and no point's time
is one lucky sample. `replay` then runs every strategy for 10 seeds on the recorded table,
with the tuner's own samplers, encodings and rules (the default first, repeats and twins
of a measured kernel answered from the table and not counted, invalid points free),
scoring each point by the median of its code group (`--by-point`: by its own sample, as
before code groups), and prints the median over seeds of (exhaustive best / best found)
after 16, 32 and 64 candidates. A sweep recorded before code identity gets its groups
from `codes` (which knobs' options compile alike, found by compiling a few points, then
checked on sampled groups). Targets: >= 95% within 32 and >= 97% within 64 candidates;
random search is the baseline.

(b) Throughput: candidates per second of the whole loop (compile, verify, measure) for a
fresh study of `--budget` candidates; with `--devices 0,1` one measurement worker per GPU,
after a run on the first device alone (the scaling is their ratio). Each run prints its
whole-run and steady-state rates and the breakdown of `schedir.autotune.breakdown`
(start-up steps, compile stages, measurement steps, idle workers). `throughput cpu` runs
the same loop on the CPU (to check the plumbing without a GPU).
Targets: >= 2/s on the 16-core H200 machine; 2 GPUs >= 1.8x one.

(c) Results: the tuned kernel against the peer the tuner times in the same run (numpy on
one thread on the CPU; torch/cuBLAS f32 with TF32 off on CUDA); on the CPU at 1024^3 also
the tuned and the default selections called in turns with numpy (`benchmarks/cpu.py`). Targets: matmul_smem_cuda
4096^3 >= 0.8x cuBLAS; CPU matmul 1024^3 >= 0.95x numpy.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
SEEDS = range(10)
CHECKPOINTS = (16, 32, 64)
MAX_REPEATS = 64
"""Repeats in a row after which a search stops (`runner.Settings.max_duplicates`)."""

CASES = {
    "cpu": ("schedules/matmul_cpu.mlir", "cpu", 1024),
    "gpu": ("schedules/matmul_smem_cuda.mlir", "cuda", 4096),
}
RECORD_SIZE = {"cpu": 256, "gpu": 4096}
"""The sizes of the recorded sweeps: on the CPU one where a sweep of the whole space takes
minutes (compiling dominates; the times' ranking is what the replay needs)."""


def payload(size: int) -> str:
    """An f32 matmul (with its fill) of size^3."""
    t = f"tensor<{size}x{size}xf32>"
    return f"""func.func @matmul(%A: {t}, %B: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%init : {t}) -> {t}
  %c = linalg.matmul ins(%A, %B : {t}, {t}) outs(%acc : {t}) -> {t}
  return %c : {t}
}}
"""


def _tune(case: str, size: int, schedule: Path | None = None, **settings: object):
    import schedir

    shipped, target, _ = CASES[case]
    chosen = str(schedule or ROOT / shipped)
    return schedir.tune(str(_payload_file(size)), schedule=chosen, target=target, **settings)  # pyright: ignore[reportArgumentType]


def _payload_file(size: int) -> Path:
    """The payload of `size` in a file of a fixed name: the LLVM IR names its source file
    (runtime checks' messages), and a sweep's later steps compile the code it timed."""
    folder = Path(tempfile.gettempdir()) / "schedir-tune-bench"
    folder.mkdir(exist_ok=True)
    path = folder / f"matmul_{size}.mlir"
    if not path.is_file() or path.read_text() != payload(size):
        path.write_text(payload(size))
    return path


def _problem(
    case: str,
    size: int,
    options: Mapping[str, list[int]] | None = None,
    schedule_text: str | None = None,
) -> Any:
    """The prepared problem (space, study name) of a case at `size` (`options`: knobs
    restricted to these options, `_restricted`; `schedule_text`: another schedule)."""
    from schedir.autotune import prepare
    from schedir.options import CompileOptions

    _, target, _ = CASES[case]
    with tempfile.TemporaryDirectory() as folder:
        schedule = Path(folder) / "schedule.mlir"
        schedule.write_text(schedule_text or _restricted(case, options))
        options_ = CompileOptions(target="cuda" if target == "cuda" else "cpu")
        return prepare(str(_payload_file(size)), str(schedule), None, options_)


def _restricted(case: str, options: Mapping[str, list[int]] | None) -> str:
    """The case's schedule text with each knob of `options` offering only those options
    (its `selected` value the first of them unless it is one)."""
    import re

    text = (ROOT / CASES[case][0]).read_text()
    for name, values in (options or {}).items():
        pattern = re.compile(
            rf'(transform\.tune\.knob<"{re.escape(name)}">\s*=\s*)(\S+)(\s+from\s+options\s*=\s*)\[[^\]]*\]'
        )
        match = pattern.search(text)
        if match is None:
            raise SystemExit(f"no integer knob '{name}' in {CASES[case][0]}")
        selected = match.group(2) if int(match.group(2)) in values else str(values[0])
        listed = ", ".join(str(v) for v in values)
        text = (
            text[: match.start()]
            + f"{match.group(1)}{selected}{match.group(3)}[{listed}]"
            + text[match.end() :]
        )
    return text


def record(
    case: str,
    size: int,
    out: Path,
    rounds: int,
    options: Mapping[str, list[int]] | None = None,
) -> None:
    """The exhaustive sweep of the case's valid space, resumable from its journal, then
    every kernel timed again interleaved (`remeasure`)."""
    space = _problem(case, size, options).loaded.problem.space
    valid = space.valid_points()
    assert valid is not None
    start = time.perf_counter()
    # A journal beside the output: an interrupted recording resumes where it stopped.
    journal = out.with_suffix(".journal")
    with tempfile.TemporaryDirectory() as folder:
        schedule = Path(folder) / "schedule.mlir"
        schedule.write_text(_restricted(case, options))
        _tune(
            case,
            size,
            schedule=schedule,
            budget=len(valid),
            strategy="exhaustive",
            # The CPU's short timing (50 ms per candidate) keeps the sweep within minutes;
            # the GPU's kernels are timed with CUDA events, where the full effort costs
            # little. Each kernel is timed once (its twins are answered from it).
            effort="quick" if case == "cpu" else "full",
            peer=False,
            storage=str(journal),
        )
    swept = time.perf_counter() - start
    print(f"swept in {swept:.0f} s; timing every kernel again, {rounds} rounds", flush=True)
    again = remeasure(case, size, out, rounds, options) if rounds else {}
    write_table(case, size, out, time.perf_counter() - start, again, rounds, options)


def _sweep_records(case: str, size: int, out: Path, options: Mapping[str, list[int]] | None):
    """The prepared problem and the records of the sweep's journal."""
    import optuna

    from schedir.autotune import store

    prepared = _problem(case, size, options)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.load_study(
        study_name=prepared.study_name,
        storage=store.open_storage(str(out.with_suffix(".journal"))),
    )
    return prepared, store.records(study)


def remeasure(
    case: str,
    size: int,
    out: Path,
    rounds: int,
    options: Mapping[str, list[int]] | None = None,
    calls: int = 5,
) -> dict[str, float]:
    """Each verified kernel of the sweep (one point per code) timed again, interleaved:
    `rounds` rounds over all kernels, each round in a new order (so drift, load and
    frequency changes hit every kernel alike), `calls` calls per kernel and round; the
    median per code. The kernels compile in parallel (one process per core) and are
    loaded and timed in this process."""
    import multiprocessing
    import os
    import random
    from concurrent.futures import ProcessPoolExecutor

    import numpy as np

    from schedir.autotune.compile_pool import CompileJob, compile_candidate

    prepared, found = _sweep_records(case, size, out, options)
    problem = prepared.loaded.problem
    firsts: dict[str, str] = {}
    for r in found:
        if r.status == "verified" and r.duplicate_of is None and r.code:
            firsts.setdefault(r.code, r.point)
    codes = sorted(firsts)
    jobs = [
        CompileJob(
            i,
            problem.payload,
            problem.payload_name,
            problem.render(json.loads(firsts[c])),
            problem.entry,
            problem.options,
        )
        for i, c in enumerate(codes)
    ]
    start = time.perf_counter()
    # Spawned, not forked: this process ran the tuner's threads.
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(os.cpu_count() or 1, mp_context=spawn) as pool:
        built = list(pool.map(compile_candidate, jobs, chunksize=1))
    print(f"compiled {len(built)} kernels in {time.perf_counter() - start:.0f} s", flush=True)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    timers: dict[str, Any] = {}
    for c, result in zip(codes, built, strict=True):
        if result.status != "ok" or result.code != c:
            print(f"skipped {firsts[c]}: {result.status} {result.message[:200]}")
            continue
        timers[c] = _timer(result, problem.options, [a, b], calls)
    times: dict[str, list[float]] = {c: [] for c in timers}
    for timer in timers.values():
        timer()  # warm-up: page in code and data
    order = list(timers)
    shuffle = random.Random(0)
    start = time.perf_counter()
    for _ in range(rounds):
        shuffle.shuffle(order)
        for c in order:
            times[c].append(timers[c]())
    print(f"timed {len(order)} kernels x {rounds} rounds in {time.perf_counter() - start:.0f} s")
    return {c: statistics.median(t) for c, t in times.items()}


def _timer(result: Any, options: Any, args: list[Any], calls: int) -> Any:
    """A function timing `calls` calls of the compiled candidate on fixed arguments: ms per
    call (cuda: CUDA events, L2 flushed, `schedir.gpu.time_function`'s median)."""
    if options.target == "cuda":
        from schedir.gpu import CudaExecutable, time_function

        executable = CudaExecutable.build(result.llvm_ir, result.signature, options, result.written)
        bound = executable.bind(args)
        return lambda: time_function(bound, warmup=1, repeat=calls).median_ms
    from schedir.cpu import CpuExecutable

    executable = CpuExecutable.build(
        result.llvm_ir, result.signature, options, code=result.object_code
    )
    call = executable.bind(args)

    def timed() -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            call()
        return (time.perf_counter() - t0) * 1e3 / calls

    return timed


def write_table(
    case: str,
    size: int,
    out: Path,
    seconds: float | None = None,
    again: Mapping[str, float] | None = None,
    rounds: int = 0,
    options: Mapping[str, list[int]] | None = None,
) -> None:
    """The sweep's table from its journal, as far as it got: `complete` says whether every
    valid point is in it (a partial table restricts the replayed space to its points).
    Every point keeps its code (`code`: points of one code are one kernel); its time is
    its code's interleaved median (`again`) where there is one, else the sweep's."""
    prepared, found = _sweep_records(case, size, out, options)
    space = prepared.loaded.problem.space
    valid = space.valid_points()
    assert valid is not None
    by_number = {r.number: r for r in found}
    table: dict[str, float | None] = {}
    codes: dict[str, str] = {}
    for r in found:
        if r.status == "duplicate" and r.code and r.duplicate_of in by_number:
            measured = by_number[r.duplicate_of]  # a twin: its code's measured record
        elif r.duplicate_of is None and r.status in store_final() and r.status != "invalid":
            measured = r
        else:
            continue
        if r.code:
            codes[r.point] = r.code
        time_ms = measured.median_ms if measured.status == "verified" else None
        if time_ms is not None and again and r.code in again:
            time_ms = again[r.code]
        table[r.point] = time_ms
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "case": case,
                "size": size,
                "schedule": CASES[case][0],
                "knobs": {k.name: list(k.options) for k in space.knobs},
                "default": json.dumps(space.default(), sort_keys=True, separators=(",", ":")),
                "valid_points": len(valid),
                "complete": len(table) == len(valid),
                "seconds": seconds,
                "times_ms": table,
                "code": codes,
                "code_method": "the tuner's code identity of each compiled point",
                "timing": (
                    f"each kernel's median of {rounds} interleaved rounds (benchmarks/tune.py "
                    "remeasure)"
                    if again
                    else "the sweep's one measurement of each kernel"
                ),
            },
            indent=1,
        )
        + "\n"
    )
    print(f"recorded {len(table)} of {len(valid)} valid candidates of {case} ({size}^3): {out}")


def store_final() -> tuple[str, ...]:
    from schedir.autotune import store

    return store.FINAL


class _Recorded:
    """The static constraints of a recorded sweep: a point is valid when it was recorded."""

    description = "recorded in the sweep"

    def __init__(self, times: Mapping[str, object]) -> None:
        self.times = times

    def violation(self, point: Mapping[str, Any]) -> str | None:
        from schedir.autotune.space import key

        return None if key(point) in self.times else "not a valid point of the sweep"


def replay_one(
    sweep: Mapping[str, object],
    strategy: str,
    seed: int,
    budget: int,
    local_share: float | None = None,
    by_code: bool = True,
) -> list[float]:
    """The best time after each counted candidate of one simulated search (`local_share`:
    the `tpe` sampler's share of local steps, None: the tuner's). `by_code`: each point
    scores its code group's median (`scored`) and a point whose code was measured is a
    repeat, answered and not counted, as the tuner does; else each point's own sample."""
    import optuna
    from optuna.trial import TrialState

    from schedir.autotune import strategies
    from schedir.autotune.space import Space, key
    from schedir.transform.knobs import Knob

    knobs = tuple(Knob(n, tuple(o), None) for n, o in sweep["knobs"].items())  # pyright: ignore[reportAttributeAccessIssue]
    default = json.loads(str(sweep["default"]))
    knobs = tuple(Knob(k.name, k.options, default.get(k.name)) for k in knobs)
    recorded: Mapping[str, float | None] = sweep["times_ms"]  # pyright: ignore[reportAssignmentType]  # the sweep json's table
    times = scored(sweep) if by_code else recorded
    codes = code_groups(sweep) if by_code else {k: k for k in recorded}
    # The recorded points are the valid ones: the replayed space knows the schedule's
    # static constraints as the tuner's does.
    space = Space(knobs, (_Recorded(times),))
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    share = strategies.LOCAL_SHARE if local_share is None else local_share
    study = optuna.create_study(
        sampler=strategies.sampler(strategy, seed, budget, space, share), direction="minimize"
    )
    dists = strategies.distributions(space)
    best: list[float] = []
    current = float("inf")
    seen: dict[str, float | None] = {}
    pending = [space.default()]
    asks = 0
    repeats = 0
    while len(best) < budget and asks < 200 * budget:
        asks += 1
        forced = pending.pop() if pending else None
        if forced is not None:
            study.enqueue_trial(strategies.encode(space, forced))
        trial = study.ask(dists)
        k = key(strategies.decode(space, trial.params))
        if k not in times:  # statically invalid (a constraint): free, told as pruned
            study.tell(trial, state=TrialState.PRUNED)
            continue
        value = times[k]
        if codes[k] in seen:  # a repeat (or its code's twin): answered, not counted
            repeats += 1
            if repeats >= MAX_REPEATS:  # the tuner's rule: the search has converged
                break
        else:
            repeats = 0
            seen[codes[k]] = value
            if value is not None:
                current = min(current, value)
            best.append(current)
        if value is None:
            study.tell(trial, state=TrialState.FAIL)
        else:
            study.tell(trial, value)
    while len(best) < budget:
        best.append(current)
    return best


VARIANTS: dict[str, tuple[str, float | None]] = {
    "random": ("random", None),
    "tpe (Optuna's alone)": ("tpe", 0.0),
    "tpe": ("tpe", None),
    "cmaes": ("cmaes", None),
}
"""The replayed searches: each strategy, plus Optuna's multivariate TPE without the local
steps of the tuner's `tpe` (`schedir.autotune.strategies`), the ablation."""


def replay_rows(
    sweep: Mapping[str, Any], seeds: range = SEEDS, by_code: bool = True
) -> dict[str, list[float]]:
    """Median over seeds of % of the optimum after each checkpoint, per variant (the
    optimum and every point scored as `replay_one` scores them)."""
    from schedir.autotune import strategies

    times = scored(sweep) if by_code else sweep["times_ms"]
    optimum = min(t for t in times.values() if t is not None)
    rows: dict[str, list[float]] = {}
    for name, (strategy, share) in VARIANTS.items():
        runs = [
            replay_one(sweep, strategy, seed, max(CHECKPOINTS), share, by_code) for seed in seeds
        ]
        rows[name] = [
            statistics.median(100 * optimum / best[checkpoint - 1] for best in runs)
            for checkpoint in CHECKPOINTS
        ]
    auto = strategies.resolve("auto", len(sweep["times_ms"]), max(CHECKPOINTS))
    rows[f"auto (= {auto})"] = rows[auto] if auto in rows else rows["random"]
    return rows


def _print_rows(rows: Mapping[str, list[float]]) -> None:
    print(f"{'strategy':22}" + "".join(f"{'@' + str(c):>10}" for c in CHECKPOINTS))
    for name, row in rows.items():
        print(f"{name:22}" + "".join(f"{s:9.1f}%" for s in row), flush=True)


def replay(paths: list[Path], by_code: bool = True) -> None:
    for path in paths:
        sweep = json.loads(path.read_text())
        measured = [t for t in sweep["times_ms"].values() if t is not None]
        groups = len(set(code_groups(sweep).values()))
        best = min(t for t in scored(sweep).values() if t is not None)
        print(
            f"\n{path.name}: {len(sweep['times_ms'])} candidates, {groups} kernels "
            f"({'scored by code group' if by_code else 'each point its own sample'}); "
            f"exhaustive best {min(measured):.4g} ms (one sample), {best:.4g} ms "
            "(median of its code group)"
        )
        if by_code and "code" not in sweep:
            print("(no code groups recorded: every point is its own group)")
        if not sweep.get("complete", True):
            print(
                f"(a partial sweep: {len(sweep['times_ms'])} of {sweep['valid_points']} valid "
                "points; the replayed space is restricted to them)"
            )
        _print_rows(replay_rows(sweep, by_code=by_code))


def synthetic(index: int) -> dict[str, Any]:
    """A held-out sweep (not tuned on): a space shaped like the shipped ones (5 or 6 ordered
    knobs of 3 to 5 options), a time that is the lower of two random, coupled quadratic
    basins over the options' positions (a global and a local optimum), 3% log-normal
    noise, 5% failing points clustered at the large end of one knob, and a default
    drawn at random among the valid points (no better than the median, on average)."""
    import random

    rng = random.Random(1000 + index)
    n = rng.choice((5, 6))
    sizes = [rng.choice((3, 4, 5)) for _ in range(n)]
    knobs = {f"k{i}": [2**j for j in range(size)] for i, size in enumerate(sizes)}

    def basin() -> tuple[list[float], list[float], list[list[float]]]:
        centre = [rng.uniform(0, size - 1) for size in sizes]
        scale = [rng.uniform(0.05, 0.6) for _ in sizes]
        coupling = [[rng.uniform(-0.15, 0.15) for _ in sizes] for _ in sizes]
        return centre, scale, coupling

    basins = [basin(), basin()]
    depth = [1.0, rng.uniform(1.05, 1.3)]
    failing = rng.randrange(n)
    times: dict[str, float | None] = {}
    import itertools

    for position in itertools.product(*(range(size) for size in sizes)):
        point = {f"k{i}": 2 ** position[i] for i in range(n)}
        text = json.dumps(point, sort_keys=True, separators=(",", ":"))
        if position[failing] == sizes[failing] - 1 and rng.random() < 0.5:
            times[text] = None
            continue
        values = []
        for (centre, scale, coupling), d in zip(basins, depth, strict=True):
            delta = [position[i] - centre[i] for i in range(n)]
            q = sum(scale[i] * delta[i] ** 2 for i in range(n))
            q += sum(coupling[i][j] * delta[i] * delta[j] for i in range(n) for j in range(i))
            values.append(d * (1 + max(q, -0.5)))
        times[text] = min(values) * rng.lognormvariate(0, 0.03)
    default = rng.choice([k for k, v in times.items() if v is not None])
    return {"knobs": knobs, "default": default, "times_ms": times, "complete": True}


def replay_synthetic(count: int, seeds: int) -> None:
    """The median, over `count` synthetic sweeps, of each variant's median over seeds."""
    per: dict[str, list[list[float]]] = {}
    for index in range(count):
        rows = replay_rows(synthetic(index), range(seeds))
        for name, row in rows.items():
            per.setdefault(name, []).append(row)
        print(
            f"synthetic {index}: " + ", ".join(f"{n} {r[1]:.1f}%" for n, r in rows.items()),
            flush=True,
        )
    print(f"\n{count} synthetic spaces (held out), {seeds} seeds each:")
    _print_rows(
        {
            name: [statistics.median(r[i] for r in rows) for i in range(len(CHECKPOINTS))]
            for name, rows in per.items()
        }
    )


def recheck(case: str, top: int, rounds: int) -> None:
    """Time the recorded sweep's `top` best points again, interleaved (round-robin over
    the points, `rounds` rounds, so drift and load hit them alike): whether the recorded
    best is a real optimum or one lucky timing."""
    import numpy as np

    import schedir

    sweep = json.loads((DATA / f"tune_sweep_{case}.json").read_text())
    ranked = sorted((t, k) for k, t in sweep["times_ms"].items() if t is not None)[:top]
    size = int(sweep["size"])
    schedule, target, _ = CASES[case]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"matmul_{size}.mlir"
        path.write_text(payload(size))
        kernels = [
            schedir.compile(str(path), str(ROOT / schedule), target, knobs=json.loads(k))
            for _, k in ranked
        ]
    times: list[list[float]] = [[] for _ in kernels]
    for kernel in kernels:
        kernel(a, b)  # warm-up
    for _ in range(rounds):
        for i, kernel in enumerate(kernels):
            t0 = time.perf_counter()
            for _ in range(5):
                kernel(a, b)
            times[i].append((time.perf_counter() - t0) * 1e3 / 5)
    medians = [statistics.median(t) for t in times]
    best = min(medians)
    print(f"{'recorded ms':>12} {'again ms':>10} {'% of best':>10}  knobs")
    for (recorded, k), again in zip(ranked, medians, strict=True):
        print(f"{recorded:12.4g} {again:10.4g} {100 * best / again:9.1f}%  {k}")


def code_groups(sweep: Mapping[str, Any]) -> dict[str, str]:
    """Each recorded point's code identity (`code` of the sweep; a sweep without it: every
    point its own code)."""
    codes: Mapping[str, str] = sweep.get("code") or {}
    return {k: str(codes.get(k, k)) for k in sweep["times_ms"]}


def scored(sweep: Mapping[str, Any]) -> dict[str, float | None]:
    """Each point's time as the replay scores it: the median of the recorded times of its
    code group (the points that compile to the same kernel take the same time; one lucky
    sample of a group is noise, not an optimum). None: no point of the group verified."""
    groups: dict[str, list[float]] = {}
    codes = code_groups(sweep)
    for k, t in sweep["times_ms"].items():
        members = groups.setdefault(codes[k], [])
        if t is not None:
            members.append(float(t))
    medians = {c: statistics.median(ts) if ts else None for c, ts in groups.items()}
    return {k: medians[codes[k]] for k in sweep["times_ms"]}


def infer_codes(case: str, workers: int, verify: int, bases_count: int = 2) -> None:
    """The code identity of every point of the recorded sweep, from a few compiles: for
    each knob and each two neighbouring options, each of `bases_count` random base points
    is compiled (with the schedule of the commit that recorded the sweep) with the knob at
    either option; options that give the same LLVM IR from both
    bases are one value of that knob (e.g. a cache block past the problem's
    size). A point's code is then its knobs with each value replaced by its class, and
    two points of each of `verify` random groups are compiled to check it. Writes
    `code` (point -> group) and `code_method` into the sweep's json."""
    import hashlib
    import random
    import subprocess

    path = DATA / f"tune_sweep_{case}.json"
    sweep = json.loads(path.read_text())
    knobs: dict[str, list[Any]] = sweep["knobs"]
    points = list(sweep["times_ms"])
    rng = random.Random(0)
    # The schedule as it was when the sweep was recorded (the commit that wrote it).
    git = ["git", "-C", str(ROOT)]
    rev = subprocess.run(
        [*git, "log", "-1", "--format=%H", "--", str(path.relative_to(ROOT))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    text = subprocess.run(
        [*git, "show", f"{rev}:{CASES[case][0]}"], capture_output=True, text=True, check=True
    ).stdout
    print(f"the schedule of {rev[:10]} (the sweep's commit)", flush=True)
    digest = _digester(case, int(sweep["size"]), workers, text)
    bases = [json.loads(k) for k in rng.sample(points, bases_count)]
    pairs: list[tuple[str, Any, Any, dict[str, Any]]] = []
    for name, options in knobs.items():
        for a, b in itertools.pairwise(options):
            for base in bases:
                pairs.append((name, a, b, base))
    wanted = [{**base, name: v} for name, a, b, base in pairs for v in (a, b)]
    found = digest(wanted)
    same: dict[str, dict[Any, Any]] = {name: {} for name in knobs}
    for index, (name, a, b, _) in enumerate(pairs):
        da, db = found[2 * index], found[2 * index + 1]
        if da is not None and da == db:
            same[name].setdefault((a, b), True)
        else:
            same[name][(a, b)] = False
    classes: dict[str, dict[Any, Any]] = {}
    for name, options in knobs.items():
        cls = {options[0]: options[0]}
        for a, b in itertools.pairwise(options):
            cls[b] = cls[a] if same[name].get((a, b)) else b
        classes[name] = cls

    def group(k: str) -> str:
        p = json.loads(k)
        canonical = {n: classes[n].get(v, v) for n, v in p.items()}
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    codes = {k: group(k) for k in points}
    inert = {n: {str(v): c for v, c in cls.items() if v != c} for n, cls in classes.items()}
    print(f"equal options (value: same code as): {inert}")
    members: dict[str, list[str]] = {}
    for k in points:
        members.setdefault(codes[k], []).append(k)
    several = [m for m in members.values() if len(m) > 1]
    checked = rng.sample(several, min(verify, len(several)))
    sample = [json.loads(k) for m in checked for k in rng.sample(m, 2)]
    sizes = [2 for _ in checked]
    got = digest(sample)
    at = 0
    agree = 0
    for size in sizes:
        agree += len(set(got[at : at + size])) == 1 and got[at] is not None
        at += size
    print(
        f"{len(members)} code groups of {len(points)} points; {agree} of {len(checked)} "
        "sampled groups compile to one LLVM IR"
    )
    if agree != len(checked):
        raise SystemExit("the inferred groups do not hold: not written")
    sweep["code"] = codes
    sweep["code_method"] = (
        f"compiled with {CASES[case][0]} of {rev[:10]}: knob options inferred equal by compiling ({len(wanted)} compiles: {inert}); "
        f"{agree} of {len(checked)} random groups: two points each, one LLVM IR"
    )
    path.write_text(json.dumps(sweep, indent=1) + "\n")
    print(f"written: {path}")


def _digester(case: str, size: int, workers: int, schedule_text: str | None = None) -> Any:
    """A function from knob points to the digests of their LLVM IR (None: no IR), compiled
    `workers` at a time in `nice` subprocesses (`schedule_text`: not the shipped one)."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    problem = _problem(case, size, schedule_text=schedule_text).loaded.problem
    target = CASES[case][1]

    def digest_all(points: list[dict[str, Any]]) -> list[str | None]:
        unique = list({_key(p): p for p in points}.values())
        found = dict(zip(map(_key, unique), digest_unique(unique), strict=True))
        return [found[_key(p)] for p in points]

    def digest_unique(points: list[dict[str, Any]]) -> list[str | None]:
        with tempfile.TemporaryDirectory() as folder:
            source = Path(folder) / "payload.mlir"
            source.write_text(payload(size))

            def one(index: int) -> str | None:
                path = Path(folder) / f"schedule_{index}.mlir"
                path.write_text(problem.render(points[index]))
                try:
                    return _ir_digest(source, path, target, nice=True)
                except Exception:
                    return None

            with ThreadPoolExecutor(max(1, min(workers, os.cpu_count() or 1))) as pool:
                return list(pool.map(one, range(len(points))))

    return digest_all


def _key(point: Mapping[str, Any]) -> str:
    return json.dumps(point, sort_keys=True, separators=(",", ":"))


def twins(case: str, pool: int) -> None:
    """Group the recorded sweep's `pool` best points by the LLVM IR they compile to (a
    block past the problem's size changes nothing) and print each group's recorded
    times: the spread within a group is the sweep's measurement noise, which bounds what
    a replay's "% of the exhaustive best" can mean."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    sweep = json.loads((DATA / f"tune_sweep_{case}.json").read_text())
    size = int(sweep["size"])
    problem = _problem(case, size).loaded.problem
    target = CASES[case][1]
    ranked = sorted((t, k) for k, t in sweep["times_ms"].items() if t is not None)[:pool]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "payload.mlir"
        source.write_text(payload(size))

        def digest(index: int) -> str:
            path = Path(folder) / f"schedule_{index}.mlir"
            path.write_text(problem.render(json.loads(ranked[index][1])))
            return _ir_digest(source, path, target)

        with ThreadPoolExecutor(os.cpu_count() or 1) as workers:
            digests = list(workers.map(digest, range(len(ranked))))
    groups: dict[str, list[tuple[float, str]]] = {}
    for point, key in zip(ranked, digests, strict=True):
        groups.setdefault(key, []).append(point)
    best = ranked[0][0]
    print(f"{'points':>6} {'min ms':>8} {'max ms':>8} {'max/min':>8} {'median %':>9}  fastest")
    for members in sorted(groups.values()):
        lo, hi = members[0][0], members[-1][0]
        median = statistics.median(t for t, _ in members)
        print(
            f"{len(members):6d} {lo:8.4g} {hi:8.4g} {hi / lo:8.2f} "
            f"{100 * best / median:8.1f}%  {members[0][1]}"
        )


def _ir_digest(source: Path, schedule: Path, target: str, nice: bool = False) -> str:
    """The code identity (`compile_pool.code_identity`) of the LLVM IR `source` compiles
    to under `schedule`."""
    import subprocess

    from schedir.autotune.compile_pool import code_identity

    tool = Path(sys.executable).with_name("schedir-opt")
    command = [str(tool), str(source), "--schedule", str(schedule), "--emit", "llvm-ir"]
    command = (["nice"] if nice else []) + command + ["--target", target]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return code_identity(out)


def throughput(
    case: str,
    budget: int,
    devices: tuple[int, ...] | None,
    size: int,
    compile_workers: int | None = None,
) -> None:
    """One run per device set (the first device alone first when several are given)."""
    runs = [devices[:1], devices] if devices and len(devices) > 1 else [devices]
    rates: list[tuple[float, float | None]] = []
    for run_devices in runs:
        start = time.perf_counter()
        result = _tune(
            case,
            size,
            budget=budget,
            strategy="random",
            devices=run_devices,
            peer=False,
            compile_workers=compile_workers,
        )
        seconds = time.perf_counter() - start
        rate = result.candidates / seconds
        steady = result.breakdown.steady_rate() if result.breakdown is not None else None
        rates.append((rate, steady))
        shown = ",".join(str(d) for d in run_devices) if run_devices else "default"
        print(
            f"\n{case} {size}^3, devices {shown}: {result.candidates} candidates in "
            f"{seconds:.1f} s: {rate:.2f}/s whole run, "
            f"{f'{steady:.2f}/s' if steady else 'n/a'} steady state",
            flush=True,
        )
        if result.breakdown is not None:
            print(result.breakdown.render(), flush=True)
    if len(rates) == 2:
        (one, one_steady), (many, many_steady) = rates
        steady = f"{many_steady / one_steady:.2f}x" if one_steady and many_steady else "n/a"
        print(
            f"\nscaling, {len(runs[1] or ())} devices against one: whole run "
            f"{many / one:.2f}x, steady state {steady}"
        )


def results(case: str, budget: int, size: int) -> None:
    from schedir.autotune.report import default_reason

    result = _tune(case, size, budget=budget, effort="full")
    peer = result.peer
    why = default_reason(result)
    default = f"{result.default_ms:.4g} ms" if why is None else f"none ({why})"
    print(f"{case} matmul {size}^3: tuned {result.best_ms:.4g} ms, default {default}")
    if peer is not None:
        print(f"  {peer.name}: {peer.ms:.4g} ms; tuned is {peer.ms / result.best_ms:.2f}x the peer")
    else:
        print("  no peer installed")
    print(f"  knobs: {result.knobs}")
    if case == "cpu" and size == 1024:
        # The tuner times the winner and the peer minutes apart; on a host whose speed
        # drifts (a shared VM) that ratio can be far off. benchmarks/cpu.py calls both in
        # turns (same machine state for both): the tuned and the default selections.
        print("  interleaved with numpy (benchmarks/cpu.py: tuned, then the default):", flush=True)
        cpu = [sys.executable, str(ROOT / "benchmarks" / "cpu.py"), "--only", "matmul"]
        knobs = ["--knobs", json.dumps(result.knobs), "--knobs", "{}"]
        subprocess.run([*cpu, "--min-time", "1.5", *knobs], check=False)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    for name in ("record", "table"):
        r = sub.add_parser(name)
        r.add_argument("case", choices=sorted(CASES))
        r.add_argument("--size", type=int)
        r.add_argument("--out", type=Path)
        r.add_argument(
            "--options",
            action="append",
            default=[],
            metavar="KNOB=V1,V2",
            help="sweep only these options of a knob (repeatable)",
        )
        if name == "record":
            r.add_argument(
                "--rounds", type=int, default=20, help="interleaved rounds of timing (0: none)"
            )

    rp = sub.add_parser("replay")
    rp.add_argument("sweeps", nargs="*", type=Path)
    rp.add_argument(
        "--synthetic", type=int, metavar="N", help="replay N held-out synthetic spaces instead"
    )
    rp.add_argument("--seeds", type=int, default=len(SEEDS), help="seeds per synthetic space")
    rp.add_argument(
        "--by-point",
        action="store_true",
        help="score each point by its own recorded sample (not its code group's median)",
    )
    rc = sub.add_parser("recheck")
    rc.add_argument("case", choices=sorted(CASES))
    rc.add_argument("--top", type=int, default=12)
    rc.add_argument("--rounds", type=int, default=30)
    cg = sub.add_parser("codes")
    cg.add_argument("case", choices=sorted(CASES))
    cg.add_argument("--workers", type=int, default=2, help="compiles at a time (nice)")
    cg.add_argument("--bases", type=int, default=2, help="base points each option is tried on")
    cg.add_argument("--verify", type=int, default=8, help="random groups checked (two points each)")
    tw = sub.add_parser("twins")
    tw.add_argument("case", choices=sorted(CASES))
    tw.add_argument("--pool", type=int, default=64)
    for name in ("throughput", "results"):
        q = sub.add_parser(name)
        q.add_argument("case", choices=sorted(CASES))
        q.add_argument("--budget", type=int, default=64)
        q.add_argument("--size", type=int)
        q.add_argument("--devices")
        q.add_argument("--compile-workers", type=int)
    args = p.parse_args(argv)
    if args.command in ("record", "table"):
        size = args.size or RECORD_SIZE[args.case]
        out = args.out or DATA / f"tune_sweep_{args.case}.json"
        restricted = {
            name: [int(v) for v in values.split(",")]
            for name, _, values in (o.partition("=") for o in args.options)
        }
        if args.command == "record":
            record(args.case, size, out, args.rounds, restricted)
        else:
            write_table(args.case, size, out, options=restricted)
    elif args.command == "recheck":
        recheck(args.case, args.top, args.rounds)
    elif args.command == "codes":
        infer_codes(args.case, args.workers, args.verify, args.bases)
    elif args.command == "twins":
        twins(args.case, args.pool)
    elif args.command == "replay":
        if args.synthetic:
            replay_synthetic(args.synthetic, args.seeds)
        else:
            replay(args.sweeps or sorted(DATA.glob("tune_sweep_*.json")), not args.by_point)
    else:
        size = args.size or CASES[args.case][2]
        devices = tuple(int(d) for d in args.devices.split(",")) if args.devices else None
        if args.command == "throughput":
            throughput(args.case, args.budget, devices, size, args.compile_workers)
        else:
            results(args.case, args.budget, size)
    return 0


if __name__ == "__main__":
    sys.exit(main())
