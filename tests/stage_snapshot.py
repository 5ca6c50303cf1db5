"""Write the compile stages of every example and schedule to a folder, to diff two trees.

    python tests/stage_snapshot.py OUT_DIR
    diff -r BEFORE_DIR AFTER_DIR     # a structure-only change leaves no difference

For each payload of `examples/` (with `schedules/<name>.mlir` when there is one) and each
reference schedule of `tests/data/reference_schedules/`: the scheduled MLIR, the LLVM IR
(`schedir-opt --emit llvm`, for `--target cuda` when the schedule maps to the GPU) and
the PTX of GPU kernels; for CPU payloads also every stage of `schedir.compile`. Uses only
the command-line and Python contracts, so it runs unchanged on both sides of a refactoring.
"""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _cases() -> list[tuple[str, Path, Path | None, str]]:
    """(case name, payload, schedule or None, target)."""
    cases = []
    for payload in sorted((ROOT / "examples").glob("*.mlir")):
        schedule = ROOT / "schedules" / payload.name
        target = "cuda" if payload.stem.endswith("_cuda") else "cpu"
        cases.append((payload.stem, payload, schedule if schedule.exists() else None, target))
    refs = ROOT / "tests" / "data" / "reference_schedules"
    for payload in sorted(refs.glob("*.mlir")):
        if payload.stem == "e_schedule":
            continue
        schedule = refs / "e_schedule.mlir" if payload.stem == "e_payload" else None
        target = "cuda" if "gpu" in payload.stem else "cpu"
        cases.append((f"ref_{payload.stem}", payload, schedule, target))
    return cases


def _opt(args: list[str]) -> str:
    from schedir.cli import opt_main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = opt_main(args)
    return f"// exit {status}\n{out.getvalue()}\n// stderr\n{err.getvalue()}"


def main(out_dir: str) -> None:
    import schedir

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, payload, schedule, target in _cases():
        base = [str(payload), *(["--schedule", str(schedule)] if schedule else [])]
        (out / f"{name}.scheduled.mlir").write_text(_opt(base))
        (out / f"{name}.ll").write_text(_opt([*base, "--emit", "llvm", "--target", target]))
        if target == "cuda":
            (out / f"{name}.ptx").write_text(_opt([*base, "--emit", "ptx"]))
            continue
        kernel = schedir.compile(payload, schedule)
        for stage, text in kernel.stages.items():
            (out / f"{name}.compile.{stage}").write_text(text)
        print(name, file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
