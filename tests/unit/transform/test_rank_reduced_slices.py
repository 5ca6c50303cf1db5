"""Canonicalization keeps the values of rank-reduced, strided slice chains (issue 14,
defect 3).

A rank-reducing `tensor.extract_slice` / `insert_slice` may drop any of its unit dims; the
result (or source) type says which (upstream's `computeRankReductionMask`). Folds that
rebuild such an op (constant arguments becoming static, casts folded in, a source cast
inserted, transfers composed with the slice) must keep that choice: dropping the first
unit dims instead (`[1, 6, 1]` to `tensor<1x6xf32>` as if it were `6x1`) produced casts
between incompatible shapes and wrong elements after `tile_reduction_using_forall`.

The property test draws chains (a strided rank-reducing extract of a 4-d tensor with
unit dims, SSA-constant offsets/sizes/strides, a cast to dynamic sizes, a strided
rank-expanding insert, an extract and an insert at the same place, a `scf.forall` with a
`parallel_insert_slice`), canonicalizes them in process and compares the reference
evaluation before and after exactly (slices move data, they compute nothing). The
regression compiles the 4-d `tile_reduction_using_forall` case for the CPU.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType

from schedir import reference
from schedir.dialects.syntax import get_context, parse_module
from schedir.pipeline import apply_schedule
from tests.helpers import ANY, match, run_and_check, schedule_module


@dataclass
class _Slice:
    """Offsets, sizes and strides of one slice op, each static or an SSA constant."""

    offsets: list[int]
    sizes: list[int]
    strides: list[int]
    dynamic: list[tuple[bool, bool, bool]]

    def text(self, consts: _Consts) -> str:
        def one(values: list[int], which: int) -> str:
            return (
                "["
                + ", ".join(
                    consts.get(v) if d[which] else str(v)
                    for v, d in zip(values, self.dynamic, strict=True)
                )
                + "]"
            )

        return f"{one(self.offsets, 0)} {one(self.sizes, 1)} {one(self.strides, 2)}"

    def full_type(self) -> list[str]:
        """The slice's shape, `?` where the size is an SSA value."""
        return ["?" if d[1] else str(s) for s, d in zip(self.sizes, self.dynamic, strict=True)]


@dataclass
class _Consts:
    """`arith.constant ... : index` values, one per distinct number."""

    names: dict[int, str] = field(default_factory=dict)

    def get(self, value: int) -> str:
        return self.names.setdefault(value, f"%c{value}")

    def lines(self) -> list[str]:
        return [f"    {n} = arith.constant {v} : index" for v, n in sorted(self.names.items())]


def _tensor(shape: Sequence[str | int]) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


def _draw_slice(rng: random.Random, shape: list[int], unit_bias: float) -> _Slice:
    """A slice that stays inside `shape`, sizes biased towards 1, strides 1 to 3."""
    offsets, sizes, strides, dynamic = [], [], [], []
    for n in shape:
        stride = rng.choice([1, 2, 2, 3])
        largest = (n - 1) // stride + 1
        size = 1 if rng.random() < unit_bias else rng.randint(1, largest)
        offset = rng.randint(0, n - 1 - (size - 1) * stride)
        offsets.append(offset)
        sizes.append(size)
        strides.append(stride)
        dynamic.append((rng.random() < 0.3, rng.random() < 0.2, rng.random() < 0.2))
    return _Slice(offsets, sizes, strides, dynamic)


def _reduce(rng: random.Random, s: _Slice) -> list[int]:
    """A random rank reduction of the slice: the dims kept (any subset of its static unit
    dims is dropped)."""
    return [
        i
        for i, (size, d) in enumerate(zip(s.sizes, s.dynamic, strict=True))
        if not (size == 1 and not d[1] and rng.random() < 0.6)
    ]


def _flags(rng: random.Random, dynamic_size: bool) -> tuple[bool, bool, bool]:
    return (rng.random() < 0.3, dynamic_size, rng.random() < 0.2)


def _expand(rng: random.Random, shown: list[str], values: list[int]) -> tuple[_Slice, list[int]]:
    """An insert place for a value of type shape `shown` (runtime sizes `values`): unit
    dims put in at random positions, strides 1 to 3, a destination shape that holds it."""
    sizes: list[int] = []
    dynamic: list[tuple[bool, bool, bool]] = []
    for dim, value in zip(shown, values, strict=True):
        while rng.random() < 0.3 and len(sizes) + len(shown) < 6:
            sizes.append(1)
            dynamic.append(_flags(rng, False))
        sizes.append(value)
        # An SSA size exactly where the value's dim is dynamic: the types must match.
        dynamic.append(_flags(rng, dim == "?"))
    while len(sizes) < 2 or (rng.random() < 0.3 and len(sizes) < 6):
        sizes.append(1)
        dynamic.append(_flags(rng, False))
    strides = [rng.choice([1, 2, 3]) for _ in sizes]
    offsets = [rng.randint(0, 2) for _ in sizes]
    dest = [
        o + (s - 1) * st + 1 + rng.randint(0, 2)
        for o, s, st in zip(offsets, sizes, strides, strict=True)
    ]
    return _Slice(offsets, sizes, strides, dynamic), dest


