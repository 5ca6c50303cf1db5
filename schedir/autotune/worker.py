"""Isolated worker processes: a child that serves jobs over a pipe, with a deadline per job,
killed and restarted when it crashes or runs past its deadline.

A child is forked from this process's zygote when one runs (`start_zygote`: a plain
`python -c` process that has imported what the workers need, so a child is ready in
milliseconds instead of seconds), else a plain `python -c` subprocess (as
`schedir.cpu.llvm_worker`); never a multiprocessing child: multiprocessing's spawn and forkserver start methods re-run the
user's main script in the child, so a script without an `if __name__ == "__main__"` guard
that calls `schedir.tune` would tune again in every worker. Nor is the tuning process
forked: it runs threads (the progress display, storage locks) that a fork would copy in an
unknown state, and a CUDA context must never be inherited. The child gets this process's
`sys.path`, then reads length-prefixed pickles on its stdin: first the handler factory
and its setup (`serve` builds the handler once), then one job per message. It answers on
a private pipe with `("ready",)`, then for each job `("done", result)` after optional
`("phase", name)` messages that let the parent move the job's deadline (the measurement
worker reports when it has built, verified and started timing a kernel); after
`("phase", name, True)` the child blocks until the parent answers `("go",)` (`Worker.go`: the CPU
measurement worker times only once the compile workers are stopped).

A child never outlives the tuning process: it asks the kernel to kill it when its parent
dies (`PR_SET_PDEATHSIG`, Linux: this also ends a child stopped by `pause`), and a
watchdog thread ends it when its parent process is gone (other systems, and the moment
between the fork and the `prctl` call). So a `kill -9` of `schedir-tune` leaves no worker
behind, busy, idle or paused. The child's
file descriptor 1 is pointed at its stderr, so nothing a compiler prints can corrupt a
reply; it runs in its own session, so a Ctrl-C in the terminal reaches only the parent.

The parent reads replies without blocking (a child stopped by `pause` in the middle of a
reply never stalls it) and keeps what it read until a message is complete.

Nothing a job does can harm the parent: a child that dies (a segfault, `os._exit`, an
out-of-memory kill) is seen as the end of its reply pipe and its exit signal, a child that
hangs is killed at the deadline, and either way `Worker` reports a `Died` record with the
cause and starts a fresh child for the next job.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

_HEADER = struct.Struct("<Q")

Handler = Callable[[Any, Callable[..., None]], Any]
"""What a child runs for each job (job, progress): the result, after optional
`progress(phase)` calls (`progress(phase, True)` waits for the parent's go)."""

HandlerFactory = Callable[[Any], Handler]
"""Builds a child's handler from the worker's setup (a picklable module-level function)."""


def _read_exact(stream: IO[bytes], size: int) -> bytes | None:
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def die_with_parent(parent: int) -> None:
    """End this process when `parent` (its parent's pid) dies (see the module doc)."""
    from schedir.cpu.llvm_worker import die_with_parent as arrange

    arrange(parent)


def serve(reply_fd: int, parent: int | None = None, request_fd: int = 0) -> None:
    """The child's main loop: build the handler from the first message on `request_fd`
    (stdin), then answer jobs until that input ends or a None job arrives. `parent`: the
    pid of the process that started it (the child ends when that one dies)."""
    if parent is not None:
        die_with_parent(parent)
    replies = os.fdopen(reply_fd, "wb", buffering=0)
    os.dup2(2, 1)  # whatever the compiler prints goes to stderr, never into a reply
    requests = os.fdopen(request_fd, "rb", closefd=False)

    def send(message: tuple[Any, ...]) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        replies.write(_HEADER.pack(len(data)) + data)

    def receive() -> Any:
        header = _read_exact(requests, _HEADER.size)
        if header is None:
            return None
        body = _read_exact(requests, _HEADER.unpack(header)[0])
        return pickle.loads(body) if body is not None else None

    try:
        first = receive()
        if first is None:
            return
        factory, setup = first
        handler = factory(setup)
        send(("ready",))

        def progress(name: str, wait: bool = False) -> None:
            send(("phase", name, True) if wait else ("phase", name))
            if wait and receive() is None:
                raise BrokenPipeError  # the parent is gone: nobody to answer

        while True:
            job = receive()
            if job is None:
                return
            result = handler(job, progress)
            send(("done", result))
    except (BrokenPipeError, OSError):
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

    `submit` sends a job; the owner waits for replies (with other workers', through
    `wait_any`) and calls `receive` when one may have come, and `kill_for_timeout` at the
    deadline (`expired`). `receive` gives `("phase", name)`, `("done", result)`, None
    (the start-up message, or no complete message yet) or a `Died` record (the child was
    restarted). `pause`/`resume` stop and continue the child (SIGSTOP/SIGCONT), its
    deadline moved by the time it spent stopped.
    """

    def __init__(
        self,
        factory: HandlerFactory,
        setup: Any,
        label: str,
        start_timeout: float,
        python: str | None = None,
        zygote: bool = True,
    ) -> None:
        self.factory = factory
        self.setup = setup
        self.label = label
        self.start_timeout = start_timeout
        self.python = python or sys.executable
        self.zygote = zygote
        """Fork the child from this process's zygote when one runs (`start_zygote`)."""
        self.job: Any = None
        self.deadline: float | None = None
        self.timeout = start_timeout
        """The seconds the current deadline was set to (for the message of a hang)."""
        self.restarts = 0
        self._paused_at: float | None = None
        self._process: subprocess.Popen[bytes] | Forked | None = None
        self._reply_fd: int | None = None
        self._buffer = bytearray()
        self._ready = False
        self.phase: str | None = None
        """The running job's last announced phase."""
        self.waiting = False
        """The child waits for `go` before it goes on with the job."""
        self.started_at = 0.0
        self.ready_s: float | None = None
        """Seconds from the first spawn to the first ready message."""
        self._early_timeout = 0.0
        """The timeout of a job submitted before the child was ready."""

    # -- life cycle

    def start(self) -> None:
        read_fd, write_fd = os.pipe()
        try:
            process = self._spawn(write_fd)
        except BaseException:
            os.close(read_fd)
            raise
        finally:
            os.close(write_fd)
        os.set_blocking(read_fd, False)
        self._process, self._reply_fd, self._ready = process, read_fd, False
        self._buffer = bytearray()
        self.phase, self.waiting = None, False
        if not self.started_at:
            self.started_at = time.monotonic()
        self.timeout = self.start_timeout
        self.deadline = time.monotonic() + self.start_timeout
        if not self._send((self.factory, self.setup)):
            self.deadline = time.monotonic()  # it died at once: seen at the next receive

    def _spawn(self, reply_fd: int) -> subprocess.Popen[bytes] | Forked:
        """A new child answering on `reply_fd`: forked by the zygote when one runs (and
        this worker uses this interpreter), else a fresh `python -c` process."""
        zygote = _ZYGOTE[0] if _ZYGOTE else None
        if zygote is not None and self.zygote and self.python == sys.executable:
            forked = zygote.fork(reply_fd)
            if forked is not None:
                return forked
        code = (
            "import sys;"
            f"sys.path[:] = {list(sys.path)!r};"
            "from schedir.autotune.worker import serve;"
            f"serve({reply_fd}, {os.getpid()})"
        )
        return subprocess.Popen(
            [self.python, "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            pass_fds=(reply_fd,),
            close_fds=True,
            start_new_session=True,  # a Ctrl-C in a terminal goes to the parent only
        )

    def _send(self, message: Any) -> bool:
        """Write one message to the child; False when its stdin is closed (it died)."""
        process = self._process
        assert process is not None and process.stdin is not None
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            process.stdin.write(_HEADER.pack(len(data)) + data)
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            return False
        return True

    def stop(self) -> None:
        """End the child (politely if idle, else killed) and release the pipes."""
        process = self._process
        if process is None:
            return
        if self._paused_at is not None:
            self.resume()
        if self.job is None and process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                process.stdin.close()  # the child ends at the end of its input
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=2)
        self._discard()
        self.job = None
        self.deadline = None

    def _discard(self) -> None:
        process = self._process
        if process is not None:
            if process.poll() is None:
                process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            if process.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    process.stdin.close()
        if self._reply_fd is not None:
            os.close(self._reply_fd)
        self._process = None
        self._reply_fd = None
        self._buffer = bytearray()

    def _restart(self, kind: str, cause: str) -> Died:
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
        if process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
            cause = cause or death_cause(process.returncode)
        self._discard()
        self.job = None
        self.deadline = None
        self._paused_at = None
        self.restarts += 1
        self.start()
        return Died(kind, cause)

    # -- jobs

    @property
    def fileno(self) -> int | None:
        """The reply pipe's descriptor (None when no child runs)."""
        return self._reply_fd

    @property
    def idle(self) -> bool:
        return self._ready and self.job is None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def submit(self, job: Any, timeout: float) -> None:
        """Send `job` to the idle child; its deadline is `timeout` seconds from now. A child
        started but not ready yet takes it too (it reads the job once it is ready: the
        deadline then starts when it says so)."""
        assert self.job is None and self._process is not None, f"worker {self.label} is busy"
        if not self._ready:
            self.job = job
            self._early_timeout = timeout
            if not self._send(job):
                self.deadline = time.monotonic()  # it died at once: seen at the next receive
            return
        paused = self._paused_at is not None
        if paused:
            # A stopped child cannot drain its stdin: a job larger than the pipe's buffer
            # would block this process. It reads the job, then stops again.
            self.resume()
        self.job = job
        self.extend(timeout)
        if not self._send(job):
            self.deadline = time.monotonic()  # it died while idle: reported at the deadline
        if paused:
            self.pause()

    def extend(self, timeout: float) -> None:
        """Move the deadline of the running job to `timeout` seconds from now."""
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout

    def has_message(self) -> bool:
        """Whether a complete message is already read and waits in the buffer."""
        if len(self._buffer) < _HEADER.size:
            return False
        return len(self._buffer) >= _HEADER.size + _HEADER.unpack_from(self._buffer)[0]

    def _fill(self) -> bool:
        """Read what the pipe holds now; False at its end (the child is gone)."""
        fd = self._reply_fd
        assert fd is not None, f"worker {self.label} is not running"
        while True:
            try:
                chunk = os.read(fd, 1 << 20)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            self._buffer += chunk

    def receive(self) -> tuple[Any, ...] | Died | None:
        """The next message of the child; None for the child's start-up message or when no
        complete message has come yet; a `Died` record when the child died (it is
        restarted)."""
        alive = self._fill() if not self.has_message() else True
        if not self.has_message():
            if alive:
                return None
            process = self._process
            if process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
            cause = death_cause(process.returncode if process is not None else None)
            if not self._ready:
                # It died while starting (importing): nothing to retry on a new child.
                self._discard()
                raise RuntimeError(f"worker {self.label} could not start: {cause}")
            return self._restart("crashed", cause)
        size = _HEADER.unpack_from(self._buffer)[0]
        data = bytes(self._buffer[_HEADER.size : _HEADER.size + size])
        del self._buffer[: _HEADER.size + size]
        message = pickle.loads(data)
        if message[0] == "ready":
            self._ready = True
            self.deadline = None
            if self.job is not None:  # submitted before it was ready
                self.extend(self._early_timeout)
            if self.ready_s is None:
                self.ready_s = time.monotonic() - self.started_at
            return None
        if message[0] == "phase":
            self.phase = message[1]
            self.waiting = len(message) > 2 and bool(message[2])
        if message[0] == "done":
            self.job = None
            self.deadline = None
            self.phase, self.waiting = None, False
        return message

    def go(self) -> None:
        """Let a child that waits (`waiting`) go on with its job."""
        self.waiting = False
        if not self._send(("go",)):
            self.deadline = time.monotonic()  # it died: reported at the deadline

    def replace(self, cause: str) -> Died:
        """Replace an idle child whose state is broken (a poisoned CUDA context)."""
        return self._restart("crashed", cause)

    def expired(self, now: float) -> bool:
        return self.deadline is not None and self._paused_at is None and now >= self.deadline

    def kill_for_timeout(self) -> Died:
        """Kill the child at its deadline, start a new one, and report the hang."""
        if not self._ready:
            process = self._process
            if process is not None and process.poll() is not None:
                cause = death_cause(process.returncode)
                self._discard()
                raise RuntimeError(f"worker {self.label} could not start: {cause}")
            self._discard()
            raise RuntimeError(f"worker {self.label} did not start within {self.timeout:.0f} s")
        return self._restart("timed-out", f"no answer within {self.timeout:.3g} s (killed)")

    # -- pausing (CPU measurements run alone)

    def pause(self) -> None:
        if self._process is not None and self._paused_at is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._process.pid, signal.SIGSTOP)
            self._paused_at = time.monotonic()

    def resume(self) -> None:
        if self._process is not None and self._paused_at is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._process.pid, signal.SIGCONT)
            if self.deadline is not None:
                self.deadline += time.monotonic() - self._paused_at
            self._paused_at = None


