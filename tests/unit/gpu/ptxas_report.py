"""ptxas -v's resource report of PTX text, for the tests that check registers, spills and
shared memory without a GPU."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from schedir.gpu import assemble
from schedir.gpu.ptx import serialization_warnings


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


def assert_assembles_cleanly(ptx: str, ptxas: Path) -> None:
    """`ptx` assembles for sm_90a (a cubin) without serializing its wgmma (C751x), without
    any other C75xx warning (C7508: setmaxnreg ignored without launch bounds) and without
    spills."""
    cubin = assemble(ptx, "sm_90a", ptxas=ptxas)  # raises on C751x warnings
    assert cubin[:4] == b"\x7fELF"
    log = ptxas_log(ptx, ptxas, "sm_90a")
    assert not serialization_warnings(log), log
    assert "C75" not in log, log
    spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
    assert spills and all(s == ("0", "0") for s in spills), log
