"""The warpgroup (wgmma, sm_90a) ops: matrix descriptors of operand tiles in shared
memory, the warpgroup matrix-multiply-accumulate over them and its register accumulator.

    %dA = nvgpu.warpgroup.generate.descriptor %a, %tmapA
        : memref<64x64xf16, 3>, !tmapA -> !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
    %acc = nvgpu.warpgroup.mma.init.accumulator
        -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
    %d = nvgpu.warpgroup.mma %dA, %dB, %acc transposeB : !descA, !descB, !acc -> !acc
    nvgpu.warpgroup.mma.store %d, %out : !acc to memref<64x64xf32, 3>

`warpgroup.mma` spans all 128 threads of a warpgroup: the accumulator is distributed
over their registers in wgmma's D-fragment layout, which `mma.store` undoes.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    StridedLayoutAttr,
    UnitAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_region_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.nvgpu.syntax import (
    PropKind,
    parse_keyword_props,
    parse_memref_type,
    parse_nvgpu_type,
    print_keyword_props,
    print_nvgpu_type,
)
from schedir.dialects.nvgpu.tma import verify_tma_descriptor
from schedir.dialects.nvgpu.types import (
    TensorMapDescriptorType,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
    is_shared_memory_space,
)
from schedir.dialects.syntax import LocatedVerifyException

WGMMA_M = 64
"""Rows of one wgmma instruction (upstream's kWgmmaSizeM)."""
WGMMA_N = tuple(range(8, 257, 8))
"""The N sizes of wgmma for 16-bit, tf32 and fp8 operands."""
WGMMA_N_INTEGER = (8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256)
"""The N sizes of wgmma for integer operands."""


def allowed_data_types(d: Attribute, a: Attribute, b: Attribute) -> bool:
    """Whether wgmma computes D (+)= A * B for these element types (upstream's
    isAllowedWGMMADataType, less the types xDSL lacks: tf32 and fp8)."""
    sixteen = (Float16Type, BFloat16Type)
    if isinstance(a, sixteen) and type(a) is type(b) and isinstance(d, (Float32Type, Float16Type)):
        return True
    if isinstance(a, IntegerType) and a == b and isinstance(d, IntegerType):
        return a.width.data in (1, 16) and d.width.data == 32
    return False


def allowed_n(n: int, a: Attribute) -> bool:
    """Whether N is a wgmma size for operands of element type `a` (isAllowedSizeN)."""
    if isinstance(a, (Float16Type, BFloat16Type, Float32Type)):
        return n in WGMMA_N
    if isinstance(a, IntegerType) and a.width.data in (1, 8):
        return n in WGMMA_N_INTEGER
    return False


def _accumulator(value: SSAValue) -> VectorType:
    t = value.type
    assert isinstance(t, WarpgroupAccumulatorType)
    return t.fragmented


def _matrix(value: SSAValue) -> MemRefType:
    t = value.type
    assert isinstance(t, WarpgroupMatrixDescriptorType)
    return t.tensor


@irdl_op_definition
class WarpgroupGenerateDescriptorOp(IRDLOperation):
    """`%d = nvgpu.warpgroup.generate.descriptor %smem, %tmap : memref<...>, !tmap ->
    !nvgpu.warpgroup.descriptor<...>`: the wgmma matrix descriptor of the tile `%smem`
    that a TMA load through `%tmap` wrote (same box and swizzle; 128B swizzle only)."""

    name = "nvgpu.warpgroup.generate.descriptor"

    tensor = operand_def(MemRefType)
    tensor_map = operand_def(TensorMapDescriptorType)
    descriptor = result_def(WarpgroupMatrixDescriptorType)

    def __init__(
        self, tensor: SSAValue, tensor_map: SSAValue, result_type: WarpgroupMatrixDescriptorType
    ) -> None:
        super().__init__(operands=[tensor, tensor_map], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        tensor = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tmap = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        tensor_type = parse_memref_type(parser)
        parser.parse_punctuation(",")
        tmap_type = parse_nvgpu_type(parser, TensorMapDescriptorType)
        parser.parse_punctuation("->")
        result = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        op = cls(
            parser.resolve_operand(tensor, tensor_type),
            parser.resolve_operand(tmap, tmap_type),
            result,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.tensor)
        printer.print_string(", ")
        printer.print_ssa_value(self.tensor_map)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.tensor.type)
        printer.print_string(", ")
        print_nvgpu_type(printer, self.tensor_map.type)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.descriptor.type)

    def verify_(self) -> None:
        tmap = self.tensor_map.type
        assert isinstance(tmap, TensorMapDescriptorType)
        verify_tma_descriptor(tmap)
        if tmap.swizzle.data != "swizzle_128b":
            raise LocatedVerifyException(
                "supports only swizzle_128b is supported for the time being", prefix=False
            )


