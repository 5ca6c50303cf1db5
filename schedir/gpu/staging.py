"""Copying a tensor TMA cannot describe into rows it can: the staging kernel.

`schedir.gpu.tma.plan_staging` decides that a tensor must be staged (its address or row
strides are not multiples of 16 bytes: f16 rows of N = 4097) and how: `rows` rows of
`row_bytes` bytes, `source_pitch` bytes apart, into a buffer of rows `pitch` bytes apart.
`stage_rows` queues that copy as one kernel (`STAGE_PTX`) that also zero-fills the pad of
each row. The driver's pitched copy (`cuMemcpy2DAsync`) does the same in 54 us for an f16
4096 x 4097 matrix on an H200 (its rows are only 2-byte aligned), the kernel in 34 us
(`PER_THREAD`).

Each thread copies `PER_THREAD` units (a unit: the widest of 1, 2, 4 or 8 bytes that
divides the addresses, pitches and row size) of a row, or writes zero where the row has
ended; the grid's y blocks walk the rows (more rows than a grid's 65,535 loop).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from schedir.gpu.context import GpuContext
from schedir.gpu.runtime import GpuModule, Kernel
from schedir.gpu.tma import Staging

UNITS = (8, 4, 2, 1)
"""Bytes a thread copies, widest first."""

THREADS = 256
"""Threads of a block (along a row)."""

MAX_GRID_Y = 65_535

PER_THREAD = 4
"""Units a thread copies of each row it visits, `THREADS` units apart: their loads are all
in flight before the first store. H200, f16 4096 x 4097 (67 MB moved): one unit a thread
58 us, 4 units 34 us (2.0 TB/s), 8 units 52 us, 16 units 179 us; cuMemcpy2DAsync 54 us;
8192 x 8193: 4 units 112 us, cuMemcpy2DAsync 185 us."""


def kernel_ptx(unit: int, per_thread: int = PER_THREAD) -> str:
    """The PTX of the kernel for `unit`-byte units, `per_thread` of them a thread."""
    bits = 8 * unit
    reg = max(16, bits)
    head = f"""
.visible .entry schedir_stage_rows_{bits}(.param .u64 dst, .param .u64 src,
    .param .u64 src_pitch, .param .u64 row_units, .param .u64 pitch, .param .u64 pitch_units,
    .param .u64 rows)
{{
  .reg .pred %p<2>;
  .reg .pred %load<{per_thread}>;
  .reg .pred %store<{per_thread}>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<16>;
  .reg .b64 %offset<{per_thread}>;
  .reg .b64 %from<{per_thread}>;
  .reg .b64 %to<{per_thread}>;
  .reg .b{reg} %v<{per_thread}>;
  ld.param.u64 %rd1, [dst];
  ld.param.u64 %rd2, [src];
  ld.param.u64 %rd3, [src_pitch];
  ld.param.u64 %rd4, [row_units];
  ld.param.u64 %rd5, [pitch];
  ld.param.u64 %rd6, [pitch_units];
  ld.param.u64 %rd7, [rows];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mul.lo.u32 %r2, %r2, {per_thread};
  mul.wide.u32 %rd8, %r1, %r2;
  cvt.u64.u32 %rd9, %r3;
  add.u64 %rd8, %rd8, %rd9;
  mov.u32 %r4, %ctaid.y;
  cvt.u64.u32 %rd10, %r4;
  mov.u32 %r5, %nctaid.y;
  cvt.u64.u32 %rd11, %r5;
"""
    columns = "".join(
        f"""  add.u64 %rd9, %rd8, {k * THREADS};
  setp.lt.u64 %load{k}, %rd9, %rd4;
  setp.lt.u64 %store{k}, %rd9, %rd6;
  mul.lo.u64 %offset{k}, %rd9, {unit};
"""
        for k in range(per_thread)
    )
    loads = "".join(
        f"""  mov.b{reg} %v{k}, 0;
  @%load{k} add.u64 %from{k}, %rd12, %offset{k};
  @%load{k} ld.global.nc.u{bits} %v{k}, [%from{k}];
"""
        for k in range(per_thread)
    )
    stores = "".join(
        f"""  @%store{k} add.u64 %to{k}, %rd13, %offset{k};
  @%store{k} st.global.u{bits} [%to{k}], %v{k};
"""
        for k in range(per_thread)
    )
    return (
        head
        + columns
        + """ROW:
  setp.ge.u64 %p1, %rd10, %rd7;
  @%p1 bra DONE;
  mad.lo.u64 %rd12, %rd10, %rd3, %rd2;
  mad.lo.u64 %rd13, %rd10, %rd5, %rd1;
"""
        + loads
        + stores
        + """  add.u64 %rd10, %rd10, %rd11;
  bra ROW;
DONE:
  ret;
}
"""
    )


STAGE_PTX = ".version 7.0\n.target sm_70\n.address_size 64\n" + "".join(
    kernel_ptx(unit) for unit in UNITS
)
"""One kernel per unit: `schedir_stage_rows_<bits>`."""

_MODULES: weakref.WeakKeyDictionary[GpuContext, GpuModule] = weakref.WeakKeyDictionary()


def unit_of(staging: Staging, destination: int) -> int:
    """The widest unit every address, pitch and the row size are multiples of."""
    values = (staging.source, staging.source_pitch, staging.row_bytes, staging.pitch, destination)
    return next(u for u in UNITS if all(v % u == 0 for v in values))


def _kernel(context: GpuContext, unit: int) -> Kernel:
    module = _MODULES.get(context)
    if module is None:
        module = _MODULES[context] = GpuModule(context, STAGE_PTX, name="TMA staging")
    return module.kernel(f"schedir_stage_rows_{8 * unit}")


def stage_rows(context: GpuContext, staging: Staging, destination: int, stream: Any) -> None:
    """Queue on `stream` the copy of the rows `staging` describes to `destination` (rows
    `staging.pitch` bytes apart, each padded with zeros)."""
    unit = unit_of(staging, destination)
    pitch_units = staging.pitch // unit
    grid = (-(-pitch_units // (THREADS * PER_THREAD)), min(staging.rows, MAX_GRID_Y))
    args = [
        np.uint64(destination),
        np.uint64(staging.source),
        np.uint64(staging.source_pitch),
        np.uint64(staging.row_bytes // unit),
        np.uint64(staging.pitch),
        np.uint64(pitch_units),
        np.uint64(staging.rows),
    ]
    _kernel(context, unit).launch(grid, THREADS, args, stream=stream)


__all__ = ["STAGE_PTX", "stage_rows", "unit_of"]
