"""Schedules are programs you can replay (STYLE.md): for every schedule of `schedules/` (on
its example payload) and every reference schedule with an embedded or separate schedule,
print -> parse -> apply gives the same payload as applying the original.

The check is on the printed payload after the schedule, so it covers every transform op's
printer and parser (current spelling) together with the interpreter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import apply_schedule, has_schedule

ROOT = Path(__file__).parents[3]
SCHEDULES = ROOT / "schedules"
EXAMPLES = ROOT / "examples"
REFERENCE = ROOT / "tests" / "data" / "reference_schedules"

# (payload, schedule library or None when the payload embeds its schedule)
CASES = [
    pytest.param(EXAMPLES / path.name, path, id=path.stem)
    for path in sorted(SCHEDULES.glob("*.mlir"))
] + [
    pytest.param(REFERENCE / "a_matmul_bias_relu_tile_fuse.mlir", None, id="ref_a"),
    pytest.param(REFERENCE / "b_matmul_bias_relu_gpu.mlir", None, id="ref_b"),
    pytest.param(REFERENCE / "c_softmax_rows.mlir", None, id="ref_c"),
    pytest.param(REFERENCE / "d_matmul_bias_relu_gpu_vectorized.mlir", None, id="ref_d"),
    pytest.param(REFERENCE / "e_payload.mlir", REFERENCE / "e_schedule.mlir", id="ref_e"),
]


def _scheduled(payload_text: str, schedule_text: str | None) -> str:
    """The printed payload after applying the schedule (embedded when `schedule_text` is None)."""
    ctx = get_context()
    module = parse_module(payload_text, "<payload>", ctx=ctx)
    library = None if schedule_text is None else parse_module(schedule_text, "<schedule>", ctx=ctx)
    assert apply_schedule(ctx, module, library)
    return print_op(module)


def _reprinted_schedule(payload_text: str, schedule_text: str | None) -> tuple[str, str | None]:
    """The payload and schedule after one print -> parse of the schedule."""
    ctx = get_context()
    if schedule_text is not None:
        return payload_text, print_op(parse_module(schedule_text, "<schedule>", ctx=ctx))
    module = parse_module(payload_text, "<payload>", ctx=ctx)
    assert has_schedule(module)
    return print_op(module), None  # payload and embedded schedule, printed together


@pytest.mark.parametrize(("payload", "schedule"), CASES)
def test_print_parse_apply_gives_the_same_payload(payload: Path, schedule: Path | None) -> None:
    payload_text = payload.read_text()
    schedule_text = None if schedule is None else schedule.read_text()
    original = _scheduled(payload_text, schedule_text)
    replayed = _scheduled(*_reprinted_schedule(payload_text, schedule_text))
    assert replayed == original
