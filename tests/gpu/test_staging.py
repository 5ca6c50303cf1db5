"""The TMA staging kernel (schedir/gpu/staging.py) on the device: drawn row sizes, source
pitches and alignments (every unit width), more rows than a grid's y dimension; the
staged rows equal the source's, the pad is zero and the source is unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.gpu import GpuContext
from schedir.gpu.memory import DeviceArray
from schedir.gpu.staging import MAX_GRID_Y, stage_rows, unit_of
from schedir.gpu.tma import Staging

pytestmark = pytest.mark.gpu


def _staged(
    context: GpuContext, rows: int, row_bytes: int, extra: int, offset: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(the source bytes, the staged buffer's bytes, the source bytes after, the unit)."""
    rng = np.random.default_rng(rows * 7919 + row_bytes * 31 + extra * 3 + offset)
    source_pitch = row_bytes + extra
    total = offset + rows * source_pitch
    host = rng.integers(1, 256, size=total, dtype=np.uint8)  # no zero byte: a pad is seen
    source = DeviceArray.from_numpy(host, context)
    pitch = -(-row_bytes // 16) * 16
    staging = Staging(source.ptr + offset, source_pitch, rows, row_bytes, pitch)
    destination = DeviceArray.empty(rows * pitch, np.uint8, context)
    destination.copy_from_numpy(np.full(rows * pitch, 0xAB, np.uint8))
    stage_rows(context, staging, destination.ptr, None)
    context.synchronize()
    return host, destination.to_numpy(), source.to_numpy(), unit_of(staging, destination.ptr)


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 300),
    row_bytes=st.integers(1, 9000),
    extra=st.sampled_from([0, 1, 2, 4, 8, 24]),
    offset=st.sampled_from([0, 1, 2, 4, 8, 16, 6]),
)
def test_staged_rows_match_the_source(
    context: GpuContext, rows: int, row_bytes: int, extra: int, offset: int
) -> None:
    host, staged, after, _unit = _staged(context, rows, row_bytes, extra, offset)
    pitch = -(-row_bytes // 16) * 16
    expected = np.zeros((rows, pitch), np.uint8)
    rows_of = host[offset : offset + rows * (row_bytes + extra)].reshape(rows, row_bytes + extra)
    expected[:, :row_bytes] = rows_of[:, :row_bytes]
    np.testing.assert_array_equal(staged.reshape(rows, pitch), expected)
    np.testing.assert_array_equal(after, host)


@pytest.mark.parametrize(
    ("row_bytes", "offset", "unit"), [(18, 2, 2), (12, 4, 4), (9, 1, 1), (40, 8, 8)]
)
def test_more_rows_than_the_grid_has_blocks(
    context: GpuContext, row_bytes: int, offset: int, unit: int
) -> None:
    rows = MAX_GRID_Y + 37
    host, staged, after, used = _staged(context, rows, row_bytes, 0, offset)
    assert used == unit
    pitch = -(-row_bytes // 16) * 16
    got = staged.reshape(rows, pitch)
    np.testing.assert_array_equal(got[:, :row_bytes], host[offset:].reshape(rows, row_bytes))
    assert not got[:, row_bytes:].any()
    np.testing.assert_array_equal(after, host)
