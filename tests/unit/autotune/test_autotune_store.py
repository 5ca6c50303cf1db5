"""The results store: reruns answered from it, study keys that change with every input of
a time, resuming after kill -9 with no finished candidate lost, and several processes
sharing one study (a journal file; a real PostgreSQL server)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schedir.autotune import prepare, store
from schedir.options import CompileOptions
from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE, tune_small

ROOT = Path(__file__).parents[3]


def _counted(records: list[store.Record]) -> list[store.Record]:
    return [r for r in records if r.counted and r.duplicate_of is None]


def _study_records(storage: str) -> list[store.Record]:
    import optuna

    found: list[store.Record] = []
    the_store = store.open_storage(storage)
    for summary in optuna.get_all_study_summaries(the_store):
        study = optuna.load_study(study_name=summary.study_name, storage=the_store)
        found += store.records(study)
    return found


def test_rerun_answers_from_the_store_without_compiling(journal: str) -> None:
    first = tune_small(budget=3, storage=journal)
    start = time.perf_counter()
    again = tune_small(budget=3, storage=journal)
    elapsed = time.perf_counter() - start
    assert again.from_store and not first.from_store
    assert elapsed < 2.0, elapsed
    assert again.knobs == first.knobs and again.best_ms == first.best_ms
    assert len(again.trials) == len(first.trials)  # nothing new was asked or compiled


def _name(payload: str, schedule: str, target: str = "cpu") -> str:
    return prepare(payload, schedule, None, CompileOptions(target=target)).study_name  # pyright: ignore[reportArgumentType]


@pytest.mark.parametrize(
    ("change", "same"),
    [
        (lambda p, s: (p.replace("23", "25"), s), False),  # another payload size
        (lambda p, s: (p.replace("arith.constant 0.0", "arith.constant 1.0"), s), False),
        (lambda p, s: (p, s.replace("[4, 8, 16]", "[4, 8, 12]")), False),  # other options
        (lambda p, s: (p, s.replace('"tile_m"> = 8', '"tile_m"> = 16')), True),  # a selection
        (lambda p, s: (p + "\n// a comment\n", s), True),  # the canonical IR is unchanged
    ],
)
def test_study_key_changes_with_every_input_of_a_time(change: object, same: bool) -> None:
    payload, schedule = PAYLOAD.read_text(), SCHEDULE.read_text()
    new_payload, new_schedule = change(payload, schedule)  # pyright: ignore[reportCallIssue]
    assert (_name(new_payload, new_schedule) == _name(payload, schedule)) == same


def test_study_key_changes_with_the_target() -> None:
    payload, schedule = PAYLOAD.read_text(), SCHEDULE.read_text()
    cpu = prepare(payload, schedule, None, CompileOptions(target="cpu"))
    cuda = prepare(payload, schedule, None, CompileOptions(target="cuda"))
    assert cpu.study_name != cuda.study_name
    assert cpu.key_parts["target"] == "cpu" and "protocol" in cpu.key_parts
    sm80 = prepare(payload, schedule, None, CompileOptions(target="cuda", arch="sm_80"))
    assert sm80.study_name != cuda.study_name


def test_other_payload_size_reuses_nothing(tmp_path: Path, journal: str) -> None:
    tune_small(budget=2, storage=journal)
    other = tmp_path / "other.mlir"
    other.write_text(PAYLOAD.read_text().replace("23", "25"))
    import schedir

    result = schedir.tune(
        str(other), schedule=str(SCHEDULE), budget=2, storage=journal, compile_workers=2, peer=False
    )
    assert not result.from_store and result.candidates == 2
    assert all(r.median_ms is None or r.times_ms for r in result.trials)


_CHILD = """
import sys
import schedir
from tests.unit.autotune import faults
schedir.tune({payload!r}, schedule={schedule!r}, budget={budget}, storage=sys.argv[1],
             compile_workers=1, peer=False, strategy="exhaustive", measure_hook=faults.slow)
"""


def _child(storage: str, budget: int) -> subprocess.Popen[bytes]:
    code = _CHILD.format(payload=str(PAYLOAD), schedule=str(SCHEDULE), budget=budget)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", code, storage], cwd=ROOT, env=env)


def test_kill_9_then_resume_keeps_every_finished_candidate(journal: str) -> None:
    child = _child(journal, budget=6)
    deadline = time.monotonic() + 240
    finished: list[store.Record] = []
    while time.monotonic() < deadline and child.poll() is None:
        if Path(journal).exists():
            finished = _counted(_study_records(journal))
            if len(finished) >= 2:
                break
        time.sleep(0.5)
    assert child.poll() is None, "the run ended before it could be killed"
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    finished = _counted(_study_records(journal))
    assert len(finished) >= 2
    result = tune_small(budget=6, storage=journal, strategy="exhaustive")
    after = {r.number: r for r in result.trials}
    for r in finished:  # every finished candidate kept, as it was
        assert after[r.number] == r
    counted = _counted(result.trials)
    assert len(counted) == 6
    assert len({r.point for r in counted}) == 6  # none measured twice


def _shared_run(storage: str) -> list[store.Record]:
    children = [_child(storage, budget=5) for _ in range(2)]
    for child in children:
        assert child.wait(timeout=400) == 0
    counted = _counted(_study_records(storage))
    assert len({r.point for r in counted}) == len(counted)  # no point measured twice
    assert 5 <= len(counted) <= 6  # each process stops at the shared budget
    return counted


def test_two_processes_share_one_journal(journal: str) -> None:
    _shared_run(journal)


@pytest.fixture
def postgres_url(in_ci: bool) -> str:
    url = os.environ.get("SCHEDIR_TEST_POSTGRES_URL")
    if not url:
        if in_ci:
            pytest.fail("SCHEDIR_TEST_POSTGRES_URL is not set: .ci/run starts a PostgreSQL server")
        pytest.skip("no PostgreSQL server (.ci/run starts one and sets SCHEDIR_TEST_POSTGRES_URL)")
    return url


def test_two_processes_share_a_postgres_study(postgres_url: str) -> None:
    import sqlalchemy

    # A fresh database per run: drop Optuna's tables so earlier runs do not answer.
    engine = sqlalchemy.create_engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sqlalchemy.text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    engine.dispose()
    counted = _shared_run(postgres_url)
    assert {r.status for r in counted} == {"verified"}
