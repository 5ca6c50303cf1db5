"""Every tensor-core schedule on the device at sizes whose rows TMA cannot describe.

A K or N that is not a multiple of 8 gives f16/bf16 rows that are not a multiple of 16
bytes: cuTensorMapEncodeTiled refuses such a tensor, so the host stages it into a buffer of
16-byte-pitched rows and describes that with the real sizes (schedir/gpu/tma.py,
`Staging`); the stores of C are bounded scalar stores. 4095x4097x4096 (N odd),
1000x1032x1016 (aligned, edge tiles), 17x4097x1001 and 1x4097x1001 (odd K and N, M below
one wgmma), through matmul_f16_cuda, matmul_bf16_cuda (the warp-specialized defaults, f16/bf16 out),
the ring schedules, matmul_f16_ws_cuda (f16 and bf16) and matmul_f16_f16out_cuda; outputs pre-filled with NaN, inputs unchanged, two calls (the second
reuses the staging buffers), compared with `schedir.reference`; compute-sanitizer's memcheck
clean on one unaligned case (skipped where compute-sanitizer is not installed)."""

from __future__ import annotations

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from tests.gpu.conftest import run_sanitized
from tests.gpu.test_matmul_wgmma import f16_out_payload, payload
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

REPO = Path(__file__).parents[2]
ODD = [(1000, 1032, 1016), (17, 4097, 1001), (1, 4097, 1001)]
"""Mid-size and small cases, run through every schedule and element type."""
LARGE = (4095, 4097, 4096)
ROUTES = [
    ("matmul_f16_cuda.mlir", "f16"),
    ("matmul_bf16_cuda.mlir", "bf16"),
    ("matmul_f16_ring_cuda.mlir", "f16"),
    ("matmul_bf16_ring_cuda.mlir", "bf16"),
    ("matmul_f16_ws_cuda.mlir", "f16"),
    ("matmul_f16_ws_cuda.mlir", "bf16"),
    ("matmul_f16_f16out_cuda.mlir", "f16"),
]
"""(schedule, element). matmul_f16_cuda / matmul_bf16_cuda (the warp-specialized defaults)
and matmul_f16_f16out_cuda write the input type; the ring and ws schedules write f32."""
NARROW_OUT = {"matmul_f16_cuda.mlir", "matmul_bf16_cuda.mlir", "matmul_f16_f16out_cuda.mlir"}
CASES = [
    *((route, size) for route in ROUTES for size in ODD),
    *((route, LARGE) for route in ROUTES[:3]),
]


def run_case(schedule: str, element: str, size: tuple[int, int, int]) -> None:
    """Compile `schedule` for the M x N x K matmul of `element`, run it twice, compare."""
    m, n, k = size
    narrow_out = schedule in NARROW_OUT
    text = (
        f16_out_payload(m, n, k).replace("f16", element)
        if narrow_out
        else payload(m, n, k, element)
    )
    kernel = schedir.compile(text, schedule=REPO / "schedules" / schedule, target="cuda")
    ptx = kernel.stages["ptx"]
    assert "wgmma.mma_async" in ptx and "cp.async.bulk.tensor" in ptx
    # The stores of C are scalar: any N is aligned for them.
    assert not re.search(r"st\.global\.v\d", ptx) or n % 8 == 0
    module = parse_module(text, "<payload>", ctx=get_context())
    signature = entry_signature(find_entry(module, None))
    inputs = reference.random_inputs(signature, seed=m + n + k)
    assert all(np.any(a != 0) for a in inputs)
    before = [a.copy() for a in inputs]
    expected = reference.evaluate_with_bounds(module, signature.name, inputs)
    out = np.dtype(np.float32)
    if narrow_out:
        out = np.dtype(np.float16) if element == "f16" else np.dtype(ml_dtypes.bfloat16)
    where = f" ({schedule}, {element}, {m}x{n}x{k})"
    for attempt in ("", " (second call)"):
        results = kernel.run(*inputs, prefill_nan=True)
        check_results(results, expected, [out], where=where + attempt)
        for a, b in zip(inputs, before, strict=True):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    ("route", "size"),
    CASES,
    ids=lambda v: "x".join(map(str, v)) if isinstance(v[0], int) else "-".join(v),
)
def test_unaligned_rows_match_the_reference(
    route: tuple[str, str], size: tuple[int, int, int]
) -> None:
    run_case(*route, size)


_SANITIZED = """
import sys
from tests.gpu.test_matmul_unaligned_rows import run_case
run_case(sys.argv[1], sys.argv[2], tuple(int(x) for x in sys.argv[3].split("x")))
print("ran")
"""


@pytest.mark.parametrize(
    ("schedule", "element", "size"),
    [
        ("matmul_f16_cuda.mlir", "f16", "17x4097x1001"),
        ("matmul_f16_ws_cuda.mlir", "bf16", "1x4097x1001"),
    ],
)
def test_memcheck_clean(schedule: str, element: str, size: str) -> None:
    """No out-of-bounds access: the staged copies, the TMA loads past the real sizes and
    the bounded stores of C all stay inside their buffers."""
    run_sanitized("memcheck", _SANITIZED, schedule, element, size)
