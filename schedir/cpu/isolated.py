"""Running compiled code in a forked child, so that its crash or hang is an error, not the end.

A kernel that divides an integer by zero or reads past the end of a buffer is killed by
SIGFPE or SIGSEGV; called in this process, it takes the caller with it, and no Python
code can catch that. `run_isolated(call, timeout=...)` runs `call()` in a child made
with `fork()` (so the JIT-compiled code and the arguments are there without a copy),
sends its result back through a pipe (pickled), and raises:

- `KernelCrash` (with `.signal`) when the child was killed by a signal;
- `KernelTimeout` when it ran longer than `timeout` seconds (it is killed);
- the exception `call()` raised, when it raised one (pickled back).

Large outputs need not travel through the pipe: `shared_array(shape, dtype)` allocates
memory shared with the child (an anonymous shared mapping), so what the child writes
there is seen here. `run_executable(executable, args, ...)` runs a compiled CPU entry
that way (its out-parameters in shared memory), for `schedir-run` and
`Kernel.run(..., isolated=True)`.

For the autotuner: `run_isolated(lambda: kernel.benchmark(*args), timeout=10.0)` times a
candidate without risking the tuner; a `KernelCrash`/`KernelTimeout` is a failed
candidate. A call made in this process (`kernel(*args)`) cannot survive a signal.

Linux (and other POSIX systems with fork) only. Only the calling thread exists in the
child: `call` must not need other threads of this process (numpy and the JIT do not);
the child never returns into the caller's code (it ends with `os._exit`).
"""

from __future__ import annotations

import faulthandler
import mmap
import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from schedir.diagnostics import KernelCrash, KernelTimeout, Note

if TYPE_CHECKING:
    from schedir.cpu.executable import CpuExecutable

T = TypeVar("T")

_SIGNAL_CAUSES: dict[int, str] = {
    signal.SIGSEGV: "an out-of-bounds memory access (e.g. a tensor.extract or memref.load "
    "with an index past the end)",
    signal.SIGBUS: "an access to memory that is not mapped (e.g. an out-of-bounds index)",
    signal.SIGFPE: "an integer division by zero, or INT_MIN / -1",
    signal.SIGILL: "an instruction this CPU does not have (code compiled for another CPU)",
    signal.SIGABRT: "an abort (a failed assertion in the kernel or a library it calls)",
}


def _signal_text(number: int) -> str:
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    description = signal.strsignal(number)
    return f"{name} ({description.lower()})" if description else name


def run_isolated(call: Callable[[], T], *, timeout: float | None = None, what: str = "") -> T:
    """`call()` in a forked child; its result, or `KernelCrash`/`KernelTimeout`.

    `what` names the code in the messages (e.g. "@matmul"). The exception `call` raises
    in the child is raised here (as pickled; an unpicklable one as a RuntimeError).
    """
    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: run, reply, and leave without running any cleanup
        os.close(read_fd)
        _child(call, write_fd)
    os.close(write_fd)
    try:
        reply = _read_all(read_fd, timeout)
    except TimeoutError:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        seconds = timeout if timeout is not None else 0.0
        raise KernelTimeout(
            f"the kernel{_named(what)} ran longer than {seconds:g} s and was killed",
            seconds=seconds,
        ) from None
    except BaseException:  # interrupted: the child must not outlive the call
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise
    finally:
        os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        cause = _SIGNAL_CAUSES.get(number)
        notes = [Note(f"the usual cause is {cause}")] if cause else []
        notes.append(
            Note(
                "rerun with --runtime-verification (CompileOptions.runtime_verification) "
                "to find the op that fails"
            )
        )
        raise KernelCrash(
            f"the kernel{_named(what)} crashed with {_signal_text(number)}",
            notes=notes,
            signal=number,
        )
    if not reply:
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else status
        raise KernelCrash(f"the kernel{_named(what)} exited with status {code} without a result")
    try:
        outcome, value = pickle.loads(reply)
    except Exception as err:  # an exception class that cannot be rebuilt here
        raise RuntimeError(f"the isolated call's reply cannot be read: {err}") from None
    if outcome == "error":
        assert isinstance(value, BaseException)
        raise value
    return value


def _named(what: str) -> str:
    return f" {what}" if what else ""


def _child(call: Callable[[], Any], write_fd: int) -> None:
    code = 0
    try:
        # The crash is reported by the parent; a Python fault handler (pytest's, or
        # PYTHONFAULTHANDLER) would also dump the child's stack to the shared stderr.
        faulthandler.disable()
        try:
            import resource  # a crash must not spend seconds writing a core file

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        except (ImportError, ValueError, OSError):
            pass
        try:
            reply: tuple[str, Any] = ("ok", call())
        except BaseException as err:  # every failure goes back to the parent
            reply = ("error", err)
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as err:
            data = pickle.dumps(("error", RuntimeError(f"{type(err).__name__}: {err}")))
        view = memoryview(data)
        while view:
            written = os.write(write_fd, view)
            view = view[written:]
    except BaseException:  # nothing may escape into the caller's code in the child
        code = 70
    finally:
        os._exit(code)


def _read_all(fd: int, timeout: float | None) -> bytes:
    """Everything written to the pipe until the child closes it (TimeoutError after
    `timeout` seconds)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    chunks: list[bytes] = []
    while True:
        if deadline is not None:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0.0))
            if not ready:
                raise TimeoutError
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def shared_array(shape: Sequence[int], dtype: Any) -> np.ndarray:
    """A zeroed array in memory shared with children forked later (writes seen here)."""
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    buffer = mmap.mmap(-1, max(count * dtype.itemsize, 1))  # anonymous, MAP_SHARED
    return np.frombuffer(buffer, dtype=dtype, count=count).reshape(tuple(shape))


def run_executable(
    executable: CpuExecutable,
    args: Sequence[Any],
    *,
    outputs: Sequence[np.ndarray] | None = None,
    timeout: float | None = None,
) -> list[np.ndarray]:
    """`executable.run(args, outputs=outputs)` in a forked child (`run_isolated`).

    The out-parameters live in shared memory (filled from `outputs` when given, e.g. with
    NaN for a check), so only dynamically shaped and scalar results are pickled back.
    """
    specs = executable.signature.out_params
    shared = [shared_array(spec.shape, spec.dtype) for spec in specs]
    if outputs is not None:
        for target, source in zip(shared, outputs, strict=True):
            target[...] = source

    def child() -> list[np.ndarray | None]:
        results = executable.run(args, outputs=shared)
        return [None if any(r is s for s in shared) else r for r in results]

    returned = run_isolated(child, timeout=timeout, what=f"@{executable.signature.name}")
    outs = iter(shared)
    return [next(outs) if value is None else value for value in returned]


__all__ = ["run_executable", "run_isolated", "shared_array"]
