"""Upstream's LLVMTypeConverter for schedir's `*-to-llvm` passes, and memref layout facts.

`index` -> `i64`; signless integers and floats stay; 1-D vectors stay, n-D vectors become
nested `!llvm.array`s of 1-D ones; a ranked memref becomes its descriptor struct
`(ptr<S>, ptr<S>, i64, array<R x i64>, array<R x i64>)` (rank 0: the first three) with the
memory space S as the pointers' address space; unranked memrefs `(i64, ptr)`. The helpers
read the static strides and offset of a memref layout (identity, strided, or a strided
affine map) and the byte size LLVM gives an element.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    Signedness,
    StridedLayoutAttr,
    UnrankedMemRefType,
    VectorType,
    i64,
)
from xdsl.ir import Attribute

from schedir.diagnostics import UnsupportedError
from schedir.dialects import llvm
from schedir.dialects.gpu.attributes import AddressSpaceAttr
from schedir.lowering.llvm.nvgpu_types import nvgpu_llvm_type

INDEX = i64
"""What `index` becomes: upstream's default index bitwidth on 64-bit hosts."""

PTR = llvm.LLVMPointerType()
DYNAMIC = None
"""A dynamic size, stride or offset in the static layout tuples below (MLIR's `?`)."""

_GPU_ADDRESS_SPACES = {"global": 1, "workgroup": 3, "private": 5}
"""`#gpu.address_space<...>` -> LLVM address space (the numbers of the GPU targets)."""

NVVM_ADDRESS_SPACES = {"global": 1, "workgroup": 3, "private": 0}
"""The mapping of upstream's convert-gpu-to-nvvm: NVPTX allocas live in the generic
address space 0 (LLVM's NVPTX back end moves them to local memory itself)."""


class LLVMTypeConverter:
    """Upstream's LLVMTypeConverter: builtin types -> LLVM-compatible types.

    - `index` -> `i64`; signed/unsigned integers -> signless; floats stay;
    - `vector<N x T>` -> `vector<N x T'>`; n-D vectors -> nested `!llvm.array` of 1-D ones;
    - `memref<d0 x ... x T, layout, space>` -> `!llvm.struct<(ptr<S>, ptr<S>, i64,
      array<R x i64>, array<R x i64>)>` (allocated pointer, aligned pointer, offset,
      sizes, strides), `(ptr<S>, ptr<S>, i64)` for rank 0;
    - `memref<* x T>` -> `!llvm.struct<(i64, ptr)>` (rank, pointer to a ranked descriptor).
    """

    def __init__(self, address_spaces: Mapping[str, int] | None = None) -> None:
        self._spaces: Mapping[str, int] = (
            address_spaces if address_spaces is not None else _GPU_ADDRESS_SPACES
        )
        """`#gpu.address_space<...>` name -> address space number (see NVVM_ADDRESS_SPACES)."""
        self._cache: dict[Attribute, Attribute] = {}
        self._layouts: dict[MemRefType, tuple[list[int | None], int | None]] = {}

    def convert(self, t: Attribute) -> Attribute:
        """The LLVM type of `t`; raises UnsupportedError when there is none."""
        cached = self._cache.get(t)
        if cached is None:
            cached = self._convert(t)
            self._cache[t] = cached
        return cached

    def _convert(self, t: Attribute) -> Attribute:
        match t:
            case IndexType():
                return INDEX
            case IntegerType():
                if t.signedness.data == Signedness.SIGNLESS:
                    return t
                return IntegerType(t.width.data)
            case (
                Float16Type()
                | BFloat16Type()
                | Float32Type()
                | Float64Type()
                | Float80Type()
                | Float128Type()
            ):
                return t
            case VectorType():
                if t.get_num_scalable_dims():
                    raise UnsupportedError(f"scalable vector type {t} is not supported")
                elem = self.convert(t.get_element_type())
                shape = t.get_shape()
                # A 0-D vector is a one-lane LLVM vector, as upstream converts it.
                converted: Attribute = VectorType(elem, shape[-1:] or (1,))
                for dim in reversed(shape[:-1]):
                    converted = llvm.LLVMArrayType(dim, converted)
                return converted
            case MemRefType():
                return self.descriptor_type(t)
            case UnrankedMemRefType():
                return llvm.LLVMStructType.from_type_list(
                    [INDEX, self.pointer_type(t.memory_space)]
                )
            case llvm.LLVMStructType():
                return llvm.LLVMStructType.from_type_list([self.convert(e) for e in t.types])
            case llvm.LLVMArrayType():
                return llvm.LLVMArrayType(t.size, self.convert(t.type))
            case llvm.LLVMPointerType() | llvm.LLVMVoidType() | llvm.LLVMFunctionType():
                return t
        nvgpu_type = nvgpu_llvm_type(t)
        if nvgpu_type is not None:
            return nvgpu_type
        raise UnsupportedError(f"type {t} has no LLVM equivalent")

    def layout(self, t: MemRefType) -> tuple[list[int | None], int | None]:
        """`strides_and_offset(t)`, computed once per type."""
        found = self._layouts.get(t)
        if found is None:
            found = self._layouts[t] = strides_and_offset(t)
        return found

    def is_legal(self, t: Attribute) -> bool:
        """Whether `t` is already an LLVM type (needs no conversion)."""
        try:
            return self.convert(t) == t
        except UnsupportedError:
            return False

    def pointer_type(self, memory_space: Attribute) -> llvm.LLVMPointerType:
        """`!llvm.ptr<N>` for a memref memory space (none, integer or #gpu.address_space)."""
        return llvm.LLVMPointerType(_address_space(memory_space, self._spaces))

    def descriptor_type(self, t: MemRefType) -> llvm.LLVMStructType:
        """The descriptor struct of a ranked memref type."""
        ptr = self.pointer_type(t.memory_space)
        rank = t.get_num_dims()
        fields: list[Attribute] = [ptr, ptr, INDEX]
        if rank:
            fields += [llvm.LLVMArrayType(rank, INDEX), llvm.LLVMArrayType(rank, INDEX)]
        return llvm.LLVMStructType.from_type_list(fields)


