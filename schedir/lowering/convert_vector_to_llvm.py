"""`convert-vector-to-llvm`: the vector dialect to the LLVM dialect, as upstream's pass.

Two steps, as upstream's ConvertVectorToLLVMPass:

1. progressive lowering to 1-D vector ops, by a greedy rewrite with the vector folders and
   upstream's sets: broadcasts, contractions (`vector-contract-lowering`, `dot` by
   default) and outer products, n-D masks, masked transfers, shape casts, transposes
   (`vector-transpose-lowering`, `eltwise` by default), transfers of rank 1 (to
   `vector.load` / `store` / `maskedload` / `maskedstore`, after giving out-of-bounds ones
   a `create_mask(dim - offset)`), strided slices (to shuffles), `vector.step`, n-D fma /
   bitcast / interleave (rank-reduced by rows);
2. conversion of what is left, op by op: loads and stores (a GEP on the memref's aligned
   pointer; masked ones to `llvm.intr.masked.load/store`), `extract`/`insert` (static
   or dynamic last position) to `extractvalue`/`extractelement` and their inserts,
   broadcasts of scalars (`insertelement` + zero-mask `shufflevector`), `shuffle`,
   `fma` (`llvm.intr.fmuladd`), `reduction` (`llvm.intr.vector.reduce.*`: float add/mul
   ordered from the accumulator unless `reassoc` is set; inside a `vector.mask` the
   masked-off lanes first take the kind's neutral value), `bitcast`, `from_elements`,
   `to_elements`, `interleave`, `deinterleave`, 1-D `create_mask` (a compare of a lane
   index constant with the splatted bound, in i32 unless `force-32bit-vector-indices` is
   off), `type_cast`, and `ub.poison`. n-D vectors are LLVM arrays of 1-D vectors; n-D
   arith and math ops are split into 1-D ones on the rows (what upstream's arith and math
   conversions do), which `convert-arith-to-llvm` / `convert-math-to-llvm` then convert.

Left-over vector ops upstream also needs lowered first (`contract` under a strategy that
keeps it, `multi_reduction`, n-D transfers, masked ops other than reductions) are
reported: run `lower-vector` (or the vector descriptors) before this pass.

Beyond upstream: n-D `vector.load` / `vector.store` are done row by row.

Before:

    %v = vector.load %m[%i] : memref<?xf32>, vector<8xf32>
    %r = vector.reduction <add>, %v, %acc : vector<8xf32> into f32

After:

    %p = llvm.getelementptr %aligned[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %p <alignment = 4> : !llvm.ptr -> vector<8xf32>
    %r = llvm.intr.vector.reduce.fadd(%acc, %v) : (f32, vector<8xf32>) -> f32
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import math, ub
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
    i64,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from schedir.dialects import llvm, vector
from schedir.dialects.arith import Arith
from schedir.dialects.llvm import vector as llvm_vector
from schedir.dialects.vector.attributes import dense_ints, kind_name
from schedir.dialects.vector.shape import POISON_INDEX
from schedir.lowering.llvm import vector as lv
from schedir.lowering.llvm import vector_memory as lvm
from schedir.lowering.llvm.common import (
    INDEX,
    LLVMTypeConverter,
    Lowering,
    fastmath_to_llvm,
    handler_for,
    unsupported,
)
from schedir.lowering.llvm.vector import PASS
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.greedy import PatternSet

_CONTRACT_STRATEGIES = ("dot", "matmulintrinsics", "outerproduct", "parallelarith")
_TRANSPOSE_STRATEGIES = ("eltwise", "flat_transpose", "shuffle_1d", "shuffle_16x16")


# --- step 1: progressive lowering to 1-D ops -------------------------------------------------


def lowering_patterns(contract: str = "dot", transpose: str = "eltwise") -> PatternSet:
    """The greedy step's pattern set (folds included)."""
    from schedir.transform.rewrites.vector import contract as vector_contract
    from schedir.transform.rewrites.vector import masks as vector_masks
    from schedir.transform.rewrites.vector import outerproduct as vector_outerproduct
    from schedir.transform.rewrites.vector import shape as vector_shape
    from schedir.transform.rewrites.vector import with_folds
    from schedir.transform.rewrites.vector.llvm_prep import prep_patterns
    from schedir.transform.rewrites.vector.transfer import lower_transfer_patterns

    strategy = {"matmulintrinsics": "llvmintr", "flat_transpose": "llvmintr"}
    patterns = PatternSet()
    patterns.update(vector_shape.lower_broadcast_patterns())
    patterns.update(vector_contract.lower_contraction_patterns(strategy.get(contract, contract)))
    patterns.update(vector_outerproduct.lower_outer_product_patterns())
    patterns.update(vector_masks.lower_masks_patterns())
    patterns.update(vector_masks.lower_masked_transfers_patterns())
    patterns.update(vector_shape.lower_shape_cast_patterns())
    patterns.update(vector_shape.lower_transpose_patterns(strategy.get(transpose, transpose)))
    patterns.update(lower_transfer_patterns(1))
    patterns.update(prep_patterns())
    return with_folds(patterns)


