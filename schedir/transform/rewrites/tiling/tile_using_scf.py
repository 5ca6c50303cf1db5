"""Tiling an op into `scf.for` or `scf.forall` loops (upstream's `scf::tileUsingSCF`).

One loop per non-zero tile size, outermost first (after `interchange`). Inside the
innermost loop the op is cloned on the loop's destination tensors and tiled; the tile of
each result is written back with `tensor.insert_slice` + `scf.yield` (for) or
`tensor.parallel_insert_slice` (forall):

    %r = scf.for %i = %c0 to %c37 step %c8 iter_args(%o = %C) -> (tensor<37x53xf32>) {
      %sz = affine.min affine_map<(d0) -> (-d0 + 37, 8)>(%i)
      ...
      %t = linalg.matmul ins(...) outs(%os : tensor<?x53xf32>) -> tensor<?x53xf32>
      %u = tensor.insert_slice %t into %o[%i, 0] [%sz, 53] [1, 1] : ...
      scf.yield %u : tensor<37x53xf32>
    }

An op on buffers (no results) gets loops without iter_args or shared_outs whose body runs
the op on `memref.subview`s. A tile that divides its loop needs no `affine.min`. With `num_threads` (forall only) the
trip count is fixed and the tile is `ceildiv(size, n)`; the offset is `iv * tile`, the
size `min(size - offset, tile)` unless every thread gets a full tile, and `max(0, ...)`
when the last threads may be past the end. `tile_using_forall` by tile sizes normalizes
the forall (`in (ceildiv(size, tile))`, offset `iv * tile`) as upstream's transform op does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal, cast

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import InsertSliceOp, ParallelInsertSliceOp
from schedir.transform.rewrites.tiling.affine import (
    Aff,
    IndexBuilder,
    Ofr,
    compose,
    constant_of,
    is_zero,
)
from schedir.transform.rewrites.tiling.interface import (
    Range,
    TiledValues,
    TilingError,
    clone_with_destinations,
    covers_whole_loop,
    create_destinations,
    is_tileable,
    iteration_domain,
    result_tile_position,
    tiled_implementation,
    whole_dims,
)

LoopType = Literal["for", "forall"]


class PartialTileError(TilingError):
    """A tile would cut a loop `op` must compute whole (`whole_dims`): the tiled op would
    compute something else (upstream tiles a softmax dimension and gives wrong values)."""

    def __init__(self, op: Operation, dim: int) -> None:
        super().__init__(
            f"cannot tile dimension {dim} of '{op.name}': each result element depends on "
            "the whole dimension, which a tile would cut"
        )
        self.op = op
        self.dim = dim


@dataclass(frozen=True)
class TilingOptions:
    """What to tile by: `tile_sizes` or (forall only) `num_threads`; 0 leaves a loop untiled.

    Shorter lists leave the trailing loops untiled. `normalize_forall` rewrites a forall
    built from tile sizes to start at 0 with step 1 (upstream's `tile_using_forall`).
    """

    tile_sizes: tuple[Ofr, ...] = ()
    num_threads: tuple[Ofr, ...] = ()
    interchange: tuple[int, ...] = ()
    loop_type: LoopType = "for"
    mapping: tuple[Attribute, ...] = ()
    normalize_forall: bool = False


@dataclass(frozen=True)
class TilingResult:
    """The tiled op(s), the generated loops (outermost first), the values that replace
    the results of the tiled op, and the operand slices tiling created."""

    tiled_ops: tuple[Operation, ...]
    loops: tuple[Operation, ...]
    replacements: tuple[SSAValue, ...]
    generated_slices: tuple[Operation, ...] = ()


@dataclass
class _Tiling:
    """The state of one `tile_using_scf` call, shared by the loop builders and the body."""

    b: IndexBuilder
    op: Operation
    domain: list[Range]
    tile_sizes: list[Ofr]
    num_threads: list[Ofr]
    interchange: list[int]
    tiled: TiledValues | None = None
    offsets: list[Ofr] = field(default_factory=list)
    sizes: list[Ofr] = field(default_factory=list)


def tile_using_scf(
    rewriter: PatternRewriter, op: Operation, options: TilingOptions
) -> TilingResult:
    """Tile `op` as `options` say; the caller replaces `op` by `result.replacements`.

    Raises TilingError (with upstream's message where it has one) when `op` cannot be tiled.
    """
    if not is_tileable(op):
        raise TilingError("only ops implementing TilingInterface are supported")
    if options.num_threads and options.loop_type != "forall":
        raise TilingError(
            "number of threads can only by specified when loop type is set to use `scf.forall`"
        )
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.after(op)
    domain = iteration_domain(b, op)
    tile_sizes, num_threads = _user_tile_sizes_and_num_threads(b, domain, options)
    for d in whole_dims(op):
        if not covers_whole_loop(tile_sizes[d], domain[d]):
            raise PartialTileError(op, d)
    interchange = _filled_interchange(list(options.interchange), len(domain))
    if interchange:
        domain = [domain[i] for i in interchange]
        tile_sizes = [tile_sizes[i] for i in interchange]
        if num_threads:
            num_threads = [num_threads[i] for i in interchange]
    state = _Tiling(b, op, domain, tile_sizes, num_threads, interchange)
    # Upstream's `getOrCreateDestinations` gives one per result: none for buffer semantics,
    # whose loops then carry no iter_args / shared_outs.
    dests = list(create_destinations(b, op)) if op.results else []

    if all(is_zero(t) for t in tile_sizes):
        # Upstream clones the op unchanged: the original cannot replace itself.
        clone = clone_with_destinations(b, op, dests)
        return TilingResult((clone,), (), tuple(clone.results))
    if options.loop_type == "for":
        loops: list[Operation] = _for_nest(state, dests)
    else:
        loops = [_forall(state, dests, options)]
    assert state.tiled is not None
    return TilingResult(
        state.tiled.tiled_ops,
        tuple(loops),
        tuple(loops[0].results),
        state.tiled.generated_slices,
    )


def _filled_interchange(interchange: list[int], num_loops: int) -> list[int]:
    """Upstream's `fillInterchangeVector`, then its permutation check."""
    if not interchange:
        return []
    filled = interchange + list(range(len(interchange), num_loops))
    filled = filled[:num_loops]
    if sorted(filled) != list(range(num_loops)):
        raise TilingError(
            "invalid interchange vector, not a permutation of the entire iteration space"
        )
    return filled


def _user_tile_sizes_and_num_threads(
    b: IndexBuilder, domain: Sequence[Range], options: TilingOptions
) -> tuple[list[Ofr], list[Ofr]]:
    """Upstream's `getUserTileSizesAndNumThreads`: pad (or cut) to one entry per loop; with
    `num_threads` the tile is `ceildiv(size - offset, n)`."""
    n = len(domain)
    if options.num_threads:
        num_threads = (list(options.num_threads) + [0] * n)[:n]
        tiles: list[Ofr] = [0] * n
        for d, (loop, nt) in enumerate(zip(domain, num_threads, strict=True)):
            if is_zero(nt):
                continue
            extent = compose(loop.size) - compose(loop.offset)
            tiles[d] = b.apply(b.ceildiv(extent, compose(nt)))
        return tiles, num_threads
    return (list(options.tile_sizes) + [0] * n)[:n], []


def _divides(loop: Range, tile: Ofr) -> bool:
    """Upstream's `tileDividesIterationDomain`: all static and `(size - offset) % tile == 0`."""
    offset, size, step = constant_of(loop.offset), constant_of(loop.size), constant_of(tile)
    if offset is None or size is None or step is None or step == 0:
        return False
    return (size - offset) % step == 0


def bounded_tile_size(b: IndexBuilder, loop: Range, offset: Aff, tile: Ofr) -> Ofr:
    """Upstream's `getBoundedTileSize`: `min(size - offset, tile)` unless the tile is 1 or
    divides the loop."""
    if constant_of(tile) == 1 or _divides(loop, tile):
        return tile
    return b.min([compose(loop.size) - offset, compose(tile)])


def _tile_offsets_and_sizes(state: _Tiling, ivs: Sequence[SSAValue]) -> tuple[list[Ofr], list[Ofr]]:
    """Upstream's `getTileOffsetAndSizes`, in the (interchanged) loop order."""
    b = state.b
    offsets: list[Ofr] = []
    sizes: list[Ofr] = []
    remaining = iter(ivs)
    if state.num_threads:
        for nt, tile, loop in zip(state.num_threads, state.tile_sizes, state.domain, strict=True):
            if is_zero(nt):
                offsets.append(loop.offset)
                sizes.append(loop.size)
                continue
            iv = next(remaining)
            offset = b.apply(compose(loop.offset) + b.mul(Aff.opaque(iv), _operand(tile)))
            size: Ofr = tile
            if not _residual_is_zero(loop, nt, tile):
                size = b.min([compose(loop.size) - compose(offset), compose(tile)])
            if not _can_omit_bounds_check(tile, nt, loop.size):
                # ceildiv(100, 7) = 15: thread 6 starts at 90 + 15 = 105 > 100.
                size = b.max([Aff.const(0), compose(size)])
            offsets.append(offset)
            sizes.append(size)
        return offsets, sizes
    for tile, loop in zip(state.tile_sizes, state.domain, strict=True):
        if is_zero(tile):
            offsets.append(loop.offset)
            sizes.append(loop.size)
            continue
        iv = next(remaining)
        offsets.append(iv)
        sizes.append(bounded_tile_size(b, loop, Aff.opaque(iv), tile))
    return offsets, sizes


def _residual_is_zero(loop: Range, nt: Ofr, tile: Ofr) -> bool:
    """Whether `size - (offset + nt * tile)` folds to 0 (every thread has a full tile)."""
    values = [constant_of(v) for v in (loop.offset, loop.size, nt, tile)]
    if any(v is None for v in values):
        return False
    offset, size, threads, step = cast(list[int], values)
    return size - (offset + threads * step) == 0


def _can_omit_bounds_check(tile: Ofr, nt: Ofr, size: Ofr) -> bool:
    """Upstream's `canOmitTileOffsetInBoundsCheck`: `tile * (nt - 1) < size`, all static."""
    values = [constant_of(v) for v in (tile, nt, size)]
    if any(v is None for v in values):
        return False
    step, threads, extent = cast(list[int], values)
    return step * (threads - 1) < extent


def _body(
    state: _Tiling, ivs: Sequence[SSAValue], dest_args: Sequence[SSAValue]
) -> tuple[list[SSAValue], list[list[Ofr]], list[list[Ofr]]]:
    """The innermost body: clone on the destinations, tile the clone, drop the clone."""
    b, op = state.b, state.op
    offsets, sizes = _tile_offsets_and_sizes(state, ivs)
    if state.interchange:
        inverse = [0] * len(state.interchange)
        for position, loop in enumerate(state.interchange):
            inverse[loop] = position
        offsets = [offsets[i] for i in inverse]
        sizes = [sizes[i] for i in inverse]
    state.offsets, state.sizes = offsets, sizes
    clone = clone_with_destinations(b, op, dest_args)
    try:
        tiled = tiled_implementation(b, clone, offsets, sizes)
    finally:
        b.rewriter.erase(clone)
    state.tiled = tiled
    result_offsets: list[list[Ofr]] = []
    result_sizes: list[list[Ofr]] = []
    for index in range(len(tiled.tiled_values)):
        tile_offsets, tile_sizes = result_tile_position(b, op, index, offsets, sizes)
        result_offsets.append(tile_offsets)
        result_sizes.append(tile_sizes)
    return list(tiled.tiled_values), result_offsets, result_sizes


def insert_slice(
    b: IndexBuilder, source: SSAValue, dest: SSAValue, offsets: Sequence[Ofr], sizes: Sequence[Ofr]
) -> SSAValue:
    """A unit-stride `tensor.insert_slice` of `source` into `dest`."""
    static_offsets, dynamic_offsets = _split(offsets)
    static_sizes, dynamic_sizes = _split(sizes)
    op = InsertSliceOp.build(
        operands=[source, dest, dynamic_offsets, dynamic_sizes, []],
        result_types=[dest.type],
        properties={
            "static_offsets": static_offsets,
            "static_sizes": static_sizes,
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
    )
    return b.insert(op).results[0]


def _split(values: Sequence[Ofr]) -> tuple[DenseArrayBase, list[SSAValue]]:
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    return DenseArrayBase.from_list(i64, static), [v for v in values if isinstance(v, SSAValue)]


def _for_nest(state: _Tiling, dests: Sequence[SSAValue]) -> list[Operation]:
    """Upstream's `generateLoopNestUsingForOp`: bounds as constants (all lower bounds, then
    upper bounds, then steps), one `scf.for` per tiled loop, yields all the way out."""
    b = state.b
    tiled = [
        (loop, tile)
        for loop, tile in zip(state.domain, state.tile_sizes, strict=True)
        if not is_zero(tile)
    ]
    lbs = [b.value(loop.offset) for loop, _ in tiled]
    ubs = [b.value(loop.size) for loop, _ in tiled]
    steps = [b.value(tile) for _, tile in tiled]
    loops: list[xscf.ForOp] = []
    ivs: list[SSAValue] = []
    for lb, ub, step in zip(lbs, ubs, steps, strict=True):
        block = Block(arg_types=[IndexType(), *(d.type for d in dests)])
        loop = xscf.ForOp(lb, ub, step, list(dests), Region(block))
        b.insert(loop)
        loops.append(loop)
        ivs.append(block.args[0])
        b.rewriter.insertion_point = InsertPoint.at_end(block)
        dests = block.args[1:]
    values, offsets, sizes = _body(state, ivs, dests)
    yielded = [
        insert_slice(b, v, d, o, s)
        for v, d, o, s in zip(values, dests, offsets, sizes, strict=True)
    ]
    b.insert(xscf.YieldOp(*yielded))
    for outer, inner in pairwise(loops):
        b.rewriter.insertion_point = InsertPoint.at_end(outer.body.block)
        b.insert(xscf.YieldOp(*inner.results))
    return list(loops)


def _forall(state: _Tiling, dests: Sequence[SSAValue], options: TilingOptions) -> ForallOp:
    """Upstream's `generateLoopNestUsingForallOp` (plus the transform op's normalization)."""
    b = state.b
    mapping = list(options.mapping) or None
    denormalize: list[tuple[Ofr, Ofr]] = []
    if state.num_threads:
        threads = [nt for nt in state.num_threads if not is_zero(nt)]
        forall = ForallOp([0] * len(threads), threads, [1] * len(threads), list(dests), mapping)
    else:
        tiled = [
            (loop, tile)
            for loop, tile in zip(state.domain, state.tile_sizes, strict=True)
            if not is_zero(tile)
        ]
        lbs = [loop.offset for loop, _ in tiled]
        ubs = [loop.size for loop, _ in tiled]
        steps = [tile for _, tile in tiled]
        normalize = options.normalize_forall and not (
            all(constant_of(lb) == 0 for lb in lbs) and all(constant_of(s) == 1 for s in steps)
        )
        if normalize:
            upper = [
                b.apply(b.ceildiv(compose(ub) - compose(lb), compose(step)))
                for lb, ub, step in zip(lbs, ubs, steps, strict=True)
            ]
            forall = ForallOp([0] * len(upper), upper, [1] * len(upper), list(dests), mapping)
            denormalize = list(zip(lbs, steps, strict=True))
        else:
            forall = ForallOp(lbs, ubs, steps, list(dests), mapping)
    b.insert(forall)
    b.rewriter.insertion_point = InsertPoint.before(forall.terminator)
    ivs = forall.induction_vars
    values, offsets, sizes = _body(state, ivs, forall.region_iter_args)
    b.rewriter.insertion_point = InsertPoint.at_end(forall.terminator.region.block)
    for value, dest, tile_offsets, tile_sizes in zip(
        values, forall.region_iter_args, offsets, sizes, strict=True
    ):
        b.insert(ParallelInsertSliceOp(value, dest, tile_offsets, tile_sizes))
    if denormalize:
        # Upstream tiles with `lb + iv * step` loops, then normalizes the forall: every
        # use of an iv becomes `lb + iv * step`, computed at the top of the body.
        first = forall.body.block.first_op
        assert first is not None
        b.rewriter.insertion_point = InsertPoint.before(first)
        for iv, (lb, step) in zip(ivs, denormalize, strict=True):
            offset = b.value(b.apply(compose(lb) + b.mul(Aff.opaque(iv), _operand(step))))
            if offset is iv:
                continue
            owner = offset.owner
            b.rewriter.replace_uses_with_if(
                iv, offset, lambda use, owner=owner: use.operation is not owner
            )
    return forall


def _operand(value: Ofr) -> Aff:
    """A size as a product operand: a non-constant value stays one (not its composed
    expression), so a semi-affine product multiplies the value itself."""
    if isinstance(value, SSAValue) and constant_of(value) is None:
        return Aff.opaque(value)
    return compose(value)


__all__ = [
    "LoopType",
    "PartialTileError",
    "TilingError",
    "TilingOptions",
    "TilingResult",
    "bounded_tile_size",
    "insert_slice",
    "tile_using_scf",
]
