"""Round trips and verifier errors of the structured (linalg) transform ops.

Every case parses in upstream's current spelling (and, where one existed, the legacy
attr-dict spelling), prints upstream's current spelling stably, and iree-opt accepts the
printed text.
"""

from __future__ import annotations

import pytest
from test_transform_helpers import (
    Case,
    case_ids,
    check_case,
    check_upstream_accepts,
    expect_error,
    wrap,
)

ANY = "!transform.any_op"
P64 = "!transform.param<i64>"
FT1 = f"({ANY}) -> {ANY}"
FT2 = f"({ANY}) -> ({ANY}, {ANY})"
FT3 = f"({ANY}) -> ({ANY}, {ANY}, {ANY})"
FT4 = f"({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})"

STRUCTURED_CASES = [
    # structured.match
    Case(
        '%r = transform.structured.match ops{["linalg.matmul", "linalg.fill"]} '
        "interface{TilingInterface} attributes {foo = 3 : i32, tag} "
        "filter_result_type = tensor<4xf32> filter_operand_types = [tensor<4xf32>, f32] "
        f"in %a : {FT1}",
        current='%r = transform.structured.match ops{["linalg.matmul", "linalg.fill"]} '
        "interface{TilingInterface} attributes{tag, foo = 3 : i32} "
        "filter_result_type = tensor<4xf32> filter_operand_types = [tensor<4xf32>, f32] "
        f"in %a : {FT1}",
    ),
    Case(f"%r = transform.structured.match interface{{LinalgOp}} in %a : {FT1}"),
    Case(f"%r = transform.structured.match interface{{LoopLikeInterface}} in %a : {FT1}"),
    # tile_using_for
    Case(
        "%t, %l0, %l1, %l2 = transform.structured.tile_using_for %a tile_sizes "
        f"[4, %p, 0, [8]] interchange = [0, 2, 1, 3] : ({ANY}, {P64}) -> "
        f"({ANY}, {ANY}, {ANY}, {ANY})"
    ),
    Case(
        f"%t, %l = transform.structured.tile_using_for %a tile_sizes [0, 0, 16] : {FT2}",
        legacy=f"%t, %l = transform.structured.tile_using_for %a [0, 0, 16] : {FT2}",
    ),
    Case(
        f"%t = transform.structured.tile_using_for %a tile_sizes [0] : ({ANY}) -> {ANY}",
    ),
    Case(
        "%t, %l = transform.structured.tile_using_for %a tile_sizes *(%b) interchange = *(%c)"
        f" : ({ANY}, {ANY}, {ANY}) -> ({ANY}, {ANY})"
    ),
    Case(
        "%t, %l0, %l1 = transform.structured.tile_using_for %a tile_sizes [4, 8] "
        f"inner_tile_alignments = [Unknown, Equal] : {FT3}"
    ),
    # tile_using_forall
    Case(
        "%t, %f0 = transform.structured.tile_using_forall %a tile_sizes [64, 32]"
        f"(mapping = [#gpu.block<y>, #gpu.block<x>]) : {FT2}",
        current="%t, %f0 = transform.structured.tile_using_forall %a tile_sizes [64, 32] "
        f"(mapping = [#gpu.block<y>, #gpu.block<x>]) : {FT2}",
        legacy="%t, %f0 = transform.structured.tile_using_forall %a tile_sizes [64, 32] "
        f"{{mapping = [#gpu.block<y>, #gpu.block<x>]}} : {FT2}",
    ),
    Case(f"%t, %f0 = transform.structured.tile_using_forall %a num_threads [16, 32] : {FT2}"),
    Case(
        "%t, %f0 = transform.structured.tile_using_forall %a tile_sizes [%p, 0, %q]"
        f"(mapping = [#gpu.thread<x>, #gpu.warp<y>]) : ({ANY}, {P64}, {P64}) -> ({ANY}, {ANY})"
    ),
    Case(
        "%t, %f0 = transform.structured.tile_using_forall %a num_threads *(%b) "
        f": ({ANY}, {ANY}) -> ({ANY}, {ANY})"
    ),
    # fusion
    Case(
        "%f1, %l = transform.structured.fuse_into_containing_op %a into %b "
        f": ({ANY}, {ANY}) -> ({ANY}, {ANY})"
    ),
    Case(
        "%f1, %l = transform.structured.fuse_into_containing_op %a into %b "
        f"inner_tile_alignments = [Multiple] : ({ANY}, {ANY}) -> ({ANY}, {ANY})"
    ),
    Case(
        "%t, %l0, %l1 = transform.structured.fuse %a tile_sizes [32, 32] interchange [1, 0] "
        f"apply_cleanup : {FT3}",
        legacy="%t, %l0, %l1 = transform.structured.fuse %a {tile_sizes = [32, 32], "
        f"tile_interchange = [1, 0], apply_cleanup = true}} : {FT3}",
    ),
    Case(f"%t, %l = transform.structured.fuse %a tile_sizes [8, 8] use_forall : {FT2}"),
    Case(
        f"%t, %l = transform.structured.fuse %a tile_sizes [%p, 0] : ({ANY}, {P64}) -> "
        f"({ANY}, {ANY})"
    ),
    # reductions, splitting, padding
    Case(
        "%f0, %s, %c0, %l = transform.structured.tile_reduction_using_for %a "
        f"reduction_dims = [1] by tile_sizes = [0, 64] : {FT4}",
    ),
    Case(
        "%f0, %s, %c0, %l = transform.structured.tile_reduction_using_forall %a by "
        f"num_threads = [0, 32] tile_sizes = [0, 4] mapping = [#gpu.thread<x>] : {FT4}",
        legacy="%f0, %s, %c0, %l = transform.structured.tile_reduction_using_forall %a by "
        f"num_threads = [0, 32], tile_sizes = [0, 4], mapping = [#gpu.thread<x>] : {FT4}",
    ),
    Case(
        "%i, %f0, %s, %c0 = transform.structured.split_reduction %a "
        f"<split_factor = 4, insert_split_dimension = 1, inner_parallel> : {FT4}",
        current="%i, %f0, %s, %c0 = transform.structured.split_reduction %a "
        f"<{{split_factor = 4, insert_split_dimension = 1, inner_parallel}}> : {FT4}",
        legacy="%i, %f0, %s, %c0 = transform.structured.split_reduction %a "
        f"{{split_factor = 4, insert_split_dimension = 1, inner_parallel}} : {FT4}",
    ),
    Case(
        "%lo, %hi, %sp = transform.structured.multitile_sizes %a dimension = 0 "
        f"target_size = 3 divisor = 2 : ({ANY}) -> {P64}"
    ),
    Case(
        "%r = transform.structured.split %a after 42  {dimension = 1 : i64} : !transform.any_op",
        current=f"%r = transform.structured.split %a after 42 {{dimension = 1}} : {ANY}",
    ),
    Case(
        "%r = transform.structured.split %a after %p  {dimension = 0 : i64, multiway} : "
        f"{ANY}, {P64}",
    ),
    Case(
        "%r0, %r1, %r2 = transform.structured.pad %a pad_to_multiple_of [16, 4] "
        "use_prescribed_tensor_shapes <padding_values = [0.000000e+00 : f32, 0 : i32], "
        'padding_dimensions = [0, 1], nofold_flags = [1, 0], copy_back_op = "linalg.copy"> '
        f": {FT3}",
        current="%r0, %r1, %r2 = transform.structured.pad %a pad_to_multiple_of [16, 4] "
        "use_prescribed_tensor_shapes <{padding_values = [0.0 : f32, 0 : i32], "
        'padding_dimensions = [0, 1], nofold_flags = [1, 0], copy_back_op = "linalg.copy"}> '
        f": {FT3}",
    ),
    Case(
        "%r0, %r1, %r2 = transform.structured.pad %a <padding_values = [0.000000e+00 : f32, "
        f"0.000000e+00 : f32], padding_dimensions = [0, 1], nofold_flags = [1, 1]> : {FT3}",
        legacy="%r0, %r1, %r2 = transform.structured.pad %a {padding_values = [0.0 : f32, "
        f"0.0 : f32], padding_dimensions = [0, 1], pack_paddings = [1, 1]}} : {FT3}",
    ),
    # rewrites
    Case(f"%r = transform.structured.generalize %a : {FT1}"),
    Case(
        f"%r = transform.structured.specialize %a emit_category = true : {FT1}",
        legacy=f"%r = transform.structured.specialize %a {{emit_category = true}} : {FT1}",
    ),
    Case(
        f"%r = transform.structured.interchange %a iterator_interchange = [1, 0, 2] : {FT1}",
        legacy="%r = transform.structured.interchange %a "
        f"{{iterator_interchange = array<i64: 1, 0, 2>}} : {FT1}",
    ),
    Case(f"%r = transform.structured.decompose %a : {FT1}"),
    Case(f"%r = transform.structured.decompose_interface %a : {FT1}"),
    Case(f"%r = transform.structured.convert_to_loops %a : {FT1}"),
    Case(f"%r = transform.structured.rewrite_in_destination_passing_style %a : {FT1}"),
    Case(f"%r = transform.structured.insert_slice_to_copy %a : {FT1}"),
    Case(f"transform.structured.eliminate_empty_tensors %a : {ANY}"),
    Case(
        "transform.structured.vectorize %a vector_sizes [4, %p, [8]] vectorize_nd_extract "
        f"create_named_contraction : {ANY}, {P64}",
        legacy=f"transform.structured.vectorize %a vector_sizes [4, %p, [8]] "
        f"{{vectorize_nd_extract, create_named_contraction}} : {ANY}, {P64}",
    ),
    Case(f"transform.structured.vectorize %a : {ANY}"),
    Case(
        "%r = transform.structured.vectorize_children_and_apply_patterns %a "
        f"<vectorize_padding, disable_multi_reduction_to_contract_patterns> : {FT1}",
        legacy="%r = transform.structured.vectorize_children_and_apply_patterns %a "
        f"{{vectorize_padding, disable_multi_reduction_to_contract_patterns}} : {FT1}",
    ),
    Case(f"%r = transform.structured.vectorize_children_and_apply_patterns %a : {FT1}"),
    Case(
        "%r = transform.structured.hoist_redundant_vector_transfers %a verify_non_zero_trip "
        f": {FT1}"
    ),
    Case(f"%r = transform.structured.hoist_redundant_vector_broadcasts %a : {FT1}"),
    Case(
        "%r = transform.structured.promote %a <operands_to_promote = [0, 1], "
        "use_full_tile_buffers = [false, true], use_alloca, "
        f"memory_space = #gpu.address_space<workgroup>, alignment = 16> : {FT1}",
        legacy="%r = transform.structured.promote %a {operands_to_promote = [0, 1], "
        "use_full_tile_buffers = [false, true], use_alloca, "
        f"memory_space = #gpu.address_space<workgroup>, alignment = 16}} : {FT1}",
    ),
    Case(
        "%buf, %new = transform.structured.bufferize_to_allocation %a "
        f'<memory_space = 3 : i64, memcpy_op = "linalg.copy", emit_dealloc> : {ANY}',
        legacy="%buf, %new = transform.structured.bufferize_to_allocation %a "
        f'{{memory_space = 3 : i64, memcpy_op = "linalg.copy", emit_dealloc}} : {ANY}',
    ),
    Case(
        "%fa, %t = transform.structured.gpu.map_copy_to_threads %a total_num_threads = 128 "
        f"desired_bit_alignment = 64 : {FT2}"
    ),
]


