"""Bufferized payloads compute what the untransformed payload computes, with the buffers
upstream's bufferization gives them, each freed once and never early.

Schedules tile and fuse (schedule (a)/(b) style, no GPU mapping), then bufferize with
`transform.bufferization.one_shot_bufferize`, optionally after `eliminate_empty_tensors`,
`bufferize_to_allocation` (GPU memory spaces, which the CPU treats as plain memory) or
before `structured.promote`; each is compiled for the CPU with `schedir.compile` and
compared with `schedir.reference.evaluate` at odd sizes (partial tiles). Structure checks
say where bufferization must work in place (no `memref.alloc`, no `memref.copy`) and where
it must copy. Hypothesis draws the tile sizes of tile + bufferize schedules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir import Operation

import schedir
from tests.helpers import ANY, match, schedule_module
from tests.helpers import run_and_check as check_at

M, K, N = 37, 29, 53
"""Odd sizes: no tile size used below divides them."""


# --- helpers -------------------------------------------------------------------------------


def run_and_check(text: str, reduction: int = K) -> str:
    """The shared harness at this file's seed (3); return the scheduled (bufferized) IR."""
    return check_at(text, seed=3, reduction=reduction)


def module(payload: str, schedule: str) -> str:
    """`payload` with `schedule`, whose root handle is consumed (bufferization consumes it)."""
    return schedule_module(payload, schedule, consumed=True)


def matmul_bias_relu(m: int = M, k: int = K, n: int = N, init: str = "%C") -> str:
    """Schedule (a)/(b)'s payload; `init` is the output's init (`%C` or an empty tensor)."""
    empty = f"    %C0 = tensor.empty() : tensor<{m}x{n}xf32>\n" if init != "%C" else ""
    return f"""
  func.func @mbr(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %bias: tensor<{n}xf32>,
                 %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %zero = arith.constant 0.0 : f32
{empty}    %acc = linalg.fill ins(%zero : f32) outs({init} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                        outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %out = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                             affine_map<(d0, d1) -> (d1)>,
                                             affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}}
        ins(%mm, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32>) outs({init} : tensor<{m}x{n}xf32>) {{
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    }} -> tensor<{m}x{n}xf32>
    return %out : tensor<{m}x{n}xf32>
  }}"""


def tile_and_fuse(block: list[int], k_tile: int, threads: list[int] | None = None) -> str:
    """Schedule (a) (blocks + fusion + k loop), and (b)'s thread level when `threads`."""
    pair = f"({ANY}, {ANY}) -> ({ANY}, {ANY})"
    text = (
        match("%fill", "linalg.fill")
        + match("%mm", "linalg.matmul")
        + match("%ew", "linalg.generic")
        + f"    %ew_b, %fa = transform.structured.tile_using_forall %ew tile_sizes {block} : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %mm_b, %fa1 = transform.structured.fuse_into_containing_op %mm into %fa : {pair}\n"
        + f"    %fill_b, %fa2 = transform.structured.fuse_into_containing_op %fill into %fa1 : {pair}\n"
    )
    last = "%mm_b"
    if threads is not None:
        text += (
            f"    %ew_t, %ft = transform.structured.tile_using_forall %ew_b num_threads {threads} : ({ANY}) -> ({ANY}, {ANY})\n"
            f"    %mm_t, %ft1 = transform.structured.fuse_into_containing_op %mm_b into %ft : {pair}\n"
            f"    %fill_t, %ft2 = transform.structured.fuse_into_containing_op %fill_b into %ft1 : {pair}\n"
        )
        last = "%mm_t"
    text += (
        f"    %mm_k, %kl = transform.structured.tile_using_for {last} tile_sizes [0, 0, {k_tile}] : ({ANY}) -> ({ANY}, {ANY})\n"
        + match("%func", "func.func")
        + "    transform.apply_patterns to %func {\n"
        "      transform.apply_patterns.canonicalization\n"
        "      transform.apply_patterns.linalg.tiling_canonicalization\n"
        f"    }} : {ANY}\n"
        f"    transform.apply_cse to %func : {ANY}\n"
    )
    return text


