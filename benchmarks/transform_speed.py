"""Transform-schedule application time: the interpreter on growing payloads.

    python benchmarks/transform_speed.py [--repeat N]

Prints the median and best milliseconds of applying a 10-op schedule (match,
tile_using_forall, fuse_into_containing_op, tile_using_for, get_parent_op, canonicalize,
cse) to payloads of about 10, 100, 200 and 1000 ops (a matmul followed by a chain of
elementwise generics), parse and print excluded, the final verification of the payload
included (as `schedir-opt` and upstream's pass manager do it), and the cost of each op
beyond the smallest payload: flat when application time grows linearly. The direction of
the issue: a 10-op schedule on a 200-op payload in well under 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.pipeline import apply_schedule
from schedir.transform.builder import Schedule


def payload(num_generics: int, m: int = 64, n: int = 48, k: int = 32) -> str:
    """A matmul feeding a chain of `num_generics` elementwise generics."""
    t = f"tensor<{m}x{n}xf32>"
    ident = "affine_map<(i, j) -> (i, j)>"
    lines = [
        f"func.func @f(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %w: {t}) -> {t} {{",
        "  %zero = arith.constant 0.0 : f32",
        f"  %e = tensor.empty() : {t}",
        f"  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}",
        f"  %x0 = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%acc : {t}) -> {t}",
    ]
    for i in range(num_generics):
        lines += [
            f"  %x{i + 1} = linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}],",
            '      iterator_types = ["parallel", "parallel"]}',
            f"      ins(%x{i}, %w : {t}, {t}) outs(%e : {t}) {{",
            "  ^bb0(%p: f32, %q: f32, %o: f32):",
            "    %s = arith.addf %p, %q : f32",
            "    %r = arith.maximumf %s, %zero : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {t}",
        ]
    lines += [f"  return %x{num_generics} : {t}", "}"]
    return "\n".join(lines) + "\n"


def schedule() -> str:
    """Tile the matmul into a forall, fuse its fill, tile k, clean up (10 transform ops)."""
    s = Schedule()
    mm = s.match(s.root, ops=["linalg.matmul"])
    fill = s.match(s.root, ops=["linalg.fill"])
    tiled, forall = s.tile_using_forall(mm, tile_sizes=[16, 16])
    _, _forall2 = s.fuse_into_containing_op(fill, forall)
    _, k_loop = s.tile_using_for(tiled, tile_sizes=[0, 0, 8])
    func = s.get_parent_op(k_loop, "func.func")
    s.apply_patterns(func, ["canonicalization", "linalg.tiling_canonicalization"])
    s.apply_cse(func)
    return s.to_mlir()


SIZES = (10, 100, 200, 1000)
"""Payload sizes (ops) measured: each generic of the chain adds 4 ops to a base of 10."""


def generics_for(num_ops: int) -> int:
    """The chain length giving a payload of about `num_ops` ops."""
    return max(0, round((num_ops - 10) / 4))


def time_apply(payload_text: str, schedule_text: str, repeat: int) -> tuple[list[float], int]:
    """Seconds of each application of the schedule (parse excluded), and the payload's op
    count."""
    ctx = get_context()
    library = parse_module(schedule_text, "<schedule>", ctx=ctx)
    base = parse_module(payload_text, "<payload>", ctx=ctx)
    ops = sum(1 for _ in base.walk()) - 1
    apply_schedule(ctx, base.clone(), library)  # warm-up: lazy imports, pattern tables
    times = []
    for _ in range(repeat):
        module = base.clone()
        start = time.perf_counter()
        apply_schedule(ctx, module, library)
        times.append(time.perf_counter() - start)
    return times, ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    sched = schedule()
    print(f"schedule application, {args.repeat} runs (10-op schedule)")
    header = f"{'target':>8}{'ops':>8}{'median ms':>12}{'best ms':>10}{'ms/extra op':>13}"
    print(header)
    print("-" * len(header))
    smallest: tuple[int, float] | None = None
    for target in SIZES:
        times, ops = time_apply(payload(generics_for(target)), sched, args.repeat)
        median = statistics.median(times) * 1e3
        row = f"{target:>8}{ops:>8}{median:>12.2f}{min(times) * 1e3:>10.2f}"
        if smallest is None:
            smallest = (ops, median)
            print(row + f"{'-':>13}")
            continue
        extra = (median - smallest[1]) / (ops - smallest[0])
        print(row + f"{extra:>13.4f}")


if __name__ == "__main__":
    main()
