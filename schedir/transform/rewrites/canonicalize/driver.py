"""The canonicalization driver: the greedy driver run with every op's folder, the
`canonicalization` pattern set, and the other pattern descriptors schedir implements.

Upstream's greedy driver folds every op it visits, whatever the pattern set, and the
`canonicalization` descriptor collects the canonicalization patterns of every loaded
dialect. Here the folder tables and pattern sets of each dialect (this package's modules,
and `vector.folders` for the vector dialect) are listed once, in `all_folders` and
`canonicalization_patterns`; `apply_patterns_greedily` and `apply_patterns_to_ops` run
`schedir.transform.rewrites.greedy` with them. The order of the sets is upstream's:
several patterns share a root op and are tried in the order they were added.

`pattern_set` builds the descriptors listed in `DESCRIPTORS`; the descriptors of other
dialects' pattern sets (`transform.apply_patterns.vector.*`, ...) are in
`schedir.transform.rewrites.patterns.<dialect>`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from xdsl.ir import Operation, Region
from xdsl.pattern_rewriter import PatternRewriterListener

from schedir.transform.rewrites.canonicalize import (
    affine,
    affine_loops,
    arith,
    arith_patterns,
    linalg,
    memref,
    scf,
    scf_forall,
    tensor,
    tensor_subsets,
)
from schedir.transform.rewrites.gpu import barriers
from schedir.transform.rewrites.greedy import (
    DEFAULT_CONFIG,
    NO_LIMIT,
    Folder,
    GreedyConfig,
    GreedyResult,
    PatternSet,
    folder_table,
    rewrite_ops_greedily,
    simplify_greedily,
)
from schedir.transform.rewrites.vector import folders as vector_folders


def all_folders() -> dict[type[Operation], Folder]:
    """Every op's folder (the driver folds every op, whatever the pattern set)."""
    return folder_table(
        linalg.FOLDERS,
        arith.FOLDERS,
        affine.FOLDERS,
        tensor.FOLDERS,
        memref.FOLDERS,
        vector_folders.FOLDERS,
    )


def canonicalization_patterns() -> PatternSet:
    """Upstream's `transform.apply_patterns.canonicalization`: every op's canonicalization
    patterns (of the dialects schedir implements them for)."""
    # Upstream adds the dialects' patterns (by namespace: linalg, tensor) before the
    # ops' (by op name); the order matters where several patterns share a root.
    return (
        PatternSet()
        .update(linalg.patterns())
        .update(affine.patterns())
        .update(arith_patterns.patterns())
        .update(memref.patterns())
        .update(scf.patterns())
        .update(scf_forall.patterns())
        .update(tensor.patterns())
    )


def tiling_canonicalization_patterns() -> PatternSet:
    """Upstream's `populateLinalgTilingCanonicalizationPatterns`: affine apply/min/max,
    scf.for, tensor cast/empty/extract_slice/insert_slice/pad, memref.subview, the linalg
    dialect patterns and the scf.for loop canonicalization."""
    return (
        PatternSet()
        .update(affine.patterns())
        .update(scf.for_patterns())
        .update(tensor.tiling_patterns())
        .update(memref.tiling_patterns())
        .update(linalg.dialect_patterns())
        # Upstream's set (as iree-opt 3.13 runs it) also holds the linalg ops' own patterns.
        .update(linalg.op_patterns())
        .update(for_loop_canonicalization_patterns())
    )


def for_loop_canonicalization_patterns() -> PatternSet:
    """Upstream's `scf::populateSCFForLoopCanonicalizationPatterns`: affine.min/max over
    loop induction variables, and dims of loop-carried values."""
    return PatternSet().update(affine_loops.loop_min_max_patterns()).update(scf.dim_patterns())


_DESCRIPTOR_SETS: dict[str, Callable[[], PatternSet]] = {
    "canonicalization": canonicalization_patterns,
    "linalg.tiling_canonicalization": tiling_canonicalization_patterns,
    "tensor.fold_tensor_subset_ops": tensor_subsets.fold_tensor_subset_ops_patterns,
    "scf.for_loop_canonicalization": for_loop_canonicalization_patterns,
    "gpu.eliminate_barriers": barriers.eliminate_barriers_patterns,
}
DESCRIPTORS: tuple[str, ...] = tuple(_DESCRIPTOR_SETS)
"""The pattern descriptors (without `transform.apply_patterns.`) built here."""


def pattern_set(names: Sequence[str]) -> PatternSet:
    """The union of the named descriptor sets (`canonicalization`, ...); KeyError for a
    name not in `DESCRIPTORS`."""
    patterns = PatternSet()
    for name in names:
        build = _DESCRIPTOR_SETS.get(name)
        if build is None:
            raise KeyError(name)
        patterns.update(build())
    return patterns


# --- entry points --------------------------------------------------------------------------


def apply_patterns_greedily(
    target: Operation | Region,
    patterns: PatternSet,
    config: GreedyConfig = DEFAULT_CONFIG,
    listener: PatternRewriterListener | None = None,
) -> GreedyResult:
    """Rewrite the regions of `target` (an isolated-from-above op, or one region) to a
    fixpoint, folding every op; the op itself is not rewritten."""
    return simplify_greedily(target, patterns, all_folders(), config, listener)


def apply_patterns_to_ops(
    ops: Iterable[Operation],
    patterns: PatternSet,
    config: GreedyConfig = DEFAULT_CONFIG,
    listener: PatternRewriterListener | None = None,
) -> GreedyResult:
    """Upstream's `applyOpPatternsGreedily`: one worklist pass seeded with `ops`, folding
    every op."""
    return rewrite_ops_greedily(ops, patterns, all_folders(), config, listener)


def canonicalize(
    target: Operation,
    config: GreedyConfig = DEFAULT_CONFIG,
    listener: PatternRewriterListener | None = None,
) -> GreedyResult:
    """Canonicalize the regions of an isolated-from-above op."""
    return apply_patterns_greedily(target, canonicalization_patterns(), config, listener)


__all__ = [
    "DESCRIPTORS",
    "NO_LIMIT",
    "GreedyConfig",
    "GreedyResult",
    "PatternSet",
    "all_folders",
    "apply_patterns_greedily",
    "apply_patterns_to_ops",
    "canonicalization_patterns",
    "canonicalize",
    "for_loop_canonicalization_patterns",
    "pattern_set",
    "tiling_canonicalization_patterns",
]
