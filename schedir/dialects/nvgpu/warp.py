"""The warp-level tensor-core ops (sm_80+): ldmatrix fragments from shared memory and the
synchronous mma over them.

    %a = nvgpu.ldmatrix %sm[%i, %j] numTiles = 4 transpose = false
        : memref<64x32xf16, 3> -> vector<4x2xf16>
    %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16]
        : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>

Vectors are per-thread fragments: row i holds the 32 bits (or 64 for f64) the thread
owns of the i-th 8x8 tile. The legacy `{numTiles = 4 : i32, transpose = false}` and
`{mmaShape = [16, 8, 16]}` attr-dict spellings are read too.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.nvgpu.syntax import (
    parse_keyword_props,
    parse_memref_type,
    parse_operand_list,
    print_keyword_props,
)
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space
from schedir.dialects.syntax import LocatedVerifyException

WARP_SIZE = 32


def _error(message: str) -> LocatedVerifyException:
    return LocatedVerifyException(message, prefix=False)


def _vector(value: SSAValue) -> VectorType:
    t = value.type
    assert isinstance(t, VectorType)
    return t


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """`%r = nvgpu.ldmatrix %mem[indices] numTiles = N transpose = B : memref -> vector`:
    the warp loads N 8x8 tiles of 16-bit (or narrower) elements from shared memory,
    each thread getting 32 bits of each (`transpose`: of the transposed tiles)."""

    name = "nvgpu.ldmatrix"

    src_memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    transpose = prop_def(IntegerAttr[IntegerType])
    numTiles = prop_def(IntegerAttr[IntegerType])
    res = result_def(VectorType)

    def __init__(
        self,
        src: SSAValue,
        indices: list[SSAValue],
        result_type: VectorType,
        *,
        num_tiles: int,
        transpose: bool = False,
    ) -> None:
        super().__init__(
            operands=[src, indices],
            result_types=[result_type],
            properties={
                "transpose": BoolAttr.from_bool(transpose),
                "numTiles": IntegerAttr(num_tiles, i32),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        indices = parse_operand_list(parser)
        props, attrs = parse_keyword_props(parser, (("numTiles", "i32"), ("transpose", "bool")))
        for key in ("numTiles", "transpose"):
            if key not in props:
                parser.raise_error(f"expected '{key}'")
        parser.parse_punctuation(":")
        src_type = parse_memref_type(parser)
        parser.parse_punctuation("->")
        pos = parser.pos
        result = parser.parse_type()
        if not isinstance(result, VectorType):
            parser.raise_error(f"expected a vector type, got {result}", pos, parser.pos)
        op = cls(
            parser.resolve_operand(src, src_type),
            [parser.resolve_operand(i, IndexType()) for i in indices],
            result,
            num_tiles=0,
        )
        op.properties |= props
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.src_memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_string("]")
        print_keyword_props(printer, {"numTiles": self.numTiles, "transpose": self.transpose})
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.src_memref.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    @property
    def num_tiles(self) -> int:
        return self.numTiles.value.data

    @property
    def is_transposed(self) -> bool:
        return bool(self.transpose.value.data)

    def verify_(self) -> None:
        src = self.src_memref.type
        assert isinstance(src, MemRefType)
        res = _vector(self.res)
        if src.element_type != res.element_type:
            raise VerifyException("failed to verify that srcMemref and res have same element type")
        if len(self.indices) != src.get_num_dims():
            raise VerifyException(f"expected {src.get_num_dims()} indices, got {len(self.indices)}")
        width = element_bit_width(res.element_type) or 0
        if not is_shared_memory_space(src.memory_space):
            raise _error(
                "expected nvgpu.ldmatrix srcMemref must have a memory space attribute of IntegerAttr(3) or gpu::AddressSpaceAttr(Workgroup)"
            )
        if width > 32 or width == 0:
            raise _error("nvgpu.ldmatrix works for 32b or lower")
        if self.is_transposed and width != 16:
            raise _error("nvgpu.ldmatrix transpose works only at 16b granularity")
        shape = res.get_shape()
        if len(shape) != 2:
            raise _error("results must be 2 dimensional vector")
        if shape[1] != 32 // width:
            raise _error(f"expected vector register shape[1] = {32 // width}")
        if shape[0] != self.num_tiles:
            raise _error("expected vector register shape[0] and numTiles to match")


def verify_mma_sync(
    a: VectorType,
    b: VectorType,
    c: VectorType,
    shape: tuple[int, int, int],
    *,
    tf32: bool,
    sparse: bool = False,
) -> None:
    """Upstream's verifyMmaSyncOp: fragment shapes against the m x n x k mma shape."""
    element = a.element_type
    width = element_bit_width(element)
    if sparse and isinstance(element, Float64Type):
        raise _error("f64 is not supported for sparse mode")
    if isinstance(element, Float64Type):
        shape_k, per_a, per_b = 4, 1, 1
    elif width is not None and (
        (isinstance(element, IntegerType) and width in (4, 8))
        or (not isinstance(element, IntegerType) and width in (16, 32))
    ):
        shape_k = 128 // width
        per_a = per_b = 32 // width
    else:
        raise _error(
            "expected input data type (i4,i8,f16,bf16,tf32,f64) supported by nvgpu.mma.sync"
        )
    if any(len(v.get_shape()) != 2 for v in (a, b, c)):
        raise VerifyException("expected 2-D fragment vectors for A, B and C")
    m, n, k = shape
    (a0, a1), (b0, b1), (c0, c1) = a.get_shape(), b.get_shape(), c.get_shape()
    factor = 2 if sparse else 1
    if a0 * a1 * WARP_SIZE != m * k // factor:
        raise VerifyException(f"expected {m * k} warp-wide matrix A elements")
    if b0 * b1 * WARP_SIZE != k * n:
        raise VerifyException(f"expected {k * n} warp-wide matrix B elements")
    if c0 * c1 * WARP_SIZE != m * n:
        raise VerifyException(f"expected {m * n} warp-wide matrix C elements")
    if tf32 and not isinstance(element, Float32Type):
        raise VerifyException("expected tf32 tensor cores only for F32 operands")
    m_tiles, n_tiles, k_tiles = m // 8, n // 8, k // shape_k
    if a0 != m_tiles * k_tiles // factor or a1 != per_a:
        raise VerifyException(f"expected matrix A to be shaped ({m_tiles * k_tiles} x {per_a})")
    if b0 != k_tiles * n_tiles or b1 != per_b:
        raise VerifyException(f"expected matrix B to be shaped ({k_tiles * n_tiles} x {per_b})")
    if c0 != m_tiles * n_tiles or c1 != 2:
        raise VerifyException(f"expected matrix C to be shaped ({m_tiles * n_tiles} x 2)")


