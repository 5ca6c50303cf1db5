"""Shared machinery of the transform-syntax tests (and checks of that machinery).

A *case* is one or more transform ops written inside a named sequence whose arguments
are `%a %b %c` (op handles), `%p %q` (`!transform.param<i64>`), `%v` (a value handle)
and `%f %e %al %aa` (handles to `scf.for`, `tensor.empty`, `memref.alloc`,
`memref.alloca`). Each case gives the text schedir must print (upstream's current spelling),
optionally the input when it differs (the `<{...}>` generic prop-dict, say), and
optionally a legacy (pre-LLVM-24, `{...}`) spelling that must print the same.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from schedir.diagnostics import SchedirError
from schedir.dialects import DIALECT_FACTORIES
from schedir.dialects.syntax import parse_module, print_op

ARGS = (
    "%a: !transform.any_op {transform.consumed}, %b: !transform.any_op {transform.consumed}, "
    "%c: !transform.any_op {transform.consumed}, %p: !transform.param<i64> {transform.readonly}, "
    "%q: !transform.param<i64> {transform.readonly}, %v: !transform.any_value {transform.consumed}, "
    '%f: !transform.op<"scf.for"> {transform.consumed}, '
    '%e: !transform.op<"tensor.empty"> {transform.consumed}, '
    '%al: !transform.op<"memref.alloc"> {transform.consumed}, '
    '%aa: !transform.op<"memref.alloca"> {transform.consumed}'
)
HEADER = "transform.named_sequence @s("


@dataclass(frozen=True)
class Case:
    """Ops (upstream's printed spelling) plus the inputs that must print as them."""

    printed: str
    current: str | None = None
    legacy: str | None = None

    @property
    def op_name(self) -> str:
        """The first op's name (for test ids)."""
        text = self.current or self.printed
        return next(w for w in text.split() if w.startswith("transform."))


def case_ids(cases: Sequence[Case]) -> list[str]:
    """Stable pytest ids: position and op name."""
    return [f"{i}-{case.op_name}" for i, case in enumerate(cases)]


def transform_context() -> Context:
    """A context with every schedir dialect, the transform one being schedir's own."""
    ctx = Context(allow_unregistered=False)
    for name, factory in DIALECT_FACTORIES:
        if name == "transform":

            def factory():  # type: ignore[no-redef]
                from schedir.dialects.transform import Transform

                return Transform

        ctx.register_dialect(name, factory)
    ctx.load_registered_dialect("builtin")
    return ctx


def wrap(body: str, args: str = ARGS) -> str:
    """A module holding `body` in a named sequence `@s(args)`."""
    lines = "\n".join("    " + line for line in body.strip().splitlines())
    return (
        "module attributes {transform.with_named_sequence} {\n"
        f"  {HEADER}{args}) {{\n{lines}\n    transform.yield\n  }}\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    """Parse (and verify) with schedir's transform dialect."""
    return parse_module(text, ctx=transform_context())


def roundtrip(text: str) -> str:
    """Parse, print, parse again and print again; both prints must agree."""
    first = print_op(parse(text))
    second = print_op(parse(first))
    assert first == second, f"print is not stable:\n{first}\n---\n{second}"
    return first


def body_of(printed: str) -> str:
    """The ops of `@s` in a printed module, without the final `transform.yield`."""
    lines = printed.splitlines()
    start = next(i for i, line in enumerate(lines) if HEADER in line) + 1
    end = max(i for i, line in enumerate(lines) if line == "    transform.yield")
    return "\n".join(line[4:] for line in lines[start:end])


def normalized(text: str) -> str:
    return "\n".join(line.strip() for line in text.strip().splitlines())


def check_case(case: Case) -> None:
    """The current (and legacy) spelling print as `case.printed`, stably."""
    got = body_of(roundtrip(wrap(case.current or case.printed)))
    assert normalized(got) == normalized(case.printed)
    if case.legacy is not None:
        legacy = body_of(roundtrip(wrap(case.legacy)))
        assert normalized(legacy) == normalized(case.printed)


def tool(name: str) -> str:
    found = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not Path(found).exists():
        pytest.fail(f"{name} not found: install the dev extra (pip install -e .[dev])")
    return found


def upstream_errors(modules: Sequence[str]) -> list[str]:
    """Errors iree-opt (upstream MLIR, LLVM 24git) reports on the given modules."""
    text = "\n// -----\n".join(modules)
    result = subprocess.run(
        [tool("iree-opt"), "--split-input-file", "--mlir-print-op-on-diagnostic=false", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=300,
    )
    errors = [line for line in result.stderr.splitlines() if ": error:" in line]
    if result.returncode != 0 and not errors:
        errors = [result.stderr[-2000:]]
    return errors


def check_upstream_accepts(cases: Sequence[Case]) -> None:
    """iree-opt parses and verifies schedir's printed form of every case."""
    modules = [roundtrip(wrap(case.current or case.printed)) for case in cases]
    errors = upstream_errors(modules)
    assert not errors, "\n".join(errors)


def expect_error(text: str, message: str, line: int, col: int) -> SchedirError:
    """Parsing `text` fails with `message` (a substring) at line:col.

    `col` is where the failing op starts (its first result, if any). MLIR reports an op's
    verifier errors at the op's *name*, so the expected column is that of the name, at or
    after `col` on the line.
    """
    with pytest.raises(SchedirError) as info:
        parse(text)
    err = info.value
    assert message in err.message, err.render()
    assert err.location is not None
    assert (err.location.line, err.location.col) == (
        line,
        _op_name_column(text, line, col, err.message),
    ), err.render()
    return err


def _op_name_column(text: str, line: int, col: int, message: str) -> int:
    """The column of the op named in `'<op>' op ...` on `line`, at or after `col`."""
    match = re.match(r"'([\w.]+)' op ", message)
    if match is None:
        return col
    source = text.split("\n")[line - 1]
    at = source.find(match.group(1), col - 1)
    return at + 1 if at >= 0 else col


# --- checks of the machinery itself ---------------------------------------------------------


def test_wrap_and_body_of_are_inverse() -> None:
    body = "transform.apply_cse to %a : !transform.any_op"
    assert body_of(roundtrip(wrap(body))) == body


def test_roundtrip_detects_a_wrong_expectation() -> None:
    with pytest.raises(AssertionError):
        check_case(
            Case(
                "transform.apply_dce to %a : !transform.any_op",
                current="transform.apply_cse to %a : !transform.any_op",
            )
        )


def test_expect_error_checks_the_location() -> None:
    text = wrap("transform.apply_cse to %a : !transform.any_op")
    with pytest.raises(pytest.fail.Exception):
        expect_error(text, "x", 1, 1)
