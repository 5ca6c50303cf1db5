"""Loop transforms keep the payload's results: unroll, peel and forall_to_for.

Each case tiles a payload so that loops exist, applies the loop transform (trip counts
the factor or step does not divide, factors larger than the trip count, dynamic sizes,
peeling inner loops then outer ones, first-iteration peeling), optionally cleans up with
canonicalization and CSE, compiles for the CPU with `schedir.compile`, and compares with
`schedir.reference.evaluate` on the untransformed payload. Property tests draw trip
counts, tile sizes and factors.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import apply_schedule
from schedir.transform.rewrites.loops.forall_to_for import forall_to_for
from tests.helpers import ANY, run_and_check, schedule_module

FOR = '!transform.op<"scf.for">'


def matmul(m: int | str, n: int | str, k: int | str) -> str:
    def dim(v: int | str) -> str:
        return "?" if v == "?" else str(v)

    a, b, c = (
        f"tensor<{dim(m)}x{dim(k)}xf32>",
        f"tensor<{dim(k)}x{dim(n)}xf32>",
        f"tensor<{dim(m)}x{dim(n)}xf32>",
    )
    return (
        f"  func.func @mm(%A: {a}, %B: {b}, %C: {c}) -> {c} {{\n"
        f"    %0 = linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c}) -> {c}\n"
        f"    return %0 : {c}\n  }}"
    )


def elementwise(n: int) -> str:
    t = f"tensor<{n}xf32>"
    return (
        f"  func.func @ew(%A: {t}, %B: {t}) -> {t} {{\n"
        f"    %0 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], "
        f'iterator_types = ["parallel"]}} ins(%A : {t}) outs(%B : {t}) {{\n'
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %s = arith.mulf %a, %a : f32\n"
        "      %t = arith.addf %s, %b : f32\n"
        "      linalg.yield %t : f32\n"
        f"    }} -> {t}\n    return %0 : {t}\n  }}"
    )


MATCH_MM = (
    f'    %mm = transform.structured.match ops{{["linalg.matmul"]}} in %root : ({ANY}) -> {ANY}\n'
)
MATCH_EW = (
    f'    %ew = transform.structured.match ops{{["linalg.generic"]}} in %root : ({ANY}) -> {ANY}\n'
)
CLEANUP = (
    f'    %func = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
    "    transform.apply_patterns to %func {\n"
    "      transform.apply_patterns.canonicalization\n"
    "      transform.apply_patterns.linalg.tiling_canonicalization\n"
    "      transform.apply_patterns.scf.for_loop_canonicalization\n"
    f"    }} apply_cse : {ANY}\n"
)


def tile3(sizes: str) -> str:
    return (
        MATCH_MM
        + f"    %t, %l0, %l1, %l2 = transform.structured.tile_using_for %mm tile_sizes {sizes}"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n"
    )


def as_for(name: str) -> str:
    return f"    %{name}_f = transform.cast %{name} : {ANY} to {FOR}\n"


def peel(name: str, front: bool = False, tag: str = "p") -> str:
    opt = " peel_front = true" if front else ""
    return as_for(name) + (
        f"    %{tag}_main_{name}, %{tag}_rest_{name} = transform.loop.peel %{name}_f{opt}"
        f" : ({FOR}) -> ({ANY}, {ANY})\n"
    )


@pytest.mark.parametrize("cleanup", [False, True], ids=["raw", "cleanup"])
def test_peel_every_loop_inner_first(cleanup: bool) -> None:
    schedule = tile3("[8, 16, 5]") + peel("l2") + peel("l1") + peel("l0")
    scheduled = run_and_check(
        schedule_module(matmul(37, 53, 29), schedule + (CLEANUP if cleanup else "")), reduction=29
    )
    assert scheduled.count("scf.for") >= 6 or cleanup


def test_peel_then_cleanup_gives_static_full_tiles() -> None:
    # 40 = 5 * 8 needs no peeling; the columns (53 = 3 * 16 + 5) do: the main loop's
    # output tiles become static 8x16, the remainder's 8x5.
    schedule = tile3("[8, 16, 5]") + peel("l1") + CLEANUP
    scheduled = run_and_check(schedule_module(matmul(40, 53, 29), schedule), reduction=29)
    assert "tensor<8x16xf32>" in scheduled
    assert "tensor<8x5xf32>" in scheduled


def test_peel_divisible_loop_fails_silenceably() -> None:
    schedule = tile3("[8, 16, 5]") + peel("l0")
    with pytest.raises(schedir.SchedirError, match="failed to peel the last iteration"):
        schedir.compile(schedule_module(matmul(40, 53, 29), schedule))


def test_peel_dynamic_sizes() -> None:
    schedule = tile3("[8, 16, 4]") + peel("l1") + peel("l0", tag="q") + CLEANUP
    run_and_check(schedule_module(matmul("?", "?", "?"), schedule), reduction=17, dynamic=17)


def test_peel_front() -> None:
    schedule = tile3("[8, 16, 5]") + peel("l2", front=True) + peel("l0", front=True, tag="q")
    run_and_check(schedule_module(matmul(37, 53, 29), schedule), reduction=29)


@pytest.mark.parametrize("factor", [1, 2, 3, 4, 7, 20])
def test_unroll_innermost_reduction_loop(factor: int) -> None:
    schedule = tile3("[8, 16, 3]") + f"    transform.loop.unroll %l2 factor = {factor} : {ANY}\n"
    run_and_check(schedule_module(matmul(19, 21, 29), schedule), reduction=29)


def test_unroll_every_loop_then_cleanup() -> None:
    schedule = (
        tile3("[8, 16, 5]")
        + f"    transform.loop.unroll %l2 factor = 2 : {ANY}\n"
        + f"    transform.loop.unroll %l1 factor = 3 : {ANY}\n"
        + f"    transform.loop.unroll %l0 factor = 4 : {ANY}\n"
        + CLEANUP
    )
    run_and_check(schedule_module(matmul(37, 53, 29), schedule), reduction=29)


def test_unroll_dynamic_bounds() -> None:
    schedule = tile3("[4, 8, 3]") + f"    transform.loop.unroll %l2 factor = 4 : {ANY}\n"
    run_and_check(schedule_module(matmul("?", "?", "?"), schedule), reduction=23, dynamic=23)


def test_peel_then_unroll_main_loop() -> None:
    schedule = (
        tile3("[8, 16, 5]")
        + peel("l2")
        + f"    transform.loop.unroll %p_main_l2 factor = 3 : {ANY}\n"
        + CLEANUP
    )
    run_and_check(schedule_module(matmul(37, 53, 29), schedule), reduction=29)


def _forall_text(n: int, threads: int) -> str:
    """The elementwise payload tiled into a tensor forall (shared_outs), as text."""
    schedule = MATCH_EW + (
        f"    %t, %fa = transform.structured.tile_using_forall %ew num_threads [{threads}]"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    ctx = get_context()
    mod = parse_module(schedule_module(elementwise(n), schedule), "<forall>", ctx=ctx)
    apply_schedule(ctx, mod)
    return print_op(mod)


@pytest.mark.parametrize(("n", "threads"), [(10, 3), (17, 4), (5, 8)])
def test_forall_with_shared_outs_to_for(n: int, threads: int) -> None:
    """The library path for tensor foralls (the transform op refuses them, as upstream)."""
    ctx = get_context()
    mod = parse_module(_forall_text(n, threads), "<forall>", ctx=ctx)
    foralls = [op for op in mod.walk() if op.name == "scf.forall"]
    assert len(foralls) == 1
    result = forall_to_for(foralls[0], allow_shared_outs=True)
    assert len(result.loops) == 1
    mod.verify()
    text = print_op(mod)
    assert "scf.forall" not in text
    kernel = schedir.compile(text)
    inputs = reference.random_inputs(kernel.signature, seed=3)
    expected = reference.evaluate(elementwise(n), "ew", inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    np.testing.assert_allclose(got, expected[0], rtol=1e-6)


def test_forall_to_for_transform_op_after_bufferization() -> None:
    """forall_to_for on a bufferized forall (a memref payload written in place)."""
    payload = """
  func.func @scale(%m: memref<10xf32>) -> memref<10xf32> {
    %o = memref.alloc() : memref<10xf32>
    scf.forall (%i) in (10) {
      %v = memref.load %m[%i] : memref<10xf32>
      %w = arith.mulf %v, %v : f32
      memref.store %w, %o[%i] : memref<10xf32>
    }
    return %o : memref<10xf32>
  }"""
    schedule = (
        f'    %fa = transform.structured.match ops{{["scf.forall"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %l = transform.loop.forall_to_for %fa : ({ANY}) -> {ANY}\n"
        f"    transform.loop.unroll %l factor = 3 : {ANY}\n"
    )
    text = schedule_module(payload, schedule)
    kernel = schedir.compile(text)
    assert "scf.forall" not in kernel.stages["scheduled"]
    x = np.linspace(-2.0, 2.0, 10, dtype=np.float32)
    # The result comes back (a kernel never writes its caller's arrays, DESIGN.md).
    (out,) = kernel.run(x, prefill_nan=True)
    np.testing.assert_allclose(out, x * x, rtol=1e-6)


@settings(max_examples=12)
@given(
    n=st.integers(min_value=1, max_value=40),
    tile=st.integers(min_value=1, max_value=9),
    factor=st.integers(min_value=1, max_value=6),
    peel_first=st.booleans(),
)
def test_property_tile_peel_unroll(n: int, tile: int, factor: int, peel_first: bool) -> None:
    """Any trip count, step and factor: peel (when the step does not divide the range) or
    not, then unroll the main loop, then clean up; results are unchanged."""
    schedule = MATCH_EW + (
        f"    %t, %l = transform.structured.tile_using_for %ew tile_sizes [{tile}]"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    loop = "%l"
    if peel_first and n % tile and tile > 1 and n > tile:
        schedule += peel("l")
        loop = "%p_main_l"
    schedule += f"    transform.loop.unroll {loop} factor = {factor} : {ANY}\n" + CLEANUP.replace(
        "%func", "%fn"
    )
    run_and_check(schedule_module(elementwise(n), schedule), seed=n)
