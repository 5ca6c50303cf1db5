"""convert-gpu-to-nvvm: the nvgpu ops of device code to NVPTX intrinsics and inline PTX.

Every op with an LLVM 22 intrinsic becomes an `llvm.call_intrinsic` (the LLVM IR
translation checks the PTX for names LLVM does not know); what has none is inline PTX, as
upstream's NVVM-to-LLVM lowering and Triton emit it:

* mbarriers: `mbarrier.create` -> an internal `[N x i64]` `addrspace(3)` global;
  `init` / `arrive` / `arrive.nocomplete` / `arrive.expect_tx` / `test.wait` ->
  `llvm.nvvm.mbarrier.*` (the predicated forms and the blocking `try_wait.parity` loop
  as inline PTX);
* TMA: `tma.async.load` -> `llvm.nvvm.cp.async.bulk.tensor.g2s.tile.<N>d` (coordinates
  innermost first, completing on the mbarrier), `tma.async.store` -> `...s2g.tile.<N>d`,
  `tma.prefetch.descriptor` -> `llvm.nvvm.prefetch.tensormap`, `tma.fence.descriptor` ->
  `fence.proxy.tensormap::generic.acquire.gpu` (PTX ISA 8.3: ptxas rejects it under
  `+ptx80`); the descriptor is a pointer to its 128
  bytes (a kernel argument pointing to device memory);
* wgmma: `warpgroup.generate.descriptor` -> the 64-bit matrix descriptor of a
  128B-swizzled tile (start address >> 4, stride 1024 B, swizzle bit 62; a tile wider
  than 128 bytes is loaded in column chunks of one box each, and the leading byte offset
  is the chunk's size, box rows x 128 B, as upstream computes it);
  `warpgroup.mma` -> `llvm.nvvm.wgmma.fence.sync.aligned`, one inline-PTX
  `wgmma.mma_async.sync.aligned.m64n<N>k16` per 64 rows and 16 of K with the accumulator
  registers tied to the results, `llvm.nvvm.wgmma.commit_group.sync.aligned` and an
  inline-PTX `wgmma.wait_group.sync.aligned <waitGroup>` that ties the accumulators
  through (so nothing reads them before the wait and ptxas does not serialize);
  `warpgroup.mma.init.accumulator` -> zeros (inline PTX movs); `warpgroup.mma.store` -> a tied
  `wgmma.wait_group 0` (a pipelined loop leaves its last group in flight), per-thread stores in
  the D-fragment layout (warp w owns rows 16w..16w+15 of each 64; lane l holds, for each
  8 columns j, row l/4 (+8) and columns 8j + 2(l%4) + {0, 1});
* cp.async: `device_async_copy` -> `llvm.nvvm.cp.async.{ca,cg}.shared.global.<bytes>[.s]`,
  `device_async_create_group` -> `...commit.group`, `device_async_wait` -> `...wait.group`.

Limits (diagnostics, not wrong code): wgmma operands must be 128B-swizzled tiles (A: M x 64
f16/bf16, K-major; B: K x N N-major, N a multiple of 64 up to 256, in 64-column chunks), f32
accumulators, no `transposeA`/`transposeB`; TMA copies without `predicate`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import copysign

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i16,
    i32,
    i64,
)
from xdsl.dialects.llvm import InlineAsmOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from schedir.dialects import llvm, nvvm
from schedir.dialects import nvgpu as ng
from schedir.dialects.nvgpu.warpgroup import element_bytes, staging_strides
from schedir.lowering.llvm.common import Handler, Lowering, const, unsupported
from schedir.lowering.llvm.memref import Descriptor, element_pointer
from schedir.lowering.llvm.nvgpu_types import WARPGROUP_THREADS, WGMMA_ROWS, accumulator_struct
from schedir.lowering.nvvm.kernels import PASS, insert_at_top
from schedir.lowering.nvvm.mma_sync import MMA_SYNC_LOWERINGS
from schedir.transform.rewrites.constants import constant_float

PTR_SHARED = llvm.LLVMPointerType(IntAttr(3))
PTR_SHARED_CLUSTER = llvm.LLVMPointerType(IntAttr(7))
PTR_GLOBAL = llvm.LLVMPointerType(IntAttr(1))
SWIZZLE_ROW_BYTES = 128
"""Bytes of one row of a 128B-swizzled wgmma operand tile."""
MAX_WGMMA_N = 256
"""Widest N of one wgmma instruction."""
_DESCRIPTOR_BITS = ((8 * SWIZZLE_ROW_BYTES >> 4) << 32) | (1 << 62)
"""Stride byte offset 1024 (8 rows of 128 B), 128B swizzle; the leading byte offset (bits
16-29) is set per tile."""


def _intrinsic(
    lw: Lowering, op: Operation, name: str, args: list[SSAValue], result: Attribute | None = None
) -> SSAValue | None:
    call = llvm.CallIntrinsicOp(name, args, [] if result is None else [result])
    lw.insert(call, op)
    return call.results[0] if call.results else None


def _asm(
    lw: Lowering,
    op: Operation,
    text: str,
    constraints: str,
    args: list[SSAValue],
    result: Attribute | None = None,
) -> SSAValue | None:
    asm = InlineAsmOp(
        text, constraints, args, [] if result is None else [result], has_side_effects=True
    )
    lw.insert(asm, op)
    return asm.results[0] if asm.results else None


def _positions(*position: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, position)


def _i32(lw: Lowering, op: Operation, index: SSAValue) -> SSAValue:
    """An index operand as the i32 the intrinsics take."""
    return lw.emit(op)(llvm.TruncOp(lw.value(index, op), i32))


def _module_of(op: Operation) -> ModuleOp:
    current = op.parent_op()
    while current is not None and not isinstance(current, ModuleOp):
        current = current.parent_op()
    assert current is not None, "device code lowers inside a module"
    return current


def _memref(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, MemRefType)
    return t


def _base_pointer(lw: Lowering, op: Operation, value: SSAValue) -> SSAValue:
    """The address of a memref's first element."""
    emit = lw.emit(op)
    return element_pointer(
        lw, emit, Descriptor(lw, op, lw.value(value, op), _memref(value)), [], op
    )


SWIZZLE_ALIGNMENT = 1024
"""Bytes a swizzled TMA box or wgmma tile must be aligned to in shared memory (the
swizzle pattern repeats every 8 rows of 128 bytes)."""


_VIEWS = (
    memref.SubviewOp,
    memref.ViewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
)
"""View-like ops whose result starts in the buffer of their first operand."""


def _align_shared(op: Operation, value: SSAValue, alignment: int) -> None:
    """Raise the alignment of the shared-memory global `value` reads to `alignment` (a
    tile allocated by `memref.alloc` in workgroup memory is such a global by now)."""
    owner = value.owner
    # Promoted tiles reach the TMA copy or descriptor through views of the allocation
    # (`memref.view` of an i8 buffer, a zero-offset `subview`, casts): raise the base's
    # alignment (raising it is always safe; an offset view is checked by ptxas/the GPU).
    while isinstance(owner, _VIEWS):
        owner = owner.operands[0].owner
    if not isinstance(owner, memref.GetGlobalOp):
        return
    module = _module_of(op)
    name = owner.name_.string_value()
    for candidate in module.ops:
        if isinstance(candidate, memref.GlobalOp) and candidate.sym_name.data == name:
            current = candidate.alignment
            if current is None or current.value.data < alignment:
                candidate.alignment = IntegerAttr(alignment, i64)


# ---------------------------------------------------------------------------------------
# mbarriers


def _barrier(lw: Lowering, op: Operation, barriers: SSAValue, mbar_id: SSAValue) -> SSAValue:
    """The address of barrier `mbar_id` of a group."""
    return lw.emit(op)(llvm.GEPOp(lw.value(barriers, op), [lw.value(mbar_id, op)], i64))


def _create(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierCreateOp)
    group = op.barriers.type
    assert isinstance(group, ng.MBarrierGroupType)
    module = _module_of(op)
    name = f"__mbarrier_{sum(1 for o in module.ops if isinstance(o, llvm.GlobalOp))}"
    array = llvm.LLVMArrayType(group.num_barriers.data, i64)
    undef = llvm.UndefOp(array)
    body = Region([Block([undef, llvm.ReturnOp(undef.results[0])])])
    glob = llvm.GlobalOp(array, name, "internal", 3, alignment=8, body=body)
    glob.location = op.location
    insert_at_top(module, glob)
    lw.replace(op, [lw.emit(op)(llvm.AddressOfOp(SymbolRefAttr(name), PTR_SHARED))])


