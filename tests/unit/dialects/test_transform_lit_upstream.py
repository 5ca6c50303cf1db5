"""The transform lit tests' expected diagnostics are upstream's: iree-opt's own
`--verify-diagnostics` passes on every negative file under
tests/filecheck/dialects/transform (the same files lit runs through schedir-opt)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from test_transform_helpers import tool

TRANSFORM_LIT = Path(__file__).parents[2] / "filecheck" / "dialects" / "transform"


@pytest.mark.parametrize("path", sorted(TRANSFORM_LIT.glob("*-invalid.mlir")), ids=lambda p: p.name)
def test_upstream_agrees_with_expected_diagnostics(path: Path) -> None:
    result = subprocess.run(
        [tool("iree-opt"), "--split-input-file", "--verify-diagnostics", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr


def test_there_are_negative_lit_files() -> None:
    assert list(TRANSFORM_LIT.glob("*-invalid.mlir"))
