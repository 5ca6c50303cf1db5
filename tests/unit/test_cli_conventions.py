"""schedir-opt takes and prints what mlir-opt does: its flags, pipelines, stdin and output.

Each convention is checked on schedir-opt's entry point with stdout/stderr captured; the
behaviour upstream shows (iree-opt, LLVM 24) is written next to each test.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.cli import opt_main, upstream_pipeline

FUNC = "func.func @f() {\n  return\n}\n"

GENERIC = """\
func.func @g(%c: i1, %m: memref<?xf32>) {
  scf.if %c {
    "some_op"(%c, %m) : (i1, memref<?xf32>) -> ()
    %v = "foo.bar"() {attr = 3 : i64} : () -> index
    scf.yield
  }
  return
}
"""

UNREGISTERED_SCHEDULE = (
    GENERIC
    + """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["foo.bar"]} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.num_associations %ops : (!transform.any_op) -> !transform.param<i64>
    transform.debug.emit_param_as_remark %n : !transform.param<i64>
    transform.yield
  }
}
"""
)

UNFUSABLE = """\
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %c = arith.constant 1.0 : f32
  %0 = linalg.fill ins(%c : f32) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %2, %3 = transform.structured.fuse_into_containing_op %0 into %1
      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


def _opt(
    capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None
) -> tuple[int, str, str]:
    """Run schedir-opt in-process: (exit status, stdout, stderr)."""
    old = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        rc = opt_main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return rc, out, err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        opt_main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("schedir-opt (schedir ")


