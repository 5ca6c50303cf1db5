"""transform.nvgpu.rewrite_matmul_as_mma_sync without a GPU: the rewritten function runs
on a small SIMT emulator (the 32 lanes of a warp in lockstep; `nvgpu.mma.sync` as the PTX
ISA defines it, its fragments placed element by element from the ISA's tables), and C
must equal C0 + A x B for generated warp tiles (f16 and bf16 m16n8k16 with f32 or f16
accumulators, tf32 m16n8k4), for edge tiles whose sizes are smaller than their bound
(elements outside must read as 0 and never be loaded or stored), and with the k loop's
accumulators carried in registers. Every load and store of a lane is checked to lie
inside its memref (an edge view's base may lie past its buffer)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue

from schedir.dialects import affine, get_context, gpu, vector
from schedir.dialects import nvgpu as ng
from schedir.dialects.syntax import parse_module
from schedir.dialects.utils import mixed_values
from schedir.pipeline import apply_schedule
from tests.unit.transform.mma_isa import LANES, mma_sync

Env = dict[SSAValue, Any]


class _Warp:
    """Runs a function body for the 32 lanes at once: each SSA value is an array with a
    leading lane dimension; memrefs are numpy views shared by the lanes."""

    def __init__(self) -> None:
        self.env: Env = {}
        self.base: dict[int, int] = {}
        """Buffer (by id) -> its address: views' offsets are counted from it."""

    def offset(self, array: np.ndarray) -> int:
        """The element offset of a view from the start of its buffer."""
        owner = array.base if array.base is not None else array
        start = array.__array_interface__["data"][0]
        return (start - self.base[id(owner)]) // array.itemsize

    def lanes(self, v: SSAValue) -> np.ndarray:
        value = self.env[v]
        return (
            value
            if isinstance(value, np.ndarray) and value.shape[:1] == (LANES,)
            else np.full(LANES, value)
        )

    def scalar(self, v: SSAValue) -> int:
        """A warp-uniform index (sizes and offsets of views)."""
        values = self.lanes(v)
        assert (values == values[0]).all(), "a view's sizes and offsets are warp-uniform"
        return int(values[0])

    def run(self, block: Block, active: np.ndarray) -> list[Any]:
        for op in block.ops:
            handler = self.HANDLERS.get(type(op))
            if handler is not None:
                handler(self, op, active)
                continue
            if isinstance(op, scf.YieldOp | func.ReturnOp):
                return [self.env[o] for o in op.operands]
            raise AssertionError(f"the emulator does not run {op.name}")
        return []

    def _constant(self, op: arith.ConstantOp, active: np.ndarray) -> None:
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            dense_type = value.get_type()
            assert isinstance(dense_type, VectorType)
            shape = dense_type.get_shape()
            data = np.array(value.get_values(), dtype=np.float64).reshape(shape)
            self.env[op.result] = np.broadcast_to(data, (LANES, *shape)).copy()
            return
        assert isinstance(value, IntegerAttr | FloatAttr), "scalar or dense constants only"
        self.env[op.result] = value.value.data

    def _cmpi(self, op: arith.CmpiOp, active: np.ndarray) -> None:
        predicate = op.predicate.value.data
        assert predicate in (0, 6), "eq or ult"
        lhs, rhs = self.lanes(op.lhs), self.lanes(op.rhs)
        self.env[op.result] = lhs == rhs if predicate == 0 else lhs < rhs

    def _lane_id(self, op: gpu.LaneIdOp, active: np.ndarray) -> None:
        self.env[op.results[0]] = np.arange(LANES)

    def _min(self, op: affine.MinOp, active: np.ndarray) -> None:
        map_ = op.properties["map"]
        assert isinstance(map_, AffineMapAttr)
        values = [self.scalar(o) for o in op.operands]
        dims = map_.data.num_dims
        self.env[op.results[0]] = min(map_.data.eval(values[:dims], values[dims:]))

    def _subview(self, op: memref.SubviewOp, active: np.ndarray) -> None:
        source = self.env[op.source]
        offsets = [
            o if isinstance(o, int) else self.scalar(o)
            for o in mixed_values(op.static_offsets, op.offsets)
        ]
        sizes = [
            s if isinstance(s, int) else self.scalar(s)
            for s in mixed_values(op.static_sizes, op.sizes)
        ]
        self.env[op.result] = source[
            tuple(slice(o, o + s) for o, s in zip(offsets, sizes, strict=True))
        ]

    def _metadata(self, op: memref.ExtractStridedMetaDataOp, active: np.ndarray) -> None:
        # A view's offset and strides in elements of the buffer it views.
        array = self.env[op.source]
        self.env[op.offset] = self.offset(array)
        element = array.itemsize
        for value, size in zip(op.sizes, array.shape, strict=True):
            self.env[value] = size
        for value, stride in zip(op.strides, array.strides, strict=True):
            self.env[value] = stride // element

    def _aligned_pointer(
        self, op: memref.ExtractAlignedPointerAsIndexOp, active: np.ndarray
    ) -> None:
        # Buffers start 16-byte aligned; a view's offset is counted from its buffer.
        self.env[op.aligned_pointer] = 0

    def _ldmatrix(self, op: ng.LdMatrixOp, active: np.ndarray) -> None:
        # PTX ISA ldmatrix: lane 8j + r gives the address of row r of tile j (8 elements
        # from there); lane l receives elements 2 (l % 4), +1 of row l / 4 of each tile,
        # or (.trans) rows 2 (l % 4), +1 of column l / 4.
        assert active.all(), "ldmatrix runs on the whole warp"
        array = self.env[op.src_memref]
        rows, cols = (self.lanes(i) for i in op.indices)
        tiles = np.zeros((op.num_tiles, 8, 8))
        for j in range(op.num_tiles):
            for r in range(8):
                at_row, at_col = int(rows[8 * j + r]), int(cols[8 * j + r])
                assert 0 <= at_row < array.shape[0] and 0 <= at_col <= array.shape[1] - 8, (
                    f"lane {8 * j + r} reads row {at_row} at {at_col} of {array.shape}"
                )
                start = self.offset(array) + at_row * array.strides[0] // array.itemsize
                assert (start + at_col) % 8 == 0, "each row address is 16-byte aligned"
                tiles[j, r] = array[at_row, at_col : at_col + 8]
        out = np.zeros((LANES, op.num_tiles, 2))
        for lane in range(LANES):
            g, t = lane // 4, lane % 4
            for j in range(op.num_tiles):
                tile = tiles[j].T if op.is_transposed else tiles[j]
                out[lane, j] = tile[g, 2 * t : 2 * t + 2]
        self.env[op.res] = out

    def _dim(self, op: memref.DimOp, active: np.ndarray) -> None:
        self.env[op.result] = self.env[op.source].shape[self.scalar(op.index)]

    def _load(self, op: memref.LoadOp, active: np.ndarray) -> None:
        array = self.env[op.memref]
        index = [self.lanes(i) for i in op.indices]
        out = np.zeros(LANES)
        for lane in np.flatnonzero(active):
            at = tuple(int(i[lane]) for i in index)
            assert all(0 <= x < s for x, s in zip(at, array.shape, strict=True)), (
                f"lane {lane} loads {at} of {array.shape}"
            )
            out[lane] = array[at]
        self.env[op.res] = out

    def _store(self, op: memref.StoreOp, active: np.ndarray) -> None:
        array = self.env[op.memref]
        index = [self.lanes(i) for i in op.indices]
        value = self.lanes(op.value)
        for lane in np.flatnonzero(active):
            at = tuple(int(i[lane]) for i in index)
            assert all(0 <= x < s for x, s in zip(at, array.shape, strict=True)), (
                f"lane {lane} stores {at} of {array.shape}"
            )
            array[at] = value[lane]

    def _if(self, op: scf.IfOp, active: np.ndarray) -> None:
        # A branch no lane takes is not run (a warp-uniform branch of warp-wide ops).
        cond = self.lanes(op.cond).astype(bool)
        taken = [active & cond, active & ~cond]
        blocks = [op.true_region.block, op.false_region.block if op.false_region.blocks else None]
        values = [
            self.run(block, lanes) if block is not None and lanes.any() else None
            for block, lanes in zip(blocks, taken, strict=True)
        ]
        if values[0] is None or values[1] is None:
            chosen = values[0] if values[1] is None else values[1]
            for result, value in zip(op.results, chosen or [], strict=True):
                self.env[result] = value
            return
        for result, a, b in zip(op.results, values[0], values[1], strict=True):
            a, b = self._as_lanes(a), self._as_lanes(b)
            where = cond.reshape((LANES,) + (1,) * (a.ndim - 1))
            self.env[result] = np.where(where, a, b)

    def _as_lanes(self, value: Any) -> np.ndarray:
        return (
            value
            if isinstance(value, np.ndarray) and value.shape[:1] == (LANES,)
            else np.full(LANES, value)
        )

    def _for(self, op: scf.ForOp, active: np.ndarray) -> None:
        carried = [self.env[v] for v in op.iter_args]
        block = op.body.block
        for i in range(self.scalar(op.lb), self.scalar(op.ub), self.scalar(op.step)):
            self.env[block.args[0]] = i
            for arg, value in zip(block.args[1:], carried, strict=True):
                self.env[arg] = value
            carried = self.run(block, active)
        for result, value in zip(op.results, carried, strict=True):
            self.env[result] = value

    def _from_elements(self, op: vector.FromElementsOp, active: np.ndarray) -> None:
        shape = op.dest.type.get_shape()
        stacked = np.stack([self._as_lanes(self.env[e]) for e in op.elements], axis=1)
        self.env[op.dest] = stacked.reshape((LANES, *shape))

    def _extract(self, op: vector.ExtractOp, active: np.ndarray) -> None:
        position = tuple(int(p) for p in op.static_position.get_values())
        self.env[op.result] = self.env[op.vector][(slice(None), *position)]

    def _insert(self, op: vector.InsertOp, active: np.ndarray) -> None:
        position = tuple(int(p) for p in op.static_position.get_values())
        result = self._as_lanes(self.env[op.dest]).copy()
        result[(slice(None), *position)] = self.env[op.source]
        self.env[op.result] = result

    def _mma_sync(self, op: ng.MmaSyncOp, active: np.ndarray) -> None:
        assert active.all(), "mma.sync runs on the whole warp"
        a, b, c = (self.env[v] for v in (op.matrix_a, op.matrix_b, op.matrix_c))
        self.env[op.res] = mma_sync(op, a, b, c)

    HANDLERS: dict[type[Operation], Callable[[_Warp, Any, np.ndarray], None]] = {}


