"""Compile time of schedir's pipelines: parse, schedule, lowering, LLVM IR translation and
JIT (CPU) or PTX (CUDA).

    python benchmarks/compile_time.py [--repeat N]

Prints the median seconds of each step for examples/matmul.mlir, then for synthetic
payloads of about 10, 100 and 1000 ops (a chain of elementwise linalg.generic ops, each
with a small body), so the growth with payload size is visible; then for the CUDA
examples with their schedules, to PTX (no GPU needed): the tensor-core matmuls (wgmma and
mma.sync) and the reductions. The directions: the CPU pipeline well under a second for the
examples; a tensor-core schedule to PTX under 2 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import schedir
from schedir.dialects.syntax import parse_module

ROOT = Path(__file__).resolve().parent.parent
STEPS = ("parse", "schedule", "lower", "translate", "jit")
CUDA_EXAMPLES = (
    "matmul_f16_cuda",
    "matmul_bf16_cuda",
    "matmul_bias_relu_f16_cuda",
    "matmul_f16_mma_sync_cuda",
    "softmax_cuda",
    "layernorm_cuda",
    "colsum_cuda",
)
"""CUDA examples compiled with the schedule of the same name (schedules/)."""


def chain_payload(num_generics: int, rows: int = 33, cols: int = 65) -> str:
    """A function applying `num_generics` elementwise generics in a chain."""
    t = f"tensor<{rows}x{cols}xf32>"
    lines = [f"func.func @chain(%x0: {t}, %w: {t}) -> {t} {{", f"  %e = tensor.empty() : {t}"]
    ident = "affine_map<(i, j) -> (i, j)>"
    for k in range(num_generics):
        lines += [
            f"  %x{k + 1} = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}],",
            '      iterator_types = ["parallel", "parallel"]}',
            f"      ins(%x{k}, %w : {t}, {t}) outs(%e : {t}) {{",
            "  ^bb0(%a: f32, %b: f32, %o: f32):",
            "    %m = arith.mulf %a, %b : f32",
            "    %s = arith.addf %m, %a : f32",
            "    linalg.yield %s : f32",
            f"  }} -> {t}",
        ]
    lines += [f"  return %x{num_generics} : {t}", "}"]
    return "\n".join(lines) + "\n"


def count_ops(text: str) -> int:
    return sum(1 for _ in parse_module(text, "<bench>").walk()) - 1  # minus the module


def measure(
    payload: str | Path, repeat: int, schedule: Path | None = None
) -> tuple[dict[str, float], float]:
    """Median seconds per step and of the whole `schedir.compile` call (for CUDA with
    `schedule`: the last step is the PTX)."""
    per_step: dict[str, list[float]] = {s: [] for s in STEPS}
    totals: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        if schedule is None:
            kernel = schedir.compile(payload)
        else:
            kernel = schedir.compile(payload, schedule=schedule, target="cuda")
        totals.append(time.perf_counter() - start)
        for step in STEPS:
            per_step[step].append(kernel.timings.get(step, 0.0))
    return {s: statistics.median(v) for s, v in per_step.items()}, statistics.median(totals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"schedir compile time, median of {args.repeat} runs (seconds)")
    header = f"{'payload':<34}{'ops':>6}" + "".join(f"{s:>11}" for s in STEPS) + f"{'total':>11}"
    print(header)
    print("-" * len(header))
    matmul = ROOT / "examples" / "matmul.mlir"
    cases: list[tuple[str, str | Path, int, Path | None]] = [
        ("examples/matmul.mlir", matmul, count_ops(matmul.read_text()), None)
    ]
    for generics in (2, 25, 250):  # about 10, 100 and 1000 ops
        text = chain_payload(generics)
        cases.append((f"chain of {generics} generics", text, count_ops(text), None))
    for name in CUDA_EXAMPLES:
        example = ROOT / "examples" / f"{name}.mlir"
        schedule = ROOT / "schedules" / f"{name}.mlir"
        cases.append((f"{name} (PTX)", example, count_ops(example.read_text()), schedule))
    for name, payload, ops, schedule in cases:
        steps, total = measure(payload, args.repeat, schedule)
        row = f"{name:<34}{ops:>6}" + "".join(f"{steps[s]:>11.4f}" for s in STEPS)
        print(row + f"{total:>11.4f}")


if __name__ == "__main__":
    main()