# --- step 2: conversion ----------------------------------------------------------------------


@dataclass
class _Options:
    reassociate_fp_reductions: bool
    force_32bit_vector_indices: bool


def _vtype(v: SSAValue) -> VectorType:
    return cast(VectorType, v.type)


def _positions(op: vector.ExtractOp | vector.InsertOp) -> list[int | SSAValue]:
    """The static / dynamic position of a vector.extract / insert, in order."""
    dynamic = list(op.dynamic_position)
    result: list[int | SSAValue] = []
    for p in dense_ints(op.static_position):
        result.append(dynamic.pop(0) if p == DYNAMIC_INDEX else p)
    return result


def _static(lw: Lowering, op: Operation, positions: Sequence[int | SSAValue]) -> list[int]:
    if any(not isinstance(p, int) for p in positions):
        raise unsupported(PASS, op, "a dynamic position into a multi-dimensional vector")
    return [cast(int, p) for p in positions]


def _lane(lw: Lowering, position: int | SSAValue, op: Operation) -> SSAValue:
    """The i64 lane index of an extractelement / insertelement."""
    if isinstance(position, int):
        return lw.constant(position, INDEX, op)
    return lw.value(position, op)


def _extract(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.ExtractOp)
    emit = lw.emit(op)
    positions = _positions(op)
    result_type = lw.convert(op.result.type, op)
    if any(p == POISON_INDEX for p in positions if isinstance(p, int)):
        lw.replace(op, [lv.poison(emit, result_type)])
        return
    source = lw.value(op.vector, op)
    if isinstance(op.result.type, VectorType):
        lw.replace(op, [lv.extract_value(emit, source, _static(lw, op, positions))])
        return
    if not positions:  # a 0-D vector: its one lane
        positions = [0]
    row = lv.extract_value(emit, source, _static(lw, op, positions[:-1]))
    lw.replace(op, [emit(llvm.ExtractElementOp(row, _lane(lw, positions[-1], op)))])


def _lane0(lw: Lowering, emit: lv.Emit, value: SSAValue, op: Operation) -> SSAValue:
    """The element of the LLVM vector `value` of a 0-D vector."""
    return emit(llvm.ExtractElementOp(value, lw.constant(0, INDEX, op)))


def _insert(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.InsertOp)
    emit = lw.emit(op)
    positions = _positions(op)
    if any(p == POISON_INDEX for p in positions if isinstance(p, int)):
        lw.replace(op, [lv.poison(emit, lw.convert(op.result.type, op))])
        return
    dest = lw.value(op.dest, op)
    value = lw.value(op.source, op)
    if isinstance(op.source.type, VectorType):
        lw.replace(op, [lv.insert_value(emit, dest, value, _static(lw, op, positions))])
        return
    if not positions:  # a 0-D vector: its one lane
        positions = [0]
    leading = _static(lw, op, positions[:-1])
    row = lv.extract_value(emit, dest, leading)
    row = emit(llvm.InsertElementOp(row, value, _lane(lw, positions[-1], op)))
    lw.replace(op, [lv.insert_value(emit, dest, row, leading)])


