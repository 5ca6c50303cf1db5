"""Rewriting global-to-shared copies inside a `gpu.launch` as TMA loads (upstream
NVGPU/TransformOps/NVGPUTransformOps.cpp, `CopyBuilder`).

For the copies of one launch, as upstream builds them:

* before the launch, per copy: `memref.cast` of the global memref to an unranked memref and
  `nvgpu.tma.create.descriptor` with the copy's shape as the box (`swizzle` as given;
  upstream always uses `none`);
* at the first copy: `nvgpu.mbarrier.create`, `nvgpu.mbarrier.init` with the block's thread
  count, `gpu.barrier`;
* `scf.if` thread x == 0: every `nvgpu.tma.async.load` and one
  `nvgpu.mbarrier.arrive.expect_tx` with the bytes of all boxes; else an arrive with 0
  bytes;
* `nvgpu.mbarrier.try_wait.parity` (10,000,000 ticks per try), then the copies are erased.

schedir's generalizations, where upstream would compute wrong addresses or hang:

* the source may be a unit-stride `memref.subview` of a memref defined above the launch:
  the descriptor is built on that memref and the subview's offsets are the load's
  coordinates (upstream takes the source itself, at coordinates 0);
* edge tiles (`tile_using_forall` / `tile_using_for` of sizes the tiles do not divide):
  a copy of dynamic sizes `min(box, dim - offset)` from a subview of the global memref
  into a subview at 0 of a static buffer (what `structured.promote` makes) loads the whole
  buffer as the box: TMA zero-fills what lies past the global tensor's bounds (the
  descriptor carries its true sizes), so the buffer holds the copy with zeros around it
  (`reaches_bound` proves each dynamic size is that minimum). The copy's destination
  becomes a subview of the whole buffer, which later rewrites (wgmma) read;
* copies inside one `scf.for` of the launch: the barrier is created and initialized once at
  the start of the launch body, every iteration first synchronizes the block (nobody still
  reads the tiles the loads overwrite) and waits on phase parity
  `((iv - lb) / step) mod 2` (each iteration completes one phase); upstream re-initializes
  the barrier in every iteration.

TMA needs the global tensor's row strides to be multiples of 16 bytes (a K or N of f16
that is not a multiple of 8 cannot be described as it lies): the host stages such a tensor
into a buffer of padded rows when it builds the descriptor (schedir/gpu/tma.py,
`staged_layout`), so the copy is rewritten at any row length.

    linalg.copy ins(%sv : memref<64x64xf16, strided<[K, 1], offset: ?>>)
                outs(%smem : memref<64x64xf16, #gpu.address_space<workgroup>>)
    // ->
    %d = nvgpu.tma.create.descriptor %unranked box[%c64, %c64] (before gpu.launch)
    scf.if %tid_is_0 {
      nvgpu.tma.async.load %d[%i, %k], %bar[%c0] to %smem
      nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c8192
    } else { nvgpu.mbarrier.arrive.expect_tx %bar[%c0], %c0 }
    nvgpu.mbarrier.try_wait.parity %bar[%c0], %parity, %c10000000
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from math import prod
from typing import cast

from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
    i1,
)
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu, linalg
from schedir.dialects import nvgpu as ng
from schedir.dialects.arith import CmpiOp
from schedir.dialects.gpu.attributes import AddressSpaceAttr
from schedir.dialects.memref import CastOp
from schedir.dialects.nvgpu.tma import MAX_TMA_DIMENSION, MAX_TMA_RANK
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space
from schedir.dialects.utils import constant_index, mixed_values
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.rewriter import PayloadRewriteError, emit_index

SWIZZLE_SPAN = {"swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}
"""Bytes of one row of each TMA swizzle pattern: the widest box row it takes."""
TRY_WAIT_TICKS = 10_000_000
"""Upstream's ticks before a `try_wait.parity` retries ("not too small, not too big")."""


class TmaRewriteError(PayloadRewriteError):
    """A copy that cannot become a TMA load, with the reason and the op to blame."""


