"""Whole-op vectorization of big n-D transposes, broadcasts and reductions compiles to LLVM
code whose size grows about linearly in the number of elements: the `llvm.shufflevector`
masks add up to O(n log n) (a flattening shape_cast concatenates rows by a shuffle tree, not
one result-wide shuffle per row, which made a 3520-element reduction take minutes), and the
results match `schedir.reference` on the CPU JIT.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import ANY, check_kernel, match, schedule_module

VECTORIZE = match("%f", "func.func") + (
    f"    %v = transform.structured.vectorize_children_and_apply_patterns %f : ({ANY}) -> {ANY}\n"
)
_MASK = re.compile(r"llvm\.shufflevector[^\[]*\[([-\d, ]*)\]")


def mask_total(llvm_dialect: str) -> int:
    """The number of mask entries of every `llvm.shufflevector`."""
    return sum(len(m.group(1).split(",")) for m in _MASK.finditer(llvm_dialect))


def assert_near_linear(kernel: schedir.Kernel, elements: int) -> None:
    text = kernel.stages["llvm-dialect"]
    bound = 4 * elements * (math.log2(elements) + 1) + 64
    total = mask_total(text)
    assert total <= bound, f"shuffle masks of {total} entries for {elements} elements (> {bound})"
    ops = text.count(" = llvm.")
    assert ops <= 40 * elements + 400, f"{ops} LLVM ops for {elements} elements"


def tensor(shape: list[int]) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}f32>"


def payload(kind: str, shape: list[int], picked: list[int]) -> str:
    """`kind` of a `shape` tensor: transpose by permutation `picked`, broadcast along dims
    `picked`, or a sum over dims `picked`."""
    rank = len(shape)
    full = tensor(shape)
    if kind == "transpose":
        out = tensor([shape[p] for p in picked])
        body = (
            f"    %e = tensor.empty() : {out}\n"
            f"    %r = linalg.transpose ins(%A : {full}) outs(%e : {out}) "
            f"permutation = [{', '.join(map(str, picked))}]\n"
        )
        return f"  func.func @k(%A: {full}) -> {out} {{\n{body}    return %r : {out}\n  }}"
    kept = [d for d in range(rank) if d not in picked]
    small = tensor([shape[d] for d in kept])
    if kind == "broadcast":
        body = (
            f"    %r = linalg.broadcast ins(%A : {small}) outs(%B : {full}) "
            f"dimensions = [{', '.join(map(str, picked))}]\n"
        )
        return f"  func.func @k(%A: {small}, %B: {full}) -> {full} {{\n{body}    return %r : {full}\n  }}"
    ds = ", ".join(f"d{d}" for d in range(rank))
    kept_ds = ", ".join(f"d{d}" for d in kept)
    iterators = ", ".join('"reduction"' if d in picked else '"parallel"' for d in range(rank))
    body = (
        f"    %r = linalg.generic {{indexing_maps = [affine_map<({ds}) -> ({ds})>, "
        f"affine_map<({ds}) -> ({kept_ds})>], iterator_types = [{iterators}]}} "
        f"ins(%A : {full}) outs(%B : {small}) {{\n"
        "    ^bb0(%a: f32, %b: f32):\n      %s = arith.addf %a, %b : f32\n"
        f"      linalg.yield %s : f32\n    }} -> {small}\n"
    )
    return f"  func.func @k(%A: {full}, %B: {small}) -> {small} {{\n{body}    return %r : {small}\n  }}"


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, list[int], list[int]]:
    rank = draw(st.integers(1, 4))
    shape = draw(st.lists(st.integers(1, 13), min_size=rank, max_size=rank))
    shape[-1] = max(shape[-1], 2)
    while math.prod(shape) > 1500:
        shape[shape.index(max(shape))] //= 2
    kind = draw(st.sampled_from(["transpose", "broadcast", "reduce"]))
    if kind == "transpose":
        picked = draw(st.permutations(range(rank)))
    else:
        picked = sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank)))
        if kind == "broadcast" and len(picked) == rank:
            picked = picked[:-1] or []
    return kind, shape, list(picked)


@settings(max_examples=10)
@given(case=cases())
def test_whole_op_vectorization_compiles_near_linearly(
    case: tuple[str, list[int], list[int]],
) -> None:
    kind, shape, picked = case
    module = schedule_module(payload(kind, shape, picked), VECTORIZE)
    kernel = schedir.compile(module)
    assert_near_linear(kernel, math.prod(shape))
    check_kernel(kernel, module)


def test_fuzz_case_broadcast_transpose_full_reduction() -> None:
    """The campaign's "hang": a 5x11x16x4 broadcast/transpose/full reduction vectorized whole
    (minutes before; now a few shuffles per row)."""
    module = (Path(__file__).parent / "data" / "bigvec_case.mlir").read_text()
    kernel = schedir.compile(module)
    assert_near_linear(kernel, 5 * 11 * 16 * 4)
    check_kernel(kernel, module)
