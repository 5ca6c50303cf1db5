"""The greedy driver's work stays linear in the number of constants it uniques and erases.

Each erased constant used to be looked for in every uniqued constant of every scope
(quadratic in the constants of a function: the lowered vector code of an op vectorized
whole has thousands). CPU time of this process at two sizes (not wall time: the machine
may be loaded).
"""

from __future__ import annotations

import gc
import time

import schedir
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.greedy import PatternSet


def dead_constants(n: int) -> str:
    """`n` distinct constants, each used once by a dead addf: all are erased."""
    lines = ["func.func @f(%x: f32) -> f32 {"]
    for k in range(n):
        lines.append(f"  %c{k} = arith.constant {k}.5 : f32")
        lines.append(f"  %d{k} = arith.addf %x, %c{k} : f32")
    lines += ["  return %x : f32", "}"]
    return "\n".join(lines)


def _seconds(n: int) -> float:
    module = schedir.parse(dead_constants(n))
    gc.collect()
    gc.disable()  # the collector's passes grow with the live objects, not the driver's work
    try:
        start = time.process_time()
        apply_patterns_greedily(module, PatternSet())
        seconds = time.process_time() - start
    finally:
        gc.enable()
    assert sum(1 for _ in module.walk()) == 3  # the module, the function, its return
    return seconds


def test_erasing_constants_is_linear() -> None:
    # The best of three runs at each size (a short run is noisy on a loaded machine);
    # quadratic work grows 16x when n grows 4x, linear 4x.
    _seconds(200)
    small = min(_seconds(1500) for _ in range(3))
    large = min(_seconds(6000) for _ in range(3))
    assert large < 7 * small, f"{small:.2f} s -> {large:.2f} s"