BUFFERIZE = (
    f"    %bm = transform.bufferization.one_shot_bufferize layout{{IdentityLayoutMap}} %root "
    f"<{{bufferize_function_boundaries = true}}> : ({ANY}) -> {ANY}\n"
)
CLEANUP = (
    match("%fb", "func.func", root="%bm")
    + f"    transform.apply_cse to %fb : {ANY}\n"
    + f"    transform.apply_patterns to %fb {{ transform.apply_patterns.canonicalization }} : {ANY}\n"
)


def count(ir: str, op: str) -> int:
    return len(re.findall(rf"\b{re.escape(op)}\b", ir))


@dataclass(frozen=True)
class BufferLife:
    """An allocation of the bufferized IR: how often it is freed and whether after every
    use (in its block: a use inside a nested region counts at its ancestor op)."""

    alloc: Operation
    deallocs: int
    freed_after_last_use: bool
    escapes: bool


def buffer_lives(ir: str) -> list[BufferLife]:
    """Every `memref.alloc` of `ir` with its deallocations."""
    parsed = schedir.parse(ir)
    lives: list[BufferLife] = []
    views = (
        "memref.subview",
        "memref.cast",
        "memref.view",
        "memref.expand_shape",
        "memref.collapse_shape",
    )
    for op in parsed.walk():
        if op.name != "memref.alloc":
            continue
        block = op.parent_block()
        assert block is not None
        order = {o: i for i, o in enumerate(block.ops)}
        users: list[Operation] = []
        work = [op.results[0]]
        while work:
            value = work.pop()
            for use in value.uses:
                users.append(use.operation)
                if use.operation.name in views:
                    work.extend(use.operation.results)
        deallocs = [u for u in users if u.name == "memref.dealloc"]
        escapes = any(u.name in ("func.return", "scf.yield") for u in users)
        last_use = max(
            (
                order[a]
                for u in users
                if u.name != "memref.dealloc"
                and (a := block.find_ancestor_op_in_block(u)) is not None
            ),
            default=order[op],
        )
        after = all(
            (a := block.find_ancestor_op_in_block(d)) is not None and a is d and order[d] > last_use
            for d in deallocs
        )
        lives.append(BufferLife(op, len(deallocs), after, escapes))
    return lives


def assert_freed_once(ir: str) -> None:
    for life in buffer_lives(ir):
        if life.escapes:
            assert life.deallocs == 0, f"an escaping buffer is freed: {life.alloc}"
            continue
        assert life.deallocs == 1, f"{life.deallocs} deallocations of {life.alloc}"
        assert life.freed_after_last_use, f"freed before its last use: {life.alloc}"


# --- in place: no allocation, no copy ------------------------------------------------------


@pytest.mark.parametrize(("block", "k_tile"), [([8, 16], 8), ([5, 7], 4), ([64, 64], 32)])
def test_schedule_a_bufferizes_in_place(block: list[int], k_tile: int) -> None:
    """Schedule (a) + One-Shot Bufferize: every tile is computed in `%C`, as upstream."""
    text = module(matmul_bias_relu(), tile_and_fuse(block, k_tile) + BUFFERIZE)
    ir = run_and_check(text)
    assert count(ir, "memref.alloc") == 0, ir
    assert count(ir, "memref.copy") == 0, ir
    assert "tensor<" not in ir


