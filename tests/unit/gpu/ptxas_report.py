"""ptxas -v's resource report of PTX text, for the tests that check registers, spills and
shared memory without a GPU."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path


def ptxas_log(ptx: str, ptxas: Path, arch: str = "sm_90") -> str:
    """What `ptxas -v` reports (registers, spills, shared memory) assembling `ptx`."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "kernel.ptx"
        source.write_text(ptx)
        done = subprocess.run(
            [str(ptxas), f"-arch={arch}", "-v", str(source), "-o", str(source.with_suffix(".o"))],
            capture_output=True,
            text=True,
            check=True,
        )
    return done.stdout + done.stderr
