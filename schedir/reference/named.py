"""linalg's named structured ops, each written from upstream's definition.

LinalgNamedStructuredOps.yaml (and LinalgOps.cpp for matmul and friends) define every named
op by its loops, the indexing map of each operand, and a scalar function. They are
transcribed here as tables keyed by op class; the op's own hidden region and default maps
are never read, so the reference does not inherit a mistake in the dialect. Inputs are cast
to the output element type as `cast_signed` (or `cast_unsigned` when the op's `cast` says
so) before the body, as upstream does; a cast to a narrower float rounds.

The classes are schedir's (`schedir.dialects.linalg`, what the parser produces) and, for
the named ops schedir does not register (upstream removed the elementwise ones), xDSL's,
which only IR built in Python holds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ShapedType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import arith, linalg
from schedir.dialects.linalg.conv import WindowedOp
from schedir.reference import bounds
from schedir.reference.arith_math import convert, float_binary, float_unary, int_binary
from schedir.reference.attrs import int_list
from schedir.reference.interpreter import unsupported
from schedir.reference.structured import Combine, FunctionBody, Product
from schedir.reference.values import Elem, elem_of


def rank_of(v: SSAValue) -> int:
    """The rank of a shaped value (0 for a scalar)."""
    return len(v.type.get_shape()) if isinstance(v.type, ShapedType) else 0


def identity_map(rank: int) -> AffineMap:
    """(d0, ..., dn-1) -> (d0, ..., dn-1)."""
    return AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank)))


Spec = tuple[str, list[str], str]
"""Loops, then each input's and the output's map, in a small notation: a result is a sum of
terms `loop`, `loop*S<i>` (stride i) or `loop*D<i>` (dilation i); "" is a scalar."""

CONTRACTIONS: dict[type[Operation], Spec] = {
    linalg.MatmulOp: ("m n k", ["m k", "k n"], "m n"),
    linalg.BatchMatmulOp: ("b m n k", ["b m k", "b k n"], "b m n"),
    linalg.MatvecOp: ("m n", ["m n", "n"], "m"),
    linalg.VecmatOp: ("n m", ["m", "m n"], "n"),
    linalg.DotOp: ("k", ["k", "k"], ""),
    xlinalg.QuantizedMatmulOp: ("m n k", ["m k", "k n", "", ""], "m n"),
    linalg.Conv2DNhwcHwcfOp: (
        "n oh ow f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c f"],
        "n oh ow f",
    ),
    linalg.Conv2DNhwcFhwcOp: (
        "n oh ow f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "f kh kw c"],
        "n oh ow f",
    ),
    linalg.Conv2DNchwFchwOp: (
        "n f oh ow c kh kw",
        ["n c oh*S0+kh*D0 ow*S1+kw*D1", "f c kh kw"],
        "n f oh ow",
    ),
    xlinalg.Conv2DNgchwFgchwOp: (
        "n g f oh ow c kh kw",
        ["n g c oh*S0+kh*D0 ow*S1+kw*D1", "f g c kh kw"],
        "n g f oh ow",
    ),
    xlinalg.Conv2DNgchwGfchwOp: (
        "n g f oh ow c kh kw",
        ["n g c oh*S0+kh*D0 ow*S1+kw*D1", "g f c kh kw"],
        "n g f oh ow",
    ),
    xlinalg.Conv2DNhwgcGfhwcOp: (
        "n oh ow g f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 g c", "g f kh kw c"],
        "n oh ow g f",
    ),
    linalg.DepthwiseConv2DNhwcHwcOp: (
        "n oh ow c kh kw",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c"],
        "n oh ow c",
    ),
}
"""The contractions and convolutions: O += cast(A) * cast(B)."""

_NHWC: Spec = ("n oh ow c kh kw", ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw"], "n oh ow c")
_NCHW: Spec = ("n c oh ow kh kw", ["n c oh*S0+kh*D0 ow*S1+kw*D1", "kh kw"], "n c oh ow")

POOLINGS: dict[type[Operation], tuple[Spec, str]] = {
    linalg.PoolingNchwMaxOp: (_NCHW, "max"),
    linalg.PoolingNchwSumOp: (_NCHW, "sum"),
    linalg.PoolingNhwcMaxOp: (_NHWC, "max"),
    linalg.PoolingNhwcMinOp: (_NHWC, "min"),
    linalg.PoolingNhwcSumOp: (_NHWC, "sum"),
}
"""The poolings: O = combine(O, cast(I)), by layout and combining kind."""

_WINDOWED = (
    WindowedOp,
    xlinalg.Conv2DNgchwFgchwOp,
    xlinalg.Conv2DNgchwGfchwOp,
    xlinalg.Conv2DNhwgcGfhwcOp,
)
"""The ops with `strides` and `dilations`."""


def _windows(op: Operation) -> tuple[DenseIntOrFPElementsAttr | None, ...]:
    """The `strides` and `dilations` of a convolution or pooling (None where not given)."""
    if isinstance(op, _WINDOWED):
        return op.strides, op.dilations
    return None, None


def parse_maps(op: Operation, spec: Spec) -> tuple[list[AffineMap], list[bool]]:
    """Indexing maps and reduction flags of a named op from its notation (see Spec)."""
    loops, operands, output = spec
    names = loops.split()
    n_windows = max(1, sum(1 for operand in operands for r in operand.split() if "*S" in r))
    strides_attr, dilations_attr = _windows(op)
    strides = int_list(strides_attr) if strides_attr is not None else [1] * n_windows
    dilations = int_list(dilations_attr) if dilations_attr is not None else [1] * n_windows

    def term(text: str) -> AffineExpr:
        """One `loop` or `loop*S<i>` / `loop*D<i>` term."""
        loop, _, factor = text.partition("*")
        expr: AffineExpr = AffineDimExpr(names.index(loop))
        if factor:
            scale = (strides if factor[0] == "S" else dilations)[int(factor[1:])]
            expr = expr * scale
        return expr

    def result(text: str) -> AffineExpr:
        """A sum of terms."""
        terms = [term(t) for t in text.split("+")]
        expr = terms[0]
        for t in terms[1:]:
            expr = expr + t
        return expr

    maps = [
        AffineMap(len(names), 0, tuple(result(r) for r in text.split()))
        for text in [*operands, output]
    ]
    out_loops = set(output.split())
    return maps, [name not in out_loops for name in names]


def _contraction_maps(op: Operation) -> tuple[list[AffineMap], list[bool]]:
    """A contraction's maps and reduction flags; matmul and batch_matmul may carry explicit
    maps (transposes, broadcasts)."""
    maps, reduction = parse_maps(op, CONTRACTIONS[type(op)])
    if isinstance(op, linalg.MatmulOp | linalg.BatchMatmulOp) and op.indexing_maps.data:
        maps = [m.data for m in op.indexing_maps.data]
    return maps, reduction


def _caster(op: Operation, src: Elem, dst: Elem) -> Callable[[Any], Any]:
    """The `cast` of a named op's input to the output type (cast_signed unless told)."""
    unsigned_cast = (
        isinstance(op, linalg.MatmulOp | linalg.BatchMatmulOp | linalg.CopyOp)
        and op.cast is not None
        and op.cast.data == linalg.TypeFn.CAST_UNSIGNED
    )
    if src == dst:
        return lambda x: x
    return lambda x: convert(x, src, dst, unsigned_source=unsigned_cast)


