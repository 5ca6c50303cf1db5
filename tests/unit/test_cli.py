"""schedir-opt and schedir-run: the DESIGN.md contracts and their error behaviour."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from schedir.cli import opt_main, run_main, split_input

MATMUL = """\
func.func @mm(%a: tensor<5x7xf32>, %b: tensor<7x3xf32>) -> tensor<5x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<5x7xf32>, tensor<7x3xf32>) outs(%f : tensor<5x3xf32>) -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
"""

TWO_RESULTS = """\
func.func @two(%a: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  return %n, %a : tensor<4x6xf32>, tensor<4x6xf32>
}
"""

DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _first_error(err: str) -> tuple[int, int, str]:
    match = DIAG.search(err)
    assert match is not None, f"no file:line:col diagnostic in:\n{err}"
    return int(match["line"]), int(match["col"]), match["msg"]


# --- schedir-opt -----------------------------------------------------------------------


def test_opt_prints_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert opt_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "linalg.matmul ins(" in out and "func.func @mm" in out


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (MATMUL.replace("linalg.matmul", "linalg.matmulx"), 5, "linalg.matmulx"),
        (MATMUL.replace("tensor<7x3xf32>) outs", "tensor<9x3xf32>) outs"), 5, ""),
        (MATMUL.replace("%z = arith.constant 0.0 : f32", "%z = arith.constant 0.0 : f32 {"), 2, ""),
        (MATMUL.replace("return %r", "return %q"), 6, "%q"),
    ],
    ids=["unknown-op", "type-mismatch", "syntax", "undefined-value"],
)
def test_opt_malformed_input_is_diagnosed_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, line: int, fragment: str
) -> None:
    path = _write(tmp_path, "bad.mlir", text)
    before = _digest(path)
    assert opt_main([str(path)]) == 1
    err = capsys.readouterr().err
    got_line, _, _msg = _first_error(err)
    assert got_line == line, err
    assert fragment in err
    assert "Traceback" not in err
    assert "^" in err, "the diagnostic shows a caret under the source line"
    assert _digest(path) == before


def test_opt_verifier_error_for_mismatched_matmul(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = MATMUL.replace("%b: tensor<7x3xf32>", "%b: tensor<8x3xf32>").replace(
        "tensor<5x7xf32>, tensor<7x3xf32>", "tensor<5x7xf32>, tensor<8x3xf32>"
    )
    path = _write(tmp_path, "bad.mlir", bad)
    assert opt_main([str(path)]) == 1
    line, col, msg = _first_error(capsys.readouterr().err)
    assert (line, col) == (5, 8)  # at the op name, as MLIR reports it
    assert "linalg.matmul" in msg and "8" in msg and "7" in msg


def test_opt_output_is_written_atomically(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    out = tmp_path / "out.mlir"
    assert opt_main([str(path), "-o", str(out)]) == 0
    assert "linalg.matmul" in out.read_text()
    assert capsys.readouterr().out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mm.mlir", "out.mlir"]


def test_opt_failed_run_leaves_existing_output_untouched(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.mlir", "func.func @f( {")
    out = _write(tmp_path, "out.mlir", "previous\n")
    assert opt_main([str(path), "-o", str(out)]) == 1
    assert out.read_text() == "previous\n"


def test_opt_split_input_file_keeps_line_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = MATMUL + "// -----\n" + "func.func @g() {\n  %x = arith.addf\n}\n"
    path = _write(tmp_path, "split.mlir", text)
    assert opt_main([str(path), "--split-input-file"]) == 1
    captured = capsys.readouterr()
    assert _first_error(captured.err)[0] == MATMUL.count("\n") + 4  # the "}" after "arith.addf"
    assert "func.func @mm" in captured.out, "the good chunk is still printed"


def test_split_input_chunks() -> None:
    text = "a\n// -----\nb\nc\n// -----\nd"
    chunks = split_input(text)
    assert [chunk for _, chunk in chunks] == ["a\n", "b\nc\n", "d"]
    assert [text[offset:].startswith(chunk) for offset, chunk in chunks] == [True] * 3


def test_opt_verify_diagnostics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = (
        "func.func @f(%a: tensor<4xf32>) {\n"
        "  // expected-error @below {{is unknown}}\n"
        "  %x = linalg.nope %a : tensor<4xf32>\n"
        "  return\n}\n"
    )
    path = _write(tmp_path, "v.mlir", good)
    assert opt_main([str(path), "--verify-diagnostics"]) == 0
    wrong_line = good.replace("@below", "@above")
    path = _write(tmp_path, "w.mlir", wrong_line)
    assert opt_main([str(path), "--verify-diagnostics"]) == 1
    err = capsys.readouterr().err
    assert "was not produced" in err and "unexpected error" in err


def test_opt_print_ir_after_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert opt_main([str(path), "-p", "linalg-generalize-named-ops", "--print-ir-after-all"]) == 0
    err = capsys.readouterr().err
    assert "IR Dump After linalg-generalize-named-ops" in err and "linalg.generic" in err


def test_opt_unknown_pass_lists_the_available_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert opt_main([str(path), "-p", "no-such-pass"]) == 1
    err = capsys.readouterr().err
    assert "unknown pass 'no-such-pass'" in err and "one-shot-bufferize" in err


def test_opt_emit_llvm(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert opt_main([str(path), "--emit", "llvm"]) == 0
    out = capsys.readouterr().out
    assert "define" in out and "@mm" in out


def test_opt_applies_the_embedded_schedule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "module attributes {transform.with_named_sequence} {\n"
        + MATMUL
        + "  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {\n"
        '    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op\n'
        '    transform.annotate %mm "scheduled" : !transform.any_op\n'
        "    transform.yield\n  }\n}\n"
    )
    path = _write(tmp_path, "s.mlir", text)
    assert opt_main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "scheduled" in out and "transform.named_sequence" not in out
    # --no-schedule: not applied, and kept in the output as mlir-opt would print it.
    assert opt_main([str(path), "--no-schedule"]) == 0
    out = capsys.readouterr().out
    assert "{scheduled}" not in out and "transform.named_sequence" in out
    # A separate schedule file (upstream's preloaded library) applies to a plain payload.
    payload = _write(tmp_path, "payload.mlir", MATMUL)
    library = _write(tmp_path, "lib.mlir", text.replace(MATMUL, ""))
    assert opt_main([str(payload), "--schedule", str(library)]) == 0
    assert "scheduled" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["--bogus"],
        [],
        ["missing.mlir"],
        ["{dir}"],
        ["{file}", "--emit", "wasm"],
        ["{file}", "-p", "cse{{"],
    ],
    ids=["unknown-flag", "no-input", "missing-file", "directory", "bad-choice", "bad-pipeline"],
)
def test_opt_bad_arguments_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    argv = [a.format(dir=tmp_path, file=path) for a in argv]
    assert opt_main(argv) == 1
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


# --- schedir-run -----------------------------------------------------------------------


def test_run_check_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert run_main([str(path), "--check"]) == 0
    assert re.search(r"check: OK max_abs_err=\S+ max_rel_err=\S+", capsys.readouterr().out)


def test_run_inputs_and_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (5, 7)).astype(np.float32)
    b = rng.uniform(-1, 1, (7, 3)).astype(np.float32)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    before = _digest(tmp_path / "a.npy")
    out = tmp_path / "c.npy"
    argv = [
        str(path),
        "--inputs",
        f"{tmp_path / 'a.npy'},{tmp_path / 'b.npy'}",
        "--output",
        str(out),
        "--check",
    ]
    assert run_main(argv) == 0
    np.testing.assert_allclose(np.load(out), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    assert _digest(tmp_path / "a.npy") == before


def test_run_several_outputs_are_numbered(tmp_path: Path) -> None:
    path = _write(tmp_path, "two.mlir", TWO_RESULTS)
    a = np.arange(24, dtype=np.float32).reshape(4, 6) + 1
    np.save(tmp_path / "a.npy", a)
    assert (
        run_main(
            [str(path), "--inputs", str(tmp_path / "a.npy"), "--output", str(tmp_path / "o.npy")]
        )
        == 0
    )
    np.testing.assert_array_equal(np.load(tmp_path / "o_0.npy"), -a)
    np.testing.assert_array_equal(np.load(tmp_path / "o_1.npy"), a)


@pytest.mark.parametrize(
    ("arrays", "fragment"),
    [
        ({"a": np.ones((5, 7), np.float32)}, "takes 2 argument"),
        (
            {"a": np.ones((5, 7), np.float32), "b": np.ones((7, 4), np.float32)},
            "argument 1: expected shape (7, 3)",
        ),
        (
            {"a": np.ones((5, 7), np.float64), "b": np.ones((7, 3), np.float32)},
            "argument 0: expected an array of dtype float32",
        ),
    ],
    ids=["count", "shape", "dtype"],
)
def test_run_mismatched_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arrays: dict[str, np.ndarray], fragment: str
) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    names = []
    for name, value in arrays.items():
        np.save(tmp_path / f"{name}.npy", value)
        names.append(str(tmp_path / f"{name}.npy"))
    assert run_main([str(path), "--inputs", ",".join(names)]) == 1
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_run_unreadable_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    corrupt = _write(tmp_path, "corrupt.npy", "not an npy file")
    assert run_main([str(path), "--inputs", f"{corrupt},{tmp_path / 'missing.npy'}"]) == 1
    err = capsys.readouterr().err
    assert "could not read input array" in err and "Traceback" not in err


def test_run_unknown_entry(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert run_main([str(path), "--entry", "nope"]) == 1
    err = capsys.readouterr().err
    assert "no function named 'nope'" in err and "@mm" in err


def test_run_bench_prints_median(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, "mm.mlir", MATMUL)
    assert run_main([str(path), "--bench"]) == 0
    assert re.search(r"bench: median=\S+ ms", capsys.readouterr().out)


# --- the installed console scripts ------------------------------------------------------


def _script(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    assert os.path.exists(found), f"{name} is not installed (pip install -e .)"
    return found


def test_console_scripts_report_errors_without_traceback(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.mlir", "func.func @f() {\n  %x = arith.constant 1 : i32 i32\n}\n")
    for tool in ("schedir-opt", "schedir-run"):
        result = subprocess.run(
            [_script(tool), str(path)], capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 1
        assert f"{path}:2:" in result.stderr and "Traceback" not in result.stderr


def test_console_script_stdin_does_not_hang(tmp_path: Path) -> None:
    result = subprocess.run(
        [_script("schedir-opt"), "-"], input=MATMUL, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0 and "linalg.matmul" in result.stdout


def test_pass_options_with_dotted_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Upstream accepts `memcpy-op=linalg.copy` unquoted.
    path = _write(tmp_path, "mm.mlir", MATMUL)
    argv = [
        str(path),
        "-p",
        "one-shot-bufferize{bufferize-function-boundaries=true memcpy-op=linalg.copy}",
    ]
    assert opt_main(argv) == 0
    assert "memref<5x3xf32>" in capsys.readouterr().out