_MMA_PROPS: tuple[tuple[str, PropKind], ...] = (
    ("waitGroup", "i64"),
    ("transposeA", "unit"),
    ("transposeB", "unit"),
)


@irdl_op_definition
class WarpgroupMmaOp(IRDLOperation):
    """`%d = nvgpu.warpgroup.mma %descA, %descB, %c [waitGroup = N] [transposeA]
    [transposeB] : !descA, !descB, !acc -> !acc`: D = A * B + C for an M x K tile A and a
    K x N tile B in shared memory, as ceil(M/64) x K/16 wgmma instructions between a
    wgmma fence and a commit (`waitGroup` is upstream's, default 1)."""

    name = "nvgpu.warpgroup.mma"

    descriptor_a = operand_def(WarpgroupMatrixDescriptorType)
    descriptor_b = operand_def(WarpgroupMatrixDescriptorType)
    matrix_c = operand_def(WarpgroupAccumulatorType)
    matrix_d = result_def(WarpgroupAccumulatorType)
    waitGroup = opt_prop_def(IntegerAttr[IntegerType])
    transposeA = opt_prop_def(UnitAttr)
    transposeB = opt_prop_def(UnitAttr)

    def __init__(
        self,
        descriptor_a: SSAValue,
        descriptor_b: SSAValue,
        matrix_c: SSAValue,
        *,
        transpose_a: bool = False,
        transpose_b: bool = False,
        wait_group: int | None = None,
        result_type: Attribute | None = None,
    ) -> None:
        super().__init__(
            operands=[descriptor_a, descriptor_b, matrix_c],
            result_types=[matrix_c.type if result_type is None else result_type],
            properties={
                "waitGroup": None if wait_group is None else IntegerAttr(wait_group, i64),
                "transposeA": UnitAttr() if transpose_a else None,
                "transposeB": UnitAttr() if transpose_b else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        c = parser.parse_unresolved_operand()
        props, attrs = parse_keyword_props(parser, _MMA_PROPS)
        parser.parse_punctuation(":")
        a_type = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        parser.parse_punctuation(",")
        b_type = parse_nvgpu_type(parser, WarpgroupMatrixDescriptorType)
        parser.parse_punctuation(",")
        c_type = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        parser.parse_punctuation("->")
        d_type = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        op = cls(
            parser.resolve_operand(a, a_type),
            parser.resolve_operand(b, b_type),
            parser.resolve_operand(c, c_type),
            result_type=d_type,
        )
        op.properties |= props
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        print_keyword_props(
            printer,
            {
                "waitGroup": self.waitGroup,
                "transposeA": self.transposeA,
                "transposeB": self.transposeB,
            },
            {"waitGroup": IntegerAttr(1, i64)},
        )
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(
            [self.descriptor_a.type, self.descriptor_b.type, self.matrix_c.type],
            lambda t: print_nvgpu_type(printer, t),
        )
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.matrix_d.type)

    @property
    def wait_group(self) -> int:
        """Upstream's `waitGroup` (default 1)."""
        return 1 if self.waitGroup is None else self.waitGroup.value.data

    def verify_(self) -> None:
        if self.transposeA is not None and self.transposeB is None:
            raise VerifyException(
                "supports non-transpose A (Row Major) and transpose B (Column Major) for the time being "
            )
        a, b = _matrix(self.descriptor_a), _matrix(self.descriptor_b)
        c, d = _accumulator(self.matrix_c), _accumulator(self.matrix_d)
        if c != d:
            raise VerifyException("type of matrix C and matrix D must be the same")
        if any(t.get_num_dims() != 2 for t in (a, b, c, d)):
            raise VerifyException("has matrices A, B, C and D, they must be 2 dimensional")
        (am, ak), (bk, bn), (cm, cn) = a.get_shape(), b.get_shape(), c.get_shape()
        if ak != bk:
            raise VerifyException(f"2nd dim matrix-A ({ak})!= 1st dim matrix-B ({bk} )")
        if am != cm:
            raise VerifyException(f"1st dim matrix-A ( {am} )!= 1st dim matrix-C ( {cm} )")
        if bn != cn:
            raise VerifyException(f"2nd dim matrix-B ( {bn} ) != 2nd dim matrix-C ( {cn} )")
        if not allowed_data_types(c.element_type, a.element_type, b.element_type):
            raise VerifyException(
                f"'{c.element_type}' += '{a.element_type}' * '{b.element_type}', it is not supported."
            )
        if not allowed_n(bn, a.element_type):
            raise VerifyException(f"has input type '{b}' n is set to {bn}, it is not supported")


@irdl_op_definition
class WarpgroupMmaStoreOp(IRDLOperation):
    """`nvgpu.warpgroup.mma.store %d, %mem : !acc to memref<MxNxf32, ...>`: each thread
    writes its accumulator registers to their places in `%mem`.

    schedir's generalizations of upstream (which takes an f32 memref of the accumulator's
    static shape): a dynamic size of `%mem` bounds the store (an edge tile: the elements
    of rows or columns past it are not written; it must be at most the accumulator's),
    and an f16 or bf16 `%mem` takes the f32 accumulators rounded to it (to nearest even,
    `arith.truncf`'s rounding): the epilogue of an f16-out matmul in registers.

    An optional `epilogue` region computes each stored element in registers (a fused
    elementwise consumer: bias, activation, conversion): its block takes the f32
    accumulator and the element's row and column in `%mem`, and its `linalg.yield`
    gives the value stored, of `%mem`'s element type. Its ops are arith/math ops and
    `memref.load`s of values defined above (no nested regions):

        nvgpu.warpgroup.mma.store %d, %out epilogue {
        ^bb0(%x: f32, %i: index, %j: index):
          %b = memref.load %bias[%j] : memref<256xf32, 1>
          ...
          linalg.yield %h : f16
        } : !acc to memref<128x256xf16, 1>

    An optional `through %staging` (schedir's extension) stores through shared memory:
    `%staging` is the warpgroup's own workgroup buffer of the accumulator's rows and a
    chunk of its columns (rows padded by its row stride); column chunk after column chunk,
    the warpgroup's threads write their (epilogue-computed) values into it, meet at a
    named barrier of the warpgroup's 128 threads (`bar.sync 1 + warpgroup, 128`), and copy
    it out to `%mem` row by row, 16 bytes per thread (coalesced; bounded at an edge tile;
    element by element, each warp 32 adjacent ones, where `%mem`'s rows are no multiple of
    16 bytes apart).
    A chunk of 128 bytes per row in rows of 144 (16 bytes of padding) is free of bank
    conflicts both ways:

        nvgpu.warpgroup.mma.store %d, %out through %buf
            : !acc to memref<64x256xf16, strided<[4096, 1], offset: ?>>
            through memref<64x64xf16, strided<[72, 1], offset: ?>, 3>

    With `{stmatrix}` a staged store writes the buffer with `stmatrix.sync.aligned.m8n8.x4`
    (four 8x8 matrices of the warp's f16/bf16 pairs a store, a quarter of the pair stores'
    instructions) instead of a 4-byte store per pair.

    With `to %tmap[%i, %j]` (a TMA descriptor of the tensor `%mem` is a view of, and the
    coordinates of `%mem`'s first element in it) the chunks go out by TMA instead:
    `%staging` is B buffers of the accumulator's rows by a chunk of one swizzle span (the
    descriptor's box), each in TMA's swizzled layout; chunk c is written into buffer
    c mod B, fenced for the async proxy (`fence.proxy.async.shared::cta`), and after the
    named barrier the warpgroup's first thread stores it with
    `cp.async.bulk.tensor.2d.global.shared::cta` (TMA clips what lies past the tensor's
    bounds: edge tiles need no masks) and commits it as a bulk async-group; before that
    barrier it waits (`cp.async.bulk.wait_group.read B - 2`) until the store of the
    buffer the next chunk writes has read it (B = 1: a wait and a barrier before each
    chunk's writes), so that the warpgroup goes on to its next tile while the last chunks
    drain. A box of 16 rows instead of the accumulator's: each warp writes its own 16 rows
    of each 64 (the D-fragment layout), meets at `bar.warp.sync` alone and its lane 0
    stores them (no warpgroup barrier). The accumulator's columns are a multiple of B
    chunks; the storing threads must wait for their last groups
    (`nvvm.cp.async.bulk.wait_group 0 read`) before the block exits:

        nvgpu.warpgroup.mma.store %d, %out through %bufs to %tmap[%i, %j]
            : !acc to memref<64x256xf16, strided<[4096, 1], offset: ?>>
            through memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, 3>
            to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, ...>
    """

    name = "nvgpu.warpgroup.mma.store"

    matrix_d = operand_def(WarpgroupAccumulatorType)
    dst_memref = operand_def(MemRefType)
    staging = opt_operand_def(MemRefType)
    tensor_map = opt_operand_def(TensorMapDescriptorType)
    coordinates = var_operand_def(IndexType)
    stmatrix = opt_prop_def(UnitAttr)
    epilogue = opt_region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        matrix_d: SSAValue,
        dst: SSAValue,
        epilogue: Region | None = None,
        staging: SSAValue | None = None,
        tensor_map: SSAValue | None = None,
        coordinates: tuple[SSAValue, ...] | list[SSAValue] = (),
    ) -> None:
        super().__init__(
            operands=[
                matrix_d,
                dst,
                [] if staging is None else [staging],
                [] if tensor_map is None else [tensor_map],
                list(coordinates),
            ],
            regions=[epilogue],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        d = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        dst = parser.parse_unresolved_operand()
        staging = None
        tensor_map = None
        coordinates = []
        if parser.parse_optional_keyword("through") is not None:
            staging = parser.parse_unresolved_operand()
            if parser.parse_optional_keyword("to") is not None:
                tensor_map = parser.parse_unresolved_operand()
                coordinates = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, parser.parse_unresolved_operand
                )
        epilogue = None
        if parser.parse_optional_keyword("epilogue") is not None:
            epilogue = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        d_type = parse_nvgpu_type(parser, WarpgroupAccumulatorType)
        parser.parse_keyword("to")
        dst_type = parse_memref_type(parser)
        staging_value = None
        tensor_map_value = None
        if staging is not None:
            parser.parse_keyword("through")
            staging_value = parser.resolve_operand(staging, parse_memref_type(parser))
        if tensor_map is not None:
            parser.parse_keyword("to")
            tensor_map_t = parse_nvgpu_type(parser, TensorMapDescriptorType)
            tensor_map_value = parser.resolve_operand(tensor_map, tensor_map_t)
        op = cls(
            parser.resolve_operand(d, d_type),
            parser.resolve_operand(dst, dst_type),
            epilogue,
            staging_value,
            tensor_map_value,
            [parser.resolve_operand(c, IndexType()) for c in coordinates],
        )
        if "stmatrix" in attrs:
            op.stmatrix = UnitAttr()
            attrs = {k: v for k, v in attrs.items() if k != "stmatrix"}
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.matrix_d, self.dst_memref], printer.print_ssa_value)
        if self.staging is not None:
            printer.print_string(" through ")
            printer.print_ssa_value(self.staging)
        if self.tensor_map is not None:
            printer.print_string(" to ")
            printer.print_ssa_value(self.tensor_map)
            printer.print_string("[")
            printer.print_list(self.coordinates, printer.print_ssa_value)
            printer.print_string("]")
        if self.epilogue is not None:
            printer.print_string(" epilogue ")
            printer.print_region(self.epilogue, print_entry_block_args=True)
        attributes = dict(self.attributes)
        if self.stmatrix is not None:
            attributes = {"stmatrix": UnitAttr(), **attributes}
        printer.print_op_attributes(attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.matrix_d.type)
        printer.print_string(" to ")
        printer.print_attribute(self.dst_memref.type)
        if self.staging is not None:
            printer.print_string(" through ")
            printer.print_attribute(self.staging.type)
        if self.tensor_map is not None:
            printer.print_string(" to ")
            print_nvgpu_type(printer, self.tensor_map.type)

    def verify_(self) -> None:
        v = _accumulator(self.matrix_d)
        dst = self.dst_memref.type
        assert isinstance(dst, MemRefType)
        if not isinstance(v.element_type, Float32Type):
            raise VerifyException("hit a limitation: only f32 results for the time being")
        if not isinstance(dst.element_type, Float32Type | Float16Type | BFloat16Type):
            raise VerifyException(
                f"destination element type {dst.element_type} is not f32, f16 or bf16"
            )
        vs, ds = v.get_shape(), dst.get_shape()
        if (
            len(vs) != 2
            or len(ds) != 2
            or any(d not in (DYNAMIC_INDEX, r) for r, d in zip(vs, ds, strict=True))
        ):
            d0 = ds[0] if ds else "?"
            d1 = ds[1] if len(ds) > 1 else "?"
            raise VerifyException(
                f"results ['{v}'][{vs[1] if len(vs) > 1 else '?'}] values. However, destination memref[{d0}][{d1}]  does not have same size as results"
            )
        if self.epilogue is not None:
            _verify_epilogue(self.epilogue, dst.element_type)
        if self.stmatrix is not None and (
            self.staging is None or element_bytes(dst.element_type) != 2
        ):
            raise VerifyException("stmatrix stores a staged store of 16-bit elements only")
        if self.tensor_map is not None:
            if self.staging is None:
                raise VerifyException("a TMA store of the accumulators needs a staging buffer")
            _verify_tma_staging(
                self.staging.type, self.tensor_map.type, len(self.coordinates), vs, dst
            )
        elif self.coordinates:
            raise VerifyException("coordinates without a tensor map")
        elif self.staging is not None:
            _verify_staging(self.staging.type, vs, dst.element_type)


