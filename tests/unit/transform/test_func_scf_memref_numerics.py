"""The func, scf and memref transform ops keep the payload's results.

`func.replace_func_signature` (every permutation of three arguments and two results,
calls adjusted), `func.deduplicate_func_args` (drawn duplicate patterns),
`func.cast_and_call` (a slice replaced by a call computing the same), `scf.take_assumed_branch`
(the branch a constant condition takes), `memref.erase_dead_alloc_and_stores` (dead
buffers next to live code), `loop.unroll_full` and `loop.unroll_and_jam` (drawn bounds,
steps and factors) are applied, the result compiled for the CPU, and compared with
`schedir.reference` on the untransformed payload (numpy for the memref loop nests), on
odd sizes.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import ANY, run_and_check, schedule_module

SIZES = (1, 3, 7, 13)
ID = "affine_map<(d0) -> (d0)>"


def _t(n: int) -> str:
    return f"tensor<{n}xf32>"


def _generic(n: int, ins: list[str], body: list[str], out: str = "%e") -> str:
    """An elementwise linalg.generic over `ins`; the body sees them as %x0, %x1, ..."""
    t = _t(n)
    maps = ", ".join([ID] * (len(ins) + 1))
    args = ", ".join(f"%x{i}: f32" for i in range(len(ins)))
    lines = "\n".join(f"      {line}" for line in body)
    return (
        f'linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}} '
        f"ins({', '.join(ins)} : {', '.join([t] * len(ins))}) outs({out} : {t}) {{\n"
        f"    ^bb0({args}, %o: f32):\n{lines}\n    }} -> {t}"
    )


def _callee(n: int, name: str, params: list[str]) -> str:
    """`@name(params) -> (a*b - c, a - 2c)` over the parameters named a, b, c."""
    t = _t(n)
    r0 = _generic(
        n,
        ["%a", "%b", "%c"],
        [
            "%m = arith.mulf %x0, %x1 : f32",
            "%s = arith.subf %m, %x2 : f32",
            "linalg.yield %s : f32",
        ],
    )
    r1 = _generic(
        n,
        ["%a", "%c"],
        [
            "%d = arith.addf %x1, %x1 : f32",
            "%s = arith.subf %x0, %d : f32",
            "linalg.yield %s : f32",
        ],
    )
    signature = ", ".join(f"{p}: {t}" for p in params)
    return (
        f"  func.func private @{name}({signature}) -> ({t}, {t}) {{\n"
        f"    %e = tensor.empty() : {t}\n    %r0 = {r0}\n    %r1 = {r1}\n"
        f"    return %r0, %r1 : {t}, {t}\n  }}"
    )


def _caller(n: int, operands: list[str]) -> str:
    t = _t(n)
    types = ", ".join([t] * len(operands))
    return (
        f"  func.func @main(%a: {t}, %b: {t}, %c: {t}) -> ({t}, {t}) {{\n"
        f"    %r:2 = func.call @callee({', '.join(operands)}) : ({types}) -> ({t}, {t})\n"
        f"    return %r#1, %r#0 : {t}, {t}\n  }}"
    )


MODULE = f"    %m = transform.get_parent_op %f <deduplicate> : ({ANY}) -> {ANY}\n"
FUNCS = f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("args", list(itertools.permutations(range(3))), ids=str)
@pytest.mark.parametrize("results", [[0, 1], [1, 0]], ids=str)
def test_replace_func_signature_keeps_results(
    n: int, args: tuple[int, ...], results: list[int]
) -> None:
    payload = _callee(n, "callee", ["%a", "%b", "%c"]) + "\n" + _caller(n, ["%a", "%b", "%c"])
    schedule = (
        FUNCS
        + MODULE
        + f"    %m2, %f2 = transform.func.replace_func_signature @callee args_interchange = "
        f"{list(args)} results_interchange = {results} at %m {{adjust_func_calls}}"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    scheduled = run_and_check(schedule_module(payload, schedule, consumed=True))
    # The call now passes the caller's arguments in the interchanged order.
    names = ["%a", "%b", "%c"]
    assert f"@callee({', '.join(names[i] for i in args)})" in scheduled


@settings(max_examples=12)
@given(
    n=st.sampled_from(SIZES),
    operands=st.lists(st.sampled_from(["%a", "%b", "%c"]), min_size=3, max_size=3).filter(
        lambda ops: len(set(ops)) < 3
    ),
)
def test_deduplicate_func_args_keeps_results(n: int, operands: list[str]) -> None:
    payload = _callee(n, "callee", ["%a", "%b", "%c"]) + "\n" + _caller(n, operands)
    schedule = (
        FUNCS + MODULE + f"    %m2, %f2 = transform.func.deduplicate_func_args @callee at %m"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    scheduled = run_and_check(schedule_module(payload, schedule, consumed=True))
    unique = list(dict.fromkeys(operands))
    assert f"@callee({', '.join(unique)})" in scheduled


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("after", [False, True], ids=["before", "after"])
def test_cast_and_call_keeps_results(n: int, after: bool) -> None:
    """The slice `(a*b - c, a - 2c)` of @main is replaced by a call to @impl, which
    computes the same, inserted before the first generic or after the second."""
    t = _t(n)
    slice_body = _callee(n, "impl", ["%a", "%b", "%c"])
    inline = slice_body.split("{\n", 1)[1].rsplit("    return", 1)[0]
    payload = (
        slice_body
        + f"\n  func.func @main(%a: {t}, %b: {t}, %c: {t}) -> ({t}, {t}) {{\n"
        + inline
        + f"    return %r1, %r0 : {t}, {t}\n  }}"
    )
    where = "after %last" if after else "before %first"
    schedule = (
        f'    %mains = transform.structured.match ops{{["func.func"]}} attributes{{sym_name = "main"}} in %root : ({ANY}) -> {ANY}\n'
        f'    %gens = transform.structured.match ops{{["linalg.generic"]}} in %mains : ({ANY}) -> {ANY}\n'
        f"    %first, %last = transform.split_handle %gens : ({ANY}) -> ({ANY}, {ANY})\n"
        f"    %o0 = transform.get_result %first[0] : ({ANY}) -> !transform.any_value\n"
        f"    %o1 = transform.get_result %last[0] : ({ANY}) -> !transform.any_value\n"
        f"    %outs = transform.merge_handles %o0, %o1 : !transform.any_value\n"
        f"    %x = transform.get_operand %first[0] : ({ANY}) -> !transform.any_value\n"
        f"    %y = transform.get_operand %first[1] : ({ANY}) -> !transform.any_value\n"
        f"    %z = transform.get_operand %first[2] : ({ANY}) -> !transform.any_value\n"
        f"    %ins = transform.merge_handles %x, %y, %z : !transform.any_value\n"
        f"    %call = transform.func.cast_and_call @impl(%ins) -> %outs {where}"
        f" : ({ANY}, !transform.any_value, !transform.any_value) -> {ANY}\n"
    )
    scheduled = run_and_check(schedule_module(payload, schedule))
    assert "call @impl(%a, %b, %c)" in scheduled


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("take_else", [False, True], ids=["then", "else"])
def test_take_assumed_branch_keeps_results(n: int, take_else: bool) -> None:
    """The condition is a constant: taking the branch it selects keeps the results."""
    t = _t(n)
    cond = "false" if take_else else "true"
    then_value = _generic(
        n, ["%a", "%b"], ["%s = arith.addf %x0, %x1 : f32", "linalg.yield %s : f32"]
    )
    else_value = _generic(
        n, ["%a", "%b"], ["%s = arith.mulf %x0, %x1 : f32", "linalg.yield %s : f32"]
    )
    payload = (
        f"  func.func @main(%a: {t}, %b: {t}) -> {t} {{\n"
        f"    %cond = arith.constant {cond}\n    %e = tensor.empty() : {t}\n"
        f"    %r = scf.if %cond -> ({t}) {{\n      %v = {then_value}\n      scf.yield %v : {t}\n"
        f"    }} else {{\n      %w = {else_value}\n      scf.yield %w : {t}\n    }}\n"
        f"    return %r : {t}\n  }}"
    )
    flag = " take_else_branch" if take_else else ""
    schedule = (
        f'    %if = transform.structured.match ops{{["scf.if"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    transform.scf.take_assumed_branch %if{flag} : ({ANY}) -> ()\n"
    )
    scheduled = run_and_check(schedule_module(payload, schedule))
    assert "scf.if" not in scheduled


@pytest.mark.parametrize("n", SIZES)
def test_erase_dead_alloc_keeps_results(n: int) -> None:
    """Dead buffers (written through a subview, freed) go; the live computation stays."""
    t = _t(n)
    value = _generic(n, ["%a", "%b"], ["%s = arith.subf %x0, %x1 : f32", "linalg.yield %s : f32"])
    payload = (
        f"  func.func @main(%a: {t}, %b: {t}) -> {t} {{\n"
        f"    %c0 = arith.constant 0 : index\n    %x = arith.constant 2.5 : f32\n"
        f"    %dead = memref.alloc() : memref<{n + 2}xf32>\n"
        f"    %view = memref.subview %dead[1] [{n}] [1] : memref<{n + 2}xf32> to "
        f"memref<{n}xf32, strided<[1], offset: 1>>\n"
        f"    memref.store %x, %view[%c0] : memref<{n}xf32, strided<[1], offset: 1>>\n"
        f"    memref.dealloc %dead : memref<{n + 2}xf32>\n"
        f"    %e = tensor.empty() : {t}\n    %r = {value}\n    return %r : {t}\n  }}"
    )
    schedule = FUNCS + f"    transform.memref.erase_dead_alloc_and_stores %f : ({ANY}) -> ()\n"
    scheduled = run_and_check(schedule_module(payload, schedule))
    assert "memref.alloc" not in scheduled and "memref.store" not in scheduled


def _nest(m: int, n: int, lb: int = 0, step: int = 1) -> str:
    """`o[i, j] = in[i, j] + v[i]^2` as an scf.for nest over memrefs (outer i from `lb`
    by `step`, rows before `lb` copied as they are by a first loop)."""
    mt, vt = f"memref<{m}x{n}xf32>", f"memref<{m}xf32>"
    return f"""
  func.func @nest(%in: {mt}, %v: {vt}) -> {mt} {{
    %o = memref.alloc() : {mt}
    memref.copy %in, %o : {mt} to {mt}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lb = arith.constant {lb} : index
    %step = arith.constant {step} : index
    %m = arith.constant {m} : index
    %n = arith.constant {n} : index
    scf.for %i = %lb to %m step %step {{
      %s = memref.load %v[%i] : {vt}
      %s2 = arith.mulf %s, %s : f32
      scf.for %j = %c0 to %n step %c1 {{
        %a = memref.load %in[%i, %j] : {mt}
        %b = arith.addf %a, %s2 : f32
        memref.store %b, %o[%i, %j] : {mt}
      }}
    }}
    return %o : {mt}
  }}"""


def _expected(x: np.ndarray, v: np.ndarray, lb: int, step: int) -> np.ndarray:
    out = x.copy()
    rows = np.arange(lb, x.shape[0], step)
    out[rows] = x[rows] + (v[rows] ** 2)[:, None]
    return out


def _run_nest(m: int, n: int, lb: int, step: int, schedule: str) -> str:
    kernel = schedir.compile(schedule_module(_nest(m, n, lb, step), schedule))
    rng = np.random.default_rng(m * 31 + n)
    x = rng.uniform(-2.0, 2.0, (m, n)).astype(np.float32)
    v = rng.uniform(-2.0, 2.0, m).astype(np.float32)
    (out,) = kernel.run(x, v, prefill_nan=True)
    np.testing.assert_allclose(out, _expected(x, v, lb, step), rtol=1e-6)
    return kernel.stages["scheduled"]


OUTER = (
    f'    %st = transform.structured.match ops{{["memref.store"]}} in %root : ({ANY}) -> {ANY}\n'
    f'    %inner = transform.get_parent_op %st <op_name = "scf.for"> : ({ANY}) -> {ANY}\n'
    f'    %outer = transform.get_parent_op %inner <op_name = "scf.for"> : ({ANY}) -> {ANY}\n'
)


@settings(max_examples=15)
@given(
    m=st.integers(min_value=1, max_value=13),
    n=st.sampled_from(SIZES),
    lb=st.integers(min_value=0, max_value=2),
    step=st.integers(min_value=1, max_value=3),
    factor=st.integers(min_value=1, max_value=7),
)
def test_unroll_and_jam_keeps_results(m: int, n: int, lb: int, step: int, factor: int) -> None:
    """Factors dividing the trip count (or above it) jam; others fail silenceably and
    leave the payload as it was, which then still computes the same."""
    count = max(0, -(-(m - lb) // step))
    schedule = OUTER + f"    transform.loop.unroll_and_jam %outer factor = {factor} : {ANY}\n"
    jams = factor == 1 or count == 0 or factor >= count or count % factor == 0
    if not jams:
        with pytest.raises(schedir.SchedirError, match="failed to unroll and jam"):
            schedir.compile(schedule_module(_nest(m, n, lb, step), schedule))
        return
    _run_nest(m, n, lb, step, schedule)


@pytest.mark.parametrize("m", (1, 2, 5, 7))
@pytest.mark.parametrize("step", (1, 2, 3))
def test_unroll_full_keeps_results(m: int, step: int) -> None:
    schedule = OUTER + f"    transform.loop.unroll_full %outer : {ANY}\n"
    scheduled = _run_nest(m, 3, 0, step, schedule)
    # The outer loop is gone: one inner loop per former iteration.
    assert scheduled.count("scf.for") == -(-m // step)
