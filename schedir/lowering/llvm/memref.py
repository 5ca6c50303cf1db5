"""Memref descriptors in the LLVM dialect: read fields, build descriptors, address elements.

A ranked memref is the struct `(allocated ptr, aligned ptr, offset, sizes[R], strides[R])`
(upstream's MemRefDescriptor, mlir/docs/TargetLLVMIR.md); element `(i0, ..., iR-1)` lives
at `aligned + offset + sum(ik * stride_k)` elements. Where the memref type knows a size,
stride or offset statically, the helpers use the constant instead of reading the
descriptor, as upstream's lowering does: that is what lets LLVM fold index arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, builtin
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, MemRefType, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from schedir.dialects import llvm
from schedir.lowering.llvm.common import (
    INDEX,
    Lowering,
    attr_of,
    element_size,
    first_result,
    strides_and_offset,
)

Emit = Callable[[Operation], SSAValue]


def constant_int(v: SSAValue) -> int | None:
    """The integer value of `v` if it is a constant (through casts), else None."""
    seen = 0
    while seen < 4:
        owner = v.owner
        if isinstance(owner, builtin.UnrealizedConversionCastOp) and len(owner.inputs) == 1:
            v = owner.inputs[0]
            seen += 1
            continue
        if isinstance(owner, llvm.ConstantOp | arith.ConstantOp):
            value = attr_of(owner, "value")
            if isinstance(value, IntegerAttr):
                return value.value.data
        return None
    return None


def _pos(*indices: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, indices)


def extract(emit: Emit, struct: SSAValue, *position: int) -> SSAValue:
    """`llvm.extractvalue struct[position]`."""
    t = struct.type
    for p in position:
        if isinstance(t, llvm.LLVMStructType):
            t = t.types.data[p]
        else:
            assert isinstance(t, llvm.LLVMArrayType)
            t = t.type
    return emit(llvm.ExtractValueOp(_pos(*position), struct, t))


def insert(emit: Emit, struct: SSAValue, value: SSAValue, *position: int) -> SSAValue:
    """`llvm.insertvalue value, struct[position]`."""
    return emit(llvm.InsertValueOp(_pos(*position), struct, value))


@dataclass
class Descriptor:
    """A descriptor value with the static knowledge of its memref type.

    Fields are read through `Lowering.field` (once per descriptor) and static values
    come from `Lowering.index` (once per function), so lowering N accesses to one memref
    makes O(N) new ops, not O(N * rank).
    """

    lw: Lowering
    anchor: Operation
    value: SSAValue
    type: MemRefType

    @property
    def rank(self) -> int:
        return self.type.get_num_dims()

    def allocated(self) -> SSAValue:
        return self.lw.field(self.value, 0)

    def aligned(self) -> SSAValue:
        return self.lw.field(self.value, 1)

    def offset(self) -> SSAValue:
        static = self.lw.converter.layout(self.type)[1]
        if static is not None:
            return self.lw.index(static, self.anchor)
        return self.lw.field(self.value, 2)

    def size(self, dim: int) -> SSAValue:
        static = self.type.get_shape()[dim]
        if static >= 0:
            return self.lw.index(static, self.anchor)
        return self.lw.field(self.value, 3, dim)

    def stride(self, dim: int) -> SSAValue:
        static = self.lw.converter.layout(self.type)[0][dim]
        if static is not None:
            return self.lw.index(static, self.anchor)
        return self.lw.field(self.value, 4, dim)


def strided_layout(t: MemRefType) -> tuple[list[int | None], int | None]:
    return strides_and_offset(t)


def build_descriptor(
    emit: Emit,
    struct_type: Attribute,
    allocated: SSAValue,
    aligned: SSAValue,
    offset: SSAValue,
    sizes: Sequence[SSAValue],
    strides: Sequence[SSAValue],
) -> SSAValue:
    """A descriptor struct from its fields (poison + insertvalue, as upstream)."""
    desc = emit(llvm.PoisonOp(struct_type))
    desc = insert(emit, desc, allocated, 0)
    desc = insert(emit, desc, aligned, 1)
    desc = insert(emit, desc, offset, 2)
    for i, size in enumerate(sizes):
        desc = insert(emit, desc, size, 3, i)
    for i, stride in enumerate(strides):
        desc = insert(emit, desc, stride, 4, i)
    return desc


class IndexMath:
    """i64 arithmetic that folds constants, so static layouts give static addresses."""

    def __init__(self, lw: Lowering, anchor: Operation, emit: Emit) -> None:
        self.lw = lw
        self.anchor = anchor
        self.emit = emit

    def const(self, value: int) -> SSAValue:
        return self.lw.index(value, self.anchor)

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        ca, cb = constant_int(a), constant_int(b)
        if ca is not None and cb is not None:
            return self.const(ca + cb)
        if ca == 0:
            return b
        if cb == 0:
            return a
        return self.emit(llvm.AddOp(a, b))

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        ca, cb = constant_int(a), constant_int(b)
        if ca is not None and cb is not None:
            return self.const(ca * cb)
        if ca == 1:
            return b
        if cb == 1:
            return a
        if ca == 0 or cb == 0:
            return self.const(0)
        return self.emit(llvm.MulOp(a, b))


def element_pointer(
    lw: Lowering, emit: Emit, desc: Descriptor, indices: Sequence[SSAValue], op: Operation
) -> SSAValue:
    """Address of element `indices` of `desc` (upstream's getStridedElementPtr)."""
    math = IndexMath(lw, desc.anchor, emit)
    linear = desc.offset()
    for dim, index in enumerate(indices):
        linear = math.add(linear, math.mul(index, desc.stride(dim)))
    elem = lw.convert(desc.type.get_element_type(), op)
    base = desc.aligned()
    if constant_int(linear) == 0:
        return base
    return emit(llvm.GEPOp(base, [linear], elem, flags=3))


def size_in_bytes(
    lw: Lowering, anchor: Operation, emit: Emit, elem: Attribute, count: SSAValue
) -> SSAValue:
    """`count` elements of LLVM type `elem`, in bytes (the GEP-on-null trick if not static)."""
    math = IndexMath(lw, anchor, emit)
    static = element_size(elem)
    if static is not None:
        return math.mul(count, math.const(static))
    null = emit(llvm.ZeroOp.create(result_types=[llvm.LLVMPointerType()]))
    one_past = emit(llvm.GEPOp(null, [count], elem))
    return emit(llvm.PtrToIntOp(one_past, INDEX))


def loop_nest(
    lw: Lowering, anchor: Operation, upper_bounds: Sequence[SSAValue]
) -> tuple[Emit, list[SSAValue]]:
    """Loops `for i_k in [0, ub_k)` around a new innermost block, placed where `anchor` is.

    Splits `anchor`'s block before it: the loops run, then control continues at `anchor`.
    Returns an emitter for the innermost body (which already ends in its back-edge, new
    ops go before it) and the induction variables, outermost first.
    """
    block = anchor.parent
    assert block is not None
    region = block.parent
    assert region is not None
    rest = block.split_before(anchor)
    location = anchor.location

    def add_to(target: Block) -> Emit:
        def add(new: Operation) -> SSAValue:
            new.location = location
            target.add_op(new)
            return first_result(new)

        return add

    current = block
    exit_block = rest
    ivs: list[SSAValue] = []
    one: SSAValue | None = None
    zero: SSAValue | None = None
    for ub in upper_bounds:
        header = Block(arg_types=[INDEX])
        body = Block()
        latch = Block()
        region.insert_block_before([header, body, latch], rest)
        e = add_to(current)
        if zero is None:
            zero = lw.index(0, anchor)
            one = lw.index(1, anchor)
        e(llvm.BrOp(header, zero))
        iv = header.args[0]
        eh = add_to(header)
        in_range = eh(llvm.ICmpOp(iv, ub, IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), 64)))
        eh(llvm.CondBrOp(in_range, body, (), exit_block, ()))
        el = add_to(latch)
        assert one is not None
        el(llvm.BrOp(header, el(llvm.AddOp(iv, one))))
        ivs.append(iv)
        current = body
        exit_block = latch
    # The innermost body falls through to its latch; new ops go before that branch.
    terminator = llvm.BrOp(exit_block)
    terminator.location = location
    current.add_op(terminator)

    def add_inner(new: Operation) -> SSAValue:
        new.location = location
        current.insert_op_before(new, terminator)
        return first_result(new)

    return add_inner, ivs
