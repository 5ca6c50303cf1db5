"""`schedir-opt` and `schedir-run`: the command-line tools (DESIGN.md fixes their contracts).

This is the only module that reads argv and the environment. Every error is printed as an
MLIR-style diagnostic and the exit status is 1; a Python traceback is printed only when
SCHEDIR_DEBUG=1 is set and the error is an internal one.

The compiler (xDSL, llvmlite) and numpy are imported inside the tool functions, so that
importing this module (the console scripts do) loads none of them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import signal
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from schedir.diagnostics import (
    Diagnostic,
    InputError,
    Note,
    SchedirError,
    SourceManager,
    check_expected_diagnostics,
    parse_expected_diagnostics,
)
from schedir.options import TARGETS, CompileOptions
from schedir.output import check_output, prepare_directory, write_output

SPLIT_MARKER = "// -----"


class _ArgumentParser(argparse.ArgumentParser):
    """argparse that reports bad arguments as a schedir error (exit 1), not exit 2."""

    def error(self, message: str) -> NoReturn:
        raise InputError(
            f"{self.prog}: {message}", notes=(Note(f"usage: {self.format_usage().strip()[7:]}"),)
        )


# ---------------------------------------------------------------------------------------
# shared plumbing


def _read_input(path: str, sources: SourceManager) -> tuple[str, str]:
    """(display name, text) of an input file, or of stdin for '-'."""
    if path == "-":
        text = sys.stdin.read()
        name = "<stdin>"
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(f"could not open input file '{path}': no such file") from None
        except IsADirectoryError:
            raise InputError(f"could not open input file '{path}': is a directory") from None
        except UnicodeDecodeError:
            raise InputError(f"could not read input file '{path}': not UTF-8 text") from None
        except OSError as err:
            raise InputError(f"could not open input file '{path}': {err.strerror}") from None
        name = path
    sources.add(name, text)
    return name, text


def split_input(text: str) -> list[tuple[int, str]]:
    """Chunks of a `--split-input-file` input as (character offset in `text`, chunk text).

    Chunks are separated by lines holding `// -----`; a chunk keeps its place in the file so
    diagnostics point at lines of the whole file, as mlir-opt reports them.
    """
    chunks: list[tuple[int, str]] = []
    start = 0
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() == SPLIT_MARKER:
            chunks.append((start, text[start:offset]))
            start = offset + len(line)
        offset += len(line)
    chunks.append((start, text[start:]))
    return chunks


def _report(diags: Sequence[Diagnostic], sources: SourceManager) -> None:
    for diag in diags:
        print(diag.render(sources), file=sys.stderr)


def _guarded(main: Callable[[list[str] | None, SourceManager], int], argv: list[str] | None) -> int:
    """Run a tool's main: diagnostics for every error, exit status 0 or 1, no traceback."""
    sources = SourceManager()
    try:
        return main(argv, sources)
    except SchedirError as err:
        _report(err.diagnostics(), sources)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 1
    except RecursionError:
        print("error: input nests too deeply to process", file=sys.stderr)
        return 1
    except MemoryError as err:
        # Sizes are the user's (a payload's shapes, its inputs): too large is not a bug.
        detail = f": {err}" if str(err) else ""
        print(f"error: out of memory{detail}", file=sys.stderr)
        return 1
    except Exception as err:  # an internal error: report it like any other, never a traceback
        from schedir.autotune.interrupts import interrupted_by

        if interrupted_by(err):
            # Raised by a library's clean-up while an interruption unwound: it is the interruption.
            print("error: interrupted", file=sys.stderr)
            return 1
        if os.environ.get("SCHEDIR_DEBUG") == "1":
            traceback.print_exc()
        print(f"error: internal compiler error: {type(err).__name__}: {err}", file=sys.stderr)
        print(
            "note: this is a bug in schedir; rerun with SCHEDIR_DEBUG=1 for a traceback",
            file=sys.stderr,
        )
        return 1


# ---------------------------------------------------------------------------------------
# schedir-opt


@dataclass(frozen=True)
class _ChunkResult:
    output: str | bytes | None
    diagnostics: tuple[Diagnostic, ...]


