"""benchmarks/cpu.py compiles matmul_cpu with the register tile meant for the host's
instruction set: the schedule's selected 6x64 on AVX-512 (its 32 registers of 16 floats
hold the 24 accumulators), 6x16 on AVX2 without AVX-512 (whose 16 registers of 8 floats
would spill 6x64's 48), and the selection for a host with neither.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
SCHEDULE = ROOT / "schedules" / "matmul_cpu.mlir"


@pytest.fixture(scope="module")
def cpu_bench() -> Any:
    """benchmarks/cpu.py as a module; the thread limits it sets at import are undone."""
    saved = dict(os.environ)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        return importlib.import_module("cpu")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
        os.environ.clear()
        os.environ.update(saved)


def _selected(knob: str) -> int:
    found = re.search(rf'knob<"{knob}"> = (\d+)', SCHEDULE.read_text())
    assert found, knob
    return int(found.group(1))


def test_avx512_hosts_compile_the_selected_6x64(cpu_bench: Any) -> None:
    assert (_selected("reg_m"), _selected("reg_n")) == (6, 64)
    assert cpu_bench.host_knobs("matmul", "+avx,+avx2,+fma,+avx512f,+avx512bw") == {}


@pytest.mark.parametrize("features", ["+avx,+avx2,+fma", "+sse4.2,+avx,+avx2,-avx512f"])
def test_avx2_hosts_compile_6x16(cpu_bench: Any, features: str) -> None:
    assert cpu_bench.host_knobs("matmul", features) == {"reg_m": 6, "reg_n": 16}


def test_other_cases_and_hosts_keep_the_selection(cpu_bench: Any) -> None:
    assert cpu_bench.host_knobs("softmax", "+avx2,+fma") == {}
    assert cpu_bench.host_knobs("matmul", "+sse4.2") == {}