def _broadcast(lw: Lowering, op: Operation, options: _Options) -> None:
    """Scalar -> any rank: one splat row inserted everywhere; a vector source (left when
    the greedy step could not lower it) is stretched row by row."""
    assert isinstance(op, vector.BroadcastOp)
    emit = lw.emit(op)
    dst = _vtype(op.vector)
    row_t = lv.row_type(dst)
    result_t = lw.convert(dst, op)
    source = lw.value(op.source, op)
    src_t = op.source.type
    if not isinstance(src_t, VectorType) or src_t.get_num_dims() == 0:
        if isinstance(src_t, VectorType):
            source = _lane0(lw, emit, source, op)
        row = lv.splat(lw, emit, source, row_t, op)
        if lv.is_row(dst):
            lw.replace(op, [row])
            return
        result = lv.poison(emit, result_t)
        for pos in lv.rows(dst.get_shape()):
            result = lv.insert_value(emit, result, row, pos)
        lw.replace(op, [result])
        return
    src_shape, dst_shape = src_t.get_shape(), dst.get_shape()
    offset = len(dst_shape) - len(src_shape)
    result = lv.poison(emit, result_t) if dst.get_num_dims() > 1 else None
    rows: dict[tuple[int, ...], SSAValue] = {}
    for pos in lv.rows(dst_shape):
        src_pos = tuple(
            0 if src_shape[d - offset] == 1 else pos[d] for d in range(offset, len(dst_shape) - 1)
        )
        row = rows.get(src_pos)
        if row is None:
            row = lv.extract_value(emit, source, src_pos)
            if src_shape[-1] == 1 and dst_shape[-1] != 1:
                lane = emit(llvm.ExtractElementOp(row, lw.constant(0, INDEX, op)))
                row = lv.splat(lw, emit, lane, row_t, op)
            rows[src_pos] = row
        if result is None:
            lw.replace(op, [row])
            return
        result = lv.insert_value(emit, result, row, pos)
    lw.replace(op, [cast(SSAValue, result)])


def _shuffle(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.ShuffleOp)
    emit = lw.emit(op)
    mask = [int(m) for m in op.mask.get_values()]
    t1, t2 = _vtype(op.v1), _vtype(op.v2)
    result_t = _vtype(op.result)
    a, b = lw.value(op.v1, op), lw.value(op.v2, op)
    if result_t.get_num_dims() == 1 and t1 == t2:
        lw.replace(op, [lv.shuffle(emit, a, b, mask)])
        return
    # Different lengths or n-D: pick each lane (row) from the operand it comes from.
    n1 = lv.width(t1) if t1.get_num_dims() <= 1 else t1.get_shape()[0]
    result = lv.poison(emit, lw.convert(result_t, op))
    for i, m in enumerate(mask):
        src, pos = (a, m) if m < n1 else (b, m - n1)
        if m == -1:
            continue
        if result_t.get_num_dims() == 1:
            lane = emit(llvm.ExtractElementOp(src, lw.constant(pos, INDEX, op)))
            result = emit(llvm.InsertElementOp(result, lane, lw.constant(i, INDEX, op)))
        else:
            result = lv.insert_value(emit, result, lv.extract_value(emit, src, [pos]), [i])
    lw.replace(op, [result])


def _fma(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.FMAOp)
    if not lv.is_row(_vtype(op.res)):
        raise unsupported(PASS, op, "a multi-dimensional fma (the greedy step unrolls it)")
    a, b, c = lw.values(op.operands, op)
    # schedir.dialects.llvm's float intrinsics come from a factory typed type[IRDLOperation].
    fmuladd = cast(Callable[..., Operation], llvm.FMulAddOp)
    lw.replace(op, [lw.emit(op)(fmuladd(a, b, c))])


