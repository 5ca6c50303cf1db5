"""`loop.fuse_sibling` keeps the payload's results: sibling `scf.for` loops written with
generated bounds and steps (odd, not dividing the range), and loops tiled out of two
linalg ops by `tile_using_for` (then CSE'd, so their bounds are the same SSA values) or
`tile_using_forall`, fused in either direction, compiled for the CPU and compared with
`schedir.reference` on the unfused payload.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module


def _split_and_fuse(op: str, later_into_earlier: bool, root: str = "%root") -> str:
    first, second = ("%l2", "%l1") if later_into_earlier else ("%l1", "%l2")
    return (
        match("%loops", op, root=root)
        + f"    %l1, %l2 = transform.split_handle %loops : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %fused = transform.loop.fuse_sibling {first} into {second} : ({ANY}, {ANY}) -> {ANY}\n"
    )


def scalar_loops(size: int, lb: int, ub: int, step: int) -> str:
    """Two loops over the same range: one scales `%x` into `%p`, one adds `%y` into `%q`
    (elements outside the range keep their input values)."""
    t = f"tensor<{size}xf32>"
    return f"""  func.func @loops(%x: {t}, %y: {t}, %p: {t}, %q: {t}) -> ({t}, {t}) {{
    %lb = arith.constant {lb} : index
    %ub = arith.constant {ub} : index
    %step = arith.constant {step} : index
    %k = arith.constant 1.5 : f32
    %r1 = scf.for %i = %lb to %ub step %step iter_args(%acc = %p) -> ({t}) {{
      %e = tensor.extract %x[%i] : {t}
      %s = arith.mulf %e, %k : f32
      %o = tensor.insert %s into %acc[%i] : {t}
      scf.yield %o : {t}
    }}
    %r2 = scf.for %i = %lb to %ub step %step iter_args(%acc = %q) -> ({t}) {{
      %e = tensor.extract %y[%i] : {t}
      %a = tensor.extract %acc[%i] : {t}
      %s = arith.addf %e, %a : f32
      %o = tensor.insert %s into %acc[%i] : {t}
      scf.yield %o : {t}
    }}
    return %r1, %r2 : {t}, {t}
  }}"""


@st.composite
def loop_ranges(draw: st.DrawFn) -> tuple[int, int, int, int]:
    size = draw(st.integers(1, 13))
    lb = draw(st.integers(0, size - 1))
    ub = draw(st.integers(lb, size))
    step = draw(st.integers(1, 5))
    return size, lb, ub, step


@settings(max_examples=8)
@given(ranges=loop_ranges(), later_into_earlier=st.booleans())
def test_fused_scalar_loops_keep_results(
    ranges: tuple[int, int, int, int], later_into_earlier: bool
) -> None:
    scheduled = run_and_check(
        schedule_module(scalar_loops(*ranges), _split_and_fuse("scf.for", later_into_earlier))
    )
    assert scheduled.count("scf.for") == 1


def two_matmuls(m: int, n: int, k: int) -> str:
    """Two matmuls sharing A and the zero-filled accumulator, with different B."""
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return f"""  func.func @mms(%A: {a}, %B1: {b}, %B2: {b}) -> ({c}, {c}) {{
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : {c}
    %acc = linalg.fill ins(%zero : f32) outs(%init : {c}) -> {c}
    %m1 = linalg.matmul ins(%A, %B1 : {a}, {b}) outs(%acc : {c}) -> {c}
    %m2 = linalg.matmul ins(%A, %B2 : {a}, {b}) outs(%acc : {c}) -> {c}
    return %m1, %m2 : {c}, {c}
  }}"""


def tiled_schedule(tile: int, forall: bool, later_into_earlier: bool) -> str:
    if forall:
        tiling = (
            f"    %t1, %f1 = transform.structured.tile_using_forall %mm1 tile_sizes [{tile}] "
            f": ({ANY}) -> ({ANY}, {ANY})\n"
            f"    %t2, %f2 = transform.structured.tile_using_forall %mm2 tile_sizes [{tile}] "
            f": ({ANY}) -> ({ANY}, {ANY})\n"
        )
        loops = "scf.forall"
    else:
        tiling = (
            f"    %t1, %f1 = transform.structured.tile_using_for %mm1 tile_sizes [{tile}] "
            f": ({ANY}) -> ({ANY}, {ANY})\n"
            f"    %t2, %f2 = transform.structured.tile_using_for %mm2 tile_sizes [{tile}] "
            f": ({ANY}) -> ({ANY}, {ANY})\n"
            + match("%func", "func.func")
            # The two loops' bounds are distinct constants until CSE merges them.
            + f"    transform.apply_cse to %func : {ANY}\n"
        )
        loops = "scf.for"
    return (
        match("%mm", "linalg.matmul")
        + f"    %mm1, %mm2 = transform.split_handle %mm : ({ANY}) -> ({ANY}, {ANY})\n"
        + tiling
        + _split_and_fuse(loops, later_into_earlier)
    )


@pytest.mark.parametrize("forall", [False, True])
@pytest.mark.parametrize(("m", "n", "k", "tile"), [(13, 7, 9, 4), (5, 3, 11, 5), (7, 5, 3, 7)])
def test_fused_tile_loops_keep_results(m: int, n: int, k: int, tile: int, forall: bool) -> None:
    for later_into_earlier in (False, True):
        scheduled = run_and_check(
            schedule_module(two_matmuls(m, n, k), tiled_schedule(tile, forall, later_into_earlier))
        )
        loop = "scf.forall" if forall else "scf.for"
        assert scheduled.count(f"{loop} ") == 1, scheduled


@settings(max_examples=6)
@given(
    m=st.integers(1, 13),
    n=st.integers(1, 7),
    tile=st.integers(1, 6),
    forall=st.booleans(),
    later_into_earlier=st.booleans(),
)
def test_fused_tile_loops_property(
    m: int, n: int, tile: int, forall: bool, later_into_earlier: bool
) -> None:
    run_and_check(
        schedule_module(two_matmuls(m, n, 5), tiled_schedule(tile, forall, later_into_earlier))
    )
