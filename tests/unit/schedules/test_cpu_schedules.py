"""The CPU schedules (`schedules/*_cpu.mlir`) compute what their payloads compute, at sizes
other than their examples', and give the code they promise.

Each schedule is applied to a payload of the family it documents (matmul sizes that are
multiples of 64, softmax/layernorm rows that are a multiple of 64 long with an odd number of
rows, elementwise chains of any shape), compiled for the CPU and run on seeded random
inputs that are never zero; results are compared with `schedir.reference` in float64 at
dtype-aware tolerances, with outputs pre-filled with NaN. The scheduled IR is checked for
the structure each schedule exists for: no linalg op left, FMAs and a register-resident
accumulator for the matmuls, 64-wide loop-carried partial reductions, fused loops without
copies. The example payloads themselves run in tests/test_examples.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import matmul_payload, payload_part, run_and_check

SCHEDULES = Path(__file__).parents[3] / "schedules"


def matmul_bias_relu(m: int, n: int, k: int) -> str:
    return f"""func.func @mbr(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %bias: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %acc_init = tensor.empty() : tensor<{m}x{n}xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc_init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                      outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %init = tensor.empty() : tensor<{m}x{n}xf32>
  %out = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32>) outs(%init : tensor<{m}x{n}xf32>) {{
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }} -> tensor<{m}x{n}xf32>
  return %out : tensor<{m}x{n}xf32>
}}"""


def softmax(m: int, n: int) -> str:
    return f"""func.func @softmax(%x: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %init = tensor.empty() : tensor<{m}x{n}xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<{m}x{n}xf32>)
                                   outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %y : tensor<{m}x{n}xf32>
}}"""


def example_resized(name: str, sizes: dict[str, str]) -> str:
    """The example payload `examples/<name>` with its sizes substituted."""
    text = (SCHEDULES.parent / "examples" / name).read_text()
    for old, new in sizes.items():
        text = text.replace(old, new)
    return text


def assert_no_linalg(ir: str) -> None:
    left = sorted(set(re.findall(r"linalg\.[a-z_]+", payload_part(ir))))
    assert not left, f"linalg ops left: {left}"


# --- matmul ------------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "n", "k"), [(128, 192, 64), (64, 128, 256)])
def test_matmul_cpu(m: int, n: int, k: int) -> None:
    ir = run_and_check(matmul_payload(m, n, k), SCHEDULES / "matmul_cpu.mlir", reduction=k)
    assert_no_linalg(ir)
    text = payload_part(ir)
    assert "vector.fma" in text and "vector<64xf32>" in text  # rows of the 6x64 tile
    assert "vector.contract" not in text and "vector.outerproduct" not in text
    assert "memref.copy" not in text
    # The 6x64 accumulator (the selected register tile) is carried by the k loop.
    assert re.search(r"scf\.for .* iter_args\(.*\) -> \(vector<6x64xf32>\)", text)
    # The B panels are packed into buffers allocated outside every loop (in the function
    # body itself, printed 4 spaces in: no stack growth per panel).
    allocas = re.findall(r"^( *)%\w+ = memref\.alloca\(\)", text, re.MULTILINE)
    assert allocas and all(indent == "    " for indent in allocas), allocas


def test_matmul_bias_relu_cpu() -> None:
    ir = run_and_check(
        matmul_bias_relu(128, 64, 192), SCHEDULES / "matmul_bias_relu_cpu.mlir", reduction=192
    )
    assert_no_linalg(ir)
    text = payload_part(ir)
    assert "vector.fma" in text and "arith.maximumf" in text
    assert re.search(r"scf\.for .* iter_args\(.*\) -> \(vector<8x32xf32>\)", text)
    assert "memref.copy" not in text
    # One fused loop nest: the epilogue runs inside the matmul's blocks.
    assert text.count("scf.forall") == 1


# --- row reductions ------------------------------------------------------------------------


@pytest.mark.parametrize(("m", "n"), [(37, 192), (5, 1024)])
def test_softmax_cpu(m: int, n: int) -> None:
    ir = run_and_check(softmax(m, n), SCHEDULES / "softmax_cpu.mlir", reduction=n)
    assert_no_linalg(ir)
    text = payload_part(ir)
    assert text.count("scf.forall") == 1, "max, exp, sum and div fused into one row loop"
    assert text.count("-> (vector<1x64xf32>)") == 2, "64-wide partial max and sum"
    assert "math.exp" not in text, "exp is a polynomial"
    assert "vector.reduction <maxnumf>" in text and "vector.reduction <add>" in text


def test_layernorm_cpu() -> None:
    payload = example_resized(
        "layernorm_cpu.mlir",
        {"4096x1024": "37x128", "1024xf32": "128xf32", "4096xf32": "37xf32", "1024.0": "128.0"},
    )
    ir = run_and_check(payload, SCHEDULES / "layernorm_cpu.mlir", reduction=128)
    assert_no_linalg(ir)
    text = payload_part(ir)
    assert text.count("scf.forall") == 1, "both reductions and the epilogue in one row loop"
    assert text.count("-> (vector<1x64xf32>)") == 2, "64-wide partial sums"
    assert "memref.copy" not in text and "memref.alloc()" in text


# --- elementwise -----------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["37x100", "16x128"])
def test_elementwise_cpu(shape: str) -> None:
    ir = run_and_check(
        example_resized("elementwise_cpu.mlir", {"2048x2048": shape}),
        SCHEDULES / "elementwise_cpu.mlir",
    )
    assert_no_linalg(ir)
    text = payload_part(ir)
    assert text.count("scf.forall") == 1 and "scf.for " not in text, "one fused loop nest"
    assert "math.exp" not in text and "math.fma" in text
    assert "memref.copy" not in text
    if shape == "16x128":
        # Whole blocks: no masks, and the intermediate never touches memory.
        assert "vector.create_mask" not in text
        assert text.count("memref.alloc") == 1
