"""Lowering a whole-op vectorized reduction stays linear in the vector's size.

The class behind a mutant that ran out of time in the 10,000-mutant campaign (a 5x11x16x4
broadcast, transposed and reduced to a scalar, vectorized whole: over 300 s): the default
multi-reduction lowering flattened the 3,520 elements into one 1-D vector, assembled
from its 880 rows by one `vector.insert_strided_slice` each, and every one of them became
two shuffles of the full 3,520 lanes (12.4 million mask entries, built and printed by
Python, then LLVM legalizing a 3,520-lane vector). Now a full reduction combines the rows
elementwise and reduces one row, and a flattening shape_cast assembles its rows by a
shuffle tree. The work is counted, not timed (the machine may be loaded): the
widest vector and the shuffle mask entries of the LLVM IR; the kernels also run against
`schedir.reference` on odd shapes with non-zero inputs.
"""

from __future__ import annotations

import re
from math import ceil, log2, prod

from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.api import OptRequest, run_opt
from schedir.diagnostics import SourceManager
from tests.helpers import ANY, run_and_check

DIMS = ("d0", "d1", "d2", "d3")

# (element type, combining op, the fill's text): the vectorizer recognizes the combine.
COMBINES = [
    ("f32", "arith.addf", "0.5"),
    ("f32", "arith.maximumf", "-2.0"),
    ("i32", "arith.addi", "3"),
    ("i32", "arith.maxsi", "-7"),
    ("i32", "arith.xori", "5"),
]


def full_reduction(shape: tuple[int, ...], elem: str, combine: str, init: str) -> str:
    """`combine` of every element of an n-D tensor into a 0-D one initialized to `init`,
    vectorized whole."""
    rank = len(shape)
    dims = ", ".join(DIMS[:rank])
    t = "tensor<" + "x".join(map(str, shape)) + f"x{elem}>"
    iterators = ", ".join(['"reduction"'] * rank)
    return f"""module attributes {{transform.with_named_sequence}} {{
  func.func @red(%a: {t}) -> tensor<{elem}> {{
    %e = tensor.empty() : tensor<{elem}>
    %s = arith.constant {init} : {elem}
    %c = linalg.fill ins(%s : {elem}) outs(%e : tensor<{elem}>) -> tensor<{elem}>
    %r = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>,
        affine_map<({dims}) -> ()>], iterator_types = [{iterators}]}}
        ins(%a : {t}) outs(%c : tensor<{elem}>) {{
    ^bb0(%x: {elem}, %z: {elem}):
      %u = {combine} %x, %z : {elem}
      linalg.yield %u : {elem}
    }} -> tensor<{elem}>
    return %r : tensor<{elem}>
  }}
  transform.named_sequence @__transform_main(%root: {ANY} {{transform.readonly}}) {{
    %g = transform.structured.match ops{{["linalg.generic"]}} in %root : ({ANY}) -> {ANY}
    transform.structured.vectorize %g : {ANY}
    transform.yield
  }}
}}
"""


_VECTOR = re.compile(r"<(\d+) x ")
_SHUFFLE_MASK = re.compile(r"shufflevector .*?<(\d+) x i32> <")


def llvm_work(text: str) -> tuple[int, int]:
    """The widest vector and the shuffle mask entries of the LLVM IR of `text`."""
    llvm_ir = run_opt(OptRequest(text, "wide.mlir", emit="llvm"), SourceManager())
    assert isinstance(llvm_ir, str)
    widest = max((int(w) for w in _VECTOR.findall(llvm_ir)), default=1)
    masks = sum(int(n) for n in _SHUFFLE_MASK.findall(llvm_ir))
    return widest, masks


@st.composite
def reductions(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[str, str, str]]:
    rank = draw(st.integers(2, 4))
    shape = tuple(draw(st.lists(st.integers(1, 13), min_size=rank, max_size=rank)))
    return shape, draw(st.sampled_from(COMBINES))


@settings(max_examples=20)
@given(reductions())
def test_full_reductions_stay_in_rows_and_match_the_reference(
    case: tuple[tuple[int, ...], tuple[str, str, str]],
) -> None:
    shape, (elem, combine, init) = case
    text = full_reduction(shape, elem, combine, init)
    widest, masks = llvm_work(text)
    # Rows of the innermost dim (a broadcast of the init may add a lane or two), never
    # one vector of every element; the shuffles are at most a few per row.
    assert widest <= max(shape[-1], 2), f"{shape}: a {widest}-lane vector"
    assert masks <= 4 * prod(shape) + 64, f"{shape}: {masks} shuffle mask entries"
    run_and_check(text)


def test_the_campaign_case_compiles_in_rows() -> None:
    # The mutant's shape: 3,520 elements, rows of 4 (a 5x11x16 broadcast along a new
    # innermost dim of 4, transposed, summed).
    text = full_reduction((5, 11, 16, 4), "f32", "arith.addf", "-0.5")
    widest, masks = llvm_work(text)
    assert widest <= 4, f"a {widest}-lane vector"
    assert masks <= 4 * 3520, f"{masks} shuffle mask entries"
    run_and_check(text)


def _flattened(shape: tuple[int, ...]) -> str:
    """`full_reduction` lowered by upstream's innerreduction pattern set, which flattens
    the reduction into one 1-D vector (a shape_cast assembled from the rows)."""
    text = full_reduction(shape, "f32", "arith.addf", "0.5")
    extra = (
        f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
        "    transform.apply_patterns to %f {\n"
        '      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"\n'
        f"    }} : {ANY}\n"
    )
    return text.replace("    transform.yield\n", extra + "    transform.yield\n")


def test_explicit_flattening_assembles_the_rows_in_n_log_n() -> None:
    # Upstream's flattening kept: the 1-D vector exists, but it is assembled from its rows
    # by a shuffle tree (about n log2(rows) mask entries), not by one pair of full-width
    # shuffles per row (2 * rows * n: 3,528 at 3x7x4, 122,694 at 13x11x3).
    for shape in [(3, 7, 4), (9, 5, 8), (13, 11, 3)]:
        _, masks = llvm_work(_flattened(shape))
        rows, n = prod(shape[:-1]), prod(shape)
        bound = n * (ceil(log2(rows)) + 2) + 64
        assert masks <= bound, f"{shape}: {masks} shuffle mask entries (bound {bound})"
    run_and_check(_flattened((3, 7, 4)))
