"""What a tuning run shows and leaves behind: the live progress line, the final table, the
`best:` line, and the report folder (`trials.jsonl`, `history.png`, `knobs.png`,
`report.md`).

The progress display (rich, on stderr) shows candidates done against the budget, the best
time so far, the count of each outcome and the time spent compiling and measuring. The
final table holds the schedule as written (the default), the best candidate and the peer
library when there is one, with median times and ratios, then the failures grouped by
cause.
"""

from __future__ import annotations

import io
import json
import math
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from schedir.output import prepare_directory, write_output

# `schedir.autotune.space` (xDSL) is imported where it is used: the CLI imports this
# module before the run starts its zygote, which should start within a blink.

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from rich.console import Console
    from rich.live import Live

    from schedir.autotune import TuneResult
    from schedir.autotune.runner import Stats
    from schedir.autotune.store import Record

_FAILED = (
    "wrong-result",
    "crashed",
    "timed-out",
    "compile-error",
    "compile-timeout",
    "compile-crashed",
    "error",
)


class LiveProgress:
    """A rich live line on `stream` (stderr), refreshed by `update` (a `Progress`)."""

    def __init__(self, stream: IO[str]) -> None:
        from rich.console import Console

        self.console: Console = Console(file=stream, stderr=True)
        self._live: Live | None = None
        self._last = 0.0

    def __enter__(self) -> LiveProgress:
        from rich.live import Live
        from rich.text import Text

        self._live = Live(
            Text("tuning: starting"), console=self.console, refresh_per_second=4, transient=False
        )
        self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None

    def update(self, stats: Stats) -> None:
        from rich.text import Text

        now = time.monotonic()
        if self._live is None or now - self._last < 0.1:
            return
        self._last = now
        self._live.update(Text(progress_line(stats)))


def progress_line(stats: Stats) -> str:
    """`12/16 candidates, best 3.21 ms | verified 9, pruned 1, ... | compile 20.1 s, measure
    4.2 s, 2 waiting, 31 s` (waiting: compiled candidates not yet measured)."""
    budget = f"/{stats.budget}" if stats.budget is not None else ""
    best = f"{stats.best_ms:.4g} ms" if stats.best_ms is not None else "-"
    names = ("verified", "pruned", "compile-error", "crashed", "timed-out", "wrong-result")
    counts = ", ".join(f"{n} {stats.counts.get(n, 0)}" for n in names)
    elapsed = time.monotonic() - stats.started
    return (
        f"tuning: {stats.done}{budget} candidates, best {best} | {counts} | "
        f"compile {stats.compile_s:.1f} s, measure {stats.measure_s:.1f} s, "
        f"{stats.waiting} waiting, {elapsed:.0f} s"
    )


def failures(found: Sequence[Record]) -> dict[str, list[Record]]:
    """The failed and pruned candidates, by status."""
    grouped: dict[str, list[Record]] = {}
    for r in found:
        if r.duplicate_of is None and (r.status in _FAILED or r.status == "pruned"):
            grouped.setdefault(r.status, []).append(r)
    return grouped


def milliseconds(value: float | None, why: str) -> str:
    """`value` to 4 significant digits, or `why` when it is not a finite time (a printed
    time is a number or the reason there is none, never `nan` or `inf`)."""
    if value is None or not math.isfinite(value):
        return why
    return f"{value:.4g}"


def default_reason(result: TuneResult) -> str | None:
    """Why the schedule as written has no time (None when it has one): its knobs are not
    all selected, it never ran, or how it failed (status and the first line of the
    error)."""
    from schedir.autotune.runner import default_record
    from schedir.autotune.space import key

    point = result.space.default()
    if point is None:
        return "n/a: a knob has no selected value"
    if result.default_ms is not None and math.isfinite(result.default_ms):
        return None
    record = default_record(result.trials, key(point))
    if record is None:
        return "not measured: the search ended before it ran"
    if record.status == "verified":
        return "no finite time was measured"
    return f"{record.status}: {_cause(record)}"


def _speedup(result: TuneResult) -> str:
    """`1.23x` (the default's time over the best), or `n/a` (the table says why)."""
    if default_reason(result) is not None or result.default_ms is None:
        return "n/a"
    return f"{result.default_ms / result.best_ms:.2f}x"


def print_summary(result: TuneResult, console: Console) -> None:
    """The final table and the failure summary."""
    from rich.table import Table

    from schedir.autotune.space import describe

    table = Table(title=f"schedir-tune: {result.candidates} candidates ({result.strategy})")
    for column, justify in (
        ("", "left"),
        ("median ms", "right"),
        ("vs default", "right"),
        ("knobs", "left"),
    ):
        table.add_column(column, justify=justify)  # pyright: ignore[reportArgumentType]  # rich's justify literal
    why = default_reason(result)
    default = result.default_ms if why is None else None
    names = result.space.names

    def ratio(ms: float) -> str:
        return f"{default / ms:.2f}x" if default and ms > 0 and math.isfinite(ms) else "-"

    default_knobs = result.space.default()
    table.add_row(
        "default (as written)",
        milliseconds(default, why or "n/a"),
        "1.00x" if default is not None else "-",
        describe(default_knobs, names) if default_knobs else "(unresolved knobs)",
    )
    table.add_row(
        "best found",
        milliseconds(result.best_ms, "n/a"),
        ratio(result.best_ms),
        describe(result.knobs, names),
    )
    if result.peer is not None:
        table.add_row(
            result.peer.name,
            milliseconds(result.peer.ms, "no finite time"),
            ratio(result.peer.ms),
            "",
        )
    console.print(table)
    grouped = failures(result.trials)
    if grouped:
        console.print("failures by cause:")
        for status, group in sorted(grouped.items()):
            causes = Counter(_cause(r) for r in group)
            for cause, count in causes.most_common(5):
                console.print(f"  {status}: {count} x {cause}", markup=False, highlight=False)


