"""Data tiling with `linalg.pack` / `linalg.unpack` (upstream Linalg/Transforms/Transforms.cpp):
packing a structured op (`pack_op`), and lowering pack and unpack to plain tensor ops
(`lower_pack`, `lower_unpack`).

`pack_op` tiles the iterators of a structured op by `packed_sizes` (0 = not packed): each
packed iterator `d` gets a new innermost iterator of the tile, every operand indexed by `d`
is packed along that dimension, the op becomes a `linalg.generic` on the packed operands,
and its packed results are unpacked into the original inits:

    %0 = linalg.matmul ins(%A, %B : tensor<13x9xf32>, tensor<9x7xf32>) outs(%C : ...)
    // packed_sizes = [4, 0, 2]:
    %pa = linalg.pack %A padding_value(%cst : f32) inner_dims_pos = [0, 1]
        inner_tiles = [4, 2] into %e0 : tensor<13x9xf32> -> tensor<4x5x4x2xf32>
    ... (%B along dim 0 by 2, %C along dim 0 by 4)
    %g = linalg.generic {5 loops: d3 = tile of d0, d4 = tile of d2} ins(%pa, %pb) outs(%pc)
    %r = linalg.unpack %g inner_dims_pos = [0] inner_tiles = [4] into %C

`lower_pack` rewrites a pack into `tensor.pad` (to whole tiles) + `tensor.expand_shape`
(each tiled dimension split into count x tile) + `linalg.transpose` (to the packed order);
a pack that only pads (tiles innermost in order, every outer dimension 1) becomes `tensor.pad`
+ `tensor.insert_slice`. `lower_unpack` is the mirror: `tensor.empty` + `linalg.transpose` +
`tensor.collapse_shape` + `tensor.extract_slice` + `linalg.copy` into the destination (or one
`tensor.extract_slice` for an unpack that only cuts).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
)
from schedir.dialects.linalg.relayout import (
    PackOp,
    UnPackOp,
    inner_pos,
    mixed_tiles,
    outer_perm,
    static_tiles,
)
from schedir.dialects.syntax import print_op
from schedir.dialects.tensor import CollapseShapeOp, ExpandShapeOp, ExtractSliceOp, PadOp
from schedir.dialects.utils import reassociation_attr
from schedir.transform.rewrites.destination_style import insert_slice
from schedir.transform.rewrites.padding import zero_attr
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.rewrites.tiling.affine import IndexBuilder, Ofr, compose
from schedir.transform.rewrites.tiling.interface import dim_of


class PackFailure(Exception):
    """A pack or a pack lowering that does not apply (the message says why)."""


@dataclass(frozen=True)
class LowerPackResult:
    """What `lower_pack` built; `expand_shape` and `transpose` are None for a pad-like pack."""

    pad: Operation
    expand_shape: Operation | None
    transpose: Operation | None


@dataclass(frozen=True)
class LowerUnPackResult:
    """What `lower_unpack` built; only `extract_slice` for an unpad-like unpack."""

    empty: Operation | None
    transpose: Operation | None
    collapse_shape: Operation | None
    extract_slice: Operation
    copy: Operation | None


@dataclass(frozen=True)
class PackResult:
    """The packs of the operands, the packed generic and the unpacks of its results."""

    packs: tuple[PackOp, ...]
    packed: linalg.GenericOp
    unpacks: tuple[UnPackOp, ...]


# --- layout -------------------------------------------------------------------------------


def _shape(value: SSAValue) -> list[int]:
    return list(cast(TensorType[Attribute], value.type).get_shape())


def _element(value: SSAValue) -> Attribute:
    return cast(TensorType[Attribute], value.type).get_element_type()


def _groups(rank: int, positions: Sequence[int]) -> list[list[int]]:
    """The reassociation from the unpacked rank to the strip-mined shape: each tiled
    dimension is split into (count, tile) (upstream `computePackingMetadata`)."""
    groups: list[list[int]] = []
    at = 0
    for dim in range(rank):
        width = 2 if dim in positions else 1
        groups.append(list(range(at, at + width)))
        at += width
    return groups


def packed_to_strip_mined(op: PackOp | UnPackOp) -> list[int]:
    """Upstream `getPackInverseDestPerm` / `getUnPackInverseSrcPerm`: strip-mined dim `i`
    is packed dim `perm[i]`."""
    positions = inner_pos(op)
    perm = list(outer_perm(op)) or list(range(len(_shape(_unpacked(op)))))
    rank = len(perm)
    groups = _groups(rank, positions)
    # Packed position of each strip-mined dim.
    packed_of = [0] * (rank + len(positions))
    for packed_dim, dim in enumerate(perm):
        packed_of[groups[dim][0]] = packed_dim
    for index, dim in enumerate(positions):
        packed_of[groups[dim][1]] = rank + index
    return packed_of


def _unpacked(op: PackOp | UnPackOp) -> SSAValue:
    return op.source if isinstance(op, PackOp) else op.dest


def _packed(op: PackOp | UnPackOp) -> SSAValue:
    return op.dest if isinstance(op, PackOp) else op.source


def is_like_pad(op: PackOp | UnPackOp) -> bool:
    """Upstream `isLikePadUnPad`: the tiles are the leading dims in order and every outer
    packed dimension is 1, so packing only pads (and unpacking only cuts)."""
    positions = inner_pos(op)
    if list(positions) != list(range(len(positions))):
        return False
    packed = _shape(_packed(op))
    return all(size == 1 for size in packed[: len(packed) - len(positions)])


def _mixed_sizes(b: IndexBuilder, value: SSAValue) -> list[Ofr]:
    return [dim_of(b, value, d) for d in range(len(_shape(value)))]


def _type(shape: Sequence[int], element: Attribute) -> TensorType[Attribute]:
    return TensorType(element, list(shape))


def _empty(b: IndexBuilder, sizes: Sequence[Ofr], element: Attribute) -> SSAValue:
    static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    dynamic = [s for s in sizes if not isinstance(s, int)]
    return b.insert(xtensor.EmptyOp(dynamic, _type(static, element))).results[0]


def _zero(b: IndexBuilder, element: Attribute) -> SSAValue:
    try:
        attr = zero_attr(element)
    except RewriteFailure as err:
        raise PackFailure(str(err)) from None
    return b.insert(arith.ConstantOp(attr, element)).results[0]  # type: ignore[arg-type]  # zero_attr builds an IntegerAttr or FloatAttr of `element`


# --- lower_pack / lower_unpack ------------------------------------------------------------


def lower_pack(
    rewriter: PatternRewriter, op: PackOp, pad_like_with_insert_slice: bool = True
) -> LowerPackResult:
    """Rewrite `op` into pad + expand_shape + transpose (or pad + insert_slice)."""
    if any(t == DYNAMIC_INDEX for t in static_tiles(op)):
        raise PackFailure("non-static shape NYI, needs a more powerful tensor.expand_shape op")
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.before(op)
    positions, tiles = inner_pos(op), static_tiles(op)
    source, dest = op.source, op.dest
    rank = len(_shape(source))
    perm = packed_to_strip_mined(op)
    packed = _shape(dest)
    strip_mined = [packed[p] for p in perm]
    groups = _groups(rank, positions)
    element = _element(dest)
    # Pad each tiled dimension to count * tile (counts from the destination).
    highs: list[Ofr] = [0] * rank
    padded_shape: list[int] = []
    for group in groups:
        sizes = [strip_mined[g] for g in group]
        padded_shape.append(DYNAMIC_INDEX if DYNAMIC_INDEX in sizes else _product(sizes))
    for dim, tile in zip(positions, tiles, strict=True):
        outer_packed = perm[groups[dim][0]]
        outer = compose(dim_of(b, dest, outer_packed))
        size = compose(dim_of(b, source, dim))
        highs[dim] = b.apply(outer * tile - size)
    padding = op.padding_value if op.padding_value is not None else _zero(b, element)
    pad = _pad(b, source, highs, padding, _type(padded_shape, element))
    if pad_like_with_insert_slice and is_like_pad(op):
        sizes = _mixed_sizes(b, dest)
        inserted = b.insert(insert_slice(pad.results[0], dest, [0] * len(sizes), sizes))
        rewriter.replace(op, [], list(inserted.results))
        return LowerPackResult(pad, None, None)
    expand = b.insert(
        ExpandShapeOp(
            pad.results[0],
            [],
            reassociation_attr(groups),
            strip_mined,
            _type(strip_mined, element),
        )
        if DYNAMIC_INDEX not in strip_mined
        else _dynamic_expand(b, pad.results[0], groups, strip_mined, dest, perm, element)
    )
    inverse = [0] * len(perm)
    for strip_dim, packed_dim in enumerate(perm):
        inverse[packed_dim] = strip_dim
    transpose = b.insert(linalg.TransposeOp(expand.results[0], dest, inverse))
    rewriter.replace(op, [], list(transpose.results))
    return LowerPackResult(pad, expand, transpose)


def _dynamic_expand(
    b: IndexBuilder,
    padded: SSAValue,
    groups: Sequence[Sequence[int]],
    strip_mined: Sequence[int],
    dest: SSAValue,
    perm: Sequence[int],
    element: Attribute,
) -> Operation:
    """An expand_shape whose dynamic output sizes are the destination's."""
    dynamic = [
        cast(SSAValue, dim_of(b, dest, perm[i]))
        for i, size in enumerate(strip_mined)
        if size == DYNAMIC_INDEX
    ]
    return ExpandShapeOp(
        padded, dynamic, reassociation_attr(groups), strip_mined, _type(strip_mined, element)
    )


