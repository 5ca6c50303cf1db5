"""One-shot-bufferize keeps the blocks of a tiled, peeled computation in the result's buffer.

Tiling a static tensor computation with sizes that do not divide it, then peeling, gives a
chain of blocks: each is an `extract_slice` of the result so far, carried through a tile
loop as a `tensor<?x?xf32>` (a `tensor.cast`), tiled again inside (a slice of the loop's
result), and inserted back at the same place. Upstream's analysis finds the matching
`extract_slice` for each `insert_slice` through the casts, the loop and the inner slices,
so every block bufferizes in place: one allocation (the result) and no copy. An analysis
that stopped at the first slice on the way put each block in a buffer of its own, with a
copy in and out; the CPU matmul schedule then vectorized those copies into one vector per
block (vector<256x512xf32>), which LLVM took minutes to compile.

The programs are generated (block splits, sizes, casts or not); the counts are of the
bufferized IR, and a few are run against `schedir.reference`.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import parse_pass_pipeline, run_passes
from tests.helpers import run_and_check

BUFFERIZE = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map}"
)
_ID = "affine_map<(i, j) -> (i, j)>"


def _block(
    out: list[str],
    name: str,
    dest: str,
    shape: tuple[int, int],
    at: tuple[int, int],
    size: tuple[int, int],
    value: float,
    cast: bool,
) -> str:
    """Append one block of the result: filled one row at a time by a loop (carrying the
    block as `?x?` when `cast`), then `x` added to it; returns the new result value."""
    (rows, cols), (r0, c0), (h, w) = shape, at, size
    full = f"tensor<{rows}x{cols}xf32>"
    tile = f"tensor<{h}x{w}xf32>"
    carried = "tensor<?x?xf32>" if cast else tile
    out.append(
        f"  %{name}_s = tensor.extract_slice %{dest}[{r0}, {c0}] [{h}, {w}] [1, 1] "
        f": {full} to {tile}"
    )
    start = f"%{name}_s"
    if cast:
        out.append(f"  %{name}_c = tensor.cast %{name}_s : {tile} to {carried}")
        start = f"%{name}_c"
    out += [
        f"  %{name}_v = arith.constant {value:.1f} : f32",
        f"  %{name}_n = arith.constant {h} : index",
        f"  %{name}_l = scf.for %i = %c0 to %{name}_n step %c1 iter_args(%acc = {start})"
        f" -> ({carried}) {{",
        f"    %row = tensor.extract_slice %acc[%i, 0] [1, {w}] [1, 1] : {carried} to "
        f"tensor<1x{w}xf32>",
        f"    %f = linalg.fill ins(%{name}_v : f32) outs(%row : tensor<1x{w}xf32>) "
        f"-> tensor<1x{w}xf32>",
        f"    %put = tensor.insert_slice %f into %acc[%i, 0] [1, {w}] [1, 1] : "
        f"tensor<1x{w}xf32> into {carried}",
        f"    scf.yield %put : {carried}",
        "  }",
        # A tile of the loop's result: inside the block, but not the block's own slice.
        f"  %{name}_t = tensor.extract_slice %{name}_l[0, 0] [{h}, {w}] [1, 1] "
        f": {carried} to {tile}",
        f"  %{name}_x = tensor.extract_slice %x[{r0}, {c0}] [{h}, {w}] [1, 1] : {full} to {tile}",
        f"  %{name}_a = linalg.generic {{indexing_maps = [{_ID}, {_ID}], "
        f'iterator_types = ["parallel", "parallel"]}} ins(%{name}_x : {tile}) '
        f"outs(%{name}_t : {tile}) {{",
        "  ^bb0(%in: f32, %o: f32):",
        "    %sum = arith.addf %in, %o : f32",
        "    linalg.yield %sum : f32",
        f"  }} -> {tile}",
        f"  %{name}_b = tensor.insert_slice %{name}_a into %{name}_l[0, 0] [{h}, {w}] [1, 1] "
        f": {tile} into {carried}",
    ]
    back = f"%{name}_b"
    if cast:
        out.append(f"  %{name}_u = tensor.cast %{name}_b : {carried} to {tile}")
        back = f"%{name}_u"
    out.append(
        f"  %{name} = tensor.insert_slice {back} into %{dest}[{r0}, {c0}] [{h}, {w}] [1, 1] "
        f": {tile} into {full}"
    )
    return name


def peeled_payload(rows: int, cols: int, row_split: int, col_split: int, cast: bool) -> str:
    """`x` plus a constant per block, computed block by block into `tensor.empty`: the
    blocks of a (rows x cols) result cut at `row_split` and `col_split` (a main block and
    the peeled remainders), in the order a peeled loop nest computes them."""
    full = f"tensor<{rows}x{cols}xf32>"
    out = [
        f"func.func @blocks(%x: {full}) -> {full} {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        f"  %empty = tensor.empty() : {full}",
    ]
    row_parts = [(0, row_split), (row_split, rows - row_split)]
    col_parts = [(0, col_split), (col_split, cols - col_split)]
    dest = "empty"
    index = 0
    for c0, w in col_parts:
        for r0, h in row_parts:
            if h == 0 or w == 0:
                continue
            index += 1
            dest = _block(
                out, f"b{index}", dest, (rows, cols), (r0, c0), (h, w), float(index), cast
            )
    out += [f"  return %{dest} : {full}", "}"]
    return "\n".join(out) + "\n"


def _bufferized(payload: str) -> str:
    ctx = get_context()
    module = parse_module(payload, ctx=ctx)
    run_passes(ctx, module, parse_pass_pipeline(BUFFERIZE))
    return print_op(module)


@st.composite
def _shapes(draw: st.DrawFn) -> tuple[int, int, int, int, bool]:
    rows = draw(st.integers(2, 41))
    cols = draw(st.integers(2, 41))
    row_split = draw(st.integers(1, rows))
    col_split = draw(st.integers(1, cols))
    return rows, cols, row_split, col_split, draw(st.booleans())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_shapes())
def test_peeled_blocks_bufferize_in_place(shape: tuple[int, int, int, int, bool]) -> None:
    rows, cols, row_split, col_split, cast = shape
    ir = _bufferized(peeled_payload(rows, cols, row_split, col_split, cast))
    allocs = re.findall(r"memref\.alloc\(\)", ir)
    assert len(allocs) == 1, f"{len(allocs)} allocations (only the result's):\n{ir}"
    assert "memref.copy" not in ir, f"a block is copied:\n{ir}"
    result = re.search(r"return (%\w+)", ir)
    assert result is not None
    assert re.search(rf"{re.escape(result.group(1))} = memref\.alloc\(\)", ir), (
        f"the result is not the allocation itself:\n{ir}"
    )


def test_peeled_blocks_match_the_reference() -> None:
    # Every block split, with and without the casts of a tile loop: right numbers too.
    for rows, cols, row_split, col_split, cast in [
        (13, 17, 6, 16, True),
        (9, 31, 9, 8, True),
        (7, 5, 1, 4, False),
        (11, 3, 10, 3, True),
    ]:
        run_and_check(peeled_payload(rows, cols, row_split, col_split, cast))


def test_a_block_written_elsewhere_still_gets_its_own_buffer() -> None:
    # Negative control: the block read from [0, 0] is put back at [r, 0] while the original
    # rows are read after the write: in place would clobber them, so a copy must stay.
    payload = """
