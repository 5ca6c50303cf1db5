"""Every example payload runs with --check and matches the reference; every script runs.

A `<name>_cpu.mlir` example runs with its schedule `schedules/<name>_cpu.mlir` (the
`_cuda` ones run here unscheduled: their schedules need a GPU, tests/gpu runs them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from schedir.cli import run_main

EXAMPLES = Path(__file__).parent.parent / "examples"
SCHEDULES = EXAMPLES.parent / "schedules"


def schedule_args(payload: Path) -> list[str]:
    """`--schedule` for a CPU example that has a schedule of its name."""
    schedule = SCHEDULES / payload.name
    if payload.stem.endswith("_cpu") and schedule.exists():
        return ["--schedule", str(schedule)]
    return []


@pytest.mark.parametrize("payload", sorted(EXAMPLES.glob("*.mlir")), ids=lambda p: p.name)
def test_example_payload_checks(payload: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = run_main([str(payload), *schedule_args(payload), "--check", "--seed", "3"])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "check: OK" in out or "check: result 0: OK" in out, out


def test_cpu_examples_have_schedules() -> None:
    cpu = sorted(p.name for p in EXAMPLES.glob("*_cpu.mlir"))
    assert cpu, "no CPU examples"
    assert cpu == sorted(p.name for p in SCHEDULES.glob("*_cpu.mlir"))


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_example_script_runs(script: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
