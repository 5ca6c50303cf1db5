"""The gpu and nvvm IR schedir prints is upstream MLIR's syntax: upstream's parser
(iree-opt) reads the dialect round-trip tests and what the GPU passes print at each stage
of the cuda pipeline (`nvvm.barrier0`, a spelling upstream dropped in LLVM 22, aside)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import iree_opt

from schedir.api import OptRequest, run_opt
from schedir.diagnostics import SourceManager

REPO = Path(__file__).parents[2]
FILECHECK = REPO / "tests" / "filecheck"


def _upstream_parses(text: str) -> None:
    done = subprocess.run([iree_opt()], input=text, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ["dialects/gpu-ops.mlir", "dialects/nvvm.mlir"])
def test_dialect_tests_print_upstream_syntax(name: str) -> None:
    text = (FILECHECK / name).read_text().replace("nvvm.barrier0\n", "nvvm.barrier\n")
    _upstream_parses(run_opt(OptRequest(text=text, filename=name), SourceManager()))


@pytest.mark.parametrize(
    "pipeline",
    [
        "gpu-launch-sink-index-computations,gpu-kernel-outlining",
        "gpu-launch-sink-index-computations,gpu-kernel-outlining,convert-linalg-to-loops,convert-gpu-to-nvvm",
    ],
)
def test_pipeline_stages_print_upstream_syntax(pipeline: str) -> None:
    payload = REPO / "examples" / "softmax_cuda.mlir"
    schedule = REPO / "schedules" / "softmax_cuda.mlir"
    request = OptRequest(
        text=payload.read_text(),
        filename=str(payload),
        schedule=(str(schedule), schedule.read_text()),
        pipeline=pipeline,
    )
    _upstream_parses(run_opt(request, SourceManager()))
