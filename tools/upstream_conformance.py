"""Run upstream MLIR's own lit tests through `schedir-opt` and `iree-opt` and compare.

    python tools/upstream_conformance.py DIR [--schedir-opt CMD] [--iree-opt PATH]
                                             [--jobs N] [--timeout S] [--json OUT]

DIR holds lit test files (`*.mlir`, searched recursively) as upstream writes them: the
Transform-dialect tests of llvm-project's `mlir/test/Dialect/*` (`transform-op-*.mlir`,
`transform-ops*.mlir`, `GPU/transform-gpu*.mlir`, ...). They are upstream's files, not the
project's: keep them outside this repository.

Each `// RUN:` line is one run; a run of `mlir-opt` with `-split-input-file` is split at
`// -----` lines and every split is a case of its own (one process per split, so a crash
or a hang costs one case). A case is run

- through schedir-opt, with the RUN line's options translated (`-transform-interpreter`
  applies the schedule, `=entry-point=NAME` picks the entry; without it the schedule is
  left alone; `-verify-diagnostics`, `-allow-unregistered-dialect` and the `-mlir-*`
  printing flags pass through; every other `-flag[=options]` is a pass and runs after
  the schedule, in the order written, as `-p` does; `-pass-pipeline=...` too);
- through iree-opt (upstream's interpreter) with the RUN line's options as written;

and the output of each is checked with the Python `filecheck` against the split's own
CHECK lines (the RUN line's `FileCheck` options: `--check-prefix(es)`, ...). A case
passes when the tool's exit status is the expected one (0, or not 0 under `not`) and
its output passes FileCheck. The split is written with blank lines in front of it, so
diagnostics keep the line numbers of the whole file.

The report gives per file and in total: cases, iree-opt passes, schedir passes, schedir
passes among iree-opt's (the conformance metric), crashes (a traceback, an internal
compiler error or a signal) and hangs (the timeout), then schedir's failure classes on
iree-opt's passing cases (missing op, parse error, diagnostic mismatch, CHECK mismatch,
unsupported option, ...) and the ops most often missing.

Without `--schedir-opt`, schedir runs in worker processes that import the compiler once
(`python tools/upstream_conformance.py --worker`): schedir-opt's start-up dominates a
split otherwise. A worker that passes the timeout is killed and replaced.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

SPLIT_MARKER = re.compile(r"^\s*// -----\s*$")
RUN_LINE = re.compile(r"^\s*//\s*RUN:\s?(.*)$")
CHECK_SUFFIXES = r"(?:-NEXT|-SAME|-DAG|-NOT|-LABEL|-EMPTY|-COUNT-\d+)?"

INTERPRETER_FLAGS = ("transform-interpreter", "test-transform-dialect-interpreter")
PASS_THROUGH_FLAGS = ("verify-diagnostics", "allow-unregistered-dialect")
"""mlir-opt flags schedir-opt takes as they are (as `--flag`); `-mlir-*` flags too."""
PIPELINE_FLAGS = ("pass-pipeline", "p")

FILECHECK_VALUE_FLAGS = ("check-prefix", "check-prefixes", "input-file", "comment-prefixes")
FILECHECK_BOOL_FLAGS = (
    "strict-whitespace",
    "match-full-lines",
    "enable-var-scope",
    "reject-empty-vars",
)
"""FileCheck options the Python filecheck knows; the others (`--dump-input`,
`--allow-unused-prefixes`, `-D...`) are dropped."""


# --- RUN lines --------------------------------------------------------------------------


@dataclass(frozen=True)
class RunLine:
    """One `// RUN:` command of a test file, taken apart."""

    text: str
    tool: str
    """The tool of the first stage (`mlir-opt` for the runs this harness can replay)."""
    tool_args: tuple[str, ...]
    expect_failure: bool
    """The command starts with `not`: the tool must exit with a non-zero status."""
    merge_stderr: bool
    """`2>&1`: FileCheck reads the tool's stderr too."""
    filecheck_args: tuple[str, ...] | None
    """The options of the FileCheck stage (`%s` included), or None without FileCheck."""

    @property
    def split_input(self) -> bool:
        return any(_flag_name(a) == "split-input-file" for a in self.tool_args)

    @property
    def check_prefixes(self) -> tuple[str, ...]:
        if self.filecheck_args is None:
            return ()
        prefixes: list[str] = []
        args = list(self.filecheck_args)
        for index, arg in enumerate(args):
            name, _, value = _flag_name(arg), *arg.partition("=")[1:]
            if name in ("check-prefix", "check-prefixes"):
                if not value and index + 1 < len(args):
                    value = args[index + 1]
                prefixes += [p for p in value.split(",") if p]
        return tuple(prefixes) or ("CHECK",)


def _flag_name(arg: str) -> str:
    """`--check-prefix=X` -> `check-prefix`; not a flag -> ''."""
    if not arg.startswith("-") or arg == "-":
        return ""
    return arg.lstrip("-").partition("=")[0]


def run_lines(text: str) -> list[RunLine]:
    """The RUN commands of a lit file (continuation lines ending in `\\` joined)."""
    commands: list[str] = []
    pending = ""
    for line in text.splitlines():
        match = RUN_LINE.match(line)
        if match is None:
            continue
        part = match.group(1).rstrip()
        if part.endswith("\\"):
            pending += part[:-1] + " "
            continue
        commands.append(pending + part)
        pending = ""
    if pending:
        commands.append(pending)
    return [parse_run(command) for command in commands]


def parse_run(command: str) -> RunLine:
    """Take one RUN command apart into the tool stage and the FileCheck stage."""
    stages = [s.strip() for s in command.split("|")]
    words = shlex.split(stages[0])
    expect_failure = bool(words) and words[0] == "not"
    if expect_failure:
        words = words[1:]
    merge_stderr = "2>&1" in words
    words = [w for w in words if w != "2>&1"]
    tool = words[0] if words else ""
    filecheck_args: tuple[str, ...] | None = None
    for stage in stages[1:]:
        stage_words = shlex.split(stage)
        if stage_words and stage_words[0] == "FileCheck":
            filecheck_args = tuple(stage_words[1:])
    return RunLine(command, tool, tuple(words[1:]), expect_failure, merge_stderr, filecheck_args)


# --- splits and option translation ------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """A chunk of a test file, with the line it starts on (1-based)."""

    index: int
    first_line: int
    text: str

    def padded(self) -> str:
        """The chunk behind blank lines, so that its lines keep their numbers."""
        return "\n" * (self.first_line - 1) + self.text


def split_file(text: str, split: bool) -> list[Split]:
    """The `// -----` chunks of a file (the whole file when `split` is false)."""
    if not split:
        return [Split(0, 1, text)]
    chunks: list[Split] = []
    lines = text.splitlines(keepends=True)
    start = 0
    for number, line in enumerate(lines):
        if SPLIT_MARKER.match(line):
            chunks.append(Split(len(chunks), start + 1, "".join(lines[start:number])))
            start = number + 1
    chunks.append(Split(len(chunks), start + 1, "".join(lines[start:])))
    return chunks


@dataclass(frozen=True)
class Translation:
    """schedir-opt's arguments for a RUN line, or why it cannot be replayed."""

    args: tuple[str, ...]
    unsupported: str | None = None