STAGING_ALIGNMENT = 16
"""Bytes of the staging buffer's row pieces and row stride: each thread copies 16 bytes."""


def _verify_staging(staging: Attribute, accumulator: tuple[int, ...], stored: Attribute) -> None:
    """The staging buffer of `mma.store ... through`: workgroup memory of the stored
    element type, the accumulator's rows by a chunk of its columns that divides them, the
    chunk's row and the row stride multiples of 16 bytes."""
    if not isinstance(staging, MemRefType) or not is_shared_memory_space(staging.memory_space):
        raise VerifyException(f"the staging buffer {staging} is not a workgroup memref")
    if staging.element_type != stored:
        raise VerifyException(
            f"the staging buffer holds {staging.element_type}, the destination {stored}"
        )
    shape = staging.get_shape()
    strides = staging_strides(staging)
    width = element_bytes(stored)
    if (
        len(shape) != 2
        or DYNAMIC_INDEX in shape
        or strides is None
        or shape[0] != accumulator[0]
        or accumulator[1] % shape[1]
        or (shape[1] * width) % STAGING_ALIGNMENT
        or (strides[0] * width) % STAGING_ALIGNMENT
        or strides[0] < shape[1]
    ):
        raise VerifyException(
            f"the staging buffer {staging} must be {accumulator[0]} rows (the accumulator's) "
            f"of a static chunk of columns dividing {accumulator[1]}, rows of a multiple of "
            f"{STAGING_ALIGNMENT} bytes at a static stride of a multiple of "
            f"{STAGING_ALIGNMENT} bytes, unit column stride"
        )


