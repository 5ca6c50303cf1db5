"""Random linalg payloads and their independent numpy evaluation.

A payload is one function: a chain of 1-4 structured ops (matmul, batch_matmul, matvec,
elementwise generics with random arith/math bodies, reductions over random dims,
transpose, broadcast, softmax, conv_2d_nhwc_hwcf) on odd static shapes, each writing into
a `linalg.fill`, a `tensor.empty` or a function argument. `gen_payload` builds it from a
`random.Random`; `Payload.text` is upstream MLIR, and `evaluate` computes the result from
the op records (never from the text, and without `schedir.reference`) in float64 with a
first-order bound on the error of every element (`Bounded`), so a wrong element is told
from rounding whatever the dtype and the chain.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DIMS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 16, 17)
"""Static extents, odd ones more often than powers of two."""
SMALL_DIMS = (1, 2, 3, 4, 5, 7)
"""Extents of tensors of rank 3 and more: whole-op vectorization unrolls every element."""


@dataclass(frozen=True)
class DType:
    """An element type of the generated payloads."""

    name: str
    np: type[np.generic]

    @property
    def is_float(self) -> bool:
        return self.name.startswith("f")

    @property
    def finfo(self) -> np.finfo[Any]:
        """The float limits of the type (only for float types)."""
        return np.finfo(np.dtype(self.np).name)

    @property
    def unit_roundoff(self) -> float:
        return float(self.finfo.eps) / 2 if self.is_float else 0.0

    def literal(self, value: float) -> str:
        return f"{value:.6e}" if self.is_float else str(int(value))


DTYPES = (DType("f32", np.float32), DType("f16", np.float16), DType("f64", np.float64))
I32 = DType("i32", np.int32)
ALL_DTYPES = (*DTYPES, I32)


def tensor_type(shape: tuple[int, ...], dtype: DType) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype.name + ">"


@dataclass(frozen=True)
class Value:
    """An SSA value of the function: its name and shape."""

    name: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class BodyOp:
    """One op of an elementwise body: `kind` applied to earlier body values (indices)."""

    kind: str
    operands: tuple[int, ...]


@dataclass(frozen=True)
class Op:
    """One structured op of the chain (or an init: fill / empty)."""

    kind: str
    result: Value
    operands: tuple[Value, ...] = ()
    init: Value | None = None
    iterators: tuple[str, ...] = ()
    perm: tuple[int, ...] = ()
    """transpose permutation, broadcast dims, reduction dims, softmax dim, conv strides."""
    body: tuple[BodyOp, ...] = ()
    reads_out: bool = False
    fill_value: float = 0.0

    @property
    def op_name(self) -> str:
        return OP_NAMES[self.kind]


OP_NAMES = {
    "matmul": "linalg.matmul",
    "batch_matmul": "linalg.batch_matmul",
    "matvec": "linalg.matvec",
    "elementwise": "linalg.generic",
    "reduce_add": "linalg.generic",
    "reduce_max": "linalg.generic",
    "transpose": "linalg.transpose",
    "broadcast": "linalg.broadcast",
    "softmax": "linalg.softmax",
    "conv": "linalg.conv_2d_nhwc_hwcf",
    "fill": "linalg.fill",
    "empty": "tensor.empty",
}


@dataclass(frozen=True)
class Payload:
    """A generated function: its arguments, ops (inits included, in order) and result."""

    dtype: DType
    args: tuple[Value, ...]
    ops: tuple[Op, ...]
    result: Value
    text: str = field(compare=False)

    @property
    def structured(self) -> tuple[Op, ...]:
        """The linalg ops (fills included), in program order."""
        return tuple(op for op in self.ops if op.kind != "empty")


# --- generation ----------------------------------------------------------------------


class _Builder:
    def __init__(self, rng: random.Random, dtype: DType) -> None:
        self.rng = rng
        self.dtype = dtype
        self.args: list[Value] = []
        self.ops: list[Op] = []
        self.counter = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def arg(self, shape: tuple[int, ...]) -> Value:
        value = Value(f"%arg{len(self.args)}", shape)
        self.args.append(value)
        return value

    def dim(self, small: bool = False) -> int:
        return self.rng.choice(SMALL_DIMS if small else DIMS)

    def init(self, shape: tuple[int, ...], accumulates: bool) -> tuple[Value, bool]:
        """The outs of an op: a fill, a function argument or (if not read) an empty tensor;
        and whether its contents are defined."""
        roll = self.rng.random()
        if roll < 0.3:
            return self.arg(shape), True
        empty = Value(self.fresh("e"), shape)
        self.ops.append(Op("empty", empty))
        if roll < 0.5 and not accumulates:
            return empty, False
        fill = Value(self.fresh("f"), shape)
        value = self.rng.choice((0.0, 0.0, 1.0, -0.5)) if self.dtype.is_float else 0
        self.ops.append(Op("fill", fill, init=empty, fill_value=value))
        return fill, True

    def add(self, kind: str, shape: tuple[int, ...], operands: tuple[Value, ...], **kw) -> Value:
        accumulates = kind in ("matmul", "batch_matmul", "matvec", "conv") or kind.startswith(
            "reduce"
        )
        init, defined = self.init(shape, accumulates)
        result = Value(self.fresh("v"), shape)
        if kind == "elementwise":
            kw["reads_out"] = defined and self.rng.random() < 0.3
            kw["body"] = _body(self.rng, self.dtype, len(operands) + kw["reads_out"])
        self.ops.append(Op(kind, result, operands, init, **kw))
        return result


def _applicable(current: Value | None, dtype: DType) -> list[str]:
    if current is None:
        kinds = ["matmul", "batch_matmul", "matvec", "elementwise", "reduce", "transpose"]
        kinds += ["broadcast", "conv"] + (["softmax"] if dtype.is_float else [])
        return kinds
    rank = len(current.shape)
    kinds = ["elementwise"]
    kinds += ["reduce"] if rank >= 1 else []
    kinds += ["transpose"] if rank >= 2 else []
    kinds += ["broadcast"] if rank <= 3 else []
    kinds += ["matmul", "matvec"] if rank == 2 else []
    kinds += ["batch_matmul"] if rank == 3 else []
    kinds += ["softmax"] if rank >= 1 and dtype.is_float else []
    kinds += ["conv"] if rank == 4 else []
    return kinds


def _body(rng: random.Random, dtype: DType, inputs: int) -> tuple[BodyOp, ...]:
    unary = ("neg", "abs", "tanh", "exp_tanh", "sqrt_abs") if dtype.is_float else ()
    binary = ("add", "sub", "mul", "max", "min")
    ops: list[BodyOp] = []
    for _ in range(rng.randint(1, 3)):
        available = inputs + len(ops)
        if unary and rng.random() < 0.4:
            ops.append(BodyOp(rng.choice(unary), (rng.randrange(available),)))
        else:
            ops.append(
                BodyOp(rng.choice(binary), (rng.randrange(available), rng.randrange(available)))
            )
    return tuple(ops)


def _step(b: _Builder, kind: str, current: Value | None) -> Value:
    rng = b.rng

    def source(shape: tuple[int, ...]) -> Value:
        return current if current is not None else b.arg(shape)

    if kind == "matmul":
        m, k = current.shape if current is not None else (b.dim(), b.dim())
        x = source((m, k))
        n = b.dim()
        return b.add(kind, (m, n), (x, b.arg((k, n))), iterators=("parallel",) * 2 + ("reduction",))
    if kind == "batch_matmul":
        bt, m, k = current.shape if current is not None else (b.dim(True), b.dim(True), b.dim())
        x = source((bt, m, k))
        n = b.dim(True)
        its = ("parallel",) * 3 + ("reduction",)
        return b.add(kind, (bt, m, n), (x, b.arg((bt, k, n))), iterators=its)
    if kind == "matvec":
        m, k = current.shape if current is not None else (b.dim(), b.dim())
        x = source((m, k))
        return b.add(kind, (m,), (x, b.arg((k,))), iterators=("parallel", "reduction"))
    if kind == "elementwise":
        shape = current.shape if current is not None else (b.dim(), b.dim())
        operands = (source(shape),)
        if rng.random() < 0.5:
            operands += (b.arg(shape),)
        return b.add(kind, shape, operands, iterators=("parallel",) * len(shape))
    if kind == "reduce":
        shape = current.shape if current is not None else (b.dim(True), b.dim(), b.dim(True))
        x = source(shape)
        dims = tuple(sorted(rng.sample(range(len(shape)), rng.randint(1, len(shape)))))
        out = tuple(d for i, d in enumerate(shape) if i not in dims)
        its = tuple("reduction" if i in dims else "parallel" for i in range(len(shape)))
        which = rng.choice(("reduce_add", "reduce_max"))
        return b.add(which, out, (x,), iterators=its, perm=dims)
    if kind == "transpose":
        shape = current.shape if current is not None else (b.dim(True), b.dim(True), b.dim())
        x = source(shape)
        perm = list(range(len(shape)))
        while perm == sorted(perm):
            rng.shuffle(perm)
        out = tuple(shape[p] for p in perm)
        return b.add(kind, out, (x,), iterators=("parallel",) * len(out), perm=tuple(perm))
    if kind == "broadcast":
        shape = current.shape if current is not None else (b.dim(), b.dim())
        x = source(shape)
        at = rng.randint(0, len(shape))
        out = (*shape[:at], b.dim(small=len(shape) >= 2), *shape[at:])
        return b.add(kind, out, (x,), iterators=("parallel",) * len(out), perm=(at,))
    if kind == "softmax":
        shape = current.shape if current is not None else (b.dim(), b.dim())
        x = source(shape)
        dim = rng.randrange(len(shape))
        return b.add(kind, shape, (x,), iterators=("parallel",) * len(shape), perm=(dim,))
    assert kind == "conv"
    if current is not None:
        n, h, w, c = current.shape
    else:
        n, h, w, c = rng.choice((1, 2)), b.dim(True) + 2, b.dim(True) + 2, rng.choice((1, 2, 3, 4))
    x = source((n, h, w, c))
    kh, kw = rng.randint(1, min(3, h)), rng.randint(1, min(3, w))
    sh, sw = rng.choice((1, 1, 2)), rng.choice((1, 1, 2))
    f = rng.choice((1, 2, 3, 5))
    out = (n, (h - kh) // sh + 1, (w - kw) // sw + 1, f)
    its = ("parallel",) * 4 + ("reduction",) * 3
    return b.add(kind, out, (x, b.arg((kh, kw, c, f))), iterators=its, perm=(sh, sw))


def gen_payload(rng: random.Random, dtype: DType | None = None) -> Payload:
    """A random payload (see the module docstring), drawn from `rng`."""
    if dtype is None:
        dtype = rng.choice(ALL_DTYPES)
    b = _Builder(rng, dtype)
    current: Value | None = None
    for _ in range(rng.randint(1, 4)):
        current = _step(b, rng.choice(_applicable(current, dtype)), current)
    assert current is not None
    payload = Payload(dtype, tuple(b.args), tuple(b.ops), current, "")
    return Payload(dtype, payload.args, payload.ops, current, render(payload))


# --- text ------------------------------------------------------------------------------


def _map(rank: int, dims: tuple[int, ...] | None = None) -> str:
    names = [f"d{i}" for i in range(rank)]
    outs = names if dims is None else [names[d] for d in dims]
    return f"affine_map<({', '.join(names)}) -> ({', '.join(outs)})>"


_FLOAT_BODY = {
    "add": ("arith.addf",),
    "sub": ("arith.subf",),
    "mul": ("arith.mulf",),
    "max": ("arith.maximumf",),
    "min": ("arith.minimumf",),
    "neg": ("arith.negf",),
    "abs": ("math.absf",),
    "tanh": ("math.tanh",),
    "exp_tanh": ("math.tanh", "math.exp"),
    "sqrt_abs": ("math.absf", "math.sqrt"),
}
_INT_BODY = {
    "add": ("arith.addi",),
    "sub": ("arith.subi",),
    "mul": ("arith.muli",),
    "max": ("arith.maxsi",),
    "min": ("arith.minsi",),
}


def _render_body(op: Op, dtype: DType, tag: str, inputs: list[str]) -> list[str]:
    table = _FLOAT_BODY if dtype.is_float else _INT_BODY
    names = list(inputs)
    lines: list[str] = []
    for i, bop in enumerate(op.body):
        operands = [names[j] for j in bop.operands]
        for k, mlir in enumerate(table[bop.kind]):
            name = f"%{tag}_{i}_{k}"
            lines.append(f"    {name} = {mlir} {', '.join(operands)} : {dtype.name}")
            operands = [name]
        names.append(operands[0])
    lines.append(f"    linalg.yield {names[-1]} : {dtype.name}")
    return lines


def _render_op(op: Op, dtype: DType, index: int) -> list[str]:
    t = dtype.name
    ty = tensor_type(op.result.shape, dtype)
    if op.kind == "empty":
        return [f"  {op.result.name} = tensor.empty() : {ty}"]
    assert op.init is not None
    outs = f"outs({op.init.name} : {ty})"
    if op.kind == "fill":
        cst = f"%c{index}"
        return [
            f"  {cst} = arith.constant {dtype.literal(op.fill_value)} : {t}",
            f"  {op.result.name} = linalg.fill ins({cst} : {t}) {outs} -> {ty}",
        ]
    ins_names = ", ".join(v.name for v in op.operands)
    ins_types = ", ".join(tensor_type(v.shape, dtype) for v in op.operands)
    ins = f"ins({ins_names} : {ins_types})"
    head = f"  {op.result.name} = "
    if op.kind in ("matmul", "batch_matmul", "matvec"):
        return [f"{head}{op.op_name} {ins} {outs} -> {ty}"]
    if op.kind == "transpose":
        return [
            f"{head}linalg.transpose {ins} {outs} permutation = [{', '.join(map(str, op.perm))}]"
        ]
    if op.kind == "broadcast":
        return [f"{head}linalg.broadcast {ins} {outs} dimensions = [{op.perm[0]}]"]
    if op.kind == "softmax":
        return [f"{head}linalg.softmax dimension({op.perm[0]}) {ins} {outs} -> {ty}"]
    if op.kind == "conv":
        strides = f"dense<[{op.perm[0]}, {op.perm[1]}]> : tensor<2xi64>"
        attrs = f"{{dilations = dense<1> : tensor<2xi64>, strides = {strides}}}"
        return [f"{head}linalg.conv_2d_nhwc_hwcf {attrs} {ins} {outs} -> {ty}"]
    rank = len(op.iterators)
    tag = f"b{index}"
    if op.kind == "elementwise":
        maps = [_map(rank)] * (len(op.operands) + 1)
        inputs = [f"%{tag}_in{i}" for i in range(len(op.operands))] + [f"%{tag}_out"]
        used = inputs if op.reads_out else inputs[:-1]
        body = _render_body(op, dtype, tag, used)
    else:
        kept = tuple(i for i in range(rank) if i not in op.perm)
        maps = [_map(rank), _map(rank, kept)]
        inputs = [f"%{tag}_in0", f"%{tag}_out"]
        combine = {
            ("reduce_add", True): "arith.addf",
            ("reduce_add", False): "arith.addi",
            ("reduce_max", True): "arith.maximumf",
            ("reduce_max", False): "arith.maxsi",
        }[(op.kind, dtype.is_float)]
        body = [
            f"    %{tag}_r = {combine} {inputs[0]}, {inputs[1]} : {t}",
            f"    linalg.yield %{tag}_r : {t}",
        ]
    its = ", ".join(f'"{i}"' for i in op.iterators)
    args = ", ".join(f"{name}: {t}" for name in inputs)
    return [
        f"{head}linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = [{its}]}}"
        f" {ins} {outs} {{",
        f"  ^bb0({args}):",
        *body,
        f"  }} -> {ty}",
    ]


def render(payload: Payload) -> str:
    """The payload as upstream MLIR text (one public function `@fuzz`)."""
    dt = payload.dtype
    params = ", ".join(f"{a.name}: {tensor_type(a.shape, dt)}" for a in payload.args)
    result_type = tensor_type(payload.result.shape, dt)
    lines = [f"func.func @fuzz({params}) -> {result_type} {{"]
    for index, op in enumerate(payload.ops):
        lines += _render_op(op, dt, index)
    lines += [f"  return {payload.result.name} : {result_type}", "}"]
    return "\n".join(lines) + "\n"


# --- inputs and the independent evaluation ---------------------------------------------


def random_inputs(payload: Payload, seed: int) -> list[np.ndarray]:
    """Arguments for the payload: floats of magnitude in [0.25, 1] with random signs,
    integers in [-4, 4] without zero (never zero, so a dropped term shows)."""
    rng = np.random.default_rng(seed)
    out = []
    for arg in payload.args:
        if payload.dtype.is_float:
            magnitude = rng.uniform(0.25, 1.0, arg.shape)
            values = np.where(rng.random(arg.shape) < 0.5, -magnitude, magnitude)
        else:
            values = rng.choice(np.array([-4, -3, -2, -1, 1, 2, 3, 4]), size=arg.shape)
        out.append(np.asarray(values).astype(payload.dtype.np))
    return out


@dataclass(frozen=True)
class Bounded:
    """A value computed in float64 (int64 for integers) and a bound on the absolute error
    of the same computation in the payload's dtype."""

    value: np.ndarray
    error: np.ndarray


