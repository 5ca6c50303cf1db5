"""The greedy driver tries a fold pattern only where its own fold did not just try the
same folder on the same op (the second call could only repeat the first's answer)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects import arith
from xdsl.ir import Operation

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.transform.rewrites.greedy import (
    FoldPattern,
    FoldResult,
    GreedyConfig,
    PatternSet,
    simplify_greedily,
)
from schedir.transform.rewrites.vector.folders import apply_fold


def _module(count: int) -> Operation:
    adds = "\n".join(f"  %r{i} = arith.addi %a, %b : i32" for i in range(count))
    uses = ", ".join(f"%r{i}" for i in range(count))
    types = ", ".join("i32" for _ in range(count))
    text = f"func.func @f(%a: i32, %b: i32) -> ({types}) {{\n{adds}\n  return {uses} : {types}\n}}"
    return parse_module(text, "<test>", ctx=get_context())


def _counting() -> tuple[Callable[[Operation], FoldResult], list[Operation]]:
    seen: list[Operation] = []

    def folder(op: Operation) -> FoldResult:
        seen.append(op)
        return None

    return folder, seen


@pytest.mark.parametrize("count", [1, 3, 7])
@pytest.mark.parametrize("fold", [True, False])
def test_folder_runs_once_per_visit(count: int, fold: bool) -> None:
    folder, seen = _counting()
    patterns = PatternSet().add(arith.AddiOp, FoldPattern(folder, apply_fold))
    simplify_greedily(_module(count), patterns, {arith.AddiOp: folder}, GreedyConfig(fold=fold))
    assert len(seen) == count  # once per addi: by the driver's fold, or by the pattern


@pytest.mark.parametrize("count", [1, 4])
def test_fold_pattern_of_another_folder_still_runs(count: int) -> None:
    driver_folder, driver_seen = _counting()
    pattern_folder, pattern_seen = _counting()
    patterns = PatternSet().add(arith.AddiOp, FoldPattern(pattern_folder, apply_fold))
    simplify_greedily(_module(count), patterns, {arith.AddiOp: driver_folder})
    assert len(driver_seen) == len(pattern_seen) == count
