"""The reference's named linalg ops against hand-written numpy formulas (einsum, loops)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from reference_helpers import (
    FLOATS,
    INTS,
    f64,
    filled_out,
    open_example,
    rand,
    run,
    run1,
    tensor,
    wrap,
    zero_of,
)
from xdsl.dialects.builtin import ModuleOp

from schedir import reference

# ---- contractions --------------------------------------------------------------------------


def matmul_text(
    m: int, n: int, k: int, a: str, b: str, c: str, op: str = "linalg.matmul", extra: str = ""
) -> str:
    ta, tb, tc = tensor([m, k], a), tensor([k, n], b), tensor([m, n], c)
    return f"""
func.func @f(%A: {ta}, %B: {tb}) -> {tc} {{
{filled_out("C", (m, n), c, zero_of(c))}  %r = {op} {extra}ins(%A, %B : {ta}, {tb}) outs(%C : {tc}) -> {tc}
  return %r : {tc}
}}
"""


@pytest.mark.parametrize(
    ("a", "c"),
    [
        ("f32", "f32"),
        ("f16", "f16"),
        ("bf16", "bf16"),
        ("f64", "f64"),
        ("i32", "i32"),
        ("i64", "i64"),
        ("i8", "i8"),
    ],
)
def test_matmul_odd_sizes(a: str, c: str) -> None:
    A, B = rand((37, 29), a, 1), rand((29, 53), a, 2)
    got = run1(matmul_text(37, 53, 29, a, a, c), A, B)
    if c in FLOATS:
        assert got.dtype == np.float64
        np.testing.assert_allclose(
            got, np.einsum("mk,kn->mn", f64(A), f64(B)), rtol=1e-12, atol=1e-12
        )
    else:
        assert got.dtype == INTS[c]
        assert (
            got == wrap(np.einsum("mk,kn->mn", A.astype(np.int64), B.astype(np.int64)), c)
        ).all()


def test_matmul_i8_wraps_around() -> None:
    A = np.full((3, 40), 8, np.int8)
    B = np.full((40, 2), 7, np.int8)
    got = run1(matmul_text(3, 2, 40, "i8", "i8", "i8"), A, B)
    # 40 * 56 = 2240 wraps to -64 in i8.
    assert got.tolist() == [[-64, -64]] * 3


@pytest.mark.parametrize(
    ("a", "c"),
    [("f16", "f32"), ("bf16", "f32"), ("i8", "i32"), ("f32", "f16"), ("i32", "i8"), ("i8", "f32")],
)
def test_matmul_mixed_precision_casts_inputs_to_the_output_type(a: str, c: str) -> None:
    A, B = rand((7, 13), a, 3), rand((13, 5), a, 4)
    if a == "f32":
        A, B = A * np.float32(1.0001), B * np.float32(3.33)
    if a == "i32":
        A, B = (A * 37).astype(np.int32), (B * 41).astype(np.int32)
    got = run1(matmul_text(7, 5, 13, a, a, c), A, B)
    if c == "f16":
        # cast_signed truncates each input to f16 before the multiply.
        want = np.einsum("mk,kn->mn", f64(A.astype(np.float16)), f64(B.astype(np.float16)))
        np.testing.assert_allclose(got, want, rtol=1e-12)
    elif c in FLOATS:
        np.testing.assert_allclose(got, np.einsum("mk,kn->mn", f64(A), f64(B)), rtol=1e-12)
    else:
        narrow = lambda x: wrap(x.astype(np.int64), c)  # noqa: E731 - trunci to the output width
        assert (got == wrap(np.einsum("mk,kn->mn", narrow(A), narrow(B)), c)).all()


def test_matmul_accumulates_into_its_output() -> None:
    A, B = rand((4, 6), "f32", 5), rand((6, 3), "f32", 6)
    C = rand((4, 3), "f32", 7)
    t = """
