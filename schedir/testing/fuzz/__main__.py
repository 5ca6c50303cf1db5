"""`python -m schedir.testing.fuzz`: run a fuzz campaign and write its findings.

Exit status 0 when no case is a finding, 1 otherwise; `summary.json` in `--out` holds the
counts, and one folder per finding holds the minimized case, its payload and schedule,
the inputs, the command that replays it and its output.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from schedir.testing.fuzz.campaign import campaign, find_iree_opt


def _indices(text: str) -> list[int]:
    """`3` or `3,17,250`: case indices."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of case indices: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m schedir.testing.fuzz", description=__doc__)
    budget = p.add_mutually_exclusive_group(required=True)
    budget.add_argument("--cases", type=int, help="number of cases to run")
    budget.add_argument("--hours", type=float, help="run until this much time has passed")
    budget.add_argument(
        "--only",
        type=_indices,
        metavar="INDEX[,INDEX...]",
        help="run (replay) these cases, e.g. the `unjudged` list of a summary.json",
    )
    p.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    p.add_argument("--out", type=Path, help="folder for summary.json and the findings")
    p.add_argument("--mutate", action="store_true", help="mutants instead of generated cases")
    p.add_argument("--iree-opt", metavar="PATH", help="upstream oracle (default: on PATH)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    p.add_argument("--no-minimize", action="store_true", help="keep findings as found")
    args = p.parse_args(argv)
    iree_opt = find_iree_opt(args.iree_opt)
    with tempfile.TemporaryDirectory(prefix="schedir-fuzz-") as scratch:
        summary = campaign(
            args.seed,
            cases=args.cases,
            hours=args.hours,
            only=args.only,
            out=args.out,
            mutants=args.mutate,
            iree_opt=iree_opt,
            jobs=args.jobs,
            timeout=args.timeout,
            minimize=not args.no_minimize,
            scratch=Path(scratch),
            progress=lambda line: print(line, flush=True),
        )
    report = summary.as_json()
    report["findings"] = len(summary.findings)
    report["upstream_oracle"] = iree_opt or "none (rejections listed as unjudged)"
    print(json.dumps(report, indent=2))
    return 1 if summary.findings else 0


if __name__ == "__main__":
    sys.exit(main())