def _chain(seed: int) -> str:
    """A function `@chain(%src, %dst)` of slice ops drawn from `seed`."""
    rng = random.Random(seed)
    consts = _Consts()
    src = [rng.choice([1, 1, 2, 3, 5, 7]) for _ in range(4)]
    ex = _draw_slice(rng, src, unit_bias=0.5)
    kept = _reduce(rng, ex)
    full = ex.full_type()
    reduced = [full[i] for i in kept]
    runtime = [ex.sizes[i] for i in kept]
    # Sometimes the value is cast to dynamic sizes first (a cast folder folds it into the
    # insert); the insert's sizes are SSA values exactly where the inserted type has `?`.
    value, shown = "%x", reduced
    body = [
        f"    %x = tensor.extract_slice %src{ex.text(consts)} : {_tensor(src)} to {_tensor(reduced)}"
    ]
    if rng.random() < 0.5:
        shown = ["?" if rng.random() < 0.5 else d for d in reduced]
        if shown != reduced:
            body.append(f"    %xc = tensor.cast %x : {_tensor(reduced)} to {_tensor(shown)}")
            value = "%xc"
    ins, dest = _expand(rng, shown, runtime)
    vtype, dtype = _tensor(shown), _tensor(dest)
    place = ins.text(consts)
    body += [
        f"    %i = tensor.insert_slice {value} into %dst{place} : {vtype} into {dtype}",
        # The same place read back (folds to the inserted value) and written again.
        f"    %y = tensor.extract_slice %i{place} : {dtype} to {vtype}",
        f"    %z = tensor.insert_slice %y into %i{place} : {vtype} into {dtype}",
    ]
    results = [("%z", dtype)]
    if "?" not in reduced:
        # A forall writing the reduced value into two places of a fresh tensor, through a
        # rank-reduced extract / parallel_insert_slice of each place (as tiling makes).
        wtype = _tensor([2, *reduced])
        place = (
            "[" + ", ".join(["%t"] + ["0"] * len(reduced)) + "] "
            "[" + ", ".join(["1", *reduced]) + "] "
            "[" + ", ".join(["1"] * (len(reduced) + 1)) + "]"
        )
        rtype = _tensor(reduced)
        body += [
            f"    %w0 = tensor.empty() : {wtype}",
            f"    %w = scf.forall (%t) in (2) shared_outs(%o = %w0) -> ({wtype}) {{",
            f"      %s = tensor.extract_slice %o{place} : {wtype} to {rtype}",
            f"      %v = linalg.copy ins(%x : {rtype}) outs(%s : {rtype}) -> {rtype}",
            "      scf.forall.in_parallel {",
            f"        tensor.parallel_insert_slice %v into %o{place} : {rtype} into {wtype}",
            "      }",
            "    }",
        ]
        results.append(("%w", wtype))
    names = ", ".join(n for n, _ in results)
    types = ", ".join(t for _, t in results)
    return "\n".join(
        [
            f"  func.func @chain(%src: {_tensor(src)}, %dst: {dtype}) -> ({types}) {{",
            *consts.lines(),
            *body,
            f"    return {names} : {types}",
            "  }",
        ]
    )


_CANONICALIZE = (
    match("%f", "func.func") + "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.canonicalization\n"
    "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
    f"    }} : {ANY}\n"
)


def _inputs(payload: str, seed: int) -> list[np.ndarray]:
    """Non-zero f32 arguments for `@chain`, distinct elements (a moved element shows)."""
    module = parse_module(payload, "chain.mlir")
    fn = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    rng = np.random.default_rng(seed)
    return [
        rng.uniform(0.5, 1.5, size=cast(TensorType, a.type).get_shape()).astype(np.float32)
        for a in fn.body.block.args
    ]


def _canonicalized(payload: str) -> ModuleOp:
    module = parse_module(schedule_module(payload, _CANONICALIZE), "chain.mlir")
    assert apply_schedule(get_context(), module)
    return module


@settings(max_examples=80)
@given(st.integers(0, 2**32 - 1))
def test_canonicalized_rank_reduced_slice_chains_keep_their_values(seed: int) -> None:
    payload = _chain(seed)
    inputs = _inputs(payload, seed)
    before = reference.evaluate(payload, "chain", inputs)
    after = reference.evaluate(_canonicalized(payload), "chain", inputs)
    for want, got in zip(before, after, strict=True):
        np.testing.assert_array_equal(got, want, err_msg=payload)


def _reduction_4d(shape: tuple[int, int, int, int], maps: str, out: str) -> str:
    a = _tensor(list(shape))
    return f"""  func.func @red(%a: {a}, %o: {out}) -> {out} {{
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, {maps}], iterator_types = ["parallel", "reduction", "parallel", "reduction"]}} ins(%a : {a}) outs(%o : {out}) {{
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    }} -> {out}
    return %r : {out}
  }}"""


