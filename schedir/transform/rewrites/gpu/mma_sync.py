"""Rewriting a warp's `linalg.matmul` on memrefs into `nvgpu.mma.sync` on per-lane
fragments (upstream's `transform.nvgpu.rewrite_matmul_as_mma_sync`, extended).

Each lane (`gpu.lane_id`) loads the elements of the A, B and C fragments it holds in the
mma.sync fragment layout of the PTX ISA (groupID g = lane / 4, t = lane % 4):

* f16/bf16 m16n8k16: A `vector<4x2>`, register i holds row g + 8 (i % 2), columns
  2t + {0, 1} + 8 (i / 2); B `vector<2x2>`, register i holds k = 2t + {0, 1} + 8i at
  column g; C `vector<2x2>`, register i holds row g + 8i, columns 2t + {0, 1};
* f32 (tf32) m16n8k4: A `vector<2x1>` row g + 8i, column t; B `vector<1x1>` k = t,
  column g; C as above.

Upstream takes one 16x8x16 (f16 += f16 x f16) or 16x8x4 (tf32) matmul and assumes one warp
(its lane is `thread_id x`). Extensions: any M x N x K, rounded up to whole mma tiles
(every tile of C accumulates over every k tile, fully unrolled), f32 accumulation of
f16/bf16 (and bf16 inputs), the lane is `gpu.lane_id` (a warp of a larger block),
sizes that are dynamic with a constant bound (a partial tile at the edge of the problem);
elements past an operand's sizes are not loaded (they read as 0) and not stored;
16-bit operands in shared memory load through `nvgpu.ldmatrix` (A x4; B x4/x2
`transpose`, k-major) where a warp-uniform check finds the lanes' row addresses 16-byte
aligned and the view whole (element loads otherwise); and when the matmul
sits directly in an `scf.for` whose C is defined above it, the C fragments are loaded
before the loop, carried through it as iter_args and stored after it (the accumulator in
registers across the k loop). Where C was last written by a `linalg.fill` of a float
constant on the same memory (a view that provably computes the same), with only
memory-effect-free ops and barriers in between and no other use, the C fragments start
as the constant and the fill goes: the stores write every element it wrote (the fill
then costs neither its stores nor the loads of C).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
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
from xdsl.traits import is_side_effect_free

from schedir.dialects import affine, gpu, linalg, vector
from schedir.dialects import nvgpu as ng
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space
from schedir.dialects.utils import DYNAMIC_INDEX, mixed_values
from schedir.transform.rewrites.rewriter import PayloadRewriteError

MAX_MMA_OPS = 512
"""Most mma.sync instructions one rewritten matmul may unroll to (a warp tile of at most
128 x 64 x 64 in f16): beyond that the fragments cannot live in registers anyway."""

Index = Callable[[int, int], tuple[int, int]]
"""(register row, element) -> the (row, column) offsets from (g, 2t) or (g, t)."""


class MmaSyncRewriteError(PayloadRewriteError):
    """Why a matmul cannot be rewritten into mma.sync (`op`: where the reason applies)."""


@dataclass(frozen=True)
class _Layout:
    """The fragment layout of one mma.sync shape."""

    shape: tuple[int, int, int]
    a: tuple[int, int]
    b: tuple[int, int]
    tf32: bool


_F16_LAYOUT = _Layout((16, 8, 16), (4, 2), (2, 2), tf32=False)
_TF32_LAYOUT = _Layout((16, 8, 4), (2, 1), (1, 1), tf32=True)


def _layout(a: Attribute, b: Attribute, c: Attribute, op: Operation) -> _Layout:
    if a != b:
        raise MmaSyncRewriteError(f"A ({a}) and B ({b}) have different element types", op)
    if isinstance(a, Float16Type) and isinstance(c, Float16Type | Float32Type):
        return _F16_LAYOUT
    if isinstance(a, BFloat16Type) and isinstance(c, Float32Type):
        return _F16_LAYOUT
    if isinstance(a, Float32Type) and isinstance(c, Float32Type):
        return _TF32_LAYOUT
    raise MmaSyncRewriteError(
        f"no mma.sync for {a} x {b} -> {c} (f16 x f16 -> f16/f32, bf16 x bf16 -> f32, "
        "f32 x f32 -> f32 as tf32)",
        op,
    )


Interval = tuple[int | None, int | None]
"""Closed bounds (lower, upper) of an index value; None where unknown."""

_UNKNOWN: Interval = (None, None)


def _add(x: int | None, y: int | None) -> int | None:
    return None if x is None or y is None else x + y


def _expr_interval(expr: AffineExpr, operands: list[Interval], dims: int) -> Interval:
    """Interval arithmetic over an affine expression of operands with known intervals."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[dims + expr.position]
    if not isinstance(expr, AffineBinaryOpExpr):
        return _UNKNOWN
    lo1, hi1 = _expr_interval(expr.lhs, operands, dims)
    rhs = expr.rhs
    if expr.kind == AffineBinaryOpKind.Add:
        lo2, hi2 = _expr_interval(rhs, operands, dims)
        return _add(lo1, lo2), _add(hi1, hi2)
    if not isinstance(rhs, AffineConstantExpr):
        return _UNKNOWN
    c = rhs.value
    if expr.kind == AffineBinaryOpKind.Mul:
        scaled = (None if lo1 is None else lo1 * c, None if hi1 is None else hi1 * c)
        return scaled if c >= 0 else (scaled[1], scaled[0])
    if c <= 0:
        return _UNKNOWN
    if expr.kind == AffineBinaryOpKind.Mod:
        return 0, c - 1
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return (None if lo1 is None else lo1 // c, None if hi1 is None else hi1 // c)
    return (None if lo1 is None else -(-lo1 // c), None if hi1 is None else -(-hi1 // c))


def _interval(value: SSAValue, depth: int = 0) -> Interval:
    """Closed bounds of an index value computed by constants, affine ops, arith
    add/sub/mul and gpu ids (thread-dependent tile sizes and offsets)."""
    if depth > 32 or not isinstance(value, OpResult):
        return _UNKNOWN
    op = value.op
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        v = op.value.value.data
        return v, v
    if isinstance(op, gpu.ThreadIdOp | gpu.LaneIdOp | gpu.BlockIdOp):
        return 0, None
    if isinstance(op, arith.AddiOp | arith.MuliOp | arith.SubiOp):
        (lo1, hi1), (lo2, hi2) = (_interval(o, depth + 1) for o in op.operands)
        if isinstance(op, arith.AddiOp):
            return _add(lo1, lo2), _add(hi1, hi2)
        if isinstance(op, arith.SubiOp):
            return _add(lo1, None if hi2 is None else -hi2), _add(
                hi1, None if lo2 is None else -lo2
            )
        if None in (lo1, hi1, lo2, hi2) or min(lo1 or 0, lo2 or 0) < 0:
            return (
                (0, None)
                if (lo1 or 0) >= 0 and (lo2 or 0) >= 0 and None not in (lo1, lo2)
                else _UNKNOWN
            )
        assert hi1 is not None and hi2 is not None and lo1 is not None and lo2 is not None
        return lo1 * lo2, hi1 * hi2
    if isinstance(op, affine.MinOp | affine.MaxOp | affine.ApplyOp):
        map_ = op.properties["map"]
        assert isinstance(map_, AffineMapAttr)
        operands = [_interval(o, depth + 1) for o in op.operands]
        results = [_expr_interval(e, operands, map_.data.num_dims) for e in map_.data.results]
        los, his = [r[0] for r in results], [r[1] for r in results]
        if isinstance(op, affine.MinOp):
            known = [h for h in his if h is not None]
            return (
                None if None in los else min(x for x in los if x is not None),
                min(known) if known else None,
            )
        known = [x for x in los if x is not None]
        return (
            max(known) if known else None,
            None if None in his else max(x for x in his if x is not None),
        )
    return _UNKNOWN


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _bound(value: SSAValue, dim: int, op: Operation, what: str) -> int:
    """The static size of `value`'s dimension, or a constant bound of its dynamic size
    (a `memref.subview` size that an `affine.min` bounds)."""
    t = value.type
    assert isinstance(t, MemRefType)
    size = t.get_shape()[dim]
    if size != DYNAMIC_INDEX:
        return size
    view = value.owner
    if isinstance(view, memref.SubviewOp):
        entry = mixed_values(view.static_sizes, view.sizes)[dim]
        bound = entry if isinstance(entry, int) else _interval(entry)[1]
        if bound is not None:
            return bound
    raise MmaSyncRewriteError(
        f"size {dim} of {what} is dynamic without a constant bound (tile it first)", op
    )


@dataclass
class _Builder:
    """Emits the fragment loads and stores of one lane before an anchor op."""

    rewriter: PatternRewriter
    at: Operation
    lane: SSAValue
    lane_rows: SSAValue  # g = lane / 4
    lane_cols: SSAValue  # t = lane % 4
    pair: bool  # whether A's and B's columns are 2t (16-bit fragments) or t (tf32); C's are 2t
    _constants: dict[int, SSAValue] = field(default_factory=dict[int, SSAValue])
    _columns: SSAValue | None = None
    _ldmatrix_rows: SSAValue | None = None
    _ldmatrix_cols: SSAValue | None = None

    def at_op(self, at: Operation) -> _Builder:
        """A builder of the same lane that emits before `at` (its own constants: `at` may
        sit in another region)."""
        return _Builder(self.rewriter, at, self.lane, self.lane_rows, self.lane_cols, self.pair)

    def emit(self, op: Operation) -> SSAValue:
        op.location = self.at.location
        self.rewriter.insert(op, InsertPoint.before(self.at))
        return op.results[0]

    def index(self, value: int) -> SSAValue:
        if value not in self._constants:
            self._constants[value] = self.emit(arith.ConstantOp(IntegerAttr(value, IndexType())))
        return self._constants[value]

    def position(
        self, row: int, col: int, transposed: bool, pair: bool
    ) -> tuple[SSAValue, SSAValue]:
        """(row + g, col + 2t) (t without `pair`; or their transpose for B: (k + 2t, n + g))."""
        if not pair:
            base_cols = self.lane_cols
        else:
            if self._columns is None:
                self._columns = self.emit(arith.MuliOp(self.lane_cols, self.index(2)))
            base_cols = self._columns
        if transposed:
            return (
                self.emit(arith.AddiOp(base_cols, self.index(row))),
                self.emit(arith.AddiOp(self.lane_rows, self.index(col))),
            )
        return (
            self.emit(arith.AddiOp(self.lane_rows, self.index(row))),
            self.emit(arith.AddiOp(base_cols, self.index(col))),
        )

    def inside(
        self, memref_value: SSAValue, at: tuple[SSAValue, SSAValue], bounds: tuple[int, int]
    ) -> SSAValue | None:
        """Whether `at` lies inside the memref's sizes (None: always, its sizes are the
        static bounds)."""
        t = memref_value.type
        assert isinstance(t, MemRefType)
        conditions: list[SSAValue] = []
        for dim, (i, bound) in enumerate(zip(at, bounds, strict=True)):
            if t.get_shape()[dim] == bound:
                continue
            size = self.emit(memref.DimOp(memref_value, self.index(dim)))
            conditions.append(self.emit(arith.CmpiOp(i, size, "ult")))
        if not conditions:
            return None
        result = conditions[0]
        for c in conditions[1:]:
            result = self.emit(arith.AndIOp(result, c))
        return result

    def load(
        self,
        source: SSAValue,
        bounds: tuple[int, int],
        shape: tuple[int, int],
        offsets: Callable[[int, int], tuple[int, int]],
        transposed: bool = False,
        accumulator: bool = False,
    ) -> SSAValue:
        """One fragment: element (i, e) from `source` at `offsets(i, e)` + the lane's
        position; 0 outside the memref's sizes (not loaded there)."""
        t = source.type
        assert isinstance(t, MemRefType)
        element = t.element_type
        assert isinstance(element, Float16Type | BFloat16Type | Float32Type)  # by _layout
        zero = self.emit(arith.ConstantOp(FloatAttr(0.0, element)))
        values: list[SSAValue] = []
        for i in range(shape[0]):
            for e in range(shape[1]):
                row, col = offsets(i, e)
                at = self.position(row, col, transposed, self.pair or accumulator)
                inside = self.inside(source, at, bounds)
                if inside is None:
                    values.append(self.emit(memref.LoadOp.get(source, list(at))))
                    continue
                # Loaded only inside: an empty edge view's base may lie past the buffer.
                load = memref.LoadOp.get(source, list(at))
                guarded = scf.IfOp(
                    inside,
                    [element],
                    [load, scf.YieldOp(load.res)],
                    [scf.YieldOp(zero)],
                )
                values.append(self.emit(guarded))
        return self.emit(vector.FromElementsOp(values, VectorType(element, shape)))

    def ldmatrix(
        self, source: SSAValue, row: int, col: int, tiles: int, transpose: bool
    ) -> SSAValue:
        """`tiles` 8x8 tiles of 16-bit elements from `source`: lane l gives the address of
        row `row + l % 16` at column `col + 8 (l / 16)` (x4), or `col` (x2, where only
        lanes 0-15 give addresses)."""
        if self._ldmatrix_rows is None:
            sixteen = self.index(16)
            self._ldmatrix_rows = self.emit(arith.RemUIOp(self.lane, sixteen))
            half = self.emit(arith.DivUIOp(self.lane, sixteen))
            self._ldmatrix_cols = self.emit(arith.MuliOp(half, self.index(8)))
        assert self._ldmatrix_cols is not None
        rows = self.emit(arith.AddiOp(self._ldmatrix_rows, self.index(row)))
        cols = (
            self.emit(arith.AddiOp(self._ldmatrix_cols, self.index(col)))
            if tiles == 4
            else self.index(col)
        )
        t = source.type
        assert isinstance(t, MemRefType)
        result = VectorType(t.element_type, (tiles, 2))
        return self.emit(
            ng.LdMatrixOp(source, [rows, cols], result, num_tiles=tiles, transpose=transpose)
        )

    def halves(self, fragment: SSAValue) -> tuple[SSAValue, SSAValue]:
        """Rows 0-1 and rows 2-3 of a `vector<4x2>` (two B fragments of one ldmatrix.x4)."""
        t = fragment.type
        assert isinstance(t, VectorType)
        half = VectorType(t.element_type, (2, 2))
        zero = self.emit(arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(half, [0.0] * 4)))
        parts: list[SSAValue] = []
        for first in (0, 2):
            part = zero
            for i in range(2):
                row = self.emit(vector.ExtractOp(fragment, [first + i]))
                part = self.emit(vector.InsertOp(row, part, [i]))
            parts.append(part)
        return parts[0], parts[1]

    def ldmatrix_ready(
        self, source: SSAValue, bounds: tuple[int, int], tiles: tuple[int, int]
    ) -> SSAValue | None:
        """The warp-uniform condition under which ldmatrix reads `source` (a 16-bit operand
        in shared memory, whose static bounds are whole `tiles`): each lane's
        16-byte row address is aligned (the first element's address a multiple of 16
        bytes, the row stride of 8 elements, the inner stride 1) and the sizes are the bounds (a partial edge tile
        takes the element loads, which mask). None when ldmatrix cannot read it."""
        t = source.type
        assert isinstance(t, MemRefType)
        if not is_shared_memory_space(t.memory_space) or element_bit_width(t.element_type) != 16:
            return None
        if any(b % t for b, t in zip(bounds, tiles, strict=True)):
            return None
        shape = t.get_shape()
        if any(
            size not in (DYNAMIC_INDEX, bound) for size, bound in zip(shape, bounds, strict=True)
        ):
            return None
        meta = memref.ExtractStridedMetaDataOp(source)
        pointer = memref.ExtractAlignedPointerAsIndexOp.get(source)
        for new in (meta, pointer):
            new.location = self.at.location
            self.rewriter.insert(new, InsertPoint.before(self.at))
        offset, sizes, strides = meta.offset, meta.sizes, meta.strides
        # The byte address of the view's first element (a view of a buffer at a byte
        # shift moves the aligned pointer), and its row stride in elements.
        bytes_ = self.emit(arith.MuliOp(offset, self.index(2)))
        start = self.emit(arith.AddiOp(pointer.aligned_pointer, bytes_))
        zero = self.index(0)
        conditions = [
            self.emit(arith.CmpiOp(self.emit(arith.RemUIOp(start, self.index(16))), zero, "eq")),
            self.emit(
                arith.CmpiOp(self.emit(arith.RemUIOp(strides[0], self.index(8))), zero, "eq")
            ),
            self.emit(arith.CmpiOp(strides[1], self.index(1), "eq")),
        ]
        for size, value, bound in zip(shape, sizes, bounds, strict=True):
            if size == DYNAMIC_INDEX:
                conditions.append(self.emit(arith.CmpiOp(value, self.index(bound), "eq")))
        result = conditions[0]
        for c in conditions[1:]:
            result = self.emit(arith.AndIOp(result, c))
        return result

    def either(
        self,
        condition: SSAValue,
        then: Callable[[_Builder], list[SSAValue]],
        otherwise: Callable[[_Builder], list[SSAValue]],
        types: Sequence[Attribute],
    ) -> list[SSAValue]:
        """An `scf.if` on `condition` whose branches yield `then`'s and `otherwise`'s
        values (each built in its own region)."""
        placeholders = [scf.YieldOp(), scf.YieldOp()]
        branch = scf.IfOp(condition, list(types), [placeholders[0]], [placeholders[1]])
        branch.location = self.at.location
        self.rewriter.insert(branch, InsertPoint.before(self.at))
        for placeholder, build in zip(placeholders, (then, otherwise), strict=True):
            values = build(self.at_op(placeholder))
            self.rewriter.replace(placeholder, scf.YieldOp(*values))
        return list(branch.results)

    def store(
        self,
        fragment: SSAValue,
        target: SSAValue,
        bounds: tuple[int, int],
        offsets: Callable[[int, int], tuple[int, int]],
    ) -> None:
        """Store each element of a C fragment, skipping those outside the memref's sizes."""
        t = fragment.type
        assert isinstance(t, VectorType)
        rows, width = t.get_shape()
        for i in range(rows):
            for e in range(width):
                value = self.emit(vector.ExtractOp(fragment, [i, e]))
                row, col = offsets(i, e)
                at = self.position(row, col, False, True)
                inside = self.inside(target, at, bounds)
                store = memref.StoreOp.get(value, target, list(at))
                if inside is None:
                    store.location = self.at.location
                    self.rewriter.insert(store, InsertPoint.before(self.at))
                    continue
                guarded = scf.IfOp(inside, [], [store, scf.YieldOp()])
                guarded.location = self.at.location
                self.rewriter.insert(guarded, InsertPoint.before(self.at))


def _a_offsets(layout: _Layout, mi: int, ki: int) -> Callable[[int, int], tuple[int, int]]:
    m0, k0 = 16 * mi, layout.shape[2] * ki
    if layout.tf32:
        return lambda i, e: (m0 + 8 * i, k0)
    return lambda i, e: (m0 + 8 * (i % 2), k0 + e + 8 * (i // 2))


def _b_offsets(layout: _Layout, ki: int, ni: int) -> Callable[[int, int], tuple[int, int]]:
    # (k, n) offsets from (2t or t, g): B's k runs along the lane's column index.
    k0, n0 = layout.shape[2] * ki, 8 * ni
    if layout.tf32:
        return lambda i, e: (k0, n0)
    return lambda i, e: (k0 + e + 8 * i, n0)


def _c_offsets(mi: int, ni: int) -> Callable[[int, int], tuple[int, int]]:
    return lambda i, e: (16 * mi + 8 * i, 8 * ni + e)


def _hoistable(value: SSAValue, loop: scf.ForOp) -> list[Operation] | None:
    """The side-effect-free ops inside `loop` that `value` is computed from (to move
    before the loop, in order), or None when one of them depends on the loop."""
    chain: list[Operation] = []
    seen: set[Operation] = set()

    def visit(v: SSAValue) -> bool:
        owner = v.owner
        if isinstance(owner, Block):
            return not loop.is_ancestor(owner.parent_op() or loop) and owner is not loop.body.block
        if owner in seen:
            return True
        if not loop.is_ancestor(owner):
            return True
        # affine.min is pure too (schedir's op does not carry the trait yet).
        pure = is_side_effect_free(owner) or isinstance(owner, affine.MinOp)
        if owner.parent is not loop.body.block or not pure:
            return False
        if not all(visit(o) for o in owner.operands):
            return False
        seen.add(owner)
        chain.append(owner)
        return True

    return chain if visit(value) else None


def rewrite_matmul_as_mma_sync(rewriter: PatternRewriter, op: Operation) -> list[ng.MmaSyncOp]:
    """Rewrite `op` (see the module docstring) into mma.sync on one warp's fragments;
    raises `MmaSyncRewriteError` before changing anything when it does not qualify."""
    if not isinstance(op, linalg.MatmulOp):
        raise MmaSyncRewriteError("target is not a linalg.matmul", op)
    if op.default_indexing_maps() != op.default_maps():
        raise MmaSyncRewriteError("only matmul ops with non-extended semantics are supported", op)
    a, b = op.inputs
    c = op.outputs[0]
    types = [v.type for v in (a, b, c)]
    if not all(isinstance(t, MemRefType) and t.get_num_dims() == 2 for t in types):
        raise MmaSyncRewriteError("matmul is not on 2-D memrefs (bufferize first)", op)
    a_t, b_t, c_t = (t for t in types if isinstance(t, MemRefType))
    layout = _layout(a_t.element_type, b_t.element_type, c_t.element_type, op)
    # Each size's bound (the operands' bounds of one size may differ: each is only an upper
    # bound), rounded up to whole mma tiles: the elements past a size are masked.
    tm, tn, tk = layout.shape
    m = _round_up(max(_bound(a, 0, op, "A"), _bound(c, 0, op, "C")), tm)
    n = _round_up(max(_bound(b, 1, op, "B"), _bound(c, 1, op, "C")), tn)
    k = _round_up(max(_bound(a, 1, op, "A"), _bound(b, 0, op, "B")), tk)
    count = (m // tm) * (n // tn) * (k // tk)
    if count > MAX_MMA_OPS:
        raise MmaSyncRewriteError(
            f"the {m}x{n}x{k} matmul needs {count} mma.sync per warp (at most {MAX_MMA_OPS}: "
            "tile it over more warps or a smaller k step)",
            op,
        )
    loop = op.parent_op()
    carry_loop: scf.ForOp | None = None
    if isinstance(loop, scf.ForOp) and not _written_in(c, loop, op):
        chain = _hoistable(c, loop)
        if chain is not None:
            for moved in chain:
                moved.detach()
                rewriter.insert(moved, InsertPoint.before(loop))
            carry_loop = loop

    def builder(at: Operation) -> _Builder:
        lane = gpu.LaneIdOp()
        four = arith.ConstantOp(IntegerAttr(4, IndexType()))
        g = arith.DivUIOp(lane.results[0], four.result)
        t = arith.RemUIOp(lane.results[0], four.result)
        for new in (lane, four, g, t):
            new.location = op.location
        rewriter.insert([lane, four, g, t], InsertPoint.before(at))
        return _Builder(rewriter, at, lane.results[0], g.result, t.result, pair=not layout.tf32)

    tiles = [(mi, ni) for mi in range(m // tm) for ni in range(n // tn)]
    anchor = op if carry_loop is None else carry_loop
    before = builder(anchor)
    fill = _filling(c, anchor, op)
    if fill is not None:
        # C starts as the fill's value (the stores after the k loop write every element
        # the fill wrote): no fill, no loads of it.
        value = fill.inputs[0]
        assert isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp)
        start = value.op.value
        assert isinstance(start, FloatAttr)
        splat = DenseIntOrFPElementsAttr.from_list(
            VectorType(c_t.element_type, (2, 2)), [start.value.data] * 4
        )
        rewriter.erase(fill)
        accumulators = [before.emit(arith.ConstantOp(splat)) for _ in tiles]
    else:
        accumulators = [
            before.load(c, (m, n), (2, 2), _c_offsets(mi, ni), accumulator=True) for mi, ni in tiles
        ]
    if carry_loop is None:
        results, mmas = _multiply(before, op, layout, (m, n, k), accumulators)
        for (mi, ni), acc in zip(tiles, results, strict=True):
            before.store(acc, c, (m, n), _c_offsets(mi, ni))
        rewriter.erase(op)
        return mmas

    # Carry the accumulators through the loop: a new scf.for with more iter_args.
    old_body = carry_loop.body.block
    new_body = Block(arg_types=[*old_body.arg_types, *(v.type for v in accumulators)])
    carried = list(new_body.args[len(old_body.args) :])
    results, mmas = _multiply(builder(op), op, layout, (m, n, k), carried)
    rewriter.erase(op)
    yield_op = old_body.last_op
    assert isinstance(yield_op, scf.YieldOp)
    rewriter.replace(yield_op, scf.YieldOp(*yield_op.operands, *results))
    for old_arg, new_arg in zip(old_body.args, new_body.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    for body_op in list(old_body.ops):
        body_op.detach()
        new_body.add_op(body_op)
    new_loop = scf.ForOp(
        carry_loop.lb,
        carry_loop.ub,
        carry_loop.step,
        [*carry_loop.iter_args, *accumulators],
        new_body,
    )
    new_loop.location = carry_loop.location
    rewriter.insert(new_loop, InsertPoint.before(carry_loop))
    count_old = len(carry_loop.results)
    rewriter.replace(carry_loop, [], list(new_loop.results[:count_old]))
    after = before.at_op(_next_op(new_loop))
    for (mi, ni), acc in zip(tiles, new_loop.results[count_old:], strict=True):
        after.store(acc, c, (m, n), _c_offsets(mi, ni))
    return mmas


def _multiply(
    inner: _Builder,
    op: linalg.MatmulOp,
    layout: _Layout,
    sizes: tuple[int, int, int],
    accumulators: Sequence[SSAValue],
) -> tuple[list[SSAValue], list[ng.MmaSyncOp]]:
    """The A and B fragments and the mma.sync of every tile of C over every k tile, from
    `accumulators` (one per tile of C, row-major): the results and the mma ops. One k
    tile after the other: its fragments (one branch of ldmatrix or element loads per
    operand), then its mma.sync on every tile of C, so that only one k tile's fragments
    are live beside the accumulators where the branches stay (edge tiles)."""
    m, n, k = sizes
    tm, tn, tk = layout.shape
    a, b = op.inputs

    def a_elements(ki: int) -> Callable[[_Builder], list[SSAValue]]:
        return lambda at: [
            at.load(a, (m, k), layout.a, _a_offsets(layout, mi, ki)) for mi in range(m // tm)
        ]

    def a_ldmatrix(ki: int) -> Callable[[_Builder], list[SSAValue]]:
        # x4: the four 8x8 tiles of a 16x16 A tile, in the fragment's register order.
        return lambda at: [
            at.ldmatrix(a, tm * mi, tk * ki, 4, transpose=False) for mi in range(m // tm)
        ]

    def b_elements(ki: int) -> Callable[[_Builder], list[SSAValue]]:
        return lambda at: [
            at.load(b, (k, n), layout.b, _b_offsets(layout, ki, ni), transposed=True)
            for ni in range(n // tn)
        ]

    def b_ldmatrix(ki: int) -> Callable[[_Builder], list[SSAValue]]:
        # B is k-major (rows are k): transposed tiles; x4 reads two n tiles at once.
        def load(at: _Builder) -> list[SSAValue]:
            frags: list[SSAValue] = []
            for ni in range(0, n // tn, 2):
                if ni + 1 < n // tn:
                    pair = at.ldmatrix(b, tk * ki, tn * ni, 4, transpose=True)
                    frags.extend(at.halves(pair))
                else:
                    frags.append(at.ldmatrix(b, tk * ki, tn * ni, 2, transpose=True))
            return frags

        return load

    ready = {
        operand: None if layout.tf32 else inner.ldmatrix_ready(operand, bounds, whole)
        for operand, bounds, whole in ((a, (m, k), (tm, tk)), (b, (k, n), (tk, tn)))
    }

    def fragments(
        operand: SSAValue,
        tiles: Callable[[_Builder], list[SSAValue]],
        elements: Callable[[_Builder], list[SSAValue]],
        count: int,
    ) -> list[SSAValue]:
        condition = ready[operand]
        if condition is None:
            return elements(inner)
        shape = layout.a if operand is a else layout.b
        operand_type = operand.type
        assert isinstance(operand_type, MemRefType)
        types = [VectorType(operand_type.element_type, shape)] * count
        return inner.either(condition, tiles, elements, types)

    tiles = [(mi, ni) for mi in range(m // tm) for ni in range(n // tn)]
    accs = list(accumulators)
    mmas: list[ng.MmaSyncOp] = []
    for ki in range(k // tk):
        a_frags = fragments(a, a_ldmatrix(ki), a_elements(ki), m // tm)
        b_frags = fragments(b, b_ldmatrix(ki), b_elements(ki), n // tn)
        for index, (mi, ni) in enumerate(tiles):
            mma = ng.MmaSyncOp(
                a_frags[mi], b_frags[ni], accs[index], layout.shape, tf32=layout.tf32
            )
            inner.emit(mma)
            mmas.append(mma)
            accs[index] = mma.res
    return accs, mmas


_VIEWS = (memref.SubviewOp, memref.CastOp, memref.ViewOp, memref.ReinterpretCastOp)
"""Ops whose result is a view of their first operand's memory."""


def _next_op(op: Operation) -> Operation:
    following = op.next_op
    assert following is not None, "an scf.for is followed by its block's terminator"
    return following


def _index_key(value: SSAValue) -> object:
    """A key equal for index values that compute the same: the same value, equal
    constants, or `affine.apply`s (`affine.min`s, `affine.max`es) of the same expressions
    (dims and symbols alike) on operands of equal keys."""
    if isinstance(value, OpResult):
        owner = value.op
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return ("constant", owner.value.value.data)
        if isinstance(owner, affine.ApplyOp | affine.MinOp | affine.MaxOp):
            map_ = owner.properties["map"]
            assert isinstance(map_, AffineMapAttr)
            data = map_.data
            as_symbols = data.replace_dims_and_symbols(
                [AffineSymExpr(i) for i in range(data.num_dims)],
                [AffineSymExpr(data.num_dims + i) for i in range(data.num_symbols)],
                0,
                data.num_dims + data.num_symbols,
            )
            return (owner.name, str(as_symbols), tuple(_index_key(o) for o in owner.operands))
    return value


def _same_view(x: SSAValue, y: SSAValue) -> bool:
    """Whether `x` and `y` are provably the same memory: the same value, or subviews of
    the same view at offsets, sizes and strides that compute the same."""
    if x is y:
        return True
    if not (isinstance(x, OpResult) and isinstance(y, OpResult)):
        return False
    a, b = x.op, y.op
    if not (isinstance(a, memref.SubviewOp) and isinstance(b, memref.SubviewOp)):
        return False
    if x.type != y.type or not _same_view(a.source, b.source):
        return False
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if a.properties[name] != b.properties[name]:
            return False
    for va, vb in (
        (a.offsets, b.offsets),
        (a.sizes, b.sizes),
        (a.strides, b.strides),
    ):
        if [_index_key(v) for v in va] != [_index_key(v) for v in vb]:
            return False
    return True


def _filling(c: SSAValue, anchor: Operation, matmul: Operation) -> linalg.FillOp | None:
    """The `linalg.fill` of a float constant that last wrote C before `anchor` (the k
    loop, or the matmul) in its block, with only side-effect-free ops and barriers
    between, on the same memory as C and used by nothing else; None otherwise."""
    at = anchor.prev_op
    while at is not None and (
        isinstance(at, gpu.BarrierOp | affine.ApplyOp | affine.MinOp | affine.MaxOp)
        or is_side_effect_free(at)
        or at.dialect_name() == "arith"  # no memory effects (not all carry the trait)
    ):
        at = at.prev_op
    if not isinstance(at, linalg.FillOp) or len(at.outputs) != 1:
        return None
    value = at.inputs[0]
    if not (
        isinstance(value, OpResult)
        and isinstance(value.op, arith.ConstantOp)
        and isinstance(value.op.value, FloatAttr)
        and at.outputs[0].type == c.type
        and _same_view(at.outputs[0], c)
    ):
        return None
    # Nothing else reads the filled memory before the matmul's stores overwrite it.
    filled = at.outputs[0]
    for use in filled.uses:
        if use.operation is not at and use.operation is not matmul:
            return None
    for use in c.uses:
        if use.operation is not at and use.operation is not matmul:
            return None
    return at


def _written_in(c: SSAValue, loop: scf.ForOp, matmul: Operation) -> bool:
    """Whether anything in `loop` other than `matmul` uses C's memory (then it cannot be
    carried in registers)."""
    views = [c]
    while isinstance(views[-1].owner, _VIEWS):
        views.append(views[-1].owner.operands[0])
    for view in views:
        for use in view.uses:
            user = use.operation
            if user is matmul or any(user is v.owner for v in views):
                continue
            if loop.is_ancestor(user):
                return True
    return False


__all__ = ["MAX_MMA_OPS", "MmaSyncRewriteError", "rewrite_matmul_as_mma_sync"]