def _product(sizes: Sequence[int]) -> int:
    result = 1
    for size in sizes:
        result *= size
    return result


def _pad(
    b: IndexBuilder,
    source: SSAValue,
    highs: Sequence[Ofr],
    padding: SSAValue,
    result_type: TensorType[Attribute],
) -> Operation:
    block = Block(arg_types=[IndexType()] * len(highs))
    block.add_op(xtensor.YieldOp(padding))
    static = [h if isinstance(h, int) else DYNAMIC_INDEX for h in highs]
    dynamic = [h for h in highs if not isinstance(h, int)]
    return b.insert(
        PadOp(source, [], dynamic, Region(block), [0] * len(highs), static, result_type)
    )


def lower_unpack(
    rewriter: PatternRewriter, op: UnPackOp, unpad_like_with_extract_slice: bool = True
) -> LowerUnPackResult:
    """Rewrite `op` into empty + transpose + collapse_shape + extract_slice + copy."""
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.before(op)
    source, dest = op.source, op.dest
    packed_rank = len(_shape(source))
    dest_sizes = _mixed_sizes(b, dest)
    if unpad_like_with_extract_slice and is_like_pad(op):
        sizes = [1] * (packed_rank - len(dest_sizes)) + dest_sizes
        extract = b.insert(_extract(source, sizes, dest.type))
        rewriter.replace(op, [], list(extract.results))
        return LowerUnPackResult(None, None, None, extract, None)
    if any(t == DYNAMIC_INDEX for t in static_tiles(op)):
        raise PackFailure("non-static tiles")
    positions = inner_pos(op)
    rank = len(dest_sizes)
    perm = packed_to_strip_mined(op)
    element = _element(source)
    source_sizes = _mixed_sizes(b, source)
    strip_sizes = [source_sizes[p] for p in perm]
    empty = _empty(b, strip_sizes, element)
    transpose = b.insert(linalg.TransposeOp(source, empty, perm))
    groups = _groups(rank, positions)
    strip_shape = _shape(empty)
    collapsed_shape = [
        DYNAMIC_INDEX
        if any(strip_shape[g] == DYNAMIC_INDEX for g in group)
        else _product([strip_shape[g] for g in group])
        for group in groups
    ]
    collapse = b.insert(
        CollapseShapeOp.build(
            operands=[transpose.results[0]],
            result_types=[_type(collapsed_shape, element)],
            properties={"reassociation": reassociation_attr(groups)},
        )
    )
    extract = b.insert(_extract(collapse.results[0], dest_sizes, dest.type))
    copy = b.insert(linalg.CopyOp([extract.results[0]], [dest]))
    rewriter.replace(op, [], list(copy.results))
    return LowerUnPackResult(empty.owner, transpose, collapse, extract, copy)  # type: ignore[arg-type]  # an empty's result is an OpResult


