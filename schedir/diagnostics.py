"""schedir's error hierarchy and MLIR-style diagnostic rendering.

Every user-facing failure is a `SchedirError`. It carries a message, an optional source
`Location` and `Note`s, and renders the way mlir-opt does:

    payload.mlir:3:10: error: 'linalg.matmul' op dimension 1 of operand 0 (8) does not match ...
      %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<7x5xf32>) ...
           ^
    payload.mlir:1:1: note: ...

This module is a leaf: it imports nothing from schedir and nothing from xDSL, so every
layer (including `schedir.gpu`, which never imports xDSL) can raise these errors.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning", "remark", "note"]


@dataclass(frozen=True)
class Location:
    """A 1-based file:line:col position."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Note:
    """A secondary message attached to a diagnostic, optionally at its own location."""

    message: str
    location: Location | None = None


@dataclass(frozen=True)
class Diagnostic:
    """One emitted diagnostic: severity, message, location and notes."""

    severity: Severity
    message: str
    location: Location | None = None
    notes: tuple[Note, ...] = ()

    def render(self, sources: SourceManager | None = None) -> str:
        """Render as `file:line:col: severity: message`, the source line, a caret, notes."""
        parts = [_render_one(self.severity, self.message, self.location, sources)]
        parts.extend(_render_one("note", n.message, n.location, sources) for n in self.notes)
        return "\n".join(parts)


class SourceManager:
    """Texts of the files diagnostics may point into, for printing source lines."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._line_starts: dict[str, list[int]] = {}

    def add(self, name: str, text: str) -> None:
        self._texts[name] = text
        self._line_starts.pop(name, None)

    def text(self, name: str) -> str | None:
        return self._texts.get(name)

    def line_starts(self, name: str) -> list[int]:
        """Offsets at which each line of `name` starts (0-based)."""
        starts = self._line_starts.get(name)
        if starts is None:
            text = self._texts.get(name, "")
            starts = [0]
            starts.extend(i + 1 for i, ch in enumerate(text) if ch == "\n")
            self._line_starts[name] = starts
        return starts

    def line(self, name: str, line: int) -> str | None:
        """The text of 1-based `line` of `name`, without its newline."""
        text = self._texts.get(name)
        if text is None:
            return None
        starts = self.line_starts(name)
        if not 1 <= line <= len(starts):
            return None
        begin = starts[line - 1]
        end = text.find("\n", begin)
        return text[begin : end if end >= 0 else len(text)]

    def location_of_offset(self, name: str, offset: int) -> Location:
        """The 1-based location of character `offset` in `name`."""
        starts = self.line_starts(name)
        index = bisect.bisect_right(starts, offset) - 1
        return Location(name, index + 1, offset - starts[index] + 1)


def _render_one(
    severity: str, message: str, location: Location | None, sources: SourceManager | None
) -> str:
    if location is None:
        return f"{severity}: {message}"
    head = f"{location}: {severity}: {message}"
    source_line = sources.line(location.file, location.line) if sources else None
    if source_line is None:
        return head
    # MLIR prints the source line as written and a caret under the column; tabs are kept so
    # the caret lines up in a terminal.
    prefix = "".join(c if c == "\t" else " " for c in source_line[: max(location.col - 1, 0)])
    return f"{head}\n{source_line}\n{prefix}^"


class SchedirError(Exception):
    """A user-facing error that renders as an MLIR-style diagnostic."""

    severity: Severity = "error"

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.notes: tuple[Note, ...] = tuple(notes)

    @property
    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.severity, self.message, self.location, self.notes)

    def diagnostics(self) -> Sequence[Diagnostic]:
        """Every diagnostic this error stands for (one for most errors)."""
        return (self.diagnostic,)

    def render(self, sources: SourceManager | None = None) -> str:
        return "\n".join(d.render(sources) for d in self.diagnostics())

    def __str__(self) -> str:
        return self.render()


class ParseError(SchedirError):
    """The input is not well-formed MLIR (syntax, unknown op, undefined value, ...)."""


class VerifyError(SchedirError):
    """The IR parsed but an op's verifier rejects it."""


class TransformError(SchedirError):
    """A transform op failed; `silenceable` failures may be suppressed or retried.

    `transform_location` is the transform op, `payload_location` (as a note) the payload op.
    """

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
        *,
        silenceable: bool = False,
    ) -> None:
        super().__init__(message, location, notes)
        self.silenceable = silenceable
        self.escalated = False
        """A silenceable failure that reached the entry point, reported as an error there
        (the schedule does not apply to this payload: the autotuner prunes the point)."""


class LoweringError(SchedirError):
    """A lowering pass could not convert valid IR (a compiler limitation or bug)."""


class UnsupportedError(SchedirError):
    """Valid input that schedir does not support (yet); says what is unsupported."""


class InputError(SchedirError):
    """Bad command-line arguments, unreadable files, or arrays that do not match the entry."""


class ToolError(SchedirError):
    """An external tool (llvmlite, ptxas, the CUDA driver) failed; carries its log and a repro."""

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
        *,
        log: str = "",
        repro: str = "",
    ) -> None:
        notes = tuple(notes)
        if log:
            notes += (Note(f"tool output:\n{log.rstrip()}"),)
        if repro:
            notes += (Note(f"repro: {repro}"),)
        super().__init__(message, location, notes)
        self.log = log
        self.repro = repro


