"""Every example payload runs with --check and matches the reference; every script runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from schedir.cli import run_main

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize("payload", sorted(EXAMPLES.glob("*.mlir")), ids=lambda p: p.name)
def test_example_payload_checks(payload: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = run_main([str(payload), "--check", "--seed", "3"])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "check: OK" in out or "check: result 0: OK" in out, out


@pytest.mark.parametrize("script", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
def test_example_script_runs(script: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr
