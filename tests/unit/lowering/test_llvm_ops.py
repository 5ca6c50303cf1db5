"""Every arith and math op, on every element type it takes, against `schedir.reference`.

Each case is one elementwise loop over memrefs (`out[i] = op(a[i], b[i], ...)`, the result
a returned, dynamically shaped allocation) lowered by schedir's LLVM passes and run by the
JIT; the same function evaluated by the numpy reference is the oracle, compared with
`reference.compare` (dtype-aware tolerances; integers and booleans exactly). Inputs stay in
each op's domain (no division by zero, shifts below the width, ...): those are poison in
LLVM and say nothing about the lowering. The cases of one element type share a module, so
each type is compiled once.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import ml_dtypes
import numpy as np
import pytest
from test_llvm_harness import Compiled, compile_module

from schedir import reference
from schedir.abi import MemRefSpec
from schedir.reference import bounds

N = 37
DTYPES: dict[str, np.dtype] = {
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "index": np.dtype(np.int64),
}
FLOATS = ("f16", "bf16", "f32", "f64")
INTS = ("i8", "i32", "i64")

Domain = Callable[[np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class Case:
    """`out[i] = <body>(x0[i], x1[i], ...)`: operand types, result type, the body's ops."""

    name: str
    operands: tuple[str, ...]
    result: str
    body: str
    domains: tuple[Domain, ...]

    def function(self) -> str:
        args = ", ".join(f"%a{k}: memref<?x{t}>" for k, t in enumerate(self.operands))
        loads = "\n".join(
            f"    %x{k} = memref.load %a{k}[%i] : memref<?x{t}>"
            for k, t in enumerate(self.operands)
        )
        body = "\n".join("    " + line.strip() for line in self.body.strip().splitlines())
        return (
            f"func.func @{self.name}({args}) -> memref<?x{self.result}> {{\n"
            "  %c0 = arith.constant 0 : index\n"
            "  %c1 = arith.constant 1 : index\n"
            f"  %n = memref.dim %a0, %c0 : memref<?x{self.operands[0]}>\n"
            f"  %out = memref.alloc(%n) : memref<?x{self.result}>\n"
            "  scf.for %i = %c0 to %n step %c1 {\n"
            f"{loads}\n{body}\n"
            f"    memref.store %r, %out[%i] : memref<?x{self.result}>\n"
            "  }\n"
            f"  return %out : memref<?x{self.result}>\n"
            "}\n"
        )

    def inputs(self, rng: np.random.Generator) -> list[np.ndarray]:
        return [
            np.asarray(domain(rng)).astype(DTYPES[t])
            for domain, t in zip(self.domains, self.operands, strict=True)
        ]


def uniform(low: float, high: float) -> Domain:
    return lambda rng: rng.uniform(low, high, N)


def nonzero(low: float, high: float) -> Domain:
    """Magnitudes in [low, high] with random signs."""
    return lambda rng: rng.uniform(low, high, N) * rng.choice([-1.0, 1.0], N)


def halves(rng: np.random.Generator) -> np.ndarray:
    """Values on and off .5 boundaries, where the rounding functions differ."""
    return np.concatenate([np.arange(-9, 9) / 2.0, rng.uniform(-20, 20, N - 18)])


def small_and_large(rng: np.random.Generator) -> np.ndarray:
    """Values near 0 (where exp(x) - 1 and log(1 + x) lose everything) and ordinary ones."""
    return np.concatenate([rng.uniform(-1e-3, 1e-3, 17), rng.uniform(-0.5, 2, N - 17)])


def ints(dtype: str, low: int | None = None, high: int | None = None) -> Domain:
    info = np.iinfo(DTYPES[dtype]) if dtype != "i1" else None

    def make(rng: np.random.Generator) -> np.ndarray:
        if dtype == "i1":
            return rng.integers(0, 2, N).astype(bool)
        assert info is not None
        lo = info.min if low is None else low
        hi = info.max if high is None else high
        return rng.integers(lo, hi, N, dtype=np.int64, endpoint=True)

    return make


