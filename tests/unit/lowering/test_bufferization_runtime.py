"""A checking executor for bufferized IR, and its own tests.

Bufferized CPU IR (after one-shot-bufferize, buffer-results-to-out-params,
convert-linalg-to-loops and scf-forall-to-for) is run op by op: `schedir.reference`'s
interpreter supplies arith/math/scf/func/affine, this module adds the memref ops on a
memory model that catches what a wrong bufferization does silently on real hardware:

* a load or store through a freed buffer (freed too early), a second `memref.dealloc` of
  one allocation, a dealloc of something that is not an allocation (an argument, a global);
* an allocation never freed and not returned (a leak);
* a store into a constant `memref.global` or into an argument the caller marked read-only;
* out-of-bounds accesses, views outside their buffer.

`run_pipeline_and_execute` compiles a tensor payload with the CPU pipeline's bufferization
half and compares the results with `schedir.reference.evaluate`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pytest
from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Operation

from schedir import reference
from schedir.dialects import get_context
from schedir.dialects import memref as memref_ops
from schedir.dialects.syntax import parse_module, print_op
from schedir.lowering.bufferization.types import rank_reduction_mask, strides_and_offset
from schedir.pipeline import parse_pass_pipeline, run_passes
from schedir.reference import arith_math, control
from schedir.reference.interpreter import Interpreter
from schedir.reference.values import elem_of

BUFFERIZE_TO_LOOPS = (
    "linalg-decompose-aggregated-ops,linalg-generalize-named-ops,"
    "one-shot-bufferize{bufferize-function-boundaries=true},"
    "buffer-results-to-out-params{hoist-static-allocs=true},"
    "convert-linalg-to-loops,scf-forall-to-for"
)
"""The tensor-to-memref half of the CPU pipeline (pipelines.py), as a -p spec."""


class MemoryError_(AssertionError):
    """A memory-safety violation found while executing bufferized IR."""


@dataclass(eq=False)
class Allocation:
    """One block of memory: an allocation, an argument, or a global."""

    data: np.ndarray
    kind: str  # "alloc" | "arg" | "global" | "out"
    writable: bool = True
    alive: bool = True
    site: str = ""


@dataclass(eq=False)
class View:
    """A memref value: a strided window onto an allocation."""

    allocation: Allocation
    offset: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]

    def flat_index(self, indices: Sequence[int]) -> int:
        if len(indices) != len(self.shape):
            raise MemoryError_(f"{len(indices)} indices into a rank-{len(self.shape)} memref")
        position = self.offset
        for i, n, s in zip(indices, self.shape, self.strides, strict=True):
            if not 0 <= i < n:
                raise MemoryError_(f"index {list(indices)} out of bounds of shape {self.shape}")
            position += i * s
        return position

    def check_alive(self, what: str) -> None:
        if not self.allocation.alive:
            raise MemoryError_(f"{what} of a freed buffer (allocated at {self.allocation.site})")

    def elements(self) -> np.ndarray:
        """The values of the view, in row-major order (a copy)."""
        self.check_alive("read")
        out = np.empty(self.shape, dtype=self.allocation.data.dtype)
        for idx in itertools.product(*(range(n) for n in self.shape)):
            out[idx] = self.allocation.data[self.flat_index(idx)]
        return out

    def write(self, values: np.ndarray) -> None:
        self.check_alive("write")
        if not self.allocation.writable:
            raise MemoryError_(f"write into a read-only {self.allocation.kind} buffer")
        for idx in itertools.product(*(range(n) for n in self.shape)):
            self.allocation.data[self.flat_index(idx)] = values[idx]


def _row_major(shape: Sequence[int]) -> tuple[int, ...]:
    strides = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        strides[d] = strides[d + 1] * shape[d + 1]
    return tuple(strides)


def _dtype(memref_type: Attribute) -> Any:
    elem = elem_of(memref_type)
    return np.float64 if elem.is_float else elem.declared


@dataclass
class Heap:
    """Every allocation made while running, for the leak check."""

    allocations: list[Allocation] = field(default_factory=list)

    def view_of_array(self, array: np.ndarray, kind: str, writable: bool) -> View:
        data = np.array(array, dtype=array.dtype).reshape(-1).copy()
        allocation = Allocation(data, kind, writable)
        return View(allocation, 0, tuple(array.shape), _row_major(array.shape))


def _mixed(static: Sequence[int], dynamic: list[Any]) -> list[int]:
    values = iter(dynamic)
    return [int(next(values)) if s == DYNAMIC_INDEX else int(s) for s in static]


def memref_handlers(heap: Heap) -> dict[type[Operation], Any]:
    """Handlers of the memref ops on `View`s."""

    def alloc(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        t = cast(MemRefType[Attribute], op.results[0].type)
        sizes = iter(args)
        shape = tuple(int(next(sizes)) if d == DYNAMIC_INDEX else d for d in t.get_shape())
        data = np.full(int(np.prod(shape, dtype=np.int64)), np.nan, dtype=_dtype(t))
        allocation = Allocation(data, "alloc", site=str(op.location))
        heap.allocations.append(allocation)
        return [View(allocation, 0, shape, _row_major(shape))]

    def dealloc(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        view = cast(View, args[0])
        if view.allocation.kind != "alloc":
            raise MemoryError_(f"dealloc of a {view.allocation.kind} buffer")
        if not view.allocation.alive:
            raise MemoryError_("double free")
        view.allocation.alive = False
        return []

    def load(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        view = cast(View, args[0])
        view.check_alive("load")
        value = view.allocation.data[view.flat_index([int(i) for i in args[1:]])]
        return [value]

    def store(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        value, view = args[0], cast(View, args[1])
        view.check_alive("store")
        if not view.allocation.writable:
            raise MemoryError_(f"store into a read-only {view.allocation.kind} buffer")
        view.allocation.data[view.flat_index([int(i) for i in args[2:]])] = value
        return []

    def subview(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        assert isinstance(op, memref.SubviewOp)
        view = cast(View, args[0])
        dyn = args[1:]
        n_off, n_size = len(op.offsets), len(op.sizes)
        offsets = _mixed(op.static_offsets.get_values(), dyn[:n_off])
        sizes = _mixed(op.static_sizes.get_values(), dyn[n_off : n_off + n_size])
        steps = _mixed(op.static_strides.get_values(), dyn[n_off + n_size :])
        for o, n, s, full in zip(offsets, sizes, steps, view.shape, strict=True):
            if n > 0 and (o < 0 or o + (n - 1) * s >= full):
                raise MemoryError_(f"subview {offsets}/{sizes}/{steps} outside shape {view.shape}")
        result_type = cast(MemRefType[Attribute], op.result.type)
        dropped = rank_reduction_mask(
            list(op.static_sizes.get_values()), list(result_type.get_shape())
        )
        assert dropped is not None
        offset = view.offset + sum(o * s for o, s in zip(offsets, view.strides, strict=True))
        shape = tuple(n for d, n in enumerate(sizes) if d not in dropped)
        strides = tuple(
            s * st
            for d, (s, st) in enumerate(zip(view.strides, steps, strict=True))
            if d not in dropped
        )
        result = View(view.allocation, offset, shape, strides)
        _check_layout(result, result_type)
        return [result]

    def copy(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        source, target = cast(View, args[0]), cast(View, args[1])
        if source.shape != target.shape:
            raise MemoryError_(f"copy of shape {source.shape} into {target.shape}")
        target.write(source.elements())
        return []

    def same(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        view = cast(View, args[0])
        result_type = cast(MemRefType[Attribute], op.results[0].type)
        _check_layout(view, result_type)
        return [view]

    def dim(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        return [np.int64(cast(View, args[0]).shape[int(args[1])])]

    def get_global(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        assert isinstance(op, memref.GetGlobalOp)
        name = op.name_.root_reference.data
        found = [
            g for g in ip.module.ops if isinstance(g, memref.GlobalOp) and g.sym_name.data == name
        ]
        assert found, f"no global @{name}"
        value = cast(DenseIntOrFPElementsAttr, found[0].initial_value)
        t = cast(MemRefType[Attribute], op.memref.type)
        data = np.array(value.get_values(), dtype=_dtype(t))
        shape = t.get_shape()
        if data.size == 1:
            data = np.full(int(np.prod(shape, dtype=np.int64)), data[0], dtype=data.dtype)
        allocation = Allocation(data.reshape(-1), "global", writable=False)
        return [View(allocation, 0, tuple(shape), _row_major(shape))]

    def reshape(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
        view = cast(View, args[0])
        result_type = cast(MemRefType[Attribute], op.results[0].type)
        groups = [[int(i.value.data) for i in g.data] for g in op.properties["reassociation"].data]  # type: ignore[union-attr]
        if isinstance(op, memref.CollapseShapeOp):
            shape, strides = [], []
            for group in groups:
                for outer, inner in itertools.pairwise(group):
                    if (
                        view.shape[outer] > 1
                        and view.strides[outer] != view.strides[inner] * view.shape[inner]
                    ):
                        raise MemoryError_("collapse_shape of non-contiguous dimensions")
                shape.append(int(np.prod([view.shape[d] for d in group], dtype=np.int64)))
                strides.append(view.strides[group[-1]])
            result = View(view.allocation, view.offset, tuple(shape), tuple(strides))
        else:
            out_shape = _mixed(list(op.properties["static_output_shape"].get_values()), args[1:])  # type: ignore[union-attr]
            strides = [0] * len(out_shape)
            for src_dim, group in enumerate(groups):
                stride = view.strides[src_dim]
                for d in reversed(group):
                    strides[d] = stride
                    stride *= out_shape[d]
            result = View(view.allocation, view.offset, tuple(out_shape), tuple(strides))
        _check_layout(result, result_type)
        return [result]

    return {
        memref_ops.AllocOp: alloc,
        memref_ops.AllocaOp: alloc,
        memref_ops.DeallocOp: dealloc,
        memref_ops.LoadOp: load,
        memref_ops.StoreOp: store,
        memref_ops.SubviewOp: subview,
        memref_ops.CopyOp: copy,
        memref_ops.CastOp: same,
        memref_ops.DimOp: dim,
        memref_ops.GetGlobalOp: get_global,
        memref_ops.CollapseShapeOp: reshape,
        memref_ops.ExpandShapeOp: reshape,
    }


def _check_layout(view: View, memref_type: MemRefType[Attribute]) -> None:
    """The view's runtime shape/strides/offset agree with every static part of its type."""
    for actual, declared in zip(view.shape, memref_type.get_shape(), strict=True):
        if declared != DYNAMIC_INDEX and actual != declared:
            raise MemoryError_(f"shape {view.shape} does not match type {memref_type}")
    strides, offset = strides_and_offset(memref_type)
    for n, actual, declared in zip(view.shape, view.strides, strides, strict=True):
        if declared is not None and n > 1 and actual != declared:
            raise MemoryError_(f"strides {view.strides} do not match type {memref_type}")
    if offset is not None and view.offset != offset:
        raise MemoryError_(f"offset {view.offset} does not match type {memref_type}")