@dataclass(frozen=True)
class TmaCopies:
    """What the rewrite made: the loads (one per copy, in order) and the barrier group."""

    loads: tuple[ng.TmaAsyncLoadOp, ...]
    barrier: ng.MBarrierCreateOp
    descriptors: tuple[ng.TmaCreateDescriptorOp, ...]


@dataclass(frozen=True)
class _Copy:
    """One checked copy: the global memref, the coordinates and the shared destination
    (for an edge copy, `edge` is its dynamic destination subview, and `dst` its buffer
    until the rewrite makes the whole-box subview)."""

    op: linalg.CopyOp
    global_memref: SSAValue
    offsets: tuple[int | SSAValue, ...]
    box: MemRefType
    dst: SSAValue
    edge: memref.SubviewOp | None = None


def enclosing_launch(op: Operation) -> gpu.LaunchOp | None:
    """The gpu.launch around `op`, or None."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, gpu.LaunchOp):
        parent = parent.parent_op()
    return parent


def _defined_above(value: SSAValue, launch: gpu.LaunchOp) -> bool:
    """Whether `value` is defined outside `launch` (so the host can describe it)."""
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is launch:
            return False
        op = op.parent_op()
    return True


def _is_contiguous(t: MemRefType) -> bool:
    """Row-major with no gaps: what a TMA box in shared memory is filled as."""
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return True
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        expected = 1
        for size, stride in reversed(list(zip(t.get_shape(), strides, strict=True))):
            if stride != expected:
                return False
            expected *= size
        return layout.get_offset() == 0
    return False


def _is_contiguous_value(value: SSAValue) -> bool:
    """Whether `value` is a contiguous buffer: by its type, or as the whole of a view of
    one (what `structured.promote` makes: a subview at 0 with the sizes of a
    `memref.view` of a byte buffer, whose strides the type leaves dynamic)."""
    t = value.type
    if not isinstance(t, MemRefType):
        return False
    if _is_contiguous(t):
        return True
    view = value.owner
    if not isinstance(view, memref.SubviewOp):
        return False
    offsets = mixed_values(view.static_offsets, view.offsets)
    sizes = mixed_values(view.static_sizes, view.sizes)
    strides = mixed_values(view.static_strides, view.strides)
    if any(constant_index(v) != 0 for v in offsets) or any(constant_index(v) != 1 for v in strides):
        return False
    source = view.source
    whole = source.owner
    if isinstance(whole, memref.ViewOp):
        # A view of a byte buffer is row-major with the view's sizes.
        result_t = whole.result.type
        assert isinstance(result_t, MemRefType)
        dynamic = iter(whole.sizes)
        full = [d if d >= 0 else constant_index(next(dynamic)) for d in result_t.get_shape()]
        return constant_index(whole.byte_shift) == 0 and [constant_index(v) for v in sizes] == full
    source_t = source.type
    return (
        isinstance(source_t, MemRefType)
        and list(source_t.get_shape()) == [constant_index(v) for v in sizes]
        and _is_contiguous_value(source)
    )


def _check_copy(op: Operation, launch: gpu.LaunchOp) -> _Copy:
    """The copy's global memref, coordinates and box, or why it cannot be a TMA load."""
    if not isinstance(op, linalg.CopyOp):
        raise TmaRewriteError("target is not a linalg.copy", op)
    src, dst = op.inputs[0], op.outputs[0]
    src_t, dst_t = src.type, dst.type
    if not isinstance(src_t, MemRefType) or not isinstance(dst_t, MemRefType):
        raise TmaRewriteError("copy is not on memrefs (bufferize first)", op)
    if not is_shared_memory_space(dst_t.memory_space):
        raise TmaRewriteError("copy destination is not in shared (workgroup) memory", op)
    if is_shared_memory_space(src_t.memory_space):
        raise TmaRewriteError("copy source is already in shared memory", op)
    if not src_t.has_static_shape() or not dst_t.has_static_shape() or _in_larger_buffer(dst):
        return _check_edge_copy(op, launch)
    shape = tuple(src_t.get_shape())
    _check_box(op, shape, dst)
    if _defined_above(src, launch):
        return _Copy(op, src, (0,) * len(shape), dst_t, dst)
    view = _global_subview(op, src, launch, len(shape))
    offsets = mixed_values(view.static_offsets, view.offsets)
    return _Copy(op, view.source, tuple(offsets), dst_t, dst)


