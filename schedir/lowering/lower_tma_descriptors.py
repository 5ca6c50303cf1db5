"""`lower-tma-descriptors`: host-side `nvgpu.tma.create.descriptor` -> a runtime call.

Upstream's NVGPU-to-NVVM lowering calls `mgpuTensorMapEncodeTiledMemref` with the
unranked memref; schedir's host code has no unranked memrefs, so this pass (after
`gpu-host-alloc-to-device`, before `finalize-memref-to-llvm`) takes the ranked memref
under the `memref.cast` and packs what `cuTensorMapEncodeTiled` needs into one i64 array
on the stack: the element address, the rank, the codes of the element type, swizzle, L2
promotion, out-of-bounds fill and interleave (`schedir.gpu.tma`'s `*_CODES` tables), then
the sizes, byte strides and box sizes, outermost first. The host runtime
(`schedirTensorMapEncodeTiled`, schedir/gpu/host.py) returns the device address of the
128-byte descriptor, which the launch passes to the kernel as a pointer (as upstream).

    %u = memref.cast %a : memref<256x512xf16> to memref<*xf16>
    %d = nvgpu.tma.create.descriptor %u box[%c128, %c64] : memref<*xf16> -> !tmap
    // ->
    %fields = memref.alloca() : memref<13xi64>
    memref.store %address, %fields[%c0] ... (13 stores)
    %p = memref.extract_aligned_pointer_as_index %fields : memref<13xi64> -> index
    %d = func.call @schedirTensorMapEncodeTiled(%p64) : (i64) -> !llvm.ptr
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import LoweringError
from schedir.dialects import llvm
from schedir.dialects import nvgpu as ng
from schedir.dialects.arith import IndexCastOp
from schedir.dialects.nvgpu.types import element_bit_width
from schedir.dialects.syntax import op_location
from schedir.gpu.tma import (
    DTYPE_CODES,
    INTERLEAVE_CODES,
    L2PROMO_CODES,
    OOB_CODES,
    SWIZZLE_CODES,
    dtype_name,
)

PASS = "lower-tma-descriptors"
RUNTIME_FUNCTION = "schedirTensorMapEncodeTiled"
HEADER_FIELDS = 7
"""Address, rank and the five enum codes before the sizes, strides and box."""


def _error(op: Operation, message: str) -> LoweringError:
    return LoweringError(f"{PASS}: {message}", op_location(op))


def _strides(t: MemRefType, op: Operation) -> tuple[list[int | None], int]:
    """Element strides and offset of `t` (None: computed from the sizes at run time)."""
    rank = t.get_num_dims()
    layout = t.layout
    if isinstance(layout, NoneAttr):
        return [None] * rank, 0
    if isinstance(layout, StridedLayoutAttr):
        strides, offset = layout.get_strides(), layout.get_offset()
        if all(isinstance(s, int) for s in strides) and isinstance(offset, int):
            return [s for s in strides if isinstance(s, int)], offset
    raise _error(op, f"the TMA tensor {t} has a dynamic or non-strided layout")


class _Builder:
    def __init__(self, rewriter: Rewriter, at: InsertPoint) -> None:
        self.rewriter = rewriter
        self.at = at

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert_op(op, self.at)
        return op.results[0]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def i64(self, value: int | SSAValue) -> SSAValue:
        if isinstance(value, int):
            return self.add(arith.ConstantOp(IntegerAttr(value, i64)))
        return self.add(IndexCastOp(value, i64))


def _lower(op: ng.TmaCreateDescriptorOp, module: ModuleOp, rewriter: Rewriter) -> None:
    cast = op.tensor.owner
    if not isinstance(cast, memref.CastOp) or not isinstance(cast.source.type, MemRefType):
        raise _error(op, "the descriptor's tensor must be a memref.cast of a ranked memref")
    tensor = cast.source
    t = cast.source.type
    assert isinstance(t, MemRefType)
    desc_t = op.tensor_map.type
    assert isinstance(desc_t, ng.TensorMapDescriptorType)
    width = element_bit_width(t.element_type)
    name = dtype_name(t.element_type)
    if width is None or name is None:
        raise _error(op, f"TMA does not copy elements of type {t.element_type}")
    rank = t.get_num_dims()
    if len(op.box_dimensions) != rank:
        raise _error(op, f"{len(op.box_dimensions)} box sizes for a rank-{rank} tensor")
    element_strides, offset = _strides(t, op)
    b = _Builder(rewriter, InsertPoint.before(op))
    sizes: list[SSAValue] = []
    for dim, size in enumerate(t.get_shape()):
        if size >= 0:
            sizes.append(b.index(size))
        else:
            sizes.append(b.add(memref.DimOp.from_source_and_index(tensor, b.index(dim))))
    # Byte strides: the layout's, or the row-major suffix products of the sizes.
    byte_strides: list[SSAValue] = [b.index(0)] * rank
    running = b.index(width // 8)
    for dim in reversed(range(rank)):
        given = element_strides[dim]
        if given is not None:
            byte_strides[dim] = b.index(given * width // 8)
        else:
            byte_strides[dim] = running
            running = b.add(arith.MuliOp(running, sizes[dim]))
    base = b.add(memref.ExtractAlignedPointerAsIndexOp.get(tensor))
    address = b.add(arith.AddiOp(base, b.index(offset * width // 8)))
    fields: list[SSAValue] = [
        b.i64(address),
        b.i64(rank),
        b.i64(DTYPE_CODES.index(name)),
        b.i64(SWIZZLE_CODES.index(desc_t.swizzle.data)),
        b.i64(L2PROMO_CODES.index(desc_t.l2promo.data)),
        b.i64(OOB_CODES.index(desc_t.oob.data)),
        b.i64(INTERLEAVE_CODES.index(desc_t.interleave.data)),
        *(b.i64(s) for s in sizes),
        *(b.i64(s) for s in byte_strides),
        *(b.i64(s) for s in op.box_dimensions),
    ]
    array_t = MemRefType(i64, [len(fields)])
    array = b.add(memref.AllocaOp.get(i64, shape=[len(fields)]))
    for position, value in enumerate(fields):
        rewriter.insert_op(memref.StoreOp.get(value, array, [b.index(position)]), b.at)
    pointer = b.i64(b.add(memref.ExtractAlignedPointerAsIndexOp.get(array)))
    assert array.type == array_t
    _declare(module)
    call = func.CallOp(RUNTIME_FUNCTION, [pointer], [llvm.LLVMPointerType()])
    rewriter.insert_op(call, b.at)
    op.tensor_map.replace_all_uses_with(call.results[0])
    rewriter.erase_op(op)
    if not cast.results[0].uses:
        rewriter.erase_op(cast)


def _declare(module: ModuleOp) -> None:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == RUNTIME_FUNCTION:
            return
    decl = func.FuncOp.external(RUNTIME_FUNCTION, [i64], [llvm.LLVMPointerType()])
    first = module.body.block.first_op
    if first is None:
        module.body.block.add_op(decl)
    else:
        module.body.block.insert_op_before(decl, first)


@dataclass(frozen=True)
class LowerTmaDescriptors(ModulePass):
    """Host-side TMA descriptors -> calls of the runtime's tensor-map encoder."""

    name = "lower-tma-descriptors"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        rewriter = Rewriter()
        for found in [o for o in op.walk() if isinstance(o, ng.TmaCreateDescriptorOp)]:
            _lower(found, op, rewriter)


__all__ = ["HEADER_FIELDS", "PASS", "RUNTIME_FUNCTION", "LowerTmaDescriptors"]
