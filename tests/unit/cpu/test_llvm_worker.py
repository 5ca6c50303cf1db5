"""The LLVM worker: a crash of LLVM is an internal compiler error, never the caller's end.

Crashes are injected: a function that kills the worker with a signal is run in it, or
replaces the JIT's compile step (`schedir.cpu.jit.compile_object`) or the PTX step
(`schedir.gpu.ptx.compile_ptx_here`) for one test; they live in `llvm_faults.py`, which
the worker imports (it gets this process's `sys.path`). One test uses a real
LLVM assertion failure (the loop vectorizer on AMD Zen 4, with llvmlite 0.50's LLVM).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from llvm_faults import (  # the worker imports this light module to run them
    abort_compile,
    abort_ptx,
    add,
    kill_self,
    ptx_vectorizer_crash,
    raise_tool_error,
    sleep,
    vectorizer_crash,
)

import schedir
from schedir import reference
from schedir.cpu import jit as jit_module
from schedir.cpu.jit import JitModule
from schedir.cpu.llvm_worker import LlvmWorker, default_worker
from schedir.diagnostics import InternalCompilerError, SchedirError, ToolError
from schedir.gpu import ptx as ptx_module
from schedir.gpu.ptx import compile_ptx
from schedir.options import CompileOptions

SCALE = """
define void @_mlir_ciface_scale(ptr %desc, float %k) {
  ret void
}
"""

SOFTMAX_DIM0 = """
func.func @softmax(%x: tensor<50x4xf32>) -> tensor<50x4xf32> {
  %init = tensor.empty() : tensor<50x4xf32>
  %y = linalg.softmax dimension(0) ins(%x : tensor<50x4xf32>)
                                   outs(%init : tensor<50x4xf32>) -> tensor<50x4xf32>
  return %y : tensor<50x4xf32>
}
"""

MATMUL = """
func.func @mm(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<5x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<5x3xf32>) -> tensor<5x3xf32>
  %c = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>)
                     outs(%acc : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %c : tensor<5x3xf32>
}
"""

# --- the worker itself -------------------------------------------------------------------


@pytest.mark.parametrize("number", [signal.SIGABRT, signal.SIGSEGV, signal.SIGKILL])
def test_a_worker_killed_by_a_signal_is_an_internal_error_and_the_next_call_works(
    number: int,
) -> None:
    worker = LlvmWorker()
    try:
        assert worker.call(add, 2, 3, stage="test") == 5
        first = worker.pid
        with pytest.raises(InternalCompilerError) as caught:
            worker.call(kill_self, number, stage="llvm-ir -> object")
        err = caught.value
        assert err.signal == number and err.stage == "llvm-ir -> object"
        assert signal.Signals(number).name in err.message
        assert "internal compiler error" in err.message
        assert "injected failure" in err.log
        # The caller survived and a new worker answers.
        assert worker.call(add, 4, 5, stage="test") == 9
        assert worker.pid != first
    finally:
        worker.close()


def test_a_worker_killed_while_idle_is_restarted_transparently() -> None:
    worker = LlvmWorker()
    try:
        assert worker.call(add, 1, 1, stage="test") == 2
        pid = worker.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)
        assert worker.call(add, 1, 2, stage="test") == 3
    finally:
        worker.close()


def test_exceptions_of_the_worker_come_back_with_their_notes() -> None:
    worker = LlvmWorker()
    try:
        with pytest.raises(ToolError) as caught:
            worker.call(raise_tool_error, stage="test")
        assert caught.value.log == "a log line" and caught.value.repro == "llc x.ll"
    finally:
        worker.close()


def test_a_call_past_its_timeout_is_an_internal_error() -> None:
    worker = LlvmWorker()
    try:
        with pytest.raises(InternalCompilerError, match=r"took more than 0\.5 s"):
            worker.call(sleep, 30.0, stage="llvm-ir -> object", timeout=0.5)
        assert worker.call(add, 1, 1, stage="test") == 2
    finally:
        worker.close()


# --- the JIT and the driver --------------------------------------------------------------


def test_an_llvm_crash_in_the_jit_names_the_stage_and_keeps_the_ir(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jit_module, "compile_object", abort_compile)
    with pytest.raises(InternalCompilerError) as caught:
        JitModule(SCALE)
    err = caught.value
    assert err.stage == "llvm-ir -> object" and err.signal == signal.SIGABRT
    saved = [n.message for n in err.notes if "the LLVM IR given to the JIT is in" in n.message]
    assert saved, err.render()
    path = Path(saved[0].rsplit(" ", 1)[1])
    assert path.read_text() == SCALE
    path.unlink()


def test_compile_survives_an_llvm_crash_and_the_next_compile_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr(jit_module, "compile_object", abort_compile)
        with pytest.raises(InternalCompilerError, match=r"stage 'llvm-ir -> object'"):
            schedir.compile(MATMUL)
    kernel = schedir.compile(MATMUL)
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    (want,) = reference.evaluate(MATMUL, None, [a, b])
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-5, atol=1e-5)


def test_schedir_run_reports_an_llvm_crash_as_a_diagnostic(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schedir.cli import run_main

    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL)
    monkeypatch.setattr(jit_module, "compile_object", abort_compile)
    assert run_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert "error: internal compiler error: the LLVM worker crashed with SIGABRT" in err
    assert "note: the LLVM IR given to the JIT is in" in err
    assert "Traceback" not in err


def test_a_crashing_vectorizer_is_turned_off_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jit_module, "compile_object", vectorizer_crash)
    warnings: list[str] = []
    jit = JitModule(SCALE, on_diagnostic=lambda d: warnings.append(d.render()))
    assert jit.has_function("_mlir_ciface_scale")
    assert len(warnings) == 1
    assert "LLVM's loop vectorizer crashed on this module (SIGABRT)" in warnings[0]
    assert "compiled again without the loop vectorizer" in warnings[0]


def test_the_real_loop_vectorizer_assertion_on_zen4_is_avoided(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # llvmlite 0.50's LLVM asserts in LoopVectorize.cpp ("VPlan cost model and legacy
    # cost model disagreed") on this payload for znver4 with its default features.
    kernel = schedir.compile(
        SOFTMAX_DIM0, options=CompileOptions(cpu_name="znver4", cpu_features="")
    )
    assert "llvm-ir" in kernel.stages
    err = capsys.readouterr().err
    assert "LLVM's loop vectorizer crashed on this module (SIGABRT)" in err


def test_the_llvm_worker_can_be_turned_off_for_debugging() -> None:
    kernel = schedir.compile(MATMUL, options=CompileOptions(isolate_llvm=False))
    a = np.ones((5, 7), np.float32)
    b = np.full((7, 3), 2.0, np.float32)
    np.testing.assert_allclose(kernel(a, b), np.full((5, 3), 14.0))
    assert CompileOptions(isolate_llvm=False).hash() == CompileOptions().hash()


def test_a_crash_while_compiling_ptx_is_an_internal_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ptx_module, "compile_ptx_here", abort_ptx)
    with pytest.raises(InternalCompilerError) as caught:
        compile_ptx("define ptx_kernel void @k() {\n  ret void\n}\n")
    assert caught.value.stage == "llvm-ir -> ptx"
    assert any("repro: llc -mtriple=nvptx64" in n.message for n in caught.value.notes)


def test_a_crashing_vectorizer_in_the_nvptx_back_end_is_turned_off(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(ptx_module, "compile_ptx_here", ptx_vectorizer_crash)
    ptx = compile_ptx("define ptx_kernel void @k() {\n  ret void\n}\n")
    assert ".entry k" in ptx
    err = capsys.readouterr().err
    assert (
        "LLVM's loop vectorizer crashed on this module (SIGABRT) in stage 'llvm-ir -> ptx'" in err
    )


def test_a_forked_child_gets_its_own_worker() -> None:
    worker = default_worker()
    assert worker.call(add, 1, 1, stage="test") == 2
    parent_pid = worker.pid
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        try:
            ok = worker.call(add, 2, 2, stage="test") == 4 and worker.pid != parent_pid
            os.write(write_fd, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write_fd)
    answer = os.read(read_fd, 1)
    os.close(read_fd)
    os.waitpid(pid, 0)
    assert answer == b"1"
    assert worker.call(add, 3, 3, stage="test") == 6 and worker.pid == parent_pid


def test_errors_are_schedir_errors() -> None:
    assert issubclass(InternalCompilerError, SchedirError)
