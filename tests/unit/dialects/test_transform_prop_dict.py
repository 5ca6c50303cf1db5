"""Every op printed with a prop-dict (`<k = v>`) also parses from the generic `<{k = v}>`
and from the legacy attr-dict `{k = v}` (LLVM <= 23), printing the same text.

The variants are derived from the printed form of every case of the other syntax tests,
so a new op with options is covered as soon as it has a case.
"""

from __future__ import annotations

import re

import pytest
from test_transform_helpers import Case, body_of, normalized, roundtrip, wrap
from test_transform_syntax import CORE_CASES
from test_transform_syntax_ext import EXT_CASES
from test_transform_syntax_structured import STRUCTURED_CASES

_START = re.compile(r" <(?=[a-z_])")


def _prop_dict(text: str) -> tuple[int, int] | None:
    """Span of the prop-dict (from ` <` to its matching `>`), if the text has one."""
    match = _START.search(text)
    if match is None:
        return None
    depth = 0
    for index in range(match.start() + 1, len(text)):
        if text[index] == "<":
            depth += 1
        elif text[index] == ">" and text[index - 1] != "-":
            depth -= 1
            if depth == 0:
                return match.start() + 1, index + 1
    return None


WITH_PROP_DICT = [
    case
    for case in (*CORE_CASES, *STRUCTURED_CASES, *EXT_CASES)
    if _prop_dict(case.printed) is not None and "\n" not in case.printed
]


@pytest.mark.parametrize("case", WITH_PROP_DICT, ids=range(len(WITH_PROP_DICT)))
@pytest.mark.parametrize("spelling", ["generic", "legacy"])
def test_prop_dict_spellings_print_the_current_form(case: Case, spelling: str) -> None:
    start, end = _prop_dict(case.printed)  # type: ignore[misc]
    entries = case.printed[start + 1 : end - 1]
    replacement = f"<{{{entries}}}>" if spelling == "generic" else f"{{{entries}}}"
    variant = case.printed[:start] + replacement + case.printed[end:]
    assert normalized(body_of(roundtrip(wrap(variant)))) == normalized(case.printed)


def test_there_are_prop_dict_cases() -> None:
    assert len(WITH_PROP_DICT) >= 10
