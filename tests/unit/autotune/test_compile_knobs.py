"""`schedir.compile(..., knobs=...)`: the selections reach the schedule that is applied."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from schedir.diagnostics import InputError

ROOT = Path(__file__).resolve().parents[3]
PAYLOAD = ROOT / "examples" / "matmul_cpu.mlir"
SCHEDULE = ROOT / "schedules" / "matmul_cpu.mlir"


def _scheduled(knobs: dict[str, int] | None) -> str:
    kernel = schedir.compile(PAYLOAD, schedule=SCHEDULE, knobs=knobs)
    return kernel.stages["scheduled"]


def test_a_selection_changes_the_tiles_and_the_default_is_the_written_one() -> None:
    default = _scheduled(None)
    assert _scheduled({"block_n": 1024}) == default  # 1024 is the selected value
    changed = _scheduled({"block_n": 64})
    assert changed != default


@pytest.mark.parametrize(
    ("knobs", "needle"), [({"no_such_knob": 1}, "no_such_knob"), ({"block_n": 48}, "48")]
)
def test_unknown_knobs_and_values_are_input_errors(knobs: dict[str, int], needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        _scheduled(knobs)
