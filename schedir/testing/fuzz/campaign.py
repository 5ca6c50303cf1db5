"""Fuzz cases, how their runs are classified, minimization, and campaigns.

A generated case is a payload with a schedule (`gen_case`); a mutant is a generated case
whose text was mutated (`gen_mutant`). Case `index` of seed `seed` is always the same
case, so `(seed, index)` replays it. `Runner.run` runs a case as `schedir-run CASE
--check` does (in a `Worker`, with a timeout) and classifies it:

* `ok`; `wrong`: a `check: MISMATCH`, or the result disagrees with the independent
  evaluation of `payload.evaluate`; `crash`: the process died, or printed a traceback or
  an internal compiler error; `hang`: no answer within the timeout;
* `rejected`: exit 1 with a `file:line:col: error:` diagnostic (or a located remark,
  as upstream gives for some definite failures); for a generated case,
  upstream's interpreter (`iree-opt --transform-interpreter`) then decides: if it
  accepts, the case is `rejects-valid` (a finding), otherwise `invalid`;
* `bad-diagnostic`: an error without `file:line:col`, an exit status other than 0 and 1,
  or a Python warning on stderr (a finding in mutation mode, where the diagnostic is the
  point).

Findings are minimized by delta debugging over lines (schedule lines for generated
cases, every line for mutants) while the classification and the first message (numbers
and names erased) stay the same, and written with `write_finding`.
"""

from __future__ import annotations

import json
import math
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from schedir.testing.fuzz.mutate import mutate
from schedir.testing.fuzz.payload import Payload, compare, evaluate, gen_payload, random_inputs
from schedir.testing.fuzz.schedule import gen_schedule
from schedir.testing.fuzz.worker import ToolResult, Worker

FINDINGS = ("wrong", "crash", "hang", "rejects-valid", "bad-diagnostic")
"""The outcome kinds that are findings."""

DELIBERATE_REJECTIONS = (
    # Upstream tiles a softmax along its dimension and computes a softmax per tile.
    "cannot tile dimension",
    # Upstream accepts negative sizes silently; the loops they build never end.
    "to be non-negative",
)
"""Located errors schedir gives on purpose where upstream accepts and then computes a wrong
result or loops: such a rejection of an upstream-valid case is `rejected`, not a finding."""

WARNED_RACES = re.compile(
    r"^\S[^\n]*?:\d+:\d+: warning: tiling is not thread safe at axis #\d+$", re.M
)
"""Upstream's located warning for a forall over a reduction loop: the tiles race on the
shared output (as upstream), so a wrong result after it is `warned`, not a finding."""

LOCATED_ERROR = re.compile(r"^\S[^\n]*?:\d+:\d+: error: (.*)$", re.M)
_LOCATED_REMARK = re.compile(r"^\S[^\n]*?:\d+:\d+: remark: (.*)$", re.M)
_ANY_ERROR = re.compile(r"^(?:\S[^\n]*?: )?error: (.*)$", re.M)
_WARNING = re.compile(r"^\S+\.py:\d+: \w*Warning: .*$", re.M)


@dataclass(frozen=True)
class Case:
    """One fuzz case: the file schedir runs, what upstream runs, and how to check it."""

    name: str
    text: str
    upstream: str | None = None
    """The same case for iree-opt (tune ops inlined); None for a mutant."""
    payload: Payload | None = field(default=None, compare=False)
    inputs: tuple[np.ndarray, ...] = field(default=(), compare=False)
    mutations: tuple[str, ...] = ()
    schedule_start: int = 0
    """Index of the first line of the schedule module in `text`."""


def gen_case(rng: random.Random, name: str = "case") -> Case:
    """A random payload with a random schedule, and its inputs."""
    payload = gen_payload(rng)
    schedule = gen_schedule(rng, payload)
    start = payload.text.count("\n")
    inputs = tuple(random_inputs(payload, rng.randrange(2**31)))
    return Case(
        name,
        payload.text + schedule.render(),
        payload.text + schedule.render(upstream=True),
        payload,
        inputs,
        schedule_start=start,
    )


def gen_mutant(rng: random.Random, name: str = "mutant") -> Case:
    """A generated case with one to three mutations of its text."""
    base = gen_case(rng, name)
    text, mutations = mutate(rng, base.text)
    return Case(name, text, mutations=mutations)


