"""Mutations of valid MLIR inputs, for checking that bad input always gets a diagnostic.

Each mutation is a small edit of the text as a user (or a truncated download) makes
them: a line deleted, duplicated or swapped with its neighbour, a number made negative
or huge, an op name swapped for another, the text truncated, a stray quote or bracket
inserted, a type swapped.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

NUMBERS = ("-1", "0", "-7", "2147483648", "9223372036854775807", "18446744073709551616")
NUMBERS_HUGE = ("1000000000", "400000000", "123456789012", "100000000000000000000000000000")
STRAY = ('"', "{", "}", "(", ")", "[", "]", "<", ">", "%", "@", "#", ":", ",", "^", "\\")
TYPES = ("f32", "f16", "f64", "i32", "i1", "index", "i64", "bf16")
_INT = re.compile(r"(?<![\w.%#@])\d+(?![\w.])")
_OP = re.compile(r"\b(?:linalg|tensor|arith|math|func|transform)(?:\.[a-z_0-9]+)+\b")
_TYPE = re.compile(r"\b(?:f16|f32|f64|i32|i64|i1|index|bf16)\b")

Mutation = Callable[[random.Random, str], str]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    del lines[rng.randrange(len(lines))]
    return "\n".join(lines)


def duplicate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i = rng.randrange(len(lines) - 1)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "\n".join(lines)


def _replace_match(rng: random.Random, text: str, pattern: re.Pattern[str], new: str) -> str:
    found = list(pattern.finditer(text))
    if not found:
        return text
    m = rng.choice(found)
    return text[: m.start()] + new + text[m.end() :]


def change_number(rng: random.Random, text: str) -> str:
    return _replace_match(rng, text, _INT, rng.choice(NUMBERS + NUMBERS_HUGE))


def swap_op_name(rng: random.Random, text: str) -> str:
    names = sorted({m.group(0) for m in _OP.finditer(text)})
    if not names:
        return text
    return _replace_match(rng, text, _OP, rng.choice(names))


def swap_type(rng: random.Random, text: str) -> str:
    return _replace_match(rng, text, _TYPE, rng.choice(TYPES))


def truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(len(text))] if text else text


def stray_character(rng: random.Random, text: str) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(STRAY) + text[at:]


def delete_span(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    return text[:at] + text[at + rng.randint(1, 12) :]


MUTATIONS: tuple[Mutation, ...] = (
    delete_line,
    duplicate_line,
    swap_lines,
    change_number,
    change_number,
    swap_op_name,
    swap_type,
    truncate,
    stray_character,
    stray_character,
    delete_span,
)


def mutate(rng: random.Random, text: str) -> tuple[str, tuple[str, ...]]:
    """`text` with one to three random mutations; the mutated text and their names."""
    names = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        mutation = rng.choice(MUTATIONS)
        text = mutation(rng, text)
        names.append(mutation.__name__)
    return text, tuple(names)