TRANSCENDENTAL_ULPS = 8.0
"""Error of a math-library function, in units of roundoff (generous: schedir may expand
math ops into polynomials)."""


class _Evaluator:
    def __init__(self, dtype: DType) -> None:
        self.dtype = dtype
        self.u = dtype.unit_roundoff

    def round(self, x: np.ndarray) -> np.ndarray:
        if self.dtype.is_float:
            with np.errstate(over="ignore", invalid="ignore"):
                return np.asarray(x, dtype=np.float64).astype(self.dtype.np).astype(np.float64)
        wrapped = (np.asarray(x, dtype=np.int64) + 2**31) % 2**32 - 2**31
        return wrapped.astype(np.int64)

    def out(self, value: np.ndarray, error: np.ndarray) -> Bounded:
        """The result of an op: rounded to the dtype, its rounding added to the bound."""
        v = self.round(value)
        return Bounded(v, error + self.u * np.abs(v))

    def contraction(
        self, a: Bounded, b: Bounded, c: Bounded, contract: Callable[..., np.ndarray], k: int
    ) -> Bounded:
        va, vb = a.value, b.value
        value = c.value + contract(va, vb)
        if not self.dtype.is_float:
            return Bounded(self.round(value), np.zeros(value.shape))
        magnitude = np.abs(c.value) + contract(np.abs(va), np.abs(vb))
        error = (
            c.error
            + contract(np.abs(va), b.error)
            + contract(a.error, np.abs(vb))
            + contract(a.error, b.error)
            + (k + 1) * self.u * magnitude
        )
        return self.out(value, error)

    def unary(self, kind: str, a: Bounded) -> Bounded:
        x, e = a.value, a.error
        tu = TRANSCENDENTAL_ULPS * self.u
        if kind == "neg":
            return Bounded(-x, e)
        if kind == "abs":
            return Bounded(np.abs(x), e)
        if kind == "tanh":
            v = self.round(np.tanh(x))
            return Bounded(v, e + tu * np.abs(v))
        if kind == "exp_tanh":
            t = self.tanh_bounded(a)
            v = self.round(np.exp(t.value))
            return Bounded(v, np.abs(v) * np.expm1(t.error) + tu * np.abs(v))
        assert kind == "sqrt_abs"
        v = self.round(np.sqrt(np.abs(x)))
        return Bounded(v, np.sqrt(e) + tu * np.abs(v))

    def tanh_bounded(self, a: Bounded) -> Bounded:
        v = self.round(np.tanh(a.value))
        return Bounded(v, a.error + TRANSCENDENTAL_ULPS * self.u * np.abs(v))

    def binary(self, kind: str, a: Bounded, b: Bounded) -> Bounded:
        x, y = np.broadcast_arrays(a.value, b.value)
        ex, ey = a.error, b.error
        if kind == "add":
            return self.out(x + y, ex + ey)
        if kind == "sub":
            return self.out(x - y, ex + ey)
        if kind == "mul":
            return self.out(x * y, np.abs(x) * ey + np.abs(y) * ex + ex * ey)
        if kind == "max":
            return Bounded(np.maximum(x, y), np.maximum(ex, ey) + np.zeros(x.shape))
        assert kind == "min"
        return Bounded(np.minimum(x, y), np.maximum(ex, ey) + np.zeros(x.shape))

    def body(self, op: Op, values: list[Bounded]) -> Bounded:
        names = list(values)
        for bop in op.body:
            args = [names[i] for i in bop.operands]
            names.append(
                self.unary(bop.kind, args[0])
                if len(args) == 1
                else self.binary(bop.kind, args[0], args[1])
            )
        return names[-1]


