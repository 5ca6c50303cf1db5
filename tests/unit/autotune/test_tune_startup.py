"""Start-up structure: a tuning run starts its workers' zygote before it imports xDSL,
Optuna or numpy (the zygote imports them in parallel with the tuner), through the API and
through `schedir-tune`; and importing what starts the zygote stays light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE

ROOT = Path(__file__).resolve().parents[3]
HEAVY = ("xdsl", "optuna", "numpy", "llvmlite", "rich.table")
"""Packages of seconds' import that the zygote imports for the workers."""

PROBE = """
import json, sys
import schedir.autotune.worker as worker

class Started(Exception):
    pass

def record(self, warm):
    loaded = sorted({m.split(".")[0] for m in sys.modules if m.startswith(HEAVY)})
    print(json.dumps(loaded))
    raise Started()

HEAVY = tuple(sys.argv[1].split(","))
worker.Zygote.__init__ = record
"""


def _heavy_at_zygote_start(call: str) -> list[str]:
    """The heavy packages already imported when `call` starts the zygote (a fresh
    interpreter; the zygote's start is stopped there)."""
    code = PROBE + call
    done = subprocess.run(
        [sys.executable, "-c", code, ",".join(HEAVY)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert lines, done.stdout + done.stderr
    return json.loads(lines[0])


@pytest.mark.parametrize(
    "call",
    [
        # the API
        "import schedir\ntry:\n    schedir.tune({payload!r}, schedule={schedule!r}, budget=1)\n"
        "except Started:\n    pass\n",
        # the command line (which reports the probe's exception as an internal error)
        "from schedir.cli import tune_main\n"
        "tune_main([{payload!r}, '--schedule', {schedule!r}, '--budget', '1',"
        " '--storage', ':memory:'])\n",
    ],
    ids=["api", "cli"],
)
def test_zygote_starts_before_the_heavy_imports(call: str) -> None:
    loaded = _heavy_at_zygote_start(call.format(payload=str(PAYLOAD), schedule=str(SCHEDULE)))
    assert loaded == [], f"imported before the zygote started: {loaded}"


def test_worker_modules_import_light() -> None:
    code = (
        "import sys\n"
        "import schedir.autotune, schedir.autotune.worker, schedir.autotune.compile_pool\n"
        "import schedir.autotune.report, schedir.autotune.store, schedir.autotune.breakdown\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules if m.startswith({HEAVY!r})}}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_fresh_study_compiles_the_default_from_the_start(tmp_path: Path) -> None:
    from tests.unit.autotune.conftest import tune_small

    journal = str(tmp_path / "t.journal")
    fresh = tune_small(budget=3, strategy="random", seed=5, storage=journal)
    assert fresh.breakdown is not None and fresh.breakdown.head_start
    assert any("head start" in step for step in fresh.breakdown.startup)
    default = [r for r in fresh.trials if r.default]
    assert len(default) == 1 and default[0].status == "verified"
    # The head start's compile is the default's: every counted candidate compiled once.
    assert len(fresh.breakdown.compile_wall) == 3
    # A finished study answers from the store: no head start, no compile.
    again = tune_small(budget=3, strategy="random", seed=5, storage=journal)
    assert again.from_store and again.breakdown is not None
    assert not again.breakdown.head_start and not again.breakdown.compile_wall
