"""The reference's `arith` and `math` ops against independent formulas (Python integers,
`math`, `struct`), evaluated inside 1-D linalg.generic bodies and in scalar functions."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from reference_helpers import (
    INT_DTYPES,
    bf16_round_from_f32,
    elementwise,
    f16_round,
    f32_round,
    run1,
    to_signed,
    to_unsigned,
)

BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _int_samples(elem: str, n: int, seed: int) -> np.ndarray:
    """Edge values of the type followed by random ones."""
    bits = BITS[elem]
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    edges = [lo, lo + 1, -2, -1, 0, 1, 2, hi - 1, hi, 3, -3, 7, -7]
    rng = np.random.default_rng(seed)
    rand = rng.integers(lo, hi, size=n - len(edges), endpoint=True, dtype=np.int64)
    return np.array(edges + [int(v) for v in rand], dtype=INT_DTYPES[elem])


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _int_formula(name: str, a: int, b: int, bits: int) -> int:
    """Upstream arith semantics on Python integers, before wrapping."""
    ua, ub = to_unsigned(a, bits), to_unsigned(b, bits)
    match name:
        case "addi":
            return a + b
        case "subi":
            return a - b
        case "muli":
            return a * b
        case "divsi":
            return _trunc_div(a, b)
        case "remsi":
            return a - b * _trunc_div(a, b)
        case "floordivsi":
            return a // b
        case "ceildivsi":
            return -((-a) // b)
        case "divui":
            return ua // ub
        case "remui":
            return ua % ub
        case "ceildivui":
            return -((-ua) // ub)
        case "maxsi":
            return max(a, b)
        case "minsi":
            return min(a, b)
        case "maxui":
            return max(ua, ub)
        case "minui":
            return min(ua, ub)
        case "andi":
            return a & b
        case "ori":
            return a | b
        case "xori":
            return a ^ b
        case "shli":
            return ua << ub
        case "shrui":
            return ua >> ub
        case "shrsi":
            return a >> ub
    raise AssertionError(name)


INT_OPS = [
    "addi", "subi", "muli", "divsi", "remsi", "floordivsi", "ceildivsi", "divui", "remui",
    "ceildivui", "maxsi", "minsi", "maxui", "minui", "andi", "ori", "xori", "shli", "shrui", "shrsi",
]  # fmt: skip


@pytest.mark.parametrize("elem", ["i8", "i16", "i32", "i64"])
@pytest.mark.parametrize("name", INT_OPS)
def test_integer_binary_ops_wrap_at_their_width(name: str, elem: str) -> None:
    bits = BITS[elem]
    n = 41
    a = _int_samples(elem, n, 1)
    b = np.roll(_int_samples(elem, n, 2), 3)
    if name.startswith("sh"):
        b = np.arange(n, dtype=np.int64) % bits
        b = b.astype(INT_DTYPES[elem])
    if name in ("divsi", "remsi", "floordivsi", "ceildivsi", "divui", "remui", "ceildivui"):
        # Division by zero and INT_MIN / -1 are undefined upstream: keep them out.
        b = np.where(b == 0, 5, b).astype(INT_DTYPES[elem])
        a = np.where((a == -(1 << (bits - 1))) & (b == -1), 9, a).astype(INT_DTYPES[elem])
    text = elementwise(f"%v = arith.{name} %x0, %x1 : {elem}", [elem, elem], elem, n)
    got = run1(text, a, b)
    want = [
        to_signed(_int_formula(name, int(x), int(y), bits), bits) for x, y in zip(a, b, strict=True)
    ]
    assert got.dtype == INT_DTYPES[elem]
    assert got.tolist() == want


@pytest.mark.parametrize(
    ("name", "table"),
    [
        # i1 is signed: true reads as -1. addi is xor, muli is and.
        ("addi", [[0, 1], [1, 0]]),
        ("muli", [[0, 0], [0, 1]]),
        ("maxsi", [[0, 0], [0, 1]]),
        ("minsi", [[0, 1], [1, 1]]),
        ("maxui", [[0, 1], [1, 1]]),
        ("xori", [[0, 1], [1, 0]]),
    ],
)
def test_i1_arithmetic_is_one_bit_twos_complement(name: str, table: list[list[int]]) -> None:
    a = np.array([False, False, True, True])
    b = np.array([False, True, False, True])
    got = run1(elementwise(f"%v = arith.{name} %x0, %x1 : i1", ["i1", "i1"], "i1", 4), a, b)
    assert got.dtype == np.bool_
    assert got.tolist() == [bool(table[int(x)][int(y)]) for x, y in zip(a, b, strict=True)]


CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]


@pytest.mark.parametrize("elem", ["i1", "i8", "i32", "i64"])
@pytest.mark.parametrize("predicate", CMPI)
def test_cmpi_every_predicate(predicate: str, elem: str) -> None:
    if elem == "i1":
        a = np.array([False, False, True, True])
        b = np.array([False, True, False, True])
        bits = 1
    else:
        a, b = _int_samples(elem, 29, 3), np.roll(_int_samples(elem, 29, 4), 5)
        bits = BITS[elem]
    text = elementwise(
        f"%v = arith.cmpi {predicate}, %x0, %x1 : {elem}", [elem, elem], "i1", len(a)
    )
    got = run1(text, a, b)

    def want(x: int, y: int) -> bool:
        if predicate.startswith("u"):
            x, y = to_unsigned(int(x), bits), to_unsigned(int(y), bits)
        else:
            x, y = to_signed(int(x), bits), to_signed(int(y), bits)
        op = predicate[-2:] if predicate not in ("eq", "ne") else predicate
        return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y}[
            op
        ]

    assert got.tolist() == [want(x, y) for x, y in zip(a, b, strict=True)]


SPECIAL = [0.0, -0.0, 1.5, -2.25, float("nan"), float("inf"), float("-inf"), 3.0, 1e-3]
CMPF = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
        "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true"]  # fmt: skip


@pytest.mark.parametrize("predicate", CMPF)
def test_cmpf_every_predicate_with_nan(predicate: str) -> None:
    pairs = [(x, y) for x in SPECIAL for y in SPECIAL]
    a = np.array([p[0] for p in pairs], np.float32)
    b = np.array([p[1] for p in pairs], np.float32)
    got = run1(
        elementwise(f"%v = arith.cmpf {predicate}, %x0, %x1 : f32", ["f32", "f32"], "i1", len(a)),
        a,
        b,
    )

    def want(x: float, y: float) -> bool:
        if predicate in ("false", "true"):
            return predicate == "true"
        unordered = math.isnan(x) or math.isnan(y)
        if predicate == "ord":
            return not unordered
        if predicate == "uno":
            return unordered
        rel = {"eq": x == y, "ne": x != y, "gt": x > y, "ge": x >= y, "lt": x < y, "le": x <= y}[
            predicate[1:]
        ]
        return (rel and not unordered) if predicate[0] == "o" else (rel or unordered)

    assert got.tolist() == [want(float(x), float(y)) for x, y in zip(a, b, strict=True)]


def _same(x: float, y: float) -> bool:
    """Equal, both NaN, or both zeros of the same sign."""
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y and math.copysign(1, x) == math.copysign(1, y)


MINMAX = {
    # IEEE 754-2019 maximum/minimum propagate NaN and order -0 < +0; maxNum/minNum
    # return the other operand when one is NaN.
    "maximumf": lambda x, y: (
        math.nan
        if math.isnan(x) or math.isnan(y)
        else (y if x == y and math.copysign(1, x) < 0 else max(x, y))
    ),
    "minimumf": lambda x, y: (
        math.nan
        if math.isnan(x) or math.isnan(y)
        else (y if x == y and math.copysign(1, y) < 0 else min(x, y))
    ),
    "maxnumf": lambda x, y: y if math.isnan(x) else x if math.isnan(y) else max(x, y),
    "minnumf": lambda x, y: y if math.isnan(x) else x if math.isnan(y) else min(x, y),
}


@pytest.mark.parametrize("name", list(MINMAX))
def test_float_min_max_nan_semantics(name: str) -> None:
    pairs = [(x, y) for x in SPECIAL for y in SPECIAL]
    a = np.array([p[0] for p in pairs], np.float32)
    b = np.array([p[1] for p in pairs], np.float32)
    got = run1(
        elementwise(f"%v = arith.{name} %x0, %x1 : f32", ["f32", "f32"], "f32", len(a)), a, b
    )
    for x, y, g in zip(a, b, got, strict=True):
        want = MINMAX[name](float(x), float(y))
        if name in ("maximumf", "minimumf") and float(x) == 0 and float(y) == 0:
            assert _same(g, want), (x, y, g)
        else:
            assert (math.isnan(g) and math.isnan(want)) or g == want, (x, y, g, want)


FLOAT_BINARY = {
    "addf": lambda x, y: x + y,
    "subf": lambda x, y: x - y,
    "mulf": lambda x, y: x * y,
    "divf": lambda x, y: x / y,
    "remf": math.fmod,
}


@pytest.mark.parametrize("elem", ["f32", "f16", "bf16", "f64"])
@pytest.mark.parametrize("name", list(FLOAT_BINARY))
def test_float_binary_ops_compute_in_float64(name: str, elem: str) -> None:
    dtype = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}[
        elem
    ]
    rng = np.random.default_rng(5)
    a = rng.uniform(-3, 3, 37).astype(dtype)
    b = rng.uniform(0.5, 2, 37).astype(dtype) * np.where(rng.integers(0, 2, 37) == 1, 1, -1).astype(
        dtype
    )
    got = run1(elementwise(f"%v = arith.{name} %x0, %x1 : {elem}", [elem, elem], elem, 37), a, b)
    want = [FLOAT_BINARY[name](float(x), float(y)) for x, y in zip(a, b, strict=True)]
    assert got.dtype == np.float64
    # No rounding to the declared type: the float64 result exactly.
    assert got.tolist() == want


UNARY = {
    "math.exp": math.exp, "math.exp2": lambda x: 2.0**x, "math.expm1": math.expm1,
    "math.log": math.log, "math.log1p": math.log1p, "math.log2": math.log2,
    "math.log10": math.log10, "math.sqrt": math.sqrt, "math.rsqrt": lambda x: 1 / math.sqrt(x),
    "math.tanh": math.tanh, "math.erf": math.erf, "math.sin": math.sin, "math.cos": math.cos,
    "math.tan": math.tan, "math.atan": math.atan, "math.asin": math.asin, "math.acos": math.acos,
    "math.sinh": math.sinh, "math.cosh": math.cosh, "math.asinh": math.asinh,
    "math.atanh": math.atanh, "math.cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "math.absf": abs, "math.floor": math.floor, "math.ceil": math.ceil, "math.trunc": math.trunc,
    "arith.negf": lambda x: -x,
}  # fmt: skip
POSITIVE_ONLY = {"math.log", "math.log1p", "math.log2", "math.log10", "math.sqrt", "math.rsqrt"}
UNIT_ONLY = {"math.asin", "math.acos", "math.atanh"}


@pytest.mark.parametrize("name", list(UNARY))
def test_float_unary_ops(name: str) -> None:
    rng = np.random.default_rng(7)
    x = rng.uniform(-2, 2, 53).astype(np.float32)
    if name in POSITIVE_ONLY:
        x = np.abs(x) + np.float32(0.01)
    if name in UNIT_ONLY:
        x = x / np.float32(2.5)
    got = run1(elementwise(f"%v = {name} %x0 : f32", ["f32"], "f32", 53), x)
    want = np.array([UNARY[name](float(v)) for v in x])
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_math_round_is_half_away_from_zero_and_roundeven_half_to_even() -> None:
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.49999997, -0.49999997, 3.7, -3.2], np.float32)
    rounded = run1(elementwise("%v = math.round %x0 : f32", ["f32"], "f32", 10), x)
    even = run1(elementwise("%v = math.roundeven %x0 : f32", ["f32"], "f32", 10), x)
    assert rounded.tolist() == [-3.0, -2.0, -1.0, 1.0, 2.0, 3.0, 0.0, -0.0, 4.0, -3.0]
    assert even.tolist() == [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0, 0.0, -0.0, 4.0, -3.0]


def test_math_binary_and_ternary_ops() -> None:
    rng = np.random.default_rng(8)
    a = rng.uniform(0.1, 2, 23).astype(np.float32)
    b = rng.uniform(-2, 2, 23).astype(np.float32)
    c = rng.uniform(-2, 2, 23).astype(np.float32)
    fa, fb, fc = (x.astype(np.float64) for x in (a, b, c))
    cases = {
        "%v = math.powf %x0, %x1 : f32": [math.pow(x, y) for x, y in zip(fa, fb, strict=True)],
        "%v = math.atan2 %x1, %x0 : f32": [math.atan2(y, x) for x, y in zip(fa, fb, strict=True)],
        "%v = math.copysign %x0, %x1 : f32": [
            math.copysign(x, y) for x, y in zip(fa, fb, strict=True)
        ],
    }
    for body, want in cases.items():
        got = run1(elementwise(body, ["f32", "f32"], "f32", 23), a, b)
        np.testing.assert_allclose(got, want, rtol=1e-14)
    fma = run1(elementwise("%v = math.fma %x0, %x1, %x2 : f32", ["f32"] * 3, "f32", 23), a, b, c)
    np.testing.assert_allclose(fma, fa * fb + fc, rtol=1e-14)


def test_fpowi_ipowi_absi_and_bit_counts() -> None:
    x = np.array([1.5, -2.0, 0.5, 3.0], np.float32)
    n = np.array([3, -2, 4, 0], np.int32)
    got = run1(elementwise("%v = math.fpowi %x0, %x1 : f32, i32", ["f32", "i32"], "f32", 4), x, n)
    assert got.tolist() == [3.375, 0.25, 0.0625, 1.0]
    base = np.array([3, -2, 7, 2, 1, -1, -1, 5], np.int8)
    exp = np.array([4, 3, 3, 7, -3, -3, -2, -1], np.int8)
    got = run1(elementwise("%v = math.ipowi %x0, %x1 : i8", ["i8", "i8"], "i8", 8), base, exp)
    # 7**3 = 343 wraps to 87 in i8; 2**7 = 128 wraps to -128; x**-n is 0 unless |x| == 1.
    assert got.tolist() == [81, -8, 87, -128, 1, -1, 1, 0]
    v = np.array([0, 1, -1, -128, 127, 64, 6, -8], np.int8)
    assert run1(elementwise("%v = math.absi %x0 : i8", ["i8"], "i8", 8), v).tolist() == [
        0,
        1,
        1,
        -128,
        127,
        64,
        6,
        8,
    ]
    unsigned = [to_unsigned(int(i), 8) for i in v]
    assert run1(elementwise("%v = math.ctpop %x0 : i8", ["i8"], "i8", 8), v).tolist() == [
        bin(u).count("1") for u in unsigned
    ]
    assert run1(elementwise("%v = math.ctlz %x0 : i8", ["i8"], "i8", 8), v).tolist() == [
        8 - u.bit_length() for u in unsigned
    ]
    cttz = [8 if u == 0 else (u & -u).bit_length() - 1 for u in unsigned]
    assert run1(elementwise("%v = math.cttz %x0 : i8", ["i8"], "i8", 8), v).tolist() == cttz


def test_truncf_rounds_to_nearest_even_like_the_hardware() -> None:
    rng = np.random.default_rng(9)
    # Ties, values just off ties, overflow, subnormals and random values, all exact in f32.
    special = [1 + 2**-11, 1 + 3 * 2**-11, 1 + 2**-11 + 2**-20, 65504.0, 65520.0, 70000.0,
               2.0**-24, 2.0**-25, 3 * 2.0**-26, -(1 + 2**-8), 1 + 2**-8 + 2**-20, 3.0e38]  # fmt: skip
    x = np.array(special + list(rng.uniform(-100, 100, 40)), np.float32)
    n = len(x)
    half = run1(elementwise("%v = arith.truncf %x0 : f32 to f16", ["f32"], "f16", n), x)
    assert half.dtype == np.float64
    assert half.tolist() == [f16_round(float(v)) for v in x]
    bf = run1(elementwise("%v = arith.truncf %x0 : f32 to bf16", ["f32"], "bf16", n), x)
    assert bf.tolist() == [bf16_round_from_f32(float(v)) for v in x]


def test_truncf_rounds_float64_once() -> None:
    # 1 + 2**-8 + 2**-30 is just above a bf16 tie; rounding through f32 first would land on
    # the tie and round down to 1.0.
    text = """
