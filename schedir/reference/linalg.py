"""`linalg` ops: `generic`, `map` and `reduce` by their regions, named ops by their definitions.

Each named op is written here from upstream's definition (LinalgNamedStructuredOps.yaml and
LinalgOps.cpp): its loops, the indexing map of every operand, and its scalar function; the
op's own hidden region is never read, so the reference does not inherit a mistake in it.
Inputs are cast to the output element type as `cast_signed` (or `cast_unsigned` when the op
says so) before the body, as upstream does; a cast to a narrower float rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, MemRefType, ShapedType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from schedir.reference.arith_math import FLOAT_BINARY, FLOAT_UNARY, convert, int_binary
from schedir.reference.attrs import int_list, prop
from schedir.reference.interpreter import unsupported
from schedir.reference.structured import (
    COMBINERS,
    Combine,
    FunctionBody,
    Product,
    evaluate_structured,
)
from schedir.reference.values import FLOAT64, Elem, elem_of

if TYPE_CHECKING:
    from schedir.reference.interpreter import Handler, Interpreter


# ---- operands and results ------------------------------------------------------------------


def split_operands(op: Operation) -> tuple[list[SSAValue], list[SSAValue]]:
    """The ins and outs of a structured op, by its operand fields, else its segments."""
    for ins_name, outs_name in (
        ("inputs", "outputs"),
        ("inputs", "inits"),
        ("inputs", "init"),
        ("input", "init"),
        ("input", "output"),
    ):
        ins, outs = getattr(op, ins_name, None), getattr(op, outs_name, None)
        if ins is not None and outs is not None:
            return _as_list(ins), _as_list(outs)
    sizes = int_list(prop(op, "operandSegmentSizes"))
    operands = list(op.operands)
    if sizes is not None and len(sizes) == 2:
        return operands[: sizes[0]], operands[sizes[0] :]
    half = len(operands) // 2
    return operands[:half], operands[half:]


def _as_list(values: Any) -> list[SSAValue]:
    return [values] if isinstance(values, SSAValue) else list(values)


def _values(ip: Interpreter, values: Sequence[SSAValue]) -> list[Any]:
    return [ip.value(v) for v in values]


def _finish(
    op: Operation, outs: Sequence[SSAValue], out_values: Sequence[Any], new: Sequence[np.ndarray]
) -> list[Any]:
    """Results for tensor outs; memref outs are written in place (no result)."""
    results = []
    for operand, old, value in zip(outs, out_values, new, strict=True):
        if isinstance(operand.type, MemRefType):
            old[...] = value
        else:
            results.append(value)
    return results


def _rank(v: SSAValue) -> int:
    return len(v.type.get_shape()) if isinstance(v.type, ShapedType) else 0


def _identity(rank: int) -> AffineMap:
    return AffineMap(rank, 0, tuple(AffineDimExpr(i) for i in range(rank)))


def _maps_property(op: Operation) -> list[AffineMap] | None:
    attr = prop(op, "indexing_maps")
    if isinstance(attr, ArrayAttr) and attr.data:
        return [m.data for m in attr.data if isinstance(m, AffineMapAttr)]
    return None


# ---- region bodies (generic, map, reduce) --------------------------------------------------


def _uses(v: SSAValue) -> list[Operation]:
    return [use.operation for use in v.uses]


class RegionBody:
    """The body of a `linalg.generic`, `map` or `reduce`, evaluated by the interpreter."""

    def __init__(self, ip: Interpreter, op: Operation, n_in: int, n_out: int) -> None:
        self.ip = ip
        self.block: Block = op.regions[0].blocks[0]
        args = self.block.args
        self.in_args = args[:n_in]
        self.out_args = args[n_in:]
        self.terminator = self.block.last_op
        assert self.terminator is not None
        self._combines: list[Combine] | None = None
        self._products: list[bool] = []
        self._partials: list[SSAValue | tuple[SSAValue, SSAValue]] = []
        self._skip: frozenset[Operation] = frozenset()
        self._match(n_out)

    def _match(self, n_out: int) -> None:
        """Recognize `yield(combine(out_k, f_k))` for every output k (see the module doc)."""
        if len(self.out_args) != n_out or len(self.terminator.operands) != n_out:
            return
        combines: list[Combine] = []
        skip: set[Operation] = set()
        for k in range(n_out):
            combine = self.terminator.operands[k].owner
            out_arg = self.out_args[k]
            if not isinstance(combine, Operation) or combine.parent is not self.block:
                return
            if combine.name not in COMBINERS or len(combine.operands) != 2:
                return
            lhs, rhs = combine.operands
            if (lhs is out_arg) == (rhs is out_arg):
                return
            f = rhs if lhs is out_arg else lhs
            if _uses(out_arg) != [combine] or len(_uses(combine.results[0])) != 1:
                return
            elem = elem_of(out_arg.type)
            if elem.is_float != combine.name.endswith("f"):
                return
            combines.append(Combine(combine.name, elem))
            skip.add(combine)
            producer = f.owner
            product_name = "arith.mulf" if elem.is_float else "arith.muli"
            sum_name = "arith.addf" if elem.is_float else "arith.addi"
            if (
                isinstance(producer, Operation)
                and producer.parent is self.block
                and producer.name == product_name
                and combine.name == sum_name
                and not elem.is_bool
                and len(_uses(f)) == 1
            ):
                self._products.append(True)
                self._partials.append((producer.operands[0], producer.operands[1]))
                skip.add(producer)
            else:
                self._products.append(False)
                self._partials.append(f)
        self._combines = combines
        self._skip = frozenset(skip)

    def full(self, ins: list[Any], outs: list[Any], index: list[np.ndarray]) -> list[Any]:
        ip = self.ip
        ip.bind(self.in_args, ins)
        ip.bind(self.out_args, outs[: len(self.out_args)])
        ip.linalg_indices.append(index)
        try:
            terminator = ip.run_ops(self.block)
            return [ip.value(v) for v in terminator.operands]
        finally:
            ip.linalg_indices.pop()

    def combines(self) -> list[Combine] | None:
        return self._combines

    def products(self) -> list[bool]:
        return self._products

    def partial(self, ins: list[Any], index: list[np.ndarray]) -> list[Any]:
        ip = self.ip
        ip.bind(self.in_args, ins)
        ip.linalg_indices.append(index)
        try:
            ip.run_ops(self.block, self._skip)
        finally:
            ip.linalg_indices.pop()
        return [
            Product(ip.value(p[0]), ip.value(p[1])) if isinstance(p, tuple) else ip.value(p)
            for p in self._partials
        ]


def _iterator_is_reduction(attr: Any) -> bool:
    text = str(getattr(attr, "data", attr)).strip('"')
    return text in ("reduction", "window")


def _generic(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    ins, outs = split_operands(op)
    maps = _maps_property(op)
    iterators = prop(op, "iterator_types")
    if maps is None or not isinstance(iterators, ArrayAttr):
        raise unsupported("'linalg.generic' without indexing_maps and iterator_types", op)
    reduction = [_iterator_is_reduction(it) for it in iterators.data]
    return _run(ip, op, ins, outs, maps, reduction, RegionBody(ip, op, len(ins), len(outs)))


def _run(
    ip: Interpreter,
    op: Operation,
    ins: list[SSAValue],
    outs: list[SSAValue],
    maps: Sequence[AffineMap],
    reduction: Sequence[bool],
    body: Any,
) -> list[Any]:
    in_values, out_values = _values(ip, ins), _values(ip, outs)
    out_elems = [elem_of(v.type) for v in outs]
    new = evaluate_structured(op, in_values, out_values, maps, reduction, body, out_elems)
    return _finish(op, outs, out_values, new)


def _map(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    ins, outs = split_operands(op)
    rank = _rank(outs[0])
    maps = [_identity(rank)] * (len(ins) + len(outs))
    return _run(ip, op, ins, outs, maps, [False] * rank, RegionBody(ip, op, len(ins), len(outs)))


def _reduce(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    ins, outs = split_operands(op)
    dims = set(int_list(prop(op, "dimensions")) or [])
    rank = _rank(ins[0])
    kept = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dims))
    maps = [_identity(rank)] * len(ins) + [kept] * len(outs)
    reduction = [d in dims for d in range(rank)]
    return _run(ip, op, ins, outs, maps, reduction, RegionBody(ip, op, len(ins), len(outs)))


def _index(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    dim = prop(op, "dim")
    if not ip.linalg_indices or not isinstance(dim, IntegerAttr):
        raise unsupported("'linalg.index' outside a linalg body", op)
    return [ip.linalg_indices[-1][dim.value.data]]


# ---- named ops -----------------------------------------------------------------------------

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


def _parse_maps(
    op: Operation, spec: tuple[str, list[str], str]
) -> tuple[list[AffineMap], list[bool]]:
    """Indexing maps and reduction flags of a named op from its notation (see CONTRACTIONS)."""
    loops, operands, output = spec
    names = loops.split()
    n_windows = max(1, sum(1 for operand in operands for r in operand.split() if "*S" in r))
    strides = int_list(prop(op, "strides")) or [1] * n_windows
    dilations = int_list(prop(op, "dilations")) or [1] * n_windows

    def term(text: str) -> AffineExpr:
        loop, _, factor = text.partition("*")
        expr: AffineExpr = AffineDimExpr(names.index(loop))
        if factor:
            scale = (strides if factor[0] == "S" else dilations)[int(factor[1:])]
            expr = expr * scale
        return expr

    def result(text: str) -> AffineExpr:
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
        return (
            FLOAT_BINARY["arith.subf"](x, y)
            if out.is_float
            else int_binary("arith.subi", x, y, out)
        )

    def factors(ins: list[Any]) -> tuple[Any, Any]:
        a, b = casts[0](ins[0]), casts[1](ins[1])
        if len(ins) == 4:
            a, b = sub(a, casts[2](ins[2])), sub(b, casts[3](ins[3]))
        return a, b

    def multiply(a: Any, b: Any) -> Any:
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


def _named(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """Every named structured op: maps and body from the tables above."""
    short = op.name.removeprefix("linalg.")
    ins, outs = split_operands(op)
    in_elems = [elem_of(v.type) for v in ins]
    out = elem_of(outs[0].type)
    rank = _rank(outs[0])
    if short in CONTRACTIONS or short == "contract":
        if short == "contract":
            maps = _maps_property(op)
            if maps is None:
                raise unsupported("'linalg.contract' without indexing_maps", op)
            out_dims = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
            reduction = [d not in out_dims for d in range(maps[-1].num_dims)]
        else:
            maps, reduction = _parse_maps(op, CONTRACTIONS[short])
            # matmul and friends may carry explicit maps (transposes, broadcasts).
            maps = _maps_property(op) or maps
        return _run(ip, op, ins, outs, maps, reduction, _contraction_body(op, in_elems, out))
    if short.startswith("pooling_"):
        layout, _, kind = short.removeprefix("pooling_").partition("_")
        if layout not in POOLING_LAYOUTS or kind not in POOLING_KINDS:
            raise unsupported(f"the reference evaluator does not support '{op.name}'", op)
        maps, reduction = _parse_maps(op, POOLING_LAYOUTS[layout])
        return _run(ip, op, ins, outs, maps, reduction, _pooling_body(op, kind, in_elems[0], out))
    identity = _identity(rank)
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
        maps = _maps_property(op) or [
            identity if _rank(v) else AffineMap(rank, 0, ()) for v in (*ins, *outs)
        ]
        body = FunctionBody(lambda ins_, outs_, index: [fn(ins_)])
    else:
        raise unsupported(f"the reference evaluator does not support '{op.name}'", op)
    return _run(ip, op, ins, outs, maps, [False] * rank, body)


def _softmax(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """exp(x - max(x)) / sum(exp(x - max(x))) along `dimension` (LinalgOps.cpp)."""
    ins, outs = split_operands(op)
    dim_attr = prop(op, "dimension")
    if not isinstance(dim_attr, IntegerAttr):
        raise unsupported("'linalg.softmax' without a dimension", op)
    dim = dim_attr.value.data
    x = np.asarray(ip.value(ins[0]), dtype=FLOAT64)
    if x.shape != np.shape(ip.value(outs[0])):
        raise unsupported(
            f"'linalg.softmax' from shape {x.shape} into {np.shape(ip.value(outs[0]))}", op
        )
    # Upstream's decomposition reduces the maximum with maxnumf.
    m = np.fmax.reduce(x, axis=dim, keepdims=True) if x.shape[dim] else x
    e = np.exp(x - m)
    y = e / np.sum(e, axis=dim, keepdims=True)
    elem = elem_of(outs[0].type)
    if not elem.is_float:
        raise unsupported(f"'linalg.softmax' on {elem.name}", op)
    return _finish(op, outs, [ip.value(v) for v in outs], [y])


NAMED_OPS = (
    [*CONTRACTIONS, "contract", "fill", "copy", "transpose", "broadcast", "select"]
    + list(ELEMENTWISE_BINARY)
    + list(ELEMENTWISE_UNARY)
    + [f"pooling_{layout}_{kind}" for layout in POOLING_LAYOUTS for kind in POOLING_KINDS]
)


def handlers() -> dict[str, Handler]:
    """The handlers of this module, by op name."""
    table: dict[str, Handler] = {
        "linalg.generic": _generic,
        "linalg.map": _map,
        "linalg.reduce": _reduce,
        "linalg.index": _index,
        "linalg.softmax": _softmax,
    }
    for short in NAMED_OPS:
        table[f"linalg.{short}"] = _named
    return table


def structured_spec(op: Operation) -> tuple[list[AffineMap], list[bool]] | None:
    """Indexing maps and reduction flags of a linalg op (for reduction lengths), if known."""
    short = op.name.removeprefix("linalg.")
    if op.name == "linalg.generic":
        maps = _maps_property(op)
        iterators = prop(op, "iterator_types")
        if maps is None or not isinstance(iterators, ArrayAttr):
            return None
        return maps, [_iterator_is_reduction(it) for it in iterators.data]
    if op.name == "linalg.reduce":
        ins, _ = split_operands(op)
        dims = set(int_list(prop(op, "dimensions")) or [])
        rank = _rank(ins[0])
        kept = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dims))
        n = len(op.operands) // 2
        return [_identity(rank)] * n + [kept] * n, [d in dims for d in range(rank)]
    if op.name == "linalg.softmax":
        dim = prop(op, "dimension")
        rank = _rank(op.operands[0])
        if not isinstance(dim, IntegerAttr):
            return None
        return [_identity(rank)], [d == dim.value.data for d in range(rank)]
    if short in CONTRACTIONS:
        maps, reduction = _parse_maps(op, CONTRACTIONS[short])
        return _maps_property(op) or maps, reduction
    if short == "contract" and (maps := _maps_property(op)) is not None:
        out_dims = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
        return maps, [d not in out_dims for d in range(maps[-1].num_dims)]
    if short.startswith("pooling_"):
        layout = short.removeprefix("pooling_").partition("_")[0]
        if layout in POOLING_LAYOUTS:
            return _parse_maps(op, POOLING_LAYOUTS[layout])
    return None


_ = AffineConstantExpr  # re-exported for tests that build maps

__all__ = [
    "CONTRACTIONS",
    "NAMED_OPS",
    "POOLING_LAYOUTS",
    "RegionBody",
    "handlers",
    "split_operands",
    "structured_spec",
]
