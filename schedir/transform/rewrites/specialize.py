"""`linalg.generic` -> named structured op, as upstream's `specializeGenericOp`
(mlir/lib/Dialect/Linalg/Transforms/Specialize.cpp and the `isa*OpInterface` matchers of
LinalgInterfaces.cpp).

Upstream's decision order is kept, because it decides which ops are tried at all:

1. elementwise unary/binary/ternary bodies -> the category op `linalg.elementwise`;
2. contractions -> `linalg.matmul` / `linalg.batch_matmul` (with the operand maps and
   `cast`), else the category op `linalg.contract`;
3. with `emit_category` nothing else is tried;
4. copy, fill, broadcast, transpose, then convolutions and poolings.

    %0 = linalg.generic {maps = [id, id], iterators = [p, p]} ins(%a) outs(%b) {
      ^bb0(%in, %out): linalg.yield %in }        ->   linalg.copy ins(%a) outs(%b)

schedir defines neither `linalg.elementwise` nor `linalg.contract`: a generic that
upstream turns into one of them raises `UnsupportedSpecialization` (it must not silently
stay generic, which would change what later transforms match).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, math
from xdsl.dialects import complex as complex_ops
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ShapedType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.pattern_rewriter import PatternRewriter

from schedir.dialects import arith as schedir_arith
from schedir.dialects import linalg
from schedir.dialects.linalg.conv import CONV_OPS
from schedir.dialects.linalg.interface import indexing_maps, iterator_types, num_loops
from schedir.dialects.linalg.named import NamedStructuredOp
from schedir.transform.rewrites.structured_misc import RewriteFailure


class UnsupportedSpecialization(Exception):
    """Upstream specializes the op to a category op that schedir does not define."""


@dataclass(frozen=True)
class SpecializeResult:
    """The named op that replaced the generic."""

    named: Operation


# --- body inspection -----------------------------------------------------------------


def _body(generic: linalg.GenericOp) -> Block:
    return generic.body.block


def _uses_arg(generic: linalg.GenericOp, index: int) -> bool:
    """Upstream's `payloadUsesValueFromOperand`."""
    return bool(_body(generic).args[index].uses)


def _all_parallel(generic: linalg.GenericOp) -> bool:
    return all(iterator_types(generic)[i] == "parallel" for i in range(num_loops(generic)))


def _single_yield(generic: linalg.GenericOp) -> bool:
    """The body is only `linalg.yield` of one value."""
    ops = list(_body(generic).ops)
    return len(ops) == 1 and isinstance(ops[0], linalg.YieldOp) and len(ops[0].operands) == 1


def _is_identity(map_: AffineMap) -> bool:
    return map_ == AffineMap.identity(map_.num_dims) and map_.num_symbols == 0


def _is_permutation(map_: AffineMap) -> bool:
    return map_.num_dims == len(map_.results) and map_.is_projected_permutation()


# --- copy / fill / broadcast / transpose ------------------------------------------------


def is_copy(generic: linalg.GenericOp) -> bool:
    maps = indexing_maps(generic)
    if not _all_parallel(generic) or len(generic.inputs) != 1 or len(generic.outputs) != 1:
        return False
    if not (_is_identity(maps[0]) and _is_identity(maps[1])) or not _single_yield(generic):
        return False
    yielded = _body(generic).ops.first
    assert yielded is not None  # _single_yield checked it
    return yielded.operands[0] is _body(generic).args[0]


def fill_value(generic: linalg.GenericOp) -> SSAValue | None:
    """The fill value when the generic fills its init (inlined constant or scalar input)."""
    if not _all_parallel(generic) or len(generic.outputs) != 1:
        return None
    body = _body(generic)
    if not generic.inputs:
        if _uses_arg(generic, 0) or not _single_yield(generic):
            return None
        yielded = body.ops.first
        assert yielded is not None  # _single_yield checked it
        value = yielded.operands[0]
        owner = value.op if isinstance(value, OpResult) else None
        return value if isinstance(owner, arith.ConstantOp | complex_ops.ConstantOp) else None
    if len(generic.inputs) != 1 or not _single_yield(generic):
        return None
    if not _uses_arg(generic, 0) or _uses_arg(generic, 1):
        return None
    scalar = generic.inputs[0]
    return scalar if not isinstance(scalar.type, ShapedType) else None