def _init(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierInitOp)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    count = _i32(lw, op, op.count)
    if op.predicate is None:
        _intrinsic(lw, op, "llvm.nvvm.mbarrier.init.shared", [bar, count])
    else:
        pred = lw.value(op.predicate, op)
        _asm(lw, op, "@$2 mbarrier.init.shared.b64 [$0], $1;", "l,r,b", [bar, count, pred])
    lw.replace(op, [])


def _arrive_expect_tx(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierArriveExpectTxOp)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    tx = _i32(lw, op, op.txcount)
    if op.predicate is None:
        _intrinsic(
            lw, op, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", [bar, tx], i64
        )
    else:
        pred = lw.value(op.predicate, op)
        _asm(
            lw,
            op,
            "@$2 mbarrier.arrive.expect_tx.shared.b64 _, [$0], $1;",
            "l,r,b",
            [bar, tx, pred],
        )
    lw.replace(op, [])


def _arrive(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierArriveOp)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    token = _intrinsic(lw, op, "llvm.nvvm.mbarrier.arrive.shared", [bar], i64)
    assert token is not None
    lw.replace(op, [token])


def _arrive_nocomplete(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierArriveNoCompleteOp)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    count = _i32(lw, op, op.count)
    token = _intrinsic(lw, op, "llvm.nvvm.mbarrier.arrive.noComplete.shared", [bar, count], i64)
    assert token is not None
    lw.replace(op, [token])


def _test_wait(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierTestWaitOp)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    done = _intrinsic(
        lw, op, "llvm.nvvm.mbarrier.test.wait.shared", [bar, lw.value(op.token, op)], i1
    )
    assert done is not None
    lw.replace(op, [done])


_TRY_WAIT_LOOP = (
    "{\n.reg .pred P1;\nLAB_WAIT:\n"
    "mbarrier.try_wait.parity.shared.b64 P1, [$0], $1, $2;\n"
    "@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}"
)
"""Upstream's blocking wait: each try suspends up to `ticks`; the loop retries."""


def _try_wait_parity(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.MBarrierTryWaitParityOp)
    emit = lw.emit(op)
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    parity = emit(llvm.ZExtOp(lw.value(op.phase_parity, op), i32))
    ticks = _i32(lw, op, op.ticks)
    _asm(lw, op, _TRY_WAIT_LOOP, "l,r,r", [bar, parity, ticks])
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# TMA


def _coordinates(lw: Lowering, op: Operation, coordinates: tuple[SSAValue, ...]) -> list[SSAValue]:
    """TMA coordinates innermost first, as i32 (the op lists them outermost first)."""
    return [_i32(lw, op, c) for c in reversed(coordinates)]


def _tma_load(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.TmaAsyncLoadOp)
    if op.predicate is not None:
        raise unsupported(PASS, op, "a predicated TMA load is not lowered yet")
    emit = lw.emit(op)
    if ng.tma.descriptor_of(op).swizzle_bytes:
        _align_shared(op, op.dst, SWIZZLE_ALIGNMENT)
    dst = emit(llvm.AddrSpaceCastOp(_base_pointer(lw, op, op.dst), PTR_SHARED_CLUSTER))
    bar = _barrier(lw, op, op.barriers, op.mbar_id)
    tmap = lw.value(op.tensor_map_descriptor, op)
    if op.multicast_mask is not None:
        mask, use_mask = lw.value(op.multicast_mask, op), const(emit, 1, i1)
    else:
        mask, use_mask = const(emit, 0, i16), const(emit, 0, i1)
    rank = len(op.coordinates)
    args = [
        dst,
        bar,
        tmap,
        *_coordinates(lw, op, op.coordinates),
        mask,
        const(emit, 0, i64),
        use_mask,
        const(emit, 0, i1),
        const(emit, 0, i32),
    ]
    _intrinsic(lw, op, f"llvm.nvvm.cp.async.bulk.tensor.g2s.tile.{rank}d", args)
    lw.replace(op, [])


def _tma_store(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.TmaAsyncStoreOp)
    if op.predicate is not None:
        raise unsupported(PASS, op, "a predicated TMA store is not lowered yet")
    emit = lw.emit(op)
    if ng.tma.descriptor_of(op).swizzle_bytes:
        _align_shared(op, op.src, SWIZZLE_ALIGNMENT)
    src = _base_pointer(lw, op, op.src)
    tmap = lw.value(op.tensor_map_descriptor, op)
    rank = len(op.coordinates)
    args = [
        src,
        tmap,
        *_coordinates(lw, op, op.coordinates),
        const(emit, 0, i64),
        const(emit, 0, i1),
    ]
    _intrinsic(lw, op, f"llvm.nvvm.cp.async.bulk.tensor.s2g.tile.{rank}d", args)
    lw.replace(op, [])


def _tma_prefetch(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.TmaPrefetchOp)
    tmap = lw.value(op.tensor_map_descriptor, op)
    if op.predicate is None:
        _intrinsic(lw, op, "llvm.nvvm.prefetch.tensormap", [tmap])
    else:
        pred = lw.value(op.predicate, op)
        _asm(lw, op, "@$1 prefetch.tensormap [$0];", "l,b", [tmap, pred])
    lw.replace(op, [])


def _tma_fence(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.TmaFenceOp)
    tmap = lw.value(op.tensor_map_descriptor, op)
    _asm(lw, op, "fence.proxy.tensormap::generic.acquire.gpu [$0], 128;", "l", [tmap])
    lw.replace(op, [])


# ---------------------------------------------------------------------------------------
# wgmma


def _element_name(t: Attribute) -> str | None:
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    return None


def _row_bytes(t: MemRefType) -> int | None:
    name = _element_name(t.element_type)
    return None if name is None else t.get_shape()[-1] * 2


def _rows_fit_box(tile: MemRefType, box: tuple[int, ...], row_bytes: int) -> bool:
    """Whether a tile's rows are those the descriptor can step through: the box's rows
    for a tile of several column chunks (the leading byte offset is the box's size), or
    whole 8-row swizzle atoms of one box for a one-chunk tile (a consumer warpgroup's rows
    of a warp-specialized block's A tile)."""
    rows = tile.get_shape()[:-1]
    if row_bytes == SWIZZLE_ROW_BYTES and len(rows) == 1 and len(box) == 2:
        return rows[0] % 8 == 0 and rows[0] <= box[0]
    return tuple(rows) == tuple(box[:-1])


def _generate_descriptor(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.WarpgroupGenerateDescriptorOp)
    tile = _memref(op.tensor)
    tmap = op.tensor_map.type
    assert isinstance(tmap, ng.TensorMapDescriptorType)
    box = tmap.tensor.get_shape()
    row_bytes = _row_bytes(tile)
    if (
        row_bytes is None
        or row_bytes % SWIZZLE_ROW_BYTES
        or len(box) != 2
        or _row_bytes(tmap.tensor) != SWIZZLE_ROW_BYTES
        or not _rows_fit_box(tile, box, row_bytes)
    ):
        raise unsupported(
            PASS,
            op,
            "wgmma descriptors of tiles with rows of a multiple of 128 bytes of f16/bf16, "
            f"loaded in boxes of 128-byte rows, only, not {tile} from boxes {tmap.tensor}",
        )
    emit = lw.emit(op)
    _align_shared(op, op.tensor, SWIZZLE_ALIGNMENT)
    address = emit(llvm.PtrToIntOp(_base_pointer(lw, op, op.tensor), i64))
    # The shared-window offset (18 bits), in 16-byte units.
    low = emit(llvm.AndOp(address, lw.constant(0x3FFFF, i64, op)))
    start = emit(llvm.LShrOp(low, lw.constant(4, i64, op)))
    # A tile wider than 128 bytes lies in column chunks of one box each: the leading byte
    # offset steps from one chunk to the next along N (upstream: box rows x swizzle bytes).
    leading = box[0] * SWIZZLE_ROW_BYTES >> 4 if row_bytes > SWIZZLE_ROW_BYTES else 1
    bits = _DESCRIPTOR_BITS | (leading << 16)
    lw.replace(op, [emit(llvm.OrOp(start, lw.constant(bits, i64, op)))])


