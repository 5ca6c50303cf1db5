"""Measurement hooks that make GPU candidates fail on the device (tests/gpu/test_autotune.py).

Pickled by reference into the measurement worker, so they live in an importable module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

FAULT = """
func.func @fault(%a: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %big = arith.constant 1099511627776 : index
  %v = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %a[%big] : memref<16xf32>
    gpu.terminator
  }
  return
}
"""


def illegal_address_and_hang(
    knobs: Mapping[str, Any], run: Callable[[], list[np.ndarray]]
) -> list[np.ndarray]:
    """thread_n=8: an illegal address on the device; thread_n=32: a hang; others: the kernel."""
    if knobs.get("thread_n") == 8:
        import schedir

        schedir.compile(FAULT, target="cuda")(np.zeros(16, np.float32))
    if knobs.get("thread_n") == 32:
        time.sleep(10_000)
    return run()
