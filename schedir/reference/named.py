"""linalg's named structured ops, each written from upstream's definition.

LinalgNamedStructuredOps.yaml (and LinalgOps.cpp for matmul and friends) define every named
op by its loops, the indexing map of each operand, and a scalar function. They are
transcribed here as tables; the op's own hidden region is never read, so the reference
does not inherit a mistake in the dialect. Inputs are cast to the output element type as
`cast_signed` (or `cast_unsigned` when the op's `cast` says so) before the body, as upstream
does; a cast to a narrower float rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.reference.arith_math import FLOAT_BINARY, FLOAT_UNARY, convert, int_binary
from schedir.reference.attrs import int_list, prop
from schedir.reference.interpreter import unsupported
from schedir.reference.structured import Combine, FunctionBody, Product
from schedir.reference.values import FLOAT64, Elem, elem_of


def rank_of(v: SSAValue) -> int:
    """The rank of a shaped value (0 for a scalar)."""
    return len(v.type.get_shape()) if isinstance(v.type, ShapedType) else 0


def identity_map(rank: int) -> AffineMap:
    """(d0, ..., dn-1) -> (d0, ..., dn-1)."""
    return AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank)))


def maps_property(op: Operation) -> list[AffineMap] | None:
    """The `indexing_maps` an op carries explicitly, if any."""
    attr = prop(op, "indexing_maps")
    if isinstance(attr, ArrayAttr) and attr.data:
        return [m.data for m in attr.data if isinstance(m, AffineMapAttr)]
    return None


# Loops, then each input's and the output's map, in a small notation: a result is a sum of
# terms `loop`, `loop*S<i>` (stride i) or `loop*D<i>` (dilation i); "" is a scalar.
CONTRACTIONS: dict[str, tuple[str, list[str], str]] = {
    "matmul": ("m n k", ["m k", "k n"], "m n"),
    "matmul_transpose_a": ("m n k", ["k m", "k n"], "m n"),
    "matmul_transpose_b": ("m n k", ["m k", "n k"], "m n"),
    "batch_matmul": ("b m n k", ["b m k", "b k n"], "b m n"),
    "batch_matmul_transpose_a": ("b m n k", ["b k m", "b k n"], "b m n"),
    "batch_matmul_transpose_b": ("b m n k", ["b m k", "b n k"], "b m n"),
    "batch_reduce_matmul": ("b m n k", ["b m k", "b k n"], "m n"),
    "matvec": ("m n", ["m n", "n"], "m"),
    "vecmat": ("n m", ["m", "m n"], "n"),
    "batch_matvec": ("b m k", ["b m k", "b k"], "b m"),
    "batch_vecmat": ("b n k", ["b k", "b k n"], "b n"),
    "dot": ("k", ["k", "k"], ""),
    "quantized_matmul": ("m n k", ["m k", "k n", "", ""], "m n"),
    "quantized_batch_matmul": ("b m n k", ["b m k", "b k n", "", ""], "b m n"),
    "conv_1d": ("ow kw", ["ow+kw", "kw"], "ow"),
    "conv_2d": ("oh ow kh kw", ["oh+kh ow+kw", "kh kw"], "oh ow"),
    "conv_3d": ("od oh ow kd kh kw", ["od+kd oh+kh ow+kw", "kd kh kw"], "od oh ow"),
    "conv_1d_nwc_wcf": ("n ow f kw c", ["n ow*S0+kw*D0 c", "kw c f"], "n ow f"),
    "conv_1d_ncw_fcw": ("n f ow c kw", ["n c ow*S0+kw*D0", "f c kw"], "n f ow"),
    "conv_2d_nhwc_hwcf": (
        "n oh ow f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c f"],
        "n oh ow f",
    ),
    "conv_2d_nhwc_hwcf_q": (
        "n oh ow f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c f", "", ""],
        "n oh ow f",
    ),
    "conv_2d_nhwc_fhwc": (
        "n oh ow f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "f kh kw c"],
        "n oh ow f",
    ),
    "conv_2d_nchw_fchw": (
        "n f oh ow c kh kw",
        ["n c oh*S0+kh*D0 ow*S1+kw*D1", "f c kh kw"],
        "n f oh ow",
    ),
    "conv_2d_ngchw_fgchw": (
        "n g f oh ow c kh kw",
        ["n g c oh*S0+kh*D0 ow*S1+kw*D1", "f g c kh kw"],
        "n g f oh ow",
    ),
    "conv_2d_ngchw_gfchw": (
        "n g f oh ow c kh kw",
        ["n g c oh*S0+kh*D0 ow*S1+kw*D1", "g f c kh kw"],
        "n g f oh ow",
    ),
    "conv_2d_nhwgc_gfhwc": (
        "n oh ow g f kh kw c",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 g c", "g f kh kw c"],
        "n oh ow g f",
    ),
    "conv_3d_ndhwc_dhwcf": (
        "n od oh ow f kd kh kw c",
        ["n od*S0+kd*D0 oh*S1+kh*D1 ow*S2+kw*D2 c", "kd kh kw c f"],
        "n od oh ow f",
    ),
    "depthwise_conv_1d_nwc_wc": ("n ow c kw", ["n ow*S0+kw*D0 c", "kw c"], "n ow c"),
    "depthwise_conv_2d_nhwc_hwc": (
        "n oh ow c kh kw",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c"],
        "n oh ow c",
    ),
    "depthwise_conv_2d_nchw_chw": (
        "n c oh ow kh kw",
        ["n c oh*S0+kh*D0 ow*S1+kw*D1", "c kh kw"],
        "n c oh ow",
    ),
    "depthwise_conv_2d_nhwc_hwcm": (
        "n oh ow c m kh kw",
        ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw c m"],
        "n oh ow c m",
    ),
}
POOLING_LAYOUTS: dict[str, tuple[str, list[str], str]] = {
    "nhwc": ("n oh ow c kh kw", ["n oh*S0+kh*D0 ow*S1+kw*D1 c", "kh kw"], "n oh ow c"),
    "nchw": ("n c oh ow kh kw", ["n c oh*S0+kh*D0 ow*S1+kw*D1", "kh kw"], "n c oh ow"),
    "nwc": ("n ow c kw", ["n ow*S0+kw*D0 c", "kw"], "n ow c"),
    "ncw": ("n c ow kw", ["n c ow*S0+kw*D0", "kw"], "n c ow"),
    "ndhwc": (
        "n od oh ow c kd kh kw",
        ["n od*S0+kd*D0 oh*S1+kh*D1 ow*S2+kw*D2 c", "kd kh kw"],
        "n od oh ow c",
    ),
}
POOLING_KINDS = ("sum", "max", "min", "max_unsigned", "min_unsigned")


def parse_maps(
    op: Operation, spec: tuple[str, list[str], str]
) -> tuple[list[AffineMap], list[bool]]:
    """Indexing maps and reduction flags of a named op from its notation (see CONTRACTIONS)."""
    loops, operands, output = spec
    names = loops.split()
    n_windows = max(1, sum(1 for operand in operands for r in operand.split() if "*S" in r))
    strides = int_list(prop(op, "strides")) or [1] * n_windows
    dilations = int_list(prop(op, "dilations")) or [1] * n_windows

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


def _caster(op: Operation, src: Elem, dst: Elem) -> Callable[[Any], Any]:
    """The `cast` of a named op's input to the output type (cast_signed unless told)."""
    unsigned_cast = "cast_unsigned" in str(prop(op, "cast") or "")
    if src == dst:
        return lambda x: x
    return lambda x: convert(x, src, dst, unsigned_source=unsigned_cast)


