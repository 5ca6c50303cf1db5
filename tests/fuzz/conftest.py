"""Fixtures of the fuzz tests: a runner (one worker process) and the upstream oracle."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from schedir.testing.fuzz import Runner, find_iree_opt


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runner]:
    iree_opt = find_iree_opt()
    assert iree_opt is not None, "iree-opt (iree-base-compiler, a dev dependency) is the oracle"
    scratch: Path = tmp_path_factory.mktemp("fuzz")
    runner = Runner(scratch, iree_opt, timeout=60)
    yield runner
    runner.close()


@pytest.fixture(scope="module")
def iree_opt() -> str:
    """The path of iree-opt, upstream's transform interpreter."""
    found = find_iree_opt()
    assert found is not None, "iree-opt (iree-base-compiler, a dev dependency) is the oracle"
    return found