@pytest.mark.parametrize("case", STRUCTURED_CASES, ids=case_ids(STRUCTURED_CASES))
def test_structured_op_roundtrip(case: Case) -> None:
    check_case(case)


def test_upstream_accepts_structured_ops() -> None:
    check_upstream_accepts(STRUCTURED_CASES)


def test_tile_using_for_results_are_one_per_nonzero_size() -> None:
    from test_transform_helpers import parse

    from schedir.dialects.transform.structured.tile import TileUsingForOp

    module = parse(
        wrap(
            "%t, %l0, %l1 = transform.structured.tile_using_for %a tile_sizes [4, 0, %p] "
            f": ({ANY}, {P64}) -> ({ANY}, {ANY}, {ANY})"
        )
    )
    op = next(o for o in module.walk() if isinstance(o, TileUsingForOp))
    assert len(op.loops) == 2
    assert op.consumed_values() == (op.target,)
    assert list(op.dynamic_sizes) == [op.operands[1]]


def test_tile_using_forall_results_are_tiled_then_forall() -> None:
    from test_transform_helpers import parse

    from schedir.dialects.transform.structured.tile import TileUsingForallOp

    module = parse(
        wrap(f"%t, %f0 = transform.structured.tile_using_forall %a tile_sizes [4] : {FT2}")
    )
    op = next(o for o in module.walk() if isinstance(o, TileUsingForallOp))
    assert op.results[0] is op.tiled_op and op.results[1] is op.forall_op
    assert op.results[0].name_hint == "t"


