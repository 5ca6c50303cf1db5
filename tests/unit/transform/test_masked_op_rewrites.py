"""Patterns that rewrite an op masked by `vector.mask` build their helper ops (indices,
constants) before the mask: a mask's body holds exactly its one maskable op.

The family: every greedy pattern on a maskable op (a transfer read or write folded through
`tensor.extract_slice`, index composition, ...) inserted new ops before the op it matched,
inside the mask's body, and the next verification rejected the payload ("'vector.mask' op
expects only one operation to mask") where upstream accepts it. The cases tile an
elementwise generic (a multi-op body) at odd sizes, vectorize the tiles with masks
(`vector_sizes`), then run pattern sets that fold the tiles' slices into the masked
transfers, and compare with schedir.reference.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module

FUNC = f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'


def chain(m: int, n: int) -> str:
    """y = exp(-(a * b + a)) of m x n tensors: one generic with several body ops."""
    t = f"tensor<{m}x{n}xf32>"
    return f"""  func.func @chain(%a: {t}, %b: {t}, %o: {t}) -> {t} {{
    %y = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}}
        ins(%a, %b : {t}, {t}) outs(%o : {t}) {{
    ^bb0(%x: f32, %w: f32, %acc: f32):
      %p = arith.mulf %x, %w : f32
      %s = arith.addf %p, %x : f32
      %n = arith.negf %s : f32
      %e = math.exp %n : f32
      linalg.yield %e : f32
    }} -> {t}
    return %y : {t}
  }}"""


FOLDS = {
    "vectorize_children": (
        FUNC
        + f"    %v = transform.structured.vectorize_children_and_apply_patterns %f : ({ANY}) -> {ANY}\n"
    ),
    "fold_subsets": (
        FUNC + "    transform.apply_patterns to %f {\n"
        "      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers\n"
        "      transform.apply_patterns.canonicalization\n"
        f"    }} : {ANY}\n"
    ),
}
LOWER_MASKED = (
    FUNC.replace("%f ", "%f2 ") + "    transform.apply_patterns to %f2 {\n"
    "      transform.apply_patterns.vector.lower_masked_transfers\n"
    f"    }} : {ANY}\n"
)


def tile(target: str, sizes: tuple[int, int], name: str) -> str:
    loops = sum(1 for t in sizes if t)
    results = ", ".join([ANY] * (loops + 1))
    names = f"%{name}" + "".join(f", %{name}_l{i}" for i in range(loops))
    return (
        f"    {names} = transform.structured.tile_using_for {target} tile_sizes "
        f"[{sizes[0]}, {sizes[1]}] : ({ANY}) -> ({results})\n"
    )


def scheduled(
    m: int,
    n: int,
    outer: tuple[int, int],
    inner: tuple[int, int],
    sizes: tuple[int, int],
    fold: str,
) -> str:
    """Two levels of tiles (as blocks, then threads): the inner tiles' slices are slices
    of slices, so folding them into the masked transfers composes their offsets."""
    return schedule_module(
        chain(m, n),
        match("%g", "linalg.generic")
        + tile("%g", outer, "o")
        + tile("%o", inner, "t")
        + f"    transform.structured.vectorize %t vector_sizes [{sizes[0]}, {sizes[1]}] : {ANY}\n"
        + FOLDS[fold]
        + LOWER_MASKED,
    )


def test_folding_slices_into_masked_reads_keeps_one_op_per_mask() -> None:
    # The shape of the GPU elementwise schedule's thread tiles at 8191 x 1000 (1 x 4 tiles).
    ir = run_and_check(scheduled(13, 1001, (4, 512), (1, 4), (1, 4), "vectorize_children"))
    assert "vector.create_mask" in ir


@settings(max_examples=12)
@given(
    m=st.integers(1, 23),
    n=st.integers(1, 41),
    inner=st.tuples(st.integers(1, 6), st.integers(1, 9)),
    times=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    extra=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    fold=st.sampled_from(sorted(FOLDS)),
)
def test_masked_tiles_after_slice_folds_match_the_reference(
    m: int,
    n: int,
    inner: tuple[int, int],
    times: tuple[int, int],
    extra: tuple[int, int],
    fold: str,
) -> None:
    outer = (inner[0] * times[0], inner[1] * times[1])
    sizes = (inner[0] + extra[0], inner[1] + extra[1])
    run_and_check(scheduled(m, n, outer, inner, sizes, fold))
