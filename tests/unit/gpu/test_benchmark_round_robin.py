"""benchmarks/gpu.py's interleaved timing without a GPU (the CUDA-event timer replaced by
a fake clock that drifts): every implementation is timed once per round in an order
rotated by one each round, a schedir kernel is bound once and closed, and each
implementation's time is its rounds' medians; under a clock that slows down as it runs,
equal implementations come out equal (back to back timing would rank them by position)."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from schedir.gpu.timing import Timing

GPU_BENCHMARK = Path(__file__).parents[3] / "benchmarks" / "gpu.py"


def _benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gpu_benchmark", GPU_BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up by name while they are made.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class _Drift:
    """A timer whose every timed run takes 1 ms more than the one before (a device heating
    up), recording which implementation ran when."""

    def __init__(self) -> None:
        self.clock = 0.0
        self.order: list[str] = []

    def __call__(self, fn: Callable[[], Any], *, warmup: int, repeat: int) -> Timing:
        for _ in range(warmup):
            fn()
        times = []
        for _ in range(repeat):
            self.order.append(fn())
            self.clock += 1.0
            times.append(self.clock)
        return Timing(tuple(times), warmup, True)


@pytest.mark.parametrize("rounds", [1, 3, 4, 10])
@pytest.mark.parametrize("count", [1, 2, 4])
def test_rounds_rotate_and_equal_work_times_equal(
    monkeypatch: pytest.MonkeyPatch, rounds: int, count: int
) -> None:
    bench = _benchmark()
    drift = _Drift()
    monkeypatch.setattr(bench, "time_function", drift)
    names = [f"impl{i}" for i in range(count)]
    impls = {name: (lambda *_, name=name: name) for name in names}
    medians = bench._time_round_robin(impls, [object()], rounds)
    assert list(medians) == names
    assert all(len(ms) == rounds for ms in medians.values())
    runs = bench.ROUND_RUNS
    # Each round: every implementation's runs back to back, the order rotated by one.
    for r in range(rounds):
        chunk = drift.order[r * count * runs : (r + 1) * count * runs]
        shift = r % count
        expected = names[shift:] + names[:shift]
        assert chunk == [name for name in expected for _ in range(runs)]
    if rounds % count == 0:
        # Over whole rotations every implementation sat in every slot equally often.
        means = {statistics.fmean(ms) for ms in medians.values()}
        assert len(means) == 1


def test_a_kernel_is_bound_once_and_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _benchmark()
    monkeypatch.setattr(bench, "time_function", _Drift())
    closed: list[int] = []

    class _Bound:
        def __call__(self) -> str:
            return "kernel"

        def close(self) -> None:
            closed.append(1)

    class _Kernel:
        binds = 0

        def bind(self, *inputs: Any) -> _Bound:
            _Kernel.binds += 1
            return _Bound()

    monkeypatch.setattr(bench.schedir, "Kernel", _Kernel)
    medians = bench._time_round_robin({"schedir": _Kernel(), "peer": lambda *_: "peer"}, [1], 3)
    assert _Kernel.binds == 1 and closed == [1]
    assert set(medians) == {"schedir", "peer"}
