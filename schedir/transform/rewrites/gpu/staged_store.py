"""The accumulators' store through shared memory (schedir's extension; upstream has no
transform for it): each warpgroup that stores an `nvgpu.warpgroup.mma.store` gets its own
staging buffer in the launch's dynamic shared memory, and the store becomes
`mma.store ... through` it (see `WarpgroupMmaStoreOp`): chunk by chunk of `columns`
columns, the threads write their values (the epilogue applied in registers) into the
buffer, meet at their warpgroup's named barrier and copy the chunk out in coalesced
16-byte pieces, instead of each thread's scattered 4-byte pairs in wgmma's fragment layout
(32-byte sectors half written).

    nvgpu.warpgroup.mma.store %acc, %c : !acc to memref<64x256xf16, strided<[N, 1], offset: ?>>
    // -> (columns = 64; f16: rows of 64 + 8 elements, 144 bytes: no bank conflicts)
    %buf = memref.view %dynamic[%end][] : memref<?xi8, 3> to memref<(W*64*72)xf16, 3>  // top
    %w = gpu.thread_id x / 128 - first;  %mine = reinterpret_cast %buf to offset: [%w * 64 * 72],
        sizes: [64, 64], strides: [72, 1]
    nvgpu.warpgroup.mma.store %acc, %c through %mine : !acc to ... through memref<64x64xf16, ...>

The warpgroups that store are the launch's (x size / 128) less the producer when the store
is a consumer's of `warp_specialize_tma_ring` (inside a role branch that raises the
register budget: the producer is warpgroup 0); buffer w is warpgroup first + w's. The
launch's dynamic shared memory grows by their buffers (after the TMA ring's, 128-byte
aligned).

Coalesced 16-byte stores need rows that start at 16-byte boundaries: the lowering uses
them when C's row stride is a static multiple of 16 bytes, and this rewrite checks that C's
view's column offsets are multiples of 16 bytes (static, or `affine.apply`/`arith.muli` by
such multiples: tiles of 64 columns or more) from a `memref.alloc` aligned to 16 bytes or
more or a function argument (16-byte aligned, as the TMA-loaded inputs already must be).

With `tma_buffers` B > 0 the chunks go out by TMA stores where C allows it (C's view is a
chain of unit-stride `memref.subview`s of a rank-2 memref defined above the launch, its
row stride a static multiple of 16 bytes, 16-byte aligned as above; a chunk of 128 bytes
per row, one 128B swizzle span; the accumulator's columns a multiple of B chunks):
before the launch, a TMA descriptor of C with the chunk's box (`swizzle_128b`; its rows
the warpgroup's, or with `tma_box_rows` = 16 a warp's: each warp then stores its own rows
after a warp barrier, no warpgroup barrier); each
storing warpgroup gets B unpadded, 1024-byte aligned buffers, the store becomes
`mma.store ... through %bufs to %desc[%row, %col]` (the coordinates: the subviews'
offsets summed), and the warpgroup's last bulk groups are waited for after the op that
holds the store in its role's block (`nvvm.cp.async.bulk.wait_group 0 read`: the block
must not exit while a TMA store still reads its shared memory). Where C does not allow it
(e.g. rows of 8194 bytes: no TMA descriptor describes them), the store goes through the
padded buffer and 16-byte stores as without B.

    %desc = nvgpu.tma.create.descriptor %c_unranked box[%c64, %c64] (before gpu.launch)
    %mine = memref.reinterpret_cast %buf to offset: [%w * 2 * 64 * 64],
        sizes: [2, 64, 64], strides: [4096, 64, 1]
    nvgpu.warpgroup.mma.store %acc, %c through %mine to %desc[%i, %j] : ...
    scf.for ... {...}   // the persistent tile loop holding the store
    nvvm.cp.async.bulk.wait_group 0 read
"""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    UnitAttr,
    UnrankedMemRefType,
    i32,
)
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr, AffineExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine, gpu, nvvm
from schedir.dialects import nvgpu as ng
from schedir.dialects.gpu.attributes import AddressSpaceAttr
from schedir.dialects.memref import CastOp
from schedir.dialects.nvgpu.types import element_bit_width
from schedir.dialects.nvgpu.warpgroup import STAGING_ALIGNMENT, WARP_ROWS, element_bytes
from schedir.dialects.utils import DYNAMIC_INDEX, mixed_values
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.gpu.tma import enclosing_launch
from schedir.transform.rewrites.gpu.tma_ring import MAX_RING_BYTES
from schedir.transform.rewrites.rewriter import PayloadRewriteError, emit, emit_index