func.func @moved(%x: tensor<8x5xf32>) -> (tensor<8x5xf32>, tensor<4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %s = tensor.extract_slice %x[0, 0] [4, 5] [1, 1] : tensor<8x5xf32> to tensor<4x5xf32>
  %d = tensor.cast %s : tensor<4x5xf32> to tensor<?x?xf32>
  %l = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %d) -> (tensor<?x?xf32>) {
    %row = tensor.extract_slice %acc[%i, 0] [1, 5] [1, 1] : tensor<?x?xf32> to tensor<1x5xf32>
    %f = linalg.fill ins(%one : f32) outs(%row : tensor<1x5xf32>) -> tensor<1x5xf32>
    %put = tensor.insert_slice %f into %acc[%i, 0] [1, 5] [1, 1]
      : tensor<1x5xf32> into tensor<?x?xf32>
    scf.yield %put : tensor<?x?xf32>
  }
  %t = tensor.extract_slice %l[0, 0] [4, 5] [1, 1] : tensor<?x?xf32> to tensor<4x5xf32>
  %r = tensor.insert_slice %t into %x[4, 0] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<8x5xf32>
  %old = tensor.extract_slice %x[0, 0] [4, 5] [1, 1] : tensor<8x5xf32> to tensor<4x5xf32>
  return %r, %old : tensor<8x5xf32>, tensor<4x5xf32>
}
"""
    assert "memref.copy" in _bufferized(payload)
    run_and_check(payload)