def schedir_args(run: RunLine) -> Translation:
    """Translate mlir-opt's options into schedir-opt's (the input file left out)."""
    args: list[str] = []
    passes: list[str] = []
    interpreter = False
    words = list(run.tool_args)
    index = 0
    while index < len(words):
        arg = words[index]
        index += 1
        if arg == "%s" or not arg.startswith("-"):
            continue
        name = _flag_name(arg)
        value = arg.partition("=")[2]
        if name in INTERPRETER_FLAGS:
            interpreter = True
            options = _pass_options(value)
            for key, option in options.items():
                if key == "entry-point":
                    args += ["--entry-point", option]
                else:
                    return Translation((), f"interpreter option '{key}'")
        elif name == "split-input-file":
            continue
        elif name in PASS_THROUGH_FLAGS or name.startswith("mlir-"):
            args.append(f"--{name}" + (f"={value}" if value else ""))
        elif name in PIPELINE_FLAGS:
            if not value and index < len(words):
                value = words[index]
                index += 1
            passes.append(value)
        elif name in ("o",):
            index += 1  # an output file: the harness reads stdout
        else:
            passes.append(name + (f"{{{value}}}" if value else ""))
    if not interpreter:
        args.append("--no-schedule")
    if passes:
        args += ["-p", ",".join(passes)]
    return Translation(tuple(args))


def _pass_options(value: str) -> dict[str, str]:
    """`entry-point=foo debug=1` (quotes and braces stripped) as a mapping."""
    value = value.strip().strip("\"'{}")
    options: dict[str, str] = {}
    for item in value.split():
        key, _, option = item.partition("=")
        options[key] = option
    return options


def iree_args(run: RunLine) -> tuple[str, ...]:
    """iree-opt's arguments: the RUN line's own, less the split (the harness splits)."""
    return tuple(a for a in run.tool_args if a != "%s" and _flag_name(a) != "split-input-file")


def filecheck_args(run: RunLine, check_file: str) -> list[str]:
    """The Python filecheck's arguments for the RUN line's FileCheck stage."""
    out = [check_file]
    words = list(run.filecheck_args or ())
    index = 0
    while index < len(words):
        arg = words[index]
        index += 1
        name = _flag_name(arg)
        value = arg.partition("=")[2]
        if name in FILECHECK_VALUE_FLAGS:
            if not value and index < len(words):
                value = words[index]
                index += 1
            if name in ("check-prefix", "check-prefixes"):
                for prefix in value.split(","):
                    out += ["--check-prefix", prefix]
            elif name != "input-file":
                out += [f"--{name}", value]
        elif name in FILECHECK_BOOL_FLAGS:
            out.append(f"--{name}")
    return out


def has_checks(text: str, prefixes: Iterable[str]) -> bool:
    """Whether `text` holds a check line of one of `prefixes`."""
    return any(re.search(rf"\b{re.escape(prefix)}{CHECK_SUFFIXES}:", text) for prefix in prefixes)


# --- running ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolResult:
    """What one invocation of a tool did."""

    returncode: int | None
    """None when it ran into the timeout."""
    stdout: str
    stderr: str


class WorkerPool:
    """schedir-opt in long-lived worker processes (one per job): no start-up per split."""

    def __init__(self, jobs: int) -> None:
        self._free: list[subprocess.Popen[str]] = []
        self._lock = threading.Lock()
        self._jobs = jobs

    def _spawn(self) -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, argv: Sequence[str], timeout: float) -> ToolResult:
        with self._lock:
            worker = self._free.pop() if self._free else self._spawn()
        assert worker.stdin is not None and worker.stdout is not None
        answer: list[str] = []

        def read() -> None:
            assert worker.stdout is not None
            answer.append(worker.stdout.readline())

        worker.stdin.write(json.dumps(list(argv)) + "\n")
        worker.stdin.flush()
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if reader.is_alive() or not answer or not answer[0]:
            hung = reader.is_alive()
            worker.kill()
            worker.wait()
            return ToolResult(None if hung else -9, "", "" if hung else "worker died")
        with self._lock:
            self._free.append(worker)
        record = json.loads(answer[0])
        return ToolResult(record["rc"], record["stdout"], record["stderr"])

    def close(self) -> None:
        for worker in self._free:
            worker.kill()
            worker.wait()


