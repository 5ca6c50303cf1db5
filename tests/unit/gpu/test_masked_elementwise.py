"""The elementwise schedule at any size: thread tiles vectorized with masks (a vector of the
largest tile, lanes past the edge masked off), and `split-masked-transfers`, which gives
each masked transfer on a buffer an unmasked, aligned fast path where the mask is full.

Numerics without a GPU: the scheduled kernel's launches run as loops on the CPU
(tests/unit/gpu/launch_emulation.py), with and without the pass applied to them, at
generated sizes and knob points, against the reference; the PTX of odd sizes has the
16-byte accesses of the fast path."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp

import schedir
from schedir.dialects import get_context, vector
from schedir.dialects.syntax import parse_module
from schedir.gpu import assemble
from schedir.lowering.split_masked_transfers import SplitMaskedTransfers
from tests.helpers import check_kernel, resized_example
from tests.unit.gpu.launch_emulation import launches_to_loops, scheduled_module

REPO = Path(__file__).parents[3]
SCHEDULE = REPO / "schedules" / "elementwise_cuda.mlir"

KNOB_POINTS = [
    None,  # 4x512 blocks, 1x4 thread tiles
    {"block_rows": 8, "block_cols": 256, "vector_rows": 2, "vector_cols": 2},
    {"block_rows": 16, "block_cols": 1024, "vector_rows": 4, "vector_cols": 8},
    {"block_rows": 4, "block_cols": 128, "vector_rows": 1, "vector_cols": 1},
]


def _payload(rows: int, cols: int) -> str:
    return resized_example("elementwise_cuda.mlir", {1001: rows, 777: cols})


def _split(module: ModuleOp) -> ModuleOp:
    SplitMaskedTransfers().apply(get_context(), module)
    return module


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(1, 19),
    cols=st.integers(1, 1100),
    knobs=st.sampled_from(KNOB_POINTS),
    split=st.booleans(),
)
def test_elementwise_matches_the_reference_at_any_size(
    rows: int, cols: int, knobs: dict[str, int] | None, split: bool
) -> None:
    """Edge tiles in both dimensions (partial blocks, threads with a partial tile or none),
    each thread tile shape; with `split`, the fast and the masked paths of the pass."""
    payload = _payload(rows, cols)
    host = launches_to_loops(scheduled_module(payload, SCHEDULE, knobs))
    if split:
        host = _split(host)
    check_kernel(schedir.compile(host, target="cpu"), payload, seed=rows * 7919 + cols)


def test_the_split_keeps_the_masked_path_and_adds_an_aligned_one() -> None:
    """Each masked transfer on a buffer becomes a branch: the unmasked whole-row access
    (vector.load / store claiming 16 bytes) where the mask is full and the address
    aligned, the masked transfer otherwise; the scheduled module at 8191x1000 has three
    masked reads and one masked write in its kernel."""
    module = scheduled_module(_payload(8191, 1000), SCHEDULE, None)
    masked = [
        o
        for o in module.walk()
        if isinstance(o, vector.TransferReadOp | vector.TransferWriteOp) and o.mask is not None
    ]
    assert len(masked) == 4
    _split(module)
    branches = [o for o in module.walk() if isinstance(o, scf.IfOp)]
    assert len(branches) == 4
    for branch in branches:
        fast = branch.true_region.block.first_op
        slow = branch.false_region.block.first_op
        assert isinstance(fast, vector.LoadOp | vector.StoreOp)
        assert fast.alignment is not None and fast.alignment.value.data == 16
        assert isinstance(slow, vector.TransferReadOp | vector.TransferWriteOp)
        assert slow.mask is not None


_MASKED_2D = """
func.func @f(%m: memref<5x12xf32>, %i: index, %j: index, %r: index, %n: index,
             %out: memref<1x4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 7.0 : f32
  %mask = vector.create_mask %r, %n : vector<1x4xi1>
  %v = vector.transfer_read %m[%i, %j], %pad, %mask {in_bounds = [true, true]}
    : memref<5x12xf32>, vector<1x4xf32>
  %w = arith.addf %v, %v : vector<1x4xf32>
  vector.transfer_write %w, %m[%i, %j], %mask {in_bounds = [true, true]}
    : vector<1x4xf32>, memref<5x12xf32>
  vector.transfer_write %v, %out[%c0, %c0] {in_bounds = [true, true]}
    : vector<1x4xf32>, memref<1x4xf32>
  return
}
"""


@pytest.fixture(scope="module")
def masked_kernels() -> tuple[schedir.Kernel, schedir.Kernel]:
    plain = schedir.compile(parse_module(_MASKED_2D, "masked", ctx=get_context()), target="cpu")
    split = schedir.compile(
        _split(parse_module(_MASKED_2D, "masked", ctx=get_context())), target="cpu"
    )
    return plain, split


@settings(max_examples=60, deadline=None)
@given(i=st.integers(0, 4), j=st.integers(0, 8), r=st.integers(0, 1), n=st.integers(0, 4))
def test_the_split_reads_and_writes_what_the_masked_transfers_do(
    masked_kernels: tuple[schedir.Kernel, schedir.Kernel], i: int, j: int, r: int, n: int
) -> None:
    """A read with a real padding value (7: the masked-off lanes must keep it) and a write
    of the masked lanes only, at aligned and unaligned addresses, full and partial masks:
    the split module computes exactly what the masked one does."""
    want_m = np.arange(60, dtype=np.float32).reshape(5, 12) + 0.5
    want_out = np.full((1, 4), 7.0, np.float32)
    live = min(n, 4) if r else 0
    want_out[0, :live] = want_m[i, j : j + live]
    want_m[i, j : j + live] *= 2
    for kernel in masked_kernels:
        m = np.arange(60, dtype=np.float32).reshape(5, 12) + 0.5
        out = np.zeros((1, 4), np.float32)
        kernel(m, i, j, r, n, out)
        np.testing.assert_array_equal(out, want_out)
        np.testing.assert_array_equal(m, want_m)


def test_constant_and_tensor_masks_are_left_alone() -> None:
    """A mask of constant bounds below the vector's size is never full (no fast path); a
    transfer on a tensor is not a memory access yet."""
    text = """
    func.func @f(%m: memref<8xf32>, %t: tensor<8xf32>, %n: index) -> (vector<4xf32>, vector<4xf32>) {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %pad = arith.constant 0.0 : f32
      %partial = vector.create_mask %c3 : vector<4xi1>
      %a = vector.transfer_read %m[%c0], %pad, %partial {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
      %dynamic = vector.create_mask %n : vector<4xi1>
      %b = vector.transfer_read %t[%c0], %pad, %dynamic {in_bounds = [true]} : tensor<8xf32>, vector<4xf32>
      return %a, %b : vector<4xf32>, vector<4xf32>
    }
    """
    module = _split(parse_module(text, "masks", ctx=get_context()))
    assert not [o for o in module.walk() if isinstance(o, scf.IfOp)]


def test_odd_sizes_have_the_16_byte_path(ptxas: Path) -> None:
    """At 8191x1000 (and at the example's 1001x777, rows not 16-byte aligned: the run-time
    check picks the masked path there) each thread's three reads and its write have an
    ld/st.global.v4 path; the PTX assembles."""
    for rows, cols in ((8191, 1000), (1001, 777)):
        ptx = schedir.compile(_payload(rows, cols), schedule=SCHEDULE, target="cuda").stages["ptx"]
        assert len(re.findall(r"\bld\.global\.v4\.(?:b|f)32", ptx)) == 3, (rows, cols)
        assert len(re.findall(r"\bst\.global\.v4\.(?:b|f)32", ptx)) == 1, (rows, cols)
        assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize("knobs", KNOB_POINTS[1:], ids=str)
def test_every_knob_point_assembles(ptxas: Path, knobs: dict[str, int]) -> None:
    ptx = schedir.compile(_payload(8191, 1000), schedule=SCHEDULE, target="cuda", knobs=knobs)
    assert assemble(ptx.stages["ptx"], "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"