def _init_accumulator(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.WarpgroupMmaInitAccumulatorOp)
    acc = op.matrix_c.type
    assert isinstance(acc, ng.WarpgroupAccumulatorType)
    struct = accumulator_struct(acc.fragmented)
    inner = struct.types.data[0]
    assert isinstance(inner, llvm.LLVMStructType)
    # Zeros from inline PTX where the op is, not constants: LLVM would sink constant
    # zeros into the loop's first MMAs (peeling it), and ptxas then injects
    # warpgroup.arrive/wait around them (C7517/C7519).
    count = len(inner.types.data)
    text = "\n".join(f"mov.b32 ${i}, 0;" for i in range(count))
    emit = lw.emit(op)
    result = emit(llvm.UndefOp(struct))
    for block in range(len(struct.types.data)):
        zeros = _asm(lw, op, text, ",".join(["=f"] * count), [], inner)
        assert zeros is not None
        result = emit(llvm.InsertValueOp(_positions(block), result, zeros))
    lw.replace(op, [result])


def _tied_asm(
    lw: Lowering,
    op: Operation,
    text: str,
    struct: llvm.LLVMStructType,
    values: SSAValue,
    extra: list[tuple[str, SSAValue]],
) -> SSAValue:
    """Inline PTX whose `=f` results are tied to the fields of `values` (one struct)."""
    emit = lw.emit(op)
    count = len(struct.types.data)
    fields = [
        emit(llvm.ExtractValueOp(_positions(i), values, struct.types.data[i])) for i in range(count)
    ]
    constraints = ",".join(["=f"] * count + [str(i) for i in range(count)] + [c for c, _ in extra])
    result = _asm(lw, op, text, constraints, [*fields, *(v for _, v in extra)], struct)
    assert result is not None
    return result


