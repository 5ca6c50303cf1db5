"""The reference's linalg.generic, reduce, map and softmax against numpy formulas, and the
fast (vectorized) and sequential reduction paths against each other."""

from __future__ import annotations

import numpy as np
import pytest
from reference_helpers import (
    DTYPES,
    FLOATS,
    f64,
    open_example,
    rand,
    run,
    run1,
    tensor,
    wrap,
)

from schedir.reference import structured

# ---- reduce, map, softmax ------------------------------------------------------------------


def reduce_text(shape: tuple[int, ...], dims: list[int], elem: str, combine: str, init: str) -> str:
    out_shape = tuple(d for i, d in enumerate(shape) if i not in dims)
    ti, to = tensor(shape, elem), tensor(out_shape, elem)
    constant = init if elem == "i1" else f"{init} : {elem}"  # i1 constants are spelled bare
    return f"""
func.func @f(%x: {ti}) -> {to} {{
  %c = arith.constant {constant}
  %e = tensor.empty() : {to}
  %i = linalg.fill ins(%c : {elem}) outs(%e : {to}) -> {to}
  %r = linalg.reduce ins(%x : {ti}) outs(%i : {to}) dimensions = [{", ".join(map(str, dims))}]
    (%in: {elem}, %acc: {elem}) {{
      %v = {combine} %in, %acc : {elem}
      linalg.yield %v : {elem}
    }}
  return %r : {to}
}}
"""


@pytest.mark.parametrize(
    ("elem", "combine", "init", "formula"),
    [
        ("f32", "arith.addf", "0.0", lambda x, d: f64(x).sum(axis=d)),
        ("f16", "arith.addf", "0.0", lambda x, d: f64(x).sum(axis=d)),
        ("bf16", "arith.maximumf", "0xFF80", lambda x, d: f64(x).max(axis=d)),
        ("f32", "arith.mulf", "1.0", lambda x, d: f64(x).prod(axis=d)),
        ("i32", "arith.addi", "0", lambda x, d: x.astype(np.int64).sum(axis=d)),
        ("i8", "arith.addi", "0", lambda x, d: wrap(x.astype(np.int64).sum(axis=d), "i8")),
        ("i64", "arith.maxsi", "-9223372036854775808", lambda x, d: x.max(axis=d)),
        (
            "i32",
            "arith.minui",
            "-1",
            lambda x, d: (
                (x.astype(np.int64) & 0xFFFFFFFF).min(axis=d).astype(np.uint32).view(np.int32)
            ),
        ),
        ("i1", "arith.ori", "false", lambda x, d: x.any(axis=d)),
        ("i1", "arith.andi", "true", lambda x, d: x.all(axis=d)),
    ],
)
def test_reduce(elem: str, combine: str, init: str, formula: object) -> None:
    shape, dims = (5, 7, 3), [0, 2]
    x = rand(shape, elem, 40)
    if elem == "i8":
        x = (x * 15).astype(np.int8)
    got = run1(reduce_text(shape, dims, elem, combine, init), x)
    want = formula(x, tuple(dims))  # type: ignore[operator]
    if elem in FLOATS:
        np.testing.assert_allclose(got, want, rtol=1e-13)
    else:
        assert got.dtype == DTYPES[elem] and got.tolist() == np.asarray(want).tolist()


def test_row_max_example() -> None:
    x = rand((45, 77), "f32", 41)
    assert (run1(open_example("row_max.mlir"), x) == f64(x).max(axis=1)).all()


def test_map_elementwise_chain_example() -> None:
    a, b, c = (rand((129, 67), "f32", s) for s in (42, 43, 44))
    got = run1(open_example("elementwise_chain.mlir"), a, b, c)
    np.testing.assert_allclose(got, np.tanh(f64(a) * f64(b) + f64(c)) * np.exp(-f64(a)), rtol=1e-14)


@pytest.mark.parametrize("dim", [0, 1])
def test_softmax(dim: int) -> None:
    x = rand((33, 65), "f32", 45) * np.float32(4)
    text = f"""
func.func @f(%x: tensor<33x65xf32>) -> tensor<33x65xf32> {{
  %init = tensor.empty() : tensor<33x65xf32>
  %y = linalg.softmax dimension({dim}) ins(%x : tensor<33x65xf32>) outs(%init : tensor<33x65xf32>) -> tensor<33x65xf32>
  return %y : tensor<33x65xf32>
}}
"""
    got = run1(text, x)
    e = np.exp(f64(x) - f64(x).max(axis=dim, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=dim, keepdims=True), rtol=1e-14)
    np.testing.assert_allclose(got.sum(axis=dim), 1.0, rtol=1e-14)