def _binary(fn: Callable[[Any, Any], Any]) -> Callable[[_Warp, Operation, np.ndarray], None]:
    """The handler of an elementwise binary op."""

    def run(warp: _Warp, op: Operation, active: np.ndarray) -> None:
        warp.env[op.results[0]] = fn(warp.lanes(op.operands[0]), warp.lanes(op.operands[1]))

    return run


_Warp.HANDLERS = {
    arith.ConstantOp: _Warp._constant,
    arith.AddiOp: _binary(np.add),
    arith.MuliOp: _binary(np.multiply),
    arith.DivUIOp: _binary(np.floor_divide),
    arith.RemUIOp: _binary(np.remainder),
    arith.AndIOp: _binary(np.logical_and),
    arith.CmpiOp: _Warp._cmpi,
    gpu.LaneIdOp: _Warp._lane_id,
    affine.MinOp: _Warp._min,
    memref.SubviewOp: _Warp._subview,
    memref.DimOp: _Warp._dim,
    memref.LoadOp: _Warp._load,
    memref.StoreOp: _Warp._store,
    scf.IfOp: _Warp._if,
    scf.ForOp: _Warp._for,
    vector.FromElementsOp: _Warp._from_elements,
    vector.ExtractOp: _Warp._extract,
    vector.InsertOp: _Warp._insert,
    memref.ExtractStridedMetaDataOp: _Warp._metadata,
    memref.ExtractAlignedPointerAsIndexOp: _Warp._aligned_pointer,
    ng.LdMatrixOp: _Warp._ldmatrix,
    ng.MmaSyncOp: _Warp._mma_sync,
}