WARP_ROWS = 16
"""Rows of each 64-row block of the accumulator a warp holds: a TMA box of them is stored
by the warp alone."""


def _verify_tma_staging(
    staging: Attribute,
    tensor_map: Attribute,
    coordinates: int,
    accumulator: tuple[int, ...],
    dst: MemRefType,
) -> None:
    """The staging buffers of `mma.store ... through ... to %tmap[...]`: a contiguous
    workgroup memref of B buffers of the accumulator's rows by a 128-byte swizzled chunk
    of columns (B chunks dividing them), the descriptor's box those rows or a warp's 16
    by the chunk, and one coordinate per dimension of the 2-D destination."""
    assert isinstance(tensor_map, TensorMapDescriptorType)
    verify_tma_descriptor(tensor_map)
    box = tensor_map.tensor
    if not isinstance(staging, MemRefType) or not is_shared_memory_space(staging.memory_space):
        raise VerifyException(f"the staging buffer {staging} is not a workgroup memref")
    shape = tuple(staging.get_shape())
    box_shape = tuple(box.get_shape())
    if (
        len(shape) != 3
        or DYNAMIC_INDEX in shape
        or staging.element_type != dst.element_type
        or box.element_type != dst.element_type
        or len(box_shape) != 2
        or shape[2] != box_shape[1]
        or box_shape[0] not in (WARP_ROWS, shape[1])
        or shape[1] != accumulator[0]
        or accumulator[1] % (shape[0] * shape[2])
        or tensor_map.swizzle.data != "swizzle_128b"
        or not _contiguous(staging)
    ):
        raise VerifyException(
            f"the staging buffers {staging} of a TMA store must be contiguous buffers of "
            f"{accumulator[0]} rows (the accumulator's) of {dst.element_type} by the "
            f"columns of the descriptor's box {box} (128B-swizzled, of those rows or a "
            f"warp's {WARP_ROWS}), their chunks dividing the accumulator's "
            f"{accumulator[1]} columns"
        )
    if coordinates != 2:
        raise VerifyException(
            f"a TMA store of the accumulators takes 2 coordinates, got {coordinates}"
        )