# ---- generic -------------------------------------------------------------------------------


def generic_text(
    ins: list[tuple[str, str]],
    out: tuple[str, str],
    maps: list[str],
    iterators: list[str],
    body: str,
    block: str,
    out_init: str | None = None,
    out_is_arg: bool = False,
) -> str:
    """A function running one linalg.generic; `ins`/`out` are (name, type) pairs.

    The output is a function argument (`out_is_arg`), made by `out_init`, or a tensor.empty.
    """
    out_name, out_type = out
    params = [*ins, out] if out_is_arg else ins
    args = ", ".join(f"%{n}: {t}" for n, t in params)
    init = "" if out_is_arg else (out_init or f"  %{out_name} = tensor.empty() : {out_type}\n")
    operands = (
        f"ins({', '.join(f'%{n}' for n, _ in ins)} : {', '.join(t for _, t in ins)}) "
        if ins
        else ""
    )
    return f"""
func.func @f({args}) -> {out_type} {{
{init}  %r = linalg.generic {{indexing_maps = [{", ".join(maps)}], iterator_types = [{", ".join(f'"{i}"' for i in iterators)}]}}
      {operands}outs(%{out_name} : {out_type}) {{
  {block}
    {body}
  }} -> {out_type}
  return %r : {out_type}
}}
"""


def test_generic_permutation_broadcast_and_constant_maps() -> None:
    a = rand((4, 6), "f32", 50)
    b = rand((5,), "f32", 51)
    c = rand((6, 3), "f32", 52)
    text = generic_text(
        [("a", "tensor<4x6xf32>"), ("b", "tensor<5xf32>"), ("c", "tensor<6x3xf32>")],
        ("o", "tensor<5x6x4xf32>"),
        [
            "affine_map<(i, j, k) -> (k, j)>",
            "affine_map<(i, j, k) -> (i)>",
            "affine_map<(i, j, k) -> (j, 2)>",
            "affine_map<(i, j, k) -> (i, j, k)>",
        ],
        ["parallel"] * 3,
        "%s = arith.addf %x, %y : f32\n    %v = arith.mulf %s, %z : f32\n    linalg.yield %v : f32",
        block="^bb0(%x: f32, %y: f32, %z: f32, %w: f32):",
    )
    got = run1(text, a, b, c)
    want = (f64(a).T[None, :, :] + f64(b)[:, None, None]) * f64(c)[None, :, 2, None]
    np.testing.assert_allclose(got, want, rtol=1e-15)


def test_generic_sum_of_dims_map_is_a_1d_convolution() -> None:
    x, w = rand((20,), "f32", 53), rand((4,), "f32", 54)
    text = generic_text(
        [("x", "tensor<20xf32>"), ("w", "tensor<4xf32>")],
        ("o", "tensor<9xf32>"),
        [
            "affine_map<(i, k) -> (2 * i + k)>",
            "affine_map<(i, k) -> (k)>",
            "affine_map<(i, k) -> (i)>",
        ],
        ["parallel", "reduction"],
        "%p = arith.mulf %a, %b : f32\n    %v = arith.addf %acc, %p : f32\n    linalg.yield %v : f32",
        out_init="  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<9xf32>\n"
        "  %o = linalg.fill ins(%z : f32) outs(%e : tensor<9xf32>) -> tensor<9xf32>\n",
        block="^bb0(%a: f32, %b: f32, %acc: f32):",
    )
    got = run1(text, x, w)
    want = [sum(float(x[2 * i + k]) * float(w[k]) for k in range(4)) for i in range(9)]
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_generic_floordiv_and_mod_maps_gather() -> None:
    x = rand((3, 4), "i32", 55)
    text = generic_text(
        [("x", "tensor<3x4xi32>")],
        ("o", "tensor<12xi32>"),
        ["affine_map<(i) -> (i floordiv 4, i mod 4)>", "affine_map<(i) -> (i)>"],
        ["parallel"],
        "linalg.yield %a : i32",
        block="^bb0(%a: i32, %b: i32):",
    )
    assert run1(text, x).tolist() == x.reshape(-1).tolist()


