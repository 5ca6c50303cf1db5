"""Fixtures of the CPU-only GPU back-end tests (PTX and ptxas; no device needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from schedir.diagnostics import ToolError
from schedir.gpu import find_libdevice, find_ptxas

HERE = Path(__file__).parent


def _tool_or_fail(find: object, in_ci: bool) -> Path:
    try:
        return find()  # type: ignore[operator]
    except ToolError as err:
        # The brief for CI: a missing CUDA toolkit is a failure there, not a skip.
        if in_ci:
            pytest.fail(f"CI=true and the CUDA toolkit is incomplete: {err}")
        pytest.skip(f"CUDA toolkit not installed here: {err.message}")


@pytest.fixture(scope="session")
def ptxas(in_ci: bool) -> Path:
    """The ptxas executable (a failure under CI=true if missing, a skip elsewhere)."""
    return _tool_or_fail(find_ptxas, in_ci)


@pytest.fixture(scope="session")
def libdevice(in_ci: bool) -> Path:
    """libdevice.10.bc (a failure under CI=true if missing, a skip elsewhere)."""
    return _tool_or_fail(find_libdevice, in_ci)
