"""Vectorized payloads compute what the untransformed payload computes.

Each case tiles a payload, vectorizes it (`structured.vectorize`, with `vector_sizes` for
masked vectorization of partial tiles, or `vectorize_children_and_apply_patterns`,
with `vectorize_padding` for padded partial tiles), compiles it for the CPU with
`schedir.compile` (whose pipeline bufferizes and lowers the vector ops) and compares the
results with `schedir.reference.evaluate` at odd sizes. Masked transfers are lowered to
transfers with mask operands before bufferization (`vector.lower_masked_transfers`,
as a schedule would); masked reductions have no CPU lowering yet, so masked cases are
elementwise. The property tests draw tile and vector sizes, dividing or not.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module

FUNC = f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
LOWER_MASKED = (
    FUNC + "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.vector.lower_masked_transfers\n"
    f"    }} : {ANY}\n"
)


def tile_for(target: str, tile: list[int]) -> str:
    loops = sum(1 for t in tile if t)
    results = ", ".join([ANY] * (loops + 1))
    names = "%t" + "".join(f", %l{i}" for i in range(loops))
    return f"    {names} = transform.structured.tile_using_for {target} tile_sizes {tile} : ({ANY}) -> ({results})\n"


def vectorize(target: str, sizes: list[int] | None = None) -> str:
    spec = f" vector_sizes {sizes}" if sizes else ""
    return f"    transform.structured.vectorize {target}{spec} : {ANY}\n"


def children(options: str = "") -> str:
    opts = f" <{options}>" if options else ""
    return (
        FUNC
        + f"    %v = transform.structured.vectorize_children_and_apply_patterns %f{opts} : ({ANY}) -> {ANY}\n"
    )


def pad(target: str) -> str:
    return (
        f"    %p, %pad, %copy = transform.structured.pad {target} <{{padding_values = [0.0 : f32, 0.0 : f32, 0.0 : f32], "
        f'padding_dimensions = [0, 1, 2], copy_back_op = "none"}}> : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n'
    )


def matmul(m: int, n: int, k: int) -> str:
    return f"""  func.func @mm(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %r = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%C : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    return %r : tensor<{m}x{n}xf32>
  }}"""


def bias_exp(m: int, n: int) -> str:
    """exp(a + bias) with the bias broadcast along rows, into an init transposed
    relative to the iteration (the init map is (d0, d1) -> (d1, d0))."""
    return f"""  func.func @be(%A: tensor<{m}x{n}xf32>, %b: tensor<{n}xf32>, %C: tensor<{n}x{m}xf32>) -> tensor<{n}x{m}xf32> {{
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}}
        ins(%A, %b : tensor<{m}x{n}xf32>, tensor<{n}xf32>) outs(%C : tensor<{n}x{m}xf32>) {{
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %e = math.exp %s : f32
      %z = arith.subf %e, %o : f32
      linalg.yield %z : f32
    }} -> tensor<{n}x{m}xf32>
    return %r : tensor<{n}x{m}xf32>
  }}"""


def row_max(m: int, n: int) -> str:
    return f"""  func.func @rm(%A: tensor<{m}x{n}xf32>, %C: tensor<{m}xf32>) -> tensor<{m}xf32> {{
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
        ins(%A : tensor<{m}x{n}xf32>) outs(%C : tensor<{m}xf32>) {{
    ^bb0(%x: f32, %o: f32):
      %s = arith.maximumf %x, %o : f32
      linalg.yield %s : f32
    }} -> tensor<{m}xf32>
    return %r : tensor<{m}xf32>
  }}"""


# --- static tiles ------------------------------------------------------------------------


def test_vectorize_dividing_matmul_tiles() -> None:
    text = schedule_module(
        matmul(32, 48, 24),
        match("%mm", "linalg.matmul") + tile_for("%mm", [8, 16, 4]) + vectorize("%t"),
    )
    ir = run_and_check(text, reduction=24)
    assert "vector.multi_reduction" in ir and "linalg.matmul" not in ir


def test_vectorize_children_matmul_becomes_contract() -> None:
    text = schedule_module(
        matmul(32, 48, 24), match("%mm", "linalg.matmul") + tile_for("%mm", [8, 16, 8]) + children()
    )
    ir = run_and_check(text, reduction=24)
    assert "vector.contract" in ir and "linalg.matmul" not in ir


def test_vectorize_named_contraction() -> None:
    schedule = (
        match("%mm", "linalg.matmul")
        + tile_for("%mm", [8, 16, 8])
        + f"    transform.structured.vectorize %t create_named_contraction : {ANY}\n"
    )
    ir = run_and_check(schedule_module(matmul(32, 48, 24), schedule), reduction=24)
    assert "vector.contract" in ir and "vector.multi_reduction" not in ir


def test_vectorize_broadcast_and_transposed_init() -> None:
    text = schedule_module(
        bias_exp(24, 40), match("%g", "linalg.generic") + tile_for("%g", [8, 8]) + children()
    )
    ir = run_and_check(text)
    assert "vector.transpose" in ir


def test_vectorize_row_reduction() -> None:
    text = schedule_module(
        row_max(24, 37), match("%g", "linalg.generic") + tile_for("%g", [4, 0]) + vectorize("%t")
    )
    ir = run_and_check(text, reduction=37)
    assert "vector.multi_reduction <maximumf>" in ir


def test_vectorize_index_after_tiling() -> None:
    # Tiling turns linalg.index into index + offset (affine.apply), expanded to arith.
    payload = """  func.func @iota(%C: tensor<12x20xindex>) -> tensor<12x20xindex> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        outs(%C : tensor<12x20xindex>) {
    ^bb0(%o: index):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %c100 = arith.constant 100 : index
      %a = arith.muli %i, %c100 : index
      %s = arith.addi %a, %j : index
      linalg.yield %s : index
    } -> tensor<12x20xindex>
    return %r : tensor<12x20xindex>
  }"""
    ir = run_and_check(
        schedule_module(
            payload, match("%g", "linalg.generic") + tile_for("%g", [4, 5]) + vectorize("%t")
        )
    )
    assert "vector.step" in ir


def test_vectorize_fill_copy_transpose() -> None:
    payload = """  func.func @fct(%A: tensor<16x8xf32>, %s: f32) -> (tensor<16x8xf32>, tensor<8x16xf32>) {
    %e = tensor.empty() : tensor<16x8xf32>
    %f = linalg.fill ins(%s : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
    %c = linalg.copy ins(%A : tensor<16x8xf32>) outs(%f : tensor<16x8xf32>) -> tensor<16x8xf32>
    %e2 = tensor.empty() : tensor<8x16xf32>
    %t = linalg.transpose ins(%c : tensor<16x8xf32>) outs(%e2 : tensor<8x16xf32>) permutation = [1, 0]
    return %f, %t : tensor<16x8xf32>, tensor<8x16xf32>
  }"""
    schedule = (
        f'    %ops = transform.structured.match ops{{["linalg.fill", "linalg.copy", "linalg.transpose"]}} in %root : ({ANY}) -> {ANY}\n'
        + vectorize("%ops")
    )
    ir = run_and_check(schedule_module(payload, schedule))
    assert "linalg." not in ir.split("transform.")[0]


# --- partial tiles ---------------------------------------------------------------------------


def test_masked_partial_tiles_elementwise() -> None:
    text = schedule_module(
        bias_exp(37, 53),
        match("%g", "linalg.generic")
        + tile_for("%g", [8, 16])
        + vectorize("%t", [8, 16])
        + LOWER_MASKED,
    )
    ir = run_and_check(text)
    assert "vector.create_mask" in ir


def test_masked_vector_sizes_larger_than_tiles() -> None:
    text = schedule_module(
        bias_exp(37, 53),
        match("%g", "linalg.generic")
        + tile_for("%g", [5, 7])
        + vectorize("%t", [8, 8])
        + LOWER_MASKED,
    )
    run_and_check(text)


def test_padded_partial_matmul_tiles() -> None:
    text = schedule_module(
        matmul(37, 53, 29),
        match("%mm", "linalg.matmul")
        + tile_for("%mm", [8, 16, 4])
        + pad("%t")
        + children("vectorize_padding"),
    )
    ir = run_and_check(text, reduction=29)
    assert "vector.contract" in ir and "tensor.pad" not in ir


def test_padded_tiles_without_vectorize_padding() -> None:
    text = schedule_module(
        matmul(37, 53, 29),
        match("%mm", "linalg.matmul") + tile_for("%mm", [8, 16, 4]) + pad("%t") + children(),
    )
    ir = run_and_check(text, reduction=29)
    assert "tensor.pad" in ir and "vector.contract" in ir


def test_vectorize_pad_with_vector_sizes() -> None:
    payload = """  func.func @pad(%A: tensor<5x6xf32>) -> tensor<8x8xf32> {
    %cst = arith.constant 2.5 : f32
    %r = tensor.pad %A low[0, 0] high[3, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<5x6xf32> to tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }"""
    ir = run_and_check(
        schedule_module(payload, match("%p", "tensor.pad") + vectorize("%p", [8, 8]) + LOWER_MASKED)
    )
    assert "tensor.pad" not in ir


def test_vectorize_insert_slice() -> None:
    payload = """  func.func @ins(%A: tensor<4x3xf32>, %D: tensor<8x8xf32>) -> tensor<8x8xf32> {
    %r = tensor.insert_slice %A into %D[3, 2] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<8x8xf32>
    return %r : tensor<8x8xf32>
  }"""
    ir = run_and_check(
        schedule_module(payload, match("%s", "tensor.insert_slice") + vectorize("%s"))
    )
    assert "tensor.insert_slice" not in ir


# --- schedule (d) and hoisting --------------------------------------------------------------


def test_schedule_d_tensor_level_on_cpu() -> None:
    from pathlib import Path

    case = (
        Path(__file__).parents[2]
        / "differential"
        / "cases"
        / "vectorize_ref_d_matmul_bias_relu_tensor.mlir"
    )
    ir = run_and_check(case.read_text(), reduction=512)
    body = ir.split("transform.")[0]
    assert "vector.contract" in body and "linalg." not in body
    assert "iter_args(%" in body and "-> (vector<4x1xf32>)" in body


def test_hoist_redundant_vector_transfers_after_bufferization() -> None:
    schedule = (
        match("%mm", "linalg.matmul")
        + tile_for("%mm", [0, 0, 8])
        + children()
        + f"    %b = transform.bufferization.one_shot_bufferize %root <{{bufferize_function_boundaries = true}}> : ({ANY}) -> {ANY}\n"
        + f'    %fb = transform.structured.match ops{{["func.func"]}} in %b : ({ANY}) -> {ANY}\n'
        + f"    %h = transform.structured.hoist_redundant_vector_transfers %fb : ({ANY}) -> {ANY}\n"
    )
    text = schedule_module(matmul(8, 16, 64), schedule).replace(
        f"%root: {ANY} {{transform.readonly}}", f"%root: {ANY} {{transform.consumed}}"
    )
    ir = run_and_check(text, reduction=64)
    loop = ir[ir.index("scf.for") :]
    assert "-> (vector<8x16xf32>)" in loop.split("\n")[0]


# --- properties --------------------------------------------------------------------------------


@settings(max_examples=6)
@given(
    tile=st.tuples(st.integers(1, 9), st.integers(1, 12)),
    extra=st.tuples(st.integers(0, 3), st.integers(0, 4)),
)
def test_masked_elementwise_any_tile_and_vector_sizes(
    tile: tuple[int, int], extra: tuple[int, int]
) -> None:
    sizes = [tile[0] + extra[0], tile[1] + extra[1]]
    text = schedule_module(
        bias_exp(19, 23),
        match("%g", "linalg.generic")
        + tile_for("%g", list(tile))
        + vectorize("%t", sizes)
        + LOWER_MASKED,
    )
    run_and_check(text)


@settings(max_examples=5)
@given(tile=st.tuples(st.integers(1, 8), st.integers(1, 8), st.integers(1, 6)))
def test_padded_matmul_any_tile_sizes(tile: tuple[int, int, int]) -> None:
    text = schedule_module(
        matmul(13, 11, 9),
        match("%mm", "linalg.matmul")
        + tile_for("%mm", list(tile))
        + pad("%t")
        + children("vectorize_padding"),
    )
    run_and_check(text, reduction=9)
