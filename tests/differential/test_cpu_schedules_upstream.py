"""The CPU schedules (`schedules/*_cpu.mlir`) are schedules upstream MLIR runs: iree-opt's
transform interpreter accepts each one whole on a small version of its example payload, and
up to bufferization (the tensor-level tiling, fusion and vectorization) both interpreters
give the same loop and structured-op structure (harness.py).

iree-opt does not register upstream's math transform extension, so
`transform.apply_patterns.math.polynomial_approximation` is left out of the copies given
to both interpreters here, nor its tune extension, so each `transform.tune.knob` becomes
a `transform.param.constant` of its selected value; everything else is as written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from harness import check_case, run_schedir, run_upstream

REPO = Path(__file__).parents[2]
UPSTREAM_LACKS = "transform.apply_patterns.math.polynomial_approximation"
SMALL: dict[str, dict[str, str]] = {
    "matmul_cpu": {"1024x1024": "128x128"},
    "matmul_bias_relu_cpu": {"1024x1024": "128x128", "1024xf32": "128xf32"},
    "softmax_cpu": {"4096x1024": "8x128"},
    "layernorm_cpu": {
        "4096x1024": "8x128",
        "1024xf32": "128xf32",
        "4096xf32": "8xf32",
        "1024.0": "128.0",
    },
    "elementwise_cpu": {"2048x2048": "16x128"},
}
BUFFERIZE = "    %root_b = transform.bufferization.one_shot_bufferize"
KNOB = re.compile(r'transform\.tune\.knob<"[^"]*">\s*=\s*(-?\d+)\s+from\s+options\s*=\s*\[[^\]]*\]')


CONSTRAINT = re.compile(r"^ *transform\.smt\.constrain_params\(.*?^    \}\n", re.M | re.S)
"""A `transform.smt.constrain_params` op with its region (closed at the schedule's indent)."""


def _payload(name: str, tmp: Path) -> Path:
    text = (REPO / "examples" / f"{name}.mlir").read_text()
    for old, new in SMALL[name].items():
        text = text.replace(old, new)
    path = tmp / f"{name}.mlir"
    path.write_text(text)
    return path


def _schedule(name: str, tmp: Path, *, tensor_level: bool) -> Path:
    lines = (REPO / "schedules" / f"{name}.mlir").read_text().splitlines(keepends=True)
    text = "".join(line for line in lines if UPSTREAM_LACKS not in line)
    # iree-opt does not register the SMT extension: the constraints are checked by schedir.
    text = CONSTRAINT.sub("", text)
    text = KNOB.sub(r"transform.param.constant \1 : i64", text)
    if tensor_level:
        text = text[: text.index(BUFFERIZE)] + "    transform.yield\n  }\n}\n"
    path = tmp / f"{name}.schedule{'.tensor' if tensor_level else ''}.mlir"
    path.write_text(text)
    return path


def test_every_cpu_schedule_is_covered() -> None:
    assert sorted(SMALL) == sorted(p.stem for p in (REPO / "schedules").glob("*_cpu.mlir"))


@pytest.mark.parametrize("name", sorted(SMALL))
def test_upstream_accepts_whole_schedule(name: str, tmp_path: Path) -> None:
    payload = _payload(name, tmp_path)
    schedule = _schedule(name, tmp_path, tensor_level=False)
    upstream = run_upstream(payload, schedule)
    assert upstream.ok, upstream.message
    ours = run_schedir(payload, schedule)
    assert ours.ok, ours.message


@pytest.mark.parametrize("name", sorted(SMALL))
def test_tensor_level_structure_matches_upstream(name: str, tmp_path: Path) -> None:
    check_case(_payload(name, tmp_path), _schedule(name, tmp_path, tensor_level=True))