def _contiguous(t: MemRefType) -> bool:
    """Whether a static memref is laid out row-major without gaps (any offset)."""
    layout = t.layout
    if not isinstance(layout, StridedLayoutAttr):
        return True
    expected = 1
    for size, stride in reversed(list(zip(t.get_shape(), layout.get_strides(), strict=True))):
        if stride != expected:
            return False
        expected *= size
    return True


def staging_strides(t: MemRefType) -> tuple[int, int] | None:
    """The static (row, column) strides of a 2-D memref with unit column stride, or None."""
    shape = t.get_shape()
    layout = t.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = layout.get_strides()
        if len(strides) != 2 or not all(isinstance(s, int) for s in strides) or strides[1] != 1:
            return None
        row = strides[0]
        assert isinstance(row, int)
        return row, 1
    if len(shape) != 2 or shape[1] == DYNAMIC_INDEX:
        return None
    return shape[1], 1


def element_bytes(t: Attribute) -> int:
    """Bytes of an f32, f16 or bf16 element."""
    return 4 if isinstance(t, Float32Type) else 2


def _verify_epilogue(region: Region, stored: Attribute) -> None:
    """The epilogue region of `mma.store`: one block of (f32, index, index) ending in a
    yield of one `stored` value, with no nested regions."""
    block = region.block
    if tuple(block.arg_types) != (Float32Type(), IndexType(), IndexType()):
        raise VerifyException(
            "the epilogue's block takes (f32, index, index): the accumulator and the "
            f"element's row and column, not ({', '.join(map(str, block.arg_types))})"
        )
    last = block.last_op
    if last is None or len(last.operands) != 1 or last.operands[0].type != stored:
        raise VerifyException(f"the epilogue does not end in a yield of one {stored} value")
    if any(op.regions for op in block.ops):
        raise VerifyException("the epilogue's ops may not have regions")


