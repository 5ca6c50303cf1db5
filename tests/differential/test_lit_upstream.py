"""Every transform lit test must give upstream's diagnostics, at the same lines.

Each file under tests/filecheck/transform/ is run through upstream MLIR's transform
interpreter (iree-opt) with `--split-input-file --verify-diagnostics`: every expected-error
and expected-note written for schedir must be produced by upstream too, and upstream must
produce nothing else. A file that uses something upstream's build lacks (e.g. the tune
extension) says so on a line `// UPSTREAM-LACKS: <reason>` and is not run.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import iree_opt

LIT_TRANSFORM = Path(__file__).parents[1] / "filecheck" / "transform"
FILES = sorted(p for p in LIT_TRANSFORM.glob("*.mlir") if "UPSTREAM-LACKS:" not in p.read_text())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_upstream_gives_the_same_diagnostics(path: Path) -> None:
    result = subprocess.run(
        [
            iree_opt(),
            "--transform-interpreter",
            "--split-input-file",
            "--verify-diagnostics",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"upstream disagrees with {path.name}:\n{result.stderr}"
