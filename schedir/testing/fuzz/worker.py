"""A long-lived worker process that runs `schedir-run` / `schedir-opt` on request.

Starting Python with xDSL and llvmlite costs about a second, so a campaign keeps one
worker per core and sends it one request per case: a JSON line with the tool, its argv
and two file paths that receive the tool's stdout and stderr (file descriptors 1 and 2
are redirected there, so C-level output such as an LLVM assertion lands there too). The
worker answers with the exit status. `Worker` is the client: it starts the process,
enforces a per-case timeout, and tells a hang (timeout: the worker is killed) and a
crash (the worker died, e.g. by a signal) from an exit; either way the next request
starts a fresh worker. Run as `python -m schedir.testing.fuzz.worker` (the serving loop).
"""

from __future__ import annotations

import itertools
import json
import os
import resource
import select
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

MEMORY_LIMIT = 8 << 30
"""Address-space limit of a worker (bytes): a mutant with a huge shape fails fast
instead of swapping the shared machine."""


_SERIALS = itertools.count()
"""Numbers the `Worker`s of this process: their output files must not collide (a campaign
runs several workers from one process, one per thread)."""


@dataclass(frozen=True)
class ToolResult:
    """What one tool run did: `status` is "exit", "crash" (the process died) or "hang"."""

    status: str
    rc: int
    stdout: str
    stderr: str


class Worker:
    """Client of one worker process (restarted after a crash, a hang, or `recycle` runs)."""

    def __init__(self, scratch: Path, recycle: int = 150) -> None:
        self.scratch = scratch
        self.recycle = recycle
        self._proc: subprocess.Popen[str] | None = None
        self._served = 0
        self._count = 0
        self._serial = next(_SERIALS)

    def _start(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None or self._served >= self.recycle:
            self.close()
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "schedir.testing.fuzz.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                start_new_session=True,
            )
            self._served = 0
        return self._proc

    def run(self, tool: str, argv: list[str], timeout: float) -> ToolResult:
        """Run `tool` ("run" or "opt") on `argv` in the worker, at most `timeout` seconds
        (plus the start of a fresh worker)."""
        proc = self._start()
        self._count += 1
        out = self.scratch / f"worker-{os.getpid()}-{self._serial}-{self._count}.out"
        err = out.with_suffix(".err")
        request = {"tool": tool, "argv": argv, "stdout": str(out), "stderr": str(err)}
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            self.close()
            return self.run(tool, argv, timeout)
        self._served += 1
        ready, _, _ = select.select(
            [proc.stdout], [], [], timeout + (30 if self._served == 1 else 0)
        )
        line = proc.stdout.readline() if ready else None
        stdout, stderr = _read(out), _read(err)
        out.unlink(missing_ok=True)
        err.unlink(missing_ok=True)
        if line is None:
            self.close()
            return ToolResult("hang", -1, stdout, stderr)
        if not line:
            code = proc.wait()
            self._proc = None
            return ToolResult("crash", code, stdout, stderr)
        return ToolResult("exit", int(json.loads(line)["rc"]), stdout, stderr)

    def close(self) -> None:
        if self._proc is not None:
            if self._proc.poll() is None:
                self._proc.kill()
            self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._proc = None


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def serve() -> None:
    """The worker's loop: one JSON request per line on stdin, one answer per line."""
    from schedir import cli  # deferred: the worker's first request pays for the import

    tools = {"run": cli.run_main, "opt": cli.opt_main}
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    requests = os.fdopen(os.dup(0), "r")
    answers = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    for line in requests:
        request = json.loads(line)
        out = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        err = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(out, 1)
        os.dup2(err, 2)
        os.close(out)
        os.close(err)
        try:
            rc = tools[request["tool"]](request["argv"])
        except SystemExit as exit_:  # argparse --help and the like
            rc = exit_.code if isinstance(exit_.code, int) else 1
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(null, 1)
        os.dup2(null, 2)
        answers.write(json.dumps({"rc": rc}) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