def broadcast_dims(generic: linalg.GenericOp) -> list[int] | None:
    """Upstream's `isaBroadcastOpInterface`: the broadcast (added) loop dims."""
    if not _all_parallel(generic) or len(generic.inputs) != 1 or len(generic.outputs) != 1:
        return None
    if not _single_yield(generic):
        return None
    if not isinstance(generic.inputs[0].type, ShapedType) or not isinstance(
        generic.outputs[0].type, ShapedType
    ):
        return None
    src, dst = indexing_maps(generic)
    if not _is_identity(dst) or len(src.results) >= len(dst.results):
        return None
    positions: list[int] = []
    for expr in src.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        if positions and expr.position <= positions[-1]:
            return None
        positions.append(expr.position)
    return [d for d in range(src.num_dims) if d not in positions]


def transpose_permutation(generic: linalg.GenericOp) -> list[int] | None:
    """Upstream's `isaTransposeOpInterface`: result dim i is input dim permutation[i]."""
    if not _all_parallel(generic) or len(generic.inputs) != 1 or len(generic.outputs) != 1:
        return None
    if not _single_yield(generic):
        return None
    src, dst = indexing_maps(generic)
    if not _is_identity(dst) or not _is_permutation(src):
        return None
    permutation = [0] * src.num_dims
    for i, expr in enumerate(src.results):
        permutation[cast(AffineDimExpr, expr).position] = i
    return permutation


# --- elementwise (category op) ----------------------------------------------------------

KindTable = dict[type[Operation], str]
"""Body op class -> the `linalg.elementwise` kind upstream names it."""

_UNARY: KindTable = {
    math.ExpOp: "exp", math.AbsFOp: "abs", math.CeilOp: "ceil", math.FloorOp: "floor",
    arith.NegfOp: "negf", math.RoundOp: "round", math.SqrtOp: "sqrt", math.RsqrtOp: "rsqrt",
    math.TanhOp: "tanh", math.ErfOp: "erf", math.SinOp: "sin", math.CosOp: "cos",
    math.TanOp: "tan", math.AcosOp: "acos", math.AcoshOp: "acosh", math.AsinOp: "asin",
    math.AsinhOp: "asinh", math.AtanOp: "atan", math.AtanhOp: "atanh", math.LogOp: "log",
    math.Log10Op: "log10", math.Log1pOp: "log1p", math.Log2Op: "log2",
}  # fmt: skip
_BINARY: KindTable = {
    arith.AddfOp: "add", arith.AddiOp: "add", arith.MulfOp: "mul", arith.MuliOp: "mul",
    arith.SubfOp: "sub", arith.SubiOp: "sub", arith.DivfOp: "div", arith.DivSIOp: "div",
    arith.DivUIOp: "div_unsigned", arith.MaxSIOp: "max_signed", arith.MaximumfOp: "max_signed",
    arith.MinSIOp: "min_signed", arith.MinimumfOp: "min_signed", math.PowFOp: "powf",
    arith.MaxUIOp: "max_unsigned", arith.MinUIOp: "min_unsigned",
}  # fmt: skip
_TERNARY: KindTable = {arith.SelectOp: "select"}


def _kind_in(table: KindTable, op: Operation) -> str | None:
    return next((kind for cls, kind in table.items() if isinstance(op, cls)), None)