@irdl_op_definition
class WarpgroupMmaInitAccumulatorOp(IRDLOperation):
    """`%acc = nvgpu.warpgroup.mma.init.accumulator -> !acc`: a zero accumulator."""

    name = "nvgpu.warpgroup.mma.init.accumulator"

    matrix_c = result_def(WarpgroupAccumulatorType)

    def __init__(self, result_type: WarpgroupAccumulatorType) -> None:
        super().__init__(result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        op = cls(parse_nvgpu_type(parser, WarpgroupAccumulatorType))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.matrix_c.type)

    def verify_(self) -> None:
        v = _accumulator(self.matrix_c)
        shape = v.get_shape()
        if (
            len(shape) != 2
            or shape[0] % WGMMA_M
            or shape[0] <= 0
            or not allowed_n(shape[1], v.element_type)
        ):
            raise VerifyException(
                f"has type '{v}'. It does not fit into warp-group level (wgmma) matrix multiplication instruction (or not supported yet)"
            )


OPS: tuple[type[IRDLOperation], ...] = (
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
    WarpgroupMmaInitAccumulatorOp,
)

__all__ = [
    "OPS",
    "WARP_ROWS",
    "WGMMA_M",
    "WGMMA_N",
    "WarpgroupGenerateDescriptorOp",
    "WarpgroupMmaInitAccumulatorOp",
    "WarpgroupMmaOp",
    "WarpgroupMmaStoreOp",
    "allowed_data_types",
    "allowed_n",
]
