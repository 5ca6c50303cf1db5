"""Interrupts that never tear the results store.

A Ctrl-C or SIGTERM stops a tuning run by raising `KeyboardInterrupt` in the main thread, at
whatever bytecode it is running. Inside Optuna's journal lock that is unsafe: the lock file
could be left behind (the next run of any process on that journal waits out its grace
period), and Optuna's own clean-up then fails with an unrelated error (`FileNotFoundError`
from the rename of a lock that was never taken) which replaces the interruption.

So the handler installed by `interruptible` raises only outside `deferred` sections: a signal
that arrives within one is remembered and raised as the section ends, after the lock is
released. The journal backend of `open_storage` writes within such a section. The sections
are short (one append to a local file), so an interrupt is never delayed noticeably.

`interrupted_by(err)` says whether an exception was raised while an interruption unwound
(in a clean-up of a library that does not expect one): the caller reports the interruption.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

_depth = 0
_pending: int | None = None
"""The signal that arrived within a section, if any."""
_lock = threading.RLock()  # re-entrant: the handler runs in the main thread, maybe inside it


def _raise_or_defer(signum: int, frame: FrameType | None) -> None:
    global _pending
    with _lock:
        if _depth:
            _pending = signum
            return
    raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Within: an interrupt by `interruptible`'s handler waits for the end of the section."""
    global _depth, _pending
    with _lock:
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            fire = _pending if not _depth else None
            if fire is not None:
                _pending = None
        if fire is not None:
            if threading.current_thread() is threading.main_thread():
                raise KeyboardInterrupt
            signal.raise_signal(fire)  # delivered to the main thread, now outside any section


@contextlib.contextmanager
def interruptible(signals: tuple[signal.Signals, ...]) -> Iterator[None]:
    """Within: each of `signals` stops the run as a Ctrl-C does, never inside a `deferred`
    section. The previous handlers come back after. Outside the main thread (where Python
    delivers no signal) nothing changes."""
    global _pending
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_or_defer) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        with _lock:
            _pending = None


def interrupted_by(err: BaseException) -> bool:
    """Whether `err` was raised while a `KeyboardInterrupt` unwound (its context chain)."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [err]
    while stack:
        cause = stack.pop()
        if cause is None or id(cause) in seen:
            continue
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        stack += [cause.__cause__, cause.__context__]
    return False


def interrupt_safe(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """`fn` with Ctrl-C deferred out of `deferred` sections (when SIGINT has Python's default
    handler: a caller's own handler is left alone), and any error raised while an
    interruption unwound re-raised as the `KeyboardInterrupt` it is."""

    @functools.wraps(fn)
    def wrapped(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        default = signal.getsignal(signal.SIGINT) is signal.default_int_handler
        try:
            with interruptible((signal.SIGINT,) if default else ()):
                return fn(*args, **kwargs)
        except Exception as err:
            if interrupted_by(err):
                raise KeyboardInterrupt from err
            raise

    return wrapped


__all__ = ["deferred", "interrupt_safe", "interrupted_by", "interruptible"]
