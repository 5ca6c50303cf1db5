"""Building blocks of the vector rewrites: op builders, constants, masks, folds as patterns.

Every builder inserts at the rewriter's insertion point (the driver puts it before the op
being rewritten) and gives the new op the location it is passed, so rewritten code keeps
the location of the op it replaces. `ub.poison` values are placed and de-duplicated at the
start of the enclosing function body, as upstream's greedy driver does with constants.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.dialects.ub import PoisonOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.dialects import arith as shaped_arith
from schedir.dialects import vector
from schedir.dialects.vector.attributes import element_type, kind_name
from schedir.transform.rewrites.constants import constant_attr, constant_int, materialize_constant
from schedir.transform.rewrites.greedy import Folder, Pattern, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter

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
        return DenseIntOrFPElementsAttr.from_list(t, [value])  # type: ignore[arg-type]
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


def splat_attr(t: VectorType, value: Attribute) -> DenseIntOrFPElementsAttr:
    """A splat dense attribute of `value` (an IntegerAttr/FloatAttr) with type `t`."""
    raw = value.value.data  # type: ignore[attr-defined]
    elem = t.get_element_type()
    if isinstance(elem, IntegerType) and elem.width.data == 1:
        raw = int(bool(raw))
    return DenseIntOrFPElementsAttr.from_list(t, [raw])


def _entry_block(op: Operation) -> Block | None:
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
    block = _entry_block(loc)
    if block is not None:
        for op in block.ops:
            if not (isinstance(op, PoisonOp) or op.name == "arith.constant"):
                break
            if isinstance(op, PoisonOp) and op.result.type == t:
                return op.result
        new = PoisonOp(t)
        new.location = loc.location
        saved = rw.insertion_point
        # Constants hoisted by the driver come first; poisons follow them, in creation order.
        anchor = block.first_op
        while anchor is not None and (
            anchor.name == "arith.constant" or isinstance(anchor, PoisonOp)
        ):
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


def mask_format(mask: SSAValue) -> bool | None:
    """Upstream's `getMaskFormat`: True all-true, False all-false, None unknown."""
    owner = mask.owner
    if isinstance(owner, Operation) and owner.name == "arith.constant":
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


_ARITH: dict[str, tuple[type[Operation] | None, type[Operation] | None]] = {
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
    is_float = isinstance(element_type(v1.type), AnyFloat)
    cls = float_op if is_float else int_op
    assert cls is not None, f"invalid value types for {name} reduction"
    new = cls(v1, acc, fastmath) if is_float else cls(v1, acc)  # type: ignore[call-arg]
    result = rw.create(new, loc).results[0]
    return select_passthru(rw, mask, result, acc, loc)


def select_passthru(
    rw: CanonRewriter, mask: SSAValue | None, value: SSAValue, passthru: SSAValue, loc: Loc
) -> SSAValue:
    """Upstream's `selectPassthru`."""
    if mask is None:
        return value
    return rw.create(shaped_arith.SelectOp(mask, value, passthru), loc).results[0]


def mask_operation(
    rw: CanonRewriter, op: Operation, mask: SSAValue | None, passthru: SSAValue | None = None
) -> Operation:
    """Upstream's `maskOperation`: wrap the just-created `op` in a `vector.mask`."""
    if mask is None:
        return op
    from xdsl.ir import Region

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


# --- folds as patterns ---------------------------------------------------------------------------


def apply_fold(
    op: Operation, rw: CanonRewriter, result: list[Attribute | SSAValue] | bool | None
) -> bool:
    """Apply a folder's result the way the greedy driver does."""
    if result is None or result is False:
        return False
    if result is True:
        rw.modified(op)
        return True
    rw.set_insertion_point(op)
    replacements: list[SSAValue] = []
    made: list[Operation] = []
    for item, res in zip(result, op.results, strict=True):
        if isinstance(item, SSAValue):
            replacements.append(item)
            continue
        const = materialize_constant(rw, item, res.type, op.location)
        if const is None:
            for m in made:
                rw.erase(m)
            return False
        made.append(const)
        replacements.append(const.results[0])
    if all(r is old for r, old in zip(replacements, op.results, strict=True)):
        return False
    rw.replace_values(op, replacements)
    return True


def fold_pattern(folder: Folder) -> Pattern:
    """A pattern that applies `folder` (vector folds run inside vector pattern sets, since
    the greedy driver's folder table does not know the vector dialect yet)."""

    def pattern(op: Operation, rw: CanonRewriter) -> bool:
        return apply_fold(op, rw, folder(op))

    pattern.__name__ = f"fold_{getattr(folder, '__name__', 'op')}"
    return pattern


def with_folds(patterns: PatternSet) -> PatternSet:
    """`patterns` preceded by every vector op's folder (upstream folds every op it visits)."""
    from schedir.transform.rewrites.vector.folders import FOLDERS

    result = PatternSet()
    for root, folder in FOLDERS.items():
        result.add(root, _FOLD_PATTERNS.setdefault(root, fold_pattern(folder)))
    return result.update(patterns)


_FOLD_PATTERNS: dict[type[Operation], Pattern] = {}
"""One pattern object per folder, so pattern sets can de-duplicate them."""


__all__ = [
    "apply_fold",
    "arith_reduction",
    "broadcast",
    "constant",
    "extract",
    "fold_pattern",
    "index",
    "insert",
    "mask_format",
    "mask_operation",
    "masking_op",
    "poison",
    "select_passthru",
    "shape_cast",
    "splat_attr",
    "transpose",
    "with_folds",
    "zero",
    "zero_attr",
]
