"""Minimized fuzz findings, kept as regression tests.

The parser and verifier findings are fixed (the stray quote, huge static shapes, a use
before its definition); the findings in other areas (tests/fuzz/known.py) are `xfail(strict=True)` with the class they belong to, so the
fix that makes one pass must remove its mark.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir.diagnostics import MultipleErrors, ParseError, SchedirError, SourceManager, VerifyError
from schedir.dialects.syntax import check_buffer_sizes, parse_module
from schedir.testing.fuzz import FINDINGS, Case, Runner, gen_case
from schedir.testing.fuzz.strategies import cases, mutants
from tests.fuzz.known import FIXED, OPEN, REJECTED

CASES = Path(__file__).parent / "cases"


# --- defect 10b: a stray `"` (an unterminated string) hung the lexer ----------------------


@settings(max_examples=30)
@given(cases(), st.randoms(use_true_random=False))
def test_a_stray_quote_anywhere_ends_in_a_diagnostic(case: Case, rng: random.Random) -> None:
    # A long rest of the line after the quote made xDSL's string pattern backtrack
    # exponentially; with the fix the parse ends at once with a ParseError or succeeds.
    line = rng.choice([ln for ln in case.text.split("\n") if ln.strip()])
    at = rng.randrange(len(line) + 1)
    text = case.text.replace(line, line[:at] + '"' + line[at:] + " " + "x" * 200, 1)
    try:
        parse_module(text, "stray.mlir")
    except (ParseError, VerifyError) as err:
        assert err.location is not None


@pytest.mark.parametrize("prefix", ["@", "", "attributes {a = ", "ops{["])
def test_unterminated_string_in_a_signature_is_reported_in_a_subprocess(
    tmp_path: Path, prefix: str
) -> None:
    # As the fuzzer saw it: in a process, with a timeout (a regression hangs, not fails).
    path = tmp_path / "stray.mlir"
    sig = "(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {"
    path.write_text(f'func.func {prefix}"f{sig}\n  return %a : tensor<4xf32>\n}}\n')
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from schedir.cli import opt_main; raise SystemExit(opt_main())",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1
    assert f"{path}:1:" in run.stderr and "error:" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


# --- defect 10b: a huge static shape ended in an internal MemoryError ---------------------

_HUGE = ["400000000x400000000", "9223372036854775807", "65536x65536x65536", "1000000x1000000x8"]


@pytest.mark.parametrize("dims", _HUGE)
@pytest.mark.parametrize("where", ["argument", "empty", "result"])
def test_huge_static_shapes_are_a_diagnostic_at_the_op(dims: str, where: str) -> None:
    big = f"tensor<{dims}xf32>"
    small = "tensor<4xf32>"
    if where == "argument":
        text = f"func.func @f(%a: {big}) -> {big} {{\n  return %a : {big}\n}}\n"
    elif where == "empty":
        text = (
            f"func.func @f(%a: {small}) -> {small} {{\n  %e = tensor.empty() : {big}\n"
            f"  return %a : {small}\n}}\n"
        )
    else:
        text = (
            f"func.func @f(%a: {small}) -> {big} {{\n  %e = tensor.empty() : {big}\n"
            f"  return %e : {big}\n}}\n"
        )
    sources = SourceManager()
    module = parse_module(text, "huge.mlir", sources=sources)
    with pytest.raises(VerifyError) as info:
        check_buffer_sizes(module, 1 << 34)
    err = info.value
    assert err.location is not None and err.location.line == (1 if where == "argument" else 2)
    assert "more than this process can allocate" in err.message and big in err.message


def test_huge_shape_through_schedir_run(runner: Runner) -> None:
    text = (
        "func.func @f(%a: tensor<400000000x400000000xf32>) -> tensor<400000000x400000000xf32> {\n"
        "  return %a : tensor<400000000x400000000xf32>\n}\n"
    )
    outcome = runner.run(Case("huge", text))
    assert outcome.kind == "rejected", outcome
    assert "needs" in outcome.detail and "more than this process can allocate" in outcome.detail


def test_sizes_that_fit_pass_the_check() -> None:
    module = parse_module(gen_case(random.Random(3)).text, "ok.mlir")
    check_buffer_sizes(module, 1 << 30)


# --- findings in other areas, kept until their fixes land ---------------------------------


_OPEN_CASES = [
    pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=known.reason))
    for name, known in OPEN.items()
    if (CASES / f"{name}.mlir").exists()  # timing classes (hangs) have their own tests
]

if _OPEN_CASES:  # no open class with a case: no test (an empty parametrization skips)

    @pytest.mark.parametrize("name", _OPEN_CASES)
    def test_open_finding(runner: Runner, name: str) -> None:
        text = (CASES / f"{name}.mlir").read_text()
        outcome = runner.run(Case(name, text, upstream=text), timeout=20)
        assert outcome.kind not in FINDINGS, f"{outcome.kind}: {outcome.detail}"


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed_finding(runner: Runner, name: str) -> None:
    text = (CASES / f"{name}.mlir").read_text()
    outcome = runner.run(Case(name, text, upstream=text), timeout=20)
    assert outcome.kind not in FINDINGS, f"{FIXED[name]}: {outcome.kind}: {outcome.detail}"
    if name == "forall_over_reduction_warns":  # racy by design: the warning is the check
        assert "warning: tiling is not thread safe at axis #0" in outcome.result.stderr


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_rejected_on_purpose(runner: Runner, name: str) -> None:
    path = CASES / f"{name}.mlir"
    outcome = runner.run(Case(name, path.read_text(), upstream=None), timeout=20)
    stderr = outcome.result.stderr
    assert (outcome.result.status, outcome.result.rc) == ("exit", 1), stderr
    assert re.search(r":\d+:\d+: error: " + re.escape(REJECTED[name]), stderr), stderr
    assert "Traceback" not in stderr


# --- a use before its definition (a swapped line) hung the interpreter or exited silently -


@settings(max_examples=25)
@given(cases(), st.randoms(use_true_random=False))
def test_a_use_before_its_definition_is_a_dominance_error(case: Case, rng: random.Random) -> None:
    # Move a line that defines a value (payload or schedule) below its first use.
    lines = case.text.split("\n")

    # One-line ops only, and no terminator moves: the op order stays otherwise valid.
    def movable(line: str) -> bool:
        return not line.rstrip().endswith("{") and not line.strip().startswith(
            ("return", "linalg.yield", "transform.yield", "}", "^")
        )

    defining = [
        (i, m.group(1))
        for i, ln in enumerate(lines)
        if (m := re.match(r"\s*(%[\w]+)(?:, %[\w]+)* = ", ln)) is not None and movable(ln)
    ]
    i, name = rng.choice(defining)
    uses = [
        j
        for j in range(i + 1, len(lines))
        if re.search(rf"{name}\b(?! =)", lines[j]) and movable(lines[j])
    ]
    if not uses:
        return
    j = uses[0]
    moved = lines[:i] + lines[i + 1 : j + 1] + [lines[i]] + lines[j + 1 :]
    with pytest.raises(VerifyError) as info:
        parse_module("\n".join(moved), "moved.mlir")
    err = info.value
    assert "does not dominate this use" in err.message, err.render()
    assert err.location is not None and err.notes and err.notes[0].location is not None


@pytest.mark.parametrize("name", ["use_before_def_in_payload", "use_before_def_in_schedule"])
def test_found_uses_before_definitions_are_rejected_at_the_use(runner: Runner, name: str) -> None:
    # Found by the mutation mode: a swapped payload line ran the schedule on the invalid
    # payload and exited 1 with only a remark; a swapped schedule line hung.
    text = (CASES / f"{name}.mlir").read_text()
    outcome = runner.run(Case(name, text))
    assert outcome.kind == "rejected", f"{outcome.kind}: {outcome.detail}"
    assert outcome.detail.startswith("operand #") and "does not dominate this use" in outcome.detail


# --- numbers out of range in attributes ended in an internal struct.error ----------------


@settings(max_examples=30)
@given(
    cases(),
    st.randoms(use_true_random=False),
    st.sampled_from([2**63, 2**64, -(2**63) - 1, 10**30]),
)
def test_out_of_range_numbers_in_lists_are_parse_errors(
    case: Case, rng: random.Random, value: int
) -> None:
    lists = list(re.finditer(r"\[(\d+)(, \d+)*\]", case.text))
    if not lists:
        return
    found = rng.choice(lists)
    text = case.text[: found.start(1)] + str(value) + case.text[found.end(1) :]
    try:
        parse_module(text, "range.mlir")
    except (ParseError, VerifyError) as err:
        assert err.location is not None, err.render()


@settings(max_examples=150)
@given(mutants())
def test_every_mutant_parses_or_gets_a_located_diagnostic(case: Case) -> None:
    # The parser and verifier alone, in-process: only schedir's own errors, each located.
    try:
        parse_module(case.text, "mutant.mlir")
    except (ParseError, VerifyError) as err:
        assert err.location is not None, err.render()
    except MultipleErrors as err:
        assert all(e.location is not None for e in err.errors), err.render()


# --- a missing entry point or entry function had no file:line:col -----------------------

_FN = "func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n  return %a : tensor<4xf32>\n}\n"
_SEQ = (
    "module attributes {transform.with_named_sequence} {\n"
    "  transform.named_sequence @other(%r: !transform.any_op {transform.readonly}) {\n"
    "    transform.yield\n  }\n}\n"
)


@pytest.mark.parametrize(
    ("text", "entry", "line", "message"),
    [
        (_FN + _SEQ, None, 4, "could not find a nested named sequence with name: __transform_main"),
        (f"module {{\n{_FN}{_SEQ}}}\n", None, 5, "could not find a nested named sequence"),
        (_FN, "g", 1, "no function named 'g'"),
        (f"module {{\n{_FN}}}\n", "g", 1, "no function named 'g'"),
        ("func.func private @f(%a: tensor<4xf32>) -> tensor<4xf32>\n", None, 1, "no public"),
    ],
)
def test_missing_entry_points_are_located(
    text: str, entry: str | None, line: int, message: str
) -> None:
    with pytest.raises(SchedirError) as info:
        schedir.compile(text, entry=entry)
    err = info.value
    assert message in err.message, err.render()
    assert err.location is not None and err.location.line == line, err.render()
