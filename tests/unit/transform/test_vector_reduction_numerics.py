"""Vectorized reductions compute what the untransformed generic computes.

Generated generics over three loops, one or two of them reductions (unit or not), with
transposed and broadcasting input maps and a transposed output map, i32 and f32, several
combining bodies, sizes 1..7, vectorized whole (and with vector sizes equal to the loop
sizes), compiled for the CPU at the default -O level and compared with
`schedir.reference`.

The class behind the fuzz finding `vectorized_reduction_over_unit_dim`: the default
multi-reduction lowering flattened the parallel dims into one 1-D vector (vector<6x4xi32>
to vector<24xi32>) and cut it back into rows; LLVM 22's x86 backend merges the adjacent
stores of two 128-bit rows taken at the middle of such a vector (lanes 12..19 of a
<24 x i32>) into one 256-bit store of lanes 8..15 (see `schedir.lowering.lower_vector`).
The smallest module that miscompiles at llc -O1 and above (-mcpu=znver3, LLVM 22.1; LLVM
14 is right) stores in[8..15] at out[12..19]:

    %c = load <24 x i32>, ptr %in
    %lo = shufflevector <24 x i32> %c, <24 x i32> poison, <4 x i32> <12, 13, 14, 15>
    %hi = shufflevector <24 x i32> %c, <24 x i32> poison, <4 x i32> <16, 17, 18, 19>
    store <4 x i32> %lo, ptr %out12
    store <4 x i32> %hi, ptr %out16

(every miscompiling case of i16/i32/i64 vectors of 4..40 lanes: two adjacent 128-bit
stores of the subvectors at lane N/2 when N/2 is not a multiple of 256 bits.)
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, run_and_check

DIMS = ("d0", "d1", "d2")

# The body yields `combine(c, f(a, b))`: the vectorizer recognizes the combine as the
# reduction kind. Per element type: (f, combine) pairs of op names.
BODIES = {
    "i32": [
        ("arith.subi", "arith.addi"),
        ("arith.muli", "arith.addi"),
        ("arith.addi", "arith.maxsi"),
        ("arith.xori", "arith.muli"),
        ("arith.subi", "arith.minui"),
    ],
    "f32": [
        ("arith.subf", "arith.addf"),
        ("arith.mulf", "arith.addf"),
        ("arith.addf", "arith.maximumf"),
        ("arith.subf", "arith.minimumf"),
    ],
}


def generic(
    sizes: tuple[int, int, int],
    reductions: tuple[int, ...],
    a_dims: tuple[int, ...],
    b_dims: tuple[int, ...],
    out_perm: bool,
    elem: str,
    body: tuple[str, str],
    vector_sizes: bool,
    fill: bool,
) -> str:
    """A generic over loops of `sizes` reducing `reductions`, reading `a` and `b` through
    the loop dims `a_dims`/`b_dims` (in that order: transposes and broadcasts), writing the
    parallel dims (reversed when `out_perm`) of an argument or of a constant `fill`,
    vectorized whole or with `vector_sizes` the loop sizes."""
    parallel = [d for d in range(3) if d not in reductions]
    out_dims = parallel[::-1] if out_perm else parallel

    def shape(dims: tuple[int, ...] | list[int]) -> str:
        return "x".join(str(sizes[d]) for d in dims) + f"x{elem}" if dims else elem

    def amap(dims: tuple[int, ...] | list[int]) -> str:
        return f"affine_map<({', '.join(DIMS)}) -> ({', '.join(DIMS[d] for d in dims)})>"

    a_t, b_t, c_t = (f"tensor<{shape(d)}>" for d in (a_dims, b_dims, out_dims))
    iterators = ", ".join('"reduction"' if d in reductions else '"parallel"' for d in range(3))
    f, combine = body
    init_arg = "" if fill else f", %c: {c_t}"
    seven = "7.0" if elem == "f32" else "7"
    init = (
        f"    %e = tensor.empty() : {c_t}\n    %s = arith.constant {seven} : {elem}\n"
        f"    %c = linalg.fill ins(%s : {elem}) outs(%e : {c_t}) -> {c_t}\n"
        if fill
        else ""
    )
    spec = f" vector_sizes {list(sizes)}" if vector_sizes else ""
    return f"""module attributes {{transform.with_named_sequence}} {{
  func.func @red(%a: {a_t}, %b: {b_t}{init_arg}) -> {c_t} {{
{init}    %r = linalg.generic {{indexing_maps = [{amap(a_dims)}, {amap(b_dims)}, {amap(out_dims)}],
        iterator_types = [{iterators}]}} ins(%a, %b : {a_t}, {b_t}) outs(%c : {c_t}) {{
    ^bb0(%x: {elem}, %y: {elem}, %z: {elem}):
      %t = {f} %x, %y : {elem}
      %u = {combine} %t, %z : {elem}
      linalg.yield %u : {elem}
    }} -> {c_t}
    return %r : {c_t}
  }}
  transform.named_sequence @__transform_main(%root: {ANY} {{transform.readonly}}) {{
    %g = transform.structured.match ops{{["linalg.generic"]}} in %root : ({ANY}) -> {ANY}
    transform.structured.vectorize %g{spec} : {ANY}
    transform.yield
  }}
}}
"""


@st.composite
def reductions(draw: st.DrawFn) -> str:
    """A generic of `generic`'s family: every loop dim read by `a` or `b`."""
    size = st.integers(1, 7)
    sizes = draw(st.tuples(size, size, size))
    n_red = draw(st.integers(1, 2))
    red = tuple(sorted(draw(st.permutations(range(3)))[:n_red]))
    # `a` reads two or three dims in any order; `b` reads the rest (and maybe more), so
    # between them every dim is read.
    a_dims = tuple(draw(st.permutations(range(3)))[: draw(st.integers(2, 3))])
    missing = [d for d in range(3) if d not in a_dims]
    extra = draw(
        st.lists(
            st.sampled_from([d for d in range(3) if d not in missing]), max_size=2, unique=True
        )
    )
    b_dims = tuple(draw(st.permutations(missing + extra)))
    elem = draw(st.sampled_from(["i32", "f32"]))
    body = draw(st.sampled_from(BODIES[elem]))
    return generic(
        sizes,
        red,
        a_dims,
        b_dims,
        draw(st.booleans()),
        elem,
        body,
        draw(st.booleans()),
        draw(st.booleans()),
    )