def divisors(dtype: str) -> Domain:
    """Non-zero values, -1 and small magnitudes included."""
    base = ints(dtype)

    def make(rng: np.random.Generator) -> np.ndarray:
        values = base(rng)
        values[:6] = [-1, 1, 2, -3, 7, -7]
        values[values == 0] = 5
        return values

    return make


def dividends(dtype: str) -> Domain:
    """Any value but INT_MIN (INT_MIN / -1 overflows: poison)."""
    info = np.iinfo(DTYPES[dtype])
    base = ints(dtype, info.min + 1)

    def make(rng: np.random.Generator) -> np.ndarray:
        values = base(rng)
        values[:4] = [0, -1, 6, -6]
        return values

    return make


def _float_cases() -> list[tuple[str, Case]]:
    cases: list[tuple[str, Case]] = []
    wide, pos = uniform(-3, 3), uniform(0.1, 5)
    binary = {
        "addf": wide,
        "subf": wide,
        "mulf": wide,
        "maximumf": wide,
        "minimumf": wide,
        "maxnumf": wide,
        "minnumf": wide,
    }
    for t in FLOATS:
        for op, dom in binary.items():
            cases.append(
                (t, Case(f"{op}_{t}", (t, t), t, f"%r = arith.{op} %x0, %x1 : {t}", (dom, dom)))
            )
        cases.append(
            (
                t,
                Case(
                    f"divf_{t}",
                    (t, t),
                    t,
                    f"%r = arith.divf %x0, %x1 : {t}",
                    (wide, nonzero(0.5, 2)),
                ),
            )
        )
        cases.append((t, Case(f"negf_{t}", (t,), t, f"%r = arith.negf %x0 : {t}", (wide,))))
        unary = {
            "absf": wide,
            "sqrt": pos,
            "rsqrt": pos,
            "exp": wide,
            "exp2": wide,
            "expm1": small_and_large,
            "log": pos,
            "log2": pos,
            "log10": pos,
            "log1p": small_and_large,
            "sin": wide,
            "cos": wide,
            "tan": uniform(-1.2, 1.2),
            "tanh": wide,
            "sinh": wide,
            "cosh": wide,
            "asin": uniform(-0.9, 0.9),
            "acos": uniform(-0.9, 0.9),
            "atan": wide,
            "asinh": wide,
            "acosh": uniform(1.1, 4),
            "atanh": uniform(-0.9, 0.9),
            "erf": wide,
            "cbrt": nonzero(0.1, 8),
            "floor": halves,
            "ceil": halves,
            "round": halves,
            "roundeven": halves,
            "trunc": halves,
        }
        for op, dom in unary.items():
            cases.append((t, Case(f"{op}_{t}", (t,), t, f"%r = math.{op} %x0 : {t}", (dom,))))
        cases += [
            (
                t,
                Case(
                    f"powf_{t}", (t, t), t, f"%r = math.powf %x0, %x1 : {t}", (pos, uniform(-2, 2))
                ),
            ),
            (t, Case(f"atan2_{t}", (t, t), t, f"%r = math.atan2 %x0, %x1 : {t}", (wide, wide))),
            (
                t,
                Case(
                    f"copysign_{t}", (t, t), t, f"%r = math.copysign %x0, %x1 : {t}", (wide, wide)
                ),
            ),
            (
                t,
                Case(
                    f"fma_{t}",
                    (t, t, t),
                    t,
                    f"%r = math.fma %x0, %x1, %x2 : {t}",
                    (wide, wide, wide),
                ),
            ),
            (
                t,
                Case(
                    f"fpowi_{t}",
                    (t, "i32"),
                    t,
                    f"%r = math.fpowi %x0, %x1 : {t}, i32",
                    (nonzero(0.5, 1.5), ints("i32", -4, 5)),
                ),
            ),
            (
                t,
                Case(
                    f"select_{t}",
                    (t, t),
                    t,
                    f"%c = arith.cmpf olt, %x0, %x1 : {t}\n%r = arith.select %c, %x1, %x0 : {t}",
                    (wide, wide),
                ),
            ),
        ]
        for pred in (
            "oeq",
            "one",
            "olt",
            "ole",
            "ogt",
            "oge",
            "ueq",
            "une",
            "ult",
            "uge",
            "ord",
            "uno",
        ):
            cases.append(
                (
                    t,
                    Case(
                        f"cmpf_{pred}_{t}",
                        (t, t),
                        "i1",
                        f"%r = arith.cmpf {pred}, %x0, %x1 : {t}",
                        (with_nans_and_ties, with_nans_and_ties),
                    ),
                )
            )
    return cases