_SCHEDULE = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
}
"""


def _rewritten(payload: str) -> func.FuncOp:
    ctx = get_context()
    module = parse_module(payload, "<payload>", ctx=ctx)
    library = parse_module(_SCHEDULE, "<schedule>", ctx=ctx)
    assert apply_schedule(ctx, module, library)
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    return function


def _run(function: func.FuncOp, *args: Any) -> None:
    warp = _Warp()
    for arg, value in zip(function.body.block.args, args, strict=True):
        warp.env[arg] = value
        if isinstance(value, np.ndarray):
            warp.base[id(value)] = value.__array_interface__["data"][0]
    warp.run(function.body.block, np.ones(LANES, dtype=bool))


ELEMENTS = {
    "f16": ("f16", "f32"),
    "f16acc": ("f16", "f16"),
    "bf16": ("bf16", "f32"),
    "tf32": ("f32", "f32"),
}
"""Case name -> (A/B element, C element)."""


def _operands(rng: np.random.Generator, *shapes: tuple[int, int]) -> list[np.ndarray]:
    # Small integers: every product and sum is exact in any of the element types.
    return [rng.integers(-3, 4, size=s).astype(np.float64) for s in shapes]


@settings(max_examples=10)
@given(
    kind=st.sampled_from(sorted(ELEMENTS)),
    tiles=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)),
    cut=st.tuples(st.integers(0, 15), st.integers(0, 7), st.integers(0, 15)),
    seed=st.integers(0, 2**16),
)
def test_warp_tile_is_c_plus_a_times_b(
    kind: str, tiles: tuple[int, int, int], cut: tuple[int, int, int], seed: int
) -> None:
    """Static sizes, whole mma tiles or not (rounded up, the excess masked): every element
    of C is C0 + A x B."""
    ab, acc = ELEMENTS[kind]
    k_tile = 4 if kind == "tf32" else 16
    m = 16 * tiles[0] - cut[0]
    n = 8 * tiles[1] - cut[1]
    k = k_tile * tiles[2] - cut[2] % k_tile
    function = _rewritten(f"""