def _extract(source: SSAValue, sizes: Sequence[Ofr], result_type: Attribute) -> ExtractSliceOp:
    rank = len(sizes)
    return ExtractSliceOp(
        source,
        [0] * rank,
        list(sizes),
        [1] * rank,
        result_type,
    )


# --- pack_op --------------------------------------------------------------------------------


def _first_result_of(map_: AffineMap, dim: int) -> int | None:
    for index, expr in enumerate(map_.results):
        if _uses_dim(expr, dim):
            return index
    return None


def _uses_dim(expr: object, dim: int) -> bool:
    if isinstance(expr, AffineDimExpr):
        return expr.position == dim
    lhs = getattr(expr, "lhs", None)
    rhs = getattr(expr, "rhs", None)
    return (lhs is not None and _uses_dim(lhs, dim)) or (rhs is not None and _uses_dim(rhs, dim))


def pack_op(rewriter: PatternRewriter, op: Operation, packed_sizes: Sequence[Ofr]) -> PackResult:
    """Pack structured op `op` by `packed_sizes` (one per loop, 0 = not packed) into a
    `linalg.generic` on packed operands (upstream `linalg::pack`)."""
    maps = list(indexing_maps(op))
    iterators = list(iterator_types(op))
    if len(packed_sizes) != len(iterators):
        raise PackFailure("incorrect number of pack sizes")
    # Per packed loop: the operand dimension it packs (None where the operand does not use it).
    packed_dims: list[tuple[Ofr, list[int | None]]] = []
    for loop, size in enumerate(packed_sizes):
        if compose(size).constant == 0:
            continue
        new_loop = len(iterators)
        iterators.append(iterators[loop])
        per_operand: list[int | None] = []
        for index, map_ in enumerate(maps):
            position = _first_result_of(map_, loop)
            per_operand.append(position)
            exprs = map_.results
            if position is not None:
                if not isinstance(exprs[position], AffineDimExpr):
                    raise PackFailure("can only pack dims of AffineDimExpr")
                exprs = (*exprs, AffineDimExpr(new_loop))
            maps[index] = AffineMap(map_.num_dims + 1, map_.num_symbols, exprs)
        packed_dims.append((size, per_operand))
    b = IndexBuilder(rewriter, op.location)
    rewriter.insertion_point = InsertPoint.before(op)
    inputs, inits = list(dps_inputs(op)), list(dps_inits(op))
    packs: list[PackOp] = []
    operands: list[SSAValue] = []
    for number, operand in enumerate([*inputs, *inits]):
        positions = [d for _, dims in packed_dims if (d := dims[number]) is not None]
        tiles = [size for size, dims in packed_dims if dims[number] is not None]
        if not positions or not isinstance(operand.type, TensorType):
            operands.append(operand)
            continue
        dest = _pack_destination(b, operand, tiles, positions)
        static_tiles_ = [compose(t).constant for t in tiles]
        shape = _shape(operand)
        needs_padding = (
            any(t is None for t in static_tiles_)
            or DYNAMIC_INDEX in shape
            or any(shape[p] % cast(int, t) for p, t in zip(positions, static_tiles_, strict=True))
        )
        tile_values: list[Ofr] = [
            t if t is not None else tiles[i] for i, t in enumerate(static_tiles_)
        ]
        padding = _zero(b, _element(dest)) if needs_padding else None
        pack = cast(
            PackOp,
            b.insert(PackOp(operand, dest, positions, tile_values, padding)),
        )
        packs.append(pack)
        operands.append(pack.result)
    generic = as_generic(op)
    body = generic.body.clone()
    generic.erase()
    packed_inits = operands[len(inputs) :]
    packed = linalg.GenericOp(
        operands[: len(inputs)],
        packed_inits,
        body,
        [AffineMapAttr(m) for m in maps],
        [IteratorTypeAttr(IteratorType(t)) for t in iterators],
        [v.type for v in packed_inits],
    )
    packed = cast(linalg.GenericOp, b.insert(packed))
    results: list[SSAValue] = []
    unpacks: list[UnPackOp] = []
    for result, init in zip(packed.results, packed_inits, strict=True):
        owner = init.owner
        if not isinstance(owner, PackOp):
            results.append(result)
            continue
        unpack = cast(
            UnPackOp,
            b.insert(UnPackOp(result, owner.source, inner_pos(owner), mixed_tiles(owner))),
        )
        unpacks.append(unpack)
        results.append(unpack.result)
    rewriter.replace(op, [], results)
    return PackResult(tuple(packs), packed, tuple(unpacks))