def _cause(record: Record) -> str:
    """The first line of a record's error message, without its location prefix."""
    first = (record.message.strip().splitlines() or [record.error_class or "?"])[0]
    for marker in (": error: ", "error: "):
        if marker in first:
            first = first.split(marker, 1)[1]
            break
    return first[:160]


def best_line(result: TuneResult) -> str:
    """The last line of stdout: `best: <ms> ms (<x>x the default) knobs: <name>=<value>,...`."""
    from schedir.autotune.space import describe

    return (
        f"best: {result.best_ms:.4g} ms ({_speedup(result)} the default) knobs: "
        f"{describe(result.knobs, result.space.names)}"
    )


def write_report(result: TuneResult, folder: Path) -> None:
    """`trials.jsonl`, `history.png`, `knobs.png` and `report.md` under `folder`."""
    folder = prepare_directory(folder, "the report directory")
    write_output(
        folder / "trials.jsonl", "".join(json.dumps(r.as_json()) + "\n" for r in result.trials)
    )
    _plots(result, folder)
    write_output(folder / "report.md", report_markdown(result))


def report_markdown(result: TuneResult) -> str:
    """The text of `report.md`."""
    from schedir.autotune.space import describe

    lines = [
        "# schedir-tune report",
        "",
        f"- study: `{result.study_name}`, strategy {result.strategy}, {result.candidates} candidates",
        f"- best: {result.best_ms:.4g} ms, knobs `{describe(result.knobs, result.space.names)}`",
        f"- default: {_with_unit(result.default_ms, default_reason(result))}",
    ]
    if result.peer is not None:
        lines.append(f"- {result.peer.name}: {_with_unit(result.peer.ms, 'no finite time')}")
    grouped = failures(result.trials)
    if grouped:
        lines += ["", "## Failures", ""]
        for status, group in sorted(grouped.items()):
            lines.append(f"- {status}: {len(group)} (e.g. {_cause(group[0])})")
    lines += ["", "![history](history.png)", "", "![knobs](knobs.png)", ""]
    return "\n".join(lines)


def _with_unit(value: float | None, why: str | None) -> str:
    """`1.234 ms`, or the reason there is no time."""
    text = milliseconds(value, why or "no finite time")
    return f"{text} ms" if value is not None and math.isfinite(value) and why is None else text


def _save_figure(fig: Figure, path: Path) -> None:
    """A figure as PNG, written as every output file is (atomically, special files through)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    write_output(path, buffer.getvalue())


def _plots(result: TuneResult, folder: Path) -> None:
    import matplotlib

    from schedir.autotune.space import from_key

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    measured = [r for r in result.trials if r.duplicate_of is None and r.status != "invalid"]
    best: list[float] = []
    xs: list[int] = []
    current = float("inf")
    for index, r in enumerate(measured, 1):
        if r.status == "verified" and r.median_ms is not None:
            current = min(current, r.median_ms)
        if current < float("inf"):
            xs.append(index)
            best.append(current)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.step(xs, best, where="post")
    ax.set_xlabel("candidates")
    ax.set_ylabel("best median time (ms)")
    ax.set_title("best so far")
    fig.tight_layout()
    _save_figure(fig, folder / "history.png")
    plt.close(fig)

    verified = [r for r in measured if r.status == "verified" and r.median_ms is not None]
    names = result.space.names
    fig, axes = plt.subplots(
        1, max(1, len(names)), figsize=(3 * max(1, len(names)), 3), squeeze=False
    )
    for ax, name in zip(axes[0], names, strict=False):
        labels = [str(from_key(r.point).get(name)) for r in verified]
        order = sorted(set(labels), key=lambda s: (len(s), s))
        ax.scatter([order.index(v) for v in labels], [r.median_ms for r in verified], s=12)
        ax.set_xticks(range(len(order)))
        ax.set_xticklabels(order, rotation=45, fontsize=7)
        ax.set_title(name, fontsize=9)
    axes[0][0].set_ylabel("median time (ms)")
    fig.tight_layout()
    _save_figure(fig, folder / "knobs.png")
    plt.close(fig)


__all__ = [
    "LiveProgress",
    "best_line",
    "default_reason",
    "failures",
    "milliseconds",
    "print_summary",
    "progress_line",
    "report_markdown",
    "write_report",
]
