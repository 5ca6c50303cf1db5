"""`transform.apply_patterns.math.polynomial_approximation`: `math.exp` on f32 becomes
arithmetic that vectorizes and stays within 2 ulp of the correctly rounded exp over the
whole f32 range, subnormal results and the special values included."""

from __future__ import annotations

import numpy as np

import schedir

N = 4096
ANY = "!transform.any_op"


def exp_module(n: int, vectorize: bool) -> str:
    schedule = (
        f'    %g = transform.structured.match ops{{["linalg.generic"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %t, %l = transform.structured.tile_using_for %g tile_sizes [16] : ({ANY}) -> ({ANY}, {ANY})\n"
        f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
    )
    if vectorize:
        schedule += f"    transform.structured.vectorize %t : {ANY}\n"
    schedule += (
        "    transform.apply_patterns to %f {\n"
        "      transform.apply_patterns.math.polynomial_approximation\n"
        f"    }} : {ANY}\n"
    )
    return f"""module attributes {{transform.with_named_sequence}} {{
  func.func @exp(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
    %init = tensor.empty() : tensor<{n}xf32>
    %y = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}}
        ins(%x : tensor<{n}xf32>) outs(%init : tensor<{n}xf32>) {{
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }} -> tensor<{n}xf32>
    return %y : tensor<{n}xf32>
  }}
  transform.named_sequence @__transform_main(%root: {ANY} {{transform.readonly}}) {{
{schedule}    transform.yield
  }}
}}
"""


def ulps(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Distance in f32 units in the last place (both finite and of the same sign)."""
    a = actual.view(np.int32).astype(np.int64)
    e = expected.view(np.int32).astype(np.int64)
    return np.abs(a - e)


def inputs() -> np.ndarray:
    rng = np.random.default_rng(0)
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, 88.72, 88.73, 89.5, 1e30, -87.3, -87.4, -100.0, -103.9,
         -104.5, -1e30, np.inf, -np.inf, np.nan, 1e-8, -1e-8, 0.34657359, -0.34657359],
        dtype=np.float32,
    )  # fmt: skip
    sweep = np.linspace(-104.0, 89.0, N - special.size - 1000, dtype=np.float32)
    small = rng.uniform(-2.0, 2.0, 1000).astype(np.float32)
    return np.concatenate([special, sweep, small])


def check(kernel: schedir.Kernel) -> None:
    x = inputs()
    got = kernel(x)
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(x.astype(np.float64)).astype(np.float32)
    nan = np.isnan(x)
    assert np.isnan(got[nan]).all()
    assert np.array_equal(got[~nan & np.isinf(want)], want[~nan & np.isinf(want)])
    finite = ~nan & np.isfinite(want)
    assert (got[finite] >= 0).all()
    assert ulps(got[finite], want[finite]).max() <= 2


def test_exp_vectorized() -> None:
    kernel = schedir.compile(exp_module(N, vectorize=True))
    scheduled = kernel.stages["scheduled"]
    assert "math.exp" not in scheduled and "vector<16xf32>" in scheduled
    assert "@expf" not in kernel.stages["llvm-ir"]
    check(kernel)


def test_exp_scalar() -> None:
    kernel = schedir.compile(exp_module(N, vectorize=False))
    assert "math.exp" not in kernel.stages["scheduled"]
    check(kernel)
