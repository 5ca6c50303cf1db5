"""Killing the tuner leaves no process behind: compile and measurement workers (busy,
idle or paused with SIGSTOP) and their LLVM workers end with it, whether the tuner gets a
SIGKILL (nothing of it runs: the workers' parent-death signal and watchdog) or a SIGTERM
(it stops like a Ctrl-C). Linux: the process tree is read from /proc."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie waiting for its reaper counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _descendants(pid: int) -> set[int]:
    """Every live process below `pid` (children, grandchildren, ...)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {p for p in pids if _alive(p)}
        if not left:
            return left
        time.sleep(0.1)
    return {p for p in pids if _alive(p)}


def _reap(pids: set[int]) -> None:
    """Kill what survived (a failing test must not leave them either)."""
    for p in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)


_WORKERS = """
import time
from schedir.autotune.worker import Worker, wait_any
from tests.unit.autotune import faults

workers = [Worker(faults.sleeping_handler, None, f"w{i}", 60.0) for i in range(3)]
for w in workers:
    w.start()
while not all(w.idle for w in workers):
    for w in wait_any(workers, 1.0):
        w.receive()
workers[0].submit(1000, 2000.0)   # busy
workers[1].pause()                # stopped with SIGSTOP
print(" ".join(str(w.pid) for w in workers), flush=True)  # workers[2]: idle
time.sleep(1000)
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_busy_idle_and_paused_workers_end_with_their_parent(sig: signal.Signals) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", _WORKERS], cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        pids = {int(p) for p in parent.stdout.readline().split()}
        assert len(pids) == 3 and all(_alive(p) for p in pids)
        os.kill(parent.pid, sig)
        parent.wait(timeout=30)
        left = _wait_gone(pids, 5.0)
        _reap(left)
        assert not left, f"workers {sorted(left)} outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


_TUNE = """
import sys
from schedir.cli import tune_main
sys.exit(tune_main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_tune_leaves_no_process_behind(tmp_path: Path, sig: signal.Signals) -> None:
    tuner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            _TUNE,
            str(PAYLOAD),
            "--schedule",
            str(SCHEDULE),
            "--budget",
            "40",
            "--compile-workers",
            "2",
            "--storage",
            str(tmp_path / "s.journal"),
        ],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: set[int] = set()
    try:
        # Wait until both compile workers, the measurement worker and an LLVM worker run.
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and tuner.poll() is None:
            seen |= _descendants(tuner.pid)
            if len(_descendants(tuner.pid)) >= 4:
                break
            time.sleep(0.2)
        assert tuner.poll() is None, "the run ended before it could be killed"
        seen |= _descendants(tuner.pid)
        assert len(seen) >= 4
        os.kill(tuner.pid, sig)
        _, err = tuner.communicate(timeout=60)
        if sig == signal.SIGTERM:
            assert tuner.returncode == 1 and "error: interrupted" in err, err[-2000:]
            assert "Traceback" not in err
        left = _wait_gone(seen, 5.0)
        _reap(left)
        assert not left, f"processes {sorted(left)} outlived schedir-tune"
    finally:
        if tuner.poll() is None:
            tuner.kill()
            tuner.wait()


@pytest.mark.parametrize(
    "bad", ["budget=0", "strategy='annealing'", "effort='medium'", "budget=-3"]
)
def test_refused_arguments_start_no_process(bad: str) -> None:
    """`schedir.tune` checks its arguments before it starts its workers' zygote."""
    code = (
        "import schedir\n"
        "from schedir.diagnostics import InputError\n"
        "from schedir.autotune import worker\n"
        "try:\n"
        f"    schedir.tune({str(PAYLOAD)!r}, schedule={str(SCHEDULE)!r}, {bad})\n"
        "except InputError as err:\n"
        "    print('refused:', err)\n"
        "assert not worker._ZYGOTE, 'a zygote was started'\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], env=ENV, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert "refused:" in run.stdout