def _mma(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.WarpgroupMmaOp)
    if op.transposeA is not None or op.transposeB is not None:
        raise unsupported(PASS, op, "transposed wgmma operands are not lowered yet")
    a = op.descriptor_a.type
    b = op.descriptor_b.type
    acc = op.matrix_c.type
    assert isinstance(a, ng.WarpgroupMatrixDescriptorType)
    assert isinstance(b, ng.WarpgroupMatrixDescriptorType)
    assert isinstance(acc, ng.WarpgroupAccumulatorType)
    (m, k), (_, n) = a.tensor.get_shape(), b.tensor.get_shape()
    ab = _element_name(a.tensor.element_type)
    b_row = _row_bytes(b.tensor)
    if (
        ab is None
        or _row_bytes(a.tensor) != SWIZZLE_ROW_BYTES
        or b_row is None
        or b_row % SWIZZLE_ROW_BYTES
        or n > MAX_WGMMA_N
        or m % WGMMA_ROWS
        or not isinstance(acc.fragmented.get_element_type(), Float32Type)
    ):
        raise unsupported(
            PASS,
            op,
            "wgmma is lowered for f32 += f16/bf16 tiles (A: Mx64 with M a multiple of 64, "
            f"B: KxN with N a multiple of 64 up to {MAX_WGMMA_N}) only, not {a.tensor} x "
            f"{b.tensor}",
        )
    emit = lw.emit(op)
    desc_a, desc_b = lw.value(op.descriptor_a, op), lw.value(op.descriptor_b, op)
    outer = accumulator_struct(acc.fragmented)
    inner = outer.types.data[0]
    assert isinstance(inner, llvm.LLVMStructType)
    registers = len(inner.types.data)
    outputs = ", ".join(f"${i}" for i in range(registers))
    instruction = (
        "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
        f"wgmma.mma_async.sync.aligned.m64n{n}k16.f32.{ab}.{ab} "
        f"{{{outputs}}}, ${2 * registers}, ${2 * registers + 1}, p, 1, 1, 0, 1;\n}}"
    )
    _intrinsic(lw, op, "llvm.nvvm.wgmma.fence.sync.aligned", [])
    result = lw.value(op.matrix_c, op)
    for block in range(m // WGMMA_ROWS):
        tile = emit(llvm.ExtractValueOp(_positions(block), result, inner))
        for step in range(k // 16):
            # A is K-major: 64 rows further is 64 x 128 B, 16 of K is 32 B; B is N-major:
            # 16 of K is 16 rows of 128 B (addresses in 16-byte units).
            da = emit(
                llvm.AddOp(
                    desc_a, lw.constant((block * 64 * SWIZZLE_ROW_BYTES + step * 32) >> 4, i64, op)
                )
            )
            db = emit(
                llvm.AddOp(desc_b, lw.constant((step * 16 * SWIZZLE_ROW_BYTES) >> 4, i64, op))
            )
            tile = _tied_asm(lw, op, instruction, inner, tile, [("l", da), ("l", db)])
        result = emit(llvm.InsertValueOp(_positions(block), result, tile))
    _intrinsic(lw, op, "llvm.nvvm.wgmma.commit_group.sync.aligned", [])
    lw.replace(op, [_wait_for_accumulators(lw, op, result, outer, inner, op.wait_group)])


def _right_after(value: SSAValue, op: Operation) -> Operation:
    """Where the accumulators' last wait before `op` (the store) goes: right after
    `value` (the k loop's result) is defined when that is in `op`'s block, else at the
    start of `op`'s block (after its argument casts: the loop's result is an argument of
    its header, which runs every step), before the store's address arithmetic. Code
    between the last wgmma and its wait (that arithmetic, which LLVM places just before
    its first use) may hold a call (ptxas's 16- and 64-bit integer division), and around
    a call ptxas reads the in-flight accumulators before the wait (sm_90a, ptxas 13.0: a
    persistent tile loop's f16 conversions read accumulators without the last k step)."""
    block = op.parent_block()
    assert block is not None
    owner = value.owner
    if isinstance(owner, Operation) and owner.parent_block() is block:
        assert owner.next_op is not None
        return owner.next_op
    anchor = block.first_op
    # (after the casts of the block's arguments, which come first)
    while (
        isinstance(anchor, UnrealizedConversionCastOp)
        and all(isinstance(v, BlockArgument) and v.block is block for v in anchor.operands)
        and anchor.next_op is not None
    ):
        anchor = anchor.next_op
    assert anchor is not None
    return anchor


def _wait_for_accumulators(
    lw: Lowering,
    op: Operation,
    result: SSAValue,
    outer: llvm.LLVMStructType,
    inner: llvm.LLVMStructType,
    pending: int,
) -> SSAValue:
    """`wgmma.wait_group <pending>` with every accumulator register tied through it, so
    that nothing reads them before the wait (and ptxas does not serialize the wgmma)."""
    emit = lw.emit(op)
    wait = f"// wait for the accumulators\nwgmma.wait_group.sync.aligned {pending};"
    for block in range(len(outer.types.data)):
        tile = emit(llvm.ExtractValueOp(_positions(block), result, inner))
        tile = _tied_asm(lw, op, wait, inner, tile, [])
        result = emit(llvm.InsertValueOp(_positions(block), result, tile))
    return result


Pair = tuple[SSAValue, SSAValue, list[SSAValue], int, int]
"""A thread's pair of adjacent stored values: row, column, the values, and the row's and
column's offsets from the thread's first pair (static)."""


def _mma_store(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.WarpgroupMmaStoreOp)
    acc = op.matrix_d.type
    assert isinstance(acc, ng.WarpgroupAccumulatorType)
    m, n = acc.fragmented.get_shape()
    emit = lw.emit(op)
    dst = _memref(op.dst_memref)
    desc = Descriptor(lw, op, lw.value(op.dst_memref, op), dst)
    outer = accumulator_struct(acc.fragmented)
    inner = outer.types.data[0]
    assert isinstance(inner, llvm.LLVMStructType)
    accumulators = lw.value(op.matrix_d, op)
    values = _wait_for_accumulators(
        lw, _right_after(accumulators, op), accumulators, outer, inner, 0
    )
    tid = emit(llvm.ZExtOp(emit(nvvm.SREG_OPS["tid.x"]()), i64))

    def c(v: int) -> SSAValue:
        return lw.constant(v, i64, op)

    thread = emit(llvm.URemOp(tid, c(WARPGROUP_THREADS)))
    warp = emit(llvm.UDivOp(thread, c(32)))
    lane = emit(llvm.URemOp(thread, c(32)))
    row0 = emit(llvm.AddOp(emit(llvm.MulOp(warp, c(16))), emit(llvm.UDivOp(lane, c(4)))))
    col0 = emit(llvm.MulOp(emit(llvm.URemOp(lane, c(4))), c(2)))
    out = dst.element_type
    # An edge tile (dynamic or smaller sizes) stores only what lies inside them.
    whole = tuple(dst.get_shape()) == (m, n)
    bounds = None if whole else (desc.size(0), desc.size(1))

    def position(block: int, j: int, half: int) -> tuple[SSAValue, SSAValue]:
        """This thread's row and column of its pair in row block `block`, 8-column group
        `j` and row half `half` (the wgmma fragment layout)."""
        row = emit(llvm.AddOp(row0, c(block * WGMMA_ROWS + 8 * half)))
        return row, emit(llvm.AddOp(col0, c(8 * j)))

    # The epilogue's loads (e.g. a bias by column) for every pair of the tile, issued
    # before any of its stores: their latencies overlap instead of each stalling the
    # chunk or the stores after it (a global store may alias a later global load, so
    # neither LLVM nor ptxas moves the loads above the stores, nor above the staged
    # store's barriers). Not for the bounded stores from registers of an edge tile, whose
    # masks and addresses leave no registers for them (ptxas spills at 168), nor for the
    # TMA-stored chunks of an edge tile (the descriptor, coordinates and leader live across
    # the store: 4-48 bytes of spills with the bias + relu epilogue).
    loaded: dict[tuple[int, int, int], list[dict[SSAValue, SSAValue]]] = {}
    if (
        op.epilogue is not None
        and ((op.staging is not None and op.tensor_map is None) or bounds is None)
        and 0 < _prefetch_bytes(op.epilogue, m, n) <= PREFETCH_BYTES
    ):
        for block in range(m // WGMMA_ROWS):
            for j in range(n // 8):
                for half in range(2):
                    row, col = position(block, j, half)
                    loaded[block, j, half] = _prefetch_epilogue(
                        lw, op, op.epilogue, row, col, bounds
                    )

    def pairs(columns: range) -> Iterator[Pair]:
        """This thread's (row, column, two stored values, and the row's and column's
        static offsets from its first) in the accumulator's columns `columns` (whole
        8-column groups): the epilogue or the rounding applied, emitted as the caller
        takes each (so that each pair is stored before the next is made: few values live
        at once)."""
        for block in range(m // WGMMA_ROWS):
            for j in range(columns.start // 8, columns.stop // 8):
                for half in range(2):
                    row, col = position(block, j, half)
                    pair = [
                        emit(
                            llvm.ExtractValueOp(
                                _positions(block, 4 * j + 2 * half + e), values, Float32Type()
                            )
                        )
                        for e in range(2)
                    ]
                    if op.epilogue is not None:
                        pair = _apply_epilogue(
                            lw,
                            op,
                            op.epilogue,
                            pair,
                            row,
                            col,
                            bounds,
                            loaded.get((block, j, half)),
                        )
                    elif not isinstance(out, Float32Type):
                        # f16 / bf16 out: arith.truncf's round to nearest even.
                        pair = [emit(llvm.FPTruncOp(v, out)) for v in pair]
                    yield row, col, pair, block * WGMMA_ROWS + 8 * half, 8 * j

    if op.tensor_map is not None:
        _tma_staged_store(lw, op, tid, thread, pairs)
        lw.replace(op, [])
        return
    if op.staging is not None:
        _staged_store(lw, op, desc, bounds, tid, thread, pairs)
        lw.replace(op, [])
        return
    # A whole tile of a static row stride: every pair's address a constant offset from
    # the thread's first (LLVM then carries that one's alignment to all: an f16 pair is
    # one 4-byte store where it proves the first 4-byte aligned).
    strides = staging_strides(dst)
    first = None
    if bounds is None and strides is not None:
        first = element_pointer(lw, emit, desc, [row0, col0], op)
    element = lw.convert(out, op)
    for row, col, pair, row_offset, col_offset in pairs(range(n)):
        if bounds is None:
            # One store of the adjacent pair, aligned to an element (LLVM raises it).
            vector = emit(llvm.PoisonOp(VectorType(out, [2])))
            for e, value in enumerate(pair):
                vector = emit(llvm.InsertElementOp(vector, value, c(e)))
            if first is not None and strides is not None:
                offset = row_offset * strides[0] + col_offset
                pointer = emit(llvm.GEPOp(first, [c(offset)], element, flags=3))
            else:
                pointer = element_pointer(lw, emit, desc, [row, col], op)
            lw.insert(llvm.StoreOp(vector, pointer, alignment=element_bytes(out)), op)
        else:
            _bounded_pair_store(lw, op, desc, bounds, row, col, pair)
    lw.replace(op, [])


STAGING_PIECE_BYTES = 16
"""Bytes each thread copies out of the staging buffer at a time (a 16-byte vector)."""


def _staging(
    lw: Lowering, op: ng.WarpgroupMmaStoreOp
) -> tuple[Callable[[Operation], SSAValue], Callable[[int], SSAValue], int, MemRefType]:
    """What both staged stores start from: the op's emitter, an i64 constant maker, the
    accumulator's columns and the staging buffer's type (the op has one)."""
    assert op.staging is not None
    acc = op.matrix_d.type
    assert isinstance(acc, ng.WarpgroupAccumulatorType)

    def c(v: int) -> SSAValue:
        return lw.constant(v, i64, op)

    return lw.emit(op), c, acc.fragmented.get_shape()[1], _memref(op.staging)


def _staged_store(
    lw: Lowering,
    op: ng.WarpgroupMmaStoreOp,
    desc: Descriptor,
    bounds: tuple[SSAValue, SSAValue] | None,
    tid: SSAValue,
    thread: SSAValue,
    pairs: Callable[[range], Iterator[Pair]],
) -> None:
    """`mma.store ... through %staging`: chunk by chunk of the staging buffer's columns,
    the warpgroup writes its values into it (a pair of adjacent elements per store),
    meets at its named barrier, and copies the chunk out to the destination row by row, a
    16-byte piece per thread (each warp's pieces contiguous in rows); the barrier again
    before the next chunk overwrites the buffer. At an edge tile a piece's elements past
    the bounds are masked off (and a piece whose row is past them writes nothing). The
    pieces are stored 16-byte aligned when the destination's row stride is a static
    multiple of 16 bytes (its tiles start at multiples of 8 elements: columns of tiles of
    64 or more); otherwise the chunk goes out element by element, each warp's 32 adjacent
    in a row (`_copy_out_elements`)."""
    assert op.staging is not None
    emit, c, n, staging_t = _staging(lw, op)
    stage = Descriptor(lw, op, lw.value(op.staging, op), staging_t)
    rows, chunk = staging_t.get_shape()
    out = staging_t.element_type
    width = element_bytes(out)
    staging_pitch = staging_strides(staging_t)
    assert staging_pitch is not None
    strides_row_bytes = staging_pitch[0] * width
    lanes = STAGING_PIECE_BYTES // width
    dst_t = _memref(op.dst_memref)
    strides = staging_strides(dst_t)
    aligned = strides is not None and (strides[0] * width) % STAGING_PIECE_BYTES == 0
    piece_t = VectorType(out, [lanes])
    pair_t = VectorType(out, [2])
    # Warpgroup w of the block meets at barrier 1 + w (0 is the block's gpu.barrier).
    barrier = emit(
        llvm.TruncOp(emit(llvm.AddOp(emit(llvm.UDivOp(tid, c(WARPGROUP_THREADS))), c(1))), i32)
    )
    count = lw.constant(WARPGROUP_THREADS, i32, op)

    def sync() -> None:
        _intrinsic(lw, op, "llvm.nvvm.barrier.cta.sync.aligned.count", [barrier, count])

    per_row = chunk // lanes
    pieces = rows * per_row
    if pieces % WARPGROUP_THREADS:
        raise unsupported(
            PASS,
            op,
            f"a staging chunk of {pieces} 16-byte pieces (not a multiple of the warpgroup's "
            f"{WARPGROUP_THREADS} threads)",
        )
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    zero = c(0)
    matrices = None
    if op.stmatrix:
        base = element_pointer(lw, emit, stage, [c(0), c(0)], op)
        matrices = _MatrixStores(lw, op, base, thread, strides_row_bytes, False)
    for first in range(0, n, chunk):
        sync()  # the chunk before is copied out
        for row, col, pair, row_offset, col_offset in pairs(range(first, first + chunk)):
            if matrices is not None:
                block = row_offset - row_offset % WGMMA_ROWS
                offset = block * strides_row_bytes
                matrices.add(pair, out, offset, (col_offset - first) // 8 // 2 * 2)
                continue
            vector = emit(llvm.PoisonOp(pair_t))
            for e in range(2):
                vector = emit(llvm.InsertElementOp(vector, pair[e], c(e)))
            at = [row, emit(llvm.SubOp(col, c(first)))]
            pointer = element_pointer(lw, emit, stage, at, op)
            lw.insert(llvm.StoreOp(vector, pointer, alignment=2 * width), op)
        sync()  # the chunk is in the buffer
        if not aligned:
            _copy_out_elements(lw, op, desc, stage, bounds, thread, rows, chunk, first)
            continue
        for k in range(pieces // WARPGROUP_THREADS):
            index = emit(llvm.AddOp(thread, c(k * WARPGROUP_THREADS)))
            row = emit(llvm.UDivOp(index, c(per_row)))
            col = emit(llvm.MulOp(emit(llvm.URemOp(index, c(per_row))), c(lanes)))
            source = element_pointer(lw, emit, stage, [row, col], op)
            piece = emit(llvm.LoadOp(source, piece_t, alignment=STAGING_PIECE_BYTES))
            column = emit(llvm.AddOp(col, c(first)))
            if bounds is None:
                target = element_pointer(lw, emit, desc, [row, column], op)
                alignment = STAGING_PIECE_BYTES if aligned else width
                lw.insert(llvm.StoreOp(piece, target, alignment=alignment), op)
                continue
            # The elements of the piece inside the bounds: the first `left` (none when its
            # row is past them); a piece with none is addressed at (0, 0), inside the
            # memref, and writes nothing.
            row_in = emit(llvm.ICmpOp(row, bounds[0], slt))
            left = emit(llvm.SelectOp(row_in, emit(llvm.SubOp(bounds[1], column)), zero))
            some = emit(llvm.ICmpOp(zero, left, slt))
            at = [emit(llvm.SelectOp(some, v, zero)) for v in (row, column)]
            target = element_pointer(lw, emit, desc, at, op)
            _bounded_piece_store(lw, op, target, piece, left, aligned)


class _MatrixStores:
    """A warp's fragment pairs into a shared buffer with `stmatrix` (four 8x8 matrices a
    store: rows r and r + 8 of 8-column groups j and j + 1, as `pairs` gives them in
    turn): lane l addresses row l mod 8 of matrix l / 8, row 16 w + 8 ((l / 8) mod 2) +
    l mod 8 of the buffer, 16-byte piece j + l / 16 of it; in a 128B-swizzled buffer that
    piece xor the row mod 8 (l mod 8): j even, so the lane's part is the xor
    ((l / 16) xor (l mod 8)) x 16 of the group's piece j x 16."""

    def __init__(
        self,
        lw: Lowering,
        op: Operation,
        base: SSAValue,
        thread: SSAValue,
        pitch: int,
        swizzled: bool,
    ) -> None:
        self.lw, self.op, self.swizzled = lw, op, swizzled
        emit = lw.emit(op)

        def k(v: int) -> SSAValue:
            return lw.constant(v, i32, op)

        thread32 = emit(llvm.TruncOp(thread, i32))
        lane = emit(llvm.URemOp(thread32, k(32)))
        r = emit(llvm.AndOp(lane, k(7)))
        q = emit(llvm.LShrOp(lane, k(3)))
        warp = emit(llvm.UDivOp(thread32, k(32)))
        row = emit(llvm.AddOp(emit(llvm.MulOp(warp, k(WARP_ROWS))), r))
        row = emit(llvm.AddOp(row, emit(llvm.MulOp(emit(llvm.AndOp(q, k(1))), k(8)))))
        base32 = emit(llvm.TruncOp(emit(llvm.PtrToIntOp(base, i64)), i32))
        self.row = emit(llvm.AddOp(base32, emit(llvm.MulOp(row, k(pitch)))))
        # the piece l / 16 of the group (xor the row mod 8 where swizzled), in bytes
        piece = emit(llvm.LShrOp(q, k(1)))
        if swizzled:
            piece = emit(llvm.XOrOp(piece, r))
        self.piece = emit(llvm.ShlOp(piece, k(4)))
        self.group: list[SSAValue] = []

    def add(self, pair: list[SSAValue], out: Attribute, offset: int, piece: int) -> None:
        """Take the next pair of `pairs`; after the fourth, store the four matrices: their
        rows start `offset` bytes into the buffer, their group's first piece is `piece`
        (even) of the row."""
        emit = self.lw.emit(self.op)
        vector = emit(llvm.PoisonOp(VectorType(out, [2])))
        for e in range(2):
            vector = emit(llvm.InsertElementOp(vector, pair[e], self.lw.constant(e, i64, self.op)))
        self.group.append(emit(llvm.BitcastOp(vector, i32)))
        if len(self.group) < 4:
            return
        lw, op = self.lw, self.op
        at = emit(llvm.AddOp(self.row, lw.constant(offset, i32, op)))
        if self.swizzled:
            lane_piece = emit(llvm.XOrOp(self.piece, lw.constant(16 * piece, i32, op)))
        else:
            lane_piece = emit(llvm.AddOp(self.piece, lw.constant(16 * piece, i32, op)))
        at = emit(llvm.AddOp(at, lane_piece))
        _asm(lw, op, _STMATRIX, "r,r,r,r,r", [at, *self.group])
        self.group = []


_TMA_STORE_CHUNK = (
    "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$2, $3}], [$4];\n"
    "@$0 cp.async.bulk.commit_group;"
)
"""The warpgroup's leader stores a staged chunk by TMA (coordinates innermost first) and
commits it as a bulk async-group of its own."""


WARP_ROWS = 16
"""Rows of each 64-row block of the accumulator a warp holds (the D-fragment layout)."""
_STMATRIX = "stmatrix.sync.aligned.m8n8.x4.shared.b16 [$0], {$1, $2, $3, $4};"
"""Four 8x8 matrices of 16-bit pairs from the warp's registers (the mma fragment layout:
lane l holds row l / 4, columns 2 (l mod 4) and + 1 of each) into shared memory."""


def _tma_staged_store(
    lw: Lowering,
    op: ng.WarpgroupMmaStoreOp,
    tid: SSAValue,
    thread: SSAValue,
    pairs: Callable[[range], Iterator[Pair]],
) -> None:
    """`mma.store ... through %bufs to %tmap[%i, %j]`: chunk c of the accumulator's
    columns goes into buffer c mod B in TMA's 128B-swizzled layout (the 16-byte piece k
    of row r at piece k xor r mod 8: a warp's pair stores, 8 rows of one 16-byte piece,
    hit distinct banks), each thread fences its writes for the async proxy, and the
    threads that wrote a box meet and one of them stores it by TMA at (%i + the box's
    first row, %j + the chunk's first column) and commits it. A box of the accumulator's
    rows: the warpgroup meets at its named barrier, its thread 0 stores; a box of 16 rows:
    each warp writes only its own rows (16 of each 64), so it meets at `bar.warp.sync`
    alone and its lane 0 stores them (a box per 64-row block), no warpgroup barrier at
    all. Before meeting, the storing thread waits until the TMA store that read the next
    chunk's buffer is done reading it (at most B - 2 groups pending); with one buffer,
    before each chunk's writes (a wait and a meeting). The chunks per tile are a multiple
    of B, so the next tile's chunks take the buffers in the same turn and the wait covers
    them too."""
    assert op.staging is not None and op.tensor_map is not None
    emit, c, n, staging_t = _staging(lw, op)
    buffers, rows, chunk = staging_t.get_shape()
    box_rows = ng.tma.descriptor_of(op).tensor.get_shape()[0]
    out = staging_t.element_type
    width = element_bytes(out)
    row_bytes = chunk * width
    _align_shared(op, op.staging, SWIZZLE_ALIGNMENT)
    stage = Descriptor(lw, op, lw.value(op.staging, op), staging_t)
    base = element_pointer(lw, emit, stage, [c(0), c(0), c(0)], op)
    tmap = lw.value(op.tensor_map, op)
    row0, col0 = (_i32(lw, op, v) for v in op.coordinates)
    eq = IntegerAttr(llvm.ICmpPredicateFlag("eq").to_int(), i64)
    byte = IntegerType(8)
    by_warp = box_rows != rows
    if by_warp:
        # The warp's boxes: its rows 16 w + 64 b of each 64-row block b.
        leader = emit(llvm.ICmpOp(emit(llvm.URemOp(thread, c(32))), c(0), eq))
        warp_row = emit(llvm.MulOp(emit(llvm.UDivOp(thread, c(32))), c(WARP_ROWS)))
        boxes = [emit(llvm.AddOp(warp_row, c(b))) for b in range(0, rows, WGMMA_ROWS)]
        full = lw.constant(-1, i32, op)

        def sync() -> None:
            _intrinsic(lw, op, "llvm.nvvm.bar.warp.sync", [full])
    else:
        leader = emit(llvm.ICmpOp(thread, c(0), eq))
        boxes = [c(0)]
        barrier = emit(
            llvm.TruncOp(emit(llvm.AddOp(emit(llvm.UDivOp(tid, c(WARPGROUP_THREADS))), c(1))), i32)
        )
        count = lw.constant(WARPGROUP_THREADS, i32, op)

        def sync() -> None:
            _intrinsic(lw, op, "llvm.nvvm.barrier.cta.sync.aligned.count", [barrier, count])

    def wait_read(pending: int) -> None:
        _asm(lw, op, f"@$0 cp.async.bulk.wait_group.read {pending};", "b", [leader])

    pair_t = VectorType(out, [2])
    matrices = _MatrixStores(lw, op, base, thread, row_bytes, True) if op.stmatrix else None
    for index, first in enumerate(range(0, n, chunk)):
        buffer = index % buffers
        if buffers == 1:
            wait_read(0)  # the chunk before is read out of the one buffer
            sync()
        for row, col, pair, row_offset, col_offset in pairs(range(first, first + chunk)):
            if matrices is not None:
                block = row_offset - row_offset % WGMMA_ROWS
                offset = (buffer * rows + block) * row_bytes
                matrices.add(pair, out, offset, (col_offset - first) // 8 // 2 * 2)
                continue
            vector = emit(llvm.PoisonOp(pair_t))
            for e in range(2):
                vector = emit(llvm.InsertElementOp(vector, pair[e], c(e)))
            # The 128B swizzle: the row's 16-byte piece index xor the row mod 8.
            column = emit(llvm.MulOp(emit(llvm.SubOp(col, c(first))), c(width)))
            phase = emit(llvm.ShlOp(emit(llvm.AndOp(row, c(7))), c(4)))
            within = emit(llvm.XOrOp(column, phase))
            at = emit(llvm.AddOp(emit(llvm.MulOp(row, c(row_bytes))), within))
            at = emit(llvm.AddOp(at, c(buffer * rows * row_bytes)))
            pointer = emit(llvm.GEPOp(base, [at], byte, flags=3))
            lw.insert(llvm.StoreOp(vector, pointer, alignment=2 * width), op)
        _asm(lw, op, "fence.proxy.async.shared::cta;", "", [])
        if buffers > 1:
            wait_read(buffers - 2)  # the next chunk's buffer is read out
        sync()
        column0 = emit(llvm.AddOp(col0, lw.constant(first, i32, op)))
        for box_row in boxes:
            offset = emit(llvm.MulOp(box_row, c(row_bytes)))
            offset = emit(llvm.AddOp(offset, c(buffer * rows * row_bytes)))
            source = emit(llvm.GEPOp(base, [offset], byte, flags=3))
            # (a 32-bit shared-window address: one register)
            source32 = emit(llvm.TruncOp(emit(llvm.PtrToIntOp(source, i64)), i32))
            box_row0 = emit(llvm.AddOp(row0, emit(llvm.TruncOp(box_row, i32))))
            _asm(lw, op, _TMA_STORE_CHUNK, "b,l,r,r,r", [leader, tmap, column0, box_row0, source32])


def _copy_out_elements(
    lw: Lowering,
    op: ng.WarpgroupMmaStoreOp,
    desc: Descriptor,
    stage: Descriptor,
    bounds: tuple[SSAValue, SSAValue] | None,
    thread: SSAValue,
    rows: int,
    chunk: int,
    first: int,
) -> None:
    """Copy the staged chunk (`rows` x `chunk`, columns `first`.. of the destination) out
    element by element where the destination's rows are not 16-byte aligned (an f16 N of
    4097: rows of 8194 bytes): index k x 128 + thread is (row, column) (k x 128 +
    thread) / chunk, mod chunk, so each warp writes 32 adjacent elements of one row (a
    coalesced store over 2 or 3 sectors) instead of 16-byte pieces in 8 element stores
    that each touch 16 sectors; at an edge tile each element is stored only inside
    `bounds`."""
    emit = lw.emit(op)

    def c(v: int) -> SSAValue:
        return lw.constant(v, i64, op)

    dst_t = _memref(op.dst_memref)
    out = dst_t.element_type
    width = element_bytes(out)
    bits = 8 * width
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    zero = c(0)
    assert chunk % WARPGROUP_THREADS == 0 or WARPGROUP_THREADS % chunk == 0
    # (chunk divides 128 or 128 divides it: the thread's first row and column, and each
    # step's static offsets from them)
    if chunk <= WARPGROUP_THREADS:
        row0 = emit(llvm.UDivOp(thread, c(chunk)))
        col0 = emit(llvm.URemOp(thread, c(chunk)))
    else:
        row0, col0 = zero, thread
    column0 = emit(llvm.AddOp(col0, c(first)))
    # Each step's target a static offset from the first (held in few registers: LLVM
    # would otherwise keep each step's address arithmetic live across the tile loop), and
    # its bounds check against what is left of the edge tile past the first.
    strides = staging_strides(dst_t)
    base = element_pointer(lw, emit, desc, [row0, column0], op)
    if base.type != PTR_GLOBAL:
        base = emit(llvm.AddrSpaceCastOp(base, PTR_GLOBAL))
    left = (
        None
        if bounds is None
        else (emit(llvm.SubOp(bounds[0], row0)), emit(llvm.SubOp(bounds[1], column0)))
    )
    element = lw.convert(out, op)
    register = "r" if bits == 32 else "h"
    for k in range(rows * chunk // WARPGROUP_THREADS):
        step = k * WARPGROUP_THREADS
        d_row, d_col = (step // chunk, 0) if chunk <= WARPGROUP_THREADS else divmod(step, chunk)
        row = emit(llvm.AddOp(row0, c(d_row)))
        col = emit(llvm.AddOp(col0, c(d_col)))
        source = element_pointer(lw, emit, stage, [row, col], op)
        value = emit(llvm.LoadOp(source, out, alignment=width))
        if strides is not None:
            offset = c(d_row * strides[0] + d_col)
            target = emit(llvm.GEPOp(base, [offset], element))
        else:
            target = element_pointer(lw, emit, desc, [row, emit(llvm.AddOp(col, c(first)))], op)
            if target.type != PTR_GLOBAL:
                target = emit(llvm.AddrSpaceCastOp(target, PTR_GLOBAL))
        if left is None:
            lw.insert(llvm.StoreOp(value, target, alignment=width), op)
            continue
        inside = emit(
            llvm.AndOp(
                emit(llvm.ICmpOp(c(d_row), left[0], slt)),
                emit(llvm.ICmpOp(c(d_col), left[1], slt)),
            )
        )
        # (the store of an element outside is predicated off: its address is not used)
        _asm(
            lw,
            op,
            f"{{\n.reg .pred p;\nsetp.ne.b32 p, $0, 0;\n@p st.global.b{bits} [$1], $2;\n}}",
            f"r,l,{register}",
            [
                emit(llvm.ZExtOp(inside, i32)),
                target,
                emit(llvm.BitcastOp(value, IntegerType(bits))),
            ],
        )


def _bounded_piece_store(
    lw: Lowering,
    op: Operation,
    target: SSAValue,
    piece: SSAValue,
    left: SSAValue,
    aligned: bool,
) -> None:
    """Store the first `left` (i64) elements of the 16-byte `piece` at `target`, without
    branches (inline PTX: LLVM would scalarize a masked store into a branch per element,
    and a predicate per element spills): a whole piece (`left` at least its elements,
    `aligned` target) with one 16-byte store, the elements of a partial one with element
    stores, each predicated on `left` in the instruction's own predicate registers."""
    emit = lw.emit(op)
    piece_t = piece.type
    assert isinstance(piece_t, VectorType)
    lanes = piece_t.get_shape()[0]
    element = piece_t.get_element_type()
    bits = 32 if isinstance(element, Float32Type) else 16
    if target.type != PTR_GLOBAL:
        target = emit(llvm.AddrSpaceCastOp(target, PTR_GLOBAL))
    address = emit(llvm.PtrToIntOp(target, i64))
    # min(left, lanes): fits the i32 the predicates are set from.
    limit = lw.constant(lanes, i64, op)
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    n = emit(
        llvm.TruncOp(emit(llvm.SelectOp(emit(llvm.ICmpOp(left, limit, slt)), left, limit)), i32)
    )
    values = [
        emit(
            llvm.BitcastOp(
                emit(llvm.ExtractElementOp(piece, lw.constant(e, i64, op))), IntegerType(bits)
            )
        )
        for e in range(lanes)
    ]
    step = bits // 8
    register = "r" if bits == 32 else "h"
    lines = [".reg .pred w, q;", f"setp.lt.s32 w, $0, {lanes};"]
    args = [n, address]
    constraints = ["r", "l"]
    if aligned:
        words = emit(llvm.BitcastOp(piece, VectorType(i32, [4])))
        args += [emit(llvm.ExtractElementOp(words, lw.constant(e, i64, op))) for e in range(4)]
        constraints += ["r"] * 4
        lines.append("@!w st.global.v4.b32 [$1], {$2, $3, $4, $5};")
        first = 6
    else:
        lines.append("setp.ge.s32 w, $0, 0;")  # no whole-piece store: every element alone
        first = 2
    for e in range(lanes):
        lines.append(f"setp.gt.and.s32 q, $0, {e}, w;")
        lines.append(f"@q st.global.b{bits} [$1+{e * step}], ${first + e};")
    args += values
    constraints += [register] * lanes
    _asm(lw, op, "{\n" + "\n".join(lines) + "\n}", ",".join(constraints), args)


def _epilogue_loads(epilogue: Region) -> set[Operation]:
    """The epilogue's `memref.load`s that do not depend on the accumulator's value (its
    block's first argument) and the ops their operands come from: what can be issued
    ahead of the stores."""
    block = epilogue.block
    tainted: set[SSAValue] = {block.args[0]}
    free: set[Operation] = set()
    for body_op in block.ops:
        if any(operand in tainted for operand in body_op.operands):
            tainted.update(body_op.results)
        elif body_op.results and not body_op.regions:
            free.add(body_op)
    hoisted: set[Operation] = set()
    work: list[Operation] = [o for o in free if isinstance(o, memref.LoadOp)]
    while work:
        body_op = work.pop()
        if body_op in hoisted:
            continue
        hoisted.add(body_op)
        for operand in body_op.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner in free:
                work.append(owner)
    return hoisted


PREFETCH_BYTES = 128
"""At most this many bytes of epilogue loads per thread (32 registers: a 64x256 tile's
f16 bias by column) are issued ahead of the stores; more would crowd the accumulators."""


def _prefetch_bytes(epilogue: Region, m: int, n: int) -> int:
    """Bytes per thread of the epilogue's loads that can go ahead of the stores (see
    `_epilogue_loads`) for an m x n accumulator tile: a thread's values are in 2 * m / 64
    rows and n / 4 columns, so a load by row alone takes 2 * m / 64 values, by column
    alone n / 4, by both their product (as LLVM merges the repeats)."""
    block = epilogue.block
    hoisted = _epilogue_loads(epilogue)
    depends: dict[SSAValue, set[int]] = {arg: {i} for i, arg in enumerate(block.args)}
    total = 0
    for body_op in block.ops:
        if body_op not in hoisted:
            continue
        uses = set().union(*(depends.get(v, set()) for v in body_op.operands))
        for result in body_op.results:
            depends[result] = uses
        if isinstance(body_op, memref.LoadOp):
            values = (2 * m // WGMMA_ROWS if 1 in uses else 1) * (n // 4 if 2 in uses else 1)
            total += values * -(-getattr(body_op.res.type, "bitwidth", 64) // 8)
    return total


RELU_ROUNDING = {
    Float16Type: "llvm.nvvm.ff2f16x2.rn.relu",
    BFloat16Type: "llvm.nvvm.ff2bf16x2.rn.relu",
}
"""The intrinsic that rounds two f32 to f16 (bf16) with the relu fused (sm_80+:
`cvt.rn.relu.f16x2.f32`): negative values become 0, NaN stays NaN."""


def _relu_rounding(epilogue: Region) -> tuple[set[Operation], SSAValue] | None:
    """The epilogue's closing `arith.maximumf %s, 0.0` (either order) and the
    `arith.truncf` of it to f16 or bf16 that it yields (the max used by nothing else):
    the two ops, which `cvt.rn.relu` does at once (0 for any negative value, NaN for NaN,
    as the max), and %s; or None."""
    block = epilogue.block
    done = block.last_op
    if done is None or len(done.operands) != 1:
        return None
    trunc = done.operands[0].owner
    if not isinstance(trunc, arith.TruncFOp) or type(trunc.result.type) not in RELU_ROUNDING:
        return None
    peak = trunc.input.owner
    if (
        not isinstance(peak, arith.MaximumfOp)
        or peak.result.uses.get_length() != 1
        or peak.parent_block() is not block
        or trunc.parent_block() is not block
    ):
        return None

    def zero(value: SSAValue) -> bool:
        known = constant_float(value)
        return known is not None and known == 0.0 and copysign(1.0, known) > 0

    if zero(peak.rhs):
        return {peak, trunc}, peak.lhs
    if zero(peak.lhs):
        return {peak, trunc}, peak.rhs
    return None


def _epilogue_indices(
    lw: Lowering,
    op: Operation,
    row: SSAValue,
    col: SSAValue,
    bounds: tuple[SSAValue, SSAValue] | None,
) -> list[list[SSAValue]]:
    """The epilogue's (row, column) index arguments of the pair at (row, col) and
    (row, col + 1); at an edge tile an index past its bound is 0 instead (that element's
    value is not stored; the loads stay inside the epilogue's operands)."""
    emit = lw.emit(op)
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    zero = lw.constant(0, i64, op)
    indices: list[list[SSAValue]] = []
    for e in range(2):
        at = [row, col if e == 0 else emit(llvm.AddOp(col, lw.constant(1, i64, op)))]
        if bounds is not None:
            # Each index on its own (a load by column alone stays one per column).
            at = [
                emit(llvm.SelectOp(emit(llvm.ICmpOp(a, bound, slt)), a, zero))
                for a, bound in zip(at, bounds, strict=True)
            ]
        indices.append([emit(UnrealizedConversionCastOp.get([a], [IndexType()])) for a in at])
    return indices


def _clone_epilogue(
    lw: Lowering,
    op: Operation,
    epilogue: Region,
    mapping: dict[SSAValue, SSAValue],
    only: set[Operation] | None = None,
    skip: set[Operation] | None = None,
) -> None:
    """Clone the epilogue's body ops (less its yield) before `op` through `mapping`,
    extended with their results: those in `only`, or all not yet mapped and not in
    `skip`."""
    *body, _ = epilogue.block.ops
    for body_op in body:
        if (only is not None and body_op not in only) or (
            only is None
            and ((body_op.results and body_op.results[0] in mapping) or body_op in (skip or ()))
        ):
            continue
        clone = body_op.clone(value_mapper=mapping)
        lw.insert(clone, op)
        mapping.update(zip(body_op.results, clone.results, strict=True))


def _prefetch_epilogue(
    lw: Lowering,
    op: Operation,
    epilogue: Region,
    row: SSAValue,
    col: SSAValue,
    bounds: tuple[SSAValue, SSAValue] | None,
) -> list[dict[SSAValue, SSAValue]]:
    """The epilogue's loads (see `_epilogue_loads`) for the pair at (row, col) and
    (row, col + 1), cloned now: for each element, the mapping `_apply_epilogue` goes on
    from."""
    block = epilogue.block
    hoisted = _epilogue_loads(epilogue)
    mappings: list[dict[SSAValue, SSAValue]] = []
    for index in _epilogue_indices(lw, op, row, col, bounds):
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args[1:], index, strict=True))
        _clone_epilogue(lw, op, epilogue, mapping, hoisted)
        mappings.append(mapping)
    return mappings


def _apply_epilogue(
    lw: Lowering,
    op: Operation,
    epilogue: Region,
    pair: list[SSAValue],
    row: SSAValue,
    col: SSAValue,
    bounds: tuple[SSAValue, SSAValue] | None,
    loaded: list[dict[SSAValue, SSAValue]] | None = None,
) -> list[SSAValue]:
    """The stored values of the accumulators `pair` at (row, col) and (row, col + 1): the
    epilogue's ops cloned for each (still arith/math and memref.load: the passes after this
    one lower them), going on from `loaded` (`_prefetch_epilogue`'s) where given. At an
    edge tile an index past its bound is 0 instead (see `_epilogue_indices`)."""
    block = epilogue.block
    done = block.last_op
    assert done is not None
    if loaded is None:
        indices = _epilogue_indices(lw, op, row, col, bounds)
        loaded = [dict(zip(block.args[1:], index, strict=True)) for index in indices]
    fused = _relu_rounding(epilogue)
    # With a relu and rounding at the end, the pair's one cvt.rn.relu does both (below).
    skip, last = fused if fused is not None else (set[Operation](), done.operands[0])
    results: list[SSAValue] = []
    for value, ready in zip(pair, loaded, strict=True):
        mapping = {**ready, block.args[0]: value}
        _clone_epilogue(lw, op, epilogue, mapping, skip=skip)
        results.append(mapping.get(last, last))
    if fused is None:
        return results
    out = done.operands[0].type
    emit = lw.emit(op)
    # The first operand goes to the upper half: the pair's second element.
    both = _intrinsic(
        lw, op, RELU_ROUNDING[type(out)], [results[1], results[0]], VectorType(out, [2])
    )
    assert both is not None
    return [emit(llvm.ExtractElementOp(both, lw.constant(e, i64, op))) for e in range(2)]


def _bounded_pair_store(
    lw: Lowering,
    op: Operation,
    desc: Descriptor,
    bounds: tuple[SSAValue, SSAValue],
    row: SSAValue,
    col: SSAValue,
    pair: list[SSAValue],
) -> None:
    """Store the two adjacent elements `pair` at (row, col) and (row, col + 1) with a
    masked store, each only if it lies inside `bounds` (rows, columns); the address is
    taken at (0, 0) when the first is outside, so that it stays inside the memref."""
    emit = lw.emit(op)
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    zero = lw.constant(0, i64, op)
    row_in = emit(llvm.ICmpOp(row, bounds[0], slt))
    next_col = emit(llvm.AddOp(col, lw.constant(1, i64, op)))
    inside = [
        emit(llvm.AndOp(row_in, emit(llvm.ICmpOp(at, bounds[1], slt)))) for at in (col, next_col)
    ]
    at = [emit(llvm.SelectOp(inside[0], row, zero)), emit(llvm.SelectOp(inside[0], col, zero))]
    pointer = element_pointer(lw, emit, desc, at, op)
    element = pair[0].type
    vector = emit(llvm.PoisonOp(VectorType(element, [2])))
    mask = emit(llvm.PoisonOp(VectorType(i1, [2])))
    for e in range(2):
        lane = lw.constant(e, i64, op)
        vector = emit(llvm.InsertElementOp(vector, pair[e], lane))
        mask = emit(llvm.InsertElementOp(mask, inside[e], lane))
    width = 2 if isinstance(element, Float16Type | BFloat16Type) else 4
    lw.insert(llvm.MaskedStoreOp(vector, pointer, mask, alignment=width), op)


# ---------------------------------------------------------------------------------------
# cp.async


def _async_copy(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.DeviceAsyncCopyOp)
    emit = lw.emit(op)
    src_desc = Descriptor(lw, op, lw.value(op.src, op), _memref(op.src))
    dst_desc = Descriptor(lw, op, lw.value(op.dst, op), _memref(op.dst))
    src = element_pointer(lw, emit, src_desc, [lw.value(i, op) for i in op.src_indices], op)
    dst = element_pointer(lw, emit, dst_desc, [lw.value(i, op) for i in op.dst_indices], op)
    if src.type != PTR_GLOBAL:
        src = emit(llvm.AddrSpaceCastOp(src, PTR_GLOBAL))
    if dst.type != PTR_SHARED:
        dst = emit(llvm.AddrSpaceCastOp(dst, PTR_SHARED))
    width = _memref(op.dst).element_type
    bits = getattr(width, "bitwidth", None) or getattr(getattr(width, "width", None), "data", 0)
    size = int(bits) * op.dst_elements // 8
    cache = "cg" if op.bypassL1 is not None else "ca"
    args = [dst, src]
    suffix = ""
    if op.src_elements is not None:
        # Bytes to read; the rest of the destination is zero-filled.
        elements = _i32(lw, op, op.src_elements)
        args.append(emit(llvm.MulOp(elements, lw.constant(int(bits) // 8, i32, op))))
        suffix = ".s"
    _intrinsic(lw, op, f"llvm.nvvm.cp.async.{cache}.shared.global.{size}{suffix}", args)
    lw.replace(op, [lw.constant(0, i32, op)])


def _create_group(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.DeviceAsyncCreateGroupOp)
    _intrinsic(lw, op, "llvm.nvvm.cp.async.commit.group", [])
    lw.replace(op, [lw.constant(0, i32, op)])


def _async_wait(lw: Lowering, op: Operation) -> None:
    assert isinstance(op, ng.DeviceAsyncWaitOp)
    groups = lw.emit(op)(llvm.ConstantOp(IntegerAttr(op.num_groups, i32), i32))
    _intrinsic(lw, op, "llvm.nvvm.cp.async.wait.group", [groups])
    lw.replace(op, [])


NVGPU_LOWERINGS: dict[type[Operation], Handler] = {
    ng.MBarrierCreateOp: _create,
    ng.MBarrierInitOp: _init,
    ng.MBarrierArriveExpectTxOp: _arrive_expect_tx,
    ng.MBarrierArriveOp: _arrive,
    ng.MBarrierArriveNoCompleteOp: _arrive_nocomplete,
    ng.MBarrierTestWaitOp: _test_wait,
    ng.MBarrierTryWaitParityOp: _try_wait_parity,
    ng.TmaAsyncLoadOp: _tma_load,
    ng.TmaAsyncStoreOp: _tma_store,
    ng.TmaPrefetchOp: _tma_prefetch,
    ng.TmaFenceOp: _tma_fence,
    ng.WarpgroupGenerateDescriptorOp: _generate_descriptor,
    ng.WarpgroupMmaInitAccumulatorOp: _init_accumulator,
    ng.WarpgroupMmaOp: _mma,
    ng.WarpgroupMmaStoreOp: _mma_store,
    ng.DeviceAsyncCopyOp: _async_copy,
    ng.DeviceAsyncCreateGroupOp: _create_group,
    ng.DeviceAsyncWaitOp: _async_wait,
    **MMA_SYNC_LOWERINGS,
}
"""The nvgpu ops of device code and their lowerings, by class (ldmatrix and mma.sync in
`schedir.lowering.nvvm.mma_sync`)."""

ARCH_SPECIFIC_MARKERS = ("wgmma.", "llvm.nvvm.wgmma", "setmaxnreg")
"""Text of the sm_90a-only instructions (inline PTX or intrinsic names) in a kernel's LLVM
IR: wgmma and setmaxnreg assemble only for the arch-specific target."""


def kernel_arch(chip: str, llvm_ir: str) -> str:
    """The arch a kernel compiles for: `chip`, or its arch-specific variant (`sm_90` ->
    `sm_90a`) when the kernel uses instructions that only exist there (the variant runs
    on the same devices; without it ptxas rejects them)."""
    if chip.endswith("a") or not any(marker in llvm_ir for marker in ARCH_SPECIFIC_MARKERS):
        return chip
    return f"{chip}a" if chip == "sm_90" else chip


__all__ = ["ARCH_SPECIFIC_MARKERS", "NVGPU_LOWERINGS", "kernel_arch"]
