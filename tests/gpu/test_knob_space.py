"""The tensor-core and reduction schedules' knob spaces on the device: a valid knob point
of a drawn schedule (tests/unit/gpu/test_knob_space_ptx.py's drawing: the tuner's space
and constraints, odd M, N and K within the schedule's limits, f16 and bf16, the bias +
relu epilogue's bias f16 or f32 by column or by row; the reductions at odd rows and short
or long odd columns) compiles, and its kernel's results, written into outputs pre-filled
with NaN, match `schedir.reference` within the per-element bounds of the float64
evaluation; the inputs are unchanged after the run. The tuner verifies every candidate it
measures the same way; this checks that the space holds no point that would fail there."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import Phase, given, settings

import schedir
from schedir import reference
from schedir.diagnostics import TransformError
from tests.helpers import check_kernel
from tests.unit.gpu.test_knob_space_ptx import Case, ReductionCase, knob_cases, reduction_cases

pytestmark = pytest.mark.gpu


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
