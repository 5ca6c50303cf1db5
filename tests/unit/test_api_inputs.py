"""`schedir.compile` input handling: what is not a payload, a schedule or a target is a
`SchedirError` (an `InputError`), never an assertion or a bare ValueError, and a string
that names no file and is no MLIR text says "no such file"."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import schedir
from schedir.diagnostics import InputError, ParseError

ROOT = Path(__file__).parents[2]
MATMUL = ROOT / "examples" / "matmul.mlir"

# What a user types for a file: words, folders, dots, dashes; never a brace or a newline.
path_like = st.from_regex(r"[A-Za-z_][A-Za-z0-9_./-]{0,30}", fullmatch=True)


@settings(max_examples=30)
@given(name=path_like)
def test_a_string_naming_no_file_says_no_such_file(name: str) -> None:
    assume(not os.path.lexists(name))
    with pytest.raises(
        InputError, match=re.escape(f"could not read payload file '{name}': no such file")
    ):
        schedir.compile(name)


@settings(max_examples=10)
@given(name=path_like)
def test_a_schedule_naming_no_file_says_no_such_file(name: str) -> None:
    assume(not os.path.lexists(name))
    with pytest.raises(InputError, match=r"could not read schedule file .*: no such file"):
        schedir.compile(MATMUL, schedule=name)


def test_a_path_object_naming_no_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        schedir.compile(tmp_path / "missing.mlir")


def test_malformed_mlir_text_stays_a_parse_error() -> None:
    with pytest.raises(ParseError, match="expected argument or type"):
        schedir.compile("func.func @f( {")


@pytest.mark.parametrize("payload", [None, 42, 3.5, b"func.func", ["a.mlir"], object()])
def test_a_payload_of_another_kind_is_an_input_error(payload: object) -> None:
    with pytest.raises(InputError, match="the payload must be a path, MLIR text or a parsed"):
        schedir.compile(payload)  # pyright: ignore[reportArgumentType] -- the wrong kind on purpose


@pytest.mark.parametrize("schedule", [42, b"x", ["s.mlir"]])
def test_a_schedule_of_another_kind_is_an_input_error(schedule: object) -> None:
    with pytest.raises(InputError, match="the schedule must be a path or MLIR text"):
        schedir.compile(MATMUL, schedule=schedule)  # pyright: ignore[reportArgumentType] -- on purpose


@settings(max_examples=20)
@given(target=st.one_of(st.text(max_size=12), st.none(), st.integers()))
def test_an_unknown_target_is_an_input_error(target: object) -> None:
    assume(target not in ("cpu", "cuda"))
    with pytest.raises(InputError, match="unknown target"):
        schedir.compile(MATMUL, target=target)  # pyright: ignore[reportArgumentType] -- on purpose


def test_errors_are_schedir_errors() -> None:
    assert issubclass(InputError, schedir.SchedirError)