def test_eliminate_empty_tensors_then_bufferize_in_place() -> None:
    """An empty init whose tiles end in the result: after empty tensor elimination the
    tiles are computed in the function's result buffer, with no other allocation."""
    payload = """
  func.func @tiles(%t: tensor<37x53xf32>, %x: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = scf.forall (%i, %j) in (5, 4) shared_outs(%o = %t) -> (tensor<37x53xf32>) {
      %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
      %oj = affine.apply affine_map<(d0) -> (d0 * 16)>(%j)
      %si = affine.min affine_map<(d0) -> (-(d0 * 8) + 37, 8)>(%i)
      %sj = affine.min affine_map<(d0) -> (-(d0 * 16) + 53, 16)>(%j)
      %in = tensor.extract_slice %x[%oi, %oj] [%si, %sj] [1, 1] : tensor<37x53xf32> to tensor<?x?xf32>
      %e = tensor.empty(%si, %sj) : tensor<?x?xf32>
      %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%in : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.mulf %a, %a : f32
        linalg.yield %s : f32
      } -> tensor<?x?xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %g into %o[%oi, %oj] [%si, %sj] [1, 1] : tensor<?x?xf32> into tensor<37x53xf32>
      }
    }
    return %r : tensor<37x53xf32>
  }"""
    schedule = f"    transform.bufferization.eliminate_empty_tensors %root : {ANY}\n" + BUFFERIZE
    ir = run_and_check(module(payload, schedule), reduction=1)
    assert count(ir, "memref.alloc") == 0, ir
    assert count(ir, "memref.copy") == 0, ir
    without = run_and_check(module(payload, BUFFERIZE), reduction=1)
    assert count(without, "memref.alloc") >= 1, "without elimination the tile needs a buffer"
    assert_freed_once(without)


# --- copies where upstream copies ----------------------------------------------------------


def test_schedule_b_without_gpu_mapping_keeps_the_thread_accumulator() -> None:
    """Schedule (b) (block and thread foralls, k loop) without the GPU mapping: as
    upstream, the per-thread accumulator is a new buffer (the epilogue reads the matmul
    while writing `%C`), freed once after the epilogue; CSE + canonicalization leave no
    self-copy."""
    text = module(
        matmul_bias_relu(), tile_and_fuse([16, 32], 8, threads=[4, 8]) + BUFFERIZE + CLEANUP
    )
    ir = run_and_check(text)
    assert count(ir, "memref.alloc") == 1, ir
    assert count(ir, "memref.copy") == 0, ir
    assert_freed_once(ir)


def test_read_only_argument_is_copied() -> None:
    """A matmul accumulating into an argument marked not writable: the argument is copied
    into a new buffer first (a copy the result needs), freed by its caller."""
    payload = f"""
  func.func @acc(%A: tensor<{M}x{K}xf32>, %B: tensor<{K}x{N}xf32>,
                 %C: tensor<{M}x{N}xf32> {{bufferization.writable = false}}) -> tensor<{M}x{N}xf32> {{
    %mm = linalg.matmul ins(%A, %B : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>)
                        outs(%C : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
    return %mm : tensor<{M}x{N}xf32>
  }}"""
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %t, %l = transform.structured.tile_using_forall %mm tile_sizes [8, 16] : ({ANY}) -> ({ANY}, {ANY})\n"
        + BUFFERIZE
    )
    ir = run_and_check(module(payload, schedule))
    assert count(ir, "memref.alloc") == 1 and count(ir, "memref.copy") == 1, ir
    assert_freed_once(ir)


# --- bufferize_to_allocation -----------------------------------------------------------------


@pytest.mark.parametrize(
    "space", ["#gpu.address_space<workgroup>", "#gpu.address_space<private>", "3"]
)
@pytest.mark.parametrize(
    "memcpy", ["bufferization.materialize_in_destination", "memref.copy", "linalg.copy"]
)
def test_bufferize_to_allocation_in_memory_space(space: str, memcpy: str) -> None:
    """The k-loop's matmul accumulates in a buffer of another memory space (plain memory
    on the CPU), copied in and out of the tile of `%C`; each such buffer is freed once."""
    schedule = (
        tile_and_fuse([8, 16], 8)
        + match("%mmk", "linalg.matmul")
        + f'    %buf, %new = transform.structured.bufferize_to_allocation %mmk <{{memory_space = {space}, memcpy_op = "{memcpy}"}}> : {ANY}\n'
        + BUFFERIZE
        + CLEANUP
    )
    ir = run_and_check(module(matmul_bias_relu(), schedule))
    shown = space if not space.isdigit() else f"{space} : i64"
    assert re.search(rf"memref\.alloc\([^)]*\) : memref<\?x\?xf32, {re.escape(shown)}>", ir), ir
    assert_freed_once(ir)