def with_nans_and_ties(rng: np.random.Generator) -> np.ndarray:
    """Small integers (so operands tie) and a few NaNs: every predicate's cases."""
    values = rng.integers(-2, 3, N).astype(np.float64)
    values[rng.integers(0, N, 5)] = np.nan
    return values


def _int_cases() -> list[tuple[str, Case]]:
    cases: list[tuple[str, Case]] = []
    for t in INTS:
        width = DTYPES[t].itemsize * 8
        full = ints(t)
        for op in (
            "addi",
            "subi",
            "muli",
            "andi",
            "ori",
            "xori",
            "maxsi",
            "minsi",
            "maxui",
            "minui",
        ):
            cases.append(
                (t, Case(f"{op}_{t}", (t, t), t, f"%r = arith.{op} %x0, %x1 : {t}", (full, full)))
            )
        for op in ("divsi", "remsi", "floordivsi", "ceildivsi"):
            cases.append(
                (
                    t,
                    Case(
                        f"{op}_{t}",
                        (t, t),
                        t,
                        f"%r = arith.{op} %x0, %x1 : {t}",
                        (dividends(t), divisors(t)),
                    ),
                )
            )
        for op in ("divui", "remui", "ceildivui"):
            cases.append(
                (
                    t,
                    Case(
                        f"{op}_{t}",
                        (t, t),
                        t,
                        f"%r = arith.{op} %x0, %x1 : {t}",
                        (full, divisors(t)),
                    ),
                )
            )
        shift = ints(t, 0, width - 1)
        for op in ("shli", "shrsi", "shrui"):
            cases.append(
                (t, Case(f"{op}_{t}", (t, t), t, f"%r = arith.{op} %x0, %x1 : {t}", (full, shift)))
            )
        for op in ("absi", "ctlz", "cttz", "ctpop"):
            cases.append((t, Case(f"{op}_{t}", (t,), t, f"%r = math.{op} %x0 : {t}", (full,))))
        cases.append(
            (
                t,
                Case(
                    f"ipowi_{t}",
                    (t, t),
                    t,
                    f"%r = math.ipowi %x0, %x1 : {t}",
                    (ints(t, -3, 3), ints(t, -2, 9)),
                ),
            )
        )
        cases += [
            (
                t,
                Case(
                    f"mulsi_high_{t}",
                    (t, t),
                    t,
                    f"%lo, %r = arith.mulsi_extended %x0, %x1 : {t}",
                    (full, full),
                ),
            ),
            (
                t,
                Case(
                    f"mului_high_{t}",
                    (t, t),
                    t,
                    f"%lo, %r = arith.mului_extended %x0, %x1 : {t}",
                    (full, full),
                ),
            ),
            (
                t,
                Case(
                    f"addui_carry_{t}",
                    (t, t),
                    "i1",
                    f"%s, %r = arith.addui_extended %x0, %x1 : {t}, i1",
                    (full, full),
                ),
            ),
            (
                t,
                Case(
                    f"select_{t}",
                    (t, t),
                    t,
                    f"%c = arith.cmpi slt, %x0, %x1 : {t}\n%r = arith.select %c, %x0, %x1 : {t}",
                    (full, full),
                ),
            ),
        ]
        tiny = ints(t, -2, 2)
        for pred in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"):
            cases.append(
                (
                    t,
                    Case(
                        f"cmpi_{pred}_{t}",
                        (t, t),
                        "i1",
                        f"%r = arith.cmpi {pred}, %x0, %x1 : {t}",
                        (tiny, tiny),
                    ),
                )
            )
    bits = ints("i1")
    for op in ("andi", "ori", "xori", "addi", "muli", "maxui", "minsi"):
        cases.append(
            (
                "i1",
                Case(
                    f"{op}_i1", ("i1", "i1"), "i1", f"%r = arith.{op} %x0, %x1 : i1", (bits, bits)
                ),
            )
        )
    cases += [
        (
            "i1",
            Case(
                "cmpi_ult_i1",
                ("i1", "i1"),
                "i1",
                "%r = arith.cmpi ult, %x0, %x1 : i1",
                (bits, bits),
            ),
        ),
        (
            "i1",
            Case(
                "cmpi_slt_i1",
                ("i1", "i1"),
                "i1",
                "%r = arith.cmpi slt, %x0, %x1 : i1",
                (bits, bits),
            ),
        ),
        (
            "i1",
            Case(
                "select_i1",
                ("i1", "i1"),
                "i1",
                "%r = arith.select %x0, %x1, %x0 : i1",
                (bits, bits),
            ),
        ),
        ("i1", Case("extui_i1", ("i1",), "i32", "%r = arith.extui %x0 : i1 to i32", (bits,))),
        ("i1", Case("extsi_i1", ("i1",), "i32", "%r = arith.extsi %x0 : i1 to i32", (bits,))),
        ("i1", Case("uitofp_i1", ("i1",), "f32", "%r = arith.uitofp %x0 : i1 to f32", (bits,))),
    ]
    return cases