@dataclass
class Execution:
    """The outcome of running a bufferized entry function."""

    results: list[np.ndarray]
    heap: Heap
    inputs_after: dict[int, np.ndarray]
    """The contents of each buffer argument after the run, by argument index."""


def execute(
    module: ModuleOp,
    entry: str,
    inputs: Sequence[np.ndarray],
    out_types: Sequence[MemRefType[Attribute]] = (),
    read_only_inputs: bool = True,
) -> Execution:
    """Run bufferized `entry` on `inputs` (plus zero-initialised out-params of `out_types`,
    NaN-filled), checking memory safety; results are the out-params then returned values."""
    heap = Heap()
    handlers = {**arith_math.handlers(), **control.handlers(), **memref_handlers(heap)}
    ip = Interpreter(module, handlers)
    fn = ip.function(entry, module)
    arg_views: list[Any] = []
    input_views: dict[int, View] = {}
    for index, (value, arg) in enumerate(zip(inputs, fn.body.block.args, strict=False)):
        if isinstance(arg.type, MemRefType):
            view = heap.view_of_array(
                np.asarray(value, dtype=_dtype(arg.type)), "arg", not read_only_inputs
            )
            input_views[index] = view
            arg_views.append(view)
        else:
            arg_views.append(value)
    outs: list[View] = []
    for t in out_types:
        data = np.full(t.get_shape(), np.nan, dtype=_dtype(t))
        view = heap.view_of_array(data, "out", True)
        outs.append(view)
        arg_views.append(view)
    returned = ip.call(fn, arg_views)
    escaped = {id(v.allocation) for v in returned if isinstance(v, View)}
    for allocation in heap.allocations:
        if allocation.alive and id(allocation) not in escaped:
            raise MemoryError_(f"leak: allocation at {allocation.site} never freed")
    results = [o.elements() for o in outs]
    for value in returned:
        results.append(value.elements() if isinstance(value, View) else np.asarray(value))
    return Execution(results, heap, {i: v.elements() for i, v in input_views.items()})