def _elementwise_arity(generic: linalg.GenericOp) -> int | None:
    """1, 2 or 3 when upstream's `isaElemwiseSingle{Unary,Binary,Ternary}OpInterface` holds."""
    arity = len(generic.inputs)
    if arity not in (1, 2, 3) or len(generic.outputs) != 1 or num_loops(generic) < 1:
        return None
    if not _all_parallel(generic) or not all(_is_identity(m) for m in indexing_maps(generic)):
        return None
    if _uses_arg(generic, arity):
        return None
    ops = list(_body(generic).ops)
    if len(ops) != 2 or len(ops[0].results) != 1 or not isinstance(ops[1], linalg.YieldOp):
        return None
    if len(ops[0].operands) != arity or ops[1].operands[0] is not ops[0].results[0]:
        return None
    if not all(_uses_arg(generic, i) for i in range(arity)):
        return None
    return arity


def _elementwise_kind(generic: linalg.GenericOp) -> str | None:
    """The `linalg.elementwise` kind upstream would emit, or None (match failure)."""
    body_op = _body(generic).ops.first
    assert body_op is not None
    if isinstance(body_op, arith.DivfOp):
        lhs = body_op.operands[0]
        if isinstance(lhs, OpResult) and isinstance(lhs.op, arith.ConstantOp):
            value = lhs.op.properties.get("value") or lhs.op.attributes.get("value")
            if getattr(getattr(value, "value", None), "data", None) == 1.0:
                return "reciprocal"
    if isinstance(body_op, arith.MulfOp) and body_op.operands[0] is body_op.operands[1]:
        return "square"
    if len(generic.inputs) == 2 and all(_is_i1(v.type) for v in body_op.operands):
        if isinstance(body_op, arith.OrIOp):
            return "add"
        if isinstance(body_op, arith.AndIOp):
            return "mul"
    for arity, table in ((1, _UNARY), (2, _BINARY), (3, _TERNARY)):
        kind = _kind_in(table, body_op)
        if kind is not None:
            return kind if len(generic.inputs) == arity else None
    return None


