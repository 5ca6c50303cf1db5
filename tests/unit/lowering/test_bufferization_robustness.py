"""The tensor-to-memref passes on every IR file of the repository (lit inputs, examples):
whatever they are given, they either lower it or report a diagnostic at an op, never a
Python exception."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedir.diagnostics import SchedirError
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.pipeline import parse_pass_pipeline, run_passes, strip_schedule

ROOT = Path(__file__).parents[3]
PIPELINES = (
    "linalg-decompose-aggregated-ops,linalg-generalize-named-ops,"
    "one-shot-bufferize{bufferize-function-boundaries=true},"
    "buffer-results-to-out-params{hoist-static-allocs=true},"
    "convert-linalg-to-loops,scf-forall-to-for,convert-scf-to-cf",
    "one-shot-bufferize",
    "one-shot-bufferize{bufferize-function-boundaries=true allow-unknown-ops=true "
    "copy-before-write=true}",
)


def _chunks() -> list[tuple[str, str]]:
    files = sorted((ROOT / "tests" / "filecheck").rglob("*.mlir")) + sorted(
        (ROOT / "examples").glob("*.mlir")
    )
    chunks: list[tuple[str, str]] = []
    for path in files:
        if "Output" in path.parts:
            continue
        for index, chunk in enumerate(path.read_text().split("// -----")):
            chunks.append((f"{path.relative_to(ROOT)}#{index}", chunk))
    return chunks


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["cpu-half", "no-boundaries", "unknown-ops"])
def test_passes_never_raise_python_exceptions(pipeline: str) -> None:
    crashes: list[str] = []
    for name, chunk in _chunks():
        ctx = get_context()
        try:
            module = parse_module(chunk, ctx=ctx)
        except SchedirError:
            continue  # an invalid-syntax test input
        strip_schedule(module)
        try:
            run_passes(ctx, module, parse_pass_pipeline(pipeline))
        except SchedirError:
            continue
        except Exception as err:  # the point is to catch anything else
            crashes.append(f"{name}: {type(err).__name__}: {err}")
    assert not crashes, "\n".join(crashes)
