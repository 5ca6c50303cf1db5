"""GPU timing with CUDA events: warm-up, L2 flush between runs, median of N repeats.

`time_function(fn)` times any callable that queues GPU work: a `BoundLaunch` of a
`GpuFunction`, a `Kernel.launch` in a lambda, or a PyTorch/Triton/CuPy call for a peer
in a benchmark (they share the device's primary context with schedir). Each repeat is

    flush L2 (cuMemsetD8Async over a buffer twice the L2 size)   -- not timed
    record start event; fn(); record end event                  -- timed on the GPU

all on one stream (default: the legacy default stream, which also orders work on the
blocking streams PyTorch and CuPy use by default). After `warmup` untimed calls
(compilation, module load and caches stay out of the numbers) the repeats are queued
back to back behind a gate, then the events are read. Times are the GPU time between the
events in milliseconds (about 0.5 us resolution). Work that `fn` queues on another
non-blocking stream is not measured: pass that stream.

The gate keeps the host's time out of the numbers. Without it the GPU runs each repeat as
soon as it is queued, and when queuing `fn` takes the host longer than the flush takes the
GPU (a busy host: an autotuner's compile workers beside the measurement; a call whose host
side does much, such as Python callbacks per launch), the GPU waits between the start event
and the kernel and that wait is timed. So a one-thread kernel (`GATE_PTX`) first spins on a
flag in mapped host memory; the repeats are queued behind it, the flag is set and the GPU
runs them back to back. The gate gives up after `GATE_LIMIT_NS` (a `fn` that synchronizes
inside, or a stream queue that fills up, blocks the host until then): the repeats are
then timed as they come, as without the gate.

Writing the flush buffer evicts the inputs from L2, so every repeat reads from HBM as a
first call in a real program would; `flush_l2=False` measures the warm-cache case.
"""

from __future__ import annotations

import contextlib
import ctypes
import statistics
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from schedir.gpu.context import GpuContext, default_context, stream_handle
from schedir.gpu.errors import CudaError
from schedir.gpu.memory import DeviceArray
from schedir.gpu.runtime import GpuModule, Kernel

GATE_LIMIT_NS = 200_000_000
"""How long the gate waits for the host to queue the repeats (0.2 s) before it opens."""

GATE_PTX = """
.version 7.0
.target sm_70
.address_size 64

.visible .entry schedir_timing_gate(.param .u64 flag, .param .u64 limit_ns)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [limit_ns];
  mov.u64 %rd3, %globaltimer;
  add.u64 %rd4, %rd3, %rd2;
WAIT:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra OPEN;
  mov.u64 %rd5, %globaltimer;
  setp.lt.u64 %p2, %rd5, %rd4;
  @%p2 bra WAIT;
OPEN:
  ret;
}
"""
"""The gate: spins until the 32-bit flag (mapped host memory) is not zero or `limit_ns`
nanoseconds of the GPU's global timer have passed."""


class _Gate:
    """The gate kernel of one context and its flag (pinned host memory mapped into the
    device's address space)."""

    def __init__(self, context: GpuContext) -> None:
        self.context = context
        self.kernel: Kernel = GpuModule(context, GATE_PTX, name="timing gate").kernel(
            "schedir_timing_gate"
        )
        driver = context.driver
        self.host = int(
            context.call(
                "cuMemHostAlloc",
                4,
                driver.CU_MEMHOSTALLOC_DEVICEMAP,
                during="allocating the timing gate's flag",
            )
        )
        self.device = int(context.call("cuMemHostGetDevicePointer", self.host, 0))
        self._finalizer = weakref.finalize(self, _free_host, context, self.host)

    def close(self, stream: Any) -> None:
        """Queue the closed gate on `stream`."""
        self._flag().value = 0
        self.kernel.launch(1, 1, [np.uint64(self.device), np.uint64(GATE_LIMIT_NS)], stream=stream)

    def open(self) -> None:
        """Let the GPU past the gate."""
        self._flag().value = 1

    def _flag(self) -> ctypes.c_uint32:
        return ctypes.c_uint32.from_address(self.host)