def _is_i1(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 1


# --- contractions ---------------------------------------------------------------------

_CONTRACTION_PAIRS: tuple[tuple[type[Operation], type[Operation]], ...] = (
    (arith.MulfOp, arith.AddfOp),
    (arith.MuliOp, arith.AddiOp),
    (complex_ops.MulOp, complex_ops.AddOp),
    (arith.AndIOp, arith.OrIOp),
)
"""(elementwise, reduction) op pairs of a contraction body."""
_PURE_UNARY_OPS: tuple[type[Operation], ...] = (
    *arith.Arith.operations,
    *schedir_arith.Arith.operations,
    *math.Math.operations,
    *complex_ops.Complex.operations,
)
"""The ops of the dialects upstream's `getSourceSkipUnary` walks through (arith, math,
complex)."""
_UNSIGNED_CASTS = (arith.ExtUIOp, arith.UIToFPOp, arith.FPToUIOp)
_SIGNED_CASTS = (arith.ExtSIOp, arith.SIToFPOp, arith.FPToSIOp)
_CASTS = (
    *_UNSIGNED_CASTS, *_SIGNED_CASTS, arith.ExtFOp, arith.TruncFOp, arith.TruncIOp,
    arith.IndexCastOp, schedir_arith.IndexCastUIOp, arith.BitcastOp,
)  # fmt: skip


def _skip_unary(value: SSAValue) -> SSAValue:
    """Upstream's `getSourceSkipUnary`: walk up through side-effect-free unary ops."""
    while isinstance(value, OpResult) and len(value.op.operands) == 1:
        if not isinstance(value.op, _PURE_UNARY_OPS):
            break
        value = value.op.operands[0]
    return value


def _is_contraction_body(block: Block, *, and_or_needs_i1: bool = False) -> bool:
    """Upstream's `isContractionBody` with the mul/add pairs it accepts (specialization
    also asks the and/or pair to be on i1)."""
    terminator = block.last_op
    if terminator is None or len(block.args) != 3 or len(terminator.operands) != 1:
        return False
    reduced = _skip_unary(terminator.operands[0])
    if not isinstance(reduced, OpResult):
        return False
    reduction = reduced.op
    if len(reduction.results) != 1 or len(reduction.operands) != 2:
        return False
    lhs, rhs = (_skip_unary(v) for v in reduction.operands)
    if lhs is not block.args[2] and rhs is not block.args[2]:
        return False
    contributed = _skip_unary(rhs if isinstance(lhs, BlockArgument) else lhs)
    if not isinstance(contributed, OpResult):
        return False
    elementwise = contributed.op
    if len(elementwise.results) != 1 or len(elementwise.operands) != 2:
        return False
    if not any(
        isinstance(elementwise, mul) and isinstance(reduction, add)
        for mul, add in _CONTRACTION_PAIRS
    ):
        return False
    if (
        and_or_needs_i1
        and isinstance(elementwise, arith.AndIOp)
        and not _is_i1(elementwise.results[0].type)
    ):
        return False
    a, b = (_skip_unary(v) for v in elementwise.operands)
    return {a, b} == {block.args[0], block.args[1]} and a is not b


def is_contraction(generic: linalg.GenericOp) -> bool:
    """Upstream's `isaContractionOpInterface` on a generic."""
    if len(generic.inputs) != 2 or len(generic.outputs) != 1:
        return False
    if "reduction" not in iterator_types(generic):
        return False
    if not all(m.is_projected_permutation() for m in indexing_maps(generic)):
        return False
    return _is_contraction_body(_body(generic))


def _cast_kind(block: Block) -> str | None:
    """Upstream's `getCastTypeForMatmulLikeOp`: "signed", "unsigned" or None (invalid)."""
    kinds: list[str] = []
    for op in block.ops:
        if not isinstance(op, _CASTS):
            continue
        if not any(
            isinstance(user, arith.MulfOp | arith.MuliOp | complex_ops.MulOp)
            for user in _forward_slice(op)
        ):
            return None  # a cast of the result cannot be expressed by a named matmul
        if isinstance(op, _UNSIGNED_CASTS):
            kinds.append("unsigned")
        elif isinstance(op, _SIGNED_CASTS):
            kinds.append("signed")
    if kinds and any(k != kinds[0] for k in kinds):
        return None
    return kinds[0] if kinds else "signed"


def _forward_slice(op: Operation) -> list[Operation]:
    seen: list[Operation] = []
    work = [use.operation for r in op.results for use in r.uses]
    while work:
        user = work.pop()
        if user in seen:
            continue
        seen.append(user)
        work += [use.operation for r in user.results for use in r.uses]
    return seen


def contraction_dims(maps: Sequence[AffineMap], iterators: Sequence[str]) -> dict[str, list[int]]:
    """Upstream's `inferContractionDims`: batch, m, n and k loop dims, each sorted."""

    def perms(map_: AffineMap, kind: str) -> set[int]:
        found = set()
        for expr in map_.results:
            if (
                isinstance(expr, AffineDimExpr)
                and iterators[expr.position] == kind
                and sum(1 for e in map_.results if expr.position in e.used_dims()) == 1
            ):
                found.add(expr.position)
        return found

    a, b, c = (perms(m, "parallel") for m in maps)
    ra, rb = perms(maps[0], "reduction"), perms(maps[1], "reduction")
    return {
        "batch": sorted(a & b & c),
        "m": sorted((a & c) - b),
        "n": sorted((b & c) - a),
        "k": sorted(ra & rb),
    }


def _match_operand_map(map_: AffineMap, row_index: int, row_dim: int, col_dim: int) -> str:
    """ "match", "transposed" or "mismatch" for the 2-D matrix part of an operand map."""
    row, col = map_.results[row_index], map_.results[row_index + 1]
    if not isinstance(row, AffineDimExpr) or not isinstance(col, AffineDimExpr):
        return "mismatch"
    if (row.position, col.position) == (row_dim, col_dim):
        return "match"
    if (row.position, col.position) == (col_dim, row_dim):
        return "transposed"
    return "mismatch"


def _named_contraction(generic: linalg.GenericOp, cast_kind: str) -> Operation | None:
    """`linalg.matmul` / `linalg.batch_matmul` equivalent to the generic, or None."""
    maps = indexing_maps(generic)
    dims = contraction_dims(maps, iterator_types(generic))
    if len(dims["m"]) != 1 or len(dims["n"]) != 1 or len(dims["k"]) != 1:
        return None
    batch = len(dims["batch"])
    if any(len(m.results) != batch + 2 for m in maps) or maps[0].num_dims != batch + 3:
        return None
    for map_ in maps:
        if any(map_.results[i] != AffineDimExpr(i) for i in range(batch)):
            return None
    m, n, k = dims["m"][0], dims["n"][0], dims["k"][0]
    matches = (
        _match_operand_map(maps[0], batch, m, k),
        _match_operand_map(maps[1], batch, k, n),
        _match_operand_map(maps[2], batch, m, n),
    )
    if "mismatch" in matches:
        return None
    loops = batch + 3
    m_idx, n_idx, k_idx = batch, batch + 1, batch + 2

    def make(match: str, row: int, col: int) -> AffineMap:
        pair = (col, row) if match == "transposed" else (row, col)
        return AffineMap(loops, 0, tuple(AffineDimExpr(d) for d in (*range(batch), *pair)))

    named_maps = (
        make(matches[0], m_idx, k_idx),
        make(matches[1], k_idx, n_idx),
        make(matches[2], m_idx, n_idx),
    )
    props: dict[str, Attribute | None] = {
        "indexing_maps": ArrayAttr([AffineMapAttr(m_) for m_ in named_maps])
    }
    if cast_kind == "unsigned":
        props["cast"] = linalg.TypeFnAttr(linalg.TypeFn.CAST_UNSIGNED)
    cls = linalg.BatchMatmulOp if batch else linalg.MatmulOp
    return cls(list(generic.inputs), list(generic.outputs), properties=props)


# --- convolutions and poolings ----------------------------------------------------------

_WINDOWED: tuple[type[NamedStructuredOp], ...] = tuple(CONV_OPS)
"""Every convolution and pooling schedir defines (upstream tries them one by one)."""


def _linear_coefficients(expr: AffineExpr) -> dict[int, int] | None:
    """`d1 * 2 + d4` -> {1: 2, 4: 1}; None for anything but sums of scaled dims."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    if expr.kind is AffineBinaryOpKind.Add:
        lhs, rhs = _linear_coefficients(expr.lhs), _linear_coefficients(expr.rhs)
        if lhs is None or rhs is None or lhs.keys() & rhs.keys():
            return None
        return lhs | rhs
    if expr.kind is AffineBinaryOpKind.Mul:
        for dim, scale in ((expr.lhs, expr.rhs), (expr.rhs, expr.lhs)):
            if isinstance(dim, AffineDimExpr) and isinstance(scale, AffineConstantExpr):
                return {dim.position: scale.value}
    return None


def _windowed_candidate(
    generic: linalg.GenericOp, cls: type[linalg.NamedStructuredOp]
) -> Operation | None:
    """An op of class `cls` with the generic's operands, strides and dilations read off
    the input map, when its generalized form equals the generic (upstream's
    `matchConvolutionOpOfType`)."""
    if len(generic.inputs) != 2 or len(generic.outputs) != 1:
        return None
    inputs, outputs = list(generic.inputs), list(generic.outputs)
    try:
        unit = cls(inputs, outputs)
    except Exception:  # operands of the wrong rank cannot form this op
        return None
    unit_maps = indexing_maps(unit)
    maps = indexing_maps(generic)
    if (
        len(unit_maps[0].results) != len(maps[0].results)
        or unit_maps[0].num_dims != maps[0].num_dims
    ):
        unit.erase()
        return None
    strides: list[int] = []
    dilations: list[int] = []
    for unit_expr, expr in zip(unit_maps[0].results, maps[0].results, strict=True):
        if not isinstance(unit_expr, AffineBinaryOpExpr):
            continue
        out_dim, window_dim = sorted(unit_expr.used_dims())
        coefficients = _linear_coefficients(expr)
        if coefficients is None or coefficients.keys() != {out_dim, window_dim}:
            unit.erase()
            return None
        strides.append(coefficients[out_dim])
        dilations.append(coefficients[window_dim])
    unit.erase()
    candidate = cls(
        inputs,
        outputs,
        properties={"dilations": _window(dilations), "strides": _window(strides)},
    )
    same = (
        indexing_maps(candidate) == maps
        and iterator_types(candidate) == iterator_types(generic)
        and equivalent_bodies(candidate.regions[0].block, _body(generic))
    )
    if not same:
        candidate.erase()
        return None
    return candidate


def _window(values: Sequence[int]) -> Attribute:
    """`dense<[..]> : tensor<Nxi64>`, the type upstream gives strides and dilations."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), list(values))


def equivalent_bodies(a: Block, b: Block) -> bool:
    """Whether two structured-op bodies compute the same thing op for op."""
    if [x.type for x in a.args] != [y.type for y in b.args]:
        return False
    ops_a, ops_b = list(a.ops), list(b.ops)
    if len(ops_a) != len(ops_b):
        return False
    mapping: dict[SSAValue, SSAValue] = dict(zip(a.args, b.args, strict=True))
    for x, y in zip(ops_a, ops_b, strict=True):
        if (
            x.name != y.name
            or len(x.operands) != len(y.operands)
            or x.result_types != y.result_types
        ):
            return False
        if any(mapping.get(u, u) is not v for u, v in zip(x.operands, y.operands, strict=True)):
            return False
        if x.properties != y.properties:
            return False
        mapping.update(zip(x.results, y.results, strict=True))
    return True


# --- the driver -------------------------------------------------------------------------


def specialize(
    rewriter: PatternRewriter, generic: linalg.GenericOp, emit_category: bool = False
) -> SpecializeResult:
    """Replace `generic` by the named op it is equivalent to (upstream's decision order).

    Raises `RewriteFailure` where upstream's match fails and `UnsupportedSpecialization`
    where upstream would build a category op schedir does not define.
    """
    named: Operation | None = None
    arity = _elementwise_arity(generic)
    if arity is not None:
        kind = _elementwise_kind(generic)
        if kind is None:
            raise RewriteFailure("elementwise operation cannot be specialized to category op")
        raise UnsupportedSpecialization(f"linalg.elementwise <{kind}>")
    if is_contraction(generic):
        if not _is_contraction_body(_body(generic), and_or_needs_i1=True):
            raise RewriteFailure("not a supported contraction body")
        cast_kind = _cast_kind(_body(generic))
        if cast_kind is None:
            raise RewriteFailure("contains invalid cast ops for the named matmul op")
        if not emit_category:
            named = _named_contraction(generic, cast_kind)
        if named is None:
            raise UnsupportedSpecialization("linalg.contract")
    elif emit_category:
        raise RewriteFailure("no matching category op specialization")
    elif is_copy(generic):
        named = linalg.CopyOp([generic.inputs[0]], [generic.outputs[0]])
    elif (value := fill_value(generic)) is not None:
        named = linalg.FillOp([value], [generic.outputs[0]])
    elif (dims := broadcast_dims(generic)) is not None:
        named = linalg.BroadcastOp(generic.inputs[0], generic.outputs[0], dims)
    elif (permutation := transpose_permutation(generic)) is not None:
        named = linalg.TransposeOp(generic.inputs[0], generic.outputs[0], permutation)
    else:
        for cls in _WINDOWED:
            named = _windowed_candidate(generic, cls)
            if named is not None:
                break
    if named is None:
        raise RewriteFailure("no matching named op specialization")
    named.location = generic.location
    rewriter.replace(generic, named, list(named.results))
    return SpecializeResult(named)


__all__ = [
    "SpecializeResult",
    "UnsupportedSpecialization",
    "broadcast_dims",
    "contraction_dims",
    "equivalent_bodies",
    "fill_value",
    "is_contraction",
    "is_copy",
    "specialize",
    "transpose_permutation",
]
