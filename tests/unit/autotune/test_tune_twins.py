"""benchmarks/tune.py twins: points are grouped by the code they compile to, so a sweep's
noise shows as the spread of times within a group."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_points_are_twins_exactly_when_their_code_is_the_same() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from tune import _ir_digest, _problem, payload  # pyright: ignore[reportMissingImports]  # benchmarks/tune.py

    size = 24  # below every block option: the blocks cannot change the code
    problem = _problem("cpu", size).loaded.problem
    default = problem.space.default()
    blocks = [k for k in problem.space.knobs if k.name.startswith("block_")]
    reg_n = next(k for k in problem.space.knobs if k.name == "reg_n")
    other_reg_n = next(v for v in reg_n.options if v != default["reg_n"])
    points = [
        default,
        {**default, **{k.name: k.options[0] for k in blocks}},
        {**default, **{k.name: k.options[-1] for k in blocks}},
        {**default, "reg_n": other_reg_n},
    ]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "payload.mlir"
        source.write_text(payload(size))
        digests: list[str] = []
        for i, point in enumerate(points):
            schedule = Path(folder) / f"schedule_{i}.mlir"
            schedule.write_text(problem.render(point))
            digests.append(_ir_digest(source, schedule, "cpu"))
    assert digests[0] == digests[1] == digests[2]
    assert digests[3] != digests[0]