WARPGROUP_THREADS = 128
"""Threads of a warpgroup."""
ROW_PADDING_BYTES = 16
"""Padding of each staging row: a 128-byte row in 144 bytes spreads the 8 rows a warp's
fragment store touches over all 32 banks."""
BUFFER_ALIGNMENT = 128
"""Byte alignment of the staging buffers in dynamic shared memory."""
TMA_SWIZZLE = "swizzle_128b"
"""The swizzle of the TMA stores' staging buffers (conflict-free fragment writes into
unpadded 128-byte rows; the TMA store undoes it)."""
TMA_CHUNK_BYTES = 128
"""Bytes per row of a TMA-stored chunk: one 128B swizzle span."""
TMA_BUFFER_ALIGNMENT = 1024
"""Byte alignment of 128B-swizzled TMA boxes in shared memory (8 rows of 128 bytes)."""
TMA_ROW_ALIGNMENT = 16
"""Bytes a TMA tensor's row stride (and base address) must be a multiple of."""


class StagedStoreError(PayloadRewriteError):
    """A store that cannot go through shared memory, with the reason and the op to blame."""


def _multiple_expr(expr: AffineExpr, multiple: int) -> bool:
    """Whether an affine expression is a multiple of `multiple` for any operands."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value % multiple == 0
    if isinstance(expr, AffineBinaryOpExpr):
        if expr.kind == AffineBinaryOpKind.Add:
            return _multiple_expr(expr.lhs, multiple) and _multiple_expr(expr.rhs, multiple)
        if expr.kind == AffineBinaryOpKind.Mul:
            return _multiple_expr(expr.lhs, multiple) or _multiple_expr(expr.rhs, multiple)
    return False


def _multiple(value: SSAValue | int, multiple: int) -> bool:
    """Whether an index value is provably a multiple of `multiple`."""
    known = constant_int(value)
    if known is not None:
        return known % multiple == 0
    assert isinstance(value, SSAValue)
    owner = value.owner
    if isinstance(owner, affine.ApplyOp):
        results = owner.map.data.results
        return len(results) == 1 and _multiple_expr(results[0], multiple)
    if isinstance(owner, arith.MuliOp):
        return _multiple(owner.lhs, multiple) or _multiple(owner.rhs, multiple)
    if isinstance(owner, arith.AddiOp):
        return _multiple(owner.lhs, multiple) and _multiple(owner.rhs, multiple)
    return False


def _rows_aligned(dst: SSAValue, elements: int) -> bool:
    """Whether every row of the view `dst` starts `elements`-aligned in its buffer, given a
    row stride that is a multiple: its views' column offsets are, down to an aligned
    allocation or a function argument (see the module docstring)."""
    value = dst
    while True:
        owner = value.owner
        if isinstance(owner, memref.SubviewOp):
            static = owner.static_offsets.get_values()
            column = static[-1]
            if column == DYNAMIC_INDEX:
                dynamic = [i for i, s in enumerate(static) if s == DYNAMIC_INDEX]
                column_value: SSAValue | int = owner.offsets[dynamic.index(len(static) - 1)]
            else:
                column_value = column
            if owner.static_strides.get_values()[-1] != 1 or not _multiple(column_value, elements):
                return False
            value = owner.source
        elif isinstance(owner, memref.CastOp):
            value = owner.source
        elif isinstance(owner, memref.AllocOp):
            alignment = owner.alignment
            return alignment is not None and alignment.value.data % STAGING_ALIGNMENT == 0
        else:
            return isinstance(value, BlockArgument) and isinstance(owner, Block)


def _storing_warpgroups(store: ng.WarpgroupMmaStoreOp, launch: gpu.LaunchOp) -> tuple[int, int]:
    """The first warpgroup that stores and how many do: all of the launch's, or all but the
    producer (warpgroup 0) for a consumer's store of `warp_specialize_tma_ring`."""
    threads = constant_int(launch.blockSizeX)
    if (
        threads is None
        or threads % WARPGROUP_THREADS
        or constant_int(launch.blockSizeY) != 1
        or constant_int(launch.blockSizeZ) != 1
    ):
        raise StagedStoreError(
            f"the gpu.launch's block must be whole warpgroups along x ({WARPGROUP_THREADS} "
            "x k threads, static)",
            store,
        )
    op: Operation | None = store
    while op is not None and op is not launch:
        block = op.parent_block()
        first = block.first_op if block is not None else None
        if (
            isinstance(first, nvvm.SetMaxRegisterOp)
            and first.action.data == nvvm.SetMaxRegisterAction.INCREASE
        ):
            return 1, threads // WARPGROUP_THREADS - 1
        op = op.parent_op()
    return 0, threads // WARPGROUP_THREADS


