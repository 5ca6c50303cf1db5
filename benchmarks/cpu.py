"""The CPU schedules of schedules/ against numpy on the same machine, in the same run.

    python benchmarks/cpu.py [--min-time SECONDS] [--only NAME[,NAME...]] [--clock wall|thread]
                             [--knobs JSON ...]

Both run on one thread: OpenBLAS/MKL/OpenMP are limited to one thread before numpy is
imported, and schedir's kernels are single-threaded (their scf.forall loops run as loops on
the CPU). Each example payload `examples/<name>_cpu.mlir` is compiled with its schedule
`schedules/<name>_cpu.mlir` (compile time reported apart), checked against the reference
on random inputs, then the schedir kernel (outputs allocated once) and the idiomatic numpy
version of the same computation are called alternately until `--min-time` has passed for
both; the table gives the median milliseconds, GFLOP/s for the matmuls and GB/s
(inputs read once, outputs written once) for the others, and schedir's speed relative to
numpy's (numpy time / schedir time) next to the target of each case.

Knob selections: a schedule is compiled with its `selected` knobs, except where the host's
instruction set has its own (`ISA_KNOBS`: matmul's selected 6x64 register tile is
AVX-512's, whose 32 registers of 16 floats hold it; on AVX2 without AVX-512, whose 16
registers of 8 floats cannot, it is 6x16).
`--knobs '{"reg_m": 6}'` (repeatable) measures the given selections instead, one row each,
every row against numpy in the same run.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Mapping  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import llvmlite.binding as llvm  # noqa: E402
import numpy as np  # noqa: E402

import schedir  # noqa: E402
from schedir import reference  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray) -> np.ndarray:
    mean = x.mean(axis=1, keepdims=True)
    d = x - mean
    var = (d * d).mean(axis=1, keepdims=True)
    return d / np.sqrt(var + np.float32(1e-5)) * gamma + beta


def _swish(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    t = a * b + c
    return t / (np.float32(1.0) + np.exp(-t))


@dataclass(frozen=True)
class Case:
    """One schedule, the numpy version of its payload and the target speed ratio."""

    name: str
    numpy: Callable[..., np.ndarray]
    target: float
    matmul: bool = False


CASES: tuple[Case, ...] = (
    Case("matmul", lambda a, b: a @ b, 0.95, matmul=True),
    Case("matmul_bias_relu", lambda a, b, bias: np.maximum(a @ b + bias, 0), 0.5, matmul=True),
    Case("elementwise", _swish, 1.0),
    Case("softmax", _softmax, 1.0),
    Case("layernorm", _layernorm, 1.0),
)


ISA_KNOBS: dict[str, dict[str, dict[str, int]]] = {
    "avx512f": {"matmul": {}},
    "avx2": {"matmul": {"reg_m": 6, "reg_n": 16}},
}
"""Knob selections per host CPU feature (LLVM's name), for the cases named: the first
feature the host has wins; without one, the schedule's `selected` values."""


def host_knobs(case: str, features: str | None = None) -> dict[str, int]:
    """The knob selection for `case` on a host with LLVM feature string `features` (this
    host's when None)."""
    if features is None:
        llvm.initialize_native_target()
        features = llvm.get_host_cpu_features().flatten()
    have = set(features.split(","))
    for feature, cases in ISA_KNOBS.items():
        if f"+{feature}" in have and case in cases:
            return dict(cases[case])
    return {}


@dataclass(frozen=True)
class Row:
    name: str
    compile_s: float
    schedir_s: float
    numpy_s: float
    rate_unit: str
    work: float
    target: float

    @property
    def ratio(self) -> float:
        return self.numpy_s / self.schedir_s


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "thread": time.thread_time}