def _free_host(context: GpuContext, pointer: int) -> None:
    if context.lost is None and context.initialized:
        with contextlib.suppress(CudaError):
            context.call("cuMemFreeHost", pointer)


_GATES: weakref.WeakKeyDictionary[GpuContext, _Gate] = weakref.WeakKeyDictionary()


def _gate(context: GpuContext) -> _Gate:
    gate = _GATES.get(context)
    if gate is None:
        gate = _GATES[context] = _Gate(context)
    return gate


@dataclass(frozen=True)
class Timing:
    """GPU times of the timed repeats, in milliseconds."""

    times_ms: tuple[float, ...]
    warmup: int
    flushed_l2: bool

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times_ms)

    @property
    def min_ms(self) -> float:
        return min(self.times_ms)

    @property
    def max_ms(self) -> float:
        return max(self.times_ms)

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.times_ms)

    @property
    def repeats(self) -> int:
        return len(self.times_ms)

    def __str__(self) -> str:
        cache = "L2 flushed" if self.flushed_l2 else "warm L2"
        return (
            f"median {self.median_ms:.4f} ms, min {self.min_ms:.4f} ms over {self.repeats} runs "
            f"({self.warmup} warm-up, {cache})"
        )


def flush_buffer_bytes(l2_cache_bytes: int) -> int:
    """Size of the L2 flush buffer: twice the L2 (at least 64 MiB)."""
    return max(2 * l2_cache_bytes, 64 * 1024 * 1024)


def _queue_repeats(
    fn: Callable[[], Any],
    context: GpuContext,
    handle: Any,
    flush: DeviceArray | None,
    events: list[Any],
    repeat: int,
    stream: Any,
) -> None:
    """Queue the timed repeats: flush, start event, `fn()`, end event."""
    for index in range(repeat):
        if flush is not None:
            # A different byte each time so no layer can skip an unchanged write.
            flush.fill_bytes(index, stream)
        context.call("cuEventRecord", events[2 * index], handle)
        fn()
        context.call("cuEventRecord", events[2 * index + 1], handle)


def time_function(
    fn: Callable[[], Any],
    *,
    context: GpuContext | None = None,
    warmup: int = 3,
    repeat: int = 20,
    flush_l2: bool = True,
    stream: Any = None,
) -> Timing:
    """Median-ready GPU times of `fn()` (see the module doc for the method)."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    if warmup < 0:
        raise ValueError(f"warmup must be non-negative, got {warmup}")
    context = context if context is not None else default_context()
    driver = context.driver
    handle = driver.CUstream(stream_handle(stream))
    flush = (
        DeviceArray.empty(flush_buffer_bytes(context.target.l2_cache_bytes), "uint8", context)
        if flush_l2
        else None
    )
    events: list[Any] = []
    try:
        for _ in range(warmup):
            fn()
        context.synchronize(stream, during="waiting for the warm-up runs")
        for _ in range(2 * repeat):
            events.append(context.call("cuEventCreate", driver.CUevent_flags.CU_EVENT_DEFAULT))
        gate = _gate(context)
        gate.close(stream)
        try:
            _queue_repeats(fn, context, handle, flush, events, repeat, stream)
        finally:
            gate.open()
        context.call("cuEventSynchronize", events[-1], during="waiting for the timed runs")
        times = tuple(
            float(context.call("cuEventElapsedTime", events[2 * i], events[2 * i + 1]))
            for i in range(repeat)
        )
    finally:
        for event in events:
            # Cleanup must not hide the error that brought us here.
            if context.lost is None:
                with contextlib.suppress(CudaError):
                    context.call("cuEventDestroy", event)
        if flush is not None:
            flush.free()
    return Timing(times, warmup, flush_l2)


__all__ = ["Timing", "flush_buffer_bytes", "time_function"]
