"""Open fuzz findings of other areas, each tied to its `xfail(strict=True)` regression in
test_regressions.py (`cases/<name>.mlir`; timing classes such as hangs have none, their
owners keep scaling tests): the CI campaigns report a finding that matches one of these
without failing, and fail on every other finding. The fix of a class turns its
regression into an XPASS (a failure), and then removes its mark here as well.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from schedir.testing.fuzz import Case, Outcome


@dataclass(frozen=True)
class OpenFinding:
    """A known class: why it is open (the xfail reason) and how to recognize it."""

    reason: str
    matches: Callable[[Case, Outcome], bool]


def _line_edit(case: Case) -> bool:
    return bool({"swap_lines", "duplicate_line", "delete_line"} & set(case.mutations))


OPEN: dict[str, OpenFinding] = {
    "vectorize_contraction_scaling": OpenFinding(
        "defect 9 (vector lowering): a whole-op vectorized matmul is lowered through "
        "vector.contract (3x96x105: 138 s -> 11 s), but the whole op is unrolled, so a "
        "large contraction, or a whole-op vectorized 4-d broadcast (16x17x5 -> "
        "16x17x5x5: 78 s, mutant 1795855668/1095), can still pass a campaign's time limit",
        lambda c, o: o.kind == "hang" and "vectorize" in c.text,
    ),
    "forall_of_huge_num_threads": OpenFinding(
        "the payload's own work, not a defect: a mutant's num_threads of 10^8 or more over a "
        "dimension of a few elements makes a forall of that many threads, most with empty "
        "slices, as upstream's tile_using_forall does (scf.forall in (400000000)); on the "
        "CPU they run one after another (400000000 x 3 x 16 threads: 193 s, mutant "
        "20261129/47577) and can pass a campaign's time limit",
        lambda c, o: (
            o.kind == "hang" and re.search(r"num_threads \[[^\]]*\d{9}", c.text) is not None
        ),
    ),
}


FIXED: dict[str, str] = {
    "vector_subi_of_subi_splat_zero": "campaign 112919: subi(subi(a, b), a) -> subi(0, b) on "
    "vectors built a scalar 0 for a vector type (an assertion): the 0 is a splat now",
    "float_literal_beyond_f32_is_inf": "mutants: `-1.0e39 : f32` is -inf as in MLIR, not a parse error",
    "args_written_through_function_boundaries": "defect 1: written arguments get private copies",
    "softmax_one_shot_bufferize": "defect 11: one-shot bufferize takes linalg.softmax",
    "zero_d_broadcast_vectorize": "defects 7 and 11: 0-d vectors lower",
    "unroll_factor_beyond_trip_count": "loop.unroll past the trip count copies no body",
    "softmax_fused_into_reduction_tiles": "defect 2: softmax never computed per tile",
    "huge_tile_size": "a tile size near 2**63 gives one tile",
    "broadcast_cast_fold_after_bufferize": "a memref.cast folds into linalg.broadcast only "
    "if it still verifies",
    "dim_of_cast_after_bufferize": "memref.dim folds through subviews and casts (a tile's "
    "buffer gets static sizes as its subviews do); a cast folds into a linalg op only if it "
    "still verifies",
    "forall_over_reduction_warns": "tile_using_forall over a reduction dim warns as upstream "
    "('tiling is not thread safe at axis #0') and runs on",
    "softmax_not_fused_by_structured_fuse": "linalg.softmax gives no result tile (upstream "
    "implements no generateResultTileValue for it): structured.fuse leaves it and its "
    "producers unfused, with upstream's unused clone, so later matches count as upstream's",
    "vectorize_fill_behind_softmax": "the same class: a fill fused through a softmax got a "
    "dynamic tile that vectorize (no vector sizes) cannot take; upstream fuses nothing there",
    "transposes_cancel_in_fused_tile": "a transpose of a transpose composes, to nothing "
    "when the permutations cancel (upstream's FoldTransposeWithTranspose and the transpose "
    "folder): a fused tile of the pair no longer keeps dynamic transposes that vectorize "
    "(no vector sizes) rejects",
    "fill_of_cancelled_transposes": "the same class: the fill init of the cancelled "
    "transposes is dead after canonicalization, so vectorize matches none, as upstream",
    "missing_entry_point_unlocated": "a missing entry point is reported at the module of the "
    "named sequences",
    "vectorized_reduction_over_unit_dim": "the default multi_reduction lowering keeps the "
    "parallel dims n-D instead of flattening vector<6x4xi32> to a <24 x i32> and cutting it "
    "back into rows (LLVM 22's x86 backend merged the stores of the two 128-bit rows at its "
    "middle into one 256-bit store of lanes 8..15 instead of 12..19)",
}
"""Fixed classes whose minimized case must now run clean (no finding)."""

REJECTED: dict[str, str] = {
    "negative_tile_size": "expected tile sizes to be non-negative",
}
"""Cases that upstream accepts silently and schedir rejects on purpose, with this message at
the transform op (defect 10: a negative size looped or computed garbage)."""