def _reduction_fastmath(op: Operation, options: _Options) -> llvm.FastMathAttr:
    flags = fastmath_to_llvm(op.properties.get("fastmath"))
    if options.reassociate_fp_reductions:
        names = {f.value for f in flags.data} | {"reassoc"}
        return llvm.FastMathAttr([FastMathFlag(name) for name in sorted(names)])
    return flags


def _reduction(
    lw: Lowering,
    op: Operation,
    options: _Options,
    mask: SSAValue | None = None,
    anchor: Operation | None = None,
) -> SSAValue:
    """The LLVM reduction of `op`, inserted before `anchor` (`op` itself by default)."""
    assert isinstance(op, vector.ReductionOp)
    anchor = anchor or op
    emit = lw.emit(anchor)
    kind = kind_name(op.kind)
    v = lw.value(op.vector, anchor)
    if mask is not None:
        elem = lv.llvm_element(op.vector.type)
        fill = lv.dense_constant(emit, cast(VectorType, v.type), [lv.neutral(kind, elem)])
        v = emit(llvm_vector.SelectOp(mask, v, fill))
    acc = lw.value(op.acc, anchor) if op.acc is not None else None
    try:
        return lv.reduce(lw, emit, kind, v, acc, _reduction_fastmath(op, options), anchor)
    except ValueError as err:
        raise unsupported(PASS, op, str(err)) from None


def _reduction_op(lw: Lowering, op: Operation, options: _Options) -> None:
    if not lv.is_row(_vtype(op.operands[0])):
        raise unsupported(PASS, op, "a reduction of a vector that is not 0-D or 1-D")
    lw.replace(op, [_reduction(lw, op, options)])


def _mask(lw: Lowering, op: Operation, options: _Options) -> None:
    """A `vector.mask` left after the greedy step: only masked reductions are converted
    (masked-off lanes take the kind's neutral value)."""
    assert isinstance(op, vector.MaskOp)
    inner = op.maskable_op()
    if not isinstance(inner, vector.ReductionOp) or op.passthru is not None:
        name = inner.name if inner is not None else "nothing"
        raise unsupported(PASS, op, f"masking '{name}' (lower masked ops first)")
    mask = lw.value(op.mask, op)
    # Built before the vector.mask (where the operands dominate), which then goes with
    # the reduction it holds.
    lw.replace(op, [_reduction(lw, inner, options, mask, anchor=op)])


def _bitcast(lw: Lowering, op: Operation, options: _Options) -> None:
    (source,) = lw.values(op.operands, op)
    target = lw.convert(op.results[0].type, op)
    if not lv.is_row(_vtype(op.results[0])):
        raise unsupported(PASS, op, "a multi-dimensional bitcast (the greedy step unrolls it)")
    lw.replace(op, [lw.emit(op)(llvm.BitcastOp(source, target))])


def _from_elements(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.FromElementsOp)
    emit = lw.emit(op)
    t = _vtype(op.dest)
    elements = lw.values(op.elements, op)
    width = lv.width(t)
    row_t = lv.row_type(t)
    result = None if lv.is_row(t) else lv.poison(emit, lw.convert(t, op))
    for r, pos in enumerate(lv.rows(t.get_shape())):
        row = lv.poison(emit, row_t)
        for lane in range(width):
            index = lw.constant(lane, INDEX, op)
            row = emit(llvm.InsertElementOp(row, elements[r * width + lane], index))
        if result is None:
            lw.replace(op, [row])
            return
        result = lv.insert_value(emit, result, row, pos)
    lw.replace(op, [cast(SSAValue, result)])


