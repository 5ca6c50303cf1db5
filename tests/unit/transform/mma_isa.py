"""The mma.sync fragment layouts of the PTX ISA and the instruction on per-lane fragments
(numpy): the oracle of the SIMT emulators of the mma.sync route."""

from __future__ import annotations

import numpy as np

from schedir.dialects import nvgpu as ng

LANES = 32


def isa_a(i: int, g: int, t: int, tf32: bool) -> tuple[int, int]:
    """(row, col) of a_i of lane (g, t) (PTX ISA, mma.m16n8k16 / m16n8k4 .tf32 A)."""
    if tf32:
        return g + 8 * i, t
    return (g if i in (0, 1, 4, 5) else g + 8), t * 2 + (i & 1) + (8 if i >= 4 else 0)


def isa_b(i: int, g: int, t: int, tf32: bool) -> tuple[int, int]:
    """(k, col) of b_i."""
    if tf32:
        return t, g
    return t * 2 + (i & 1) + (8 if i >= 2 else 0), g


def isa_c(i: int, g: int, t: int) -> tuple[int, int]:
    """(row, col) of c_i / d_i."""
    return (g if i < 2 else g + 8), t * 2 + (i & 1)


def mma_sync(op: ng.MmaSyncOp, a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    m, n, k = op.shape
    tf32 = op.tf32Enabled is not None
    big_a, big_b, big_c = np.zeros((m, k)), np.zeros((k, n)), np.zeros((m, n))
    for lane in range(LANES):
        g, t = lane // 4, lane % 4
        for i, v in enumerate(a[lane].reshape(-1)):
            big_a[isa_a(i, g, t, tf32)] = v
        for i, v in enumerate(b[lane].reshape(-1)):
            big_b[isa_b(i, g, t, tf32)] = v
        for i, v in enumerate(c[lane].reshape(-1)):
            big_c[isa_c(i, g, t)] = v
    d = big_c + big_a @ big_b
    out = np.zeros_like(c)
    for lane in range(LANES):
        g, t = lane // 4, lane % 4
        flat = out[lane].reshape(-1)
        for i in range(flat.size):
            flat[i] = d[isa_c(i, g, t)]
    return out


__all__ = ["LANES", "isa_a", "isa_b", "isa_c", "mma_sync"]