@pytest.mark.parametrize("argv", [(), ("-",)])
def test_reads_stdin_without_a_file_or_with_a_dash(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    rc, out, err = _opt(capsys, *argv, stdin=FUNC)
    assert (rc, err) == (0, "")
    assert out.startswith("module {\n  func.func @f()")


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n", "  // RUN: nothing\n\n"])
def test_an_empty_input_is_an_empty_module(capsys: pytest.CaptureFixture[str], text: str) -> None:
    # mlir-opt prints `module {\n}` for a file without ops.
    rc, out, err = _opt(capsys, stdin=text)
    assert (rc, out, err) == (0, "module {\n}\n", "")


def test_long_options_take_one_dash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.mlir"
    path.write_text(FUNC + "// -----\n" + FUNC.replace("@f", "@h"))
    one = _opt(capsys, str(path), "-split-input-file", "-no-schedule")
    two = _opt(capsys, str(path), "--split-input-file", "--no-schedule")
    assert one == two
    assert one[0] == 0


def test_split_output_is_separated_as_mlir_opt_separates_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # mlir-opt: each chunk's module, an empty line, then `// -----`.
    path = tmp_path / "two.mlir"
    path.write_text(FUNC + "// -----\n" + FUNC.replace("@f", "@h"))
    rc, out, _ = _opt(capsys, str(path), "--split-input-file")
    assert rc == 0
    first, second = out.split("\n\n// -----\n")
    assert first.startswith("module {") and "@f()" in first
    assert second.startswith("module {") and "@h()" in second


@pytest.mark.parametrize(
    ("spec", "flat"),
    [
        ("canonicalize,cse", "canonicalize,cse"),
        ("builtin.module(func.func(canonicalize),cse)", "canonicalize,cse"),
        (
            "builtin.module(canonicalize{max-iterations=3}, cse)",
            "canonicalize{max-iterations=3},cse",
        ),
        ("any(cse)", "cse"),
        ("builtin.module(gpu.module(cse),func.func(canonicalize,cse))", "cse,canonicalize,cse"),
        (
            'one-shot-bufferize{memcpy-op="linalg.copy"}',
            'one-shot-bufferize{memcpy-op="linalg.copy"}',
        ),
    ],
)
def test_upstream_pipeline_syntax_is_flattened(spec: str, flat: str) -> None:
    assert upstream_pipeline(spec) == flat


_PASS = st.sampled_from(["canonicalize", "cse", "loop-invariant-code-motion", "a{x=1 y=(2)}"])
_ANCHOR = st.sampled_from(["builtin.module", "func.func", "gpu.module", "any"])


@st.composite
def _nested(draw: st.DrawFn, depth: int = 3) -> tuple[str, list[str]]:
    """A pipeline of passes and nested anchors, and the passes it runs in order."""
    parts: list[str] = []
    passes: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        if depth > 0 and draw(st.booleans()):
            inner, inner_passes = draw(_nested(depth - 1))
            parts.append(f"{draw(_ANCHOR)}({inner})")
            passes += inner_passes
        else:
            name = draw(_PASS)
            parts.append(name)
            passes.append(name)
    return ",".join(parts), passes


@settings(max_examples=150)
@given(_nested())
def test_any_nesting_of_anchors_keeps_the_passes_in_order(case: tuple[str, list[str]]) -> None:
    spec, passes = case
    assert upstream_pipeline(spec) == ",".join(passes)


def test_pass_pipeline_is_the_same_option_as_p(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(FUNC)
    a = _opt(capsys, str(path), "--pass-pipeline=builtin.module(func.func(canonicalize),cse)")
    b = _opt(capsys, str(path), "-p", "canonicalize,cse")
    assert a == b and a[0] == 0


def test_mlir_print_ir_after_all_is_print_ir_after_all(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "f.mlir"
    path.write_text(FUNC)
    a = _opt(capsys, str(path), "-p", "cse", "--mlir-print-ir-after-all")
    b = _opt(capsys, str(path), "-p", "cse", "--print-ir-after-all")
    assert a == b
    assert "IR Dump After cse" in a[2]


def test_transform_interpreter_flag_and_its_entry_point(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    schedule = UNREGISTERED_SCHEDULE.replace("@__transform_main", "@other")
    path = tmp_path / "s.mlir"
    path.write_text(schedule)
    rc, _, err = _opt(
        capsys,
        str(path),
        "-allow-unregistered-dialect",
        "--transform-interpreter=entry-point=other",
    )
    assert rc == 0, err
    assert "remark: 1" in err
    rc, _, err = _opt(capsys, str(path), "-allow-unregistered-dialect", "-transform-interpreter")
    assert rc == 1
    assert "could not find a nested named sequence with name: __transform_main" in err
    rc, _, err = _opt(capsys, str(path), "--transform-interpreter=debug-payload-root-tag=x")
    assert rc == 1
    assert "unknown option 'debug-payload-root-tag=x' of --transform-interpreter" in err


def test_unregistered_ops_need_the_flag(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _opt(capsys, "-", stdin=GENERIC)
    assert rc == 1
    assert "error:" in err


def test_unregistered_ops_parse_print_and_pass_through_a_schedule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, out, err = _opt(capsys, "--allow-unregistered-dialect", stdin=UNREGISTERED_SCHEDULE)
    assert rc == 0, err
    # The schedule found the opaque op by its name; the op prints in generic form.
    assert "remark: 1" in err
    assert '"some_op"(%c, %m) : (i1, memref<?xf32>) -> ()' in out
    assert '"foo.bar"() {attr = 3 : i64} : () -> index' in out
    # What schedir-opt prints, it parses again to the same text.
    rc, again, _ = _opt(capsys, "--allow-unregistered-dialect", "--no-schedule", stdin=out)
    assert (rc, again) == (0, out)


@pytest.mark.parametrize(
    "op",
    [
        '"transform.not_an_op"() : () -> ()',
        "transform.not_an_op",
        '%x = "linalg.not_an_op"() : () -> index',
    ],
)
def test_unknown_ops_of_known_dialects_stay_unknown_with_the_flag(
    capsys: pytest.CaptureFixture[str], op: str
) -> None:
    # mlir-opt -allow-unregistered-dialect only admits ops of dialects it does not know.
    text = f"func.func @f() {{\n  {op}\n  return\n}}\n"
    rc, out, err = _opt(capsys, "--allow-unregistered-dialect", stdin=text)
    assert (rc, out) == (1, "")
    assert "not_an_op' is unknown" in err


def test_a_silenceable_failure_at_the_top_fails_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # mlir-opt reports the failure with its own severity (a remark for an unfusable
    # producer), prints no module and exits 1.
    rc, out, err = _opt(capsys, stdin=UNFUSABLE)
    assert rc == 1
    assert out == ""
    assert "remark: could not fuse" in err
    assert "note: could not find fusion opportunity" in err


def test_a_suppressed_silenceable_failure_does_not_fail_the_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    suppressed = UNFUSABLE.replace(
        "    %2, %3 = transform.structured.fuse_into_containing_op %0 into %1\n"
        "      : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n",
        "    transform.sequence %root : !transform.any_op failures(suppress) {\n"
        "    ^bb0(%r: !transform.any_op):\n"
        "      %2, %3 = transform.structured.fuse_into_containing_op %0 into %1\n"
        "        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)\n"
        "    }\n",
    )
    rc, out, _ = _opt(capsys, stdin=suppressed)
    assert rc == 0
    assert out.startswith("#map = affine_map<(d0) -> (d0)>\nmodule {")


def test_a_silenceable_failure_matched_by_verify_diagnostics_passes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    annotated = UNFUSABLE.replace(
        "  %0 = linalg.fill",
        "  // expected-remark @below {{could not fuse}}\n"
        "  // expected-note @below {{could not find fusion opportunity}}\n"
        "  // expected-note @below {{could not find a use by the containing op}}\n"
        "  // expected-note @below {{producer op use by containing op cannot be fused by cloning}}\n"
        "  %0 = linalg.fill",
    )
    rc, _, err = _opt(capsys, "--verify-diagnostics", stdin=annotated)
    assert (rc, err) == (0, "")


def test_affine_maps_print_as_aliases_unless_local_scope(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, out, _ = _opt(capsys, "--no-schedule", stdin=UNFUSABLE)
    assert rc == 0
    assert out.startswith("#map = affine_map<(d0) -> (d0)>\nmodule {")
    assert "indexing_maps = [#map, #map]" in out
    rc, local, _ = _opt(capsys, "--no-schedule", "--mlir-print-local-scope", stdin=UNFUSABLE)
    assert rc == 0
    assert local.startswith("module {")
    assert "indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]" in local
