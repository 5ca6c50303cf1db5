"""tools/upstream_conformance.py: RUN lines, splits, option translation, verdicts, report.

The lit files here are small synthetic ones written for these tests (upstream's own test
files are not part of the project).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tools.upstream_conformance import (
    Case,
    Outcome,
    ToolResult,
    classify,
    filecheck_args,
    has_checks,
    iree_args,
    parse_run,
    report,
    run_lines,
    schedir_args,
    split_file,
)

TOOL = Path(__file__).parents[2] / "tools" / "upstream_conformance.py"


def test_run_lines_join_continuations_and_take_pipes_apart() -> None:
    text = (
        "// RUN: mlir-opt %s -allow-unregistered-dialect \\\n"
        "// RUN:     --transform-interpreter -verify-diagnostics \\\n"
        "// RUN:     --split-input-file | FileCheck %s\n"
        "// RUN: not mlir-opt %s -cse 2>&1 | FileCheck %s --check-prefix=ERR\n"
        "// RUN: mlir-translate %s\n"
        "func.func @f() { return }\n"
    )
    first, second, third = run_lines(text)
    assert first.tool == "mlir-opt"
    assert first.tool_args == (
        "%s",
        "-allow-unregistered-dialect",
        "--transform-interpreter",
        "-verify-diagnostics",
        "--split-input-file",
    )
    assert first.split_input and not first.expect_failure
    assert first.filecheck_args == ("%s",)
    assert first.check_prefixes == ("CHECK",)
    assert second.expect_failure and second.merge_stderr
    assert second.check_prefixes == ("ERR",)
    assert third.tool == "mlir-translate" and third.filecheck_args is None


@pytest.mark.parametrize(
    ("filecheck", "prefixes"),
    [
        ("FileCheck %s", ("CHECK",)),
        ("FileCheck %s --check-prefix=A", ("A",)),
        ("FileCheck %s -check-prefix B", ("B",)),
        ("FileCheck %s --check-prefixes=A,B", ("A", "B")),
    ],
)
def test_check_prefixes(filecheck: str, prefixes: tuple[str, ...]) -> None:
    assert parse_run(f"mlir-opt %s | {filecheck}").check_prefixes == prefixes


def test_splits_keep_their_line_numbers() -> None:
    text = "a\n// -----\nb\nc\n  // -----  \nd\n"
    splits = split_file(text, True)
    assert [(s.first_line, s.text) for s in splits] == [(1, "a\n"), (3, "b\nc\n"), (6, "d\n")]
    padded = splits[2].padded()
    assert padded.splitlines()[5] == "d"
    assert split_file(text, False)[0].text == text


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ("mlir-opt %s --transform-interpreter", ()),
        ("mlir-opt %s", ("--no-schedule",)),
        (
            "mlir-opt %s -transform-interpreter=entry-point=foo -split-input-file",
            ("--entry-point", "foo"),
        ),
        (
            "mlir-opt %s --transform-interpreter='entry-point=foo' -verify-diagnostics",
            ("--entry-point", "foo", "--verify-diagnostics"),
        ),
        (
            "mlir-opt %s -transform-interpreter -canonicalize -cse --allow-unregistered-dialect",
            ("--allow-unregistered-dialect", "-p", "canonicalize,cse"),
        ),
        (
            "mlir-opt %s --transform-interpreter --mlir-print-local-scope "
            '-one-shot-bufferize="bufferize-function-boundaries"',
            ("--mlir-print-local-scope", "-p", "one-shot-bufferize{bufferize-function-boundaries}"),
        ),
        (
            "mlir-opt %s --pass-pipeline='builtin.module(func.func(canonicalize))'",
            ("--no-schedule", "-p", "builtin.module(func.func(canonicalize))"),
        ),
    ],
)
def test_schedir_arguments(run: str, expected: tuple[str, ...]) -> None:
    translation = schedir_args(parse_run(run))
    assert translation.unsupported is None
    assert translation.args == expected


def test_unknown_interpreter_options_are_unsupported() -> None:
    run = parse_run("mlir-opt %s --transform-interpreter=debug-payload-root-tag=x")
    assert schedir_args(run).unsupported == "interpreter option 'debug-payload-root-tag'"


def test_iree_gets_the_run_line_without_the_split() -> None:
    run = parse_run("mlir-opt %s --transform-interpreter -split-input-file -cse | FileCheck %s")
    assert iree_args(run) == ("--transform-interpreter", "-cse")


def test_filecheck_arguments_keep_what_the_python_filecheck_knows() -> None:
    run = parse_run(
        "mlir-opt %s | FileCheck %s --check-prefixes=A,B --dump-input=fail --strict-whitespace"
    )
    assert filecheck_args(run, "f.mlir") == [
        "f.mlir",
        "--check-prefix",
        "A",
        "--check-prefix",
        "B",
        "--strict-whitespace",
    ]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("// CHECK: x", True),
        ("//  CHECK-SAME: x", True),
        ("// CHECK-COUNT-8: x", True),
        ("// CHECKS are nice", False),
        ("// NOCHECK: x", False),
        ("// OTHER: x", False),
    ],
)
def test_has_checks(text: str, found: bool) -> None:
    assert has_checks(text, ("CHECK",)) is found


@pytest.mark.parametrize(
    ("result", "expect_failure", "check", "failure", "op"),
    [
        (ToolResult(0, "", ""), False, None, "", ""),
        (ToolResult(0, "", ""), False, (False, "error: CHECK: x not found"), "CHECK mismatch", ""),
        (ToolResult(None, "", ""), False, None, "hang", ""),
        (ToolResult(-11, "", ""), False, None, "crash", ""),
        (
            ToolResult(1, "", "error: internal compiler error: KeyError: 'x'"),
            False,
            None,
            "crash",
            "",
        ),
        (
            ToolResult(1, "", "f.mlir:3:5: error: custom op 'transform.loop.coalesce' is unknown"),
            False,
            None,
            "missing op",
            "transform.loop.coalesce",
        ),
        (
            ToolResult(
                1,
                "",
                "f.mlir:3:5: error: unexpected error: 'transform.x.y' is not implemented yet in "
                "schedir's transform interpreter",
            ),
            False,
            None,
            "missing op",
            "transform.x.y",
        ),
        (
            ToolResult(1, "", 'f.mlir:2:3: error: expected error "boom" was not produced'),
            False,
            None,
            "diagnostic mismatch",
            "",
        ),
        (
            ToolResult(1, "", "error: schedir-opt: unrecognized arguments: --foo"),
            False,
            None,
            "unsupported option",
            "",
        ),
        (ToolResult(1, "", "f.mlir:1:1: error: expected ')'"), False, None, "parse error", ""),
        (ToolResult(1, "", "f.mlir:1:1: error: boom"), False, None, "other error", ""),
        (ToolResult(1, "", "f.mlir:1:1: error: boom"), True, None, "", ""),
        (ToolResult(0, "", ""), True, None, "expected failure not reported", ""),
    ],
)
def test_classify(
    result: ToolResult,
    expect_failure: bool,
    check: tuple[bool, str] | None,
    failure: str,
    op: str,
) -> None:
    outcome = classify(result, expect_failure, check)
    assert outcome.passed is (failure == "")
    assert outcome.failure == failure
    assert outcome.missing_op == op


def test_report_counts_schedir_passes_among_iree_passes() -> None:
    def case(file: str, schedir: Outcome, iree: Outcome) -> Case:
        return Case(file, 0, 0, 1, schedir, iree)

    ok, missing = Outcome(True), Outcome(False, "missing op", "x", "transform.a")
    cases = [
        case("a.mlir", ok, ok),
        case("a.mlir", missing, ok),
        case("a.mlir", ok, Outcome(False, "parse error")),
        case("b.mlir", Outcome(False, "crash", "Traceback"), ok),
    ]
    text = report(cases, with_iree=True)
    total = next(line for line in text.splitlines() if line.startswith("total"))
    # cases, iree passes, schedir passes, both, %, crashes, hangs
    assert total.split()[1:] == ["4", "3", "2", "1", "33%", "1", "0"]
    assert "1  transform.a" in text
    assert "files: 2" in text


LIT_FILE = """\
// RUN: mlir-opt %s --split-input-file --mlir-print-local-scope | FileCheck %s

// CHECK-LABEL: func.func @passes
func.func @passes() {
  return
}

// -----

// CHECK-LABEL: func.func @fails
// CHECK: this line is never printed
func.func @fails() {
  return
}

// -----

// A split without check lines only has to run.
func.func @runs() {
  return
}
"""


def test_end_to_end_on_a_synthetic_lit_file(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "t.mlir").write_text(LIT_FILE)
    out = tmp_path / "cases.json"
    done = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            str(tmp_path / "tests"),
            "--iree-opt",
            "none",
            "--jobs",
            "1",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    records = json.loads(out.read_text())
    verdicts = [(r["split"], r["line"], r["schedir"]["passed"]) for r in records]
    assert verdicts == [(0, 1, True), (1, 9, False), (2, 17, True)]
    assert records[1]["schedir"]["failure"] == "CHECK mismatch"
    assert "t.mlir" in done.stdout and "CHECK mismatch" in done.stdout