def _opt_parser() -> _ArgumentParser:
    from schedir.pipeline import EMIT_CHOICES  # deferred: the stage table comes with xDSL

    p = _ArgumentParser(
        prog="schedir-opt",
        description="Apply a transform schedule and passes to an MLIR file and print the result.",
        epilog="Long options also take one dash, as mlir-opt's do (-split-input-file).",
    )
    p.add_argument("input", nargs="?", default="-", help="input .mlir file ('-' or none: stdin)")
    p.add_argument("--version", action="version", version=_version_line())
    p.add_argument(
        "--schedule", metavar="S.mlir", help="transform schedule to apply (a library file)"
    )
    p.add_argument(
        "--no-schedule",
        action="store_true",
        help="do not apply the schedule (it stays in the output)",
    )
    p.add_argument("--entry-point", default=None, help="named sequence to run")
    p.add_argument(
        "--transform-interpreter",
        action="store_true",
        help="apply the schedule (the default), as mlir-opt's pass does; "
        "--transform-interpreter=entry-point=NAME picks the named sequence",
    )
    p.add_argument("--transform-interpreter-options", default="", help=argparse.SUPPRESS)
    p.add_argument(
        "-p",
        "--pipeline",
        "--pass-pipeline",
        default="",
        help="passes to run after the schedule: 'canonicalize,cse' or mlir-opt's "
        "'builtin.module(func.func(canonicalize),cse)'",
    )
    p.add_argument(
        "--emit",
        choices=EMIT_CHOICES,
        default="mlir",
        help="what to print: the module (mlir), or a compile stage (llvm is llvm-ir)",
    )
    p.add_argument(
        "--target", choices=TARGETS, default=None, help="target of --emit llvm-dialect|llvm"
    )
    p.add_argument("-o", "--output", metavar="OUT", help="output file (written atomically)")
    p.add_argument(
        "--split-input-file", action="store_true", help="process '// -----' chunks separately"
    )
    p.add_argument("--verify-diagnostics", action="store_true", help="check expected-* annotations")
    p.add_argument(
        "--print-ir-after-all",
        "--mlir-print-ir-after-all",
        action="store_true",
        help="print the IR after every pass and step",
    )
    p.add_argument(
        "--allow-unregistered-dialect",
        action="store_true",
        help="parse ops of unknown dialects (generic form) as opaque ops",
    )
    p.add_argument(
        "--mlir-print-local-scope",
        action="store_true",
        help="print affine maps where they are used, not as #map aliases at the top",
    )
    p.add_argument(
        "--verify-each-transform", action="store_true", help="run and check after each transform op"
    )
    p.add_argument("--generic", action="store_true", help="print ops in generic form")
    p.add_argument(
        "--runtime-verification",
        action="store_true",
        help="(--emit of the cpu stages) insert runtime checks before the cpu lowering",
    )
    return p


