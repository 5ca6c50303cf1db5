"""The sm_90a tensor-core route on the device: the hand-written TMA + mbarrier + wgmma
kernel (tests/data/nvgpu/wgmma_tma_matmul_f16.ll; its PTX is checked without a GPU in
tests/unit/gpu/test_wgmma_ptx.py) computes f16 x f16 -> f32 matmuls, one 64x64 tile of C
per CTA, with host-built TMA descriptors (128B swizzle); compared with schedir.reference."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from schedir import reference
from schedir.gpu import DeviceArray, GpuContext, GpuModule, Kernel, assemble, compile_ptx
from schedir.gpu.tma import DESCRIPTOR_BYTES, TensorMapLayout, encode_tiled
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

KERNEL = Path(__file__).parents[1] / "data" / "nvgpu" / "wgmma_tma_matmul_f16.ll"
TILE = 64


def _payload(m: int, n: int, k: int) -> str:
    return f"""
func.func @matmul(%a: tensor<{m}x{k}xf16>, %b: tensor<{k}x{n}xf16>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<{m}x{n}xf32>
  %c = linalg.fill ins(%zero : f32) outs(%empty : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf16>, tensor<{k}x{n}xf16>)
                     outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""


@pytest.fixture(scope="module")
def wgmma_kernel(context: GpuContext) -> Kernel:
    if not context.target.arch.startswith("sm_90"):
        pytest.skip(f"wgmma needs sm_90a, the device is {context.target.arch}")
    target = dataclasses.replace(context.target, arch="sm_90a")
    ptx = compile_ptx(KERNEL.read_text(), target)
    return GpuModule(context, assemble(ptx, "sm_90a"), name="wgmma").kernel("wgmma_tma_matmul")


@pytest.mark.parametrize(("m", "n", "k"), [(64, 64, 256), (128, 128, 512), (192, 320, 320)])
def test_wgmma_tma_matmul_matches_reference(
    context: GpuContext, wgmma_kernel: Kernel, m: int, n: int, k: int
) -> None:
    payload = _payload(m, n, k)
    signature_inputs = [
        np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float16)
        for seed, shape in ((m * 7 + k, (m, k)), (n * 11 + k, (k, n)))
    ]
    a, b = (np.where(x == 0, np.float16(0.5), x) for x in signature_inputs)
    a_dev, b_dev = DeviceArray.from_numpy(a, context), DeviceArray.from_numpy(b, context)
    c_dev = DeviceArray.empty((m, n), np.float32, context)
    c_dev.fill_bytes(0xFF)  # NaN: an element the kernel does not write cannot pass
    descriptors = [
        encode_tiled(context, x.ptr, TensorMapLayout.of(host, (TILE, TILE), swizzle="swizzle_128b"))
        for x, host in ((a_dev, a), (b_dev, b))
    ]
    assert all(len(d) == DESCRIPTOR_BYTES for d in descriptors)
    wgmma_kernel.launch(
        (n // TILE, m // TILE, 1),
        (128, 1, 1),
        [*descriptors, c_dev, np.int32(k // TILE), np.int32(n)],
    )
    context.synchronize()
    inputs = [a, b]
    expected = reference.evaluate_with_bounds(payload, "matmul", inputs)
    check_results([c_dev.to_numpy()], expected, [np.dtype(np.float32)], where=f" ({m}x{n}x{k})")
    # The inputs are unchanged.
    np.testing.assert_array_equal(a_dev.to_numpy(), a)
    np.testing.assert_array_equal(b_dev.to_numpy(), b)