def _check_box(op: Operation, shape: tuple[int, ...], dst: SSAValue) -> None:
    """The box's rank, sizes and row bytes are TMA's, and `dst` is contiguous."""
    if not 1 <= len(shape) <= MAX_TMA_RANK:
        raise TmaRewriteError(f"copy of rank {len(shape)} (TMA takes 1 to {MAX_TMA_RANK})", op)
    if any(not 1 <= d <= MAX_TMA_DIMENSION for d in shape):
        raise TmaRewriteError(f"box {list(shape)} has a size outside 1..{MAX_TMA_DIMENSION}", op)
    if not _is_contiguous_value(dst):
        raise TmaRewriteError(f"copy destination {dst.type} is not a contiguous buffer", op)
    element = cast(MemRefType, dst.type).element_type
    width = element_bit_width(element)
    if width is None or shape[-1] * width % 128:
        raise TmaRewriteError(
            f"box rows of {shape[-1]} x {element} are not a multiple of 16 bytes", op
        )


def _global_subview(
    op: Operation, src: SSAValue, launch: gpu.LaunchOp, rank: int
) -> memref.SubviewOp:
    """The unit-stride, rank-preserving subview of a memref defined above `launch` that
    `src` is, or why the copy cannot read it through a descriptor."""
    view = src.owner
    if (
        isinstance(view, memref.SubviewOp)
        and _defined_above(view.source, launch)
        and all(s == 1 for s in view.static_strides.get_values())
        and isinstance(view.source.type, MemRefType)
        and view.source.type.get_num_dims() == rank
    ):
        return view
    raise TmaRewriteError(
        "copy source is neither a memref defined above the gpu.launch nor a unit-stride, "
        "rank-preserving memref.subview of one",
        op,
    )


def _static_extent(value: SSAValue) -> tuple[int, ...] | None:
    """The static sizes of a buffer: its type's, or the constant sizes of the
    `memref.view` that makes it (what `structured.promote` makes)."""
    t = value.type
    if not isinstance(t, MemRefType):
        return None
    if t.has_static_shape():
        return tuple(t.get_shape())
    view = value.owner
    if not isinstance(view, memref.ViewOp):
        return None
    dynamic = iter(view.sizes)
    sizes = [d if d >= 0 else constant_index(next(dynamic)) for d in t.get_shape()]
    if any(d is None for d in sizes):
        return None
    return tuple(d for d in sizes if d is not None)


def _in_larger_buffer(dst: SSAValue) -> bool:
    """Whether `dst` is a static part of a larger static buffer: the edge tile of a
    dimension smaller than the tile (whose sizes fold to constants)."""
    view = dst.owner
    if not isinstance(view, memref.SubviewOp):
        return False
    extent = _static_extent(view.source)
    return extent is not None and extent != tuple(cast(MemRefType, dst.type).get_shape())


