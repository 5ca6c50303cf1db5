"""A warm worker process for LLVM's optimizer and code generators.

llvmlite's LLVM is built with assertions: some valid inputs make an LLVM pass call
`abort()` (e.g. the loop vectorizer's "VPlan cost model and legacy cost model disagreed"
on AMD Zen 4), which would end the Python process that asked for the compile. So every
LLVM optimization and code generation of schedir runs here, in a child process: the
parent sends a module-level function and its arguments, the worker returns the result
(object code, PTX) or the exception it raised. If the worker dies (a signal, or an
exit), the call raises `InternalCompilerError` naming the stage, the signal, the last
lines LLVM printed, and a file holding the input; the next call starts a new worker.

The worker is a plain `python -c` subprocess (not multiprocessing: a user script without
an `if __name__ == "__main__"` guard would be re-run by a spawned child). It imports
only what its functions need (llvmlite, not xDSL or numpy) and stays alive between
calls, so its start-up (~0.3 s) is paid once per process; `start()` begins it without
waiting, so the driver can start it before parsing and scheduling. Requests and replies
are length-prefixed pickles on the worker's stdin and a private copy of its stdout; the
worker's file descriptor 1 is pointed at its stderr, so nothing LLVM prints can corrupt
a reply. Its stderr goes to a temporary file: what a call printed (LLVM's warnings) is
copied to this process's stderr after the call; after a crash it becomes the note.

`default_worker()` is the one shared worker of a process (created on first use, closed
at exit); a forked child that inherits it gets a new one. Calls are serialized by a lock.

This module must not import xDSL or numpy (it is imported inside the worker).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, BinaryIO, TypeVar

from schedir.diagnostics import Diagnostic, InternalCompilerError, Note

T = TypeVar("T")

_HEADER = struct.Struct("<Q")
_LOG_TAIL = 4000
"""Characters of the worker's stderr kept in a crash note (an assertion is one line)."""


@dataclass(frozen=True)
class WorkerDeath:
    """How the worker ended: the signal that killed it, or its exit status, and its log."""

    signal: int | None
    exit_status: int | None
    log: str

    def describe(self) -> str:
        if self.signal is not None:
            return f"crashed with {signal_name(self.signal)}"
        return f"exited with status {self.exit_status}"


