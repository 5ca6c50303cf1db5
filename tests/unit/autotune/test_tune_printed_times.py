"""Every time the tuner prints is a number or the reason there is none (never `nan` or
`inf`): the table, the `best:` line and `report.md`, for every way the schedule as
written can end (verified, failed in each way, never run, unresolved knobs, a
non-finite time), and a real run whose default gives wrong results."""

from __future__ import annotations

import io
import math
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from schedir.autotune import TuneResult
from schedir.autotune.peer import PeerTime
from schedir.autotune.report import best_line, default_reason, print_summary, report_markdown
from schedir.autotune.space import Space, key
from schedir.autotune.store import Record
from schedir.transform.knobs import Knob
from tests.unit.autotune import faults
from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE

SPACE = Space((Knob("tile_m", (4, 8, 16), 8), Knob("tile_n", (4, 7, 32), 4)))
DEFAULT = key({"tile_m": 8, "tile_n": 4})
BEST = key({"tile_m": 16, "tile_n": 32})
STATUSES = ("verified", "wrong-result", "crashed", "timed-out", "compile-error", "pruned")
ODD_TIMES = st.one_of(
    st.floats(min_value=1e-6, max_value=1e6),
    st.sampled_from([math.nan, math.inf, -math.inf, None]),
)


def _record(number: int, point: str, status: str, ms: float | None, message: str) -> Record:
    return Record(number, point, status, ms, (), 0.0, 0.1, "E", message, point == DEFAULT, None)


def _result(
    default_status: str | None,
    default_ms: float | None,
    peer_ms: float | None,
    space: Space = SPACE,
) -> TuneResult:
    trials = [_record(1, BEST, "verified", 1.5, "")]
    if default_status is not None:
        message = "" if default_status == "verified" else f"x.mlir:3:5: error: {default_status} why"
        trials.insert(0, _record(0, DEFAULT, default_status, default_ms, message))
    measured = default_ms if default_status == "verified" else None
    return TuneResult(
        {"tile_m": 16, "tile_n": 32},
        1.5,
        measured,
        trials,
        "",
        space,
        "tpe",
        "study",
        PeerTime("numpy (1 thread)", peer_ms) if peer_ms is not None else None,
    )


def _printed(result: TuneResult) -> str:
    out = io.StringIO()
    print_summary(result, Console(file=out, width=200))
    return "\n".join([out.getvalue(), best_line(result), report_markdown(result)])


@settings(max_examples=60, deadline=None)
@given(
    default_status=st.sampled_from((*STATUSES, None)),
    default_ms=ODD_TIMES,
    peer_ms=ODD_TIMES,
)
def test_every_printed_time_is_a_number_or_a_reason(
    default_status: str | None,
    default_ms: float | None,
    peer_ms: float | None,
) -> None:
    result = _result(default_status, default_ms, peer_ms)
    text = _printed(result)
    assert not re.search(r"\b(nan|inf)\b", text, re.IGNORECASE), text
    why = default_reason(result)
    finite = default_ms is not None and math.isfinite(default_ms)
    if default_status == "verified" and finite:
        assert why is None and f"{default_ms:.4g}" in text
    else:
        assert why is not None and why in text
        if default_status is None:
            assert "not measured" in why
        elif default_status != "verified":
            assert why == f"{default_status}: {default_status} why"
    assert best_line(result).startswith("best: 1.5 ms (")


def test_unresolved_default_says_so() -> None:
    space = Space((Knob("tile_m", (4, 8, 16), None), Knob("tile_n", (4, 7, 32), 4)))
    result = _result(None, None, None, space)
    assert default_reason(result) == "n/a: a knob has no selected value"
    assert "(unresolved knobs)" in _printed(result)


def test_a_default_with_wrong_results_says_why_in_the_table() -> None:
    # The default (tile_m=8, tile_n=4) gives wrong numbers; the others are right.
    from schedir.autotune import tune as search

    result = search(
        str(PAYLOAD),
        str(SCHEDULE),
        budget=3,
        strategy="random",
        compile_workers=2,
        peer=False,
        first_timeout=5.0,
        measure_hook=faults.wrong_default,
    )
    assert result.default_ms is None
    why = default_reason(result)
    assert why is not None and why.startswith("wrong-result: "), why
    out = io.StringIO()
    print_summary(result, Console(file=out, width=300))
    table = out.getvalue()
    row = next(line for line in table.splitlines() if "default (as written)" in line)
    assert "wrong-result" in row and "nan" not in table.lower()
    assert best_line(result).startswith(f"best: {result.best_ms:.4g} ms (n/a the default)")
