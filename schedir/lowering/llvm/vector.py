"""Vectors in the LLVM dialect: n-D vectors as arrays of 1-D ones, splats, reductions.

Upstream's LLVMTypeConverter turns `vector<2x3x4xf32>` into
`!llvm.array<2 x array<3 x vector<4xf32>>>`; an op on an n-D vector is done row by row on
the 1-D vectors at the array's leaves (upstream's `handleMultidimensionalVectors`). The
helpers here walk those rows, build splats (`insertelement` + zero-mask `shufflevector`)
and map `vector.reduction` kinds to `llvm.intr.vector.reduce.*` with upstream's NaN and
ordering semantics.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import product
from typing import cast

from xdsl.dialects import arith, ub
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.dialects import llvm
from schedir.dialects.llvm import vector as llvm_vector
from schedir.dialects.vector import Vector
from schedir.dialects.vector.attributes import dense_array
from schedir.lowering.llvm.common import INDEX, Lowering, unsupported

PASS = "convert-vector-to-llvm"

Emit = Callable[[Operation], SSAValue]


def rows(shape: Sequence[int]) -> list[tuple[int, ...]]:
    """Positions of the 1-D rows of a vector of `shape` (its leading dims), in order."""
    return list(product(*(range(d) for d in shape[:-1])))


def extract_value(emit: Emit, aggregate: SSAValue, position: Sequence[int]) -> SSAValue:
    """`llvm.extractvalue aggregate[position]` (the aggregate itself for no position)."""
    if not position:
        return aggregate
    t = aggregate.type
    for _ in position:
        assert isinstance(t, llvm.LLVMArrayType)
        t = t.type
    return emit(llvm.ExtractValueOp(dense_array(i64, position), aggregate, t))


def insert_value(
    emit: Emit, aggregate: SSAValue, value: SSAValue, position: Sequence[int]
) -> SSAValue:
    """`llvm.insertvalue value, aggregate[position]` (`value` itself for no position)."""
    if not position:
        return value
    return emit(llvm.InsertValueOp(dense_array(i64, position), aggregate, value))


def poison(emit: Emit, t: Attribute) -> SSAValue:
    return emit(llvm.PoisonOp(t))


def i32_constant(lw: Lowering, value: int, anchor: Operation) -> SSAValue:
    return lw.constant(value, i32, anchor)


def splat(lw: Lowering, emit: Emit, scalar: SSAValue, t: VectorType, anchor: Operation) -> SSAValue:
    """A 1-D vector of type `t` with every lane `scalar` (upstream's broadcast lowering:
    insert at lane 0 of a poison vector, then a zero-mask shuffle)."""
    undef = poison(emit, t)
    lane0 = emit(llvm.InsertElementOp(undef, scalar, i32_constant(lw, 0, anchor)))
    return shuffle(emit, lane0, undef, [0] * width(t))


def shuffle(emit: Emit, a: SSAValue, b: SSAValue, mask: Sequence[int]) -> SSAValue:
    """`llvm.shufflevector a, b [mask]` (`a` and `b` of one 1-D vector type)."""
    t = a.type
    assert isinstance(t, VectorType)
    result = VectorType(t.get_element_type(), [len(mask)])
    return emit(llvm.ShuffleVectorOp(a, b, dense_array(i32, mask), result))


def llvm_element(t: Attribute) -> Attribute:
    """The LLVM type of the element of vector type `t` (index -> i64)."""
    elem = t.get_element_type() if isinstance(t, VectorType) else t
    return INDEX if isinstance(elem, IndexType) else elem


def row_type(t: VectorType) -> VectorType:
    """The LLVM 1-D vector type of the rows of `t` (one lane for a 0-D vector, which
    upstream's type converter makes `vector<1xT>`)."""
    return VectorType(llvm_element(t), [width(t)])


def width(t: VectorType) -> int:
    """The number of lanes of the rows of `t` (1 for a 0-D vector)."""
    shape = t.get_shape()
    return shape[-1] if shape else 1


def is_row(t: VectorType) -> bool:
    """Whether `t` lowers to one LLVM vector (0-D or 1-D), not an array of rows."""
    return t.get_num_dims() <= 1


def dense_constant(emit: Emit, t: VectorType, values: Sequence[int | float]) -> SSAValue:
    """`llvm.mlir.constant(dense<values>)` of 1-D LLVM vector type `t`."""
    attr = DenseIntOrFPElementsAttr.from_list(t, list(values))  # type: ignore[arg-type]  # int/float elements, unknown statically
    return emit(llvm.ConstantOp(attr, t))


# --- reductions -------------------------------------------------------------------------------


_INT_REDUCE: dict[str, Callable[..., Operation]] = {
    "add": llvm_vector.ReduceAddOp,
    "mul": llvm_vector.ReduceMulOp,
    "and": llvm_vector.ReduceAndOp,
    "or": llvm_vector.ReduceOrOp,
    "xor": llvm_vector.ReduceXorOp,
    "maxsi": llvm_vector.ReduceSMaxOp,
    "minsi": llvm_vector.ReduceSMinOp,
    "maxui": llvm_vector.ReduceUMaxOp,
    "minui": llvm_vector.ReduceUMinOp,
}

_INT_COMBINE: dict[str, Callable[..., Operation]] = {
    "add": llvm.AddOp,
    "mul": llvm.MulOp,
    "and": llvm.AndOp,
    "or": llvm.OrOp,
    "xor": llvm.XOrOp,
}

_INT_COMPARE = {"maxsi": "sge", "minsi": "sle", "maxui": "uge", "minui": "ule"}
"""Integer min/max with an accumulator: `acc <pred> r ? acc : r`, as upstream."""

_FLOAT_REDUCE: dict[str, tuple[Callable[..., Operation], Callable[..., Operation]]] = {
    "maxnumf": (llvm_vector.ReduceFMaxOp, llvm.MaxNumOp),
    "minnumf": (llvm_vector.ReduceFMinOp, llvm.MinNumOp),
    "maximumf": (llvm_vector.ReduceFMaximumOp, llvm.MaximumOp),
    "minimumf": (llvm_vector.ReduceFMinimumOp, llvm.MinimumOp),
}
"""NaN semantics follow the kind: `maxnumf` ignores NaN lanes (llvm fmax / maxnum),
`maximumf` propagates them (llvm fmaximum / maximum)."""


def reduce(
    lw: Lowering,
    emit: Emit,
    kind: str,
    v: SSAValue,
    acc: SSAValue | None,
    fastmath: llvm.FastMathAttr,
    anchor: Operation,
) -> SSAValue:
    """`vector.reduction <kind>` of the 1-D LLVM vector `v` (and `acc`).

    `add`/`mul` on floats are the ordered `llvm.intr.vector.reduce.fadd/fmul` from `acc`
    (0.0 / 1.0 without one); the fastmath flags are passed on, so `reassoc` (and only
    that) lets LLVM reassociate, as upstream without `reassociate-fp-reductions`.
    """
    t = v.type
    assert isinstance(t, VectorType)
    elem = t.get_element_type()
    if isinstance(elem, AnyFloat):
        if kind in ("add", "mul"):
            start = acc
            if start is None:
                start = lw.constant(0.0 if kind == "add" else 1.0, elem, anchor)
            cls = llvm_vector.ReduceFAddOp if kind == "add" else llvm_vector.ReduceFMulOp
            return emit(cls(start, v, fastmath))
        if kind not in _FLOAT_REDUCE:
            raise ValueError(f"reduction kind {kind} on floats")
        red, combine = _FLOAT_REDUCE[kind]
        result = emit(red(v, fastmath))
        if acc is not None:
            result = emit(combine(result, acc, fastmath=fastmath))
        return result
    if kind not in _INT_REDUCE:
        raise ValueError(f"reduction kind {kind} on integers")
    result = emit(_INT_REDUCE[kind](v))
    if acc is None:
        return result
    if kind in _INT_COMBINE:
        return emit(_INT_COMBINE[kind](result, acc))
    pred = IntegerAttr(llvm.ICmpPredicateFlag(_INT_COMPARE[kind]).to_int(), i64)
    keep_acc = emit(llvm.ICmpOp(acc, result, pred))
    return emit(llvm_vector.SelectOp(keep_acc, acc, result))


def neutral(kind: str, elem: Attribute) -> int | float:
    """A value that does not change a `kind` reduction (masked-off lanes take it)."""
    if isinstance(elem, AnyFloat):
        return {
            "add": 0.0,
            "mul": 1.0,
            "maxnumf": float("-inf"),
            "maximumf": float("-inf"),
            "minnumf": float("inf"),
            "minimumf": float("inf"),
        }[kind]
    assert isinstance(elem, IntegerType)
    width = elem.width.data
    return {
        "add": 0,
        "mul": 1,
        "and": -1,
        "or": 0,
        "xor": 0,
        "maxsi": -(1 << (width - 1)),
        "minsi": (1 << (width - 1)) - 1,
        "maxui": 0,
        "minui": -1,
    }[kind]


# --- n-D arith / math -------------------------------------------------------------------------


VECTOR_OPS: tuple[type[Operation], ...] = (*xvector.Vector.operations, *Vector.operations)
"""The ops of the vector dialect, xDSL's classes and schedir's."""

_VECTOR_OR_UB_OPS: tuple[type[Operation], ...] = (*VECTOR_OPS, *ub.UB.operations)


def has_vectors(op: Operation) -> bool:
    """Whether convert-vector-to-llvm has work at `op`: a vector or ub op, or an n-D result."""
    if isinstance(op, _VECTOR_OR_UB_OPS):
        return True
    return any(is_nd(r.type) for r in op.results)


def is_nd(t: Attribute) -> bool:
    return isinstance(t, VectorType) and t.get_num_dims() > 1


def unroll_elementwise(lw: Lowering, op: Operation) -> None:
    """An arith / math op on n-D vectors -> the same op on each 1-D row (upstream's
    `handleMultidimensionalVectors`); the row ops are converted by their own passes."""
    emit = lw.emit(op)
    t = cast(VectorType, op.results[0].type)
    row_builtin = VectorType(t.get_element_type(), t.get_shape()[-1:])
    operands = [lw.value(o, op) if isinstance(o.type, VectorType) else o for o in op.operands]
    result = poison(emit, lw.convert(t, op))
    for pos in rows(t.get_shape()):
        row_operands: list[SSAValue] = []
        for old, new in zip(op.operands, operands, strict=True):
            if isinstance(old.type, VectorType):
                row = extract_value(emit, new, pos)
                old_row = VectorType(old.type.get_element_type(), old.type.get_shape()[-1:])
                row_operands.append(lw.cast_back(row, old_row, op))
            else:
                row_operands.append(old)
        row_op = type(op).create(
            operands=row_operands,
            result_types=[row_builtin],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        lw.insert(row_op, op)
        result = insert_value(emit, result, lw.value(row_op.results[0], op), pos)
    lw.replace(op, [result])


def unroll_constant(lw: Lowering, op: Operation) -> None:
    """An n-D `arith.constant` -> 1-D constants of its rows."""
    emit = lw.emit(op)
    t = cast(VectorType, op.results[0].type)
    value = op.properties.get("value") or op.attributes.get("value")
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise unsupported(PASS, op, f"constant {value}")
    data = list(value.get_values())
    width = t.get_shape()[-1]
    row_builtin = VectorType(t.get_element_type(), [width])
    splat = len(data) == 1
    result = poison(emit, lw.convert(t, op))
    made: dict[tuple[int | float, ...], SSAValue] = {}
    for r, pos in enumerate(rows(t.get_shape())):
        key = tuple(data) if splat else tuple(data[r * width : (r + 1) * width])
        row = made.get(key)
        if row is None:
            attr = DenseIntOrFPElementsAttr.from_list(row_builtin, list(key))  # type: ignore[arg-type]  # int/float elements, unknown statically
            row_op = arith.ConstantOp(attr, row_builtin)
            lw.insert(row_op, op)
            row = made[key] = lw.value(row_op.results[0], op)
        result = insert_value(emit, result, row, pos)
    lw.replace(op, [result])


__all__ = [
    "PASS",
    "VECTOR_OPS",
    "dense_constant",
    "extract_value",
    "has_vectors",
    "i32_constant",
    "insert_value",
    "is_nd",
    "is_row",
    "llvm_element",
    "neutral",
    "poison",
    "reduce",
    "row_type",
    "rows",
    "shuffle",
    "splat",
    "unroll_constant",
    "unroll_elementwise",
    "width",
]
