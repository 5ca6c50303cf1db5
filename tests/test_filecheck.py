"""Runs the lit + filecheck IR tests under tests/filecheck as part of pytest."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LIT_DIR = Path(__file__).parent / "filecheck"


def _lit_tests() -> list[Path]:
    return sorted(p for p in LIT_DIR.rglob("*.mlir") if "Inputs" not in p.parts)


@pytest.mark.parametrize("test", _lit_tests(), ids=lambda p: str(p.relative_to(LIT_DIR)))
def test_lit(test: Path, tmp_path: Path) -> None:
    lit = shutil.which("lit") or str(Path(sys.executable).parent / "lit")
    env = {**os.environ, "SCHEDIR_LIT_EXEC_ROOT": str(tmp_path)}
    result = subprocess.run(
        [lit, "-v", "-q", str(test)], capture_output=True, text=True, timeout=300, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