def case_for(seed: int, index: int, mutant: bool) -> Case:
    """Case `index` of the campaign with seed `seed` (the same every time)."""
    rng = random.Random(f"{seed}:{index}:{'m' if mutant else 'g'}")
    name = f"{'mutant' if mutant else 'case'}-{seed}-{index}"
    return gen_mutant(rng, name) if mutant else gen_case(rng, name)


@dataclass(frozen=True)
class Outcome:
    """The classification of one run."""

    kind: str
    detail: str
    result: ToolResult

    @property
    def is_finding(self) -> bool:
        return self.kind in FINDINGS

    @property
    def signature(self) -> tuple[str, str]:
        """What minimization keeps: the kind and the message without numbers and names."""
        text = re.sub(r"\d+", "N", self.detail)
        text = re.sub(r"%[\w.$-]+|@[\w.$-]+|'[^']*'|\"[^\"]*\"", "X", text)
        return self.kind, text[:200]


def find_iree_opt(path: str | None = None) -> str | None:
    """The iree-opt to ask (given, on PATH, or beside this Python), or None."""
    if path:
        return path
    found = shutil.which("iree-opt")
    if found:
        return found
    beside = Path(sys.executable).parent / "iree-opt"
    return str(beside) if beside.exists() else None


def upstream_accepts(iree_opt: str, text: str, scratch: Path, timeout: float) -> bool | None:
    """Whether upstream's interpreter applies the schedule to the payload (None: unknown)."""
    path = scratch / f"upstream-{threading.get_ident()}.mlir"
    path.write_text(text)
    try:
        run = subprocess.run(
            [iree_opt, "--transform-interpreter", str(path)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except (subprocess.TimeoutExpired, OSError):
        return None
    return run.returncode == 0


class Runner:
    """Runs and classifies cases in one worker; `scratch` holds the temporary files."""

    def __init__(
        self,
        scratch: Path,
        iree_opt: str | None = None,
        timeout: float = 60.0,
        opt_level: int = 3,
    ) -> None:
        self.scratch = scratch
        self.iree_opt = iree_opt
        self.timeout = timeout
        self.opt_level = opt_level
        self.worker = Worker(scratch)
        self._files = 0

    def close(self) -> None:
        self.worker.close()

    def argv(self, case: Case, folder: Path, name: str = "case") -> list[str]:
        """Write the case into `folder`; the schedir-run arguments that run it."""
        path = folder / f"{name}.mlir"
        path.write_text(case.text)
        argv = [str(path), "--check", "-O", str(self.opt_level)]
        if case.payload is not None:
            names = []
            for i, value in enumerate(case.inputs):
                npy = folder / f"{name}.arg{i}.npy"
                np.save(npy, value, allow_pickle=False)
                names.append(str(npy))
            argv += ["--inputs", ",".join(names), "--output", str(folder / f"{name}.out.npy")]
        return argv

    def run(self, case: Case, timeout: float | None = None) -> Outcome:
        """Run `case` (at most `timeout` seconds, default the runner's) and classify it."""
        self._files += 1
        folder = self.scratch / f"run-{threading.get_ident()}-{self._files}"
        folder.mkdir()
        try:
            limit = self.timeout if timeout is None else timeout
            result = self.worker.run("run", self.argv(case, folder), limit)
            got = None
            out = folder / "case.out.npy"
            if result.status == "exit" and result.rc == 0 and out.exists():
                got = np.load(out)
            return self.classify(case, result, got)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def classify(self, case: Case, result: ToolResult, got: np.ndarray | None) -> Outcome:
        stderr = result.stderr
        if result.status == "hang":
            return Outcome("hang", "no answer within the timeout", result)
        if result.status == "crash":
            tail = stderr.strip().splitlines()[-1:] or ["no output"]
            return Outcome("crash", f"process died (status {result.rc}): {tail[0]}", result)
        for marker in ("internal compiler error", "Traceback (most recent call last)"):
            if marker in stderr:
                line = next(ln for ln in stderr.splitlines() if marker in ln)
                if marker.startswith("Traceback"):
                    line = stderr.strip().splitlines()[-1]
                return Outcome("crash", line.strip(), result)
        if "check: MISMATCH" in result.stdout and "check setup:" in result.stdout:
            # The reference itself found the payload undefined on its inputs (it reads
            # uninitialized data, or overflows to NaN/inf, e.g. a mutant's `1.0e39 : f32`):
            # nothing can be checked, so a rejection, not a wrong result.
            return Outcome("rejected", "payload undefined on its inputs", result)
        if "check: MISMATCH" in result.stdout:
            line = next(ln for ln in result.stdout.splitlines() if "MISMATCH" in ln)
            return Outcome("warned" if WARNED_RACES.search(stderr) else "wrong", line, result)
        if result.rc == 0:
            if (warning := _WARNING.search(stderr)) is not None:
                return Outcome("bad-diagnostic", f"python warning: {warning.group(0)}", result)
            if case.payload is None:
                return Outcome("ok", "", result)
            if got is None:
                return Outcome("wrong", "no result written", result)
            check = compare(got, evaluate(case.payload, list(case.inputs)), case.payload.dtype)
            if not check.ok and WARNED_RACES.search(stderr):
                return Outcome("warned", check.message, result)
            return Outcome("ok" if check.ok else "wrong", check.message, result)
        if result.rc != 1:
            return Outcome("bad-diagnostic", f"exit status {result.rc}", result)
        # A located remark that explains the failure is what upstream prints for some
        # definite failures (fuse_into_containing_op's "could not fuse"): a rejection.
        located = LOCATED_ERROR.search(stderr) or _LOCATED_REMARK.search(stderr)
        if located is None:
            unlocated = _ANY_ERROR.search(stderr)
            if unlocated is None:
                return Outcome("bad-diagnostic", "exit status 1 without an error", result)
            detail = unlocated.group(0)
            if case.payload is None:
                return Outcome("bad-diagnostic", f"error without location: {detail}", result)
            message = detail
        else:
            message = located.group(1)
        if case.upstream is None or any(reason in message for reason in DELIBERATE_REJECTIONS):
            return Outcome("rejected", message, result)
        if self.iree_opt is None:
            # No upstream oracle here (e.g. a GPU machine without iree-opt): the campaign
            # lists the case so that `--only` on a machine with the oracle judges it.
            return Outcome("unjudged", message, result)
        accepted = upstream_accepts(self.iree_opt, case.upstream, self.scratch, self.timeout)
        if accepted:
            return Outcome("rejects-valid", message, result)
        return Outcome("invalid" if accepted is False else "rejected", message, result)

    def minimize(self, case: Case, outcome: Outcome, budget: int = 40) -> Case:
        """A smaller case with the same signature (delta debugging over lines)."""
        want = outcome.signature
        if outcome.kind == "hang":
            budget = min(budget, 4)
        if case.upstream is not None and case.upstream != case.text:
            inlined = replace(case, text=case.upstream)
            if self.run(inlined).signature == want:
                case = inlined
            else:
                return case
        lines = case.text.split("\n")
        if case.payload is not None:
            # The schedule's own lines, without its header and the closing yield/braces.
            first, last = case.schedule_start + 2, len(lines) - 4
            candidates = list(range(first, last))
        else:
            candidates = list(range(len(lines)))

        def build(removed: set[int]) -> Case:
            text = "\n".join(ln for i, ln in enumerate(lines) if i not in removed)
            upstream = text if case.upstream is not None else None
            return replace(case, text=text, upstream=upstream)

        def still_fails(removed: set[int]) -> bool:
            return self.run(build(removed)).signature == want

        removed = ddmin(candidates, still_fails, budget)
        return build(removed)


def ddmin(items: Sequence[int], fails_without: Callable[[set[int]], bool], budget: int) -> set[int]:
    """Delta debugging: a large set of `items` whose removal keeps the failure, trying at
    most `budget` removals."""
    removed: set[int] = set()
    remaining = list(items)
    n = 2
    while len(remaining) >= 1 and budget > 0:
        size = math.ceil(len(remaining) / n)
        chunks = [remaining[i : i + size] for i in range(0, len(remaining), size)]
        progress = False
        for chunk in chunks:
            if budget <= 0:
                break
            budget -= 1
            if fails_without(removed | set(chunk)):
                removed |= set(chunk)
                remaining = [i for i in remaining if i not in chunk]
                n = max(n - 1, 2)
                progress = True
                break
        if not progress:
            if size == 1:
                break
            n = min(len(remaining), n * 2)
    return removed


@dataclass
class Summary:
    """Counts of a campaign and its findings."""

    seed: int
    cases: int = 0
    mutants: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    tracebacks: int = 0
    findings: list[dict[str, object]] = field(default_factory=list)
    unjudged: list[int] = field(default_factory=list)
    """Generated cases schedir rejected where no upstream oracle could judge them."""
    seconds: float = 0.0

    def as_json(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "cases": self.cases,
            "mutants": self.mutants,
            "outcomes": dict(sorted(self.kinds.items())),
            "tracebacks": self.tracebacks,
            "seconds": round(self.seconds, 1),
            "findings": self.findings,
            "unjudged": sorted(self.unjudged),
        }


def replay_command(seed: int, index: int, mutant: bool) -> str:
    flag = " --mutate" if mutant else ""
    return f"python -m schedir.testing.fuzz --seed {seed} --only {index}{flag} --out DIR"


def write_finding(
    folder: Path, runner: Runner, case: Case, original: Case, outcome: Outcome
) -> dict[str, object]:
    """One finding's folder: the case, payload, schedule, inputs, command and output."""
    folder.mkdir(parents=True, exist_ok=True)
    argv = runner.argv(case, folder)
    (folder / "original.mlir").write_text(original.text)
    lines = case.text.split("\n")
    if case.payload is not None:
        (folder / "payload.mlir").write_text("\n".join(lines[: case.schedule_start]) + "\n")
        (folder / "schedule.mlir").write_text("\n".join(lines[case.schedule_start :]))
    command = "schedir-run " + " ".join(argv)
    (folder / "command.sh").write_text(f"#!/bin/sh\nSCHEDIR_DEBUG=1 {command}\n")
    result = runner.worker.run("run", argv, runner.timeout)
    (folder / "output.txt").write_text(
        f"$ {command}\nstatus: {result.status} {result.rc}\n--- stdout\n{result.stdout}"
        f"--- stderr\n{result.stderr}"
    )
    info: dict[str, object] = {
        "kind": outcome.kind,
        "detail": outcome.detail,
        "case": original.name,
        "mutations": list(original.mutations),
        "command": command,
        "folder": str(folder),
    }
    if case.upstream is not None and runner.iree_opt is not None:
        upstream = folder / "upstream.mlir"
        upstream.write_text(case.upstream)
        info["upstream"] = f"{runner.iree_opt} --transform-interpreter {upstream}"
    (folder / "info.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def campaign(
    seed: int,
    *,
    cases: int | None = None,
    hours: float | None = None,
    out: Path | None = None,
    mutants: bool = False,
    iree_opt: str | None = None,
    jobs: int = 1,
    timeout: float = 60.0,
    minimize: bool = True,
    only: Sequence[int] | None = None,
    scratch: Path,
    progress: Callable[[str], None] | None = None,
) -> Summary:
    """Run cases `0..cases-1` of `seed` (or until `hours` pass, or the indices `only`) on
    `jobs` workers."""
    summary = Summary(seed)
    deadline = time.monotonic() + hours * 3600 if hours is not None else math.inf
    start = time.monotonic()
    lock = threading.Lock()
    counter = iter(only if only is not None else range(10**12))

    def next_index() -> int | None:
        with lock:
            if time.monotonic() >= deadline:
                return None
            index = next(counter, None)
            if index is None or (cases is not None and only is None and index >= cases):
                return None
            return index

    def work() -> None:
        runner = Runner(scratch, iree_opt, timeout)
        try:
            while (index := next_index()) is not None:
                case = case_for(seed, index, mutants)
                outcome = runner.run(case)
                with lock:
                    summary.cases += 1
                    summary.mutants += mutants
                    summary.kinds[outcome.kind] += 1
                    summary.tracebacks += "Traceback (most recent" in outcome.result.stderr
                    if outcome.kind == "unjudged":
                        summary.unjudged.append(index)
                if not outcome.is_finding:
                    continue
                small = runner.minimize(case, outcome) if minimize else case
                info: dict[str, object] = {
                    "kind": outcome.kind,
                    "detail": outcome.detail,
                    "case": case.name,
                    "replay": replay_command(seed, index, mutants),
                }
                if out is not None:
                    folder = out / f"{case.name}-{outcome.kind}"
                    info |= write_finding(folder, runner, small, case, outcome)
                else:
                    info["text"] = small.text
                with lock:
                    summary.findings.append(info)
                if progress is not None:
                    progress(f"{case.name}: {outcome.kind}: {outcome.detail}")
        finally:
            runner.close()

    threads = [threading.Thread(target=work) for _ in range(max(jobs, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    summary.seconds = time.monotonic() - start
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "summary.json").write_text(json.dumps(summary.as_json(), indent=2) + "\n")
    return summary