def _check_edge_copy(op: linalg.CopyOp, launch: gpu.LaunchOp) -> _Copy:
    """An edge copy (see the module docstring): a dynamic subview of the global memref
    into a subview at 0 of a static buffer, each dynamic size `min(box, dim - offset)`."""
    src, dst = op.inputs[0], op.outputs[0]
    src_t, dst_t = src.type, dst.type
    assert isinstance(src_t, MemRefType) and isinstance(dst_t, MemRefType)
    dynamic = f"copy of an edge tile ({src_t} to {dst_t})"
    edge = dst.owner
    if not isinstance(edge, memref.SubviewOp):
        raise TmaRewriteError(f"{dynamic} into no memref.subview of a static buffer", op)
    edge_offsets = mixed_values(edge.static_offsets, edge.offsets)
    edge_strides = mixed_values(edge.static_strides, edge.strides)
    box = _static_extent(edge.source)
    if (
        any(constant_index(v) != 0 for v in edge_offsets)
        or any(constant_index(v) != 1 for v in edge_strides)
        or box is None
        or len(box) != dst_t.get_num_dims()
    ):
        raise TmaRewriteError(
            f"{dynamic}: the destination is not a unit-stride subview at 0 of a buffer of "
            "static sizes (the box TMA loads whole)",
            op,
        )
    _check_box(op, box, edge.source)
    view = _global_subview(op, src, launch, len(box))
    g_t = view.source.type
    assert isinstance(g_t, MemRefType)
    if not g_t.has_static_shape():
        raise TmaRewriteError(
            f"{dynamic} from {g_t}: edge tiles need the global sizes to be static", op
        )
    offsets = mixed_values(view.static_offsets, view.offsets)
    src_sizes = mixed_values(view.static_sizes, view.sizes)
    dst_sizes = mixed_values(edge.static_sizes, edge.sizes)
    for d, (o, s, t, b, bound) in enumerate(
        zip(offsets, src_sizes, dst_sizes, box, g_t.get_shape(), strict=True)
    ):
        same = s is t or (constant_int(s) is not None and constant_int(s) == constant_int(t))
        if not same:
            raise TmaRewriteError(
                f"{dynamic}: source and destination sizes of dimension {d} differ", op
            )
        if not reaches_bound(s, o, b, bound):
            raise TmaRewriteError(
                f"{dynamic}: the size of dimension {d} is not min({b}, {bound} - offset) (a "
                f"box of {b} would load elements past the copy that TMA does not zero-fill)",
                op,
            )
    full_t = MemRefType(dst_t.element_type, box, dst_t.layout, dst_t.memory_space)
    return _Copy(op, view.source, tuple(offsets), full_t, edge.source, edge)


def reaches_bound(size: int | SSAValue, offset: int | SSAValue, box: int, bound: int) -> bool:
    """Whether `size` is `min(box, bound - offset)` (the size `tile_using_for` and
    `tile_using_forall` give an edge tile): then a box of `box` elements at `offset`
    holds the `size` elements and beyond them only elements at or past `bound`."""
    if constant_int(size) == box:
        return True
    o_terms, o_const = _linear(offset)
    if constant_int(size) is not None:
        return not o_terms and constant_int(size) == min(box, bound - o_const)
    assert isinstance(size, SSAValue)
    owner = size.owner
    if not isinstance(owner, affine.MinOp):
        return False
    amap = owner.map.data
    forms = [_affine_linear(r, list(owner.operands), amap.num_dims) for r in amap.results]
    edge: _Linear = ({k: -v for k, v in o_terms.items()}, bound - o_const)
    whole: _Linear = ({}, box)
    return forms in ([edge, whole], [whole, edge])


_Linear = tuple[dict[SSAValue, int], int]


def _linear(value: int | SSAValue, depth: int = 0) -> _Linear:
    """`value` as integer multiples of opaque values plus a constant, through constants,
    `arith.addi` / `subi` / `muli` by a constant and linear `affine.apply`."""
    const = constant_int(value)
    if const is not None:
        return {}, const
    assert isinstance(value, SSAValue)
    if depth < 16 and isinstance(value, OpResult):
        op = value.op
        if isinstance(op, arith.AddiOp | arith.SubiOp):
            sign = 1 if isinstance(op, arith.AddiOp) else -1
            return _combine(
                _linear(op.operands[0], depth + 1), _linear(op.operands[1], depth + 1), sign
            )
        if isinstance(op, arith.MuliOp):
            for a, b in ((0, 1), (1, 0)):
                factor = constant_int(op.operands[b])
                if factor is not None:
                    return _scale(_linear(op.operands[a], depth + 1), factor)
        if isinstance(op, affine.ApplyOp):
            m = op.map.data
            form = _affine_linear(m.results[0], list(op.mapOperands), m.num_dims, depth)
            if form is not None:
                return form
    return {value: 1}, 0


