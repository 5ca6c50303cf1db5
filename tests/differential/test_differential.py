"""Differential tests: every case under cases/ runs through upstream's transform
interpreter (iree-opt) and schedir, which must agree (see harness.py).

A case is `<name>.mlir` (payload and schedule), or `<name>.mlir` plus
`<name>.schedule.mlir` (the schedule as a preloaded library, upstream's
`--transform-preload-library`). Cases are added by dropping files into cases/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import check_case

CASES = Path(__file__).parent / "cases"
SCHEDULE_SUFFIX = ".schedule.mlir"


def _cases() -> list[Path]:
    return sorted(p for p in CASES.glob("*.mlir") if not p.name.endswith(SCHEDULE_SUFFIX))


def _library(case: Path) -> Path | None:
    library = case.with_name(case.name.removesuffix(".mlir") + SCHEDULE_SUFFIX)
    return library if library.exists() else None


@pytest.mark.parametrize("case", _cases(), ids=lambda p: p.name.removesuffix(".mlir"))
def test_case(case: Path) -> None:
    check_case(case, _library(case))
