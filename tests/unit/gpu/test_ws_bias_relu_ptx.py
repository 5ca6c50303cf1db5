"""schedules/matmul_bias_relu_f16_cuda.mlir without a GPU: the bias add, relu and f16
rounding of relu(A * B + bias) are fused into the warp-specialized wgmma kernel's
accumulator store (one kernel, no f32 temporary): the PTX has the wgmma, the bias loads
(all of a tile's ahead of its stores), the relu fused into the f16 conversion of each
pair (`cvt.rn.relu.f16x2.f32`), and assembles for
sm_90a without serialization (C751x) or spills, for an f16 or f32 bias by column or by
row, at sizes the tiles divide and odd ones, stored through shared memory or from
registers; the store's epilogue region round-trips and is verified."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import schedir
from schedir.diagnostics import VerifyError
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.gpu.ptx import unknown_intrinsics
from tests.gpu.mbr_payloads import bias_relu_payload
from tests.unit.gpu.ptxas_report import assert_assembles_cleanly

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "matmul_bias_relu_f16_cuda.mlir"


@pytest.fixture(
    scope="module",
    params=[
        ((512, 512, 384), "f16", "column", 2, 64),
        ((1000, 1032, 1016), "f32", "row", 2, 64),
        ((1000, 1032, 1016), "f16", "column", 1, 64),
        ((1000, 1032, 1016), "f16", "column", 2, 0),
    ],
    ids=lambda p: f"{'x'.join(map(str, p[0]))}-{p[1]}-{p[2]}-{p[3]}c-store{p[4]}",
)
def compiled(request: pytest.FixtureRequest) -> tuple[str, str, str, bool]:
    (m, n, k), bias, by, consumers, store = request.param
    knobs = {
        "consumers": consumers,
        "block_n": 256 if consumers == 2 else 128,
        "store_columns": store,
    }
    text = bias_relu_payload(m, n, k, bias, by)
    kernel = schedir.compile(text, schedule=SCHEDULE, target="cuda", knobs=knobs)
    staged = store > 0
    return bias, kernel.stages["scheduled"], kernel.stages["ptx"], staged


def test_the_epilogue_is_in_the_one_kernel(compiled: tuple[str, str, str, bool]) -> None:
    bias, scheduled, ptx, _ = compiled
    assert "linalg.generic" not in scheduled
    assert re.search(r"nvgpu\.warpgroup\.mma\.store .* epilogue", scheduled)
    assert ptx.count(".entry") == 1
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n\d+k16\.f32\.f16\.f16", ptx)
    assert "cp.async.bulk.tensor" in ptx and "mbarrier" in ptx
    # The relu and the rounding to f16: one cvt.rn.relu per pair, no max.
    assert re.search(r"cvt\.rn\.relu\.f16x2\.f32", ptx)
    assert not re.search(r"\bmax(\.NaN)?\.f32\b", ptx)
    # The bias is read from global memory in its type (pairs of columns as one vector load).
    assert re.search(rf"ld\.global(\.nc)?(\.v[24])?\.(b|f){16 if bias == 'f16' else 32}\b", ptx)
    assert not unknown_intrinsics(ptx)


def test_the_bias_is_loaded_ahead_of_the_stores(compiled: tuple[str, str, str, bool]) -> None:
    # Every bias load of the tile is issued before its first store (to the staging buffer):
    # their latencies overlap instead of stalling each chunk. The bounded stores from
    # registers of edge tiles load by their stores (no registers are left to hold them).
    _, _, ptx, staged = compiled
    loads = [m.start() for m in re.finditer(r"\bld\.global", ptx)]
    stores = [m.start() for m in re.finditer(r"\bst\.(shared|global)", ptx)]
    assert loads and stores
    assert (max(loads) < min(stores)) == staged


def test_ptx_assembles_without_serialization_or_spills(
    compiled: tuple[str, str, str, bool], ptxas: Path
) -> None:
    assert_assembles_cleanly(compiled[2], ptxas)


_STORE = """func.func @f(%acc: !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>,
             %out: memref<64x128xf16>, %bias: memref<128xf16>) {
  nvgpu.warpgroup.mma.store %acc, %out epilogue {
  ^bb0(%x: f32, %i: index, %j: index):
    %b = memref.load %bias[%j] : memref<128xf16>
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %x, %bf : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to memref<64x128xf16>
  func.return
}
"""


def test_the_epilogue_round_trips() -> None:
    module = parse_module(_STORE, "<t>", ctx=get_context())
    module.verify()
    again = parse_module(str(module), "<t>", ctx=get_context())
    again.verify()
    assert str(again) == str(module)
    assert "epilogue" in str(module)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("%j: index)", "%j: i64)", r"takes \(f32, index, index\)"),
        ("linalg.yield %h : f16", "linalg.yield %s : f32", "yield of one f16"),
    ],
)
def test_a_bad_epilogue_is_rejected(old: str, new: str, message: str) -> None:
    text = _STORE.replace(old, new)
    if "i64" in new:
        text = text.replace("memref.load %bias[%j]", "memref.load %bias[%i]")
    with pytest.raises(VerifyError, match=message):
        parse_module(text, "<t>", ctx=get_context())
