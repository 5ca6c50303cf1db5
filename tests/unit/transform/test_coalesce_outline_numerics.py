"""`transform.loop.coalesce` and `transform.loop.outline` keep the payload's results.

A matmul tiled by `tile_using_for` gives a perfect `scf.for` nest carrying a tensor; the
nest (or its inner band) is coalesced into one loop at trip counts the tile sizes do not
divide, static and dynamic, or a loop is outlined into a function and called. Each case
compiles for the CPU and compares with `schedir.reference` on the untransformed payload.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import ANY, check_kernel, run_and_check, schedule_module
from tests.unit.transform.test_loops_numerics import matmul, tile3


def coalesce(handle: str) -> str:
    return f"    %co = transform.loop.coalesce {handle} : ({ANY}) -> {ANY}\n"


@pytest.mark.parametrize("root", ["%l0", "%l1"])
@pytest.mark.parametrize("sizes, dims", [("[3, 4, 5]", (7, 9, 11)), ("[2, 5, 3]", (5, 13, 7))])
def test_coalesce_odd_trip_counts(root: str, sizes: str, dims: tuple[int, int, int]) -> None:
    """The whole nest (`%l0`) or its inner band (`%l1`) becomes one loop."""
    m, n, k = dims
    ir = run_and_check(schedule_module(matmul(m, n, k), tile3(sizes) + coalesce(root)), reduction=k)
    assert ir.count("scf.for") == (1 if root == "%l0" else 2)
    assert "floordiv" in ir and "mod" in ir


def test_coalesce_dynamic_trip_counts() -> None:
    """Trip counts known only at run time: products and divisions by symbols."""
    schedule = tile3("[3, 4, 5]") + coalesce("%l0")
    ir = run_and_check(schedule_module(matmul("?", "?", "?"), schedule), dynamic=11, reduction=11)
    assert ir.count("scf.for") == 1
    assert "ceildiv" in ir


@settings(max_examples=8)
@given(
    m=st.integers(1, 9),
    n=st.integers(1, 9),
    k=st.integers(1, 9),
    tiles=st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    root=st.sampled_from(["%l0", "%l1"]),
)
def test_coalesce_property(m: int, n: int, k: int, tiles: tuple[int, int, int], root: str) -> None:
    sizes = "[" + ", ".join(map(str, tiles)) + "]"
    run_and_check(schedule_module(matmul(m, n, k), tile3(sizes) + coalesce(root)), reduction=k)


@pytest.mark.parametrize("target", ["%l0", "%l1", "%l2"])
def test_outline_loop(target: str) -> None:
    """The outlined loop runs as a call with its captured values as arguments."""
    schedule = tile3("[3, 4, 5]") + (
        f'    %f, %c = transform.loop.outline {target} func_name = "body"'
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    kernel = schedir.compile(schedule_module(matmul(7, 9, 11), schedule), entry="mm")
    check_kernel(kernel, matmul(7, 9, 11), reduction=11)
    assert "func.call @body(" in kernel.stages["scheduled"]


def test_coalesce_single_loop_fails() -> None:
    """The innermost loop (nothing nested) is not coalesced: upstream's silenceable failure."""
    schedule = tile3("[3, 4, 5]") + coalesce("%l2")
    with pytest.raises(schedir.SchedirError, match="failed to coalesce"):
        schedir.compile(schedule_module(matmul(7, 9, 11), schedule))
