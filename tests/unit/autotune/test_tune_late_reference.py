"""The loop does not wait for the reference results: candidates timed before they exist
keep their results in the measurement worker and are verified when they are written; a
wrong one never wins, crashes and hangs meanwhile lose nothing, and the results are cached
beside the study's storage for the next run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schedir.autotune import problem
from schedir.autotune.runner import winner
from schedir.diagnostics import InputError
from tests.unit.autotune import faults
from tests.unit.autotune.conftest import tune_small


@pytest.fixture
def late_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pickled by reference: the reference worker imports the late handler from faults.
    monkeypatch.setattr(problem, "reference_handler", faults.late_reference_handler)


def _status(result: object) -> dict[tuple[int, int], str]:
    found: dict[tuple[int, int], str] = {}
    for r in result.trials:  # pyright: ignore[reportAttributeAccessIssue]  # a TuneResult
        if r.duplicate_of is None and r.status != "invalid":
            knobs = json.loads(r.point)
            found[(knobs["tile_m"], knobs["tile_n"])] = r.status
    return found


@pytest.mark.usefixtures("late_reference")
def test_faults_before_the_reference_exists_never_win(tmp_path: Path) -> None:
    # tile_n=7 segfaults (the worker holding results restarts: they are measured again),
    # tile_m=16 returns wrong numbers (faults.py).
    result = tune_small(
        budget=9,
        strategy="exhaustive",
        measure_hook=faults.segfault_wrong,
        storage=str(tmp_path / "a.journal"),
    )
    assert result.breakdown is not None and result.breakdown.verify_waits, (
        "no candidate was timed before the reference existed: the test tests nothing"
    )
    status = _status(result)
    assert len(status) == 9
    for (m, n), s in status.items():
        expected = "crashed" if n == 7 else "wrong-result" if m == 16 else "verified"
        assert s == expected, ((m, n), s)
    assert result.knobs["tile_m"] != 16 and result.knobs["tile_n"] != 7
    best = winner(result.trials)
    assert best is not None and best.status == "verified"


@pytest.mark.usefixtures("late_reference")
def test_order_and_verdicts_as_with_the_reference_first_which_is_cached(tmp_path: Path) -> None:
    late = tune_small(
        budget=6,
        strategy="exhaustive",
        seed=4,
        measure_hook=faults.unwritten_element,
        storage=str(tmp_path / "late.journal"),
    )
    assert late.breakdown is not None and late.breakdown.reference_s is not None
    assert late.breakdown.verify_waits
    cached = list((tmp_path / "references").glob("*.npz"))
    assert len(cached) == 1
    # Another storage in the same folder: the same study, whose reference is cached.
    first = tune_small(
        budget=6,
        strategy="exhaustive",
        seed=4,
        measure_hook=faults.unwritten_element,
        storage=str(tmp_path / "first.journal"),
    )
    assert first.breakdown is not None and first.breakdown.reference_s is None
    assert not first.breakdown.verify_waits

    def order(result: object) -> list[str]:
        trials = sorted(result.trials, key=lambda r: r.number)  # pyright: ignore[reportAttributeAccessIssue]  # a TuneResult
        return [r.point for r in trials if r.duplicate_of is None and r.status != "invalid"]

    assert order(late) == order(first)
    assert _status(late) == _status(first)
    # tile_m=4 leaves an element unwritten: wrong in both runs, never the winner.
    assert all(s == "wrong-result" for (m, _), s in _status(late).items() if m == 4)
    assert late.knobs["tile_m"] != 4 and first.knobs["tile_m"] != 4


def test_a_reference_that_cannot_be_computed_ends_the_run_with_its_diagnostic(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(problem, "reference_handler", faults.failing_reference_handler)
    with pytest.raises(InputError, match="the reference cannot evaluate this op"):
        tune_small(budget=3, storage=str(tmp_path / "s.journal"))
    assert not list(tmp_path.glob("references/*.npz"))  # nothing cached