def compile_to_loops(text: str, pipeline: str = BUFFERIZE_TO_LOOPS) -> ModuleOp:
    """Parse a tensor payload and run the bufferization half of the CPU pipeline on it."""
    ctx = get_context()
    module = parse_module(text, ctx=ctx)
    run_passes(ctx, module, parse_pass_pipeline(pipeline))
    return module


def run_and_compare(
    text: str,
    entry: str,
    inputs: Sequence[np.ndarray],
    *,
    mark_read_only: bool = True,
    rtol: float = 1e-5,
) -> ModuleOp:
    """Compile `text` (entry args marked read-only as the driver does), execute it with the
    memory checks, and compare every result with the numpy reference."""
    expected = reference.evaluate(text, entry, list(inputs))
    ctx = get_context()
    module = parse_module(text, ctx=ctx)
    if mark_read_only:
        _mark_read_only(module, entry)
    run_passes(ctx, module, parse_pass_pipeline(BUFFERIZE_TO_LOOPS))
    fn = next(
        f
        for f in module.ops
        if getattr(f, "sym_name", None) is not None and f.sym_name.data == entry
    )  # type: ignore[attr-defined]
    n_args = len(inputs)
    out_types = [cast(MemRefType[Attribute], a.type) for a in fn.body.block.args[n_args:]]  # type: ignore[attr-defined]
    run = execute(module, entry, inputs, out_types, read_only_inputs=mark_read_only)
    assert len(run.results) == len(expected), print_op(module)
    for got, want in zip(run.results, expected, strict=True):
        np.testing.assert_allclose(
            np.asarray(got, dtype=np.float64), want, rtol=rtol, atol=1e-5, err_msg=print_op(module)
        )
    if mark_read_only:
        for index, after in run.inputs_after.items():
            np.testing.assert_array_equal(np.asarray(inputs[index], dtype=after.dtype), after)
    return module