func.func @f(%a: memref<{m}x{k}x{ab}>, %b: memref<{k}x{n}x{ab}>, %c: memref<{m}x{n}x{acc}>) {{
  linalg.matmul ins(%a, %b : memref<{m}x{k}x{ab}>, memref<{k}x{n}x{ab}>) outs(%c : memref<{m}x{n}x{acc}>)
  return
}}""")
    a, b, c = _operands(np.random.default_rng(seed), (m, k), (k, n), (m, n))
    expected = c + a @ b
    _run(function, a, b, c)
    np.testing.assert_array_equal(c, expected)


@settings(max_examples=10)
@given(
    tiles=st.tuples(st.integers(1, 2), st.integers(1, 2), st.integers(1, 2)),
    cut=st.tuples(st.integers(0, 15), st.integers(0, 7), st.integers(0, 15)),
    steps=st.integers(1, 3),
    seed=st.integers(0, 2**16),
)
def test_edge_tiles_in_a_k_loop(
    tiles: tuple[int, int, int], cut: tuple[int, int, int], steps: int, seed: int
) -> None:
    """Views smaller than their bound (affine.min of the sizes), in a k loop whose
    accumulators are carried in registers: C is C0 + A x B over the k steps' parts, and no
    lane touches memory outside a view (the buffers are only as large as the data, so the
    fragment elements past them must be neither loaded nor stored)."""
    bm, bn, bk = 16 * tiles[0], 8 * tiles[1], 16 * tiles[2]
    m, n, kk = bm - cut[0], bn - cut[1], bk - cut[2]
    k = bk * (steps - 1) + kk
    function = _rewritten(f"""
