"""GPU schedules written as upstream writes them (tests/upstream_gpu.py: blocks, threads,
One-Shot Bufferize with function boundaries and no layout option, map_forall_to_blocks
generate_gpu_launch, map_nested_forall_to_threads) run on the device at odd sizes and
match `schedir.reference`; inputs are never modified, also the argument the payload
writes in place."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.cli import run_main
from tests.helpers import check_results
from tests.upstream_gpu import CASES, Case

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.kind}-{'x'.join(map(str, c.sizes))}")
@pytest.mark.parametrize("seed", [3, 11])
def test_upstream_schedule_matches_the_reference(case: Case, seed: int) -> None:
    kernel = schedir.compile(case.text, target="cuda")
    inputs = reference.random_inputs(kernel.signature, seed)
    before = [np.copy(a) for a in inputs]
    expected = reference.evaluate_with_bounds(case.text, kernel.signature.name, inputs)
    results = kernel.run(*inputs, prefill_nan=True)
    dtypes = [spec.dtype for spec in kernel.signature.results]
    check_results(results, expected, dtypes, where=f" ({case})")
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_upstream_schedule_from_the_cli(tmp_path: Path) -> None:
    path = tmp_path / "matmul.mlir"
    path.write_text(CASES[0].text)
    assert run_main([str(path), "--target", "cuda", "--check"]) == 0
