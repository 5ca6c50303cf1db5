"""Run the scheduled mma.sync matmul kernel on the CPU, a block at a time, its threads in
lockstep (numpy arrays with one entry per thread): what the warp-level ops and the
asynchronous copies do is modelled after the PTX ISA, so that a wrong fragment, a wrong
ring slot or a missing wait shows up as a numeric mismatch without a GPU.

* Memory is flat numpy buffers; `memref.view` reinterprets a block's shared bytes (its
  allocations' or the launch's dynamic shared memory, which
  start as 0xFF bytes: NaN in f16 and f32, so reading a slot no copy filled yet poisons
  the result), subviews are (offset, sizes, strides) per thread.
* `nvgpu.ldmatrix`: thread 8j + r of a warp gives the address of row r of tile j (8
  elements, 16-byte aligned, inside the view's row); thread l receives elements
  2 (l % 4), +1 of row l / 4 of each tile (or of its transpose).
* `nvgpu.mma.sync`: per warp, through the ISA's fragment tables.
* `nvgpu.device_async_copy` reads its source when issued (global memory does not change)
  but writes shared memory only when its group completes: `device_async_create_group`
  closes the pending copies into a group, `device_async_wait {numGroups = N}` completes
  the oldest groups until N remain. Copies past their `srcElements` zero-fill and read
  nothing.
* `linalg.fill` and `linalg.copy` (left on dynamic edge tiles) run per thread on its views.
* Lockstep execution cannot show a race between warps (a missing barrier): that is
  compute-sanitizer's job on the device; a barrier some threads skip is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from schedir.dialects import affine, gpu, linalg, vector
from schedir.dialects import nvgpu as ng
from schedir.dialects.utils import mixed_values
from tests.unit.transform.mma_isa import LANES, mma_sync

Lanes = np.ndarray


def _dtype(element: Attribute) -> np.dtype[Any]:
    if isinstance(element, Float16Type):
        return np.dtype(np.float16)
    if isinstance(element, Float32Type):
        return np.dtype(np.float32)
    if isinstance(element, IntegerType) and element.width.data == 8:
        return np.dtype(np.uint8)
    if isinstance(element, BFloat16Type):
        raise AssertionError("the emulation models f16 and f32 memory only")
    raise AssertionError(f"no numpy type for {element}")


@dataclass
class Ref:
    """A memref: a flat buffer, the byte address of its first element, and per thread an
    offset, sizes and strides (in elements)."""

    buffer: np.ndarray
    start_byte: int
    offset: Lanes
    sizes: list[Lanes]
    strides: list[Lanes]

    def address(self, indices: Sequence[Lanes], active: Lanes) -> Lanes:
        """The element address of `indices` per thread; asserts each active thread's
        indices lie inside the sizes."""
        for dim, (index, size) in enumerate(zip(indices, self.sizes, strict=True)):
            bad = active & ((index < 0) | (index >= size))
            assert not bad.any(), f"index {index[bad][0]} of dim {dim} outside {size[bad][0]}"
        at = self.offset.copy()
        for index, stride in zip(indices, self.strides, strict=True):
            at = at + index * stride
        return at


@dataclass
class Emulator:
    """Runs one function; `threads` threads per block (set by the launch)."""

    threads: int = 1
    env: dict[SSAValue, Any] = field(default_factory=dict[SSAValue, Any])
    pending: list[tuple[np.ndarray, int, np.ndarray]] = field(
        default_factory=list[tuple[np.ndarray, int, np.ndarray]]
    )
    groups: list[list[tuple[np.ndarray, int, np.ndarray]]] = field(
        default_factory=list[list[tuple[np.ndarray, int, np.ndarray]]]
    )
    ids: dict[str, Lanes] = field(default_factory=dict[str, Lanes])
    dynamic_bytes: int = 0
    """The bytes of dynamic shared memory the launch reserves."""

    # -- values ------------------------------------------------------------------------

    def lanes(self, value: SSAValue) -> Lanes:
        v = self.env[value]
        if isinstance(v, np.ndarray) and v.shape[:1] == (self.threads,):
            return v
        return np.full(self.threads, v)

    def index(self, value: SSAValue) -> Lanes:
        return self.lanes(value).astype(np.int64)

    def uniform(self, value: SSAValue) -> int:
        v = self.index(value)
        assert (v == v[0]).all(), "expected a block-uniform value"
        return int(v[0])

    def vector(self, value: SSAValue) -> np.ndarray:
        """A vector value per thread (one made outside the launch is broadcast)."""
        v = np.asarray(self.env[value], dtype=np.float64)
        return np.broadcast_to(v, (self.threads, *v.shape[1:])).copy()

    def ref(self, value: SSAValue) -> Ref:
        r = self.env[value]
        assert isinstance(r, Ref)
        return r

    # -- blocks ------------------------------------------------------------------------

    def run(self, block: Block, active: Lanes) -> list[Any]:
        for op in block.ops:
            if isinstance(op, scf.YieldOp | func.ReturnOp | gpu.TerminatorOp):
                return [self.env[o] for o in op.operands]
            handler = _handler_for(op)
            if handler is None:
                raise AssertionError(f"the emulation does not run {op.name}")
            handler(self, op, active)
        return []

    def function(self, fn: func.FuncOp, args: Sequence[Any]) -> list[Any]:
        block = fn.body.block
        for arg, value in zip(block.args, args, strict=True):
            self.env[arg] = value
        return self.run(block, np.ones(self.threads, dtype=bool))


def _binary(fn: Callable[[Lanes, Lanes], Lanes]) -> Callable[[Emulator, Operation, Lanes], None]:
    def run(em: Emulator, op: Operation, active: Lanes) -> None:
        em.env[op.results[0]] = fn(em.lanes(op.operands[0]), em.lanes(op.operands[1]))

    return run


_CMPI: dict[int, Callable[[Lanes, Lanes], Lanes]] = {
    0: np.equal,
    1: np.not_equal,
    2: np.less,
    3: np.less_equal,
    4: np.greater,
    5: np.greater_equal,
    6: np.less,
    7: np.less_equal,
    8: np.greater,
    9: np.greater_equal,
}


def _constant(em: Emulator, op: arith.ConstantOp, active: Lanes) -> None:
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        t = value.get_type()
        assert isinstance(t, VectorType)
        shape = tuple(t.get_shape())
        data = np.array(value.get_values(), dtype=np.float64).reshape(shape)
        em.env[op.result] = np.broadcast_to(data, (em.threads, *shape)).copy()
        return
    assert isinstance(value, IntegerAttr | FloatAttr)
    em.env[op.result] = value.value.data


def _cmpi(em: Emulator, op: arith.CmpiOp, active: Lanes) -> None:
    em.env[op.result] = _CMPI[op.predicate.value.data](em.lanes(op.lhs), em.lanes(op.rhs))


def _select(em: Emulator, op: arith.SelectOp, active: Lanes) -> None:
    em.env[op.result] = np.where(em.lanes(op.cond), em.lanes(op.lhs), em.lanes(op.rhs))


def _expr(expr: AffineExpr, dims: list[Lanes], syms: list[Lanes]) -> Lanes:
    if isinstance(expr, AffineConstantExpr):
        return np.int64(expr.value) + np.zeros_like(dims[0] if dims else syms[0])
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position]
    if isinstance(expr, AffineSymExpr):
        return syms[expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs, rhs = _expr(expr.lhs, dims, syms), _expr(expr.rhs, dims, syms)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if kind == AffineBinaryOpKind.Mul:
        return lhs * rhs
    if kind == AffineBinaryOpKind.Mod:
        return np.mod(lhs, rhs)
    if kind == AffineBinaryOpKind.FloorDiv:
        return np.floor_divide(lhs, rhs)
    return -np.floor_divide(-lhs, rhs)


def _affine(em: Emulator, op: Operation, active: Lanes) -> None:
    map_ = op.properties["map"]
    assert isinstance(map_, AffineMapAttr)
    values = [em.index(o) for o in op.operands]
    n = map_.data.num_dims
    results = [_expr(e, values[:n], values[n:]) for e in map_.data.results]
    if isinstance(op, affine.MinOp):
        em.env[op.results[0]] = np.min(np.stack(results), axis=0)
    elif isinstance(op, affine.MaxOp):
        em.env[op.results[0]] = np.max(np.stack(results), axis=0)
    else:
        em.env[op.results[0]] = results[0]


def _launch(em: Emulator, op: gpu.LaunchOp, active: Lanes) -> None:
    grid = [em.uniform(v) for v in (op.gridSizeX, op.gridSizeY, op.gridSizeZ)]
    block = [em.uniform(v) for v in (op.blockSizeX, op.blockSizeY, op.blockSizeZ)]
    assert block[1] == block[2] == 1 and grid[2] == 1, "1-D blocks, 2-D grids"
    inner = Emulator(block[0], dict(em.env))
    if op.dynamicSharedMemorySize is not None:
        inner.dynamic_bytes = em.uniform(op.dynamicSharedMemorySize)
    for by in range(grid[1]):
        for bx in range(grid[0]):
            inner.ids = {
                "bx": np.full(block[0], bx),
                "by": np.full(block[0], by),
                "tx": np.arange(block[0]),
                "gx": np.full(block[0], grid[0]),
                "gy": np.full(block[0], grid[1]),
            }
            inner.run(op.body.block, np.ones(block[0], dtype=bool))
            assert not inner.pending and not inner.groups, "copies left in flight"


def _id(em: Emulator, op: Operation, active: Lanes) -> None:
    dim = op.properties.get("dimension") or op.attributes.get("dimension")
    axis = str(getattr(dim, "data", dim)).split(".")[-1].lower()
    if isinstance(op, gpu.ThreadIdOp):
        assert "x" in axis
        em.env[op.results[0]] = em.ids["tx"]
    elif isinstance(op, gpu.BlockIdOp):
        em.env[op.results[0]] = em.ids["bx" if "x" in axis else "by"]
    elif isinstance(op, gpu.GridDimOp):
        em.env[op.results[0]] = em.ids["gx" if "x" in axis else "gy"]
    else:
        em.env[op.results[0]] = em.ids["tx"] % LANES


def _alloc(em: Emulator, op: memref.AllocOp, active: Lanes) -> None:
    t = op.memref.type
    assert isinstance(t, MemRefType)
    shape = [int(s) for s in t.get_shape()]
    dtype = _dtype(t.element_type)
    count = int(np.prod(shape))
    # 0xFF bytes: NaN in f16 and f32.
    raw = np.full(count * dtype.itemsize, 0xFF, dtype=np.uint8)
    strides = [int(np.prod(shape[i + 1 :])) for i in range(len(shape))]
    em.env[op.memref] = Ref(
        raw.view(dtype),
        0,
        np.zeros(em.threads, dtype=np.int64),
        [np.full(em.threads, s) for s in shape],
        [np.full(em.threads, s) for s in strides],
    )


def _dynamic_memory(em: Emulator, op: gpu.DynamicSharedMemoryOp, active: Lanes) -> None:
    # The block's dynamic shared memory: the launch's bytes, 0xFF as the allocations.
    raw = np.full(em.dynamic_bytes, 0xFF, dtype=np.uint8)
    em.env[op.resultMemref] = Ref(
        raw,
        0,
        np.zeros(em.threads, dtype=np.int64),
        [np.full(em.threads, em.dynamic_bytes)],
        [np.full(em.threads, 1)],
    )


def _view(em: Emulator, op: memref.ViewOp, active: Lanes) -> None:
    source = em.ref(op.source)
    shift = em.uniform(op.byte_shift)
    t = op.result.type
    assert isinstance(t, MemRefType)
    dtype = _dtype(t.element_type)
    raw = source.buffer
    usable = (raw.size - shift) // dtype.itemsize * dtype.itemsize
    typed = raw[shift : shift + usable].view(dtype)
    dynamic = iter(op.sizes)
    sizes = [int(s) if s >= 0 else em.uniform(next(dynamic)) for s in t.get_shape()]
    assert int(np.prod(sizes)) <= typed.size, "the view lies inside its buffer"
    strides = [int(np.prod(sizes[i + 1 :])) for i in range(len(sizes))]
    em.env[op.result] = Ref(
        typed,
        source.start_byte + shift,
        np.zeros(em.threads, dtype=np.int64),
        [np.full(em.threads, s) for s in sizes],
        [np.full(em.threads, s) for s in strides],
    )


def _mixed(em: Emulator, static: Any, dynamic: Sequence[SSAValue]) -> list[Lanes]:
    return [
        np.full(em.threads, v) if isinstance(v, int) else em.index(v)
        for v in mixed_values(static, dynamic)
    ]


def _subview(em: Emulator, op: memref.SubviewOp, active: Lanes) -> None:
    source = em.ref(op.source)
    offsets = _mixed(em, op.static_offsets, op.offsets)
    sizes = _mixed(em, op.static_sizes, op.sizes)
    steps = _mixed(em, op.static_strides, op.strides)
    for o, s, size in zip(offsets, sizes, source.sizes, strict=True):
        bad = active & (s > 0) & ((o < 0) | (o + s > size))
        assert not bad.any(), "a subview lies inside its source"
    offset = source.offset.copy()
    for o, stride in zip(offsets, source.strides, strict=True):
        offset = offset + o * stride
    em.env[op.result] = Ref(
        source.buffer,
        source.start_byte,
        offset,
        sizes,
        [a * b for a, b in zip(source.strides, steps, strict=True)],
    )


def _metadata(em: Emulator, op: memref.ExtractStridedMetaDataOp, active: Lanes) -> None:
    source = em.ref(op.source)
    em.env[op.base_buffer] = source
    em.env[op.offset] = source.offset
    for value, size in zip(op.sizes, source.sizes, strict=True):
        em.env[value] = size
    for value, stride in zip(op.strides, source.strides, strict=True):
        em.env[value] = stride


def _pointer(em: Emulator, op: memref.ExtractAlignedPointerAsIndexOp, active: Lanes) -> None:
    em.env[op.aligned_pointer] = em.ref(op.source).start_byte


def _load(em: Emulator, op: memref.LoadOp, active: Lanes) -> None:
    ref = em.ref(op.memref)
    at = ref.address([em.index(i) for i in op.indices], active)
    out = np.zeros(em.threads)
    out[active] = ref.buffer[at[active]]
    em.env[op.res] = out


def _store(em: Emulator, op: memref.StoreOp, active: Lanes) -> None:
    ref = em.ref(op.memref)
    at = ref.address([em.index(i) for i in op.indices], active)
    ref.buffer[at[active]] = em.lanes(op.value)[active]


def _transfer_write(em: Emulator, op: xvector.TransferWriteOp, active: Lanes) -> None:
    assert op.mask is None and op.permutation_map.data.is_minor_identity()
    ref = em.ref(op.source)
    value = em.env[op.vector]
    value = np.broadcast_to(value, (em.threads, *value.shape[-1:]))
    indices = [em.index(i) for i in op.indices]
    width = value.shape[-1]
    last = [*indices[:-1], indices[-1] + width - 1]
    ref.address(last, active)
    at = ref.address(indices, active)
    for lane in np.flatnonzero(active):
        ref.buffer[at[lane] : at[lane] + width] = value[lane]


def _from_elements(em: Emulator, op: vector.FromElementsOp, active: Lanes) -> None:
    shape = op.dest.type.get_shape()
    stacked = np.stack([em.lanes(e) for e in op.elements], axis=1)
    em.env[op.dest] = stacked.reshape((em.threads, *shape))


def _extract(em: Emulator, op: xvector.ExtractOp, active: Lanes) -> None:
    position = tuple(int(p) for p in op.static_position.get_values())
    em.env[op.result] = em.vector(op.vector)[(slice(None), *position)]


def _insert(em: Emulator, op: xvector.InsertOp, active: Lanes) -> None:
    position = tuple(int(p) for p in op.static_position.get_values())
    dest = em.vector(op.dest)
    dest[(slice(None), *position)] = em.env[op.source]
    em.env[op.result] = dest


def _if(em: Emulator, op: scf.IfOp, active: Lanes) -> None:
    cond = em.lanes(op.cond).astype(bool)
    branches = [
        (op.true_region.block, active & cond),
        (op.false_region.block if op.false_region.blocks else None, active & ~cond),
    ]
    results: list[list[Any] | None] = [
        em.run(b, lanes) if b is not None and lanes.any() else None for b, lanes in branches
    ]
    if results[0] is None or results[1] is None:
        chosen = results[0] if results[1] is None else results[1]
        for result, value in zip(op.results, chosen or [], strict=True):
            em.env[result] = value
        return
    for result, a, b in zip(op.results, results[0], results[1], strict=True):
        a = a if isinstance(a, np.ndarray) else np.full(em.threads, a)
        b = b if isinstance(b, np.ndarray) else np.full(em.threads, b)
        where = cond.reshape((em.threads,) + (1,) * (a.ndim - 1))
        em.env[result] = np.where(where, a, b)


def _for(em: Emulator, op: scf.ForOp, active: Lanes) -> None:
    carried = [em.env[v] for v in op.iter_args]
    body = op.body.block
    for i in range(em.uniform(op.lb), em.uniform(op.ub), em.uniform(op.step)):
        em.env[body.args[0]] = i
        for arg, value in zip(body.args[1:], carried, strict=True):
            em.env[arg] = value
        carried = em.run(body, active)
    for result, value in zip(op.results, carried, strict=True):
        em.env[result] = value


def _barrier(em: Emulator, op: gpu.BarrierOp, active: Lanes) -> None:
    assert active.all(), "a barrier every thread of the block reaches"


def _warps(em: Emulator, active: Lanes) -> range:
    assert active.all() and em.threads % LANES == 0, "a warp-wide op on whole warps"
    return range(em.threads // LANES)


def _ldmatrix(em: Emulator, op: ng.LdMatrixOp, active: Lanes) -> None:
    ref = em.ref(op.src_memref)
    rows, cols = (em.index(i) for i in op.indices)
    starts = ref.address([rows, cols], active)
    ref.address([rows, cols + 7], active)  # the 8 elements inside the row
    itemsize = ref.buffer.itemsize
    tiles = op.num_tiles
    out = np.zeros((em.threads, tiles, 2))
    for w in _warps(em, active):
        base = w * LANES
        matrices = np.zeros((tiles, 8, 8))
        for j in range(tiles):
            for r in range(8):
                start = int(starts[base + 8 * j + r])
                assert (ref.start_byte + start * itemsize) % 16 == 0, "16-byte aligned rows"
                matrices[j, r] = ref.buffer[start : start + 8]
        for lane in range(LANES):
            g, t = lane // 4, lane % 4
            for j in range(tiles):
                tile = matrices[j].T if op.is_transposed else matrices[j]
                out[base + lane, j] = tile[g, 2 * t : 2 * t + 2]
    em.env[op.res] = out


def _mma(em: Emulator, op: ng.MmaSyncOp, active: Lanes) -> None:
    a, b, c = (em.vector(v) for v in (op.matrix_a, op.matrix_b, op.matrix_c))
    out = np.zeros(np.shape(c))
    for w in _warps(em, active):
        part = slice(w * LANES, (w + 1) * LANES)
        out[part] = mma_sync(op, a[part], b[part], c[part])
    em.env[op.res] = out


def _async_copy(em: Emulator, op: ng.DeviceAsyncCopyOp, active: Lanes) -> None:
    dst, src = em.ref(op.dst), em.ref(op.src)
    n = op.dst_elements
    counts = np.full(em.threads, n) if op.src_elements is None else em.index(op.src_elements)
    dst_index = [em.index(i) for i in op.dst_indices]
    src_index = [em.index(i) for i in op.src_indices]
    dst_at = dst.address(dst_index, active)
    dst.address([*dst_index[:-1], dst_index[-1] + n - 1], active)
    reads = active & (counts > 0)
    src_at = src.address(src_index, reads)
    src.address([*src_index[:-1], src_index[-1] + counts - 1], reads)
    width = n * dst.buffer.itemsize
    for lane in np.flatnonzero(active):
        assert (dst.start_byte + int(dst_at[lane]) * dst.buffer.itemsize) % width == 0
        count = int(counts[lane])
        values = np.zeros(n, dtype=dst.buffer.dtype)
        at = int(src_at[lane])
        values[:count] = src.buffer[at : at + count]
        em.pending.append((dst.buffer, int(dst_at[lane]), values))
    em.env[op.async_token] = 0


def _group(em: Emulator, op: ng.DeviceAsyncCreateGroupOp, active: Lanes) -> None:
    em.groups.append(em.pending)
    em.pending = []
    em.env[op.async_token] = 0


def _wait(em: Emulator, op: ng.DeviceAsyncWaitOp, active: Lanes) -> None:
    while len(em.groups) > op.num_groups:
        for buffer, at, values in em.groups.pop(0):
            buffer[at : at + values.size] = values


def _elements(ref: Ref, lane: int) -> np.ndarray:
    """The element addresses of one thread's view (row-major over its sizes)."""
    at = np.array([int(ref.offset[lane] if ref.offset.size > 1 else ref.offset[0])])
    for size, stride in zip(ref.sizes, ref.strides, strict=True):
        n = int(size[lane] if size.size > 1 else size[0])
        step = int(stride[lane] if stride.size > 1 else stride[0])
        at = (at[:, None] + np.arange(n)[None, :] * step).reshape(-1)
    return at


