"""schedir/gpu/tma.py's staging kernel on the device: the rows of a tensor TMA cannot
describe where it lies, copied into rows of a 16-byte pitch with the pad zero-filled, byte
for byte against numpy: f16 rows of 8194 bytes (halfword reads), f32 rows of 4 x 1001
bytes (word reads), int8 rows at an odd pitch (byte reads), one row of 2 bytes, and more
rows than a grid's y (70000: the kernel loops over them); the destination pre-filled with
0xFF, so an unwritten pad byte shows."""

from __future__ import annotations

import numpy as np
import pytest

from schedir.gpu import DeviceArray, GpuContext, load_module
from schedir.gpu.tma import (
    STAGING_KERNEL,
    STAGING_PTX,
    STAGING_THREADS,
    Staging,
    plan_staging,
    round_up,
)

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize(
    ("rows", "columns", "dtype"),
    [
        (4096, 4097, np.float16),
        (300, 1001, np.float32),
        (257, 4097, np.int8),
        (1, 1, np.float16),
        (70_000, 3, np.int16),
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_staged_rows_match_numpy(context: GpuContext, rows: int, columns: int, dtype: type) -> None:
    rng = np.random.default_rng(rows + columns)
    host = rng.integers(-100, 100, size=(rows, columns)).astype(dtype)
    source = DeviceArray.from_numpy(host, context)
    itemsize = host.dtype.itemsize
    row_bytes = columns * itemsize
    # Rows no multiple of 16 bytes apart: the host's plan stages them (int8 rows of 4097
    # bytes start at odd addresses).
    staging = plan_staging(source.ptr, itemsize, (rows, columns), (row_bytes, itemsize))
    assert staging is not None
    assert staging == Staging(source.ptr, row_bytes, rows, row_bytes, round_up(row_bytes, 16))
    target = DeviceArray.from_numpy(np.full(rows * staging.pitch, 0xFF, np.uint8), context)
    kernel = load_module(context, STAGING_PTX, name="staging").kernel(STAGING_KERNEL)
    kernel.launch(staging.launch_grid(), STAGING_THREADS, staging.launch_arguments(target.ptr))
    got = target.to_numpy().reshape(rows, staging.pitch)
    want = np.zeros((rows, staging.pitch), np.uint8)
    want[:, :row_bytes] = host.view(np.uint8).reshape(rows, row_bytes)
    np.testing.assert_array_equal(got, want)