def worker_main() -> int:
    """Answer schedir-opt requests (a JSON argv per line) with JSON results, in-process."""
    from schedir.cli import opt_main

    for line in sys.stdin:
        argv = json.loads(line)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = opt_main(argv)
            except SystemExit as exit_:
                rc = exit_.code if isinstance(exit_.code, int) else 1
            except BaseException as exc:  # the worker must answer whatever happens
                print(f"Traceback: {type(exc).__name__}: {exc}", file=sys.stderr)
                rc = 1
        sys.stdout.write(
            json.dumps({"rc": rc, "stdout": out.getvalue(), "stderr": err.getvalue()}) + "\n"
        )
        sys.stdout.flush()
    return 0


def run_command(argv: Sequence[str], timeout: float) -> ToolResult:
    """Run a tool; a timeout gives returncode None."""
    try:
        done = subprocess.run(
            list(argv), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return ToolResult(None, "", "")
    except OSError as err:
        return ToolResult(127, "", f"error: cannot run {argv[0]}: {err.strerror}")
    return ToolResult(done.returncode, done.stdout, done.stderr)


def run_filecheck(args: Sequence[str], text: str, timeout: float) -> tuple[bool, str]:
    """FileCheck `text`; (passed, its message)."""
    filecheck = shutil.which("filecheck") or "filecheck"
    try:
        done = subprocess.run(
            [filecheck, *args],
            input=text,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False, "filecheck timed out"
    return done.returncode == 0, (done.stdout + done.stderr).strip()


# --- outcomes ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """How one tool fared on one case."""

    passed: bool
    failure: str = ""
    """The failure class (empty when passed)."""
    detail: str = ""
    """The first error line, or FileCheck's first complaint."""
    missing_op: str = ""


@dataclass
class Case:
    """One split of one RUN line of one file, and how each tool fared."""

    file: str
    run: int
    split: int
    line: int
    schedir: Outcome | None = None
    iree: Outcome | None = None
    notes: list[str] = field(default_factory=list)


MISSING_OP = (
    re.compile(r"custom op '([\w.]+)' is unknown"),
    re.compile(r"'([\w.]+)' is not implemented yet"),
    re.compile(r"'([\w.]+)' is not supported by schedir"),
    re.compile(r"unregistered operation '([\w.]+)'"),
    re.compile(r"[Oo]peration '?([\w.]+)'? is not registered"),
    re.compile(r"unknown operation '?([\w.]+)"),
)
CRASH = re.compile(r"internal compiler error|Traceback|Stack dump|LLVM ERROR|Assertion .* failed")
DIAGNOSTIC_MISMATCH = re.compile(
    r"was not produced|unexpected (error|warning|remark|note):|expected-\w+ .*(not|never)"
)
UNSUPPORTED_OPTION = re.compile(
    r"unrecognized arguments|Unknown command line argument|unknown pass|"
    r"invalid pass pipeline|interpreter option"
)
PARSE_ERROR = re.compile(
    r"error: (expected |Expected |unexpected token|unknown (type|attribute|keyword)|"
    r"undefined |use of undeclared|custom op )"
)
ERROR_LINE = re.compile(r"(?:^|: )error: (.*)$", re.MULTILINE)


def first_error(stderr: str) -> str:
    """The first error message in a tool's stderr, without its location."""
    match = ERROR_LINE.search(stderr)
    if match is None:
        lines = [line for line in stderr.splitlines() if line.strip()]
        return lines[0].strip() if lines else ""
    message = match.group(1).strip()
    return message.removeprefix("unexpected error: ")


def classify(result: ToolResult, expect_failure: bool, check: tuple[bool, str] | None) -> Outcome:
    """The outcome of a case from the tool's result and FileCheck's verdict."""
    if result.returncode is None:
        return Outcome(False, "hang", "timed out")
    stderr = result.stderr
    if result.returncode < 0 or CRASH.search(stderr):
        crash = CRASH.search(stderr)
        return Outcome(False, "crash", crash.group(0) if crash else f"signal {-result.returncode}")
    failed_run = result.returncode != 0
    if failed_run == expect_failure:
        if check is None or check[0]:
            return Outcome(True)
        return Outcome(False, "CHECK mismatch", check[1].splitlines()[0] if check[1] else "")
    detail = first_error(stderr)
    if not failed_run:
        return Outcome(False, "expected failure not reported", "")
    for pattern in MISSING_OP:
        if (match := pattern.search(stderr)) is not None:
            return Outcome(False, "missing op", detail, match.group(1))
    if UNSUPPORTED_OPTION.search(stderr):
        return Outcome(False, "unsupported option", detail)
    if DIAGNOSTIC_MISMATCH.search(stderr):
        return Outcome(False, "diagnostic mismatch", detail)
    if PARSE_ERROR.search(stderr):
        return Outcome(False, "parse error", detail)
    return Outcome(False, "other error", detail)


# --- the driver -------------------------------------------------------------------------


@dataclass(frozen=True)
class Tools:
    """How to run each tool."""

    schedir: list[str] | None
    """schedir-opt's command, or None for the in-process workers."""
    iree: str | None
    timeout: float
    pool: WorkerPool | None = None


def run_case(case: Case, run: RunLine, split: Split, tools: Tools, scratch: Path) -> Case:
    """Run one split through both tools and check their outputs."""
    path = scratch / f"{Path(case.file).stem}.run{case.run}.split{split.index}.mlir"
    path.write_text(split.padded(), encoding="utf-8")
    prefixes = run.check_prefixes
    check_args = (
        filecheck_args(run, str(path))
        if run.filecheck_args is not None and has_checks(split.text, prefixes)
        else None
    )

    def judge(result: ToolResult) -> Outcome:
        check = None
        if check_args is not None and result.returncode == 0 and not run.expect_failure:
            text = result.stdout + (result.stderr if run.merge_stderr else "")
            check = run_filecheck(check_args, text, tools.timeout)
        return classify(result, run.expect_failure, check)

    translation = schedir_args(run)
    if translation.unsupported is not None:
        case.schedir = Outcome(False, "unsupported option", translation.unsupported)
    else:
        argv = [*translation.args, str(path)]
        if tools.schedir is None:
            assert tools.pool is not None
            result = tools.pool.run(argv, tools.timeout)
        else:
            result = run_command([*tools.schedir, *argv], tools.timeout)
        case.schedir = judge(result)
    if tools.iree is not None:
        result = run_command([tools.iree, *iree_args(run), str(path)], tools.timeout)
        case.iree = judge(result)
    return case


def collect_cases(root: Path) -> list[tuple[Case, RunLine, Split]]:
    """Every (case, RUN line, split) of the `.mlir` files under `root`."""
    work: list[tuple[Case, RunLine, Split]] = []
    for file in sorted(root.rglob("*.mlir")):
        text = file.read_text(encoding="utf-8")
        name = str(file.relative_to(root))
        for run_index, run in enumerate(run_lines(text)):
            if run.tool != "mlir-opt":
                continue
            for split in split_file(text, run.split_input):
                work.append((Case(name, run_index, split.index, split.first_line), run, split))
    return work


@dataclass
class Tally:
    """Counts of one file (or of all)."""

    cases: int = 0
    iree: int = 0
    schedir: int = 0
    both: int = 0
    crashes: int = 0
    hangs: int = 0

    def add(self, case: Case) -> None:
        self.cases += 1
        iree_ok = case.iree is not None and case.iree.passed
        schedir_ok = case.schedir is not None and case.schedir.passed
        self.iree += iree_ok
        self.schedir += schedir_ok
        self.both += iree_ok and schedir_ok
        if case.schedir is not None:
            self.crashes += case.schedir.failure == "crash"
            self.hangs += case.schedir.failure == "hang"

    def percent(self) -> str:
        return f"{100 * self.both / self.iree:.0f}%" if self.iree else "-"


def report(cases: Sequence[Case], with_iree: bool) -> str:
    """The table per file and in total, then the failure classes and missing ops."""
    per_file: dict[str, Tally] = {}
    total = Tally()
    for case in cases:
        per_file.setdefault(case.file, Tally()).add(case)
        total.add(case)
    width = max([len(f) for f in per_file] + [5])
    head = f"{'file':<{width}}  cases  iree  schedir  both     %  crash  hang"
    lines = [head, "-" * len(head)]
    for name, tally in per_file.items():
        lines.append(_row(name, tally, width))
    lines.append("-" * len(head))
    lines.append(_row("total", total, width))
    lines.append(f"files: {len(per_file)}")
    relevant = [
        c
        for c in cases
        if c.schedir is not None
        and not c.schedir.passed
        and (not with_iree or (c.iree is not None and c.iree.passed))
    ]
    where = "on the cases iree-opt passes" if with_iree else "on all cases"
    lines.append("")
    lines.append(f"schedir failure classes {where}:")
    for failure, count in Counter(c.schedir.failure for c in relevant if c.schedir).most_common():
        lines.append(f"  {count:4d}  {failure}")
    missing = Counter(c.schedir.missing_op for c in relevant if c.schedir and c.schedir.missing_op)
    if missing:
        lines.append("")
        lines.append(f"missing ops {where}:")
        for op, count in missing.most_common():
            lines.append(f"  {count:4d}  {op}")
    details = Counter(
        f"[{c.schedir.failure}] {c.schedir.detail[:110]}"
        for c in relevant
        if c.schedir and c.schedir.failure != "missing op"
    )
    if details:
        lines.append("")
        lines.append(f"most frequent other failures {where}:")
        for detail, count in details.most_common(25):
            lines.append(f"  {count:4d}  {detail}")
    return "\n".join(lines) + "\n"


def _row(name: str, t: Tally, width: int) -> str:
    return (
        f"{name:<{width}}  {t.cases:5d}  {t.iree:4d}  {t.schedir:7d}  {t.both:4d}"
        f"  {t.percent():>4}  {t.crashes:5d}  {t.hangs:4d}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="upstream_conformance.py",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="The test files come from llvm-project's mlir/test/Dialect/* "
        "(transform-op-*.mlir and friends); keep them outside this repository.",
    )
    parser.add_argument("dir", type=Path, help="directory of upstream lit test files")
    parser.add_argument(
        "--schedir-opt",
        metavar="CMD",
        help="command running schedir-opt (default: in-process workers of this Python)",
    )
    parser.add_argument(
        "--iree-opt",
        metavar="PATH",
        default=shutil.which("iree-opt"),
        help="upstream's opt tool (default: iree-opt on PATH; 'none' to skip)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per tool run (default 120)"
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write every case as JSON")
    parser.add_argument(
        "--filter",
        metavar="TEXT",
        action="append",
        help="only files whose path contains TEXT (repeatable: any of them)",
    )
    args = parser.parse_args(argv)
    if not args.dir.is_dir():
        parser.error(f"'{args.dir}' is not a directory")
    iree = None if args.iree_opt in (None, "none") else args.iree_opt
    work = collect_cases(args.dir)
    if args.filter:
        work = [w for w in work if any(text in w[0].file for text in args.filter)]
    pool = WorkerPool(args.jobs) if args.schedir_opt is None else None
    tools = Tools(
        shlex.split(args.schedir_opt) if args.schedir_opt else None, iree, args.timeout, pool
    )
    with tempfile.TemporaryDirectory(prefix="conformance-") as tmp:
        scratch = Path(tmp)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as executor:
            cases = list(executor.map(lambda w: run_case(w[0], w[1], w[2], tools, scratch), work))
    if pool is not None:
        pool.close()
    sys.stdout.write(report(cases, iree is not None))
    if args.json:
        records = [asdict(c) for c in cases]
        args.json.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        # The worker runs the schedir of the checkout this tool belongs to.
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        sys.exit(worker_main())
    sys.exit(main())
