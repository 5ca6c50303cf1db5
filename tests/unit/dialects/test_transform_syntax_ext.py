"""Round trips and verifier errors of the loop, bufferization, memref, tensor, gpu and
tune transform extensions.

iree-opt registers every extension here except tune, so the tune cases are checked
against upstream's .td and tests (TuneExtensionOps.td) only.
"""

from __future__ import annotations

import pytest
from test_transform_helpers import (
    Case,
    case_ids,
    check_case,
    check_upstream_accepts,
    expect_error,
    upstream_errors,
    wrap,
)

ANY = "!transform.any_op"
P64 = "!transform.param<i64>"
FOR = '!transform.op<"scf.for">'
FT1 = f"({ANY}) -> {ANY}"
FT2 = f"({ANY}) -> ({ANY}, {ANY})"

EXT_CASES = [
    # loop
    Case(
        f"transform.loop.unroll %a factor = 4 : {ANY}",
        legacy=f"transform.loop.unroll %a {{factor = 4}} : {ANY}",
    ),
    Case(f"transform.loop.unroll_and_jam %a factor = 2 : {ANY}"),
    Case(f"transform.loop.unroll_full %a : {ANY}"),
    Case(
        "%m, %r = transform.loop.peel %f peel_front = true fail_if_already_divisible = true "
        f": ({FOR}) -> ({ANY}, {ANY})",
        legacy="%m, %r = transform.loop.peel %f {peel_front = true, "
        f"fail_if_already_divisible = true}} : ({FOR}) -> ({ANY}, {ANY})",
    ),
    Case(f"%m, %r = transform.loop.peel %f : ({FOR}) -> ({ANY}, {ANY})"),
    Case(
        f"%r = transform.loop.pipeline %f iteration_interval = 2 read_latency = 5 : ({FOR}) -> {ANY}",
        legacy="%r = transform.loop.pipeline %f {iteration_interval = 2 : i64, "
        f"read_latency = 5 : i64}} : ({FOR}) -> {ANY}",
    ),
    Case(f"%r = transform.loop.forall_to_for %a : {FT1}"),
    Case(f"%r0, %r1 = transform.loop.forall_to_for %a : {FT2}"),
    Case(f"%r = transform.loop.forall_to_parallel %a : {FT1}"),
    Case(f"transform.loop.hoist_loop_invariant_subsets %a : {ANY}"),
    Case(
        f'%fn, %call = transform.loop.outline %a func_name = "body" : {FT2}',
        legacy=f'%fn, %call = transform.loop.outline %a {{func_name = "body"}} : {FT2}',
    ),
    Case(f"%r = transform.loop.coalesce %a : {FT1}"),
    Case(f"transform.loop.promote_if_one_iteration %a : {ANY}"),
    Case(f"%r = transform.loop.fuse_sibling %a into %b : ({ANY}, {ANY}) -> {ANY}"),
    Case(f"transform.scf.take_assumed_branch %a take_else_branch : ({ANY}) -> ()"),
    # bufferization
    Case(
        "%r = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %a "
        f"<bufferize_function_boundaries = true> : {FT1}",
        legacy="%r = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %a "
        f"{{bufferize_function_boundaries = true}} : {FT1}",
    ),
    Case(
        "%r = transform.bufferization.one_shot_bufferize layout{FullyDynamicLayoutMap} %a "
        "<allow_return_allocs_from_loops = true, allow_unknown_ops = true, "
        "test_analysis_only = true, check_parallel_regions = false, "
        f'memcpy_op = "linalg.copy"> : {FT1}',
    ),
    Case(f"%r = transform.bufferization.one_shot_bufferize %a : {FT1}"),
    Case(f"transform.bufferization.eliminate_empty_tensors %a : {ANY}"),
    Case(
        "%r = transform.bufferization.empty_tensor_to_alloc_tensor %e : "
        '(!transform.op<"tensor.empty">) -> !transform.op<"bufferization.alloc_tensor">'
    ),
    Case(f"transform.bufferization.buffer_loop_hoisting %a : {ANY}"),
    # memref, tensor
    Case(
        f'%r = transform.memref.multibuffer %al <factor = 2, skip_analysis> : (!transform.op<"memref.alloc">) -> {ANY}',
        legacy=f'%r = transform.memref.multibuffer %al {{factor = 2 : i64, skip_analysis}} : (!transform.op<"memref.alloc">) -> {ANY}',
    ),
    Case(
        "%g, %gl = transform.memref.alloca_to_global %aa : "
        f'(!transform.op<"memref.alloca">) -> ({ANY}, {ANY})'
    ),
    Case(f"transform.memref.erase_dead_alloc_and_stores %a : ({ANY}) -> ()"),
    Case(f"%r = transform.memref.make_loop_independent %a num_loops = 1 : {FT1}"),
    Case(
        # iree-opt loads no ConvertToLLVMPatternInterface, so no `dialect_to_llvm` here.
        "transform.apply_conversion_patterns to %a {\n"
        "} with type_converter {\n"
        "  transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter "
        "use_aligned_alloc = false index_bitwidth = 64\n"
        f'}} <legal_dialects = ["func", "llvm"], partial_conversion> : {ANY}',
        legacy="transform.apply_conversion_patterns to %a {\n"
        "} with type_converter {\n"
        "  transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter "
        "index_bitwidth = 64 use_aligned_alloc = false\n"
        f'}} {{legal_dialects = ["func", "llvm"], partial_conversion}} : {ANY}',
    ),
    # func
    Case(f"%r = transform.func.cast_and_call @f before %a : {FT1}"),
    Case(
        f"%r = transform.func.cast_and_call %b(%v) -> %v after %a : ({ANY}, !transform.any_value, !transform.any_value, {ANY}) -> {ANY}"
    ),
    Case(
        "%m, %g = transform.func.replace_func_signature @f args_interchange = [1, 0] "
        f"results_interchange = [] at %a : {FT2}"
    ),
    Case(f"%m, %g = transform.func.deduplicate_func_args @f at %a : {FT2}"),
    Case(f"%r = transform.tensor.make_loop_independent %a num_loops = 2 : {FT1}"),
    # gpu
    Case(
        "%r = transform.gpu.map_forall_to_blocks %a generate_gpu_launch grid_dims = [4, 4, 1] "
        f": {FT1}",
        legacy="%r = transform.gpu.map_forall_to_blocks %a "
        f"{{generate_gpu_launch, grid_dims = array<i64: 4, 4, 1>}} : {FT1}",
    ),
    Case(f"%r = transform.gpu.map_forall_to_blocks %a : {FT1}"),
    Case(
        "%r = transform.gpu.map_nested_forall_to_threads %a block_dims = [32, 8, 1] "
        f"sync_after_distribute = false warp_size = 64 : {FT1}",
    ),
    Case(f"%r = transform.gpu.map_nested_forall_to_threads %a block_dims = [128] : {FT1}"),
]