def _to_elements(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.ToElementsOp)
    emit = lw.emit(op)
    t = _vtype(op.source)
    source = lw.value(op.source, op)
    values: list[SSAValue] = []
    for pos in lv.rows(t.get_shape()):
        row = lv.extract_value(emit, source, pos)
        for lane in range(lv.width(t)):
            values.append(emit(llvm.ExtractElementOp(row, lw.constant(lane, INDEX, op))))
    lw.replace(op, values)


def _interleave(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.InterleaveOp)
    if not lv.is_row(_vtype(op.lhs)):
        raise unsupported(PASS, op, "a multi-dimensional interleave")
    n = lv.width(_vtype(op.lhs))
    a, b = lw.value(op.lhs, op), lw.value(op.rhs, op)
    mask = [lane for i in range(n) for lane in (i, n + i)]
    lw.replace(op, [lv.shuffle(lw.emit(op), a, b, mask)])


def _deinterleave(lw: Lowering, op: Operation, options: _Options) -> None:
    assert isinstance(op, vector.DeinterleaveOp)
    if _vtype(op.source).get_num_dims() != 1:
        raise unsupported(PASS, op, "a multi-dimensional deinterleave")
    emit = lw.emit(op)
    n = _vtype(op.res1).get_shape()[0]
    source = lw.value(op.source, op)
    even = lv.shuffle(emit, source, source, [2 * i for i in range(n)])
    odd = lv.shuffle(emit, source, source, [2 * i + 1 for i in range(n)])
    lw.replace(op, [even, odd])


def _create_mask(lw: Lowering, op: Operation, options: _Options) -> None:
    """Upstream's `buildVectorComparison`: `[0, 1, .., n-1] < splat(bound)`."""
    assert isinstance(op, vector.CreateMaskOp)
    t = _vtype(op.mask_vector)
    if not lv.is_row(t):
        raise unsupported(PASS, op, "a multi-dimensional create_mask (the greedy step unrolls it)")
    emit = lw.emit(op)
    n = lv.width(t)
    index_t: IntegerType = i32 if options.force_32bit_vector_indices else INDEX
    lanes_t = VectorType(index_t, [n])
    lanes = lv.dense_constant(emit, lanes_t, list(range(n)))
    bound = lw.value(op.mask_dim_sizes[0], op)
    if index_t != INDEX:
        bound = emit(llvm.TruncOp(bound, index_t))
    bounds = lv.splat(lw, emit, bound, lanes_t, op)
    slt = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
    lw.replace(op, [emit(llvm.ICmpOp(lanes, bounds, slt))])


def _poison(lw: Lowering, op: Operation, options: _Options) -> None:
    lw.replace(op, [lv.poison(lw.emit(op), lw.convert(op.results[0].type, op))])


# -------------------------------------------------------------------------------------


# --- driver ---------------------------------------------------------------------------------------


def _memory(
    convert: Callable[[Lowering, Operation], None],
) -> Callable[[Lowering, Operation, _Options], None]:
    return lambda lw, op, options: convert(lw, op)


Handler = Callable[[Lowering, Operation, _Options], None]

_HANDLERS: dict[type[Operation], Handler] = {
    xvector.ExtractOp: _extract,
    xvector.InsertOp: _insert,
    xvector.BroadcastOp: _broadcast,
    xvector.ShuffleOp: _shuffle,
    vector.FMAOp: _fma,
    xvector.ReductionOp: _reduction_op,
    vector.MaskOp: _mask,
    xvector.BitcastOp: _bitcast,
    vector.FromElementsOp: _from_elements,
    vector.ToElementsOp: _to_elements,
    vector.InterleaveOp: _interleave,
    vector.DeinterleaveOp: _deinterleave,
    xvector.CreateMaskOp: _create_mask,
    vector.TypeCastOp: _memory(lvm.type_cast),
    xvector.LoadOp: _memory(lvm.load),
    xvector.StoreOp: _memory(lvm.store),
    xvector.MaskedLoadOp: _memory(lvm.masked_load),
    xvector.MaskedStoreOp: _memory(lvm.masked_store),
    ub.PoisonOp: _poison,
}
"""Conversion of each op, keyed by xDSL's class where schedir's replacement subclasses it."""

