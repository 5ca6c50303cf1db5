"""Building blocks of the vector rewrites: op builders, constants, masks, op queries.

Every builder inserts at the rewriter's insertion point (the driver puts it before the op
being rewritten) and gives the new op the location it is passed, so rewritten code keeps
the location of the op it replaces. `ub.poison` values are placed and de-duplicated at the
start of the enclosing function body, as upstream's greedy driver does with constants.
The queries read dense constants (as the folders need them), find the op defining a
value by class, and tell upstream's ElementwiseMappable ops by class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar, cast

from xdsl.dialects import arith
from xdsl.dialects.arith import Arith as XdslArith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.math import Math
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.dialects import arith as shaped_arith
from schedir.dialects import vector
from schedir.dialects.vector.attributes import dense_array, element_type, kind_name, vec
from schedir.transform.rewrites.constants import constant_attr, constant_int, materialize_constant
from schedir.transform.rewrites.rewriter import CanonRewriter

OpT = TypeVar("OpT", bound=Operation)

ShapedOperand = TensorType[Attribute] | MemRefType[Attribute]
"""The type of a shaped operand (a transfer's source, a linalg operand): what `cast`
narrows one to where the op's definition leaves it an `Attribute`."""

Loc = Operation
"""Where new ops take their location from: the op being rewritten."""


# --- constants --------------------------------------------------------------------------------


def zero_attr(t: Attribute) -> Attribute:
    """Upstream's `getZeroAttr`: 0 / 0.0 / false, splat for vectors."""
    elem = element_type(t)
    if isinstance(elem, AnyFloat):
        scalar: Attribute = FloatAttr(0.0, elem)
        value: float | int = 0.0
    else:
        scalar = IntegerAttr(0, cast(IntegerType | IndexType, elem))
        value = 0
    if isinstance(t, VectorType):
        return DenseIntOrFPElementsAttr.from_list(t, [value])
    return scalar


def constant(rw: CanonRewriter, attr: Attribute, t: Attribute, loc: Loc) -> SSAValue:
    """An `arith.constant` of `attr` (typed `t`) at the insertion point."""
    op = materialize_constant(rw, attr, t, loc.location)
    assert op is not None, f"cannot materialize {attr} as {t}"
    return op.results[0]


def zero(rw: CanonRewriter, t: Attribute, loc: Loc) -> SSAValue:
    return constant(rw, zero_attr(t), t, loc)


def index(rw: CanonRewriter, value: int, loc: Loc) -> SSAValue:
    return rw.constant_index(value, loc)


def entry_block(op: Operation) -> Block | None:
    """The entry block of the closest isolated-from-above op around `op` (its function)."""
    current = op.parent_op()
    while current is not None:
        if current.has_trait(IsolatedFromAbove, value_if_unregistered=False):
            region = current.regions[0] if current.regions else None
            return region.blocks.first if region is not None else None
        current = current.parent_op()
    return None


def poison(rw: CanonRewriter, t: Attribute, loc: Loc) -> SSAValue:
    """A `ub.poison : t`, one per type at the start of the function (what upstream's
    greedy driver makes of the poison values its lowering patterns create)."""
    block = entry_block(loc)
    if block is not None:
        for op in block.ops:
            if not isinstance(op, PoisonOp | arith.ConstantOp):
                break
            if isinstance(op, PoisonOp) and op.result.type == t:
                return op.result
        new = PoisonOp(t)
        new.location = loc.location
        saved = rw.insertion_point
        # Constants hoisted by the driver come first; poisons follow them, in creation order.
        anchor = block.first_op
        while isinstance(anchor, arith.ConstantOp | PoisonOp):
            anchor = anchor.next_op
        rw.insertion_point = InsertPoint.before(anchor) if anchor else InsertPoint.at_end(block)
        rw.insert(new)
        rw.insertion_point = saved
        return new.result
    return rw.create(PoisonOp(t), loc).results[0]


# --- ops --------------------------------------------------------------------------------------


def extract(rw: CanonRewriter, v: SSAValue, pos: Sequence[int | SSAValue], loc: Loc) -> SSAValue:
    return rw.create(vector.ExtractOp(v, list(pos)), loc).results[0]


def insert(
    rw: CanonRewriter, src: SSAValue, dest: SSAValue, pos: Sequence[int | SSAValue], loc: Loc
) -> SSAValue:
    return rw.create(vector.InsertOp(src, dest, list(pos)), loc).results[0]


def broadcast(rw: CanonRewriter, v: SSAValue, t: VectorType, loc: Loc) -> SSAValue:
    return rw.create(vector.BroadcastOp(v, t), loc).results[0]


def transpose(rw: CanonRewriter, v: SSAValue, perm: Sequence[int], loc: Loc) -> SSAValue:
    return rw.create(vector.TransposeOp(v, perm), loc).results[0]


def shape_cast(rw: CanonRewriter, v: SSAValue, t: VectorType, loc: Loc) -> SSAValue:
    return rw.create(vector.ShapeCastOp(v, t), loc).results[0]


def shuffle(rw: CanonRewriter, a: SSAValue, b: SSAValue, mask: Sequence[int], loc: Loc) -> SSAValue:
    """`vector.shuffle %a, %b [mask]`: the rows of `a` then `b` picked by `mask`."""
    t = cast(VectorType, a.type)
    result = vec([len(mask), *t.get_shape()[1:]], t.get_element_type())
    new = vector.ShuffleOp(a, b, dense_array(i64, mask), result_type=result)
    return rw.create(new, loc).results[0]


def mask_format(mask: SSAValue) -> bool | None:
    """Upstream's `getMaskFormat`: True all-true, False all-false, None unknown."""
    owner = mask.owner
    if isinstance(owner, arith.ConstantOp):
        attr = constant_attr(mask)
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = [bool(v) for v in attr.get_values()]
            if values and all(values):
                return True
            if values and not any(values):
                return False
        return None
    if isinstance(owner, vector.ConstantMaskOp):
        sizes = owner.sizes()
        shape = cast(VectorType, owner.result.type).get_shape()
        if all(s >= d for s, d in zip(sizes, shape, strict=False)):
            return True
        if all(s <= 0 for s in sizes):
            return False
        return None
    if isinstance(owner, vector.CreateMaskOp):
        for operand in owner.mask_dim_sizes:
            value = constant_int(operand)
            if value is not None and value <= 0:
                return False
    return None


_ARITH: dict[
    str,
    tuple[
        type[arith.SignlessIntegerBinaryOperation] | None,
        type[arith.FloatingPointLikeBinaryOperation] | None,
    ],
] = {
    "add": (arith.AddiOp, arith.AddfOp),
    "mul": (arith.MuliOp, arith.MulfOp),
    "and": (arith.AndIOp, None),
    "or": (arith.OrIOp, None),
    "xor": (arith.XOrIOp, None),
    "maxsi": (arith.MaxSIOp, None),
    "minsi": (arith.MinSIOp, None),
    "maxui": (arith.MaxUIOp, None),
    "minui": (arith.MinUIOp, None),
    "maxnumf": (None, arith.MaxnumfOp),
    "minnumf": (None, arith.MinnumfOp),
    "maximumf": (None, arith.MaximumfOp),
    "minimumf": (None, arith.MinimumfOp),
}


def arith_reduction(
    rw: CanonRewriter,
    kind: str | Attribute,
    v1: SSAValue,
    acc: SSAValue,
    loc: Loc,
    fastmath: FastMathFlagsAttr | None = None,
    mask: SSAValue | None = None,
) -> SSAValue:
    """Upstream's `makeArithReduction`: `v1 <kind> acc` (then `select(mask, r, acc)`)."""
    name = kind if isinstance(kind, str) else kind_name(kind)
    int_op, float_op = _ARITH[name]
    new: Operation
    if isinstance(element_type(v1.type), AnyFloat):
        assert float_op is not None, f"invalid value types for {name} reduction"
        new = float_op(v1, acc, fastmath)
    else:
        assert int_op is not None, f"invalid value types for {name} reduction"
        new = int_op(v1, acc)
    result = rw.create(new, loc).results[0]
    return select_passthru(rw, mask, result, acc, loc)


def select_passthru(
    rw: CanonRewriter, mask: SSAValue | None, value: SSAValue, passthru: SSAValue, loc: Loc
) -> SSAValue:
    """Upstream's `selectPassthru`."""
    if mask is None:
        return value
    return rw.create(shaped_arith.SelectOp(mask, value, passthru), loc).results[0]


def mul(
    rw: CanonRewriter,
    x: SSAValue,
    y: SSAValue,
    is_int: bool,
    loc: Operation,
    fmf: FastMathFlagsAttr | None = None,
) -> SSAValue:
    """`x * y` (`arith.muli` or `arith.mulf`)."""
    new = arith.MuliOp(x, y) if is_int else arith.MulfOp(x, y, fmf)
    return rw.create(new, loc).results[0]


def contract_arith(
    rw: CanonRewriter,
    x: SSAValue,
    y: SSAValue,
    acc: SSAValue | None,
    kind: str,
    is_int: bool,
    loc: Operation,
    mask: SSAValue | None = None,
    fmf: FastMathFlagsAttr | None = None,
) -> SSAValue | None:
    """Upstream's `createContractArithOp`: `acc <kind> x * y` (an fma for float adds)."""
    float_only = {"minnumf", "maxnumf", "minimumf", "maximumf"}
    int_only = {"and", "minui", "minsi", "maxui", "maxsi", "or", "xor"}
    if is_int:
        if kind in float_only:
            return None
        product = rw.create(arith.MuliOp(x, y), loc).results[0]
    else:
        if kind in int_only:
            return None
        if acc is not None and isinstance(acc.type, VectorType) and kind == "add":
            fma = rw.create(vector.FMAOp(x, y, acc), loc).results[0]
            return select_passthru(rw, mask, fma, acc, loc)
        product = rw.create(arith.MulfOp(x, y, fmf), loc).results[0]
    if acc is None:
        return product
    return arith_reduction(rw, kind, product, acc, loc, fmf, mask)


def mask_operation(
    rw: CanonRewriter, op: Operation, mask: SSAValue | None, passthru: SSAValue | None = None
) -> Operation:
    """Upstream's `maskOperation`: wrap the just-created `op` in a `vector.mask`."""
    if mask is None:
        return op
    loc = op
    op.detach()
    body = Block()
    body.add_op(op)
    body.add_op(vector.YieldOp(*op.results))
    masked = vector.MaskOp(mask, Region(body), [r.type for r in op.results], passthru)
    return rw.create(masked, loc)


def masking_op(op: Operation) -> vector.MaskOp | None:
    """The `vector.mask` around `op`, if `op` is the op it masks."""
    parent = op.parent_op()
    return parent if isinstance(parent, vector.MaskOp) else None


# --- queries ------------------------------------------------------------------------------------


def defining(value: SSAValue, cls: type[OpT]) -> OpT | None:
    """The op defining `value`, if it is a `cls`."""
    owner = value.owner
    return owner if isinstance(owner, cls) else None


def result_index(m: AffineMap, dim: int) -> int | None:
    """Upstream's `getResultIndex`: the result of `m` that is loop `dim`, if any."""
    for i, e in enumerate(m.results):
        if cast(AffineDimExpr, e).position == dim:
            return i
    return None


def dense_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The dense attribute of the constant `value` is, if it is one."""
    attr = constant_attr(value)
    return attr if isinstance(attr, DenseIntOrFPElementsAttr) else None


def dense_values(attr: DenseIntOrFPElementsAttr) -> list[int | float]:
    """The elements of `attr` (one for a splat)."""
    return cast(list[int | float], list(attr.get_values()))


def dense_of(t: VectorType, values: Sequence[int | float]) -> DenseIntOrFPElementsAttr:
    """A dense attribute of type `t` holding `values` (a splat when they are all equal)."""
    if len(set(values)) == 1:
        values = [values[0]]
    return DenseIntOrFPElementsAttr.from_list(t, list(values))  # type: ignore[arg-type]  # xDSL's overloads want the VectorType parametrized by its element type


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """The element strides of a row-major `shape`."""
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        running *= size
    return strides[::-1]


def linearize(pos: Sequence[int], strides: Sequence[int]) -> int:
    """The flat index of position `pos` under `strides`."""
    return sum(p * s for p, s in zip(pos, strides, strict=False))


ELEMENTWISE_ARITH_MATH_OPS: tuple[type[Operation], ...] = tuple(
    {*XdslArith.operations, *shaped_arith.Arith.operations, *Math.operations} - {arith.ConstantOp}
)
"""Every arith and math op but `arith.constant` (xDSL's classes, which schedir's
replacements subclass, and schedir's additions): upstream gives them the
ElementwiseMappable traits."""


def is_elementwise_mappable(op: Operation) -> bool:
    """Whether `op` has upstream's ElementwiseMappable traits: every arith op but the
    constant, every math op, and `vector.fma`."""
    return isinstance(op, (*ELEMENTWISE_ARITH_MATH_OPS, vector.FMAOp))


__all__ = [
    "ELEMENTWISE_ARITH_MATH_OPS",
    "ShapedOperand",
    "arith_reduction",
    "broadcast",
    "constant",
    "contract_arith",
    "defining",
    "dense_constant",
    "dense_of",
    "dense_values",
    "entry_block",
    "extract",
    "index",
    "insert",
    "is_elementwise_mappable",
    "linearize",
    "mask_format",
    "mask_operation",
    "masking_op",
    "mul",
    "poison",
    "result_index",
    "row_major_strides",
    "select_passthru",
    "shape_cast",
    "shuffle",
    "transpose",
    "zero",
    "zero_attr",
]