def signal_name(number: int) -> str:
    """`SIGSEGV` for 11; `signal 99` for a number Python does not know."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class WorkerDied(Exception):
    """The worker process ended during a call (internal: `LlvmWorker.call` converts it)."""

    def __init__(self, death: WorkerDeath) -> None:
        super().__init__(death.describe())
        self.death = death


class WorkerTimeout(Exception):
    """A call took longer than its timeout; the worker was killed."""


class LlvmWorker:
    """A child process that runs module-level functions for this process, kept warm."""

    def __init__(self, python: str | None = None) -> None:
        self._python = python or sys.executable
        self._lock = threading.RLock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._reply_fd: int | None = None
        self._log: BinaryIO | None = None
        self._pid = os.getpid()

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker process if none runs (without waiting for it to be ready)."""
        with self._lock:
            self._forget_if_forked()
            if self._proc is not None and self._proc.poll() is None:
                return
            self._discard()
            # The worker appends to the log through its own descriptor (O_APPEND), so where
            # this process reads in it never moves where the worker writes.
            fd, path = tempfile.mkstemp(prefix="schedir-llvm-worker-", suffix=".log")
            try:
                append_fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            finally:
                os.unlink(path)
            # Owned by this object until `_discard` closes it.
            log = os.fdopen(fd, "rb")
            read_fd, write_fd = os.pipe()
            code = (
                "import sys;"
                f"sys.path[:] = {list(sys.path)!r};"
                "from schedir.cpu.llvm_worker import serve;"
                # Started by a thread that may end before the process: the parent-death
                # signal only from the main thread (see die_with_parent).
                f"serve({write_fd}, {os.getpid()}, "
                f"{threading.current_thread() is threading.main_thread()})"
            )
            try:
                self._proc = subprocess.Popen(
                    [self._python, "-c", code],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=append_fd,
                    pass_fds=(write_fd,),
                    close_fds=True,
                    start_new_session=True,  # a Ctrl-C in a terminal goes to the parent only
                )
            finally:
                os.close(write_fd)
                os.close(append_fd)
            self._reply_fd = read_fd
            self._log = log

    def close(self) -> None:
        """Stop the worker (a later call starts a new one)."""
        with self._lock:
            self._forget_if_forked()
            proc = self._proc
            if proc is not None and proc.poll() is None and proc.stdin is not None:
                try:
                    proc.stdin.close()  # the worker exits at the end of its input
                    proc.wait(timeout=2)
                except (OSError, subprocess.TimeoutExpired):
                    proc.kill()
                    proc.wait()
            self._discard()

    @property
    def pid(self) -> int | None:
        """The worker's process id (None when none runs)."""
        return self._proc.pid if self._proc is not None else None

    def _forget_if_forked(self) -> None:
        # A forked child shares the parent's pipes: it must never use (or close) them.
        if self._pid != os.getpid():
            self._pid = os.getpid()
            self._proc = None
            self._reply_fd = None
            self._log = None

    def _discard(self) -> None:
        if self._proc is not None:
            if self._proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self._proc.stdin.close()
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
        if self._reply_fd is not None:
            os.close(self._reply_fd)
        if self._log is not None:
            self._log.close()
        self._proc = None
        self._reply_fd = None
        self._log = None

    # -- calls -------------------------------------------------------------------------

    def call(
        self,
        fn: Callable[..., T],
        *args: Any,
        stage: str,
        repro: Callable[[], list[Note]] | None = None,
        timeout: float | None = None,
    ) -> T:
        """`fn(*args)` in the worker; its result, or the exception it raised.

        `fn` must be a module-level function (it is pickled by reference). If the worker
        dies during the call, `InternalCompilerError` names `stage`, how the worker ended
        and what it printed, plus the notes `repro()` gives (where the input was saved).
        """
        with self._lock:
            try:
                return self._call(fn, args, timeout)
            except WorkerDied as died:
                notes = [*(repro() if repro is not None else ())]
                if died.death.log.strip():
                    notes.insert(0, Note(f"LLVM printed:\n{died.death.log.rstrip()}"))
                raise InternalCompilerError(
                    f"internal compiler error: the LLVM worker {died.death.describe()} "
                    f"in stage '{stage}'",
                    notes=notes,
                    stage=stage,
                    signal=died.death.signal,
                    log=died.death.log,
                ) from None
            except WorkerTimeout:
                notes = [*(repro() if repro is not None else ())]
                raise InternalCompilerError(
                    f"internal compiler error: stage '{stage}' took more than {timeout:g} s "
                    "in the LLVM worker (killed)",
                    notes=notes,
                    stage=stage,
                ) from None

    def _call(self, fn: Callable[..., T], args: tuple[Any, ...], timeout: float | None) -> T:
        request = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        self.start()
        proc = self._proc
        assert proc is not None and proc.stdin is not None and self._log is not None
        log_start = self._log.seek(0, os.SEEK_END)
        try:
            proc.stdin.write(_HEADER.pack(len(request)) + request)
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            # It died before this request reached it (killed while idle): one fresh start.
            self._discard()
            self.start()
            proc = self._proc
            assert proc is not None and proc.stdin is not None and self._log is not None
            log_start = 0
            proc.stdin.write(_HEADER.pack(len(request)) + request)
            proc.stdin.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            header = self._read(_HEADER.size, deadline)
            (size,) = _HEADER.unpack(header)
            reply = self._read(size, deadline)
        except EOFError:
            death = self._death(log_start)
            self._discard()
            raise WorkerDied(death) from None
        except TimeoutError:
            self._discard()
            raise WorkerTimeout() from None
        except BaseException:
            # Interrupted (Ctrl-C): its reply would be read as the next call's.
            self._discard()
            raise
        self._forward_log(log_start)
        try:
            status, value = pickle.loads(reply)
        except Exception as err:  # an exception class that cannot be rebuilt here
            raise RuntimeError(f"the LLVM worker's reply cannot be read: {err}") from None
        if status == "error":
            assert isinstance(value, BaseException)
            raise value
        return value

    def _read(self, size: int, deadline: float | None) -> bytes:
        fd = self._reply_fd
        assert fd is not None
        chunks: list[bytes] = []
        remaining = size
        while remaining:
            if deadline is not None:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([fd], [], [], max(left, 0.0))
                if not ready:
                    raise TimeoutError
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)

    def _death(self, log_start: int) -> WorkerDeath:
        proc = self._proc
        assert proc is not None
        status = proc.wait()
        log = self._log_since(log_start)
        if len(log) > _LOG_TAIL:
            log = "...\n" + log[-_LOG_TAIL:]
        if status < 0:
            return WorkerDeath(-status, None, log)
        return WorkerDeath(None, status, log)

    def _log_since(self, start: int) -> str:
        log = self._log
        if log is None:
            return ""
        log.seek(start)
        text = log.read().decode(errors="replace")
        log.seek(0, os.SEEK_END)
        return text

    def _forward_log(self, start: int) -> None:
        text = self._log_since(start)
        if text:
            sys.stderr.write(text)
            sys.stderr.flush()