def _pack_destination(
    b: IndexBuilder,
    operand: SSAValue,
    tiles: Sequence[Ofr],
    positions: Sequence[int],
    outer: Sequence[int] = (),
) -> SSAValue:
    """A `tensor.empty` of the packed shape (upstream `PackOp::createDestinationTensor`)."""
    sizes: list[Ofr] = list(_mixed_sizes(b, operand))
    for tile, dim in zip(tiles, positions, strict=True):
        sizes[dim] = b.apply(compose(sizes[dim]).ceildiv(compose(tile)))
    if outer:
        sizes = [sizes[p] for p in outer]
    tile_sizes: list[Ofr] = [c if (c := compose(t).constant) is not None else t for t in tiles]
    return _empty(b, [*sizes, *tile_sizes], _element(operand))


# --- pack_transpose -----------------------------------------------------------------------


@dataclass(frozen=True)
class PackTransposeResult:
    """The transposed pack, generic and (when given) unpack."""

    pack: PackOp
    packed: linalg.GenericOp
    unpack: UnPackOp | None


def _valid_perm(op: PackOp | UnPackOp | None, perm: Sequence[int], outer: bool) -> bool:
    """Upstream `isValidPackingPermutation`."""
    if op is None or not perm:
        return True
    size = len(_shape(_unpacked(op))) if outer else len(inner_pos(op))
    return len(perm) == size and sorted(perm) == list(range(size))