def _contraction_body(
    op: Operation, in_elems: list[Elem], out: Elem, bounded: bool
) -> FunctionBody:
    """O += cast(A) * cast(B), with zero points subtracted first for the quantized ops."""
    casts = [_caster(op, e, out) for e in in_elems]
    add = Combine(arith.AddfOp if out.is_float else arith.AddiOp, out, bounded)

    def sub(x: Any, y: Any) -> Any:
        """Subtract in the output type."""
        return (
            float_binary(arith.SubfOp, x, y, out, bounded)
            if out.is_float
            else int_binary(arith.SubiOp, x, y, out)
        )

    def factors(ins: list[Any]) -> tuple[Any, Any]:
        """The two cast (and zero-point adjusted) factors."""
        a, b = casts[0](ins[0]), casts[1](ins[1])
        if len(ins) == 4:
            a, b = sub(a, casts[2](ins[2])), sub(b, casts[3](ins[3]))
        return a, b

    def multiply(a: Any, b: Any) -> Any:
        """Multiply in the output type."""
        return (
            float_binary(arith.MulfOp, a, b, out, bounded)
            if out.is_float
            else int_binary(arith.MuliOp, a, b, out)
        )

    if out.is_bool:
        # i1 sums are xor: reduce the materialized products rather than einsum them.
        return FunctionBody(
            lambda ins, outs, index: [add.apply(outs[0], multiply(*factors(ins)))],
            [add],
            lambda ins: [multiply(*factors(ins))],
            [False],
        )
    return FunctionBody(
        lambda ins, outs, index: [add.apply(outs[0], multiply(*factors(ins)))],
        [add],
        lambda ins: [Product(*factors(ins))],
        [True],
    )