def test_generic_linalg_index_in_body() -> None:
    text = generic_text(
        [],
        ("o", "tensor<3x5xi64>"),
        ["affine_map<(i, j) -> (i, j)>"],
        ["parallel", "parallel"],
        "%i = linalg.index 0 : index\n    %j = linalg.index 1 : index\n"
        "    %c = arith.constant 10 : index\n    %m = arith.muli %i, %c : index\n"
        "    %s = arith.addi %m, %j : index\n    %v = arith.index_cast %s : index to i64\n    linalg.yield %v : i64",
        block="^bb0(%b: i64):",
    )
    got = run1(text)
    assert got.tolist() == [[10 * i + j for j in range(5)] for i in range(3)]


def _reduction_generic(body: str, elem: str = "f32", rows: int = 6, cols: int = 9) -> str:
    return generic_text(
        [("x", f"tensor<{rows}x{cols}x{elem}>")],
        ("o", f"tensor<{rows}x{elem}>"),
        ["affine_map<(i, k) -> (i, k)>", "affine_map<(i, k) -> (i)>"],
        ["parallel", "reduction"],
        body,
        block=f"^bb0(%a: {elem}, %acc: {elem}):",
        out_is_arg=True,
    )


def test_non_commutative_reduction_runs_sequentially() -> None:
    x, init = rand((6, 9), "f32", 56), rand((6,), "f32", 57)
    got = run1(
        _reduction_generic("%v = arith.subf %acc, %a : f32\n    linalg.yield %v : f32"), x, init
    )
    want = f64(init).copy()
    for k in range(9):
        want = want - f64(x[:, k])
    assert got.tolist() == want.tolist()
    # a - acc is not `acc - a`: alternating signs, in iteration order.
    got = run1(
        _reduction_generic("%v = arith.subf %a, %acc : f32\n    linalg.yield %v : f32"), x, init
    )
    want = f64(init).copy()
    for k in range(9):
        want = f64(x[:, k]) - want
    assert got.tolist() == want.tolist()


def test_fast_and_sequential_reductions_agree() -> None:
    x, init = rand((6, 9), "f32", 58), rand((6,), "f32", 59)
    fast = run1(
        _reduction_generic(
            "%s = math.absf %a : f32\n    %v = arith.addf %acc, %s : f32\n    linalg.yield %v : f32"
        ),
        x,
        init,
    )
    # The same sum with the combine hidden behind an extra op defeats the pattern.
    slow = run1(
        _reduction_generic(
            "%s = math.absf %a : f32\n    %t = arith.addf %acc, %s : f32\n"
            "    %z = arith.constant 0.0 : f32\n    %v = arith.addf %t, %z : f32\n    linalg.yield %v : f32"
        ),
        x,
        init,
    )
    np.testing.assert_allclose(fast, f64(init) + np.abs(f64(x)).sum(axis=1), rtol=1e-14)
    np.testing.assert_allclose(slow, fast, rtol=1e-14)
    xi, ii = rand((6, 9), "i32", 60) * np.int32(2**28), rand((6,), "i32", 61)
    fast_i = run1(
        _reduction_generic("%v = arith.addi %acc, %a : i32\n    linalg.yield %v : i32", "i32"),
        xi,
        ii,
    )
    slow_i = run1(
        _reduction_generic(
            "%t = arith.addi %a, %acc : i32\n    %z = arith.constant 0 : i32\n"
            "    %v = arith.ori %t, %z : i32\n    linalg.yield %v : i32",
            "i32",
        ),
        xi,
        ii,
    )
    assert (
        fast_i.tolist()
        == slow_i.tolist()
        == wrap(ii.astype(np.int64) + xi.astype(np.int64).sum(axis=1), "i32").tolist()
    )


def test_argmax_with_two_outputs_runs_sequentially() -> None:
    x = rand((5, 11), "f32", 62)
    text = """
func.func @f(%x: tensor<5x11xf32>) -> (tensor<5xf32>, tensor<5xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<5xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %f = tensor.empty() : tensor<5xi32>
  %i0 = linalg.fill ins(%c0 : i32) outs(%f : tensor<5xi32>) -> tensor<5xi32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<5x11xf32>) outs(%m0, %i0 : tensor<5xf32>, tensor<5xi32>) {
  ^bb0(%a: f32, %m: f32, %idx: i32):
    %k = linalg.index 1 : index
    %ki = arith.index_cast %k : index to i32
    %gt = arith.cmpf ogt, %a, %m : f32
    %nm = arith.select %gt, %a, %m : f32
    %ni = arith.select %gt, %ki, %idx : i32
    linalg.yield %nm, %ni : f32, i32
  } -> (tensor<5xf32>, tensor<5xi32>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi32>
}
"""
    m, i = run(text, x)
    assert (m == f64(x).max(axis=1)).all()
    assert i.tolist() == np.argmax(x, axis=1).tolist()


