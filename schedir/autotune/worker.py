"""Isolated worker processes: a child that serves jobs over a pipe, with a deadline per job,
killed and restarted when it crashes or runs past its deadline.

Children come from a *forkserver* (a clean process that preloaded the compiler once), not
by forking the tuning process: that one runs threads (the progress display, storage
locks) that a plain fork would copy in an unknown state, and a CUDA context must never be
inherited. A child runs `serve`: it builds its handler once from the worker's `setup`,
then answers each job with `("done", result)`, after optional `("phase", name)` messages
that let the parent move the job's deadline (the measurement worker reports when it has
built, verified and started timing a kernel).

Nothing a job does can harm the parent: a child that dies (a segfault, `os._exit`, an
out-of-memory kill) is seen as a closed pipe and its exit signal, a child that hangs is
killed at the deadline, and either way `Worker` reports a `Died` record with the cause
and starts a fresh child for the next job.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

PRELOAD = ("schedir.autotune.compile_pool", "schedir.autotune.measure")
"""Modules the forkserver imports once, so a restarted child is ready in milliseconds."""


def process_context() -> BaseContext:
    """The multiprocessing context of every tuning worker (a preloaded forkserver)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(list(PRELOAD))
    return ctx


Handler = Callable[[Any, Callable[[str], None]], Any]
"""What a child runs for each job (job, progress): the result, after optional
`progress(phase)` calls."""

HandlerFactory = Callable[[Any], Handler]
"""Builds a child's handler from the worker's setup (a picklable module-level function)."""


def serve(conn: multiprocessing.connection.Connection, factory: HandlerFactory, setup: Any) -> None:
    """The child's main loop: answer jobs until the pipe closes or a None job arrives."""
    # The parent handles Ctrl-C and stops the children; a child ignores it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    handler = factory(setup)
    try:
        conn.send(("ready",))
        while True:
            job = conn.recv()
            if job is None:
                return
            result = handler(job, lambda name: conn.send(("phase", name)))
            conn.send(("done", result))
    except (EOFError, OSError):
        return  # the parent is gone or stopped this worker: nobody to answer


@dataclass(frozen=True)
class Died:
    """A job whose child died or hung: `kind` is "crashed" or "timed-out"."""

    kind: str
    message: str


def death_cause(exitcode: int | None) -> str:
    """The cause of a child's end, from its exit code: the signal name or the status."""
    if exitcode is None:
        return "the worker process stopped answering"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the worker process was killed by {name}"
    return f"the worker process exited with status {exitcode}"


