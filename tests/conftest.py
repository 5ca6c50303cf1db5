"""Shared pytest configuration: GPU tests are skipped where no CUDA device is visible."""

from __future__ import annotations

import os

import pytest


def _cuda_available() -> bool:
    try:
        from cuda.bindings import driver  # type: ignore[import-not-found]
    except ImportError:
        return False
    (err,) = driver.cuInit(0)[:1]
    if int(err) != 0:
        return False
    err, count = driver.cuDeviceGetCount()
    return int(err) == 0 and count > 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if any("gpu" in item.keywords for item in items) and not _cuda_available():
        skip = pytest.mark.skip(reason="no CUDA device")
        for item in items:
            if "gpu" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def in_ci() -> bool:
    return os.environ.get("CI") == "true"
