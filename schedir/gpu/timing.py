"""GPU timing with CUDA events: warm-up, L2 flush between runs, median of N repeats.

`time_function(fn)` times any callable that queues GPU work: a `BoundLaunch` of a
`GpuFunction`, a `Kernel.launch` in a lambda, or a PyTorch/Triton/CuPy call for a peer
in a benchmark (they share the device's primary context with schedir). Each repeat is

    flush L2 (cuMemsetD8Async over a buffer twice the L2 size)   -- not timed
    record start event; fn(); record end event                  -- timed on the GPU

all on one stream (default: the legacy default stream, which also orders work on the
blocking streams PyTorch and CuPy use by default). After `warmup` untimed calls
(compilation, module load and caches stay out of the numbers) the repeats are queued
back to back, then the events are read. Times are the GPU time between the events in
milliseconds (about 0.5 us resolution); host overhead of queuing is not included unless
the GPU had to wait for it. Work that `fn` queues on another non-blocking stream is not
measured: pass that stream.

Writing the flush buffer evicts the inputs from L2, so every repeat reads from HBM as a
first call in a real program would; `flush_l2=False` measures the warm-cache case.
"""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from schedir.gpu.context import GpuContext, default_context, stream_handle
from schedir.gpu.errors import CudaError
from schedir.gpu.memory import DeviceArray


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
        for index in range(repeat):
            if flush is not None:
                # A different byte each time so no layer can skip an unchanged write.
                flush.fill_bytes(index, stream)
            context.call("cuEventRecord", events[2 * index], handle)
            fn()
            context.call("cuEventRecord", events[2 * index + 1], handle)
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