def _combine(a: _Linear, b: _Linear, sign: int) -> _Linear:
    terms = dict(a[0])
    for k, v in b[0].items():
        terms[k] = terms.get(k, 0) + sign * v
    return {k: v for k, v in terms.items() if v}, a[1] + sign * b[1]


def _scale(a: _Linear, factor: int) -> _Linear:
    return {k: v * factor for k, v in a[0].items() if v * factor}, a[1] * factor


def _affine_linear(
    expr: AffineExpr, operands: Sequence[SSAValue], num_dims: int, depth: int = 0
) -> _Linear | None:
    """A linear affine expression over `operands` (dims, then symbols), or None."""
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        position = expr.position if isinstance(expr, AffineDimExpr) else num_dims + expr.position
        return _linear(operands[position], depth + 1)
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        lhs = _affine_linear(expr.lhs, operands, num_dims, depth)
        rhs = _affine_linear(expr.rhs, operands, num_dims, depth)
        return None if lhs is None or rhs is None else _combine(lhs, rhs, 1)
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Mul
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        inner = _affine_linear(expr.lhs, operands, num_dims, depth)
        return None if inner is None else _scale(inner, expr.rhs.value)
    return None


def _enclosing_loop(op: Operation, launch: gpu.LaunchOp) -> scf.ForOp | None:
    """The one `scf.for` between `op` and `launch`; more than one is an error."""
    loops: list[scf.ForOp] = []
    parent = op.parent_op()
    while parent is not None and parent is not launch:
        if isinstance(parent, scf.ForOp):
            loops.append(parent)
        elif not isinstance(parent, scf.IfOp):
            raise TmaRewriteError(
                f"copy nested in '{parent.name}' inside the gpu.launch (only one scf.for "
                "is supported)",
                op,
            )
        parent = parent.parent_op()
    if len(loops) > 1:
        raise TmaRewriteError(
            f"copy nested in {len(loops)} scf.for loops inside the gpu.launch (one is "
            "supported: the barrier phase is the iteration's parity)",
            op,
        )
    return loops[0] if loops else None