def _contraction_body(op: Operation, in_elems: list[Elem], out: Elem) -> FunctionBody:
    """O += cast(A) * cast(B), with zero points subtracted first for the quantized ops."""
    casts = [_caster(op, e, out) for e in in_elems]
    add = Combine("arith.addf" if out.is_float else "arith.addi", out)

    def sub(x: Any, y: Any) -> Any:
        """Subtract in the output type."""
        return (
            FLOAT_BINARY["arith.subf"](x, y)
            if out.is_float
            else int_binary("arith.subi", x, y, out)
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
            FLOAT_BINARY["arith.mulf"](a, b)
            if out.is_float
            else int_binary("arith.muli", a, b, out)
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


def _pooling_body(op: Operation, kind: str, in_elem: Elem, out: Elem) -> FunctionBody:
    """O = combine(O, cast(I)); the window operand only gives the window's shape."""
    if out.is_float:
        name = {"sum": "arith.addf", "max": "arith.maximumf", "min": "arith.minimumf"}.get(kind)
    else:
        name = {
            "sum": "arith.addi", "max": "arith.maxsi", "min": "arith.minsi",
            "max_unsigned": "arith.maxui", "min_unsigned": "arith.minui",
        }.get(kind)  # fmt: skip
    if name is None:
        raise unsupported(f"'{op.name}' op on {out.name}", op)
    combine = Combine(name, out)
    unsigned_cast = kind.endswith("unsigned")

    def cast(x: Any) -> Any:
        """The input cast to the output type."""
        return x if in_elem == out else convert(x, in_elem, out, unsigned_source=unsigned_cast)

    return FunctionBody(
        lambda ins, outs, index: [combine.apply(outs[0], cast(ins[0]))],
        [combine],
        lambda ins: [cast(ins[0])],
    )


ELEMENTWISE_BINARY = {
    "add": ("arith.addf", "arith.addi"),
    "sub": ("arith.subf", "arith.subi"),
    "mul": ("arith.mulf", "arith.muli"),
    "div": ("arith.divf", "arith.divsi"),
    "div_unsigned": ("arith.divf", "arith.divui"),
    "max": ("arith.maximumf", "arith.maxsi"),
    "min": ("arith.minimumf", "arith.minsi"),
    "powf": ("math.powf", None),
}
ELEMENTWISE_UNARY = {
    "exp": "math.exp",
    "log": "math.log",
    "abs": "math.absf",
    "ceil": "math.ceil",
    "floor": "math.floor",
    "negf": "arith.negf",
    "round": "math.round",
    "sqrt": "math.sqrt",
    "rsqrt": "math.rsqrt",
    "tanh": "math.tanh",
    "erf": "math.erf",
    "reciprocal": None,
    "square": None,
}


def _elementwise_fn(op: Operation, short: str, out: Elem) -> Callable[[list[Any]], Any]:
    """The scalar function of an elementwise named op on `out`'s element type."""
    if short in ELEMENTWISE_BINARY:
        float_name, int_name = ELEMENTWISE_BINARY[short]
        if out.is_float:
            return lambda xs: FLOAT_BINARY[float_name](xs[0], xs[1])
        if int_name is None:
            raise unsupported(f"'{op.name}' op on {out.name}", op)
        return lambda xs: int_binary(int_name, xs[0], xs[1], out)
    if short == "select":
        return lambda xs: np.where(np.asarray(xs[0], dtype=np.bool_), xs[1], xs[2])
    if not out.is_float:
        raise unsupported(f"'{op.name}' op on {out.name}", op)
    if short == "reciprocal":
        return lambda xs: 1.0 / np.asarray(xs[0], dtype=FLOAT64)
    if short == "square":
        return lambda xs: np.square(np.asarray(xs[0], dtype=FLOAT64))
    fn = FLOAT_UNARY[ELEMENTWISE_UNARY[short]]  # type: ignore[index]
    return lambda xs: fn(np.asarray(xs[0], dtype=FLOAT64))


def named_definition(
    op: Operation, ins: Sequence[SSAValue], outs: Sequence[SSAValue]
) -> tuple[list[AffineMap], list[bool], FunctionBody]:
    """Indexing maps, reduction flags and body of a named structured op, by definition."""
    short = op.name.removeprefix("linalg.")
    in_elems = [elem_of(v.type) for v in ins]
    out = elem_of(outs[0].type)
    rank = rank_of(outs[0])
    if short in CONTRACTIONS or short == "contract":
        if short == "contract":
            maps = maps_property(op)
            if maps is None:
                raise unsupported("'linalg.contract' without indexing_maps", op)
            out_dims = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
            reduction = [d not in out_dims for d in range(maps[-1].num_dims)]
        else:
            maps, reduction = parse_maps(op, CONTRACTIONS[short])
            # matmul and friends may carry explicit maps (transposes, broadcasts).
            maps = maps_property(op) or maps
        return maps, reduction, _contraction_body(op, in_elems, out)
    if short.startswith("pooling_"):
        layout, _, kind = short.removeprefix("pooling_").partition("_")
        if layout not in POOLING_LAYOUTS or kind not in POOLING_KINDS:
            raise unsupported(f"the reference evaluator does not support '{op.name}'", op)
        maps, reduction = parse_maps(op, POOLING_LAYOUTS[layout])
        return maps, reduction, _pooling_body(op, kind, in_elems[0], out)
    identity = identity_map(rank)
    if short == "fill":
        cast = _caster(op, in_elems[0], out)
        maps = [AffineMap(rank, 0, ())] + [identity] * len(outs)
        body = FunctionBody(lambda ins_, outs_, index: [cast(ins_[0])])
    elif short == "copy":
        cast = _caster(op, in_elems[0], out)
        maps = [identity, identity]
        body = FunctionBody(lambda ins_, outs_, index: [cast(ins_[0])])
    elif short == "transpose":
        permutation = int_list(prop(op, "permutation")) or []
        inverse = [permutation.index(p) for p in range(len(permutation))]
        maps = [AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in inverse)), identity]
        body = FunctionBody(lambda ins_, outs_, index: [ins_[0]])
    elif short == "broadcast":
        added = set(int_list(prop(op, "dimensions")) or [])
        maps = [
            AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in added)),
            identity,
        ]
        body = FunctionBody(lambda ins_, outs_, index: [ins_[0]])
    elif short in ELEMENTWISE_BINARY or short in ELEMENTWISE_UNARY or short == "select":
        fn = _elementwise_fn(op, short, out)
        maps = maps_property(op) or [
            identity if rank_of(v) else AffineMap(rank, 0, ()) for v in (*ins, *outs)
        ]
        body = FunctionBody(lambda ins_, outs_, index: [fn(ins_)])
    else:
        raise unsupported(f"the reference evaluator does not support '{op.name}'", op)
    return maps, [False] * rank, body