def _dynamic_memory(launch: gpu.LaunchOp) -> tuple[gpu.DynamicSharedMemoryOp, int, int]:
    """The launch's dynamic shared memory op, its bytes and the operand index of its size."""
    dynamic = next(
        (op for op in launch.body.block.ops if isinstance(op, gpu.DynamicSharedMemoryOp)), None
    )
    size = launch.dynamicSharedMemorySize
    known = constant_int(size)
    if dynamic is None or size is None or known is None:
        raise StagedStoreError(
            "the gpu.launch has no static dynamic shared memory at its top level (the TMA "
            "ring's, which the staging buffers follow)",
            launch,
        )
    index = next(i for i, operand in enumerate(launch.operands) if operand is size)
    return dynamic, known, index


Offset = list[SSAValue | int]
"""An index offset as the terms to sum (the subviews' offsets along one dimension)."""


def _tensor_origin(dst: SSAValue, launch: gpu.LaunchOp) -> tuple[SSAValue, list[Offset]] | None:
    """The rank-2 memref defined above `launch` that `dst` is a chain of unit-stride
    subviews of, and the offsets of `dst`'s first element in it (None if it is not)."""
    offsets: list[Offset] = [[], []]
    value = dst
    while isinstance(value.owner, memref.SubviewOp):
        view = value.owner
        source_t = view.source.type
        if (
            not isinstance(source_t, MemRefType)
            or source_t.get_num_dims() != 2
            or len(view.static_sizes.get_values()) != 2
            or any(stride != 1 for stride in view.static_strides.get_values())
        ):
            return None
        for terms, term in zip(
            offsets, mixed_values(view.static_offsets, view.offsets), strict=True
        ):
            terms.append(term)
        value = view.source
    root_t = value.type
    if not isinstance(root_t, MemRefType) or root_t.get_num_dims() != 2:
        return None
    defined_in = value.block.parent_op() if isinstance(value, BlockArgument) else value.owner
    if not isinstance(defined_in, Operation) or launch.is_ancestor(defined_in):
        return None
    return value, offsets


def _tma_describable(root: SSAValue, width: int) -> bool:
    """Whether a TMA descriptor describes the rank-2 memref `root` as it lies: unit
    column stride, a static row stride of a multiple of 16 bytes, a 16-byte aligned
    start (an aligned `memref.alloc` or a function argument)."""
    t = root.type
    assert isinstance(t, MemRefType)
    layout = t.layout
    if isinstance(layout, NoneAttr):
        row = t.get_shape()[1]
        offset: int | None = 0
    elif isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        if strides[1] != 1 or not isinstance(strides[0], int):
            return False
        row, offset = (
            strides[0],
            layout.get_offset() if isinstance(layout.get_offset(), int) else None,
        )
    else:
        return False
    if row == DYNAMIC_INDEX or row * width % TMA_ROW_ALIGNMENT or offset is None:
        return False
    if offset * width % TMA_ROW_ALIGNMENT:
        return False
    owner = root.owner
    if isinstance(owner, memref.AllocOp):
        alignment = owner.alignment
        return alignment is not None and alignment.value.data % TMA_ROW_ALIGNMENT == 0
    return isinstance(root, BlockArgument)


def _role_end(store: Operation, launch: gpu.LaunchOp) -> Operation:
    """The op that holds `store` in its warpgroup role's block (a consumer branch of
    `warp_specialize_tma_ring`) or in the launch's body: the warpgroup is done storing
    after it."""
    op = store
    while True:
        block = op.parent_block()
        assert block is not None
        first = block.first_op
        if block.parent_op() is launch or (
            isinstance(first, nvvm.SetMaxRegisterOp)
            and first.action.data == nvvm.SetMaxRegisterAction.INCREASE
        ):
            return op
        parent = op.parent_op()
        assert parent is not None
        op = parent


