"""Upstream MLIR (iree-opt, LLVM 24git) as an oracle for schedir's dialect syntax.

Every round-trip file under tests/filecheck/dialects is printed by schedir and the output
must parse and verify in upstream MLIR. The negative files are also run through upstream's
own `--verify-diagnostics`, so their expected errors are upstream's errors on the same lines.
iree-opt comes with the dev extra; a missing one fails these tests rather than skipping them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

DIALECT_TESTS = Path(__file__).parents[2] / "filecheck" / "dialects"

# Negative files whose diagnostics cannot match upstream's exactly, and why.
UPSTREAM_DIAGNOSTICS_DIFFER = {
    # Upstream reports a bad enum value twice (the value, then the parameter); schedir once.
    "gpu-invalid.mlir": "upstream emits a second error for the same bad attribute parameter",
}


def _tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not Path(found).exists():
        pytest.fail(f"{name} not found: install the dev extra (pip install -e .[dev])")
    return found


def _upstream_has(path: Path) -> bool:
    """False for files marked `UPSTREAM-LACKS:` (iree-opt does not register that dialect
    extension, e.g. the SMT extension of the transform dialect)."""
    return "UPSTREAM-LACKS:" not in path.read_text()


def _roundtrip_files() -> list[Path]:
    return sorted(
        p
        for p in DIALECT_TESTS.glob("*.mlir")
        if not p.stem.endswith("-invalid") and _upstream_has(p)
    )


def _invalid_files() -> list[Path]:
    return sorted(
        p
        for p in DIALECT_TESTS.glob("*-invalid.mlir")
        if p.name not in UPSTREAM_DIAGNOSTICS_DIFFER and _upstream_has(p)
    )


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("path", _roundtrip_files(), ids=lambda p: p.name)
def test_upstream_parses_schedir_output(path: Path, generic: bool) -> None:
    """Both the custom and the generic (`--generic`) forms schedir prints are upstream's."""
    printed = subprocess.run(
        [_tool("schedir-opt"), str(path), *(["--generic"] if generic else [])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert printed.returncode == 0, printed.stderr
    upstream = subprocess.run(
        [_tool("iree-opt"), "-"], input=printed.stdout, capture_output=True, text=True, timeout=120
    )
    assert upstream.returncode == 0, f"upstream rejects schedir's output:\n{upstream.stderr}"


@pytest.mark.parametrize(
    "path",
    [p for p in _roundtrip_files() if not p.stem.endswith("-legacy")],
    ids=lambda p: p.name,
)
def test_upstream_parses_the_input(path: Path) -> None:
    """The round-trip inputs are upstream syntax, not only schedir's (`*-legacy.mlir`
    files hold the pre-LLVM-24 spellings schedir still accepts, which upstream rejects)."""
    upstream = subprocess.run(
        [_tool("iree-opt"), str(path)], capture_output=True, text=True, timeout=120
    )
    assert upstream.returncode == 0, upstream.stderr


@pytest.mark.parametrize("path", _invalid_files(), ids=lambda p: p.name)
def test_upstream_agrees_with_expected_errors(path: Path) -> None:
    upstream = subprocess.run(
        [_tool("iree-opt"), str(path), "--split-input-file", "--verify-diagnostics"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert upstream.returncode == 0, upstream.stderr