def _transposed_layout(
    op: PackOp | UnPackOp, inner_perm: Sequence[int], outer_perm_: Sequence[int]
) -> tuple[list[int], list[Ofr], list[int]]:
    """Upstream `commonPermutationOfPackAndUnPackOp`: (inner_dims_pos, tiles, outer perm)."""
    positions = list(inner_pos(op))
    tiles: list[Ofr] = list(mixed_tiles(op))
    outer = list(outer_perm(op)) or list(range(len(_shape(_unpacked(op)))))
    if inner_perm:
        positions = [positions[p] for p in inner_perm]
        tiles = [tiles[p] for p in inner_perm]
    if outer_perm_:
        outer = [outer[p] for p in outer_perm_]
    return positions, tiles, outer


def pack_transpose(
    rewriter: PatternRewriter,
    relayout: PackOp | UnPackOp,
    compute: Operation,
    outer: Sequence[int],
    inner: Sequence[int],
) -> PackTransposeResult:
    """Transpose `relayout` (a pack consumed once by `compute`, or an unpack of one of its
    results) and `compute` by `outer` / `inner` (upstream `linalg::packTranspose`)."""
    pack: PackOp | None = relayout if isinstance(relayout, PackOp) else None
    unpack = relayout if isinstance(relayout, UnPackOp) else None
    if pack is not None:
        uses = list(pack.result.uses)
        if len(uses) != 1 or uses[0].operation is not compute:
            raise PackFailure("not a single use by the LinalgOp target")
    else:
        assert unpack is not None
        source = unpack.source
        if not isinstance(source.owner, Operation) or source.owner is not compute:
            raise PackFailure("not produced by the LinalgOp target")
        result_number = list(compute.results).index(source)  # type: ignore[arg-type]  # an OpResult of compute
        init = dps_inits(compute)[result_number]
        pack = init.owner if isinstance(init.owner, PackOp) else None
        if pack is None or len(list(pack.result.uses)) != 1:
            raise PackFailure("could not find matching pack op")
    for perm, is_outer, name in ((outer, True, "outer_perm"), (inner, False, "inner_perm")):
        if not _valid_perm(pack, perm, is_outer) or not _valid_perm(unpack, perm, is_outer):
            shown = unpack if unpack is not None else pack
            raise PackFailure(f"invalid {name}: {print_op(shown, generic=True).strip()}")
    if not isinstance(compute, linalg.GenericOp):
        raise PackFailure("requires a linalg.generic consumer")
    # The transposed pack, with an explicit outer permutation (as upstream builds it).
    b = IndexBuilder(rewriter, compute.location)
    rewriter.insertion_point = InsertPoint.before(pack)
    positions, tiles, outer_dims = _transposed_layout(pack, inner, outer)
    dest = _pack_destination(b, pack.source, tiles, positions, outer_dims)
    new_pack = cast(
        PackOp,
        b.insert(PackOp(pack.source, dest, positions, tiles, pack.padding_value, outer_dims)),
    )
    # The generic reads the transposed operand through a permuted map.
    leading = len(_shape(pack.source))
    trailing = len(inner_pos(pack))
    permutation = list(outer) or list(range(leading))
    permutation += (
        [leading + p for p in inner] if inner else list(range(leading, leading + trailing))
    )
    use = next(iter(pack.result.uses))
    operand_number = use.index
    maps = list(indexing_maps(compute))
    old = maps[operand_number]
    maps[operand_number] = AffineMap(
        old.num_dims, old.num_symbols, tuple(old.results[p] for p in permutation)
    )
    operands = list(compute.operands)
    operands[operand_number] = new_pack.result
    num_inputs = len(dps_inputs(compute))
    inits = operands[num_inputs:]
    rewriter.insertion_point = InsertPoint.before(compute)
    body = compute.body.clone()
    generic = cast(
        linalg.GenericOp,
        b.insert(
            linalg.GenericOp(
                operands[:num_inputs],
                inits,
                body,
                [AffineMapAttr(m) for m in maps],
                [IteratorTypeAttr(IteratorType(t)) for t in iterator_types(compute)],
                [v.type for v in inits],
            )
        ),
    )
    generic.attributes |= dict(compute.attributes)
    new_unpack: UnPackOp | None = None
    if unpack is not None:
        tied = generic.results[operand_number - num_inputs]
        positions_u, tiles_u, outer_u = _transposed_layout(unpack, inner, outer)
        rewriter.insertion_point = InsertPoint.before(unpack)
        new_unpack = cast(
            UnPackOp, b.insert(UnPackOp(tied, unpack.dest, positions_u, tiles_u, outer_u))
        )
        rewriter.replace(unpack, [], list(new_unpack.results))
    rewriter.replace(compute, [], list(generic.results))
    rewriter.replace(pack, [], list(new_pack.results))
    return PackTransposeResult(new_pack, generic, new_unpack)


__all__ = [
    "LowerPackResult",
    "LowerUnPackResult",
    "PackFailure",
    "PackResult",
    "PackTransposeResult",
    "is_like_pad",
    "lower_pack",
    "lower_unpack",
    "pack_op",
    "pack_transpose",
    "packed_to_strip_mined",
]
