"""Measurement hooks that make chosen candidates misbehave (the tests' injected faults).

A hook runs in the measurement worker instead of the candidate's verification call; it
is pickled by reference, so it lives in an importable module.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np


def segfault_hang_wrong(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """tile_n=7: segfault; (4, 32): hang; tile_m=16: wrong numbers; others: the kernel."""
    if knobs.get("tile_n") == 7:
        os.kill(os.getpid(), signal.SIGSEGV)
    if (knobs.get("tile_m"), knobs.get("tile_n")) == (4, 32):
        time.sleep(10_000)
    results = run()
    if knobs.get("tile_m") == 16:
        results[0][1, 2] += 1.0
    return results


def segfault_wrong(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """`segfault_hang_wrong` without the hang: tile_n=7 segfaults, tile_m=16 is wrong."""
    if knobs.get("tile_n") == 7:
        os.kill(os.getpid(), signal.SIGSEGV)
    results = run()
    if knobs.get("tile_m") == 16:
        results[0][1, 2] += 1.0
    return results


def null_pointer_read(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """Every candidate reads address 0 after its call (a real segfault, not a signal sent)."""
    results = run()
    ctypes.string_at(0)
    return results


def unwritten_element(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """tile_m=4 leaves one result element as the kernel found it (NaN from the prefill)."""
    results = run()
    if knobs.get("tile_m") == 4:
        results[0][0, 0] = np.nan
    return results


def slow(knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]) -> list[np.ndarray]:
    """Half a second per verification call (a run interrupted mid-way has work in flight)."""
    time.sleep(0.5)
    return run()


def worker_handler(setup: Any) -> Callable[[Any, Callable[[str], None]], Any]:
    """A worker handler for the process tests: ("echo", x) answers x after two phases,
    ("size", data) answers len(data), ("print", x) writes to stdout first, ("crash",)
    kills the child with SIGSEGV, ("hang",) never answers, ("exit", n) exits with n."""

    def handle(job: Any, progress: Callable[[str], None]) -> Any:
        kind = job[0]
        if kind == "echo":
            progress("one")
            progress("two")
            return (setup, job[1])
        if kind == "size":
            return len(job[1])
        if kind == "print":
            print("noise that must not reach the reply pipe", flush=True)
            os.write(1, b"more noise on fd 1\n")
            return job[1]
        if kind == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if kind == "exit":
            os._exit(job[1])
        time.sleep(10_000)
        return None

    return handle


def sleeping_handler(setup: Any) -> Callable[[Any, Callable[..., None]], Any]:
    """A worker handler (`schedir.autotune.worker.Worker`) that sleeps `job` seconds."""

    def handle(job: Any, progress: Callable[..., None]) -> Any:
        time.sleep(float(job))
        return job

    return handle


def handshake_handler(setup: Any) -> Callable[[Any, Callable[..., None]], Any]:
    """A worker handler that announces its timing phase, waits for the go, and returns
    the monotonic time at which it went on."""

    def handle(job: Any, progress: Callable[..., None]) -> Any:
        progress("timing", True)
        return time.monotonic()

    return handle


LATE_REFERENCE_S = 12.0
"""Long enough for the first candidates to compile and be timed on a loaded machine."""


def late_reference_handler(setup: Any) -> Callable[[Any, Callable[..., None]], Any]:
    """The reference worker's handler, LATE_REFERENCE_S late: the first candidates are
    timed before the reference results exist."""
    from schedir.autotune.problem import reference_handler

    handle = reference_handler(setup)

    def late(job: Any, progress: Callable[..., None]) -> Any:
        time.sleep(LATE_REFERENCE_S)
        return handle(job, progress)

    return late


def failing_reference_handler(setup: Any) -> Callable[[Any, Callable[..., None]], Any]:
    """A reference worker whose reference cannot evaluate the payload (its diagnostic)."""

    def fail(job: Any, progress: Callable[..., None]) -> Any:
        return "<payload>:1:1: error: the reference cannot evaluate this op"

    return fail


def wrong_default(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """The schedule as written (tile_m=8, tile_n=4) returns one wrong number."""
    results = run()
    if (knobs.get("tile_m"), knobs.get("tile_n")) == (8, 4):
        results[0][1, 2] += 1.0
    return results


def slow_verification(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """Every candidate's verification takes a second longer (measuring slower than
    compiling)."""
    time.sleep(1.0)
    return run()