# -- the zygote: children forked from a warmed-up process


_STATUS = struct.Struct("<q")


class Forked:
    """A child the zygote forked, seen through the part of `subprocess.Popen` that `Worker`
    uses: its exit status comes on a pipe from the zygote (its parent, which reaps it)."""

    def __init__(self, pid: int, stdin: IO[bytes], status_fd: int) -> None:
        self.pid = pid
        self.stdin: IO[bytes] | None = stdin
        self.returncode: int | None = None
        self._status_fd: int | None = status_fd

    def _read_status(self, timeout: float | None) -> None:
        fd = self._status_fd
        if fd is None:
            return
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        data = os.read(fd, _STATUS.size)
        # The zygote writes the status when it reaps the child; the end of the pipe
        # without one means the zygote died, and its children with it (their parent-death
        # signal).
        self.returncode = _STATUS.unpack(data)[0] if len(data) == _STATUS.size else -9
        os.close(fd)
        self._status_fd = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self._read_status(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            self._read_status(timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"forked worker {self.pid}", timeout or 0.0)
        return self.returncode

    def kill(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


class Zygote:
    """A `python -c` process that imports what the workers need once (`warm`), then forks
    a worker child per request in a few milliseconds (a `Worker` started while it runs is
    forked from it, instead of starting and importing a fresh interpreter for seconds).

    It never runs threads of the tuner, CUDA or the user's script: it is a fresh
    interpreter that only imports (and has its parent watchdog), so its forks inherit
    nothing in an unknown state. Requests come on a Unix socket with the child's three
    pipe ends (its requests, its replies, its exit status); the zygote answers the pid and
    writes the child's exit status when it reaps it. It ends when its parent process ends
    (its watchdog) or closes the socket; its children end with it (their parent-death
    signal)."""

    def __init__(self, warm: Callable[[], None] | None) -> None:
        import socket

        ours, theirs = socket.socketpair()
        code = (
            "import sys;"
            f"sys.path[:] = {list(sys.path)!r};"
            "from schedir.autotune.worker import zygote_main;"
            f"zygote_main({theirs.fileno()}, {os.getpid()})"
        )
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", code],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                pass_fds=(theirs.fileno(),),
                close_fds=True,
                start_new_session=True,
            )
        finally:
            theirs.close()
        self._socket = ours
        assert self._process.stdin is not None
        self._process.stdin.write(pickle.dumps(warm, protocol=pickle.HIGHEST_PROTOCOL))
        self._process.stdin.close()

    @property
    def pid(self) -> int:
        return self._process.pid

    def alive(self) -> bool:
        return self._process.poll() is None

    def fork(self, reply_fd: int) -> Forked | None:
        """A new child answering on `reply_fd` (waits until the zygote has warmed up);
        None when the zygote is gone."""
        import socket

        if not self.alive():
            return None
        request_r, request_w = os.pipe()
        status_r, status_w = os.pipe()
        try:
            path = pickle.dumps(list(sys.path), protocol=pickle.HIGHEST_PROTOCOL)
            socket.send_fds(self._socket, [path], [request_r, reply_fd, status_w])
            answer = b""
            while len(answer) < _STATUS.size:
                chunk = self._socket.recv(_STATUS.size - len(answer))
                if not chunk:
                    break
                answer += chunk
        except OSError:
            answer = b""
        finally:
            os.close(request_r)
            os.close(status_w)
        if len(answer) < _STATUS.size:
            os.close(request_w)
            os.close(status_r)
            return None
        return Forked(_STATUS.unpack(answer)[0], os.fdopen(request_w, "wb"), status_r)

    def stop(self) -> None:
        self._socket.close()  # the zygote ends at the end of its requests
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout=5)
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()


