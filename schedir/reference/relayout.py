"""`linalg.pack` and `linalg.unpack` by their definition (LinalgRelayoutOps.td).

pack: pad the source at the high end to whole tiles (with `padding_value`), split every
tiled dimension into (tile count, tile), permute the outer dimensions by `outer_dims_perm`
and move the tiles innermost in `inner_dims_pos` order. unpack is the inverse, cut to the
destination's shape. A partial tile without a padding value is undefined behaviour
upstream; here it is an evaluation error, never a silent value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Operation

from schedir.dialects.linalg.relayout import (
    PackOp,
    UnPackOp,
    inner_pos,
    outer_perm,
    static_tiles,
)
from schedir.reference.attrs import mixed
from schedir.reference.interpreter import Handler, Interpreter, fail
from schedir.reference.values import elem_of, storage_of


def _layout(
    rank: int, packed_shape: Sequence[int], positions: Sequence[int], perm: Sequence[int]
) -> tuple[list[int], list[int]]:
    """(tile count of each unpacked dimension, the permutation from the interleaved
    `(count_0, [tile_0], count_1, ...)` shape to the packed one)."""
    perm = list(perm) or list(range(rank))
    counts = [0] * rank
    for packed_dim, dim in enumerate(perm):
        counts[dim] = packed_shape[packed_dim]
    # Interleaved position of each unpacked dimension's count and of each tile.
    count_at: list[int] = []
    tile_at: dict[int, int] = {}
    position = 0
    for dim in range(rank):
        count_at.append(position)
        position += 1
        if dim in positions:
            tile_at[dim] = position
            position += 1
    order = [count_at[d] for d in perm] + [tile_at[d] for d in positions]
    return counts, order


def pack(
    source: np.ndarray,
    padding: Any,
    positions: Sequence[int],
    tiles: Sequence[int],
    perm: Sequence[int],
    packed_shape: Sequence[int],
    op: Operation,
) -> np.ndarray:
    """`source` packed into `packed_shape` (see the module docstring)."""
    rank = source.ndim
    counts, order = _layout(rank, packed_shape, positions, perm)
    padded_shape = list(source.shape)
    for dim, tile in zip(positions, tiles, strict=True):
        padded_shape[dim] = counts[dim] * tile
    if any(p < n for p, n in zip(padded_shape, source.shape, strict=True)):
        raise fail(
            f"'linalg.pack' op packs a {source.shape} value into {tuple(packed_shape)}, "
            "which cannot hold it",
            op,
        )
    if padded_shape != list(source.shape) and padding is None:
        raise fail(
            f"'linalg.pack' op without padding_value has partial tiles: {source.shape} "
            f"tiled by {list(tiles)} (undefined behaviour)",
            op,
        )
    padded = np.empty(padded_shape, dtype=source.dtype)
    if padding is not None:
        padded[...] = padding
    padded[tuple(slice(0, n) for n in source.shape)] = source
    split: list[int] = []
    for dim in range(rank):
        if dim in positions:
            split += [counts[dim], tiles[list(positions).index(dim)]]
        else:
            split.append(padded_shape[dim])
    return np.ascontiguousarray(padded.reshape(split).transpose(order))


def unpack(
    source: np.ndarray,
    positions: Sequence[int],
    tiles: Sequence[int],
    perm: Sequence[int],
    dest_shape: Sequence[int],
    op: Operation,
) -> np.ndarray:
    """`source` unpacked into `dest_shape` (partial tiles cut off)."""
    rank = len(dest_shape)
    counts, order = _layout(rank, source.shape, positions, perm)
    if list(source.shape[rank:]) != list(tiles):
        raise fail(
            f"'linalg.unpack' op inner tiles {list(tiles)} do not match the source's tile "
            f"dimensions {list(source.shape[rank:])}",
            op,
        )
    inverse = [0] * len(order)
    for packed_dim, interleaved in enumerate(order):
        inverse[interleaved] = packed_dim
    interleaved = source.transpose(inverse)
    padded_shape = [
        counts[d] * tiles[list(positions).index(d)] if d in positions else counts[d]
        for d in range(rank)
    ]
    padded = interleaved.reshape(padded_shape)
    if any(p < n for p, n in zip(padded_shape, dest_shape, strict=True)) or any(
        padded_shape[d] != dest_shape[d] for d in range(rank) if d not in positions
    ):
        raise fail(
            f"'linalg.unpack' op unpacks a {source.shape} value into {tuple(dest_shape)}, "
            "which does not match it",
            op,
        )
    return np.ascontiguousarray(padded[tuple(slice(0, n) for n in dest_shape)])


def _pack(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, PackOp)
    source, dest = np.asarray(args[0]), np.asarray(args[1])
    has_padding = op.padding_value is not None
    padding = args[2] if has_padding else None
    tiles = mixed(static_tiles(op), args[3 if has_padding else 2 :])
    if any(t <= 0 for t in tiles):
        raise fail(f"'linalg.pack' op with non-positive tile sizes {tiles}", op)
    if padding is not None:
        padding = storage_of(padding, elem_of(op.source.type))
    result = pack(source, padding, inner_pos(op), tiles, outer_perm(op), dest.shape, op)
    if result.shape != dest.shape:
        raise fail(f"'linalg.pack' op result {result.shape} into {dest.shape}", op)
    return [result.astype(np.result_type(result, dest))]


def _unpack(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    assert isinstance(op, UnPackOp)
    source, dest = np.asarray(args[0]), np.asarray(args[1])
    tiles = mixed(static_tiles(op), args[2:])
    if any(t <= 0 for t in tiles):
        raise fail(f"'linalg.unpack' op with non-positive tile sizes {tiles}", op)
    result = unpack(source, inner_pos(op), tiles, outer_perm(op), dest.shape, op)
    return [result.astype(np.result_type(result, dest))]


def handlers() -> dict[type[Operation], Handler]:
    """The handlers of this module, by op class."""
    return {PackOp: _pack, UnPackOp: _unpack}


__all__ = ["handlers", "pack", "unpack"]