def stage_accumulator_store(
    rewriter: PatternRewriter,
    store: Operation,
    columns: int,
    tma_buffers: int = 0,
    tma_box_rows: int = 0,
    stmatrix: bool = False,
) -> None:
    """Make `store` (an `nvgpu.warpgroup.mma.store`) go through shared memory in chunks of
    `columns` columns, stored out by TMA through `tma_buffers` buffers per warpgroup where
    the destination allows it, in boxes of `tma_box_rows` rows (16: each warp its own;
    0: the accumulator's), the buffers written by `stmatrix` if asked (see the module
    docstring; `columns` 0 leaves it); raises `StagedStoreError` before changing anything
    when it does not qualify."""
    if columns == 0:
        return
    if not isinstance(store, ng.WarpgroupMmaStoreOp):
        raise StagedStoreError("target is not an nvgpu.warpgroup.mma.store", store)
    if store.staging is not None:
        raise StagedStoreError("the store already goes through shared memory", store)
    acc = store.matrix_d.type
    assert isinstance(acc, ng.WarpgroupAccumulatorType)
    rows, n = acc.fragmented.get_shape()
    dst_t = store.dst_memref.type
    assert isinstance(dst_t, MemRefType)
    width = element_bytes(dst_t.element_type)
    lanes = STAGING_ALIGNMENT // width
    pieces = rows * columns // lanes
    if columns < 0 or n % columns or (columns * width) % STAGING_ALIGNMENT or pieces % 128:
        raise StagedStoreError(
            f"columns must divide the accumulator's {n} columns in chunks of a multiple of "
            f"{STAGING_ALIGNMENT} bytes per row ({rows} rows of them a multiple of "
            f"{WARPGROUP_THREADS} pieces of {STAGING_ALIGNMENT} bytes), got {columns}",
            store,
        )
    if tma_buffers < 0 or (
        tma_buffers and (columns * width != TMA_CHUNK_BYTES or n % (columns * tma_buffers))
    ):
        raise StagedStoreError(
            f"a TMA store takes chunks of {TMA_CHUNK_BYTES} bytes per row "
            f"({TMA_CHUNK_BYTES // width} columns), a multiple of {tma_buffers} of them in the "
            f"accumulator's {n} columns, got {columns} columns",
            store,
        )
    box_rows = tma_box_rows or rows
    if box_rows not in (WARP_ROWS, rows):
        raise StagedStoreError(
            f"a TMA store's boxes are a warp's {WARP_ROWS} rows or the accumulator's {rows}, "
            f"got {tma_box_rows}",
            store,
        )
    if not _rows_aligned(store.dst_memref, lanes):
        raise StagedStoreError(
            "the destination's column offsets are not provably multiples of "
            f"{STAGING_ALIGNMENT} bytes from an aligned buffer (the 16-byte pieces need them)",
            store,
        )
    launch = enclosing_launch(store)
    if launch is None:
        raise StagedStoreError("the store is not inside a gpu.launch", store)
    origin = _tensor_origin(store.dst_memref, launch) if tma_buffers else None
    if origin is not None and not _tma_describable(origin[0], width):
        origin = None
    first, count = _storing_warpgroups(store, launch)
    dynamic, used, size_index = _dynamic_memory(launch)
    if origin is None:
        pitch = columns + ROW_PADDING_BYTES // width
        buffers, alignment = 1, BUFFER_ALIGNMENT
    else:
        pitch = columns
        buffers, alignment = tma_buffers, TMA_BUFFER_ALIGNMENT
    elements = buffers * rows * pitch
    offset = -(-used // alignment) * alignment
    total = offset + count * elements * width
    if total > MAX_RING_BYTES:
        raise StagedStoreError(
            f"{count * buffers} staging buffers of {rows}x{pitch} take the dynamic shared "
            f"memory to {total} bytes (at most {MAX_RING_BYTES})",
            store,
        )

    # The buffers, after the ring's; the launch reserves them.
    shift = arith.ConstantOp(IntegerAttr(offset, IndexType()))
    rewriter.insert(shift, InsertPoint.after(dynamic))
    buffers_t = MemRefType(
        dst_t.element_type, [count * elements], memory_space=AddressSpaceAttr.workgroup()
    )
    all_buffers = memref.ViewOp(dynamic.resultMemref, shift.result, [], buffers_t)
    rewriter.insert(all_buffers, InsertPoint.after(shift))
    size = arith.ConstantOp(IntegerAttr(total, i32))
    rewriter.insert(size, InsertPoint.before(launch))
    launch.operands[size_index] = size.result

    # This warpgroup's buffers, where the store is.
    at = InsertPoint.before(store)
    tid = emit(rewriter, at, gpu.ThreadIdOp("x"))
    warpgroup = emit(rewriter, at, arith.DivUIOp(tid, emit_index(rewriter, at, WARPGROUP_THREADS)))
    mine = emit(rewriter, at, arith.SubiOp(warpgroup, emit_index(rewriter, at, first)))
    start = emit(rewriter, at, arith.MuliOp(mine, emit_index(rewriter, at, elements)))
    if origin is None:
        shape, strides = [rows, columns], [pitch, 1]
    else:
        shape, strides = [buffers, rows, columns], [rows * columns, columns, 1]
    view_t = MemRefType(
        dst_t.element_type,
        shape,
        StridedLayoutAttr(strides, None),
        AddressSpaceAttr.workgroup(),
    )
    view = memref.ReinterpretCastOp(
        all_buffers.result, [start], [], [], [DYNAMIC_INDEX], shape, strides, view_t
    )
    rewriter.insert(view, at)
    epilogue = store.epilogue.clone() if store.epilogue is not None else None
    if origin is None:
        staged = ng.WarpgroupMmaStoreOp(store.matrix_d, store.dst_memref, epilogue, view.result)
    else:
        root, offsets = origin
        descriptor = _descriptor(rewriter, launch, root, box_rows, columns)
        coordinates = [_emit_offset(rewriter, at, o) for o in offsets]
        staged = ng.WarpgroupMmaStoreOp(
            store.matrix_d, store.dst_memref, epilogue, view.result, descriptor, coordinates
        )
        drain = nvvm.CpAsyncBulkWaitGroupOp(0, read=True)
        rewriter.insert(drain, InsertPoint.after(_role_end(store, launch)))
    staged.attributes.update(store.attributes)
    if stmatrix:
        if width != 2:
            raise StagedStoreError(
                f"stmatrix stores 16-bit elements, the destination's are {width} bytes", store
            )
        staged.stmatrix = UnitAttr()
    rewriter.replace(store, staged)


def _emit_offset(rewriter: PatternRewriter, at: InsertPoint, terms: Offset) -> SSAValue:
    """The sum of an offset's terms as an index value emitted at `at`."""
    total = sum(t for t in terms if isinstance(t, int))
    values = [t for t in terms if not isinstance(t, int)]
    if total or not values:
        values.insert(0, emit_index(rewriter, at, total))
    result = values[0]
    for value in values[1:]:
        result = emit(rewriter, at, arith.AddiOp(result, value))
    return result


def _descriptor(
    rewriter: PatternRewriter, launch: gpu.LaunchOp, root: SSAValue, rows: int, columns: int
) -> SSAValue:
    """A TMA descriptor of `root` with a box of `rows` x `columns` (128B-swizzled), made
    before the launch."""
    root_t = root.type
    assert isinstance(root_t, MemRefType)
    before = InsertPoint.before(launch)
    unranked = UnrankedMemRefType.from_type(root_t.element_type, root_t.memory_space)
    cast = CastOp.build(operands=[root], result_types=[unranked])
    rewriter.insert(cast, before)
    sizes = [emit_index(rewriter, before, d) for d in (rows, columns)]
    box_t = MemRefType(
        root_t.element_type, [rows, columns], memory_space=AddressSpaceAttr.workgroup()
    )
    desc = ng.TmaCreateDescriptorOp(
        cast.results[0], sizes, ng.TensorMapDescriptorType(box_t, swizzle=TMA_SWIZZLE)
    )
    rewriter.insert(desc, before)
    assert element_bit_width(root_t.element_type)
    return desc.tensor_map


__all__ = ["StagedStoreError", "stage_accumulator_store"]
