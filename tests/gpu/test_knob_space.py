"""The tensor-core schedules' knob spaces on the device: a valid knob point of a drawn
schedule (tests/unit/gpu/test_knob_space_ptx.py's drawing: the tuner's space and
constraints, odd M, N and K within the schedule's limits, f16 and bf16, the bias + relu
epilogue's bias f16 or f32 by column or by row) compiles, and its kernel's results,
written into outputs pre-filled with NaN, match `schedir.reference` within the
per-element bounds of the float64 evaluation; the inputs are unchanged after the run. The
tuner verifies every candidate it measures the same way; this checks that the space holds
no point that would fail there."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, given, settings

from schedir import reference
from tests.helpers import check_kernel
from tests.unit.gpu.test_knob_space_ptx import Case, knob_cases

pytestmark = pytest.mark.gpu


# No shrinking: each step would compile and run another kernel; the failing case is
# reported whole (schedule, sizes, knobs).
@settings(max_examples=16, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(case=knob_cases())
def test_a_valid_point_matches_the_reference(case: Case) -> None:
    kernel = case.compile()
    m, n, k = case.size
    inputs = reference.random_inputs(kernel.signature, seed=m + n + k)
    before = [a.copy() for a in inputs]
    check_kernel(kernel, case.payload(), inputs=inputs)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b, err_msg=f"an input changed: {case}")