def _mark_read_only(module: ModuleOp, entry: str) -> None:
    """`{bufferization.writable = false}` on the entry's tensor arguments (as the driver)."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, TensorType, i1

    fn = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == entry)
    attrs = []
    for i, t in enumerate(fn.function_type.inputs.data):
        existing = dict(fn.arg_attrs.data[i].data) if fn.arg_attrs is not None else {}
        if isinstance(t, TensorType):
            existing["bufferization.writable"] = IntegerAttr(0, i1)
        attrs.append(DictionaryAttr(existing))
    fn.arg_attrs = ArrayAttr(attrs)


# ---------------------------------------------------------------------------------------
# the checker's own tests: it must catch each kind of violation


def _run_memref(text: str, *inputs: np.ndarray) -> Execution:
    module = parse_module(text)
    return execute(module, "f", inputs)


def test_catches_use_after_free() -> None:
    text = """
    func.func @f() -> f32 {
      %c0 = arith.constant 0 : index
      %a = memref.alloc() : memref<4xf32>
      memref.dealloc %a : memref<4xf32>
      %v = memref.load %a[%c0] : memref<4xf32>
      return %v : f32
    }"""
    with pytest.raises(MemoryError_, match="freed"):
        _run_memref(text)


def test_catches_double_free_and_leak() -> None:
    double = """
    func.func @f() {
      %a = memref.alloc() : memref<4xf32>
      %s = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
      memref.dealloc %a : memref<4xf32>
      memref.dealloc %s : memref<2xf32, strided<[1], offset: 1>>
      return
    }"""
    with pytest.raises(MemoryError_, match="double free"):
        _run_memref(double)
    leak = """
    func.func @f() {
      %a = memref.alloc() : memref<4xf32>
      return
    }"""
    with pytest.raises(MemoryError_, match="leak"):
        _run_memref(leak)


def test_catches_write_to_read_only_argument() -> None:
    text = """
    func.func @f(%a: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%c0] : memref<4xf32>
      return
    }"""
    with pytest.raises(MemoryError_, match="read-only"):
        _run_memref(text, np.zeros(4, np.float32))


def test_subview_strides_follow_the_parent() -> None:
    text = """
    func.func @f(%a: memref<4x6xf32>) -> f32 {
      %c1 = arith.constant 1 : index
      %s = memref.subview %a[1, 1] [2, 3] [1, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 2], offset: 7>>
      %v = memref.load %s[%c1, %c1] : memref<2x3xf32, strided<[6, 2], offset: 7>>
      return %v : f32
    }"""
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    assert _run_memref(text, a).results[0] == a[2, 3]
