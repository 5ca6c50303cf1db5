"""The oracle is sound (issue 14, defect 4): per-element tolerances from the reference's
forward error bounds pass every correct float32 computation and fail wrong elements.

For random payloads (elementwise chains of arith and math ops, matmul, reductions,
softmax) at odd shapes and random input magnitudes, the same computation done in float32
by numpy (its own summation orders, BLAS, its own libm) must pass `compare`; the same
result with one element zeroed (where the bound says it is not ~0), set to NaN, or moved
beyond its tolerance must fail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir import reference
from schedir.reference import Expected, compare

F32 = np.dtype(np.float32)


@dataclass(frozen=True)
class Case:
    """A payload, its inputs and its float32 computation by numpy."""

    text: str
    inputs: list[np.ndarray]
    f32: Callable[[list[np.ndarray]], np.ndarray]


def _t(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


# Unary and binary steps of an elementwise chain: MLIR body line and numpy in float32.
UNARY: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray]]] = {
    "exp": ("math.exp {v} : f32", np.exp),
    "tanh": ("math.tanh {v} : f32", np.tanh),
    "sin": ("math.sin {v} : f32", np.sin),
    "abs": ("math.absf {v} : f32", np.abs),
    "neg": ("arith.negf {v} : f32", np.negative),
    "sqrt_abs": ("math.sqrt {v} : f32", np.sqrt),  # of |v|: the chain inserts an absf
}
BINARY: dict[str, tuple[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    "add": ("arith.addf {v}, %y : f32", np.add),
    "sub": ("arith.subf {v}, %y : f32", np.subtract),
    "mul": ("arith.mulf {v}, %y : f32", np.multiply),
    "div": ("arith.divf {v}, %y : f32", np.divide),
    "max": ("arith.maximumf {v}, %y : f32", np.maximum),
}


def _rand(rng: np.random.Generator, shape: tuple[int, ...], scale: float) -> np.ndarray:
    x = (rng.uniform(-1, 1, shape) * scale).astype(np.float32)
    x[x == 0] = np.float32(scale / 2)
    return x


@st.composite
def elementwise(draw: st.DrawFn) -> Case:
    shape = tuple(draw(st.lists(st.integers(1, 9), min_size=1, max_size=3)))
    steps = draw(st.lists(st.sampled_from(sorted(UNARY) + sorted(BINARY)), min_size=1, max_size=4))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    scale = draw(st.sampled_from([1e-3, 1.0, 3.0]))
    x = _rand(rng, shape, scale)
    y = _rand(rng, shape, 1.0)
    y[np.abs(y) < 0.25] = np.float32(0.5)  # divisors away from zero
    body, current = [], "%x"
    for n, step in enumerate(steps):
        if step == "sqrt_abs":
            body.append(f"%a{n} = math.absf {current} : f32")
            current = f"%a{n}"
        template = UNARY[step][0] if step in UNARY else BINARY[step][0]
        body.append(f"%v{n} = " + template.format(v=current))
        current = f"%v{n}"
    t = _t(shape)
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    m = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join(['"parallel"'] * len(shape))
    lines = "\n    ".join(body)
    text = f"""
func.func @f(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{m}, {m}, {m}], iterator_types = [{iterators}]}}
      ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    {lines}
    linalg.yield {current} : f32
  }} -> {t}
  return %r : {t}
}}
"""

    def f32(inputs: list[np.ndarray]) -> np.ndarray:
        v, w = inputs
        for step in steps:
            if step == "sqrt_abs":
                v = np.abs(v)
            v = UNARY[step][1](v) if step in UNARY else BINARY[step][1](v, w)
            v = v.astype(np.float32)
        return v

    return Case(text, [x, y], f32)


@st.composite
def matmul(draw: st.DrawFn) -> Case:
    m, n, k = (draw(st.integers(1, 40)) for _ in range(3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    scale = draw(st.sampled_from([1e-2, 1.0, 1e3]))
    a, b, c = _rand(rng, (m, k), scale), _rand(rng, (k, n), 1.0), _rand(rng, (m, n), 1.0)
    text = f"""
func.func @mm(%A: {_t((m, k))}, %B: {_t((k, n))}, %C: {_t((m, n))}) -> {_t((m, n))} {{
  %r = linalg.matmul ins(%A, %B : {_t((m, k))}, {_t((k, n))}) outs(%C : {_t((m, n))}) -> {_t((m, n))}
  return %r : {_t((m, n))}
}}
"""
    return Case(text, [a, b, c], lambda ins: (ins[2] + ins[0] @ ins[1]).astype(np.float32))


@st.composite
def reduction(draw: st.DrawFn) -> Case:
    rows, cols = draw(st.integers(1, 13)), draw(st.integers(1, 300))
    kind = draw(st.sampled_from(["addf", "maximumf"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    x = _rand(rng, (rows, cols), draw(st.sampled_from([1e-3, 1.0, 50.0])))
    init = "0.0" if kind == "addf" else "-3.0e38"
    text = f"""
