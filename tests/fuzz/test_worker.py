"""The fuzz workers of one campaign keep their outputs apart.

A campaign runs one `Worker` per thread in one process; their stdout/stderr files were
named by the process id and a per-worker count, so two workers wrote the same files and
a case could be judged on another case's output (a located error lost: "exit status 1
without an error"; worse, another case's `check: OK`).
"""

from __future__ import annotations

import threading
from pathlib import Path

from schedir.testing.fuzz.worker import ToolResult, Worker


def test_concurrent_workers_read_their_own_output(tmp_path: Path) -> None:
    rounds = 4
    results: dict[int, list[tuple[Path, ToolResult]]] = {0: [], 1: []}

    def serve(which: int) -> None:
        worker = Worker(tmp_path)
        try:
            for i in range(rounds):
                path = tmp_path / f"bad-{which}-{i}.mlir"
                path.write_text(
                    f"func.func @f{which}() {{\n  %x = arith.constant {i} : i32 junk\n}}\n"
                )
                results[which].append((path, worker.run("opt", [str(path)], timeout=60)))
        finally:
            worker.close()

    threads = [threading.Thread(target=serve, args=(which,)) for which in results]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for runs in results.values():
        assert len(runs) == rounds
        for path, result in runs:
            assert (result.status, result.rc) == ("exit", 1), result
            assert f"{path}:2:" in result.stderr, (path, result.stderr)
