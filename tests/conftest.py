"""Shared pytest configuration: tests marked `gpu` are skipped where no CUDA device is visible."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Every generated-case test compiles and runs programs: an example takes seconds on a loaded
# CI machine (no deadline, no too-slow check), the cases are large on purpose, and runs share
# no example database (each CI run is a fresh clone). Tests set only `max_examples`.
settings.register_profile(
    "schedir",
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("schedir")


def _cuda_available() -> bool:
    """True if cuda-python imports and the driver reports at least one device."""
    try:
        from cuda.bindings import driver  # type: ignore[import-not-found]

        (err,) = driver.cuInit(0)[:1]
        if int(err) != 0:
            return False
        err, count = driver.cuDeviceGetCount()
        return int(err) == 0 and count > 0
    except Exception:  # no cuda-python, no driver library, no device: all mean "no GPU"
        return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The marker, not `item.keywords`: keywords also hold folder names (tests/unit/gpu/).
    gpu_items = [item for item in items if item.get_closest_marker("gpu") is not None]
    if gpu_items and not _cuda_available():
        skip = pytest.mark.skip(reason="no CUDA device")
        for item in gpu_items:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def in_ci() -> bool:
    return os.environ.get("CI") == "true"


@pytest.fixture(scope="session", autouse=True)
def _temporary_files_in_basetemp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Temporary files of the code under test (compile repros kept by failing-on-purpose
    tests, folders of killed tuning runs) go into pytest's base folder, which pytest prunes
    to the last runs, not into the user's /tmp for good; subprocesses inherit TMPDIR."""
    folder = tmp_path_factory.mktemp("tmp", numbered=False)
    saved_env, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = str(folder)
    yield
    tempfile.tempdir = saved_tempdir
    if saved_env is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = saved_env
