"""The tuning workers' process protocol: replies, phases, large messages, output on the
child's stdout, crashes, exits and hangs, all without harm to the parent."""

from __future__ import annotations

import time
from typing import Any

import pytest

from schedir.autotune.worker import Died, Worker, wait_any
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


@pytest.fixture
def worker() -> Any:
    w = Worker(worker_handler, "setup-value", "test", start_timeout=60.0)
    w.start()
    _wait_ready(w)
    yield w
    w.stop()


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