@irdl_op_definition
class MmaSyncOp(IRDLOperation):
    """`%d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [m, n, k] [tf32Enabled] : (A, B, C) -> D`:
    one warp-wide `mma.sync` on per-thread fragments (f16/bf16 m16n8k16, tf32 m16n8k8,
    i8 m16n8k32, f64 m8n8k4)."""

    name = "nvgpu.mma.sync"

    matrix_a = operand_def(VectorType)
    matrix_b = operand_def(VectorType)
    matrix_c = operand_def(VectorType)
    mmaShape = prop_def(ArrayAttr[IntegerAttr[IntegerType]])
    tf32Enabled = opt_prop_def(UnitAttr)
    res = result_def(VectorType)

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        c: SSAValue,
        shape: tuple[int, int, int],
        *,
        tf32: bool = False,
        result_type: Attribute | None = None,
    ) -> None:
        super().__init__(
            operands=[a, b, c],
            result_types=[c.type if result_type is None else result_type],
            properties={
                "mmaShape": ArrayAttr([IntegerAttr(v, i64) for v in shape]),
                "tf32Enabled": UnitAttr() if tf32 else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        if len(operands) != 3:
            parser.raise_error(f"expected 3 operands, got {len(operands)}")
        props, attrs = parse_keyword_props(
            parser, (("mmaShape", "i64array"), ("tf32Enabled", "unit"))
        )
        if "mmaShape" not in props:
            parser.raise_error("expected 'mmaShape'")
        parser.parse_punctuation(":")
        pos = parser.pos
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        if len(types) != 3:
            parser.raise_error(f"expected 3 operand types, got {len(types)}", pos, parser.pos)
        parser.parse_punctuation("->")
        result = parser.parse_type()
        a, b, c = (parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True))
        op = cls(a, b, c, (0, 0, 0), result_type=result)
        op.properties |= props
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_string(")")
        print_keyword_props(printer, {"mmaShape": self.mmaShape, "tf32Enabled": self.tf32Enabled})
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list([o.type for o in self.operands], printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.res.type)

    @property
    def shape(self) -> tuple[int, int, int]:
        """(m, n, k) of `mmaShape`."""
        m, n, k = (v.value.data for v in self.mmaShape.data)
        return m, n, k

    def verify_(self) -> None:
        a, b, c = _vector(self.matrix_a), _vector(self.matrix_b), _vector(self.matrix_c)
        if a.element_type != b.element_type:
            raise VerifyException(
                "failed to verify that matrixA and matrixB have same element type"
            )
        if len(self.mmaShape.data) != 3:
            raise VerifyException("mmaShape should be three integers")
        verify_mma_sync(a, b, c, self.shape, tf32=self.tf32Enabled is not None)


OPS: tuple[type[IRDLOperation], ...] = (LdMatrixOp, MmaSyncOp)

__all__ = ["OPS", "WARP_SIZE", "LdMatrixOp", "MmaSyncOp", "verify_mma_sync"]
