"""Remarks and warnings: MLIR-style rendering, printed without failing the run, and
checked by --verify-diagnostics like errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedir.cli import opt_main
from schedir.diagnostics import Diagnostic, Location, Note, SourceManager

PAYLOAD = """\
module attributes {transform.with_named_sequence} {
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %f, "found it" : !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    transform.debug.emit_param_as_remark %p, "tile" : !transform.param<i64>
    transform.yield
  }
}
"""


def test_remark_renders_like_mlir() -> None:
    sources = SourceManager()
    sources.add("k.mlir", "func.func @f() {\n  return\n}\n")
    diag = Diagnostic("remark", "hi", Location("k.mlir", 2, 3), (Note("there"),))
    assert diag.render(sources) == "k.mlir:2:3: remark: hi\n  return\n  ^\nnote: there"
    warning = Diagnostic("warning", "careful", Location("k.mlir", 1, 1))
    assert warning.render(sources).startswith("k.mlir:1:1: warning: careful\nfunc.func")


def test_remarks_are_printed_and_exit_status_is_zero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "k.mlir"
    path.write_text(PAYLOAD)
    assert opt_main([str(path)]) == 0
    captured = capsys.readouterr()
    assert f"{path}:2:3: remark: found it\n  func.func @f() {{\n  ^" in captured.err
    assert f"{path}:9:5: remark: tile 4 : i64" in captured.err
    assert "error" not in captured.err
    assert "func.func @f()" in captured.out  # the scheduled module is still printed


def test_remark_before_an_error_is_printed_first_and_the_run_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    failing = PAYLOAD.replace(
        "    transform.yield\n  }\n}",
        '    transform.match.operation_name %f ["arith.addf"] : !transform.any_op\n'
        "    transform.yield\n  }\n}",
    )
    path = tmp_path / "k.mlir"
    path.write_text(failing)
    assert opt_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err.index("remark: found it") < err.index("error:")


def test_verify_diagnostics_checks_remarks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    annotated = PAYLOAD.replace(
        "  func.func @f() {", "  // expected-remark @below {{found it}}\n  func.func @f() {"
    ).replace(
        "    transform.debug.emit_param_as_remark",
        "    // expected-remark @below {{tile 4 : i64}}\n    transform.debug.emit_param_as_remark",
    )
    path = tmp_path / "k.mlir"
    path.write_text(annotated)
    assert opt_main([str(path), "--verify-diagnostics"]) == 0
    # An unannotated remark is unexpected, and an expected warning that never comes fails.
    path.write_text(
        PAYLOAD.replace("  func.func @f() {", "  // expected-warning @+1 {{x}}\n  func.func @f() {")
    )
    assert opt_main([str(path), "--verify-diagnostics"]) == 1
    err = capsys.readouterr().err
    assert "unexpected remark: found it" in err
    assert 'expected warning "x" was not produced' in err