def evaluate(payload: Payload, inputs: list[np.ndarray]) -> Bounded:
    """The payload's result on `inputs`, in float64 (int64) with its error bound."""
    ev = _Evaluator(payload.dtype)
    env: dict[str, Bounded] = {}
    for arg, value in zip(payload.args, inputs, strict=True):
        v = value.astype(np.float64 if payload.dtype.is_float else np.int64)
        env[arg.name] = Bounded(v, np.zeros(v.shape))
    nan = np.nan if payload.dtype.is_float else 0
    for op in payload.ops:
        shape = op.result.shape
        if op.kind == "empty":
            env[op.result.name] = Bounded(np.full(shape, nan), np.zeros(shape))
            continue
        assert op.init is not None
        init = env[op.init.name]
        operands = [env[v.name] for v in op.operands]
        env[op.result.name] = _evaluate_op(ev, op, operands, init)
    return env[payload.result.name]


def _evaluate_op(ev: _Evaluator, op: Op, operands: list[Bounded], init: Bounded) -> Bounded:
    shape = op.result.shape
    if op.kind == "fill":
        value = ev.round(np.full(shape, op.fill_value))
        return Bounded(value, np.zeros(shape))
    if op.kind in ("matmul", "batch_matmul"):
        a, b = operands
        return ev.contraction(a, b, init, np.matmul, a.value.shape[-1])
    if op.kind == "matvec":
        a, b = operands
        return ev.contraction(a, b, init, np.matmul, a.value.shape[-1])
    if op.kind == "conv":
        x, f = operands
        sh, sw = op.perm
        kh, kw = f.value.shape[:2]
        oh, ow = shape[1], shape[2]

        def conv(xv: np.ndarray, fv: np.ndarray) -> np.ndarray:
            total = np.zeros(shape)
            for i in range(kh):
                for j in range(kw):
                    window = xv[
                        :, i : i + sh * (oh - 1) + 1 : sh, j : j + sw * (ow - 1) + 1 : sw, :
                    ]
                    total = total + np.einsum("nhwc,cf->nhwf", window, fv[i, j])
            return total

        return ev.contraction(x, f, init, conv, kh * kw * x.value.shape[-1])
    if op.kind == "transpose":
        (x,) = operands
        return Bounded(np.transpose(x.value, op.perm), np.transpose(x.error, op.perm))
    if op.kind == "broadcast":
        (x,) = operands
        at = op.perm[0]
        value = np.broadcast_to(np.expand_dims(x.value, at), shape).copy()
        error = np.broadcast_to(np.expand_dims(x.error, at), shape).copy()
        return Bounded(value, error)
    if op.kind == "softmax":
        (x,) = operands
        d = op.perm[0]
        shifted = x.value - x.value.max(axis=d, keepdims=True)
        exps = np.exp(shifted)
        value = exps / exps.sum(axis=d, keepdims=True)
        worst = x.error.max(axis=d, keepdims=True)
        k = shape[d]
        relative = np.expm1(2 * worst) + (k + 3 + 2 * TRANSCENDENTAL_ULPS) * ev.u
        v = ev.round(value)
        return Bounded(v, np.abs(v) * relative)
    if op.kind == "elementwise":
        values = [*operands, init] if op.reads_out else list(operands)
        return ev.body(op, values)
    (x,) = operands
    axes = op.perm
    if op.kind == "reduce_add":
        value = init.value + x.value.sum(axis=axes)
        if not ev.dtype.is_float:
            return Bounded(ev.round(value), np.zeros(shape))
        k = int(np.prod([x.value.shape[a] for a in axes]))
        magnitude = np.abs(init.value) + np.abs(x.value).sum(axis=axes)
        error = init.error + x.error.sum(axis=axes) + (k + 1) * ev.u * magnitude
        return ev.out(value, error)
    assert op.kind == "reduce_max"
    value = np.maximum(init.value, x.value.max(axis=axes))
    return Bounded(value, np.maximum(init.error, x.error.max(axis=axes)))


