"""The cuda stages without a GPU: `ptx` compiles the kernels, `llvm-dialect` lowers the host
code, `cubin` runs on request; `schedir-opt --emit` starts from where the module is."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from schedir.cli import opt_main
from schedir.lowering.pipelines import spec
from schedir.options import CompileOptions
from schedir.pipeline import cuda_passes

REPO = Path(__file__).parents[3]
PAYLOAD = REPO / "examples" / "elementwise_cuda.mlir"
SCHEDULE = REPO / "schedules" / "elementwise_cuda.mlir"


def _opt(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    assert opt_main(list(argv)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_compile_keeps_the_cuda_stages_in_order(tmp_path: Path) -> None:
    options = CompileOptions(target="cuda", dump_dir=tmp_path)
    kernel = schedir.compile(PAYLOAD, SCHEDULE, target="cuda", options=options)
    assert list(kernel.stages) == ["payload", "scheduled", "ptx", "llvm-dialect", "llvm-ir"]
    assert list(kernel.timings) == ["parse", "schedule", "lower", "translate", "jit"]
    assert (tmp_path / "2-ptx.ptx").read_text() == kernel.stages["ptx"]
    assert ".entry chain_kernel(" in kernel.stages["ptx"]


def test_emit_ptx_of_compiled_kernels_runs_no_pass(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scheduled = [str(PAYLOAD), "--schedule", str(SCHEDULE)]
    ptx, _ = _opt(capsys, *scheduled, "--emit", "ptx")
    host_ir, _ = _opt(capsys, *scheduled, "--emit", "llvm", "--target", "cuda")
    passes = cuda_passes(CompileOptions(target="cuda"))
    last = next(i for i, p in enumerate(passes) if p.startswith("gpu-module-to-binary"))
    with_binary, _ = _opt(capsys, *scheduled, "-p", spec(passes[: last + 1]))
    assert "gpu.binary @" in with_binary
    compiled = tmp_path / "compiled.mlir"
    compiled.write_text(with_binary)
    out, err = _opt(capsys, str(compiled), "--emit", "ptx", "--print-ir-after-all")
    assert out == ptx and "IR Dump After" not in err
    # The host code is lowered from there: the same LLVM IR as from the scheduled payload.
    out, err = _opt(capsys, str(compiled), "--emit", "llvm", "--target", "cuda")
    assert out == host_ir


def test_emit_cubin_assembles_the_ptx(tmp_path: Path, ptxas: Path) -> None:
    out = tmp_path / "chain.cubin"
    argv = [str(PAYLOAD), "--schedule", str(SCHEDULE), "--emit", "cubin", "-o", str(out)]
    assert opt_main(argv) == 0
    assert out.read_bytes()[:4] == b"\x7fELF"


def test_emit_ptx_of_a_module_without_kernels_fails_before_lowering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cpu.mlir"
    path.write_text("func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}\n")
    assert opt_main([str(path), "--emit", "ptx", "--print-ir-after-all"]) == 1
    err = capsys.readouterr().err
    assert "the module has no GPU kernel" in err and "IR Dump After" not in err
