"""Named lowering pipelines, declared as data: tuples of pass specs (`name{opt=value}`).

A spec string is what `schedir-opt -p` takes, so any pipeline here can be replayed, cut
short or extended from the command line.
"""

from __future__ import annotations

from types import MappingProxyType

BUFFERIZE: tuple[str, ...] = (
    # softmax and other aggregates become linalg ops, named ops become linalg.generic
    "linalg-decompose-aggregated-ops",
    "linalg-generalize-named-ops",
    # tensors become buffers; function arguments marked read-only stay untouched
    "one-shot-bufferize{bufferize-function-boundaries=true}",
    # statically shaped results are written into caller-provided buffers
    "buffer-results-to-out-params{hoist-static-allocs=true}",
)
"""Tensor-level payload (after its schedule) -> memrefs, loops not yet materialized."""

CPU_TO_LLVM: tuple[str, ...] = (
    "convert-linalg-to-loops",
    "scf-forall-to-for",
    # vector IR a schedule left: contractions, reductions, n-D transfers to 1-D ops (with
    # scf/affine index code, lowered next), then to the LLVM dialect
    "lower-vector",
    "convert-vector-to-llvm",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
)
"""Bufferized payload -> the LLVM dialect, for the CPU target."""

PIPELINES: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "bufferize": BUFFERIZE,
        "cpu-to-llvm": CPU_TO_LLVM,
        "cpu": BUFFERIZE + CPU_TO_LLVM,
    }
)
"""Every named pipeline; "cpu" is what `schedir-run --target cpu` runs after the schedule."""


def spec(pipeline: tuple[str, ...]) -> str:
    """The `-p` argument that runs `pipeline`."""
    return ",".join(pipeline)


__all__ = ["BUFFERIZE", "CPU_TO_LLVM", "PIPELINES", "spec"]
