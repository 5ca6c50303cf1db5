"""Functions the LLVM worker tests run in the worker (`test_llvm_worker.py`).

A separate module that imports little (no numpy, no xDSL, no pytest), so the worker, which
imports it to unpickle these functions, starts quickly.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from typing import Any

from schedir.cpu.jit import ObjectCode, compile_object
from schedir.diagnostics import ToolError


def kill_self(number: int) -> None:
    """Die by signal `number`, after printing what an LLVM assertion prints."""
    print("LLVM ERROR: injected failure for a test", file=sys.stderr, flush=True)
    os.kill(os.getpid(), number)


def add(a: int, b: int) -> int:
    return a + b


def sleep(seconds: float) -> None:
    time.sleep(seconds)


def raise_tool_error() -> None:
    raise ToolError("LLVM rejected the IR", log="a log line", repro="llc x.ll")


def abort_compile(*args: Any) -> ObjectCode:
    """`compile_object` that aborts as LLVM's assertions do."""
    kill_self(signal.SIGABRT)
    raise AssertionError("unreachable")


def vectorizer_crash(
    llvm_ir: str, opt_level: int, cpu: str, features: str, disabled: tuple[str, ...] = ()
) -> ObjectCode:
    """`compile_object` whose loop vectorizer aborts (an LLVM assertion's message)."""
    if "loop_vectorization" not in disabled:
        print(
            "LoopVectorize.cpp:7264: Assertion `VPlan cost model and legacy cost model "
            "disagreed' failed.",
            file=sys.stderr,
            flush=True,
        )
        os.kill(os.getpid(), signal.SIGABRT)
    return compile_object(llvm_ir, opt_level, cpu, features, disabled)


def abort_ptx(*args: Any) -> str:
    kill_self(signal.SIGSEGV)
    raise AssertionError("unreachable")


def ptx_vectorizer_crash(
    llvm_ir: str,
    target: Any,
    opt_level: int,
    libdevice: Any,
    search_dirs: Any,
    disabled: tuple[str, ...] = (),
) -> str:
    """`compile_ptx_here` whose loop vectorizer aborts unless it is turned off."""
    if "loop_vectorization" not in disabled:
        print("LoopVectorize.cpp: Assertion failed.", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGABRT)
    from schedir.gpu.ptx import compile_ptx_here

    return compile_ptx_here(llvm_ir, target, opt_level, libdevice, search_dirs, disabled)