class Worker:
    """One child process: at most one job at a time, a deadline per job, restarted on death.

    `submit` sends a job; the owner waits on `connection` (with other workers', through
    `multiprocessing.connection.wait`) and calls `receive` when it is readable, and
    `expired` at the deadline. `receive` gives `("phase", name)`, `("done", result)` or a
    `Died` record (the child was restarted). `pause`/`resume` stop and continue the child
    (SIGSTOP/SIGCONT), its deadline moved by the time it spent stopped.
    """

    def __init__(
        self,
        ctx: BaseContext,
        factory: HandlerFactory,
        setup: Any,
        label: str,
        start_timeout: float,
    ) -> None:
        self.ctx = ctx
        self.factory = factory
        self.setup = setup
        self.label = label
        self.start_timeout = start_timeout
        self.job: Any = None
        self.deadline: float | None = None
        self.timeout = start_timeout
        """The seconds the current deadline was set to (for the message of a hang)."""
        self.restarts = 0
        self._paused_at: float | None = None
        self._process: BaseProcess | None = None
        self._conn: Any = None
        """The parent's end of the pipe (a multiprocessing Connection)."""
        self._ready = False

    # -- life cycle

    def start(self) -> None:
        parent, child = self.ctx.Pipe(duplex=True)
        process = self.ctx.Process(  # pyright: ignore[reportAttributeAccessIssue]  # BaseContext has Process at run time
            target=serve, args=(child, self.factory, self.setup), name=self.label, daemon=True
        )
        process.start()
        child.close()
        self._process, self._conn, self._ready = process, parent, False
        self.timeout = self.start_timeout
        self.deadline = time.monotonic() + self.start_timeout

    def stop(self) -> None:
        """End the child (politely if idle, else killed) and release the pipe."""
        if self._process is None:
            return
        if self._paused_at is not None:
            self.resume()
        if self.job is None and self._conn is not None:
            with contextlib.suppress(OSError, ValueError):
                self._conn.send(None)
            self._process.join(timeout=2)
        if self._process.is_alive():
            self._process.kill()
        self._process.join(timeout=5)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None
        self.job = None
        self.deadline = None

    def _restart(self, kind: str, cause: str) -> Died:
        process = self._process
        if process is not None and process.is_alive():
            process.kill()
        if process is not None:
            process.join(timeout=5)
            cause = cause or death_cause(process.exitcode)
        if self._conn is not None:
            self._conn.close()
        self._process = self._conn = None
        self.job = None
        self.deadline = None
        self._paused_at = None
        self.restarts += 1
        self.start()
        return Died(kind, cause)

    # -- jobs

    @property
    def connection(self) -> multiprocessing.connection.Connection:
        assert self._conn is not None, f"worker {self.label} is not running"
        return self._conn

    @property
    def idle(self) -> bool:
        return self._ready and self.job is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def submit(self, job: Any, timeout: float) -> None:
        assert self.idle, f"worker {self.label} is busy"
        self.job = job
        self.extend(timeout)
        self.connection.send(job)

    def extend(self, timeout: float) -> None:
        """Move the deadline of the running job to `timeout` seconds from now."""
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout

    def receive(self) -> tuple[Any, ...] | Died | None:
        """The next message of the child (the pipe is readable); None for the child's
        start-up message; a `Died` record when the child died (it is restarted)."""
        try:
            message = self.connection.recv()
        except (EOFError, OSError):
            process = self._process
            if process is not None:
                process.join(timeout=5)
            cause = death_cause(process.exitcode if process is not None else None)
            if not self._ready:
                # It died while starting (preloading): nothing to retry on a new child.
                raise RuntimeError(f"worker {self.label} could not start: {cause}") from None
            return self._restart("crashed", cause)
        if message[0] == "ready":
            self._ready = True
            self.deadline = None
            return None
        if message[0] == "done":
            self.job = None
            self.deadline = None
        return message

    def replace(self, cause: str) -> Died:
        """Replace an idle child whose state is broken (a poisoned CUDA context)."""
        return self._restart("crashed", cause)

    def expired(self, now: float) -> bool:
        return self.deadline is not None and self._paused_at is None and now >= self.deadline

    def kill_for_timeout(self) -> Died:
        """Kill the child at its deadline, start a new one, and report the hang."""
        if not self._ready:
            raise RuntimeError(f"worker {self.label} did not start within {self.timeout:.0f} s")
        return self._restart("timed-out", f"no answer within {self.timeout:.3g} s (killed)")

    # -- pausing (CPU measurements run alone)

    def pause(self) -> None:
        if self._process is not None and self._process.pid and self._paused_at is None:
            os.kill(self._process.pid, signal.SIGSTOP)
            self._paused_at = time.monotonic()

    def resume(self) -> None:
        if self._process is not None and self._process.pid and self._paused_at is not None:
            os.kill(self._process.pid, signal.SIGCONT)
            if self.deadline is not None:
                self.deadline += time.monotonic() - self._paused_at
            self._paused_at = None


def wait_any(workers: list[Worker], timeout: float | None) -> list[Worker]:
    """The workers whose pipes are readable within `timeout` seconds."""
    by_conn = {id(w.connection): w for w in workers if w._conn is not None}
    ready = multiprocessing.connection.wait(
        [w.connection for w in workers if w._conn is not None], timeout
    )
    return [by_conn[id(c)] for c in ready]


__all__ = [
    "PRELOAD",
    "Died",
    "Handler",
    "Worker",
    "death_cause",
    "process_context",
    "serve",
    "wait_any",
]
