"""`loop.unroll_and_jam` and `loop.unroll_full` keep the payload's results.

The payload is a bufferized loop nest (an outer `scf.for` over rows whose body holds ops
before, between and after two inner loops, one carrying a reduction in iter_args), so the
jam has sub-blocks at every level and an inner loop to widen. Each case compiles for the
CPU and compares with `schedir.reference.evaluate` on the untransformed payload; property
tests draw the row count, the column count and the factor (divisors, factors above the trip
count, and factors that do not divide it, which must fail without changing anything).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from tests.helpers import ANY, schedule_module

FOR = '!transform.op<"scf.for">'


def nest(rows: int, cols: int) -> str:
    """out[i] = sum_j A[i, j] * A[i, j] + A[i, 0] * i, then row i of B scaled by out[i]."""
    a, b, o = f"memref<{rows}x{cols}xf32>", f"memref<{rows}x{cols}xf32>", f"memref<{rows}xf32>"
    return f"""
  func.func @nest(%A: {a}) -> ({o}, {b}) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant {rows} : index
    %cols = arith.constant {cols} : index
    %out = memref.alloc() : {o}
    %B = memref.alloc() : {b}
    scf.for %i = %c0 to %rows step %c1 {{
      %first = memref.load %A[%i, %c0] : {a}
      %ii = arith.index_cast %i : index to i32
      %fi = arith.sitofp %ii : i32 to f32
      %init = arith.mulf %first, %fi : f32
      %sum = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %init) -> (f32) {{
        %x = memref.load %A[%i, %j] : {a}
        %sq = arith.mulf %x, %x : f32
        %next = arith.addf %acc, %sq : f32
        scf.yield %next : f32
      }}
      memref.store %sum, %out[%i] : {o}
      scf.for %j = %c0 to %cols step %c1 {{
        %x = memref.load %A[%i, %j] : {a}
        %y = arith.mulf %x, %sum : f32
        memref.store %y, %B[%i, %j] : {b}
      }}
    }}
    return %out, %B : {o}, {b}
  }}"""


def outer_loop_schedule(op: str) -> str:
    """Apply `op` (a line using `%outer`) to the outer loop only (`match` lists post-order)."""
    return (
        f'    %all = transform.structured.match ops{{["scf.for"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %rest:2, %outer_any = transform.split_handle %all : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
        f"    %outer = transform.cast %outer_any : {ANY} to {FOR}\n" + op
    )


def check(rows: int, cols: int, schedule: str) -> str:
    payload = schedule_module(nest(rows, cols), "")
    kernel = schedir.compile(schedule_module(nest(rows, cols), schedule))
    inputs = reference.random_inputs(kernel.signature, seed=rows * 31 + cols)
    expected = reference.evaluate(payload, "nest", inputs)
    got = kernel.run(*inputs, prefill_nan=True)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5)
    return kernel.stages["scheduled"]


@pytest.mark.parametrize(("rows", "factor"), [(6, 2), (6, 3), (9, 9), (5, 7), (1, 4), (12, 4)])
def test_unroll_and_jam_outer_loop(rows: int, factor: int) -> None:
    scheduled = check(
        rows,
        7,
        outer_loop_schedule(
            f"    transform.loop.unroll_and_jam %outer factor = {factor} : {FOR}\n"
        ),
    )
    # Both inner loops stay (jammed, not unrolled), the reduction loop with one
    # accumulator per copy.
    copies = min(factor, rows)
    if rows > copies:
        assert scheduled.count("scf.for") == 3


@settings(max_examples=10)
@given(
    rows=st.integers(min_value=1, max_value=12),
    cols=st.integers(min_value=1, max_value=9),
    factor=st.integers(min_value=1, max_value=13),
)
def test_property_unroll_and_jam(rows: int, cols: int, factor: int) -> None:
    schedule = outer_loop_schedule(
        f"    transform.loop.unroll_and_jam %outer factor = {factor} : {FOR}\n"
    )
    if factor <= rows and rows % factor:
        with pytest.raises(schedir.SchedirError, match="failed to unroll and jam"):
            schedir.compile(schedule_module(nest(rows, cols), schedule))
    else:
        check(rows, cols, schedule)


@pytest.mark.parametrize(("rows", "cols"), [(1, 3), (4, 5), (7, 1)])
def test_unroll_full_every_loop(rows: int, cols: int) -> None:
    schedule = (
        f'    %all = transform.structured.match ops{{["scf.for"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %red, %scale, %outer = transform.split_handle %all : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
        f"    %r = transform.cast %red : {ANY} to {FOR}\n"
        f"    %s = transform.cast %scale : {ANY} to {FOR}\n"
        f"    %o = transform.cast %outer : {ANY} to {FOR}\n"
        f"    transform.loop.unroll_full %r : {FOR}\n"
        f"    transform.loop.unroll_full %s : {FOR}\n"
        f"    transform.loop.unroll_full %o : {FOR}\n"
    )
    scheduled = check(rows, cols, schedule)
    assert "scf.for" not in scheduled
