"""The tuning workers' process protocol: replies, phases, large messages, output on the
child's stdout, crashes, exits and hangs, all without harm to the parent."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from schedir.autotune.compile_pool import compile_handler, warm_imports
from schedir.autotune.worker import Died, Forked, Worker, start_zygote, stop_zygote, wait_any
from tests.unit.autotune.faults import worker_handler


def _next(worker: Worker, timeout: float = 60.0) -> Any:
    """The next message of `worker` (a `Died` record at its deadline)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if worker.expired(time.monotonic()):
            return worker.kill_for_timeout()
        for w in wait_any([worker], 0.2):
            message = w.receive()
            if message is not None:
                return message
    raise AssertionError("no message")


def _wait_ready(w: Worker) -> None:
    end = time.monotonic() + 60
    while not w.idle and time.monotonic() < end:
        for ready in wait_any([w], 0.2):
            assert ready.receive() is None
    assert w.idle


@pytest.fixture(params=["zygote", "fresh"])
def worker(request: pytest.FixtureRequest) -> Any:
    """A worker forked from the zygote, or started as a fresh interpreter."""
    forked = request.param == "zygote"
    if forked:
        start_zygote(warm_imports)
    w = Worker(worker_handler, "setup-value", "test", start_timeout=60.0, zygote=forked)
    w.start()
    _wait_ready(w)
    assert isinstance(w._process, Forked) == forked  # pyright: ignore[reportPrivateUsage]  # how it was started
    yield w
    w.stop()


def test_a_compile_worker_forked_from_the_zygote_is_ready_at_once() -> None:
    start_zygote(warm_imports)
    first = Worker(compile_handler, "cpu", "compile-first", start_timeout=60.0)
    first.start()  # waits until the zygote has warmed up
    _wait_ready(first)
    try:
        for i in range(3):
            w = Worker(compile_handler, "cpu", f"compile-{i}", start_timeout=60.0)
            w.start()
            _wait_ready(w)
            assert w.ready_s is not None and w.ready_s < 0.5, w.ready_s
            w.stop()
    finally:
        first.stop()


def test_a_killed_zygote_leaves_workers_that_start_fresh() -> None:
    zygote = start_zygote(warm_imports)
    w = Worker(worker_handler, "setup-value", "test", start_timeout=60.0)
    w.start()
    _wait_ready(w)
    forked = w.pid
    assert forked is not None
    os.kill(zygote.pid, signal.SIGKILL)
    try:
        died = _next(w)  # its child ends with it (the parent-death signal)
        assert isinstance(died, Died) and died.kind == "crashed"
        _wait_ready(w)  # restarted as a fresh interpreter
        assert not isinstance(w._process, Forked)  # pyright: ignore[reportPrivateUsage]  # how it was restarted
        w.submit(("echo", 2), timeout=30)
        assert [_next(w) for _ in range(3)][-1] == ("done", ("setup-value", 2))
    finally:
        w.stop()
        stop_zygote()


def test_phases_then_the_result(worker: Worker) -> None:
    worker.submit(("echo", 41), timeout=30)
    assert _next(worker) == ("phase", "one")
    assert _next(worker) == ("phase", "two")
    assert _next(worker) == ("done", ("setup-value", 41))
    assert worker.idle


@pytest.mark.parametrize("size", [1, 65_536, 3_000_001])
def test_messages_larger_than_a_pipe_buffer_also_while_paused(worker: Worker, size: int) -> None:
    worker.pause()
    worker.submit(("size", b"x" * size), timeout=30)
    worker.resume()
    assert _next(worker) == ("done", size)


def test_output_of_the_child_never_corrupts_a_reply(worker: Worker) -> None:
    worker.submit(("print", "clean"), timeout=30)
    assert _next(worker) == ("done", "clean")


@pytest.mark.parametrize(
    ("job", "kind", "cause"),
    [
        (("crash",), "crashed", "killed by SIGSEGV"),
        (("exit", 3), "crashed", "exited with status 3"),
        (("hang",), "timed-out", "no answer within 1 s (killed)"),
    ],
)
def test_a_dead_or_hung_child_is_reported_and_replaced(
    worker: Worker, job: tuple[Any, ...], kind: str, cause: str
) -> None:
    first = worker.pid
    worker.submit(job, timeout=1.0)
    died = _next(worker)
    assert isinstance(died, Died) and died.kind == kind and cause in died.message
    assert worker.pid != first and worker.restarts == 1
    _wait_ready(worker)  # the new child starts, then answers as before
    worker.submit(("echo", 1), timeout=30)
    messages = [_next(worker) for _ in range(3)]
    assert messages[-1] == ("done", ("setup-value", 1))


@pytest.mark.parametrize("zygote", [True, False])
def test_a_job_sent_before_the_child_is_ready_runs_with_its_deadline_from_ready(
    zygote: bool,
) -> None:
    if zygote:
        start_zygote(warm_imports)
    w = Worker(worker_handler, "setup-value", "early", start_timeout=60.0, zygote=zygote)
    w.start()
    try:
        w.submit(("echo", 7), timeout=30)  # before its ready message
        assert not w.idle
        messages = [_next(w) for _ in range(3)]
        assert messages[-1] == ("done", ("setup-value", 7))
        assert w.idle
        hung = Worker(worker_handler, None, "early-hang", start_timeout=60.0, zygote=zygote)
        hung.start()
        hung.submit(("hang",), timeout=1.5)
        spawned = time.monotonic()
        died = _next(hung, timeout=60)
        # The hang is caught by the job's own deadline, counted from the ready message.
        assert isinstance(died, Died) and died.kind == "timed-out"
        assert time.monotonic() - spawned >= 1.5
        hung.stop()
    finally:
        w.stop()
