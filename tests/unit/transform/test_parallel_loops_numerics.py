"""`loop.forall_to_parallel` and `loop.parallel_for_to_nested_fors` keep the payload's
results: a matmul tiled with `tile_using_forall` (tile sizes that do not divide the odd
sizes), bufferized, its forall turned into an `scf.parallel` (and then into an `scf.for`
nest), compiled for the CPU and compared with `schedir.reference`.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module

BUFFERIZE = (
    f"    %bm = transform.bufferization.one_shot_bufferize layout{{IdentityLayoutMap}} %root "
    f"<{{bufferize_function_boundaries = true}}> : ({ANY}) -> {ANY}\n"
)


def matmul(m: int, n: int, k: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return (
        f"  func.func @mm(%A: {a}, %B: {b}, %C: {c}) -> {c} {{\n"
        f"    %0 = linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c}) -> {c}\n"
        f"    return %0 : {c}\n  }}"
    )


def schedule(tiles: tuple[int, int], nested: bool) -> str:
    text = (
        match("%mm", "linalg.matmul")
        + f"    %t, %f = transform.structured.tile_using_forall %mm tile_sizes [{tiles[0]}, "
        f"{tiles[1]}] : ({ANY}) -> ({ANY}, {ANY})\n"
        + BUFFERIZE
        + match("%forall", "scf.forall", root="%bm")
        + f"    %p = transform.loop.forall_to_parallel %forall : ({ANY}) -> {ANY}\n"
    )
    if nested:
        text += f"    %n = transform.loop.parallel_for_to_nested_fors %p : ({ANY}) -> {ANY}\n"
    return text


@pytest.mark.parametrize("nested", [False, True])
@pytest.mark.parametrize(("m", "n", "k", "tiles"), [(13, 7, 9, (4, 3)), (5, 11, 3, (2, 0))])
def test_forall_to_parallel(m: int, n: int, k: int, tiles: tuple[int, int], nested: bool) -> None:
    scheduled = run_and_check(
        schedule_module(matmul(m, n, k), schedule(tiles, nested), consumed=True)
    )
    assert "scf.forall" not in scheduled
    assert ("scf.parallel" in scheduled) != nested


@settings(max_examples=6)
@given(m=st.integers(1, 11), n=st.integers(1, 11), tm=st.integers(1, 5), tn=st.integers(1, 5))
def test_forall_to_parallel_property(m: int, n: int, tm: int, tn: int) -> None:
    run_and_check(schedule_module(matmul(m, n, 3), schedule((tm, tn), True), consumed=True))
