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
    "args_written_through_function_boundaries": OpenFinding(
        "defect 1 (bufferization / calling convention): an accumulator in a function "
        "argument is written in place under bufferize_function_boundaries, so --check "
        "reads a clobbered input and mismatches",
        lambda c, o: (
            o.kind == "wrong"
            and "bufferize_function_boundaries = true" in c.text
            and re.search(r"outs\(%arg\d+", c.text) is not None
        ),
    ),
    "softmax_one_shot_bufferize": OpenFinding(
        "defect 11 (bufferization): one-shot bufferize rejects linalg.softmax on tensors, "
        "which upstream bufferizes",
        lambda c, o: o.kind == "rejects-valid" and "'linalg.softmax' on tensors" in o.detail,
    ),
    "zero_d_broadcast_vectorize": OpenFinding(
        "defects 7 and 11 (vectorization, vector lowering): a 0-d vector (a broadcast of a "
        "0-d tensor, a full reduction) leaves a vector<T> to vector<1xT> cast or fails to splat",
        lambda c, o: (
            (o.kind == "rejects-valid" and "unrealized conversion cast" in o.detail)
            or (o.kind == "crash" and "IndexError: tuple index out of range" in o.detail)
        ),
    ),
    "unroll_factor_beyond_trip_count": OpenFinding(
        "loops (transform.loop.unroll): a factor far beyond the constant trip count (4e8 on "
        "13 iterations) hangs instead of unrolling fully",
        lambda c, o: o.kind == "hang" and "transform.loop.unroll" in c.text,
    ),
    "softmax_fused_into_reduction_tiles": OpenFinding(
        "defect 2 (tiling, fusion): a linalg.softmax tiled along its dimension, or fused "
        "into tiles that split it (here by structured.fuse of its transpose), is computed "
        "per tile",
        lambda c, o: (
            o.kind == "wrong"
            and "linalg.softmax" in c.text
            and re.search(r"transform\.structured\.(fuse|tile_using)", c.text) is not None
        ),
    ),
    "forall_over_reduction_warns": OpenFinding(
        "tiling (tile_using_forall): tiling a reduction dimension with a forall races; "
        "upstream warns 'tiling is not thread safe at axis #0', schedir is silent",
        lambda c, o: False,  # the generator keeps reduction dims out of foralls
    ),
    "huge_tile_size": OpenFinding(
        "tiling: a tile size near 2**63 (accepted upstream) overflows the loop bounds: "
        "convert-arith-to-llvm fails on an out-of-range constant, reported without a "
        "location (tile_using_forall with such a size hangs)",
        lambda c, o: (
            o.kind in ("bad-diagnostic", "hang", "crash", "rejects-valid")
            and re.search(r"(tile_sizes|num_threads) \[[^\]]*\d{10}", c.text) is not None
        ),
    ),
    "negative_tile_size": OpenFinding(
        "defect 10 (tiling): a negative tile size (here -7 in tile_using_forall) is not "
        "rejected at the op; the result is wrong or the run loops",
        lambda c, o: re.search(r"(tile_sizes|num_threads) \[[^\]]*-\d", c.text) is not None,
    ),
    "missing_entry_point_unlocated": OpenFinding(
        "transform interpreter: 'could not find a nested named sequence with name: "
        "__transform_main' has no file:line:col (upstream points at the module)",
        lambda c, o: o.kind == "bad-diagnostic" and "could not find a nested named" in o.detail,
    ),
    "vectorize_contraction_scaling": OpenFinding(
        "defect 9 (vector lowering): vectorizing a whole 6x8x9x9 batch_matmul does not "
        "finish in 60 s",
        lambda c, o: o.kind == "hang" and "vectorize" in c.text,
    ),
}
