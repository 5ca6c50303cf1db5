"""Schedule (e): `foreach_match` with `match.structured` matchers, in its own file.

The reference schedule (transform-inventory.md §2 e) tiles the contraction whose loop 0 is
at least 128 (forall 64x128 on GPU blocks, then k by 32, sizes as `!transform.param<i64>`)
and tags every other structured op. Applied to its payload it must tile only the 512x1024
matmul, tag the 8x8 matmul and the generic as upstream does, print/parse/apply the same,
and compute what the untransformed payload computes.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ShapedType
from xdsl.ir import Operation

import schedir
from schedir.api import OptRequest, run_opt
from schedir.diagnostics import SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from tests.helpers import check_kernel

SCHEDULES = Path(__file__).parents[2] / "data" / "reference_schedules"
TAGS = ("schedir.tuned", "schedir.untouched")


def _reference_file(name: str) -> Path:
    return SCHEDULES / name


def _payload() -> Path:
    return _reference_file("e_payload.mlir")


def _schedule() -> Path:
    return _reference_file("e_schedule.mlir")


def _apply(payload: str, schedule: str) -> str:
    request = OptRequest(
        text=payload, filename="e_payload.mlir", schedule=("e_schedule.mlir", schedule)
    )
    return run_opt(request, SourceManager())


def _shape(value: object) -> tuple[int, ...]:
    t = getattr(value, "type", None)
    return tuple(t.get_shape()) if isinstance(t, ShapedType) else ()


def _summary(text: str) -> list[str]:
    """The loops and structured ops of the payload, nested, with their schedir tags:
    comparable between schedir and upstream (value names and constants aside)."""
    module = parse_module(text, "<summary>", ctx=get_context(), verify=False)
    lines: list[str] = []

    def visit(op: Operation, depth: int) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.name.startswith("transform."):
                        continue
                    tags = sorted(t for t in TAGS if t in inner.attributes)
                    if inner.name == "scf.forall":
                        ubs = inner.properties["staticUpperBound"]
                        mapping = inner.attributes.get("mapping") or inner.properties.get("mapping")
                        assert isinstance(mapping, ArrayAttr)
                        label = (
                            f"scf.forall {list(ubs.get_values())} {[str(m) for m in mapping.data]}"  # type: ignore[union-attr]
                        )
                    elif inner.name == "scf.for":
                        bounds = [_constant(v) for v in inner.operands[:3]]
                        label = f"scf.for {bounds}"
                    elif inner.name.startswith("linalg.") and inner.name not in ("linalg.yield",):
                        label = f"{inner.name} {[_shape(v) for v in inner.operands]}"
                    else:
                        visit(inner, depth)
                        continue
                    lines.append("  " * depth + label + (f" {tags}" if tags else ""))
                    visit(inner, depth + 1)

    visit(module, 0)
    return lines


def _constant(value: object) -> int | None:
    owner = getattr(value, "op", None)
    if owner is None or owner.name != "arith.constant":
        return None
    attr = owner.properties.get("value", owner.attributes.get("value"))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


EXPECTED = [
    "scf.forall [8, 8] ['#gpu.block<y>', '#gpu.block<x>'] ['schedir.tuned']",
    "  scf.for [0, 256, 32]",
    "    linalg.matmul [(64, 32), (32, 128), (64, 128)]",
    "linalg.matmul [(8, 16), (16, 8), (8, 8)] ['schedir.untouched']",
    "linalg.generic [(8, 8), (8, 8)] ['schedir.untouched']",
]


def test_only_the_large_contraction_is_tiled_and_the_rest_tagged() -> None:
    out = _apply(_payload().read_text(), _schedule().read_text())
    assert _summary(out) == EXPECTED


def test_agrees_with_upstream() -> None:
    iree_opt = shutil.which("iree-opt")
    assert iree_opt is not None, "iree-opt (pip install iree-base-compiler) is the upstream oracle"
    upstream = subprocess.run(
        [
            iree_opt,
            f"--transform-preload-library=transform-library-paths={_schedule()}",
            "--transform-interpreter",
            str(_payload()),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert _summary(upstream.stdout) == EXPECTED


def test_the_threshold_param_decides_what_is_tiled() -> None:
    """The matcher's `dim[0] >= 128` is a param: raised to 1024, nothing is a large matmul."""
    schedule = _schedule().read_text()
    assert schedule.count("transform.param.constant 128 : i64") == 2  # threshold and tile n
    raised = schedule.replace(
        "%min = transform.param.constant 128 : i64", "%min = transform.param.constant 1024 : i64"
    )
    assert raised != schedule
    summary = _summary(_apply(_payload().read_text(), raised))
    assert summary == [
        "linalg.matmul [(512, 256), (256, 1024), (512, 1024)] ['schedir.untouched']",
        "linalg.matmul [(8, 16), (16, 8), (8, 8)] ['schedir.untouched']",
        "linalg.generic [(8, 8), (8, 8)] ['schedir.untouched']",
    ]


def test_printed_schedule_replays_the_same() -> None:
    schedule = parse_module(_schedule().read_text(), "e_schedule.mlir", ctx=get_context())
    printed = print_op(schedule)
    payload = _payload().read_text()
    assert _apply(payload, printed) == _apply(payload, _schedule().read_text())


def test_numerics_match_the_reference() -> None:
    payload = _payload()
    kernel = schedir.compile(payload, schedule=_schedule())
    assert "scf.forall" in kernel.stages["scheduled"]
    assert len(kernel.signature.results) == 2
    # The large matmul reduces over 256, the small one (feeding the negation) over 16.
    check_kernel(kernel, payload, seed=3, reduction=(256, 16))
