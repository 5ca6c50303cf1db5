"""Distributing a copy over GPU threads (upstream Linalg/TransformOps/GPUHeuristics.cpp
`CopyMappingInfo` and `MapCopyToThreadsOp`).

The most minor dimension is copied in vectors of `gcd(alignment / bitwidth, size,
128 / bitwidth)` elements; the thread counts per dimension are the largest product of
divisors of the sizes that fits `total_num_threads`, with the most minor dimension taking
all its vectors (coalesced accesses). Smaller vectors are tried when the threads are not
all used; if none fills them, the first vector size is kept (the forall then runs under
predication once mapped). The op is tiled into an `scf.forall` with those thread counts,
mapped to `[#gpu.thread<linear_dim_{r-1}>, ..., #gpu.thread<linear_dim_0>]`.

    %r = linalg.copy ins(%a : tensor<16x64xf32>) outs(%b : tensor<16x64xf32>) -> ...
    // total_num_threads = 128, desired_bit_alignment = 128 ->
    scf.forall (%i, %j) in (8, 16) shared_outs(...) { linalg.copy of 2x4 } {mapping =
        [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd, prod

from xdsl.dialects import tensor
from xdsl.dialects.builtin import IndexType, IntegerType, ShapedType
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriterListener

from schedir.dialects import linalg
from schedir.dialects.gpu.attributes import MappingId, ThreadMappingAttr
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.tiling.tile_using_scf import (
    TilingError,
    TilingOptions,
    tile_using_scf,
)

MAX_VECTOR_LOAD_BITS = 128
"""Upstream's kMaxVectorLoadBitWidth: the widest load a thread issues."""

TOO_FEW_THREADS = (
    "too few threads to map copy op to threads on the most minor dimension, given "
    "alignment and vector size constraints, try smaller tile size of mapping to more threads"
)


class CopyMappingError(Exception):
    """The copy cannot be distributed (upstream's silenceable message)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class CopyMapping:
    """Threads per dimension, the vector size of the most minor one, and the mapping."""

    num_threads: tuple[int, ...]
    vector_size: int
    mapping: tuple[Attribute, ...]
    requires_predication: bool


@dataclass(frozen=True)
class CopyToThreadsResult:
    """The forall and the tiled copy inside it."""

    forall: Operation
    tiled: Operation


def _factors(value: int) -> list[int]:
    # Upstream lists `value` twice (its loop and a final push); harmless for the search.
    return [f for f in range(1, value + 1) if value % f == 0] + [value]


def _maximize_num_threads(sizes: Sequence[int], index: int, limit: int) -> list[int]:
    """Upstream's maximizeNumThreads: per-dimension thread counts from `index` on."""
    if index == len(sizes) - 1:
        return [sizes[index]]
    best = 0
    choice: list[int] = []
    for factor in _factors(sizes[index]):
        nested = _maximize_num_threads(sizes, index + 1, limit // factor)
        local = factor * prod(nested)
        if best < local <= limit:
            choice = [factor, *nested]
            best = local
    return choice


def _infer(total: int, sizes: Sequence[int], vector: int) -> tuple[str, list[int]]:
    scaled = list(sizes)
    scaled[-1] //= vector
    if scaled[-1] > total:
        return "invalid", []
    threads = _maximize_num_threads(scaled, 0, total)
    used = prod(threads) if threads else 0
    if used == 0 or used > total:
        return "invalid", []
    return ("success" if used == total else "predication"), threads


def copy_mapping(
    total_threads: int, bit_alignment: int, sizes: Sequence[int], bitwidth: int
) -> CopyMapping:
    """Upstream's CopyMappingInfo (favorPredication = false)."""
    if MAX_VECTOR_LOAD_BITS % bitwidth or bit_alignment % bitwidth:
        raise CopyMappingError(f"element bit width {bitwidth} does not divide the alignment")
    desired = gcd(gcd(bit_alignment // bitwidth, sizes[-1]), MAX_VECTOR_LOAD_BITS // bitwidth)
    vector = desired
    status, threads = "invalid", []
    while vector >= 1:
        status, threads = _infer(total_threads, sizes, vector)
        if status in ("success", "invalid"):
            break
        vector //= 2
    if status == "predication" or vector < 1:
        vector = desired
        status, threads = _infer(total_threads, sizes, vector)
    if status == "invalid":
        raise CopyMappingError(TOO_FEW_THREADS)
    ids = list(MappingId)
    mapping = tuple(ThreadMappingAttr(ids[3 + i]) for i in reversed(range(len(sizes))))
    return CopyMapping(tuple(threads), vector, mapping, status == "predication")


def _bitwidth(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    width = getattr(t, "bitwidth", None)
    if isinstance(width, int):
        return width
    raise CopyMappingError(f"unsupported element type {t}")


def map_copy_to_threads(
    op: Operation,
    total_threads: int,
    bit_alignment: int,
    *,
    listener: PatternRewriterListener | None = None,
) -> CopyToThreadsResult:
    """Tile `op` (a `linalg.copy` or `tensor.pad`) into a thread-mapped `scf.forall`."""
    if not isinstance(op, linalg.CopyOp | tensor.PadOp):
        raise CopyMappingError("only linalg.copy and tensor.pad target ops are supported")
    shaped = op.results[0].type if op.results else op.operands[-1].type
    if (
        not isinstance(shaped, ShapedType)
        or any(d < 0 for d in shaped.get_shape())
        or not 1 <= len(shaped.get_shape()) <= 3
    ):
        raise CopyMappingError("only statically sized ops of rank <= 3 are supported")
    bitwidth = _bitwidth(shaped.get_element_type())  # type: ignore[attr-defined]  # the value is shaped (the op verifies it); xDSL declares the element type on each shaped class only
    if bit_alignment % bitwidth:
        bit_alignment = bitwidth
    mapping = copy_mapping(total_threads, bit_alignment, list(shaped.get_shape()), bitwidth)
    rewriter = CanonRewriter(op, listener)
    try:
        result = tile_using_scf(
            rewriter,
            op,
            TilingOptions(
                num_threads=mapping.num_threads, loop_type="forall", mapping=mapping.mapping
            ),
        )
    except TilingError as err:
        raise CopyMappingError(str(err)) from None
    rewriter.replace(op, [], list(result.replacements))
    return CopyToThreadsResult(result.loops[0], result.tiled_ops[0])


__all__ = [
    "TOO_FEW_THREADS",
    "CopyMapping",
    "CopyMappingError",
    "CopyToThreadsResult",
    "copy_mapping",
    "map_copy_to_threads",
]