class InternalCompilerError(SchedirError):
    """schedir or a library it drives (LLVM) failed on input it should handle: a bug.

    `stage` names the compile step that failed (e.g. "llvm-ir -> object"), `signal` the
    signal that ended the process it ran in (None for a timeout), `log` what it printed;
    a note says where the input of the step was saved to reproduce it.
    """

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
        *,
        stage: str = "",
        signal: int | None = None,
        log: str = "",
    ) -> None:
        super().__init__(message, location, notes)
        self.stage = stage
        self.signal = signal
        self.log = log


class KernelFault(SchedirError):
    """A compiled kernel failed while running: it was killed by a signal (`KernelCrash`),
    ran past its time limit (`KernelTimeout`), or failed a runtime check
    (`RuntimeVerificationError`)."""


class KernelCrash(KernelFault):
    """The kernel's process was killed by `signal` (SIGSEGV, SIGFPE, ...)."""

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
        *,
        signal: int = 0,
    ) -> None:
        super().__init__(message, location, notes)
        self.signal = signal


class KernelTimeout(KernelFault):
    """The kernel ran longer than the time it was given and was killed."""

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Iterable[Note] = (),
        *,
        seconds: float = 0.0,
    ) -> None:
        super().__init__(message, location, notes)
        self.seconds = seconds


class RuntimeVerificationError(KernelFault):
    """A check of `--runtime-verification` failed; located at the payload op it guards."""


class MultipleErrors(SchedirError):
    """Several independent errors reported together; renders each in order."""

    def __init__(self, errors: Sequence[SchedirError]) -> None:
        first = errors[0]
        super().__init__(first.message, first.location, first.notes)
        self.errors = tuple(errors)

    def diagnostics(self) -> Sequence[Diagnostic]:
        return tuple(d for e in self.errors for d in e.diagnostics())


_EXPECTED = re.compile(
    r"expected-(?P<severity>error|warning|remark|note)(?P<regex>-re)?"
    r"\s*(?:@(?P<where>above|below|[+-]\d+))?\s*\{\{(?P<text>.*)\}\}"
)


@dataclass
class ExpectedDiagnostic:
    """One `// expected-error @below {{text}}` annotation of a test file."""

    severity: str
    text: str
    is_regex: bool
    line: int
    location: Location
    matched: bool = False

    def matches(self, diag: Diagnostic) -> bool:
        if diag.location is None or diag.location.line != self.line:
            return False
        if diag.severity != self.severity:
            return False
        if self.is_regex:
            return re.search(_mlir_regex(self.text), diag.message) is not None
        return self.text in diag.message


def _mlir_regex(text: str) -> str:
    """An `expected-*-re` text: literal except `{{regex}}` parts, as in MLIR."""
    out: list[str] = []
    for i, part in enumerate(re.split(r"\{\{|\}\}", text)):
        out.append(part if i % 2 else re.escape(part))
    return "".join(out)


def parse_expected_diagnostics(
    text: str, file: str, first_line: int = 1
) -> list[ExpectedDiagnostic]:
    """The expected-* annotations of `text`, whose first line is line `first_line` of `file`.

    As in MLIR, `@below` refers to the next line that is not itself an annotation, so
    several stacked `@below` annotations all expect diagnostics on the same line.
    """
    expected: list[ExpectedDiagnostic] = []
    pending_below: list[ExpectedDiagnostic] = []
    for index, source in enumerate(text.split("\n")):
        line = first_line + index
        match = _EXPECTED.search(source)
        if match is None:
            for exp in pending_below:
                exp.line = line
            pending_below.clear()
            continue
        where = match["where"]
        exp = ExpectedDiagnostic(
            match["severity"],
            match["text"],
            match["regex"] is not None,
            line,
            Location(file, line, match.start() + 1),
        )
        if where == "above":
            exp.line = line - 1
        elif where == "below":
            pending_below.append(exp)
        elif where is not None:
            exp.line = line + int(where)
        expected.append(exp)
    return expected


def check_expected_diagnostics(
    expected: list[ExpectedDiagnostic], emitted: Iterable[Diagnostic]
) -> list[Diagnostic]:
    """MLIR's -verify-diagnostics: errors for every unexpected or missing diagnostic.

    Notes count as diagnostics of their own when they have a location; notes without one
    (hints such as a list of valid names) are not checked, as MLIR does for unknown locations.
    """
    problems: list[Diagnostic] = []
    flat: list[Diagnostic] = []
    for diag in emitted:
        flat.append(Diagnostic(diag.severity, diag.message, diag.location))
        flat.extend(Diagnostic("note", n.message, n.location) for n in diag.notes if n.location)
    for diag in flat:
        for exp in expected:
            if not exp.matched and exp.matches(diag):
                exp.matched = True
                break
        else:
            if diag.location is None and diag.severity == "note":
                continue
            problems.append(
                Diagnostic("error", f"unexpected {diag.severity}: {diag.message}", diag.location)
            )
    for exp in expected:
        if not exp.matched:
            problems.append(
                Diagnostic(
                    "error", f'expected {exp.severity} "{exp.text}" was not produced', exp.location
                )
            )
    return problems