# --- verifier errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "message", "col"),
    [
        (
            f"%t, %l = transform.structured.tile_using_for %a tile_sizes [4, 4] : {FT2}",
            "expected number of loops to tile (2) to match number of `loops` results (1)",
            5,
        ),
        (
            f"%t, %f0 = transform.structured.tile_using_forall %a : {FT2}",
            "either (packed_)num_threads or (packed_)tile_sizes must be specified",
            5,
        ),
        (
            f"%t, %l = transform.structured.fuse %a tile_sizes [32, 32] : {FT2}",
            "expects 2 loop results",
            5,
        ),
        (
            f"%t, %l0, %l1 = transform.structured.fuse %a tile_sizes [32, 32] use_forall : {FT3}",
            "expects 1 loop results",
            5,
        ),
        (
            "%f1, %l = transform.structured.fuse_into_containing_op %a into %b "
            f"inner_tile_alignments = [Bad] : ({ANY}, {ANY}) -> ({ANY}, {ANY})",
            "expected one of 'Unknown', 'Multiple' or 'Equal', but got 'Bad'",
            0,
        ),
        (
            f"%r = transform.structured.interchange %a iterator_interchange = [0, 0] : {FT1}",
            "expects iterator_interchange to be a permutation",
            5,
        ),
        (
            "%r0, %r1, %r2 = transform.structured.pad %a pad_to_multiple_of [2] "
            f"<{{padding_dimensions = [0, 1]}}> : {FT3}",
            "expects as many multiples as padding_dimensions",
            5,
        ),
        (
            f"%r0, %r1, %r2 = transform.structured.pad %a <{{nofold_flags = [2]}}> : {FT3}",
            "expects nofold_flags to contain booleans (0/1)",
            5,
        ),
        (
            "%buf, %new = transform.structured.bufferize_to_allocation %a "
            f'<{{alloc_op = "foo.alloc"}}> : {ANY}',
            "unsupported alloc op: foo.alloc",
            5,
        ),
    ],
)
def test_structured_verifier_errors(op: str, message: str, col: int) -> None:
    # Column 0: the error points at the offending token, found in the text.
    text = wrap(op)
    if col == 0:
        col = text.splitlines()[2].index("Bad") + 1
    expect_error(text, message, 3, col)


def test_upstream_rejects_the_same_structured_ops() -> None:
    """The negative cases above are errors upstream too (same IR, iree-opt)."""
    from test_transform_helpers import upstream_errors

    bad = [
        f"%t, %l = transform.structured.tile_using_for %a tile_sizes [4, 4] : {FT2}",
        f"%t, %f0 = transform.structured.tile_using_forall %a : {FT2}",
        f"%t, %l = transform.structured.fuse %a tile_sizes [32, 32] : {FT2}",
    ]
    for op in bad:
        assert upstream_errors([wrap(op)]), op
