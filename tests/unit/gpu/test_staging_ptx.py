"""The TMA staging kernels (schedir/gpu/staging.py) assemble for sm_90, and a staging is
copied in the widest unit that every address, pitch and row size allows."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from schedir.gpu.staging import STAGE_PTX, UNITS, unit_of
from schedir.gpu.tma import Staging


def test_staging_kernels_assemble_without_stack(ptxas: Path, tmp_path: Path) -> None:
    source = tmp_path / "stage.ptx"
    source.write_text(STAGE_PTX)
    done = subprocess.run(
        [str(ptxas), "-arch=sm_90", "-v", str(source), "-o", str(tmp_path / "stage.cubin")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for unit in UNITS:
        assert f"Compiling entry function 'schedir_stage_rows_{8 * unit}'" in done.stderr
    assert done.stderr.count("0 bytes stack frame, 0 bytes spill stores") == len(UNITS)


@given(
    source=st.integers(0, 1 << 20),
    extra=st.integers(0, 40),
    row_bytes=st.integers(1, 5000),
    destination=st.integers(0, 1 << 16).map(lambda v: v * 256),
)
def test_unit_divides_everything_and_is_the_widest(
    source: int, extra: int, row_bytes: int, destination: int
) -> None:
    pitch = -(-row_bytes // 16) * 16
    staging = Staging(source, row_bytes + extra, 3, row_bytes, pitch)
    unit = unit_of(staging, destination)
    values = (source, row_bytes + extra, row_bytes, pitch, destination)
    assert all(v % unit == 0 for v in values)
    wider = [u for u in UNITS if u > unit]
    assert all(any(v % u for v in values) for u in wider)
