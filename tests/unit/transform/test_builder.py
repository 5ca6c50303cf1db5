"""The Python schedule builder emits upstream syntax that upstream's interpreter runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from schedir.transform.builder import Schedule

EXAMPLES = Path(__file__).parents[3] / "examples"


def _schedule() -> Schedule:
    s = Schedule()
    mm = s.match(s.root, ops=["linalg.matmul"])
    k = s.param(16)
    tiled, _ = s.tile_using_forall(mm, tile_sizes=[8, 16], mapping=["block<y>", "block<x>"])
    _, loop = s.tile_using_for(tiled, tile_sizes=[0, 0, k])
    func = s.get_parent_op(loop, "func.func")
    s.apply_patterns(func, ["canonicalization"])
    s.apply_cse(func)
    return s


def _with_payload(schedule: str) -> str:
    payload = (EXAMPLES / "matmul.mlir").read_text()
    body = schedule.split("\n", 1)[1].rsplit("}", 1)[0]
    return "module attributes {transform.with_named_sequence} {\n" + payload + body + "}\n"


def test_builder_text_runs_in_upstream_interpreter(tmp_path: Path) -> None:
    iree_opt = shutil.which("iree-opt")
    assert iree_opt is not None, "iree-opt (pip install iree-base-compiler) is the upstream oracle"
    path = tmp_path / "scheduled.mlir"
    path.write_text(_with_payload(_schedule().to_mlir()))
    result = subprocess.run(
        [iree_opt, "--transform-interpreter", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "scf.forall" in result.stdout and "scf.for " in result.stdout


def test_builder_handles_and_types() -> None:
    s = Schedule()
    mm = s.match(s.root, ops=["linalg.matmul"])
    tiled, forall = s.tile_using_forall(mm, num_threads=[4, 2])
    assert tiled.type == forall.type == "!transform.any_op"
    text = s.to_mlir()
    assert "num_threads [4, 2]" in text
    assert text.count("transform.named_sequence @__transform_main") == 1