_MUST_BE_LOWERED: dict[type[Operation], str] = {
    vector.ContractionOp: "lower it first (lower-vector or apply_patterns.vector.lower_contraction)",
    vector.MultiDimReductionOp: (
        "lower it first (lower-vector or the multi-reduction descriptors)"
    ),
    vector.OuterProductOp: "lower it first (apply_patterns.vector.lower_outerproduct)",
    xvector.TransferReadOp: (
        "lower it first (lower-vector or apply_patterns.vector.transfer_to_scf)"
    ),
    xvector.TransferWriteOp: (
        "lower it first (lower-vector or apply_patterns.vector.transfer_to_scf)"
    ),
}

_ELEMENTWISE_OPS: tuple[type[Operation], ...] = (
    *xarith.Arith.operations,
    *Arith.operations,
    *math.Math.operations,
)
"""arith and math ops (xDSL's classes and schedir's): n-D ones are split into 1-D rows."""


def convert_vector(
    module: ModuleOp,
    converter: LLVMTypeConverter | None = None,
    *,
    contract_lowering: str = "dot",
    transpose_lowering: str = "eltwise",
    reassociate_fp_reductions: bool = False,
    force_32bit_vector_indices: bool = True,
) -> None:
    """Lower every vector op of `module` (see the module docstring)."""
    if not any(lv.has_vectors(op) for op in module.walk()):
        return  # nothing to do: skip the rewrite driver's walk of a big module
    apply_patterns_greedily(module, lowering_patterns(contract_lowering, transpose_lowering))
    options = _Options(reassociate_fp_reductions, force_32bit_vector_indices)
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        if op.parent is None:
            continue  # erased with the vector.mask around it
        handler = handler_for(_HANDLERS, op)
        if handler is not None:
            if isinstance(op.parent_op(), vector.MaskOp):
                continue  # converted with its vector.mask
            handler(lw, op, options)
        elif (why := handler_for(_MUST_BE_LOWERED, op)) is not None:
            raise unsupported(PASS, op, why)
        elif isinstance(op, lv.VECTOR_OPS):
            if isinstance(op, vector.YieldOp):
                continue
            raise unsupported(PASS, op)
        elif isinstance(op, _ELEMENTWISE_OPS) and op.results and lv.is_nd(op.results[0].type):
            if isinstance(op, xarith.ConstantOp):
                lv.unroll_constant(lw, op)
            else:
                lv.unroll_elementwise(lw, op)
    lw.finish()


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(ModulePass):
    """Lower the vector dialect to the LLVM dialect (see the module docstring)."""

    name = "convert-vector-to-llvm"

    vector_contract_lowering: str = "dot"
    vector_transpose_lowering: str = "eltwise"
    reassociate_fp_reductions: bool = False
    force_32bit_vector_indices: bool = True

    def __post_init__(self) -> None:
        if self.vector_contract_lowering not in _CONTRACT_STRATEGIES:
            raise ValueError(
                "vector-contract-lowering must be one of "
                f"{', '.join(_CONTRACT_STRATEGIES)}, not '{self.vector_contract_lowering}'"
            )
        if self.vector_transpose_lowering not in _TRANSPOSE_STRATEGIES:
            raise ValueError(
                "vector-transpose-lowering must be one of "
                f"{', '.join(_TRANSPOSE_STRATEGIES)}, not '{self.vector_transpose_lowering}'"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_vector(
            op,
            contract_lowering=self.vector_contract_lowering,
            transpose_lowering=self.vector_transpose_lowering,
            reassociate_fp_reductions=self.reassociate_fp_reductions,
            force_32bit_vector_indices=self.force_32bit_vector_indices,
        )


__all__ = ["ConvertVectorToLLVMPass", "convert_vector", "lowering_patterns"]
