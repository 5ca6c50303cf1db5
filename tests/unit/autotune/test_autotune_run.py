"""The tuning loop on the CPU: a real run whose winner replays, injected faults that never
win and never end the run, and the command line (table, `best:` line, report, dry run)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from schedir import reference
from schedir.cli import run_main, tune_main
from tests.unit.autotune import faults
from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE, tune_small


def test_real_run_winner_replays_with_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = tune_small(budget=4, seed=1)
    assert result.candidates == 4
    assert result.default_ms is not None and result.best_ms <= result.default_ms * 1.02
    statuses = {r.status for r in result.trials if r.duplicate_of is None}
    assert statuses <= {"verified", "duplicate"}, statuses
    tuned = tmp_path / "tuned.mlir"
    tuned.write_text(result.schedule_text)
    capsys.readouterr()
    assert run_main([str(PAYLOAD), "--schedule", str(tuned), "--check"]) == 0
    assert "check: OK" in capsys.readouterr().out
    # The winner's kernel is the tuned schedule compiled: numerically the reference's.
    rng = np.random.default_rng(3)
    a = rng.standard_normal((23, 19)).astype(np.float32)
    b = rng.standard_normal((19, 21)).astype(np.float32)
    (expected,) = reference.evaluate_with_bounds(str(PAYLOAD), None, [a, b])
    check = reference.compare(result.kernel(a, b), expected, np.float32)
    assert check.ok, check.message


def test_faults_finish_the_run_and_never_win() -> None:
    # tile_n=7 segfaults, (4, 32) hangs, tile_m=16 returns wrong numbers (faults.py).
    result = tune_small(budget=9, strategy="exhaustive", measure_hook=faults.segfault_hang_wrong)
    by_point = {(r.point, r.status) for r in result.trials if r.duplicate_of is None}
    status = {p: s for p, s in by_point}
    assert len(status) == 9
    for point, s in status.items():
        knobs = eval(point.replace("true", "True"))  # a JSON object of numbers
        if knobs["tile_n"] == 7:
            assert s == "crashed"
        elif (knobs["tile_m"], knobs["tile_n"]) == (4, 32):
            assert s == "timed-out"
        elif knobs["tile_m"] == 16:
            assert s == "wrong-result"
        else:
            assert s == "verified"
    crashed = [r for r in result.trials if r.status == "crashed"]
    assert all("SIGSEGV" in r.message for r in crashed)
    assert result.knobs["tile_n"] != 7 and result.knobs["tile_m"] != 16
    assert (result.knobs["tile_m"], result.knobs["tile_n"]) != (4, 32)


def test_unwritten_element_is_a_wrong_result() -> None:
    result = tune_small(budget=3, strategy="exhaustive", measure_hook=faults.unwritten_element)
    wrong = [r for r in result.trials if r.status == "wrong-result"]
    assert wrong and all("NaN" in r.message for r in wrong)
    assert result.knobs["tile_m"] != 4


def test_no_verified_candidate_is_an_error() -> None:
    from schedir.autotune import TuneError

    with pytest.raises(TuneError, match="no candidate was verified"):
        tune_small(budget=2, strategy="random", measure_hook=faults.null_pointer_read, seed=5)


def test_cli_prints_table_best_line_and_writes_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.mlir"
    report = tmp_path / "report"
    argv = [str(PAYLOAD), "--schedule", str(SCHEDULE), "--budget", "3", "--compile-workers", "2"]
    argv += ["--storage", str(tmp_path / "j.journal"), "-o", str(out), "--report", str(report)]
    assert tune_main(argv) == 0
    stdout = capsys.readouterr().out
    assert "default (as written)" in stdout and "best found" in stdout
    last = stdout.strip().splitlines()[-1]
    assert re.fullmatch(
        r"best: [0-9.e+-]+ ms \([0-9.]+x the default\) knobs: tile_m=\d+,tile_n=\d+", last
    ), last
    for name in ("trials.jsonl", "history.png", "knobs.png", "report.md"):
        assert (report / name).stat().st_size > 0
    assert len((report / "trials.jsonl").read_text().splitlines()) >= 3
    assert run_main([str(PAYLOAD), "--schedule", str(out), "--check"]) == 0


def test_cli_dry_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert tune_main([str(PAYLOAD), "--schedule", str(SCHEDULE), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "knob tile_m: options [4, 8, 16] selected 8" in out
    assert "raw space: 9 points" in out and "valid space: 9 points" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--budget", "0"], "the budget must be at least 1"),
        (["--devices", "a,b"], "--devices takes GPU numbers"),
        (["--strategy", "best"], "invalid choice"),
    ],
)
def test_cli_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert tune_main([str(PAYLOAD), "--schedule", str(SCHEDULE), *args]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_schedule_without_knobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain.mlir"
    plain.write_text(
        SCHEDULE.read_text()
        .replace(
            '%tm = transform.tune.knob<"tile_m"> = 8 from options = [4, 8, 16] -> !transform.param<i64>',
            "%tm = transform.param.constant 8 : i64 -> !transform.param<i64>",
        )
        .replace(
            '%tn = transform.tune.knob<"tile_n"> = 4 from options = [4, 7, 32] -> !transform.param<i64>',
            "%tn = transform.param.constant 4 : i64 -> !transform.param<i64>",
        )
    )
    assert tune_main([str(PAYLOAD), "--schedule", str(plain), "--dry-run"]) == 1
    assert "declares no knobs" in capsys.readouterr().err