_POOLING_COMBINES: dict[str, tuple[type[Operation], type[Operation]]] = {
    "sum": (arith.AddfOp, arith.AddiOp),
    "max": (arith.MaximumfOp, arith.MaxSIOp),
    "min": (arith.MinimumfOp, arith.MinSIOp),
}
"""The (float, integer) combining op of each pooling kind."""


def _pooling_body(
    op: Operation, kind: str, in_elem: Elem, out: Elem, bounded: bool
) -> FunctionBody:
    """O = combine(O, cast(I)); the window operand only gives the window's shape."""
    float_op, int_op = _POOLING_COMBINES[kind]
    combine = Combine(float_op if out.is_float else int_op, out, bounded)

    def cast(x: Any) -> Any:
        """The input cast to the output type."""
        return x if in_elem == out else convert(x, in_elem, out)

    return FunctionBody(
        lambda ins, outs, index: [combine.apply(outs[0], cast(ins[0]))],
        [combine],
        lambda ins: [cast(ins[0])],
    )


ELEMENTWISE_BINARY: dict[type[Operation], tuple[type[Operation], type[Operation]]] = {
    xlinalg.AddOp: (arith.AddfOp, arith.AddiOp),
    xlinalg.SubOp: (arith.SubfOp, arith.SubiOp),
    xlinalg.MulOp: (arith.MulfOp, arith.MuliOp),
    xlinalg.MaxOp: (arith.MaximumfOp, arith.MaxSIOp),
    xlinalg.MinOp: (arith.MinimumfOp, arith.MinSIOp),
}
"""The binary elementwise named ops: their (float, integer) arith op."""

ELEMENTWISE_UNARY: dict[type[Operation], type[Operation]] = {
    xlinalg.ExpOp: math.ExpOp,
    xlinalg.LogOp: math.LogOp,
    xlinalg.SqrtOp: math.SqrtOp,
}
"""The unary elementwise named ops (on floats): their math op."""


def _elementwise_fn(op: Operation, out: Elem, bounded: bool) -> Callable[[list[Any]], Any]:
    """The scalar function of an elementwise named op on `out`'s element type."""
    if type(op) in ELEMENTWISE_BINARY:
        float_op, int_op = ELEMENTWISE_BINARY[type(op)]
        if out.is_float:
            return lambda xs: float_binary(float_op, xs[0], xs[1], out, bounded)
        return lambda xs: int_binary(int_op, xs[0], xs[1], out)
    if isinstance(op, xlinalg.SelectOp):
        if bounded and out.is_float:
            return lambda xs: bounds.select(xs[0], xs[1], xs[2])
        return lambda xs: np.where(np.asarray(xs[0], dtype=np.bool_), xs[1], xs[2])
    if not out.is_float:
        raise unsupported(f"'{op.name}' op on {out.name}", op)
    unary = ELEMENTWISE_UNARY[type(op)]
    return lambda xs: float_unary(unary, xs[0], out, bounded)