def _cast_cases() -> list[tuple[str, Case]]:
    wide = uniform(-100, 100)
    cases = [
        ("extf_f16_f32", "f16", "f32", "extf", wide),
        ("extf_bf16_f32", "bf16", "f32", "extf", wide),
        ("extf_bf16_f64", "bf16", "f64", "extf", wide),
        ("extf_f32_f64", "f32", "f64", "extf", wide),
        ("truncf_f64_f32", "f64", "f32", "truncf", wide),
        ("truncf_f32_f16", "f32", "f16", "truncf", wide),
        ("truncf_f64_f16", "f64", "f16", "truncf", wide),
        ("truncf_f32_bf16", "f32", "bf16", "truncf", wide),
        ("truncf_f64_bf16", "f64", "bf16", "truncf", wide),
        ("extsi_i8_i32", "i8", "i32", "extsi", ints("i8")),
        ("extui_i8_i64", "i8", "i64", "extui", ints("i8")),
        ("extsi_i32_i64", "i32", "i64", "extsi", ints("i32")),
        ("trunci_i64_i8", "i64", "i8", "trunci", ints("i64")),
        ("trunci_i32_i16", "i32", "i16", "trunci", ints("i32")),
        ("sitofp_i32_f32", "i32", "f32", "sitofp", ints("i32", -(2**24), 2**24)),
        ("sitofp_i64_f64", "i64", "f64", "sitofp", ints("i64", -(2**53), 2**53)),
        ("sitofp_i8_f16", "i8", "f16", "sitofp", ints("i8")),
        ("sitofp_i32_bf16", "i32", "bf16", "sitofp", ints("i32", -200, 200)),
        ("uitofp_i32_f64", "i32", "f64", "uitofp", ints("i32")),
        ("uitofp_i8_f32", "i8", "f32", "uitofp", ints("i8")),
        ("fptosi_f32_i32", "f32", "i32", "fptosi", uniform(-1e6, 1e6)),
        ("fptosi_f64_i64", "f64", "i64", "fptosi", uniform(-1e15, 1e15)),
        ("fptosi_f16_i8", "f16", "i8", "fptosi", uniform(-100, 100)),
        ("fptosi_bf16_i32", "bf16", "i32", "fptosi", uniform(-1000, 1000)),
        ("fptoui_f32_i32", "f32", "i32", "fptoui", uniform(0, 4e9)),
        ("fptoui_f64_i8", "f64", "i8", "fptoui", uniform(0, 255)),
        ("bitcast_f32_i32", "f32", "i32", "bitcast", wide),
        ("bitcast_i64_f64", "i64", "f64", "bitcast", ints("i64", -(2**61), 2**61)),
        ("bitcast_f16_i16", "f16", "i16", "bitcast", wide),
        ("index_cast_i32_index", "i32", "index", "index_cast", ints("i32")),
        ("index_cast_index_i8", "index", "i8", "index_cast", ints("i64")),
        ("index_cast_i64_index", "i64", "index", "index_cast", ints("i64")),
    ]
    return [
        ("casts", Case(name, (src,), dst, f"%r = arith.{op} %x0 : {src} to {dst}", (dom,)))
        for name, src, dst, op, dom in cases
    ]