@pytest.mark.parametrize(
    ("shape", "by"),
    [
        ((1, 10, 1, 7), "num_threads = [0, 2, 0, 0]"),
        ((1, 10, 1, 7), "num_threads = [0, 2, 0, 3]"),
        ((1, 9, 1, 7), "tile_sizes = [0, 2, 0, 0]"),
        ((1, 9, 1, 7), "tile_sizes = [0, 2, 0, 2]"),
        ((3, 9, 1, 5), "tile_sizes = [0, 4, 0, 2]"),
        ((1, 5, 3, 1), "num_threads = [0, 3, 0, 0]"),
    ],
)
def test_tile_reduction_using_forall_of_unit_dims_then_canonicalize(
    shape: tuple[int, int, int, int], by: str
) -> None:
    # The partials' slots are rank-reduced unit slices next to unit parallel dims (the
    # 1x?x1 slot of a 1x1 output keeps one unit dim and drops another).
    maps = "affine_map<(d0, d1, d2, d3) -> (d0, d2)>"
    payload = _reduction_4d(shape, maps, _tensor([shape[0], shape[2]]))
    schedule = (
        match("%g", "linalg.generic")
        + f"    %f0, %p, %c, %l = transform.structured.tile_reduction_using_forall %g by {by}"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n" + _CANONICALIZE
    )
    run_and_check(schedule_module(payload, schedule))


def _transfer_chain(seed: int) -> str:
    """A unit-stride rank-reducing extract (random unit dims dropped), a copy of it that
    is vectorized, and the copy inserted back through a rank-expanding insert_slice."""
    rng = random.Random(seed)
    src = [rng.choice([1, 1, 2, 3, 5]) for _ in range(4)]
    ex = _draw_slice(rng, src, unit_bias=0.6)
    ex.strides = [1] * 4
    ex.offsets = [rng.randint(0, n - s) for n, s in zip(src, ex.sizes, strict=True)]
    ex.dynamic = [(False, False, False)] * 4
    kept = _reduce(rng, ex)
    reduced = [ex.sizes[i] for i in kept]
    ins, dest = _expand(rng, [str(d) for d in reduced], reduced)
    ins.strides = [1] * len(ins.sizes)
    ins.dynamic = [(False, False, False)] * len(ins.sizes)
    consts = _Consts()
    r, s, d = _tensor(reduced), _tensor(src), _tensor(dest)
    return f"""  func.func @chain(%src: {s}, %dst: {d}) -> {d} {{
    %x = tensor.extract_slice %src{ex.text(consts)} : {s} to {r}
    %e = tensor.empty() : {r}
    %c = linalg.copy ins(%x : {r}) outs(%e : {r}) -> {r}
    %i = tensor.insert_slice %c into %dst{ins.text(consts)} : {r} into {d}
    return %i : {d}
  }}"""


@settings(max_examples=12)
@given(st.integers(0, 2**32 - 1))
def test_transfers_folded_into_rank_reduced_slices_keep_their_values(seed: int) -> None:
    # fold_tensor_subset_ops composes the transfer's indices and permutation map with the
    # slice's dropped dims: the wrong dims read and wrote other elements, silently.
    schedule = (
        match("%c", "linalg.copy")
        + f"    transform.structured.vectorize %c : {ANY}\n"
        + _CANONICALIZE
    )
    run_and_check(schedule_module(_transfer_chain(seed), schedule))


@pytest.mark.parametrize(
    ("nhwc", "khkwf", "by"),
    [
        ((1, 9, 1, 3), (3, 1, 1), "tile_sizes = [0, 0, 0, 0, 2, 1, 2]"),
        ((1, 7, 5, 1), (3, 1, 2), "tile_sizes = [0, 0, 0, 0, 1, 2, 1]"),
        ((1, 1, 9, 2), (1, 3, 1), "num_threads = [0, 0, 0, 0, 0, 2, 2]"),
    ],
)
def test_tile_reduction_of_a_strided_convolution_then_canonicalize(
    nhwc: tuple[int, int, int, int], khkwf: tuple[int, int, int], by: str
) -> None:
    # Stride 2 and unit dims: the partials' 1x?x?x?x1x1 slots kept the wrong unit dims,
    # and the folded slices were cast between incompatible shapes.
    n, h, w, c = nhwc
    kh, kw, f = khkwf
    i, k = _tensor([n, h, w, c]), _tensor([kh, kw, c, f])
    o = _tensor([n, (h - kh) // 2 + 1, (w - kw) // 2 + 1, f])
    payload = f"""  func.func @cv(%i: {i}, %k: {k}, %o: {o}) -> {o} {{
    %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}} ins(%i, %k : {i}, {k}) outs(%o : {o}) -> {o}
    return %r : {o}
  }}"""
    schedule = (
        match("%g", "linalg.conv_2d_nhwc_hwcf")
        + f"    %f0, %p, %c, %l = transform.structured.tile_reduction_using_forall %g by {by}"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n" + _CANONICALIZE
    )
    run_and_check(schedule_module(payload, schedule))
