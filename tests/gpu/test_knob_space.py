"""The tensor-core and reduction schedules' knob spaces on the device: a valid knob point
of a drawn schedule (tests/unit/gpu/test_knob_space_ptx.py's drawing: the tuner's space
and constraints, odd M, N and K within the schedule's limits, f16 and bf16, the bias +
relu epilogue's bias f16 or f32 by column or by row; the reductions at odd rows and short
or long odd columns) compiles, and its kernel's results, written into outputs pre-filled
with NaN, match `schedir.reference` within the per-element bounds of the float64
evaluation; the inputs are unchanged after the run. The tuner verifies every candidate it
measures the same way; this checks that the space holds no point that would fail there."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings

import schedir
from schedir import reference
from schedir.diagnostics import TransformError
from tests.gpu.test_matmul_wgmma import f16_out_payload
from tests.helpers import check_kernel
from tests.unit.gpu.test_knob_space_ptx import Case, ReductionCase, knob_cases, reduction_cases

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]


# No shrinking: each step would compile and run another kernel; the failing case is
# reported whole (schedule, sizes, knobs).
@settings(max_examples=14, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(case=knob_cases())
def test_a_valid_point_matches_the_reference(case: Case) -> None:
    _check(case.compile(), case)


@settings(max_examples=8, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(case=reduction_cases())
def test_a_reduction_point_matches_the_reference(case: ReductionCase) -> None:
    """A point whose region's precondition fails at the size is pruned (the PTX test checks
    that it is a located error the tuner prunes): nothing to run."""
    try:
        kernel = case.compile()
    except TransformError as err:
        if err.silenceable or err.escalated:
            return
        raise
    _check(kernel, case)


def _check(kernel: schedir.Kernel, case: Case | ReductionCase) -> None:
    """Run `kernel` on seeded non-zero inputs (outputs pre-filled with NaN), compare with
    the reference, and check that the inputs did not change."""
    inputs = reference.random_inputs(kernel.signature, seed=sum(case.size))
    before = [a.copy() for a in inputs]
    check_kernel(kernel, case.payload(), inputs=inputs)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"an input changed: {case}")


_KNOB = re.compile(r'(transform\.tune\.knob<"(\w+)">) = (\d+) from options = \[[^\]]*\]')


def _narrowed(text: str, options: dict[str, tuple[int, ...]]) -> str:
    """The schedule `text` with each named knob's options narrowed to `options[name]` (the
    first selected) and every other integer knob pinned to its selection."""

    def narrow(found: re.Match[str]) -> str:
        values = options.get(found.group(2), (int(found.group(3)),))
        return f"{found.group(1)} = {values[0]} from options = [{', '.join(map(str, values))}]"

    narrowed, count = _KNOB.subn(narrow, text)
    assert count >= len(options), text
    return narrowed


def test_the_tuner_never_measures_a_spilling_candidate(tmp_path: Path) -> None:
    """A tuning run of matmul_f16_cuda over four points (producer_registers 24 or 40, a
    persistent grid of 132 blocks or a block per tile; one consumer of 128 x 128, 4 stages):
    the persistent producer of 24 registers spills (test_knob_space_ptx), so it is pruned
    (or, once the constraints reject it, never a candidate): never measured, never the
    winner; the others are verified against the reference."""
    schedule = REPO / "schedules" / "matmul_f16_cuda.mlir"
    narrowed = _narrowed(
        schedule.read_text(),
        {
            "block_m": (128,),
            "block_n": (128,),
            "stages": (4,),
            "consumers": (1,),
            "producer_registers": (40, 24),
            "persistent": (132, 0),
        },
    )
    (tmp_path / "s.mlir").write_text(narrowed)
    (tmp_path / "p.mlir").write_text(f16_out_payload(331, 264, 1016))
    result = schedir.tune(
        str(tmp_path / "p.mlir"),
        schedule=str(tmp_path / "s.mlir"),
        target="cuda",
        budget=4,
        strategy="exhaustive",
        peer=False,
    )
    status: dict[tuple[object, object], str] = {}
    for record in result.trials:
        point = json.loads(record.point)
        status[point["producer_registers"], point["persistent"]] = record.status
    assert status.get((24, 132), "invalid") in ("pruned", "invalid"), result.trials
    assert status[40, 132] == status[40, 0] == "verified", result.trials
    assert (result.knobs["producer_registers"], result.knobs["persistent"]) != (24, 132)