@pytest.mark.parametrize("case", EXT_CASES, ids=case_ids(EXT_CASES))
def test_extension_op_roundtrip(case: Case) -> None:
    check_case(case)


def test_upstream_accepts_extension_ops() -> None:
    check_upstream_accepts(EXT_CASES)


TUNE_CASES = [
    Case(
        '%k = transform.tune.knob<"tile_m"> = 64 : i64 from options = [32, 64, 128] '
        "-> !transform.any_param",
        current='%k = transform.tune.knob<"tile_m"> = 64 from options = [32, 64, 128] '
        "-> !transform.any_param",
    ),
    Case(f'%k = transform.tune.knob<"tile"> options = [8, 16] -> {P64}'),
    Case(
        '%k = transform.tune.knob<"range"> options = {start = 2 : i64, step = 2 : i64, '
        "stop = 16 : i64} -> !transform.any_param"
    ),
    Case(
        f'%t = transform.tune.alternatives<"tiling"> selected_region = 1 -> {ANY} {{\n'
        f"  transform.yield %a : {ANY}\n}}, {{\n  transform.yield %b : {ANY}\n}}"
    ),
    Case(
        'transform.tune.alternatives<"v"> selected_region = %p : !transform.param<i64> {\n}, {\n}',
        current='transform.tune.alternatives<"v"> selected_region = %p : '
        "!transform.param<i64> {\n  transform.yield\n}, {\n}",
    ),
    Case('transform.tune.alternatives<"open"> {\n}, {\n}'),
]


@pytest.mark.parametrize("case", TUNE_CASES, ids=case_ids(TUNE_CASES))
def test_tune_op_roundtrip(case: Case) -> None:
    check_case(case)


# --- verifier errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (f"transform.loop.unroll %a factor = 0 : {ANY}", "attribute 'factor' failed to satisfy"),
        (
            f"%m, %r = transform.loop.peel %a : ({ANY}) -> ({ANY}, {ANY})",
            "operand #0 must be Transform IR handle to scf.for operations, but got "
            "'!transform.any_op'",
        ),
        (
            f"%r = transform.loop.pipeline %a : ({ANY}) -> {ANY}",
            "operand #0 must be Transform IR handle to scf.for operations",
        ),
        (
            f"%r = transform.gpu.map_forall_to_blocks %a grid_dims = [4, 4] : {FT1}",
            "transform requires empty or size-3 grid_dims",
        ),
        (
            f"%r = transform.memref.multibuffer %a <{{factor = 2}}> : ({ANY}) -> {ANY}",
            "operand #0 must be Transform IR handle to memref.alloc operations",
        ),
        (
            f"%r = transform.bufferization.empty_tensor_to_alloc_tensor %a : {FT1}",
            "operand #0 must be Transform IR handle to tensor.empty operations",
        ),
    ],
)
def test_extension_verifier_errors(op: str, message: str) -> None:
    expect_error(wrap(op), message, 3, 5)
    assert upstream_errors([wrap(op)]), "upstream accepts what schedir rejects"


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            '%k = transform.tune.knob<"coin"> = 1 from options = [true, false] '
            "-> !transform.any_param",
            "provided `selected` attribute is not an element of `options` array of attributes",
        ),
        (
            'transform.tune.alternatives<"bifurcation"> selected_region = 2 {\n}, {\n}',
            "'selected_region' attribute specifies region at index 2 while op has only 2 regions",
        ),
    ],
)
def test_tune_verifier_errors(op: str, message: str) -> None:
    expect_error(wrap(op), message, 3, 5)