def test_two_reductions_in_one_generic_take_the_fast_path() -> None:
    x = rand((4, 10), "f32", 63)
    text = """
func.func @f(%x: tensor<4x10xf32>, %s0: tensor<4xf32>, %m0: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>, affine_map<(i, k) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x10xf32>) outs(%s0, %m0 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: f32, %s: f32, %m: f32):
    %sq = arith.mulf %a, %a : f32
    %ns = arith.addf %s, %sq : f32
    %nm = arith.maxnumf %a, %m : f32
    linalg.yield %ns, %nm : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
"""
    s0 = np.zeros(4, np.float32)
    m0 = np.full(4, np.nan, np.float32)  # maxnumf ignores the NaN start
    s, m = run(text, x, s0, m0)
    np.testing.assert_allclose(s, (f64(x) ** 2).sum(axis=1), rtol=1e-14)
    assert (m == f64(x).max(axis=1)).all()


def test_maximumf_reduction_propagates_nan_and_maxnumf_ignores_it() -> None:
    x = rand((3, 8), "f32", 64)
    x[1, 4] = np.nan
    init = np.full(3, -np.inf, np.float32)
    maximum = run1(
        _reduction_generic(
            "%v = arith.maximumf %a, %acc : f32\n    linalg.yield %v : f32", rows=3, cols=8
        ),
        x,
        init,
    )
    maxnum = run1(
        _reduction_generic(
            "%v = arith.maxnumf %a, %acc : f32\n    linalg.yield %v : f32", rows=3, cols=8
        ),
        x,
        init,
    )
    assert np.isnan(maximum[1]) and maximum[0] == f64(x[0]).max()
    assert maxnum[1] == np.nanmax(f64(x[1]))


def test_chunked_evaluation_matches_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    x, init = rand((6, 9), "f32", 65), rand((6,), "f32", 66)
    body = (
        "%s = math.absf %a : f32\n    %v = arith.maximumf %acc, %s : f32\n    linalg.yield %v : f32"
    )
    whole = run1(_reduction_generic(body), x, init)
    a = rand((7, 13), "f32", 67)
    elementwise = generic_text(
        [("a", "tensor<7x13xf32>")], ("o", "tensor<7x13xf32>"),
        ["affine_map<(i, j) -> (i, j)>", "affine_map<(i, j) -> (i, j)>"], ["parallel", "parallel"],
        "%i = linalg.index 1 : index\n    %c = arith.index_cast %i : index to i32\n    %f = arith.sitofp %c : i32 to f32\n"
        "    %v = arith.mulf %s, %f : f32\n    linalg.yield %v : f32",
        block="^bb0(%s: f32, %b: f32):",
    )  # fmt: skip
    whole_e = run1(elementwise, a)
    monkeypatch.setattr(structured, "CHUNK_ELEMENTS", 5)
    assert run1(_reduction_generic(body), x, init).tolist() == whole.tolist()
    assert run1(elementwise, a).tolist() == whole_e.tolist() == (f64(a) * np.arange(13)).tolist()


def test_generic_on_memrefs_writes_in_place() -> None:
    text = """
func.func @f(%x: memref<4x3xf32>, %y: memref<4x3xf32>) -> tensor<4x3xf32> {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x3xf32>) outs(%y : memref<4x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.addf %a, %b : f32
    linalg.yield %v : f32
  }
  %t = bufferization.to_tensor %y restrict : memref<4x3xf32> to tensor<4x3xf32>
  return %t : tensor<4x3xf32>
}
"""
    x, y = rand((4, 3), "f32", 68), rand((4, 3), "f32", 69)
    y_before = y.copy()
    got = run1(text, x, y)
    assert got.tolist() == (f64(x) + f64(y)).tolist()
    assert (y == y_before).all()  # the caller's array is never written