def rewrite_copies_as_tma(
    rewriter: PatternRewriter, copies: Sequence[Operation], swizzle: str = "none"
) -> TmaCopies:
    """Rewrite `copies` (global-to-shared `linalg.copy`s of one `gpu.launch`, waited on
    together) into TMA loads completing on one mbarrier (see the module docstring);
    raises `TmaRewriteError` before changing anything when a copy does not qualify."""
    if not copies:
        raise ValueError("no copies to rewrite")
    launch = enclosing_launch(copies[0])
    for op in copies:
        other = enclosing_launch(op)
        if launch is None or other is not launch:
            raise TmaRewriteError(
                "target ops must be linalg.copy nested under a common gpu.launch (the TMA "
                "descriptors are created on the host)",
                op,
            )
    assert launch is not None
    checked = [_check_copy(op, launch) for op in copies]
    first = copies[0]
    loop = _enclosing_loop(first, launch)
    for op in copies[1:]:
        if op.parent_block() is not first.parent_block():
            raise TmaRewriteError("copies waited on together must be in one block", op)
    for c in checked:
        g_type = c.global_memref.type
        if not isinstance(g_type, MemRefType) or c.box.element_type != g_type.element_type:
            raise TmaRewriteError("copy converts the element type", c.op)
        if swizzle != "none":
            row_bytes = c.box.get_shape()[-1] * (element_bit_width(c.box.element_type) or 0) // 8
            span = SWIZZLE_SPAN[swizzle]
            if row_bytes % span:
                raise TmaRewriteError(
                    f"{swizzle} needs box rows of a multiple of {span} bytes, got {row_bytes}",
                    c.op,
                )

    # 0. Edge copies load their whole buffer: their destination becomes a subview of it.
    checked = [_whole_box(rewriter, c) for c in checked]

    # 1. Host: the descriptors, before the launch.
    before_launch = InsertPoint.before(launch)
    descriptors: list[ng.TmaCreateDescriptorOp] = []
    for c in checked:
        g = c.global_memref
        g_t = g.type
        assert isinstance(g_t, MemRefType)
        unranked = UnrankedMemRefType.from_type(g_t.element_type, g_t.memory_space)
        cast = CastOp.build(operands=[g], result_types=[unranked])
        rewriter.insert(cast, before_launch)
        box_shape = chunk_box(c.box, swizzle)
        sizes = [emit_index(rewriter, before_launch, d) for d in box_shape]
        box_t = MemRefType(c.box.element_type, box_shape, memory_space=AddressSpaceAttr.workgroup())
        desc = ng.TmaCreateDescriptorOp(
            cast.results[0], sizes, ng.TensorMapDescriptorType(box_t, swizzle=swizzle)
        )
        rewriter.insert(desc, before_launch)
        descriptors.append(desc)

    # 2. The barrier: at the first copy, or once at the start of the launch body.
    body = launch.body.block
    setup_at = InsertPoint.at_start(body) if loop is not None else InsertPoint.before(first)
    group = ng.MBarrierGroupType(AddressSpaceAttr.workgroup())
    create = ng.MBarrierCreateOp(group)
    rewriter.insert(create, setup_at)
    zero_setup = emit_index(rewriter, setup_at, 0)
    block_x, block_y, block_z = launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ
    sizes_known = [constant_index(v) for v in (block_x, block_y, block_z)]
    if all(s is not None for s in sizes_known):
        threads = emit_index(rewriter, setup_at, prod(s for s in sizes_known if s is not None))
    else:
        # The launch's sizes are block arguments of its body as well as operands.
        xy = arith.MuliOp(body.args[9], body.args[10])
        xyz = arith.MuliOp(xy, body.args[11])
        rewriter.insert([xy, xyz], setup_at)
        threads = xyz.result
    rewriter.insert(ng.MBarrierInitOp(create.barriers, threads, zero_setup), setup_at)
    rewriter.insert(gpu.BarrierOp(), setup_at)

    # 3. Thread 0 issues the loads and arms the barrier with their bytes.
    at = InsertPoint.before(first)
    if loop is not None:
        # Nobody may still read the tiles of the previous iteration.
        rewriter.insert(gpu.BarrierOp(), at)
    zero = emit_index(rewriter, at, 0)
    tid = gpu.ThreadIdOp("x")
    is_leader = CmpiOp(tid, zero, "eq")
    rewriter.insert([tid, is_leader], at)
    total_bytes = sum(
        prod(c.box.get_shape()) * (element_bit_width(c.box.element_type) or 0) // 8 for c in checked
    )
    then_block, else_block = Block(), Block()
    then_at, else_at = InsertPoint.at_end(then_block), InsertPoint.at_end(else_block)
    loads: list[ng.TmaAsyncLoadOp] = []
    for c, desc in zip(checked, descriptors, strict=True):
        box_shape = chunk_box(c.box, swizzle)
        chunks = c.box.get_shape()[-1] // box_shape[-1]
        for j in range(chunks):
            coordinates = [
                v if isinstance(v, SSAValue) else emit_index(rewriter, then_at, v)
                for v in c.offsets
            ]
            dst = c.dst
            if chunks > 1:
                dst = _chunk_view(rewriter, c.dst, box_shape, j, then_at)
                shift = emit_index(rewriter, then_at, j * box_shape[-1])
                inner = arith.AddiOp(coordinates[-1], shift)
                rewriter.insert(inner, then_at)
                coordinates[-1] = inner.result
            load = ng.TmaAsyncLoadOp(dst, create.barriers, desc.tensor_map, coordinates, zero)
            rewriter.insert(load, then_at)
            loads.append(load)
    tx = emit_index(rewriter, then_at, total_bytes)
    rewriter.insert(ng.MBarrierArriveExpectTxOp(create.barriers, tx, zero), then_at)
    rewriter.insert(scf.YieldOp(), then_at)
    rewriter.insert(ng.MBarrierArriveExpectTxOp(create.barriers, zero, zero), else_at)
    rewriter.insert(scf.YieldOp(), else_at)
    rewriter.insert(scf.IfOp(is_leader, [], Region(then_block), Region(else_block)), at)

    # 4. Everybody waits for the phase this step completes.
    parity = _phase_parity(rewriter, loop, at)
    ticks = emit_index(rewriter, at, TRY_WAIT_TICKS)
    rewriter.insert(ng.MBarrierTryWaitParityOp(create.barriers, parity, ticks, zero), at)
    for op in copies:
        rewriter.erase(op)
    return TmaCopies(tuple(loads), create, tuple(descriptors))