func.func @f(%A: tensor<4x6xf32>, %B: tensor<6x3xf32>, %C: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<4x6xf32>, tensor<6x3xf32>) outs(%C : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""
    np.testing.assert_allclose(run1(t, A, B, C), f64(C) + f64(A) @ f64(B), rtol=1e-13)


def test_matmul_with_transposed_indexing_maps() -> None:
    maps = (
        "indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, "
        "affine_map<(m, n, k) -> (m, n)>] "
    )
    A, B = rand((11, 9), "f32", 8), rand((6, 11), "f32", 9)
    text = f"""
func.func @f(%A: tensor<11x9xf32>, %B: tensor<6x11xf32>) -> tensor<9x6xf32> {{
{filled_out("C", (9, 6), "f32")}  %r = linalg.matmul {maps}ins(%A, %B : tensor<11x9xf32>, tensor<6x11xf32>) outs(%C : tensor<9x6xf32>) -> tensor<9x6xf32>
  return %r : tensor<9x6xf32>
}}
"""
    try:
        got = run1(text, A, B)
    except Exception:  # the legacy attribute-dict spelling of the same maps
        got = run1(text.replace(maps, "{" + maps.strip() + "} "), A, B)
    np.testing.assert_allclose(got, np.einsum("km,nk->mn", f64(A), f64(B)), rtol=1e-13)


@pytest.mark.parametrize("elem", ["f32", "f16", "i32"])
def test_batch_matmul(elem: str) -> None:
    A, B = rand((3, 7, 5), elem, 10), rand((3, 5, 9), elem, 11)
    ta, tb, tc = tensor([3, 7, 5], elem), tensor([3, 5, 9], elem), tensor([3, 7, 9], elem)
    text = f"""
func.func @f(%A: {ta}, %B: {tb}) -> {tc} {{
{filled_out("C", (3, 7, 9), elem, zero_of(elem))}  %r = linalg.batch_matmul ins(%A, %B : {ta}, {tb}) outs(%C : {tc}) -> {tc}
  return %r : {tc}
}}
"""
    got = run1(text, A, B)
    want = np.einsum("bmk,bkn->bmn", f64(A), f64(B))
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_batch_matmul_f16_accumulating_in_f32() -> None:
    A, B = rand((3, 21, 34), "f16", 12), rand((3, 34, 19), "f16", 13)
    got = run1(open_example("batch_matmul_f16.mlir"), A, B)
    np.testing.assert_allclose(got, np.einsum("bmk,bkn->bmn", f64(A), f64(B)), rtol=1e-12)


@pytest.mark.parametrize("elem", ["f32", "i32"])
def test_matvec_vecmat_dot(elem: str) -> None:
    A, x, y = rand((7, 5), elem, 14), rand((5,), elem, 15), rand((7,), elem, 16)
    z = zero_of(elem)
    text = f"""
func.func @f(%A: tensor<7x5x{elem}>, %x: tensor<5x{elem}>, %y: tensor<7x{elem}>) -> (tensor<7x{elem}>, tensor<5x{elem}>, tensor<{elem}>) {{
{filled_out("mv", (7,), elem, z)}{filled_out("vm", (5,), elem, z)}{filled_out("d", (), elem, z)}  %a = linalg.matvec ins(%A, %x : tensor<7x5x{elem}>, tensor<5x{elem}>) outs(%mv : tensor<7x{elem}>) -> tensor<7x{elem}>
  %b = linalg.vecmat ins(%y, %A : tensor<7x{elem}>, tensor<7x5x{elem}>) outs(%vm : tensor<5x{elem}>) -> tensor<5x{elem}>
  %c = linalg.dot ins(%y, %y : tensor<7x{elem}>, tensor<7x{elem}>) outs(%d : tensor<{elem}>) -> tensor<{elem}>
  return %a, %b, %c : tensor<7x{elem}>, tensor<5x{elem}>, tensor<{elem}>
}}
"""
    from reference_helpers import parse_or_skip

    from schedir import reference

    mv, vm, d = reference.evaluate(parse_or_skip(text), None, [A, x, y])
    np.testing.assert_allclose(mv, f64(A) @ f64(x), rtol=1e-13)
    np.testing.assert_allclose(vm, f64(y) @ f64(A), rtol=1e-13)
    np.testing.assert_allclose(d, f64(y) @ f64(y), rtol=1e-13)
    assert d.shape == ()


# ---- convolutions and pooling --------------------------------------------------------------


def conv_nhwc_hwcf_loops(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, int],
    dilations: tuple[int, int],
    oh: int,
    ow: int,
) -> np.ndarray:
    """The convolution as explicit loops (tiny sizes only)."""
    n, _, _, c = x.shape
    kh, kw, _, f = w.shape
    out = np.zeros((n, oh, ow, f))
    for b, i, j, o, p, q, ch in itertools.product(
        range(n), range(oh), range(ow), range(f), range(kh), range(kw), range(c)
    ):
        out[b, i, j, o] += float(
            x[b, i * strides[0] + p * dilations[0], j * strides[1] + q * dilations[1], ch]
        ) * float(w[p, q, ch, o])
    return out