def test_reading_tensor_empty_yields_nan() -> None:
    text = """
func.func @f(%A: tensor<3x4xf32>, %B: tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xi32>) {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.matmul ins(%A, %B : tensor<3x4xf32>, tensor<4x2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %i = tensor.empty() : tensor<3x2xi32>
  return %r, %i : tensor<3x2xf32>, tensor<3x2xi32>
}
"""
    r, i = run(text, rand((3, 4), "f32", 70), rand((4, 2), "f32", 71))
    assert np.isnan(r).all()
    assert (i == np.int32(-559038737)).all()  # 0xDEADBEEF


def _forbid(name: str) -> object:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"took the {name} path")

    return refuse


def test_recognized_reductions_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(structured, "_run_sequential", _forbid("sequential"))
    x, init = rand((6, 9), "f32", 72), rand((6,), "f32", 73)
    for body in (
        "%s = math.absf %a : f32\n    %v = arith.addf %acc, %s : f32\n    linalg.yield %v : f32",
        "%v = arith.maxnumf %a, %acc : f32\n    linalg.yield %v : f32",
        "%p = arith.mulf %a, %a : f32\n    %v = arith.addf %p, %acc : f32\n    linalg.yield %v : f32",
    ):
        run1(_reduction_generic(body), x, init)
    run1(
        open_example("matmul_bias_relu.mlir").replace("@matmul_bias_relu", "@f"),
        *(rand(s, "f32", 74) for s in ((61, 47), (47, 35), (35,))),
    )


def test_unrecognized_reductions_take_the_sequential_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(structured, "_run_fast", _forbid("fast"))
    x, init = rand((6, 9), "f32", 75), rand((6,), "f32", 76)
    for body in (
        "%v = arith.subf %acc, %a : f32\n    linalg.yield %v : f32",
        "%v = arith.addf %acc, %acc : f32\n    linalg.yield %v : f32",
        "%s = arith.addf %acc, %a : f32\n    %v = arith.mulf %s, %acc : f32\n    linalg.yield %v : f32",
    ):
        run1(_reduction_generic(body), x, init)


def test_reduce_and_map_short_forms() -> None:
    x, y = rand((5, 8), "f32", 77), rand((5, 8), "f32", 78)
    text = """
func.func @f(%x: tensor<5x8xf32>, %y: tensor<5x8xf32>) -> (tensor<5xf32>, tensor<8xf32>, tensor<5x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %s = linalg.reduce { arith.addf } ins(%x : tensor<5x8xf32>) outs(%o : tensor<5xf32>) dimensions = [1]
  %ninf = arith.constant 0xFF800000 : f32
  %f = tensor.empty() : tensor<8xf32>
  %p = linalg.fill ins(%ninf : f32) outs(%f : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.reduce { arith.maximumf } ins(%x : tensor<5x8xf32>) outs(%p : tensor<8xf32>) dimensions = [0]
  %g = tensor.empty() : tensor<5x8xf32>
  %a = linalg.map { arith.mulf } ins(%x, %y : tensor<5x8xf32>, tensor<5x8xf32>) outs(%g : tensor<5x8xf32>)
  return %s, %m, %a : tensor<5xf32>, tensor<8xf32>, tensor<5x8xf32>
}
"""
    s, m, a = run(text, x, y)
    np.testing.assert_allclose(s, f64(x).sum(axis=1), rtol=1e-14)
    assert (m == f64(x).max(axis=0)).all()
    assert (a == f64(x) * f64(y)).all()


def test_generic_reversed_map_and_scalar_operand() -> None:
    x = rand((9,), "f32", 79)
    text = """
func.func @f(%x: tensor<9xf32>, %s: f32) -> tensor<9xf32> {
  %e = tensor.empty() : tensor<9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (8 - i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<9xf32>, f32) outs(%e : tensor<9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.mulf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<9xf32>
  return %r : tensor<9xf32>
}
"""
    got = run1(text, x, np.float32(-2.0))
    assert got.tolist() == (f64(x)[::-1] * -2.0).tolist()


def test_generic_out_of_bounds_map_is_an_input_error() -> None:
    text = """
func.func @f(%x: tensor<?xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i + 2)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
"""
    from schedir.diagnostics import InputError

    # The input's size is only known at run time: 10 elements suffice, 9 do not.
    assert run1(text, rand((10,), "f32", 80)).shape == (8,)
    with pytest.raises(InputError, match=r"accessed at \[2, 9\] in dimension 0 of size 9"):
        run1(text, rand((9,), "f32", 80))
