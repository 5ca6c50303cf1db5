"""Code identity: knob points that compile to the same code are one kernel. The tuner
measures one of them and answers the others as its duplicates; the replay of a recorded
sweep scores every point by the median of its code group."""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.autotune.compile_pool import code_identity
from tests.unit.autotune.conftest import HERE, tune_small

ROOT = Path(__file__).resolve().parents[3]
TWIN_SCHEDULE = HERE / "twin_schedule.mlir"


def _bench() -> Any:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import tune  # pyright: ignore[reportMissingImports]  # benchmarks/tune.py

    return tune


def test_twins_are_measured_once(journal: str) -> None:
    # 2 tile sizes x 3 values of an unused knob: 6 points, 2 kernels.
    result = tune_small(
        schedule=str(TWIN_SCHEDULE), budget=6, strategy="exhaustive", storage=journal
    )
    measured = [r for r in result.trials if r.duplicate_of is None and r.status == "verified"]
    # (a repeat of a point in flight is a duplicate too, without a code)
    twins = [r for r in result.trials if r.status == "duplicate" and r.code]
    assert len(measured) == 2 and len(twins) == 4, result.trials
    assert result.candidates == 2  # a twin costs no measurement and no budget
    assert {r.code for r in measured} == {r.code for r in twins}
    by_number = {r.number: r for r in result.trials}
    for twin in twins:
        assert twin.duplicate_of is not None
        first = by_number[twin.duplicate_of]
        assert first.code == twin.code and first.duplicate_of is None
        assert json.loads(first.point)["tile_m"] == json.loads(twin.point)["tile_m"]
        assert twin.median_ms == first.median_ms and twin.times_ms == ()
    # A rerun answers every point from the store, twins included.
    again = tune_small(
        schedule=str(TWIN_SCHEDULE), budget=6, strategy="exhaustive", storage=journal
    )
    assert again.from_store and again.candidates == 2


def test_code_identity_ignores_names_only() -> None:
    ir = "define void @f() {\n  ret void\n}\n"
    named = f"; ModuleID = 'a.mlir'\nsource_filename = \"a.mlir\"\n{ir}"
    other = f"; ModuleID = 'b.mlir'\nsource_filename = \"b.mlir\"\n{ir}"
    assert code_identity(named) == code_identity(other) == code_identity(ir)
    assert code_identity(ir) != code_identity(ir.replace("ret void", "unreachable"))


@st.composite
def sweeps(draw: st.DrawFn) -> dict[str, Any]:
    """A recorded sweep of 2 knobs whose points fall into random code groups, each
    point timed once (None: failed), as a noisy record has them."""
    a = draw(st.integers(1, 4))
    b = draw(st.integers(1, 4))
    points = [
        json.dumps({"a": i, "b": j}, sort_keys=True, separators=(",", ":"))
        for i in range(a)
        for j in range(b)
    ]
    groups = draw(st.lists(st.integers(0, 3), min_size=len(points), max_size=len(points)))
    times = draw(
        st.lists(
            st.one_of(st.none(), st.floats(0.1, 10.0)), min_size=len(points), max_size=len(points)
        )
    )
    times[0] = times[0] if times[0] is not None else 1.0  # at least one verified point
    return {
        "knobs": {"a": list(range(a)), "b": list(range(b))},
        "default": points[0],
        "times_ms": dict(zip(points, times, strict=True)),
        "code": {p: f"c{g}" for p, g in zip(points, groups, strict=True)},
    }


@settings(max_examples=40, deadline=None)
@given(sweeps())
def test_replay_scores_a_point_by_its_code_group(sweep: dict[str, Any]) -> None:
    tune = _bench()
    scored = tune.scored(sweep)
    for point, code in sweep["code"].items():
        group = [
            t for p, t in sweep["times_ms"].items() if sweep["code"][p] == code and t is not None
        ]
        assert scored[point] == (statistics.median(group) if group else None)


@settings(max_examples=6, deadline=None)
@given(sweeps())
def test_replay_counts_each_kernel_once(sweep: dict[str, Any]) -> None:
    tune = _bench()
    kernels = len(set(sweep["code"].values()))
    optimum = min(t for t in tune.scored(sweep).values() if t is not None)
    # tpe visits every point before it repeats one: every kernel is found within as many
    # counted candidates as there are kernels (a twin of a measured one is not counted).
    best = tune.replay_one(sweep, "tpe", seed=0, budget=kernels + 3)
    assert best[kernels - 1] == optimum
    # Nothing scores below its group's median (no lucky single sample).
    assert min(tune.replay_one(sweep, "random", seed=1, budget=kernels)) >= optimum
