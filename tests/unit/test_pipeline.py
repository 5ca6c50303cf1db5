"""The compile-stage table: `schedir.compile`, the dump folder and `schedir-opt --emit` run
the stages of `schedir.pipeline` (the cuda ones: tests/unit/gpu/test_stages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

import schedir
from schedir.cli import opt_main
from schedir.pipeline import BACKENDS, EMIT_CHOICES, STAGE_NAMES, STAGES

MATMUL = """\
func.func @mm(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%f : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
"""


def test_the_table_holds_the_stages_of_design() -> None:
    assert STAGE_NAMES == ("payload", "scheduled", "llvm-dialect", "llvm-ir", "ptx", "cubin")
    assert all(s.description and s.suffix.startswith(".") for s in STAGES)
    assert [s.name for s in BACKENDS["cpu"].stages] == [
        "payload",
        "scheduled",
        "llvm-dialect",
        "llvm-ir",
    ]
    assert [s.name for s in BACKENDS["cuda"].stages if not s.on_request] == [
        "payload",
        "scheduled",
        "ptx",
        "llvm-dialect",
        "llvm-ir",
    ]
    assert set(EMIT_CHOICES) == {"mlir", "llvm", "llvm-dialect", "llvm-ir", "ptx", "cubin"}


def test_compile_keeps_and_dumps_every_stage(tmp_path: Path) -> None:
    kernel = schedir.compile(MATMUL, options=schedir.CompileOptions(dump_dir=tmp_path))
    assert list(kernel.stages) == ["payload", "scheduled", "llvm-dialect", "llvm-ir"]
    assert list(kernel.timings) == ["parse", "schedule", "lower", "translate", "jit"]
    dumped = sorted(p.name for p in tmp_path.iterdir())
    assert dumped == ["0-payload.mlir", "1-scheduled.mlir", "2-llvm-dialect.mlir", "3-llvm-ir.ll"]
    for index, (name, text) in enumerate(kernel.stages.items()):
        suffix = ".ll" if name == "llvm-ir" else ".mlir"
        assert (tmp_path / f"{index}-{name}{suffix}").read_text() == text


def _opt(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    assert opt_main(list(argv)) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_emit_starts_from_the_stage_the_module_is_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = tmp_path / "mm.mlir"
    payload.write_text(MATMUL)
    llvm_ir, _ = _opt(capsys, str(payload), "--emit", "llvm")
    assert _opt(capsys, str(payload), "--emit", "llvm-ir")[0] == llvm_ir
    dialect, _ = _opt(capsys, str(payload), "--emit", "llvm-dialect")
    assert "llvm.func @mm" in dialect and "linalg" not in dialect
    lowered = tmp_path / "mm.llvm.mlir"
    lowered.write_text(dialect)
    # Already in the LLVM dialect: only translated, no pass runs.
    out, err = _opt(capsys, str(lowered), "--emit", "llvm", "--print-ir-after-all")
    assert out == llvm_ir
    assert "IR Dump After" not in err
