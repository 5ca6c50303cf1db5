"""The shuffle lowering of gpu.subgroup_reduce and gpu.all_reduce, executed: the gpu-dialect
IR that `gpu-lower-reductions` produces is run for every thread of a block at once by a
small SIMT interpreter (lockstep, so a barrier is a no-op; `gpu.shuffle xor` reads the
partner lane of the same warp), and every thread's result is compared with the reduction
of its cluster (subgroup_reduce) or of the whole block (all_reduce), for generated block
shapes, cluster sizes and strides, operations and element types."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from schedir.dialects import get_context, gpu, memref, scf
from schedir.dialects.syntax import parse_module
from schedir.lowering.gpu_lower_reductions import GpuLowerReductions

WARP = 32

_BINARY: dict[type[Operation], Callable[[Any, Any], Any]] = {
    arith.AddfOp: np.add,
    arith.AddiOp: np.add,
    arith.MulfOp: np.multiply,
    arith.MuliOp: np.multiply,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
    arith.MaxSIOp: np.maximum,
    arith.MinSIOp: np.minimum,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.RemUIOp: np.remainder,
    arith.DivUIOp: np.floor_divide,
}


class _Block:
    """Runs a kernel body for the `shape[0]*shape[1]*shape[2]` threads of one block."""

    def __init__(self, shape: tuple[int, int, int], argument: np.ndarray) -> None:
        self.shape = shape
        self.count = shape[0] * shape[1] * shape[2]
        linear = np.arange(self.count)
        self.ids = {
            "x": linear % shape[0],
            "y": (linear // shape[0]) % shape[1],
            "z": linear // (shape[0] * shape[1]),
        }
        self.argument = argument
        self.values: dict[SSAValue, Any] = {}
        self.buffers: dict[SSAValue, np.ndarray] = {}
        self.output: np.ndarray | None = None

    def run(self, ops: list[Operation], mask: np.ndarray | None = None) -> None:
        for op in ops:
            self.step(op, np.ones(self.count, bool) if mask is None else mask)

    def step(self, op: Operation, mask: np.ndarray) -> None:
        v = self.values
        if isinstance(op, arith.ConstantOp):
            value = op.value
            assert isinstance(value, IntegerAttr | FloatAttr)
            v[op.result] = np.full(self.count, value.value.data)
        elif isinstance(op, gpu.ThreadIdOp):
            v[op.result] = self.ids[op.dim]
        elif isinstance(op, gpu.ShuffleOp):
            assert op.mode.data.value == "xor"
            offset = v[op.offset]
            lane = np.arange(self.count)
            partner = (lane & ~(WARP - 1)) | ((lane & (WARP - 1)) ^ offset)
            v[op.shuffleResult] = v[op.value][partner]
        elif type(op) in _BINARY or isinstance(op, tuple(_BINARY)):
            fn = next(f for cls, f in _BINARY.items() if isinstance(op, cls))
            v[op.results[0]] = fn(v[op.operands[0]], v[op.operands[1]])
        elif isinstance(op, arith.CmpiOp):
            assert op.predicate.value.data == 0  # eq
            v[op.result] = v[op.lhs] == v[op.rhs]
        elif isinstance(op, memref.AllocOp):
            shape = op.memref.type.get_shape()  # pyright: ignore[reportAttributeAccessIssue]  # a memref type
            self.buffers[op.memref] = np.zeros(shape, self.argument.dtype)
        elif isinstance(op, memref.LoadOp):
            (index,) = op.indices
            source = self.buffers.get(op.memref, self.argument)
            v[op.res] = source[v[index]]
        elif isinstance(op, memref.StoreOp):
            (index,) = op.indices
            if op.memref in self.buffers:
                self.buffers[op.memref][v[index][mask]] = v[op.value][mask]
            else:
                self.output = np.where(mask, v[op.value], np.nan)
        elif isinstance(op, scf.IfOp):
            inner = [o for o in op.true_region.block.ops if not isinstance(o, scf.YieldOp)]
            self.run(inner, mask & v[op.cond].astype(bool))
        elif isinstance(op, gpu.BarrierOp | gpu.ReturnOp):
            pass
        else:
            raise AssertionError(f"the simulator has no rule for {op.name}")


def _lowered(body: str, shape: tuple[int, int, int], elem: str) -> list[Operation]:
    n = shape[0] * shape[1] * shape[2]
    text = f"""
    gpu.module @k {{
      gpu.func @k(%a: memref<{n}x{elem}>) kernel attributes {{known_block_size = array<i32: {shape[0]}, {shape[1]}, {shape[2]}>}} {{
        %tx = gpu.thread_id x
        %ty = gpu.thread_id y
        %tz = gpu.thread_id z
        %cx = arith.constant {shape[0]} : index
        %cxy = arith.constant {shape[0] * shape[1]} : index
        %y1 = arith.muli %ty, %cx : index
        %z1 = arith.muli %tz, %cxy : index
        %t0 = arith.addi %tx, %y1 : index
        %t = arith.addi %t0, %z1 : index
        %v = memref.load %a[%t] : memref<{n}x{elem}>
        {body}
        memref.store %r, %a[%t] : memref<{n}x{elem}>
        gpu.return
      }}
    }}
    """
    module = parse_module(text, "<test>", ctx=get_context())
    assert isinstance(module, ModuleOp)
    GpuLowerReductions().apply(get_context(), module)
    kernel = next(op for op in module.walk() if isinstance(op, gpu.FuncOp))
    assert not any(isinstance(op, gpu.AllReduceOp | gpu.SubgroupReduceOp) for op in kernel.walk())
    return list(kernel.body.block.ops)


_OPS = {
    "add": (np.add, "f32"),
    "maxnumf": (np.fmax, "f32"),
    "minimumf": (np.minimum, "f32"),
    "mul": (np.multiply, "i32"),
    "xor": (np.bitwise_xor, "i32"),
    "minsi": (np.minimum, "i32"),
}


def _inputs(n: int, elem: str, seed: int, op: str = "") -> np.ndarray:
    rng = np.random.default_rng(seed)
    if op != "mul" and elem == "i32":
        return rng.integers(-1000, 1000, n).astype(np.int32)
    if elem == "f32":
        # exact in f32 whatever the order of the additions
        return rng.integers(-64, 64, n).astype(np.float32)
    # odd values of magnitude 1: products stay exact (no i32 wrap-around to model)
    return rng.choice(np.array([-1, 1], np.int32), n)


def _execute(ops: list[Operation], shape: tuple[int, int, int], a: np.ndarray) -> np.ndarray:
    block = _Block(shape, a)
    block.run(ops)
    assert block.output is not None
    return block.output


@settings(max_examples=15)
@given(
    log_size=st.integers(0, 5),
    log_stride=st.integers(0, 5),
    op=st.sampled_from(sorted(_OPS)),
    seed=st.integers(0, 2**16),
)
def test_subgroup_reduce_gives_every_lane_its_cluster(
    log_size: int, log_stride: int, op: str, seed: int
) -> None:
    size, stride = 1 << log_size, 1 << min(log_stride, 5 - log_size)
    fn, elem = _OPS[op]
    shape = (64, 1, 1)
    ops = _lowered(
        f"%r = gpu.subgroup_reduce {op} %v cluster(size = {size}, stride = {stride}) "
        f": ({elem}) -> {elem}",
        shape,
        elem,
    )
    a = _inputs(64, elem, seed, op)
    got = _execute(ops, shape, a)
    lane = np.arange(64)
    span = size * stride
    for t in range(64):
        base = (t // span) * span + t % stride
        members = a[base + stride * np.arange(size)]
        assert got[t] == fn.reduce(members), (t, lane[t])


@settings(max_examples=15)
@given(
    shape=st.sampled_from(
        [
            (32, 1, 1),
            (16, 1, 1),
            (64, 1, 1),
            (96, 1, 1),
            (256, 1, 1),
            (32, 4, 2),
            (1024, 1, 1),
            (32, 3, 1),
            (160, 1, 1),
        ]
    ),
    op=st.sampled_from(sorted(_OPS)),
    seed=st.integers(0, 2**16),
)
def test_all_reduce_gives_every_thread_the_block_result(
    shape: tuple[int, int, int], op: str, seed: int
) -> None:
    fn, elem = _OPS[op]
    ops = _lowered(f"%r = gpu.all_reduce {op} %v uniform {{}} : ({elem}) -> {elem}", shape, elem)
    n = shape[0] * shape[1] * shape[2]
    a = _inputs(n, elem, seed, op)
    got = _execute(ops, shape, a)
    assert (got == fn.reduce(a)).all(), (got, fn.reduce(a))


def test_all_reduce_region_combiner() -> None:
    shape = (128, 1, 1)
    body = """%r = gpu.all_reduce %v {
        ^bb0(%l: f32, %m: f32):
          %s = arith.maxnumf %l, %m : f32
          gpu.yield %s : f32
        } : (f32) -> f32"""
    ops = _lowered(body, shape, "f32")
    a = _inputs(128, "f32", 5)
    assert (_execute(ops, shape, a) == a.max()).all()