NAMED_OPS = (
    [*CONTRACTIONS, "contract", "fill", "copy", "transpose", "broadcast", "select"]
    + list(ELEMENTWISE_BINARY)
    + list(ELEMENTWISE_UNARY)
    + [f"pooling_{layout}_{kind}" for layout in POOLING_LAYOUTS for kind in POOLING_KINDS]
)


def named_maps(op: Operation) -> tuple[list[AffineMap], list[bool]] | None:
    """Indexing maps and reduction flags of a named contraction or pooling op, if it is one."""
    short = op.name.removeprefix("linalg.")
    if short in CONTRACTIONS:
        maps, reduction = parse_maps(op, CONTRACTIONS[short])
        return maps_property(op) or maps, reduction
    if short == "contract" and (maps := maps_property(op)) is not None:
        out_dims = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
        return maps, [d not in out_dims for d in range(maps[-1].num_dims)]
    if short.startswith("pooling_"):
        layout = short.removeprefix("pooling_").partition("_")[0]
        if layout in POOLING_LAYOUTS:
            return parse_maps(op, POOLING_LAYOUTS[layout])
    return None


__all__ = [
    "CONTRACTIONS",
    "NAMED_OPS",
    "POOLING_LAYOUTS",
    "identity_map",
    "maps_property",
    "named_definition",
    "named_maps",
    "parse_maps",
    "rank_of",
]