ELEMENTWISE = (*ELEMENTWISE_BINARY, *ELEMENTWISE_UNARY, xlinalg.SelectOp)
"""The elementwise named ops."""


def named_definition(
    op: Operation, ins: Sequence[SSAValue], outs: Sequence[SSAValue], bounded: bool = False
) -> tuple[list[AffineMap], list[bool], FunctionBody]:
    """Indexing maps, reduction flags and body of a named structured op, by definition
    (`bounded`: on floats with error bounds, see `bounds`)."""
    in_elems = [elem_of(v.type) for v in ins]
    out = elem_of(outs[0].type)
    rank = rank_of(outs[0])
    if type(op) in CONTRACTIONS:
        maps, reduction = _contraction_maps(op)
        return maps, reduction, _contraction_body(op, in_elems, out, bounded)
    if type(op) in POOLINGS:
        spec, kind = POOLINGS[type(op)]
        maps, reduction = parse_maps(op, spec)
        return maps, reduction, _pooling_body(op, kind, in_elems[0], out, bounded)
    identity = identity_map(rank)
    if isinstance(op, linalg.FillOp):
        cast = _caster(op, in_elems[0], out)
        maps = [AffineMap(rank, 0, ())] + [identity] * len(outs)
        body = FunctionBody(lambda ins_, outs_, index: [cast(ins_[0])])
    elif isinstance(op, linalg.CopyOp):
        cast = _caster(op, in_elems[0], out)
        maps = [identity, identity]
        body = FunctionBody(lambda ins_, outs_, index: [cast(ins_[0])])
    elif isinstance(op, linalg.TransposeOp):
        permutation = int_list(op.permutation)
        inverse = [permutation.index(p) for p in range(len(permutation))]
        maps = [AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in inverse)), identity]
        body = FunctionBody(lambda ins_, outs_, index: [ins_[0]])
    elif isinstance(op, linalg.BroadcastOp):
        added = set(int_list(op.dimensions))
        maps = [
            AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in added)),
            identity,
        ]
        body = FunctionBody(lambda ins_, outs_, index: [ins_[0]])
    elif isinstance(op, ELEMENTWISE):
        fn = _elementwise_fn(op, out, bounded)
        maps = [identity if rank_of(v) else AffineMap(rank, 0, ()) for v in (*ins, *outs)]
        body = FunctionBody(lambda ins_, outs_, index: [fn(ins_)])
    else:
        raise unsupported(f"the reference evaluator does not support '{op.name}'", op)
    return maps, [False] * rank, body


NAMED_OPS: tuple[type[Operation], ...] = (
    *CONTRACTIONS,
    *POOLINGS,
    linalg.FillOp,
    linalg.CopyOp,
    linalg.TransposeOp,
    linalg.BroadcastOp,
    *ELEMENTWISE,
)
"""Every named op class the reference evaluates by its definition."""


def named_maps(op: Operation) -> tuple[list[AffineMap], list[bool]] | None:
    """Indexing maps and reduction flags of a named contraction or pooling op, if it is one."""
    if type(op) in CONTRACTIONS:
        return _contraction_maps(op)
    if type(op) in POOLINGS:
        return parse_maps(op, POOLINGS[type(op)][0])
    return None


__all__ = [
    "CONTRACTIONS",
    "ELEMENTWISE",
    "ELEMENTWISE_BINARY",
    "ELEMENTWISE_UNARY",
    "NAMED_OPS",
    "POOLINGS",
    "Spec",
    "identity_map",
    "named_definition",
    "named_maps",
    "parse_maps",
    "rank_of",
]