def test_bufferize_to_allocation_destination_only_with_dealloc() -> None:
    """Only the fill's destination moves to a new buffer (freed where emit_dealloc says)."""
    schedule = (
        tile_and_fuse([8, 16], 8)
        + match("%f", "linalg.fill")
        + f"    %buf, %new = transform.structured.bufferize_to_allocation %f <{{bufferize_destination_only, emit_dealloc, memory_space = #gpu.address_space<workgroup>}}> : {ANY}\n"
        + BUFFERIZE
    )
    ir = run_and_check(module(matmul_bias_relu(), schedule))
    assert "#gpu.address_space<workgroup>" in ir
    assert_freed_once(ir)


# --- promote -----------------------------------------------------------------------------------


PROMOTE_OPTIONS = [
    "operands_to_promote = [0, 1, 2]",
    "operands_to_promote = [0, 1, 2], use_full_tiles_by_default, memory_space = #gpu.address_space<workgroup>, alignment = 16",
    "operands_to_promote = [1], use_alloca, memory_space = #gpu.address_space<private>",
    "operands_to_promote = [0, 1, 2], mapping = [#gpu.memory_space<private>]",
]


@pytest.mark.parametrize("options", PROMOTE_OPTIONS)
def test_promote_after_bufferization(options: str) -> None:
    """Tiles of the bufferized k-loop matmul are promoted into local buffers (GPU memory
    spaces are plain memory on the CPU); results are unchanged."""
    schedule = (
        tile_and_fuse([8, 16], 8)
        + BUFFERIZE
        + match("%mmb", "linalg.matmul", root="%bm")
        + f"    %p = transform.structured.promote %mmb <{{{options}}}> : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(module(matmul_bias_relu(), schedule))
    assert count(ir, "linalg.copy") + count(ir, "memref.copy") >= 1, ir
    if "mapping" not in options and "use_alloca" not in options:
        assert_freed_once(ir)


# --- hoisting ----------------------------------------------------------------------------------


def test_hoisted_accumulator_is_freed_once_after_the_loop() -> None:
    """Buffer loop hoisting after bufferization moves the per-iteration buffer (and its
    deallocation) out of the k loop; results are unchanged."""
    schedule = (
        tile_and_fuse([8, 16], 8)
        + match("%mmk", "linalg.matmul")
        + f"    %buf, %new = transform.structured.bufferize_to_allocation %mmk <{{memory_space = #gpu.address_space<private>}}> : {ANY}\n"
        + BUFFERIZE
        + match("%fb", "func.func", root="%bm")
        + f"    transform.bufferization.buffer_loop_hoisting %fb : {ANY}\n"
    )
    ir = run_and_check(module(matmul_bias_relu(m=40, n=48), schedule))
    loop = ir.index("scf.for %")
    alloc = ir.index("memref.alloc() : memref<8x16xf32, #gpu.address_space<private>>")
    assert alloc < loop, f"the buffer stays in the k loop:\n{ir}"
    assert_freed_once(ir)


# --- hypothesis: tile sizes of tile + bufferize schedules ---------------------------------------


@settings(max_examples=12)
@given(
    bm=st.integers(1, 40),
    bn=st.integers(1, 60),
    k_tile=st.integers(1, 32),
    threads=st.one_of(st.none(), st.tuples(st.integers(1, 4), st.integers(1, 4))),
    allocate=st.booleans(),
)
def test_tile_and_bufferize_any_tile_sizes(
    bm: int, bn: int, k_tile: int, threads: tuple[int, int] | None, allocate: bool
) -> None:
    """Any tile sizes: tile + fuse (+ a thread level) + bufferize (+ a workgroup buffer for
    the matmul) computes the reference result and frees every buffer once."""
    schedule = tile_and_fuse([bm, bn], k_tile, threads=list(threads) if threads else None)
    if allocate:
        schedule += match("%mmk", "linalg.matmul") + (
            "    %buf, %new = transform.structured.bufferize_to_allocation %mmk "
            f"<{{memory_space = #gpu.address_space<workgroup>}}> : {ANY}\n"
        )
    ir = run_and_check(module(matmul_bias_relu(), schedule + BUFFERIZE + CLEANUP))
    assert "tensor<" not in ir
    assert_freed_once(ir)
    if threads is None and not allocate:
        assert count(ir, "memref.alloc") == 0 and count(ir, "memref.copy") == 0, ir


@pytest.mark.parametrize(
    "body",
    [
        "%c = arith.constant 0.5 : f32\n      tensor.yield %c : f32",
        "%ii = arith.index_cast %i : index to i32\n      %jj = arith.index_cast %j : index to i32\n"
        "      %s = arith.addi %ii, %jj : i32\n      %f = arith.sitofp %s : i32 to f32\n      tensor.yield %f : f32",
    ],
    ids=["constant", "index_dependent"],
)
def test_bufferize_pad_to_allocation(body: str) -> None:
    """A tensor.pad bufferized into its own buffer: the padding is filled (linalg.fill of a
    constant, a linalg.generic computing index-dependent values) and the source copied in."""
    payload = f"""
  func.func @pad(%t: tensor<{M}x{N}xf32>) -> tensor<{M + 3}x{N + 2}xf32> {{
    %p = tensor.pad %t low[1, 2] high[2, 0] {{
    ^bb0(%i: index, %j: index):
      {body}
    }} : tensor<{M}x{N}xf32> to tensor<{M + 3}x{N + 2}xf32>
    return %p : tensor<{M + 3}x{N + 2}xf32>
  }}"""
    schedule = (
        match("%pad", "tensor.pad")
        + f"    %buf, %new = transform.structured.bufferize_to_allocation %pad <{{memory_space = #gpu.address_space<workgroup>}}> : {ANY}\n"
        + BUFFERIZE
    )
    ir = run_and_check(module(payload, schedule), reduction=1)
    assert ("linalg.generic" in ir) == ("index_cast" in body), ir


@pytest.mark.parametrize(
    "descriptors",
    [
        ["memref.expand_strided_metadata"],
        ["memref.fold_memref_alias_ops", "memref.alloc_to_alloca size_limit(4096)"],
    ],
    ids=["expand_strided_metadata", "fold_alias_alloc_to_alloca"],
)
def test_memref_patterns_after_bufferization(descriptors: list[str]) -> None:
    """The memref pattern sets rewrite the bufferized schedule (b) (views as
    reinterpret_casts of base buffers; the per-thread accumulator, freed in its block, on
    the stack) without changing its results."""
    body = "\n".join(f"      transform.apply_patterns.{d}" for d in descriptors)
    schedule = (
        tile_and_fuse([16, 32], 8, threads=[4, 8])
        + BUFFERIZE
        + match("%fb", "func.func", root="%bm")
        + f"    transform.apply_patterns to %fb {{\n{body}\n    }} : {ANY}\n"
    )
    # Sizes the tiles divide: the per-thread accumulator has a static shape.
    ir = run_and_check(module(matmul_bias_relu(m=32, n=64), schedule))
    if "memref.expand_strided_metadata" in descriptors:
        assert "memref.subview" not in ir and "memref.reinterpret_cast" in ir, ir
    else:
        assert "memref.alloca" in ir and "memref.dealloc" not in ir, ir
