"""`schedir.cpu.isolated`: calls in a forked child, their results, crashes and time limits."""

from __future__ import annotations

import ctypes
import os
import signal
import time

import numpy as np
import pytest

from schedir.cpu.isolated import run_isolated, shared_array
from schedir.diagnostics import InputError, KernelCrash, KernelTimeout


def test_the_result_comes_back() -> None:
    assert run_isolated(lambda: {"sum": 3 + 4, "pid": os.getpid()})["sum"] == 7
    assert run_isolated(lambda: os.getpid()) != os.getpid()


def test_large_results_come_back_whole() -> None:
    data = np.random.default_rng(1).standard_normal(3_000_001)
    np.testing.assert_array_equal(run_isolated(lambda: data * 2), data * 2)


def test_the_exception_of_the_call_is_raised_here() -> None:
    def fail() -> None:
        raise InputError("argument 1 does not fit")

    with pytest.raises(InputError, match="argument 1 does not fit"):
        run_isolated(fail)


@pytest.mark.parametrize(
    ("number", "cause"),
    [
        (signal.SIGSEGV, "out-of-bounds memory access"),
        (signal.SIGFPE, "integer division by zero"),
        (signal.SIGABRT, "abort"),
        (signal.SIGBUS, "not mapped"),
    ],
)
def test_a_signal_is_a_kernel_crash(number: int, cause: str) -> None:
    with pytest.raises(KernelCrash) as caught:
        run_isolated(lambda: os.kill(os.getpid(), number), what="@f")
    err = caught.value
    assert err.signal == number
    assert err.message.startswith(f"the kernel @f crashed with {signal.Signals(number).name}")
    assert any(cause in note.message for note in err.notes)
    assert any("--runtime-verification" in note.message for note in err.notes)


def test_a_real_segmentation_fault_is_a_kernel_crash() -> None:
    with pytest.raises(KernelCrash, match="SIGSEGV"):
        run_isolated(lambda: ctypes.string_at(8))  # reads address 8


def test_a_call_past_its_time_limit_is_killed() -> None:
    start = time.monotonic()
    with pytest.raises(KernelTimeout) as caught:
        run_isolated(lambda: time.sleep(60), timeout=0.5, what="@slow")
    assert time.monotonic() - start < 30
    assert caught.value.seconds == 0.5
    assert "the kernel @slow ran longer than 0.5 s" in caught.value.message


def test_an_exit_without_a_result_is_reported() -> None:
    with pytest.raises(KernelCrash, match="exited with status 3 without a result"):
        run_isolated(lambda: os._exit(3))


def test_shared_arrays_carry_the_childs_writes() -> None:
    out = shared_array((3, 5), np.float32)

    def write() -> None:
        out[...] = np.arange(15, dtype=np.float32).reshape(3, 5)

    run_isolated(write)
    np.testing.assert_array_equal(out, np.arange(15, dtype=np.float32).reshape(3, 5))
    assert shared_array((0, 4), np.int32).shape == (0, 4)