func.func @r(%x: {_t((rows, cols))}) -> {_t((rows,))} {{
  %z = arith.constant {init} : f32
  %e = tensor.empty() : {_t((rows,))}
  %f = linalg.fill ins(%z : f32) outs(%e : {_t((rows,))}) -> {_t((rows,))}
  %r = linalg.reduce ins(%x : {_t((rows, cols))}) outs(%f : {_t((rows,))}) dimensions = [1]
    (%in: f32, %acc: f32) {{
      %v = arith.{kind} %in, %acc : f32
      linalg.yield %v : f32
    }}
  return %r : {_t((rows,))}
}}
"""
    if kind == "addf":
        # Sequential float32 accumulation: the worst order numpy offers.
        def f32(ins: list[np.ndarray]) -> np.ndarray:
            acc = np.zeros(rows, np.float32)
            for j in range(cols):
                acc = (acc + ins[0][:, j]).astype(np.float32)
            return acc

        return Case(text, [x], f32)
    return Case(text, [x], lambda ins: ins[0].max(axis=1).astype(np.float32))


@st.composite
def softmax(draw: st.DrawFn) -> Case:
    shape = (draw(st.integers(1, 11)), draw(st.integers(1, 60)))
    dim = draw(st.integers(0, 1))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    x = _rand(rng, shape, draw(st.sampled_from([0.1, 1.0, 10.0])))
    text = f"""
func.func @s(%x: {_t(shape)}) -> {_t(shape)} {{
  %e = tensor.empty() : {_t(shape)}
  %r = linalg.softmax dimension({dim}) ins(%x : {_t(shape)}) outs(%e : {_t(shape)}) -> {_t(shape)}
  return %r : {_t(shape)}
}}
"""

    def f32(ins: list[np.ndarray]) -> np.ndarray:
        v = ins[0]
        e = np.exp(v - v.max(axis=dim, keepdims=True))
        return (e / e.sum(axis=dim, keepdims=True, dtype=np.float32)).astype(np.float32)

    return Case(text, [x], f32)


CASES = st.one_of(elementwise(), matmul(), reduction(), softmax())


def _expected(case: Case) -> Expected:
    (expected,) = reference.evaluate_with_bounds(case.text, None, case.inputs)
    assert expected.error is not None
    return expected


@settings(max_examples=150)
@given(case=CASES)
def test_a_correct_float32_computation_passes(case: Case) -> None:
    expected = _expected(case)
    actual = case.f32(case.inputs)
    check = compare(actual, expected, F32)
    assert check.ok, f"{check.line()}\n{case.text}"
    assert np.isfinite(check.max_tolerance)


@settings(max_examples=150)
@given(case=CASES, pick=st.integers(0, 2**31), kind=st.sampled_from(["zero", "nan", "beyond"]))
def test_a_wrong_element_fails(case: Case, pick: int, kind: str) -> None:
    expected = _expected(case)
    assert expected.error is not None
    actual = case.f32(case.inputs).copy()
    tol = 2.0 * expected.error + np.finfo(np.float32).tiny
    flat = actual.reshape(-1)
    index = pick % flat.size
    if kind == "zero":
        # Zero an element whose bound says it is not ~0 (the largest such, if any).
        room = np.abs(expected.value).reshape(-1) - 1.01 * tol.reshape(-1)
        if room.max() <= 0:
            return  # every element is within its bound of 0: zero is a right answer
        index = int(np.argmax(room))
        flat[index] = 0.0
    elif kind == "nan":
        flat[index] = np.nan
    else:
        value = expected.value.reshape(-1)[index]
        moved = np.float32(value + 2.5 * tol.reshape(-1)[index])
        if not np.isfinite(moved) or abs(float(moved) - value) <= tol.reshape(-1)[index]:
            return  # not representable beyond the bound in float32 there
        flat[index] = moved
    check = compare(actual, expected, F32)
    assert not check.ok, f"{kind} at {index} passed: {check.line()}\n{case.text}"
    assert check.num_mismatches >= 1


def test_the_reported_exp_with_half_its_elements_zeroed_fails() -> None:
    # Issue 14's example: with the old max-scaled tolerance this printed `check: OK`.
    case = Case(
        """
func.func @f(%a: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<64xf32>) outs(%e : tensor<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %v = math.exp %x : f32
    linalg.yield %v : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
""",
        [np.linspace(-8, 8, 64).astype(np.float32)],
        lambda ins: np.exp(ins[0]),
    )
    expected = _expected(case)
    actual = case.f32(case.inputs)
    assert compare(actual, expected, F32).ok
    actual[::2] = 0
    check = compare(actual, expected, F32)
    assert not check.ok and check.num_mismatches == 32
    assert check.line().startswith("check: MISMATCH")