@settings(max_examples=25)
@given(reductions())
def test_vectorized_reductions_match_the_reference(payload: str) -> None:
    run_and_check(payload)


# The parallel part 6x4 (24 lanes in rows of 4: the middle row pair is the 128-bit pair
# the x86 backend mis-merged) reduced over a unit and a non-unit dim, before, between
# and after the parallel dims (both reduction layouts), i32 and f32.
_EXACT = [
    (sizes, red, elem)
    for sizes, red in [
        ((1, 6, 4), (0,)),
        ((3, 6, 4), (0,)),
        ((6, 1, 4), (1,)),
        ((6, 5, 4), (1,)),
        ((6, 4, 1), (2,)),
        ((6, 4, 5), (2,)),
    ]
    for elem in ("i32", "f32")
]


@pytest.mark.parametrize(("sizes", "red", "elem"), _EXACT)
def test_flattened_halves_at_odd_multiples_of_128_bits(
    sizes: tuple[int, int, int], red: tuple[int, ...], elem: str
) -> None:
    parallel = tuple(d for d in range(3) if d not in red)
    # The fuzz case's maps: `a` (i, k) transposed and broadcast along j, `b` (k, j).
    a_dims = (parallel[0], *red)
    b_dims = (*red, parallel[-1])
    # A constant init (the fuzz case's fill) is what lets LLVM fold the rows into the
    # merged store; vectorized whole with one body, with vector sizes with another.
    for body, sized in zip(BODIES[elem][:2], (False, True), strict=True):
        run_and_check(generic(sizes, red, a_dims, b_dims, False, elem, body, sized, True))
