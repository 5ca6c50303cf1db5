"""Shared pytest configuration: tests marked `gpu` are skipped where no CUDA device is visible."""

from __future__ import annotations

import os

import pytest


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