func.func @f(%x: f64, %y: f64) -> (bf16, f32) {
  %b = arith.truncf %x : f64 to bf16
  %s = arith.truncf %y : f64 to f32
  return %b, %s : bf16, f32
}
"""
    from reference_helpers import run

    b, s = run(text, np.float64(1 + 2**-8 + 2**-30), np.float64(0.1))
    assert float(b) == 1 + 2**-7
    assert float(s) == f32_round(0.1)


def test_extf_is_exact_and_chain_keeps_float64_between_ops() -> None:
    x = np.array([0.1, 1 / 3, 65504, -2.5e-5], np.float16)
    got = run1(elementwise("%v = arith.extf %x0 : f16 to f32", ["f16"], "f32", 4), x)
    assert got.tolist() == [float(v) for v in x]
    # (a * 3) / 3 in float64 gives a back exactly; f32 arithmetic would not for every a.
    a = np.array([0.1, 0.7, 1 / 3, 1e-3], np.float32)
    body = "%t = arith.constant 3.0 : f32\n    %m = arith.mulf %x0, %t : f32\n    %v = arith.divf %m, %t : f32"
    got = run1(elementwise(body, ["f32"], "f32", 4), a)
    assert got.tolist() == [float(v) * 3.0 / 3.0 for v in a]


def test_integer_casts() -> None:
    v = np.array([-128, -1, 0, 1, 127, 100], np.int8)
    assert run1(elementwise("%v = arith.extsi %x0 : i8 to i32", ["i8"], "i32", 6), v).tolist() == [
        -128,
        -1,
        0,
        1,
        127,
        100,
    ]
    assert run1(elementwise("%v = arith.extui %x0 : i8 to i32", ["i8"], "i32", 6), v).tolist() == [
        128,
        255,
        0,
        1,
        127,
        100,
    ]
    w = np.array([300, -129, 255, 128, -1, 2**31 - 1], np.int32)
    assert run1(elementwise("%v = arith.trunci %x0 : i32 to i8", ["i32"], "i8", 6), w).tolist() == [
        to_signed(int(i), 8) for i in w
    ]
    assert (
        run1(
            elementwise("%v = arith.index_cast %x0 : i32 to index", ["i32"], "index", 6), w
        ).tolist()
        == w.tolist()
    )
    big = np.array([2**40 + 5, -(2**33) - 1, 7, -7, 0, 2**31], np.int64)
    assert run1(
        elementwise("%v = arith.index_cast %x0 : index to i32", ["index"], "i32", 6), big
    ).tolist() == [to_signed(int(i), 32) for i in big]
    assert run1(
        elementwise("%v = arith.index_castui %x0 : i32 to index", ["i32"], "index", 6), w
    ).tolist() == [to_unsigned(int(i), 32) for i in w]
    flags = np.array([True, False, True, False, True, True])
    assert run1(
        elementwise("%v = arith.extsi %x0 : i1 to i32", ["i1"], "i32", 6), flags
    ).tolist() == [-1, 0, -1, 0, -1, -1]
    assert run1(
        elementwise("%v = arith.extui %x0 : i1 to i32", ["i1"], "i32", 6), flags
    ).tolist() == [1, 0, 1, 0, 1, 1]


def test_int_float_conversions() -> None:
    v = np.array([-128, -1, 0, 1, 127, 77], np.int8)
    assert run1(elementwise("%v = arith.sitofp %x0 : i8 to f32", ["i8"], "f32", 6), v).tolist() == [
        float(i) for i in v
    ]
    assert run1(elementwise("%v = arith.uitofp %x0 : i8 to f32", ["i8"], "f32", 6), v).tolist() == [
        float(to_unsigned(int(i), 8)) for i in v
    ]
    # Integers above 2**11 are rounded to f16's precision (ties to even).
    w = np.array([2049, 2051, 4097, 65519, 65520, -3001], np.int32)
    assert run1(
        elementwise("%v = arith.sitofp %x0 : i32 to f16", ["i32"], "f16", 6), w
    ).tolist() == [f16_round(float(i)) for i in w]
    big = np.array([2**24 + 1, 2**53 + 1, -(2**62) - 1, 3, 0, -5], np.int64)
    assert run1(
        elementwise("%v = arith.sitofp %x0 : i64 to f32", ["i64"], "f32", 6), big
    ).tolist() == [
        f32_round(float(int(i))) if abs(int(i)) < 2**53 else float(np.float32(int(i))) for i in big
    ]
    f = np.array([-3.7, -0.5, 0.5, 2.9, 127.9, -128.9], np.float32)
    assert run1(elementwise("%v = arith.fptosi %x0 : f32 to i8", ["f32"], "i8", 6), f).tolist() == [
        -3,
        0,
        0,
        2,
        127,
        -128,
    ]
    g = np.array([0.5, 1.9, 200.7, 255.2, 3.0, 17.5], np.float32)
    assert run1(elementwise("%v = arith.fptoui %x0 : f32 to i8", ["f32"], "i8", 6), g).tolist() == [
        to_signed(int(x), 8) for x in g
    ]


def test_bitcast_between_floats_and_integers() -> None:
    x = np.array([1.0, -2.5, 0.1, np.inf], np.float32)
    bits = run1(elementwise("%v = arith.bitcast %x0 : f32 to i32", ["f32"], "i32", 4), x)
    assert bits.tolist() == x.view(np.int32).tolist()
    back = run1(elementwise("%v = arith.bitcast %x0 : i32 to f32", ["i32"], "f32", 4), bits)
    assert back.tolist() == x.astype(np.float64).tolist()
    h = np.array([1.0, -0.333, 65504, 2**-20], np.float16)
    assert (
        run1(elementwise("%v = arith.bitcast %x0 : f16 to i16", ["f16"], "i16", 4), h).tolist()
        == h.view(np.int16).tolist()
    )


def test_select_and_scalar_functions() -> None:
    c = np.array([True, False, True])
    a = np.array([1.5, 2.5, 3.5], np.float32)
    b = np.array([-1.0, -2.0, -3.0], np.float32)
    got = run1(
        elementwise("%v = arith.select %x0, %x1, %x2 : f32", ["i1", "f32", "f32"], "f32", 3),
        c,
        a,
        b,
    )
    assert got.tolist() == [1.5, -2.0, 3.5]
    text = """
