"""Shared pieces of the autotuner's tests: the small problem and a tuning call on it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
PAYLOAD = HERE / "small.mlir"
SCHEDULE = HERE / "small_schedule.mlir"


def tune_small(**settings: Any) -> Any:
    """`schedir.tune` on the small matmul, with fast defaults for the tests."""
    import schedir

    settings.setdefault("compile_workers", 2)
    settings.setdefault("peer", False)
    settings.setdefault("first_timeout", 5.0)
    settings.setdefault("schedule", str(SCHEDULE))
    return schedir.tune(str(PAYLOAD), **settings)


@pytest.fixture
def journal(tmp_path: Path) -> str:
    return str(tmp_path / "tune.journal")