@dataclass(frozen=True)
class Comparison:
    """Whether a result matches the independent evaluation, and the first bad element."""

    ok: bool
    message: str = ""


def compare(got: np.ndarray, want: Bounded, dtype: DType) -> Comparison:
    """Elementwise check of `got` against `want`: exact for integers; for floats within
    4x the error bound plus 4 roundoffs; NaN never passes; elements whose expected value
    is within a factor 4 of overflow (or whose bound is infinite) only must not be NaN."""
    got = np.asarray(got)
    if got.shape != want.value.shape:
        return Comparison(False, f"shape {got.shape}, expected {want.value.shape}")
    if not dtype.is_float:
        bad = np.argwhere(got.astype(np.int64) != want.value)
        if bad.size:
            at = tuple(int(i) for i in bad[0])
            return Comparison(
                False, f"element {at}: {got[at]} != {want.value[at]} ({len(bad)} wrong)"
            )
        return Comparison(True)
    g = got.astype(np.float64)
    big = float(dtype.finfo.max) / 4
    skip = ~np.isfinite(want.value) | (np.abs(want.value) > big) | ~np.isfinite(want.error)
    u = dtype.unit_roundoff
    tiny = float(dtype.finfo.smallest_subnormal) * 16
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = 4 * want.error + 4 * u * np.abs(want.value) + tiny
        wrong = np.isnan(g) | (~skip & ~(np.abs(g - want.value) <= allowed))
    bad = np.argwhere(wrong)
    if bad.size:
        at = tuple(int(i) for i in bad[0])
        return Comparison(
            False,
            f"element {at}: {g[at]!r} != {want.value[at]!r} (allowed error "
            f"{allowed[at]:.3g}; {len(bad)} of {g.size} wrong)",
        )
    return Comparison(True)
