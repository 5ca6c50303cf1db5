"""`apply_patterns.vector.lower_multi_reduction` keeps the payload's results: row and
column reductions of odd sizes vectorized with `structured.vectorize`, their
`vector.multi_reduction`s lowered with each strategy, compiled for the CPU and compared with
`schedir.reference`.
"""

from __future__ import annotations

import pytest

from tests.helpers import ANY, match, run_and_check, schedule_module


def reduction(rows: int, cols: int, reduced: int) -> str:
    out = rows if reduced == 1 else cols
    kept = "d0" if reduced == 1 else "d1"
    iterators = '"parallel", "reduction"' if reduced == 1 else '"reduction", "parallel"'
    return (
        f"  func.func @red(%A: tensor<{rows}x{cols}xf32>, %B: tensor<{out}xf32>) -> tensor<{out}xf32> {{\n"
        "    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        f"affine_map<(d0, d1) -> ({kept})>], iterator_types = [{iterators}]}} "
        f"ins(%A : tensor<{rows}x{cols}xf32>) outs(%B : tensor<{out}xf32>) {{\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %s = arith.addf %a, %b : f32\n"
        "      linalg.yield %s : f32\n"
        f"    }} -> tensor<{out}xf32>\n    return %0 : tensor<{out}xf32>\n  }}"
    )


@pytest.mark.parametrize("strategy", ["innerreduction", "innerparallel"])
@pytest.mark.parametrize("reduced", [0, 1])
def test_lower_multi_reduction(strategy: str, reduced: int) -> None:
    schedule = (
        match("%op", "linalg.generic")
        + f"    transform.structured.vectorize %op : {ANY}\n"
        + match("%f", "func.func")
        + "    transform.apply_patterns to %f {\n"
        f'      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "{strategy}"\n'
        f"    }} : {ANY}\n"
    )
    scheduled = run_and_check(schedule_module(reduction(5, 7, reduced), schedule))
    assert "vector.multi_reduction" not in scheduled