def _address_space(
    space: Attribute, gpu_spaces: Mapping[str, int] = _GPU_ADDRESS_SPACES
) -> IntAttr | NoneAttr:
    if isinstance(space, NoneAttr):
        return NoneAttr()
    if isinstance(space, IntegerAttr):
        value = space.value.data
        return NoneAttr() if value == 0 else IntAttr(value)
    if isinstance(space, AddressSpaceAttr):
        number = gpu_spaces.get(space.data.value)
        if number is not None:
            return IntAttr(number) if number else NoneAttr()
    raise UnsupportedError(f"memory space {space} has no LLVM address space")


def address_space_of(t: MemRefType | UnrankedMemRefType) -> int:
    """The integer LLVM address space of a memref type."""
    space = _address_space(t.memory_space)
    return space.data if isinstance(space, IntAttr) else 0


def strides_and_offset(t: MemRefType) -> tuple[list[int | None], int | None]:
    """Static strides and offset of a memref layout (None where dynamic).

    Identity layouts give row-major strides (dynamic from the innermost dynamic size
    outwards); strided layouts give theirs; affine-map layouts must be strided maps.
    """
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, NoneAttr):
        strides: list[int | None] = []
        running: int | None = 1
        for size in reversed(shape):
            strides.append(running)
            running = None if running is None or size < 0 else running * size
        return strides[::-1], 0
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    if isinstance(layout, AffineMapAttr):
        found = _strided_from_affine_map(layout, len(shape))
        if found is not None:
            return found
    raise UnsupportedError(f"memref layout {layout} is not strided")


def _strided_from_affine_map(
    layout: AffineMapAttr, rank: int
) -> tuple[list[int | None], int | None] | None:
    amap = layout.data
    if amap.num_symbols or len(amap.results) != 1 or amap.num_dims != rank:
        return None
    # Evaluate the map at the origin and at each unit vector: exact for affine maps that
    # are linear in the dimensions, which a strided layout map is.
    try:
        offset = amap.eval([0] * rank, [])[0]
        strides: list[int | None] = []
        for i in range(rank):
            point = [0] * rank
            point[i] = 1
            strides.append(amap.eval(point, [])[0] - offset)
        # Check linearity on one more point so a non-strided map is not silently accepted.
        if rank:
            point = list(range(2, rank + 2))
            expected = offset + sum(p * s for p, s in zip(point, strides, strict=True) if s)
            if amap.eval(point, [])[0] != expected:
                return None
    except Exception:  # xDSL's evaluator rejects floordiv/mod by symbols and the like
        return None
    return strides, offset


def is_contiguous_row_major(t: MemRefType) -> bool:
    """Whether a memref is statically known to be dense row-major (identity-like)."""
    if isinstance(t.layout, NoneAttr):
        return True
    strides, _ = strides_and_offset(t)
    expected: int | None = 1
    for size, stride in zip(reversed(t.get_shape()), reversed(strides), strict=True):
        if size == 1:
            continue
        if stride is None or expected is None or stride != expected:
            return False
        expected = None if size < 0 else expected * size
    return True


_SCALAR_SIZES: dict[type[Attribute], int] = {
    Float16Type: 2,
    BFloat16Type: 2,
    Float32Type: 4,
    Float64Type: 8,
    Float80Type: 16,
    Float128Type: 16,
    IndexType: 8,
}


def element_size(t: Attribute) -> int | None:
    """Byte size LLVM allocates for one element of type `t`, or None if not static here."""
    if isinstance(t, IntegerType):
        width = t.width.data
        size = 1
        while size * 8 < width:
            size *= 2
        return size
    if type(t) in _SCALAR_SIZES:
        return _SCALAR_SIZES[type(t)]
    if isinstance(t, llvm.LLVMPointerType):
        return 8
    return None


__all__ = [
    "DYNAMIC",
    "INDEX",
    "NVVM_ADDRESS_SPACES",
    "PTR",
    "LLVMTypeConverter",
    "address_space_of",
    "element_size",
    "is_contiguous_row_major",
    "strides_and_offset",
]
