"""`hoist_pad`, `pad_tiling_interface` and `promote_tensor` keep what a matmul computes.

Each case tiles a matmul of odd sizes, pads the tile (`structured.pad` or
`pad_tiling_interface`), hoists the pad of the LHS above the tile loops (with and without
a transpose of the packed tiles) or promotes an operand to a fresh allocation, compiles
for the CPU and compares with `schedir.reference` on the untransformed payload. Sizes and
tile sizes are drawn so that the last tile is partial (the padding is read) or whole.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, matmul_payload, run_and_check, schedule_module

_ZEROS = "padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32]"


def _tile(tiles: list[int]) -> str:
    loops = sum(1 for t in tiles if t)
    names = "%t" + "".join(f", %l{i}" for i in range(loops))
    results = ", ".join([ANY] * (loops + 1))
    sizes = ", ".join(map(str, tiles))
    return (
        f"    {names} = transform.structured.tile_using_for %mm tile_sizes [{sizes}]"
        f" : ({ANY}) -> ({results})\n"
    )


def _pad(tiles: list[int]) -> str:
    sizes = ", ".join(str(t or 1) for t in tiles)
    return (
        f"    %p, %pads, %copy = transform.structured.pad %t pad_to_multiple_of [{sizes}]"
        f' <{_ZEROS}, padding_dimensions = [0, 1, 2], nofold_flags = [1, 0, 0], copy_back_op = "none">'
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
    )


@st.composite
def matmuls(draw: st.DrawFn) -> tuple[int, int, int, list[int]]:
    m, n, k = (draw(st.integers(3, 13)) for _ in range(3))
    tiles = [draw(st.integers(1, 6)), 0, draw(st.sampled_from([0, 2, 3, 5]))]
    return m, n, k, tiles


_SETTINGS = settings(max_examples=10, derandomize=True)


@_SETTINGS
@given(case=matmuls(), loops=st.integers(1, 2), transpose=st.booleans())
def test_hoisted_lhs_pad_matches_reference(
    case: tuple[int, int, int, list[int]], loops: int, transpose: bool
) -> None:
    m, n, k, tiles = case
    by = f"by {loops} loops" + (", transpose by [1, 0]" if transpose else "")
    schedule = (
        match("%mm", "linalg.matmul")
        + _tile(tiles)
        + _pad(tiles)
        + f"    %lhs = transform.get_producer_of_operand %p[0] : ({ANY}) -> {ANY}\n"
        + f"    %h = transform.structured.hoist_pad %lhs {by} : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(schedule_module(matmul_payload(m, n, k), schedule))
    assert "tensor.pad" in ir


@_SETTINGS
@given(case=matmuls())
def test_hoisted_init_pad_matches_reference(case: tuple[int, int, int, list[int]]) -> None:
    """The init's pad is hoisted out of the K loop and carried through its iter_args."""
    m, n, k, tiles = case
    tiles[2] = tiles[2] or 2
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %t, %lm, %lk = transform.structured.tile_using_for %mm tile_sizes [{tiles[0]}, 0,"
        f" {tiles[2]}] : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
        + _pad(tiles).replace("nofold_flags = [1, 0, 0]", "nofold_flags = [0, 0, 1]")
        + f"    %init = transform.get_producer_of_operand %p[2] : ({ANY}) -> {ANY}\n"
        + f"    transform.apply_licm to %lk : {ANY}\n"
        + f"    %h = transform.structured.hoist_pad %init by 1 loops : ({ANY}) -> {ANY}\n"
    )
    run_and_check(schedule_module(matmul_payload(m, n, k), schedule))


@_SETTINGS
@given(case=matmuls(), multiple=st.booleans(), size=st.integers(1, 9), of_tile=st.booleans())
def test_pad_tiling_interface_matches_reference(
    case: tuple[int, int, int, list[int]], multiple: bool, size: int, of_tile: bool
) -> None:
    """Also to multiples of the tile size itself, where the padded tile is static."""
    m, n, k, tiles = case
    if of_tile:
        size = tiles[0]
    sizes = f"padding_sizes [{size}, 0, {size}]" + (" pad_to_multiple_of" if multiple else "")
    if not multiple:
        # Padding to a size below the tile's would cut it: pad to at least the tile.
        sizes = f"padding_sizes [{max(size, tiles[0])}, 0, {max(size, tiles[2] or k)}]"
    schedule = (
        match("%mm", "linalg.matmul")
        + _tile(tiles)
        + f"    %p, %pads = transform.structured.pad_tiling_interface %t to {sizes}"
        f" {_ZEROS} : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    run_and_check(schedule_module(matmul_payload(m, n, k), schedule))


@_SETTINGS
@given(case=matmuls(), operand=st.integers(0, 2))
def test_promoted_operand_matches_reference(
    case: tuple[int, int, int, list[int]], operand: int
) -> None:
    m, n, k, _tiles = case
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %v = transform.get_operand %mm[{operand}] : ({ANY}) -> !transform.any_value\n"
        + "    %pv = transform.structured.promote_tensor %v : !transform.any_value\n"
    )
    ir = run_and_check(schedule_module(matmul_payload(m, n, k), schedule))
    assert "bufferization.alloc_tensor" in ir