def _whole_box(rewriter: PatternRewriter, c: _Copy) -> _Copy:
    """For an edge copy, the subview of its whole buffer (what the load writes) and the
    copy's destination re-made as a subview of that; other copies as they are."""
    if c.edge is None:
        return c
    box = c.box.get_shape()
    whole = memref.SubviewOp(c.dst, [], [], [], [0] * len(box), list(box), [1] * len(box), c.box)
    rewriter.insert(whole, InsertPoint.before(c.edge))
    c.edge.operands = [whole.result, *c.edge.operands[1:]]
    return replace(c, dst=whole.result)


def chunk_box(tile: MemRefType, swizzle: str) -> tuple[int, ...]:
    """The TMA box that loads `tile`: the tile itself, or, when its rows are wider than the
    swizzle span (a 64 x 256 f16 tile of B under 128B swizzle), the column chunk one
    swizzle span wide; the chunks lie one after another in shared memory."""
    shape = tuple(tile.get_shape())
    if swizzle == "none":
        return shape
    width = element_bit_width(tile.element_type) or 0
    row_bytes = shape[-1] * width // 8
    if row_bytes <= SWIZZLE_SPAN[swizzle]:
        return shape
    return (*shape[:-1], SWIZZLE_SPAN[swizzle] * 8 // width)


def _chunk_view(
    rewriter: PatternRewriter, tile: SSAValue, box: tuple[int, ...], j: int, at: InsertPoint
) -> SSAValue:
    """Chunk `j` of a tile loaded in column chunks: a contiguous box at `j` boxes from the
    tile's start (the tile is contiguous at offset 0, `_is_contiguous_value`)."""
    tile_t = tile.type
    assert isinstance(tile_t, MemRefType)
    strides = [prod(box[i + 1 :]) for i in range(len(box))]
    offset = j * prod(box)
    view_t = MemRefType(
        tile_t.element_type,
        box,
        StridedLayoutAttr(strides, offset),
        tile_t.memory_space,
    )
    view = memref.ReinterpretCastOp(tile, [], [], [], [offset], list(box), strides, view_t)
    rewriter.insert(view, at)
    return view.result


def _phase_parity(rewriter: PatternRewriter, loop: scf.ForOp | None, at: InsertPoint) -> SSAValue:
    """The parity of the barrier phase this step waits for: 0 outside a loop, the parity of
    the iteration's number inside one."""
    if loop is None:
        false = arith.ConstantOp(IntegerAttr(0, i1))
        rewriter.insert(false, at)
        return false.result
    one = emit_index(rewriter, at, 1)
    zero = emit_index(rewriter, at, 0)
    distance = arith.SubiOp(loop.body.block.args[0], loop.lb)
    number = arith.DivUIOp(distance, loop.step)
    low_bit = arith.AndIOp(number, one)
    odd = CmpiOp(low_bit, zero, "ne")
    rewriter.insert([distance, number, low_bit, odd], at)
    return odd.result


__all__ = [
    "SWIZZLE_SPAN",
    "TRY_WAIT_TICKS",
    "TmaCopies",
    "TmaRewriteError",
    "chunk_box",
    "reaches_bound",
    "rewrite_copies_as_tma",
]