func.func @f(%a: i32, %b: i32, %c: i1) -> (i32, i32) {
  %s = arith.addi %a, %b : i32
  %m = arith.select %c, %s, %a : i32
  return %s, %m : i32, i32
}
"""
    from reference_helpers import run

    s, m = run(text, np.int32(2**31 - 1), np.int32(1), np.bool_(True))
    assert s.dtype == np.int32 and int(s) == -(2**31) and int(m) == -(2**31)


def test_constants_splat_dense_and_rounded_to_their_type() -> None:
    text = """
func.func @f() -> (tensor<2x3xf32>, tensor<4xi8>, tensor<3xi1>, f16, f32, tensor<2x2xbf16>, index) {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [0.1, -5.0, 6.5]]> : tensor<2x3xf32>
  %b = arith.constant dense<[1, -2, 127, -128]> : tensor<4xi8>
  %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
  %d = arith.constant 0.1 : f16
  %e = arith.constant 0x7FC00000 : f32
  %f = arith.constant dense<3.3> : tensor<2x2xbf16>
  %g = arith.constant -7 : index
  return %a, %b, %c, %d, %e, %f, %g : tensor<2x3xf32>, tensor<4xi8>, tensor<3xi1>, f16, f32, tensor<2x2xbf16>, index
}
"""
    from reference_helpers import run

    a, b, c, d, e, f, g = run(text)
    assert a.tolist() == [[1.0, 2.0, 3.0], [f32_round(0.1), -5.0, 6.5]]
    assert b.dtype == np.int8 and b.tolist() == [1, -2, 127, -128]
    assert c.dtype == np.bool_ and c.tolist() == [True, False, True]
    assert float(d) == f16_round(0.1)
    assert math.isnan(float(e))
    assert f.tolist() == [[bf16_round_from_f32(f32_round(3.3))] * 2] * 2
    assert g.dtype == np.int64 and int(g) == -7


def test_extended_arithmetic() -> None:
    text = """