func.func @f(%a: memref<{m}x{k}xf16>, %b: memref<{k}x{n}xf16>, %c: memref<{m}x{n}xf32>,
             %sm: index, %sn: index, %sk: index) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {bk} : index
  %m = affine.min affine_map<()[s0] -> ({bm}, s0)>()[%sm]
  %n = affine.min affine_map<()[s0] -> ({bn}, s0)>()[%sn]
  %vc = memref.subview %c[0, 0] [%m, %n] [1, 1] : memref<{m}x{n}xf32> to memref<?x?xf32, strided<[{n}, 1]>>
  scf.for %kv = %c0 to %sk step %step {{
    %ks = affine.min affine_map<(d0)[s0] -> ({bk}, s0 - d0)>(%kv)[%sk]
    %va = memref.subview %a[0, %kv] [%m, %ks] [1, 1] : memref<{m}x{k}xf16> to memref<?x?xf16, strided<[{k}, 1], offset: ?>>
    %vb = memref.subview %b[%kv, 0] [%ks, %n] [1, 1] : memref<{k}x{n}xf16> to memref<?x?xf16, strided<[{n}, 1], offset: ?>>
    linalg.matmul ins(%va, %vb : memref<?x?xf16, strided<[{k}, 1], offset: ?>>, memref<?x?xf16, strided<[{n}, 1], offset: ?>>)
                  outs(%vc : memref<?x?xf32, strided<[{n}, 1]>>)
  }}
  return
}}""")
    loops = [op for op in function.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 1 and len(loops[0].iter_args) == tiles[0] * tiles[1]
    a, b, c = _operands(np.random.default_rng(seed), (m, k), (k, n), (m, n))
    expected = c + a @ b
    _run(function, a, b, c, m, n, k)
    np.testing.assert_array_equal(c, expected)


@settings(max_examples=12, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(
    tiles=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 2)),
    cut=st.tuples(
        st.sampled_from([0, 0, 5]), st.sampled_from([0, 0, 3]), st.sampled_from([0, 0, 7])
    ),
    offset=st.sampled_from([(0, 0), (16, 8), (3, 5)]),
    kind=st.sampled_from(["f16", "bf16"]),
    seed=st.integers(0, 2**16),
)
def test_shared_memory_operands_through_ldmatrix(
    tiles: tuple[int, int, int],
    cut: tuple[int, int, int],
    offset: tuple[int, int],
    kind: str,
    seed: int,
) -> None:
    """Operands that are views of shared-memory buffers (as promoted tiles are): whole
    aligned tiles load through ldmatrix (A x4, B x4/x2 .trans), partial or misaligned
    views through the masked element loads (the warp-uniform check picks); the buffers
    hold NaN outside the views, which must not reach C."""
    bm, bn, bk = 16 * tiles[0], 8 * tiles[1], 16 * tiles[2]
    m, n, k = bm - cut[0], bn - cut[1], bk - cut[2]
    om, ok = offset
    rows, cols, wide = bm + 16, bk + 8, bn + 16
    function = _rewritten(f"""
func.func @f(%sa: memref<{rows}x{cols}x{kind}, 3>, %sb: memref<{cols}x{wide}x{kind}, 3>,
             %c: memref<{m}x{n}xf32>, %m: index, %n: index, %k: index) {{
  %om = arith.constant {om} : index
  %ok = arith.constant {ok} : index
  %mm = affine.min affine_map<()[s0] -> ({bm}, s0)>()[%m]
  %nn = affine.min affine_map<()[s0] -> ({bn}, s0)>()[%n]
  %kk = affine.min affine_map<()[s0] -> ({bk}, s0)>()[%k]
  %va = memref.subview %sa[%om, %ok] [%mm, %kk] [1, 1] : memref<{rows}x{cols}x{kind}, 3> to memref<?x?x{kind}, strided<[{cols}, 1], offset: ?>, 3>
  %vb = memref.subview %sb[%ok, %om] [%kk, %nn] [1, 1] : memref<{cols}x{wide}x{kind}, 3> to memref<?x?x{kind}, strided<[{wide}, 1], offset: ?>, 3>
  %vc = memref.subview %c[0, 0] [%mm, %nn] [1, 1] : memref<{m}x{n}xf32> to memref<?x?xf32, strided<[{n}, 1]>>
  linalg.matmul ins(%va, %vb : memref<?x?x{kind}, strided<[{cols}, 1], offset: ?>, 3>, memref<?x?x{kind}, strided<[{wide}, 1], offset: ?>, 3>)
                outs(%vc : memref<?x?xf32, strided<[{n}, 1]>>)
  return
}}""")
    ldmatrix = [op for op in function.walk() if isinstance(op, ng.LdMatrixOp)]
    assert {op.num_tiles for op in ldmatrix if not op.is_transposed} == {4}
    assert any(op.is_transposed for op in ldmatrix)
    a, b, c = _operands(np.random.default_rng(seed), (m, k), (k, n), (m, n))
    sa = np.full((rows, cols), np.nan)
    sb = np.full((cols, wide), np.nan)
    sa[om : om + m, ok : ok + k] = a
    sb[ok : ok + k, om : om + n] = b
    expected = c + a @ b
    _run(function, sa, sb, c, m, n, k)
    np.testing.assert_array_equal(c, expected)
