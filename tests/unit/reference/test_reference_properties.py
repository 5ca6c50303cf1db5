"""Property tests: payloads generated from random shapes, checked against numpy formulas."""

from __future__ import annotations

import itertools

import ml_dtypes
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_helpers import run1, tensor

SETTINGS = settings(max_examples=30)
DTYPES = {
    "f32": np.float32,
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "i32": np.int32,
    "i8": np.int8,
}


def data(shape: tuple[int, ...], elem: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if elem.startswith("i"):
        return (rng.integers(1, 9, shape) * rng.choice([-1, 1], shape)).astype(DTYPES[elem])
    return rng.uniform(-1, 1, shape).astype(DTYPES[elem])


shapes = st.lists(st.integers(1, 9), min_size=1, max_size=4).map(tuple)


@SETTINGS
@given(shape=shapes, elem=st.sampled_from(["f32", "f16", "bf16"]), seed=st.integers(0, 2**16))
def test_elementwise_chain(shape: tuple[int, ...], elem: str, seed: int) -> None:
    rank = len(shape)
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    t = tensor(shape, elem)
    text = f"""
func.func @f(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{", ".join([ident] * 4)}], iterator_types = [{", ".join(['"parallel"'] * rank)}]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: {elem}, %y: {elem}, %z: {elem}, %o: {elem}):
    %m = arith.mulf %x, %y : {elem}
    %s = arith.addf %m, %z : {elem}
    %h = math.tanh %s : {elem}
    %n = arith.negf %x : {elem}
    %p = math.exp %n : {elem}
    %v = arith.mulf %h, %p : {elem}
    linalg.yield %v : {elem}
  }} -> {t}
  return %r : {t}
}}
"""
    a, b, c = (data(shape, elem, seed + i).astype(np.float64) for i in range(3))
    got = run1(text, *(x.astype(DTYPES[elem]) for x in (a, b, c)))
    np.testing.assert_allclose(got, np.tanh(a * b + c) * np.exp(-a), rtol=1e-14, atol=1e-15)


@SETTINGS
@given(
    m=st.integers(1, 40),
    n=st.integers(1, 40),
    k=st.integers(1, 40),
    types=st.sampled_from(
        [("f32", "f32"), ("f16", "f32"), ("bf16", "bf16"), ("i32", "i32"), ("i8", "i32")]
    ),
    seed=st.integers(0, 2**16),
)
def test_matmul(m: int, n: int, k: int, types: tuple[str, str], seed: int) -> None:
    a_elem, c_elem = types
    ta, tb, tc = tensor([m, k], a_elem), tensor([k, n], a_elem), tensor([m, n], c_elem)
    zero = "0" if c_elem.startswith("i") else "0.0"
    text = f"""
func.func @f(%A: {ta}, %B: {tb}) -> {tc} {{
  %z = arith.constant {zero} : {c_elem}
  %e = tensor.empty() : {tc}
  %C = linalg.fill ins(%z : {c_elem}) outs(%e : {tc}) -> {tc}
  %r = linalg.matmul ins(%A, %B : {ta}, {tb}) outs(%C : {tc}) -> {tc}
  return %r : {tc}
}}
"""
    a, b = data((m, k), a_elem, seed), data((k, n), a_elem, seed + 1)
    got = run1(text, a, b)
    if c_elem.startswith("i"):
        want = a.astype(np.int64) @ b.astype(np.int64)  # |values| <= 8 * 8 * 40: no overflow
        assert got.dtype == DTYPES[c_elem] and (got == want).all()
    else:
        np.testing.assert_allclose(
            got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-12, atol=1e-12
        )


@SETTINGS
@given(shape=shapes, data_=st.data(), seed=st.integers(0, 2**16))
def test_reduce_and_generic_reduction(
    shape: tuple[int, ...], data_: st.DataObject, seed: int
) -> None:
    rank = len(shape)
    reduced = sorted(data_.draw(st.sets(st.integers(0, rank - 1), min_size=1)))
    kept = [d for d in range(rank) if d not in reduced]
    out_shape = tuple(shape[d] for d in kept)
    ti, to = tensor(shape, "f32"), tensor(out_shape, "f32")
    dims = [f"d{i}" for i in range(rank)]
    maps = (
        f"affine_map<({', '.join(dims)}) -> ({', '.join(dims)})>",
        f"affine_map<({', '.join(dims)}) -> ({', '.join(dims[d] for d in kept)})>",
    )
    iterators = ", ".join('"reduction"' if d in reduced else '"parallel"' for d in range(rank))
    text = f"""
func.func @f(%x: {ti}) -> ({to}, {to}) {{
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : {to}
  %i = linalg.fill ins(%z : f32) outs(%e : {to}) -> {to}
  %r = linalg.reduce ins(%x : {ti}) outs(%i : {to}) dimensions = [{", ".join(map(str, reduced))}]
    (%in: f32, %acc: f32) {{
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }}
  %g = linalg.generic {{indexing_maps = [{maps[0]}, {maps[1]}], iterator_types = [{iterators}]}}
      ins(%x : {ti}) outs(%i : {to}) {{
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.subf %acc, %sq : f32
    linalg.yield %s : f32
  }} -> {to}
  return %r, %g : {to}, {to}
}}
"""
    from reference_helpers import run

    x = data(shape, "f32", seed)
    r, g = run(text, x)
    xf = x.astype(np.float64)
    np.testing.assert_allclose(r, xf.sum(axis=tuple(reduced)), rtol=1e-12, atol=1e-12)
    # `acc - x*x` is not a recognized combine: the sequential path must give the same sums.
    np.testing.assert_allclose(g, -(xf**2).sum(axis=tuple(reduced)), rtol=1e-12, atol=1e-12)


@SETTINGS
@given(
    n=st.integers(1, 2),
    c=st.integers(1, 4),
    f=st.integers(1, 4),
    kh=st.integers(1, 3),
    kw=st.integers(1, 3),
    sh=st.integers(1, 3),
    sw=st.integers(1, 3),
    dh=st.integers(1, 2),
    dw=st.integers(1, 2),
    oh=st.integers(1, 6),
    ow=st.integers(1, 6),
    elem=st.sampled_from(["f32", "i32"]),
    seed=st.integers(0, 2**16),
)
def test_conv_2d_nhwc_hwcf(
    n: int,
    c: int,
    f: int,
    kh: int,
    kw: int,
    sh: int,
    sw: int,
    dh: int,
    dw: int,
    oh: int,
    ow: int,
    elem: str,
    seed: int,
) -> None:
    h = (oh - 1) * sh + (kh - 1) * dh + 1 + seed % 2  # sometimes one row the window never reaches
    w = (ow - 1) * sw + (kw - 1) * dw + 1
    tx, tk, to = (
        tensor([n, h, w, c], elem),
        tensor([kh, kw, c, f], elem),
        tensor([n, oh, ow, f], elem),
    )
    zero = "0" if elem.startswith("i") else "0.0"
    text = f"""
func.func @f(%x: {tx}, %k: {tk}) -> {to} {{
  %z = arith.constant {zero} : {elem}
  %e = tensor.empty() : {to}
  %o = linalg.fill ins(%z : {elem}) outs(%e : {to}) -> {to}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{dh}, {dw}]> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}}
      ins(%x, %k : {tx}, {tk}) outs(%o : {to}) -> {to}
  return %r : {to}
}}
"""
    x, k = data((n, h, w, c), elem, seed), data((kh, kw, c, f), elem, seed + 1)
    got = run1(text, x, k)
    want = np.zeros((n, oh, ow, f))
    for p, q in itertools.product(range(kh), range(kw)):
        window = x[
            :, p * dh : p * dh + (oh - 1) * sh + 1 : sh, q * dw : q * dw + (ow - 1) * sw + 1 : sw, :
        ]
        want += np.einsum("nhwc,cf->nhwf", window.astype(np.float64), k[p, q].astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