func.func @f(%a: i8, %b: i8) -> (i8, i1, i8, i8, i8, i8) {
  %s, %o = arith.addui_extended %a, %b : i8, i1
  %l, %h = arith.mului_extended %a, %b : i8
  %sl, %sh = arith.mulsi_extended %a, %b : i8
  return %s, %o, %l, %h, %sl, %sh : i8, i1, i8, i8, i8, i8
}
"""
    from reference_helpers import run

    a, b = -56, 100  # 200 and 100 unsigned
    s, o, lo, hi, slo, shi = run(text, np.int8(a), np.int8(b))
    assert int(s) == to_signed(300, 8) and bool(o)
    assert (int(lo), int(hi)) == (to_signed(20000, 8), to_signed(20000 >> 8, 8))
    assert (int(slo), int(shi)) == (to_signed(a * b, 8), to_signed((a * b) >> 8, 8))


def test_erf_on_scalars() -> None:
    # math.erf on a 0-d value (a scalar function argument) used to crash the reference.
    import math

    from schedir import reference

    text = """
func.func @f(%x: f32) -> f32 {
  %a = math.erf %x : f32
  return %a : f32
}
"""
    (erf,) = reference.evaluate(text, None, [np.float32(0.3)])
    assert float(erf) == math.erf(float(np.float32(0.3)))