def _fill(em: Emulator, op: linalg.FillOp, active: Lanes) -> None:
    (value,) = op.inputs
    (out,) = op.outputs
    ref, values = em.ref(out), em.lanes(value)
    for lane in map(int, np.flatnonzero(active)):
        at = _elements(ref, lane)
        assert at.size == 0 or at.max() < ref.buffer.size
        ref.buffer[at] = values[lane]


def _copy(em: Emulator, op: linalg.CopyOp, active: Lanes) -> None:
    (source,) = op.inputs
    (target,) = op.outputs
    src, dst = em.ref(source), em.ref(target)
    for lane in map(int, np.flatnonzero(active)):
        src_at, dst_at = _elements(src, lane), _elements(dst, lane)
        assert src_at.size == dst_at.size
        dst.buffer[dst_at] = src.buffer[src_at]


def _dim(em: Emulator, op: memref.DimOp, active: Lanes) -> None:
    em.env[op.result] = em.ref(op.source).sizes[em.uniform(op.index)]


def _nothing(em: Emulator, op: Operation, active: Lanes) -> None:
    pass


HANDLERS: dict[type[Operation], Callable[[Emulator, Any, Lanes], None]] = {
    arith.ConstantOp: _constant,
    arith.AddiOp: _binary(np.add),
    arith.SubiOp: _binary(np.subtract),
    arith.MuliOp: _binary(np.multiply),
    arith.DivUIOp: _binary(np.floor_divide),
    arith.RemUIOp: _binary(np.remainder),
    arith.MinUIOp: _binary(np.minimum),
    arith.AndIOp: _binary(np.logical_and),
    arith.CmpiOp: _cmpi,
    arith.SelectOp: _select,
    affine.ApplyOp: _affine,
    affine.MinOp: _affine,
    affine.MaxOp: _affine,
    gpu.LaunchOp: _launch,
    gpu.ThreadIdOp: _id,
    gpu.BlockIdOp: _id,
    gpu.GridDimOp: _id,
    gpu.LaneIdOp: _id,
    gpu.BarrierOp: _barrier,
    memref.AllocOp: _alloc,
    gpu.DynamicSharedMemoryOp: _dynamic_memory,
    memref.DimOp: _dim,
    linalg.FillOp: _fill,
    linalg.CopyOp: _copy,
    memref.DeallocOp: _nothing,
    memref.ViewOp: _view,
    memref.SubviewOp: _subview,
    memref.ExtractStridedMetaDataOp: _metadata,
    memref.ExtractAlignedPointerAsIndexOp: _pointer,
    memref.LoadOp: _load,
    memref.StoreOp: _store,
    xvector.TransferWriteOp: _transfer_write,
    vector.FromElementsOp: _from_elements,
    xvector.ExtractOp: _extract,
    xvector.InsertOp: _insert,
    scf.IfOp: _if,
    scf.ForOp: _for,
    ng.LdMatrixOp: _ldmatrix,
    ng.MmaSyncOp: _mma,
    ng.DeviceAsyncCopyOp: _async_copy,
    ng.DeviceAsyncCreateGroupOp: _group,
    ng.DeviceAsyncWaitOp: _wait,
}


def _handler_for(op: Operation) -> Callable[[Emulator, Any, Lanes], None] | None:
    for cls in type(op).__mro__:
        if cls in HANDLERS:
            return HANDLERS[cls]
    return None


def run_matmul(module: ModuleOp, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Run the module's one function on A and B (f16 arrays); its f32 result."""
    (fn,) = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    em = Emulator()
    args = [
        Ref(
            np.ascontiguousarray(x).reshape(-1),
            0,
            np.zeros(1, dtype=np.int64),
            [np.full(1, s) for s in x.shape],
            [np.full(1, x.shape[1]), np.full(1, 1)],
        )
        for x in (a, b)
    ]
    (result,) = em.function(fn, args)
    assert isinstance(result, Ref)
    rows, cols = (int(s[0]) for s in result.sizes)
    return result.buffer[: rows * cols].reshape(rows, cols).astype(np.float64)


__all__ = ["Emulator", "Ref", "run_matmul"]