def conv_text(
    op: str,
    xs: tuple[int, ...],
    ws: tuple[int, ...],
    os_: tuple[int, ...],
    elem: str,
    strides: tuple[int, int],
    dilations: tuple[int, int],
    out_elem: str | None = None,
) -> str:
    out_elem = out_elem or elem
    tx, tw, to = tensor(xs, elem), tensor(ws, elem), tensor(os_, out_elem)
    attrs = (
        f"{{dilations = dense<[{dilations[0]}, {dilations[1]}]> : tensor<2xi64>, "
        f"strides = dense<[{strides[0]}, {strides[1]}]> : tensor<2xi64>}}"
    )
    return f"""
func.func @f(%x: {tx}, %w: {tw}) -> {to} {{
{filled_out("o", os_, out_elem, zero_of(out_elem))}  %r = {op} {attrs} ins(%x, %w : {tx}, {tw}) outs(%o : {to}) -> {to}
  return %r : {to}
}}
"""


@pytest.mark.parametrize(
    ("strides", "dilations"), [((1, 1), (1, 1)), ((2, 1), (1, 2)), ((2, 3), (2, 1))]
)
def test_conv_2d_nhwc_hwcf_strides_dilations(
    strides: tuple[int, int], dilations: tuple[int, int]
) -> None:
    n, h, w_, c, kh, kw, f = 2, 9, 11, 3, 3, 2, 4
    oh = (h - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (w_ - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    x, w = rand((n, h, w_, c), "f32", 20), rand((kh, kw, c, f), "f32", 21)
    got = run1(
        conv_text(
            "linalg.conv_2d_nhwc_hwcf",
            (n, h, w_, c),
            (kh, kw, c, f),
            (n, oh, ow, f),
            "f32",
            strides,
            dilations,
        ),
        x,
        w,
    )
    np.testing.assert_allclose(
        got, conv_nhwc_hwcf_loops(x, w, strides, dilations, oh, ow), rtol=1e-12, atol=1e-14
    )


def test_conv_2d_nhwc_hwcf_i8_into_i32() -> None:
    x, w = rand((1, 6, 5, 3), "i8", 22), rand((2, 2, 3, 2), "i8", 23)
    got = run1(
        conv_text(
            "linalg.conv_2d_nhwc_hwcf",
            (1, 6, 5, 3),
            (2, 2, 3, 2),
            (1, 5, 4, 2),
            "i8",
            (1, 1),
            (1, 1),
            "i32",
        ).replace(
            "ins(%x, %w : tensor<1x6x5x3xi8>, tensor<2x2x3x2xi8>) outs(%o : tensor<1x5x4x2xi32>)",
            "ins(%x, %w : tensor<1x6x5x3xi8>, tensor<2x2x3x2xi8>) outs(%o : tensor<1x5x4x2xi32>)",
        ),
        x,
        w,
    )
    assert got.dtype == np.int32
    assert (got == conv_nhwc_hwcf_loops(x, w, (1, 1), (1, 1), 5, 4)).all()


def test_conv_2d_nchw_fchw() -> None:
    x, w = rand((2, 3, 8, 7), "f32", 24), rand((4, 3, 3, 2), "f32", 25)
    got = run1(
        conv_text(
            "linalg.conv_2d_nchw_fchw",
            (2, 3, 8, 7),
            (4, 3, 3, 2),
            (2, 4, 3, 6),
            "f32",
            (2, 1),
            (1, 1),
        ),
        x,
        w,
    )
    want = conv_nhwc_hwcf_loops(
        x.transpose(0, 2, 3, 1), w.transpose(2, 3, 1, 0), (2, 1), (1, 1), 3, 6
    ).transpose(0, 3, 1, 2)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)


def test_conv_without_strides_uses_unit_defaults() -> None:
    x, w = rand((1, 5, 6, 2), "f32", 26), rand((3, 3, 2, 3), "f32", 27)
    text = """
func.func @f(%x: tensor<1x5x6x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x3x4x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x3xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x3x4x3xf32>) -> tensor<1x3x4x3xf32>
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x5x6x2xf32>, tensor<3x3x2x3xf32>) outs(%o : tensor<1x3x4x3xf32>) -> tensor<1x3x4x3xf32>
  return %r : tensor<1x3x4x3xf32>
}
"""
    from reference_helpers import parse_or_skip

    from schedir import reference

    module = parse_or_skip(text)
    (got,) = reference.evaluate(module, None, [x, w])
    np.testing.assert_allclose(
        got, conv_nhwc_hwcf_loops(x, w, (1, 1), (1, 1), 3, 4), rtol=1e-12, atol=1e-14
    )


def test_depthwise_conv_2d_nhwc_hwc() -> None:
    x, w = rand((1, 7, 6, 3), "f32", 28), rand((2, 3, 3), "f32", 29)
    got = run1(
        conv_text(
            "linalg.depthwise_conv_2d_nhwc_hwc",
            (1, 7, 6, 3),
            (2, 3, 3),
            (1, 3, 4, 3),
            "f32",
            (2, 1),
            (1, 1),
        ),
        x,
        w,
    )
    want = np.zeros((1, 3, 4, 3))
    for i, j, ch, p, q in itertools.product(range(3), range(4), range(3), range(2), range(3)):
        want[0, i, j, ch] += float(x[0, 2 * i + p, j + q, ch]) * float(w[p, q, ch])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_pooling_nchw_max() -> None:
    x = rand((2, 3, 7, 8), "f32", 30)
    window = np.zeros((3, 2), np.float32)
    text = """
func.func @f(%x: tensor<2x3x7x8xf32>, %k: tensor<3x2xf32>) -> tensor<2x3x3x7xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x3x3x7xf32>
  %o = linalg.fill ins(%ninf : f32) outs(%e : tensor<2x3x3x7xf32>) -> tensor<2x3x3x7xf32>
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
      ins(%x, %k : tensor<2x3x7x8xf32>, tensor<3x2xf32>) outs(%o : tensor<2x3x3x7xf32>) -> tensor<2x3x3x7xf32>
  return %r : tensor<2x3x3x7xf32>
}
"""
    got = run1(text, x, window)
    want = np.full((2, 3, 3, 7), -np.inf)
    for i, j, p, q in itertools.product(range(3), range(7), range(3), range(2)):
        want[:, :, i, j] = np.maximum(want[:, :, i, j], f64(x[:, :, 2 * i + p, j + q]))
    assert (got == want).all()


# ---- fill, copy, transpose, broadcast, elementwise -----------------------------------------


@pytest.mark.parametrize(
    ("elem", "value", "want"),
    [
        ("f32", "2.5", 2.5),
        ("i32", "-7", -7),
        ("i8", "100", 100),
        ("f16", "0.1", float(np.float16(0.1))),
    ],
)
def test_fill(elem: str, value: str, want: float) -> None:
    t = tensor([3, 5], elem)
    text = f"""
func.func @f() -> {t} {{
  %c = arith.constant {value} : {elem}
  %e = tensor.empty() : {t}
  %r = linalg.fill ins(%c : {elem}) outs(%e : {t}) -> {t}
  return %r : {t}
}}
"""
    got = run1(text)
    assert got.shape == (3, 5) and (got == want).all()


def test_fill_value_of_another_type_is_rejected_as_upstream() -> None:
    # Upstream's verifier rejects it too ("expected fill value type ('f32') to match output
    # element type ('f16')"); the cast belongs in the payload (arith.truncf).
    text = """
func.func @f(%v: f32) -> tensor<4xf16> {
  %e = tensor.empty() : tensor<4xf16>
  %r = linalg.fill ins(%v : f32) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}
"""
    from schedir.diagnostics import VerifyError
    from schedir.dialects.syntax import parse_module

    with pytest.raises(VerifyError, match="fill value type"):
        parse_module(text, "<test>")


def test_copy_casts_to_the_output_type() -> None:
    x = rand((5, 4), "f32", 31)
    text = """
func.func @f(%x: tensor<5x4xf32>) -> (tensor<5x4xf32>, tensor<5x4xbf16>) {
  %e = tensor.empty() : tensor<5x4xf32>
  %a = linalg.copy ins(%x : tensor<5x4xf32>) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
  %f = tensor.empty() : tensor<5x4xbf16>
  %b = linalg.copy ins(%x : tensor<5x4xf32>) outs(%f : tensor<5x4xbf16>) -> tensor<5x4xbf16>
  return %a, %b : tensor<5x4xf32>, tensor<5x4xbf16>
}
"""
    a, b = run(text, x)
    assert (a == f64(x)).all()
    from reference_helpers import bf16_round_from_f32

    assert b.reshape(-1).tolist() == [bf16_round_from_f32(float(v)) for v in x.reshape(-1)]


def test_transpose_and_broadcast() -> None:
    x = rand((3, 5, 4), "i32", 32)
    y = rand((5,), "f32", 33)
    text = """
func.func @f(%x: tensor<3x5x4xi32>, %y: tensor<5xf32>) -> (tensor<4x3x5xi32>, tensor<2x5x3xf32>) {
  %e = tensor.empty() : tensor<4x3x5xi32>
  %t = linalg.transpose ins(%x : tensor<3x5x4xi32>) outs(%e : tensor<4x3x5xi32>) permutation = [2, 0, 1]
  %f = tensor.empty() : tensor<2x5x3xf32>
  %b = linalg.broadcast ins(%y : tensor<5xf32>) outs(%f : tensor<2x5x3xf32>) dimensions = [0, 2]
  return %t, %b : tensor<4x3x5xi32>, tensor<2x5x3xf32>
}
"""
    t, b = run(text, x, y)
    assert t.dtype == np.int32 and (t == np.transpose(x, (2, 0, 1))).all()
    assert (b == np.broadcast_to(f64(y)[None, :, None], (2, 5, 3))).all()


def xdsl_named_module(op_name: str, in_types: list[object], out_type: object) -> ModuleOp:
    """A function applying xDSL's own class for a named elementwise op, built in Python.

    schedir's linalg dialect does not register these ops; the reference still evaluates
    them by name, and building them with xDSL's classes checks that without the parser.
    """
    from xdsl.dialects import func
    from xdsl.dialects import tensor as xtensor
    from xdsl.dialects.linalg import ops as xlinalg
    from xdsl.ir import Block, Region

    classes = {
        "add": xlinalg.AddOp, "sub": xlinalg.SubOp, "mul": xlinalg.MulOp, "max": xlinalg.MaxOp,
        "min": xlinalg.MinOp, "exp": xlinalg.ExpOp, "log": xlinalg.LogOp, "sqrt": xlinalg.SqrtOp,
        "select": xlinalg.SelectOp,
    }  # fmt: skip
    block = Block(arg_types=in_types)
    empty = xtensor.EmptyOp([], out_type)
    op = classes[op_name](list(block.args), [empty.tensor], [out_type])
    block.add_ops([empty, op, func.ReturnOp(op.res[0])])
    return ModuleOp([func.FuncOp("f", (in_types, (out_type,)), Region(block))])


@pytest.mark.parametrize(
    ("op", "formula"),
    [
        ("add", lambda a, b: a + b),
        ("sub", lambda a, b: a - b),
        ("mul", lambda a, b: a * b),
        ("max", np.maximum),
        ("min", np.minimum),
    ],
)
def test_named_elementwise_binary(op: str, formula: object) -> None:
    from xdsl.dialects.builtin import TensorType, f32

    t = TensorType(f32, [6, 7])
    a, b = rand((6, 7), "f32", 34), rand((6, 7), "f32", 35)
    a[0, 0] = np.nan
    (got,) = reference.evaluate(xdsl_named_module(op, [t, t], t), None, [a, b])
    np.testing.assert_allclose(got, formula(f64(a), f64(b)), rtol=1e-15)  # type: ignore[operator]
    assert np.isnan(got[0, 0])  # linalg.max/min use maximumf/minimumf: NaN propagates


@pytest.mark.parametrize(("op", "formula"), [("exp", np.exp), ("log", np.log), ("sqrt", np.sqrt)])
def test_named_elementwise_unary(op: str, formula: object) -> None:
    from xdsl.dialects.builtin import TensorType, f32

    t = TensorType(f32, [6, 7])
    a = np.abs(rand((6, 7), "f32", 36))
    (got,) = reference.evaluate(xdsl_named_module(op, [t], t), None, [a])
    np.testing.assert_allclose(got, formula(f64(a)), rtol=1e-15)  # type: ignore[operator]


def test_named_elementwise_on_integers_wraps() -> None:
    from xdsl.dialects.builtin import IntegerType, TensorType, i1

    t = TensorType(IntegerType(8), [2, 3])
    a = np.array([[100, -100, 7], [127, -128, 0]], np.int8)
    b = np.array([[100, -100, -9], [1, -1, 5]], np.int8)
    (s,) = reference.evaluate(xdsl_named_module("add", [t, t], t), None, [a, b])
    (m,) = reference.evaluate(xdsl_named_module("max", [t, t], t), None, [a, b])
    assert s.tolist() == wrap(a.astype(np.int64) + b, "i8").tolist()
    assert m.tolist() == np.maximum(a, b).tolist()
    c = np.array([[True, False, True], [False, False, True]])
    (sel,) = reference.evaluate(
        xdsl_named_module("select", [TensorType(i1, [2, 3]), t, t], t), None, [c, a, b]
    )
    assert sel.tolist() == np.where(c, a, b).tolist()


def test_matmul_cast_unsigned() -> None:
    A, B = rand((4, 6), "i8", 81), rand((6, 3), "i8", 82)
    text = matmul_text(4, 3, 6, "i8", "i8", "i32", extra="{cast = #linalg.type_fn<cast_unsigned>} ")
    got = run1(text, A, B)
    unsigned = lambda x: x.astype(np.int64) & 0xFF  # noqa: E731 - extui to i32
    assert (got == unsigned(A) @ unsigned(B)).all()
    assert not (got == A.astype(np.int64) @ B.astype(np.int64)).all()