CASES: list[tuple[str, Case]] = _float_cases() + _int_cases() + _cast_cases()
GROUPS = sorted({group for group, _ in CASES})


class _ModulePerGroup(dict[str, Compiled]):
    """Each group's cases in one module, compiled on first use."""

    def __missing__(self, group: str) -> Compiled:
        text = "\n".join(case.function() for g, case in CASES if g == group)
        self[group] = compile_module(text)
        return self[group]


@pytest.fixture(scope="module")
def compiled() -> dict[str, Compiled]:
    return _ModulePerGroup()


@pytest.mark.parametrize(("group", "case"), CASES, ids=[case.name for _, case in CASES])
def test_op_matches_the_reference(group: str, case: Case, compiled: dict[str, Compiled]) -> None:
    text = case.function()
    function = compiled[group].function_with(
        case.name,
        [MemRefSpec(DTYPES[t], (None,)) for t in case.operands],
        [MemRefSpec(DTYPES[case.result], (None,))],
    )
    rng = np.random.default_rng(zlib.crc32(case.name.encode()))
    inputs = case.inputs(rng)
    (actual,) = function(*inputs)
    dtype = DTYPES[case.result]
    if case.name.startswith("erf_"):
        # schedir.reference cannot evaluate math.erf on scalars yet: compare with libm,
        # within the bound the reference gives a math function (bounds.MATH_ULPS ulps).
        value = np.vectorize(math.erf)(inputs[0].astype(np.float64))
        bound = bounds.MATH_ULPS * bounds.unit_roundoff(dtype) * np.abs(value)
        expected = reference.Expected(value, bound, np.dtype(dtype))
    else:
        (expected,) = reference.evaluate_with_bounds(text, case.name, inputs)
    check = reference.compare(actual, expected, dtype)
    assert check.ok, (
        f"{case.name}: {check.message}\ninputs: {inputs}\nactual: {actual}\nexpected: {expected}"
    )


def test_nan_semantics_of_min_and_max() -> None:
    """maximumf/minimumf propagate NaN and order -0 < +0; maxnumf/minnumf ignore NaN."""
    text = "\n".join(
        Case(f"{op}_f32", ("f32", "f32"), "f32", f"%r = arith.{op} %x0, %x1 : f32", ()).function()
        for op in ("maximumf", "minimumf", "maxnumf", "minnumf")
    )
    module = compile_module(text)
    a = np.array([np.nan, 1.0, np.nan, -0.0, 0.0, 2.0], dtype=np.float32)
    b = np.array([1.0, np.nan, np.nan, 0.0, -0.0, -3.0], dtype=np.float32)
    maximum, minimum, maxnum, minnum = (
        module.function(text, f"{op}_f32")(a, b)[0]
        for op in ("maximumf", "minimumf", "maxnumf", "minnumf")
    )
    np.testing.assert_array_equal(maximum, np.maximum(a, b))
    np.testing.assert_array_equal(minimum, np.minimum(a, b))
    assert np.signbit(maximum[3:5]).tolist() == [False, False]
    assert np.signbit(minimum[3:5]).tolist() == [True, True]
    np.testing.assert_array_equal(maxnum, np.fmax(a, b))
    np.testing.assert_array_equal(minnum, np.fmin(a, b))


def test_expm1_and_log1p_keep_precision_near_zero() -> None:
    """Not exp(x) - 1 / log(1 + x): those lose every digit for tiny x."""
    text = "\n".join(
        Case(f"{op}_f32", ("f32",), "f32", f"%r = math.{op} %x0 : f32", ()).function()
        for op in ("expm1", "log1p")
    )
    module = compile_module(text)
    x = np.array([1e-7, -3e-8, 1e-10, 2.5e-6], dtype=np.float32)
    (e,) = module.function(text, "expm1_f32")(x)
    (lg,) = module.function(text, "log1p_f32")(x)
    np.testing.assert_allclose(e, np.expm1(x.astype(np.float64)), rtol=1e-6)
    np.testing.assert_allclose(lg, np.log1p(x.astype(np.float64)), rtol=1e-6)