def _alternate(
    first: Callable[[], object],
    second: Callable[[], object],
    min_time: float,
    clock: Callable[[], float] = time.perf_counter,
):
    """Median seconds of each callable by `clock`, called in turns (same machine state for
    both)."""
    first()
    second()
    a: list[float] = []
    b: list[float] = []
    start = time.perf_counter()
    while time.perf_counter() - start < 2 * min_time or len(a) < 5:
        for fn, times in ((first, a), (second, b)):
            t0 = clock()
            fn()
            times.append(clock() - t0)
    return statistics.median(a), statistics.median(b)


def run_case(
    case: Case,
    min_time: float,
    clock: Callable[[], float] = time.perf_counter,
    knobs: Mapping[str, int] | None = None,
) -> Row:
    """`knobs`: the selection to compile with (None: `host_knobs`)."""
    payload = ROOT / "examples" / f"{case.name}_cpu.mlir"
    schedule = ROOT / "schedules" / f"{case.name}_cpu.mlir"
    chosen = dict(knobs) if knobs is not None else host_knobs(case.name)
    label = case.name
    if chosen:
        label += "[" + ",".join(f"{k}={v}" for k, v in sorted(chosen.items())) + "]"
    t0 = time.perf_counter()
    kernel = schedir.compile(payload, schedule=schedule, target="cpu", knobs=chosen or None)
    compile_s = time.perf_counter() - t0
    inputs = reference.random_inputs(kernel.signature, seed=0)
    expected = reference.evaluate_with_bounds(payload.read_text(), kernel.signature.name, inputs)
    (got,) = kernel.run(*inputs, prefill_nan=True)
    check = reference.compare(got, expected[0], np.float32)
    if not check.ok:
        raise SystemExit(f"{label}: schedir result differs from the reference: {check.message}")
    ours = kernel.bind(*inputs)
    theirs = lambda: case.numpy(*inputs)  # noqa: E731
    schedir_s, numpy_s = _alternate(ours, theirs, min_time, clock)
    if case.matmul:
        m, k = inputs[0].shape
        n = inputs[1].shape[1]
        return Row(label, compile_s, schedir_s, numpy_s, "GFLOP/s", 2.0 * m * n * k, case.target)
    moved = sum(a.nbytes for a in inputs) + got.nbytes
    return Row(label, compile_s, schedir_s, numpy_s, "GB/s", float(moved), case.target)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--min-time", type=float, default=1.0, help="seconds of timing per side")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="what a call's time is"
    )
    parser.add_argument(
        "--knobs",
        action="append",
        type=json.loads,
        default=[],
        help="a JSON object of knob values to compile with (repeatable: one row each)",
    )
    args = parser.parse_args()
    wanted = {n for n in args.only.split(",") if n}
    clock = CLOCKS[args.clock]
    selections: list[dict[str, int] | None] = args.knobs or [None]
    rows = [
        run_case(c, args.min_time, clock, knobs)
        for c in CASES
        if not wanted or c.name in wanted
        for knobs in selections
    ]
    width = max(18, *(len(r.name) + 2 for r in rows))
    print(
        f"{'case':<{width}}{'schedir ms':>11}{'numpy ms':>10}{'schedir':>10}{'numpy':>10}"
        f"{'':<9}{'ratio':>7}{'target':>8}{'compile s':>11}"
    )
    for r in rows:
        ours, theirs = r.work / r.schedir_s / 1e9, r.work / r.numpy_s / 1e9
        verdict = "" if r.ratio >= r.target else "  MISS"
        print(
            f"{r.name:<{width}}{r.schedir_s * 1e3:>11.3f}{r.numpy_s * 1e3:>10.3f}{ours:>10.1f}"
            f"{theirs:>10.1f} {r.rate_unit:<8}{r.ratio:>7.2f}{r.target:>8.2f}"
            f"{r.compile_s:>11.2f}{verdict}"
        )
    print(
        "ratio = schedir speed / numpy speed (numpy median time / schedir median time);"
        f" {args.clock} clock"
    )


if __name__ == "__main__":
    main()