_CRASHING_PASSES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("LoopVectorize", "VPlan", "LoopVectorization"), "loop_vectorization", "loop vectorizer"),
    (("SLPVectorizer",), "slp_vectorization", "SLP vectorizer"),
    (("LoopUnroll",), "loop_unrolling", "loop unroller"),
)
"""LLVM passes whose assertion failures can be avoided by turning them off: the words
that name them in LLVM's abort message, the llvmlite pipeline tuning option that turns
them off, and a name for messages."""


def crashed_pass(log: str) -> tuple[str, str] | None:
    """(tuning option, pass name) of the pass an LLVM crash log names, if one is known."""
    for words, option, name in _CRASHING_PASSES:
        if any(word in log for word in words):
            return option, name
    return None


def avoiding_crashed_passes(
    attempt: Callable[[tuple[str, ...]], T], warn: Callable[[Diagnostic], None]
) -> T:
    """`attempt(())`; if LLVM crashed in a pass that can be turned off, once more with it
    off (`attempt((option,))`) and a warning. Other crashes, and a second one, raise."""
    try:
        return attempt(())
    except InternalCompilerError as crash:
        culprit = crashed_pass(crash.log)
        if culprit is None or crash.signal is None:
            raise
        option, name = culprit
        result = attempt((option,))
        warn(
            Diagnostic(
                "warning",
                f"LLVM's {name} crashed on this module ({signal_name(crash.signal)}) in stage "
                f"'{crash.stage}'; it was compiled again without the {name}",
                notes=tuple(crash.notes),
            )
        )
        return result


@cache
def default_worker() -> LlvmWorker:
    """The process's shared worker (closed at exit)."""
    worker = LlvmWorker()
    atexit.register(worker.close)
    return worker


# ---------------------------------------------------------------------------------------
# The worker's side


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, signal_too: bool = True) -> None:
    """End this process when its parent (pid `parent`) dies: a watchdog thread exits once
    the parent is gone, and with `signal_too` on Linux the kernel kills it (busy or
    stopped) at once with the parent-death signal. That signal comes when the parent's
    *thread* that started the child ends, so only a child started by a thread that lives
    as long as the child is needed (the main thread, the tuner's thread) may ask for it."""
    import ctypes
    import ctypes.util

    if signal_too and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="schedir-parent-watchdog", daemon=True).start()


def serve(reply_fd: int, parent: int | None = None, signal_too: bool = False) -> None:
    """The worker's loop: read requests from stdin, write replies to `reply_fd`; it ends
    with its parent (pid `parent`, when given: `die_with_parent`)."""
    if parent is not None:
        die_with_parent(parent, signal_too)
    # File descriptor 1 (what C code prints to) goes to stderr; replies use their own pipe.
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    replies = os.fdopen(reply_fd, "wb")
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when to stop
    # Load LLVM now, while the parent parses and schedules, not in the first request.
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        (size,) = _HEADER.unpack(header)
        payload = requests.read(size)
        try:
            fn, args = pickle.loads(payload)
            reply: tuple[str, Any] = ("ok", fn(*args))
        except BaseException as err:  # every failure goes back to the caller
            reply = ("error", err)
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:  # an unpicklable result or exception
            data = pickle.dumps(("error", RuntimeError(f"{type(err).__name__}: {err}")))
        replies.write(_HEADER.pack(len(data)) + data)
        replies.flush()


__all__ = [
    "LlvmWorker",
    "WorkerDeath",
    "avoiding_crashed_passes",
    "crashed_pass",
    "default_worker",
    "die_with_parent",
    "serve",
    "signal_name",
]