_ZYGOTE: list[Zygote] = []
"""The zygote of this process, once started (`start_zygote`)."""


def start_zygote(warm: Callable[[], None] | None = None) -> Zygote:
    """Start this process's zygote (once; again if it died), warming up with `warm` (a
    module-level function: it is pickled by reference). It imports while the caller goes
    on; the first `Worker.start` after it waits until it is ready."""
    if _ZYGOTE and _ZYGOTE[0].alive():
        return _ZYGOTE[0]
    if _ZYGOTE:
        _ZYGOTE.pop().stop()
    _ZYGOTE.append(Zygote(warm))
    return _ZYGOTE[0]


def stop_zygote() -> None:
    """Stop this process's zygote (workers it forked end with it)."""
    if _ZYGOTE:
        _ZYGOTE.pop().stop()


def zygote_main(control_fd: int, parent: int) -> None:
    """The zygote's loop (see `Zygote`): warm up, then fork a child per request."""
    import socket

    from schedir.cpu.llvm_worker import die_with_parent as arrange

    # Only the watchdog: the kernel's parent-death signal follows the parent's thread
    # that started the zygote, which may end before the parent (a tuner in a thread).
    arrange(parent, signal_too=False)
    control = socket.socket(fileno=control_fd)
    warm = pickle.load(sys.stdin.buffer)
    if warm is not None:
        warm()
    me = os.getpid()
    status: dict[int, int] = {}
    """The status pipe of each live child."""
    while True:
        ready, _, _ = select.select([control], [], [], 0.05 if status else None)
        while status:
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            fd = status.pop(pid, None)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.write(fd, _STATUS.pack(os.waitstatus_to_exitcode(code)))
                os.close(fd)
        if not ready:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(control, 1 << 20, 3)
        except OSError:
            return
        if not message or len(fds) != 3:
            return  # the parent closed the socket
        request_fd, reply_fd, status_fd = fds
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setsid()  # a Ctrl-C in a terminal goes to the tuner only
                control.close()
                for fd in (*status.values(), status_fd):
                    os.close(fd)
                sys.path[:] = pickle.loads(message)
                serve(reply_fd, me, request_fd)
            except SystemExit as exit:
                code = exit.code if isinstance(exit.code, int) else 1
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stderr.flush()
                os._exit(code)  # never back into the zygote's loop
        os.close(request_fd)
        os.close(reply_fd)
        status[pid] = status_fd
        control.sendall(_STATUS.pack(pid))


def wait_any(workers: list[Worker], timeout: float | None) -> list[Worker]:
    """The workers with a complete message buffered, else those whose pipes become
    readable within `timeout` seconds."""
    buffered = [w for w in workers if w.has_message()]
    if buffered:
        return buffered
    by_fd = {w.fileno: w for w in workers if w.fileno is not None}
    if not by_fd:
        if timeout:
            time.sleep(timeout)
        return []
    ready, _, _ = select.select(list(by_fd), [], [], timeout)
    return [by_fd[fd] for fd in ready]


__all__ = [
    "Died",
    "Forked",
    "Handler",
    "HandlerFactory",
    "Worker",
    "Zygote",
    "death_cause",
    "die_with_parent",
    "serve",
    "start_zygote",
    "stop_zygote",
    "wait_any",
    "zygote_main",
]