def _opt(argv: list[str] | None, sources: SourceManager) -> int:
    parser = _opt_parser()
    args = parser.parse_args(_mlir_opt_argv(parser, argv))
    args.entry_point = _entry_point(args.entry_point, args.transform_interpreter_options)
    args.pipeline = upstream_pipeline(args.pipeline)
    if args.output:
        check_output(args.output)
    name, text = _read_input(args.input, sources)
    schedule_text: tuple[str, str] | None = None
    if args.schedule is not None:
        if args.no_schedule:
            raise InputError("--schedule and --no-schedule cannot be used together")
        schedule_text = _read_input(args.schedule, sources)

    chunks = split_input(text) if args.split_input_file else [(0, text)]
    outputs: list[str | bytes] = []
    failed = False
    for offset, chunk in chunks:
        result = _opt_chunk(args, name, chunk, offset, schedule_text, sources)
        if args.verify_diagnostics:
            first_line = sources.location_of_offset(name, offset).line
            expected = parse_expected_diagnostics(chunk, name, first_line)
            problems = check_expected_diagnostics(expected, result.diagnostics)
            if problems:
                _report(problems, sources)
                failed = True
        else:
            # Remarks and warnings were printed as they came; an error fails the run, and
            # so does a failure of any severity that stopped the chunk (a silenceable
            # failure reaching the top of the schedule is reported with its own severity,
            # a remark for an unfusable producer, and fails the run as in mlir-opt).
            stopped = result.output is None
            errors = [d for d in result.diagnostics if stopped or d.severity == "error"]
            _report(errors, sources)
            failed = failed or bool(errors) or stopped
        if result.output is not None:
            outputs.append(result.output)

    joined = _join(outputs)
    if not args.output:
        if isinstance(joined, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(joined)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(joined)
    elif not failed:  # as mlir-opt: a failed run keeps no output file
        write_output(args.output, joined)
    return 1 if failed else 0


def _join(outputs: Sequence[str | bytes]) -> str | bytes:
    """The outputs of the chunks, separated by the split marker (bytes if one is binary).

    As mlir-opt writes them: an empty line after each chunk's output, then the marker.
    """
    separator = f"\n{SPLIT_MARKER}\n"
    if all(isinstance(out, str) for out in outputs):
        return separator.join(str(out) for out in outputs)
    return separator.encode().join(out.encode() if isinstance(out, str) else out for out in outputs)


def _opt_chunk(
    args: argparse.Namespace,
    name: str,
    chunk: str,
    offset: int,
    schedule: tuple[str, str] | None,
    sources: SourceManager,
) -> _ChunkResult:
    from schedir.api import OptRequest, run_opt  # deferred: the compiler

    # With --verify-diagnostics, remarks and warnings are checked with the errors;
    # otherwise they are printed as they come, as mlir-opt does.
    emitted: list[Diagnostic] = []

    def on_diagnostic(diag: Diagnostic) -> None:
        if args.verify_diagnostics:
            emitted.append(diag)
        else:
            _report((diag,), sources)

    request = OptRequest(
        text=chunk,
        filename=name,
        offset=offset,
        schedule=schedule,
        apply_schedule=not args.no_schedule,
        entry_point=args.entry_point,
        pipeline=args.pipeline,
        emit=args.emit,
        target=args.target,
        generic=args.generic,
        runtime_verification=args.runtime_verification,
        verify_each_transform=args.verify_each_transform,
        allow_unregistered_dialect=args.allow_unregistered_dialect,
        print_local_scope=args.mlir_print_local_scope,
        on_diagnostic=on_diagnostic,
        print_ir_after_all=(
            lambda title, text: print(
                f"// -----// IR Dump After {title} //----- //\n{text}", file=sys.stderr
            )
        )
        if args.print_ir_after_all
        else None,
    )
    try:
        return _ChunkResult(run_opt(request, sources), tuple(emitted))
    except SchedirError as err:
        return _ChunkResult(None, (*emitted, *err.diagnostics()))


# ---------------------------------------------------------------------------------------
# mlir-opt's conventions


def _version_line() -> str:
    """`schedir-opt --version`: the tool, schedir's and xDSL's versions."""
    from importlib.metadata import PackageNotFoundError, version

    def of(package: str) -> str:
        try:
            return version(package)
        except PackageNotFoundError:
            return "unknown"

    return f"schedir-opt (schedir {of('schedir')}, xDSL {of('xdsl')})"


def _mlir_opt_argv(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> list[str]:
    """Arguments as mlir-opt takes them, made argparse's: long options with one dash
    (`-split-input-file`) get two, and the pass options of `--transform-interpreter=...`
    move to an option of their own (the flag alone takes no value)."""
    words = list(sys.argv[1:] if argv is None else argv)
    # argparse keeps the option strings only in `_actions` (it has no public accessor).
    known = {s for action in parser._actions for s in action.option_strings}
    out: list[str] = []
    for index, word in enumerate(words):
        if word == "--":
            return out + words[index:]
        flag, eq, value = word.partition("=")
        if word.startswith("-") and not word.startswith("--") and f"-{flag}" in known:
            flag = f"-{flag}"
        if flag == "--transform-interpreter" and eq:
            out += [flag, "--transform-interpreter-options", value]
            continue
        out.append(flag + eq + value)
    return out


def _entry_point(entry_point: str | None, interpreter_options: str) -> str:
    """The named sequence to run: `--entry-point`, or the interpreter's `entry-point=`."""
    options = interpreter_options.strip().strip("{}\"' ")
    from_interpreter: str | None = None
    for item in options.split():
        key, _, value = item.partition("=")
        if key != "entry-point" or not value:
            raise InputError(
                f"unknown option '{item}' of --transform-interpreter",
                notes=(Note("it takes entry-point=NAME"),),
            )
        from_interpreter = value
    if entry_point is not None and from_interpreter not in (None, entry_point):
        raise InputError(
            f"--entry-point={entry_point} and --transform-interpreter=entry-point="
            f"{from_interpreter} disagree"
        )
    return entry_point or from_interpreter or "__transform_main"


_ANCHOR = re.compile(r"(?:[A-Za-z_][\w$-]*\.[\w.$-]+|any)\(")


def upstream_pipeline(spec: str) -> str:
    """A pass list from mlir-opt's nested pipeline syntax: `builtin.module(func.func(
    canonicalize),cse)` is `canonicalize,cse`.

    schedir's passes run on the whole module, so an anchor (`builtin.module(`,
    `func.func(`, `gpu.module(`, `any(`) only groups passes; pass options in braces stay
    as written.
    """
    out: list[str] = []
    depth = 0  # of option braces
    index = 0
    while index < len(spec):
        char = spec[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0:
            anchor = _ANCHOR.match(spec, index)
            if anchor is not None and (index == 0 or spec[index - 1] in ", ("):
                index = anchor.end()
                continue
            if char in "()":
                index += 1
                continue
        out.append(char)
        index += 1
    passes = [p.strip() for p in _split_top_level("".join(out))]
    return ",".join(p for p in passes if p)


def _split_top_level(spec: str) -> list[str]:
    """Split a pass list at the commas outside option braces."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for char in spec:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def opt_main(argv: list[str] | None = None) -> int:
    """Entry point of `schedir-opt`."""
    return _guarded(_opt, argv)


def run_main(argv: list[str] | None = None) -> int:
    """Entry point of `schedir-run`."""
    return _guarded(_run, argv)


def _run_parser() -> _ArgumentParser:
    p = _ArgumentParser(
        prog="schedir-run",
        description="Compile an MLIR payload (with its schedule) and run its entry function.",
    )
    p.add_argument("input", help="payload .mlir file ('-' for stdin)")
    p.add_argument(
        "--schedule", metavar="S.mlir", help="transform schedule to apply (a library file)"
    )
    p.add_argument(
        "--no-schedule", action="store_true", help="ignore the schedule embedded in the input"
    )
    p.add_argument("--target", choices=TARGETS, default="cpu", help="where to run (default: cpu)")
    p.add_argument(
        "--entry", metavar="NAME", help="function to call (default: the only public one)"
    )
    p.add_argument(
        "--inputs", metavar="A.npy,B.npy", help="argument arrays in order (default: random)"
    )
    p.add_argument(
        "--output",
        metavar="OUT.npy",
        help="write the result (OUT_0.npy, OUT_1.npy, ... for several)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the random inputs (default: 0)")
    p.add_argument(
        "--check", action="store_true", help="compare with schedir.reference; exit 1 on mismatch"
    )
    p.add_argument("--bench", action="store_true", help="print the median time of a call")
    p.add_argument(
        "-O",
        dest="opt_level",
        type=int,
        choices=(0, 1, 2, 3),
        default=3,
        help="LLVM optimization level",
    )
    p.add_argument("--dump-dir", metavar="DIR", help="write every compile stage there")
    p.add_argument(
        "--runtime-verification",
        action="store_true",
        help="(cpu) check index bounds and divisions at run time and report the failing op",
    )
    p.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="(cpu) stop the kernel after this long and report it (default: no limit)",
    )
    p.add_argument(
        "--no-isolation",
        action="store_true",
        help="(cpu, debugging) call the kernel in this process: a crash ends it silently",
    )
    p.add_argument(
        "--no-llvm-worker",
        action="store_true",
        help="(cpu, debugging) run LLVM in this process: an LLVM crash then ends it",
    )
    return p


def _run(argv: list[str] | None, sources: SourceManager) -> int:
    import numpy as np  # deferred, as the compiler

    from schedir import api, reference  # deferred: the compiler

    args = _run_parser().parse_args(argv)
    name, text = _read_input(args.input, sources)
    if args.no_schedule and args.schedule:
        raise InputError("--schedule and --no-schedule cannot be used together")
    if args.runtime_verification and args.target != "cpu":
        raise InputError("--runtime-verification is only available for --target cpu")
    if args.output:
        check_output(args.output)
    options = CompileOptions(
        target=args.target,
        opt_level=args.opt_level,
        dump_dir=prepare_directory(args.dump_dir, "--dump-dir") if args.dump_dir else None,
        runtime_verification=args.runtime_verification,
        isolate_llvm=not args.no_llvm_worker,
    )
    module = api.parse_for_run(text, name, sources, apply_schedule=not args.no_schedule)
    kernel = api.compile_with_sources(
        module, args.schedule, args.target, args.entry, options, sources
    )
    sig = kernel.signature
    if args.inputs:
        inputs = [_load_npy(path) for path in args.inputs.split(",")]
    else:
        inputs = reference.random_inputs(sig, args.seed)
    # On the CPU the kernel runs in a forked child: a fault (SIGSEGV, SIGFPE) or a hang
    # becomes a diagnostic instead of ending this process without a word.
    isolated = args.target == "cpu" and not args.no_isolation
    results = kernel.run(
        *inputs,
        prefill_nan=args.check,
        isolated=isolated,
        timeout=args.timeout if isolated else None,
    )

    failed = False
    if args.check:
        expected = reference.evaluate_with_bounds(module, sig.name, inputs)
        for index, (spec, got, want) in enumerate(zip(sig.results, results, expected, strict=True)):
            check = reference.compare(got, want, spec.dtype)
            print(check.line("" if len(results) == 1 else f"result {index}:"))
            failed = failed or not check.ok
    if args.output:
        _save_results(args.output, results)
    if not args.check and not args.output:
        for index, (spec, value) in enumerate(zip(sig.results, results, strict=True)):
            print(f"result {index}: {spec.mlir_type}")
            print(np.array2string(np.asarray(value), threshold=64, edgeitems=3))
    if args.bench:
        timing = kernel.benchmark(*inputs)
        print(
            f"bench: median={timing.median * 1e3:.4f} ms best={timing.best * 1e3:.4f} ms runs={timing.runs}"
        )
    return 1 if failed else 0


def _load_npy(path: str) -> object:
    import numpy as np  # deferred, as the compiler

    try:
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise InputError(f"could not open input array '{path}': no such file") from None
    except (OSError, ValueError, EOFError) as err:
        raise InputError(f"could not read input array '{path}': {err}") from None


def _save_results(output: str, results: Sequence[object]) -> None:
    import numpy as np  # deferred, as the compiler

    if len(results) == 1:
        names = [output]
    else:
        stem, dot, suffix = output.rpartition(".")
        base, ext = (stem, f".{suffix}") if dot else (output, "")
        names = [f"{base}_{i}{ext}" for i in range(len(results))]
    for name, value in zip(names, results, strict=True):
        buffer = io.BytesIO()
        np.save(buffer, np.asarray(value), allow_pickle=False)
        write_output(name, buffer.getvalue())


def _console(main: Callable[[list[str] | None], int]) -> NoReturn:
    sys.exit(main(None))


if __name__ == "__main__":  # pragma: no cover
    _console(opt_main)


# ---------------------------------------------------------------------------------------
# schedir-tune


def tune_main(argv: list[str] | None = None) -> int:
    """Entry point of `schedir-tune`."""
    return _guarded(_tune, argv)


def _term_as_interrupt() -> contextlib.AbstractContextManager[None]:
    """Within: a SIGTERM stops the run as a Ctrl-C does (the workers are ended and the
    candidates in flight recorded as interrupted; a rerun redoes only those), and neither
    splits a write to the results store (`schedir.autotune.interrupts`). The previous
    handlers come back after (`tune_main` may run inside another program)."""
    from schedir.autotune.interrupts import interruptible

    return interruptible((signal.SIGINT, signal.SIGTERM))


def _tune_parser() -> _ArgumentParser:
    p = _ArgumentParser(
        prog="schedir-tune",
        description="Search the knobs of a schedule for the fastest verified kernel.",
    )
    p.add_argument("payload", help="payload .mlir file")
    p.add_argument("--schedule", metavar="S", help="schedule with knobs (default: embedded)")
    p.add_argument("--target", choices=TARGETS, default="cpu", help="where to run (default: cpu)")
    p.add_argument(
        "--entry", metavar="NAME", help="function to tune (default: the only public one)"
    )
    p.add_argument("--budget", type=int, metavar="N", help="candidates to compile and measure")
    p.add_argument("--time-budget", type=float, metavar="SECONDS", help="stop asking after this")
    p.add_argument(
        "--effort", choices=("quick", "full"), default="quick", help="preset budget and timing"
    )
    p.add_argument(
        "--strategy",
        choices=("auto", "exhaustive", "random", "tpe", "cmaes"),
        default="auto",
        help="search strategy (auto: exhaustive when the valid space fits the budget, or the "
        "effort's preset with only --time-budget; else tpe)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the strategy and of the inputs")
    p.add_argument(
        "--storage",
        metavar="URL",
        help="Optuna storage: a journal file path or a postgresql:// URL "
        "(default: $XDG_CACHE_HOME/schedir/tune.journal)",
    )
    p.add_argument("--study", metavar="NAME", help="prefix of the study name (shared runs)")
    p.add_argument(
        "--compile-workers", type=int, metavar="N", help="compile processes (default: cores)"
    )
    p.add_argument("--devices", metavar="0,1,...", help="GPUs to measure on, one worker each")
    p.add_argument("-o", dest="output", metavar="TUNED.mlir", help="write the tuned schedule")
    p.add_argument("--report", metavar="DIR", help="write trials.jsonl, plots and report.md")
    p.add_argument("--dry-run", action="store_true", help="print the knobs and space sizes, exit")
    return p


def _tune(argv: list[str] | None, sources: SourceManager) -> int:
    from rich.console import Console

    from schedir.autotune import report, tune
    from schedir.autotune.store import default_journal

    args = _tune_parser().parse_args(argv)
    if args.dry_run:
        return _tune_dry_run(args, sources)
    devices = None
    if args.devices:
        try:
            devices = tuple(int(d) for d in args.devices.split(","))
        except ValueError:
            raise InputError(
                f"--devices takes GPU numbers such as 0,1, got '{args.devices}'"
            ) from None
    storage = args.storage
    if storage is None:
        cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        storage = str(default_journal(Path(cache)))
    if args.compile_workers is not None and args.compile_workers < 1:
        raise InputError(f"--compile-workers must be at least 1, got {args.compile_workers}")
    _read_input(args.payload, sources)
    if args.schedule:
        _read_input(args.schedule, sources)
    # Outputs are checked before the search, so a mistyped path does not cost a tuning run.
    if args.output:
        check_output(args.output)
    report_dir = prepare_directory(args.report, "--report") if args.report else None
    with _term_as_interrupt(), report.LiveProgress(sys.stderr) as live:
        result = tune(
            args.payload,
            args.schedule,
            args.target,
            args.entry,
            budget=args.budget,
            time_budget=args.time_budget,
            effort=args.effort,
            strategy=args.strategy,
            seed=args.seed,
            storage=storage,
            study=args.study,
            compile_workers=args.compile_workers,
            devices=devices,
            progress=live.update,
            sources=sources,
        )
    console = Console(file=sys.stdout, width=120)
    report.print_summary(result, console)
    if args.output:
        write_output(args.output, result.schedule_text)
    if report_dir is not None:
        report.write_report(result, report_dir)
    sys.stdout.flush()
    print(report.best_line(result))
    return 0


def _tune_dry_run(args: argparse.Namespace, sources: SourceManager) -> int:
    from schedir.autotune import problem
    from schedir.autotune.space import describe
    from schedir.transform.knobs import format_value

    name, text = _read_input(args.payload, sources)
    schedule = None
    if args.schedule:
        schedule_name, schedule_text = _read_input(args.schedule, sources)
        schedule = (schedule_text, schedule_name)
    loaded = problem.load(
        text, name, schedule, args.entry, CompileOptions(target=args.target), sources
    )
    space = loaded.problem.space
    for knob in space.knobs:
        kind = "alternatives" if knob.is_alternatives else "knob"
        options = ", ".join(format_value(o) for o in knob.options)
        selected = format_value(knob.selected) if knob.selected is not None else "none"
        print(f"{kind} {knob.name}: options [{options}] selected {selected}")
    for constraint in space.constraints:
        print(f"constraint: {constraint.description}")
    valid = space.valid_size()
    print(f"raw space: {space.raw_size} points")
    print(f"valid space: {valid if valid is not None else 'too large to count'} points")
    default = space.default()
    print(f"default: {describe(default, space.names) if default else 'unresolved'}")
    return 0
