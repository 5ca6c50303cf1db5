"""`tensor`, `memref` and `bufferization` ops.

Tensors are immutable numpy arrays: an op that changes one returns a copy. Memrefs are
mutable arrays that the evaluator owns (inputs are copied before the run); a subview is a
numpy view of its source, so writes through it land in the source as they do in memory.
`tensor.empty` and `memref.alloc` hold NaN (floats) or a 0xDEADBEEF pattern (integers), so
a payload that reads data it never wrote is caught by the comparison.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import Attribute, Operation

from schedir.dialects import bufferization, memref, tensor
from schedir.reference.attrs import DYNAMIC, int_list, mixed
from schedir.reference.interpreter import Handler, Interpreter, fail
from schedir.reference.values import elem_of, poison, storage_of

SliceOp = (
    tensor.ExtractSliceOp | tensor.InsertSliceOp | tensor.ParallelInsertSliceOp | memref.SubviewOp
)
"""The ops with upstream's static/dynamic offsets, sizes and strides."""


def _static_shape(t: Attribute) -> list[int]:
    """The static shape of a shaped type, DYNAMIC for `?`."""
    assert isinstance(t, TensorType | MemRefType)
    return [DYNAMIC if d < 0 else d for d in t.get_shape()]


def shape_of(t: Attribute, dynamic: Sequence[Any]) -> tuple[int, ...]:
    """The shape of a shaped type with its dynamic dims taken from `dynamic`, in order."""
    return tuple(mixed(_static_shape(t), dynamic))


def _check_shape(value: np.ndarray, t: Attribute, op: Operation, what: str) -> None:
    """A runtime shape must agree with the static dims of its type."""
    static = _static_shape(t)
    if value.ndim != len(static) or any(
        s != DYNAMIC and s != d for s, d in zip(static, value.shape, strict=True)
    ):
        raise fail(f"'{op.name}' op {what} has shape {value.shape}, which does not match {t}", op)


# ---- slices --------------------------------------------------------------------------------


def slice_params(
    op: Operation, args: Sequence[Any], lead: int
) -> tuple[list[int], list[int], list[int]]:
    """Offsets, sizes and strides of a slicing op whose first `lead` operands are not indices."""
    assert isinstance(op, SliceOp)
    static = [int_list(a) for a in (op.static_offsets, op.static_sizes, op.static_strides)]
    it = iter(args[lead:])
    result = [mixed(s, [next(it) for v in s if v == DYNAMIC]) for s in static]
    return result[0], result[1], result[2]


def _slice_index(
    op: Operation, shape: Sequence[int], offsets: list[int], sizes: list[int], strides: list[int]
) -> tuple[slice, ...]:
    """The numpy index of a slice, after checking it stays inside `shape`."""
    if not len(shape) == len(offsets) == len(sizes) == len(strides):
        raise fail(f"'{op.name}' op slices rank {len(offsets)} of a rank-{len(shape)} value", op)
    index = []
    for dim, (n, o, s, st) in enumerate(zip(shape, offsets, sizes, strides, strict=True)):
        if s < 0 or st <= 0:
            raise fail(f"'{op.name}' op has size {s} and stride {st} in dimension {dim}", op)
        if s > 0 and (o < 0 or o + (s - 1) * st >= n):
            raise fail(
                f"'{op.name}' op slice at offset {o} of size {s} and stride {st} exceeds dimension {dim} of size {n}",
                op,
            )
        index.append(slice(o, o + (s - 1) * st + 1, st) if s > 0 else slice(0, 0))
    return tuple(index)


def kept_dims(sizes: Sequence[int], reduced: Sequence[int], op: Operation) -> list[int]:
    """Which dims of a slice of `sizes` a rank-reducing result type `reduced` keeps."""
    if len(reduced) == len(sizes):
        return list(range(len(sizes)))
    for keep in itertools.combinations(range(len(sizes)), len(reduced)):
        dropped_are_unit = all(sizes[i] == 1 for i in range(len(sizes)) if i not in keep)
        if dropped_are_unit and all(
            r in (DYNAMIC, sizes[k]) for r, k in zip(reduced, keep, strict=True)
        ):
            return list(keep)
    raise fail(
        f"'{op.name}' op cannot reduce a slice of sizes {list(sizes)} to {list(reduced)}", op
    )


def _extract_slice(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.extract_slice (strided, rank-reducing)."""
    source = np.asarray(args[0])
    offsets, sizes, strides = slice_params(op, args, 1)
    part = source[_slice_index(op, source.shape, offsets, sizes, strides)]
    keep = kept_dims(sizes, _static_shape(op.results[0].type), op)
    return [np.array(part).reshape([sizes[k] for k in keep])]


def insert_slice_into(dest: np.ndarray, op: Operation, args: Sequence[Any]) -> None:
    """Write the source of an insert_slice-like op (operands: source, dest, indices) into `dest`."""
    source = np.asarray(args[0])
    offsets, sizes, strides = slice_params(op, args, 2)
    index = _slice_index(op, dest.shape, offsets, sizes, strides)
    if source.size != math.prod(sizes):
        raise fail(
            f"'{op.name}' op inserts a {source.shape} value into a slice of sizes {sizes}", op
        )
    dest[index] = source.reshape(sizes)


def _insert_slice(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.insert_slice into a copy of the destination."""
    dest = np.array(args[1], copy=True)
    insert_slice_into(dest, op, args)
    return [dest]


def _subview(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """memref.subview as a numpy view."""
    source = args[0]
    offsets, sizes, strides = slice_params(op, args, 1)
    view = source[_slice_index(op, source.shape, offsets, sizes, strides)]
    keep = kept_dims(sizes, _static_shape(op.results[0].type), op)
    # Squeezing keeps a view, so writes through the subview reach the source.
    return [np.squeeze(view, axis=tuple(i for i in range(len(sizes)) if i not in keep))]


# ---- creation ------------------------------------------------------------------------------


def _empty(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.empty: NaN or the integer poison pattern."""
    t = op.results[0].type
    return [poison(shape_of(t, args), elem_of(t))]


def _alloc(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """memref.alloc / alloca: NaN or the integer poison pattern."""
    t = op.results[0].type
    n_dynamic = sum(1 for d in _static_shape(t) if d == DYNAMIC)
    return [poison(shape_of(t, args[:n_dynamic]), elem_of(t))]


def _splat(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.splat."""
    t = op.results[0].type
    elem = elem_of(t)
    value = storage_of(args[0], elem)
    return [np.full(shape_of(t, args[1:]), value, dtype=value.dtype)]


def _from_elements(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.from_elements."""
    t = op.results[0].type
    elem = elem_of(t)
    # numpy's promotion keeps a bounded float bounded (and gives elem.storage otherwise).
    values = np.array([storage_of(a, elem) for a in args])
    values = values if values.dtype.kind == "c" else values.astype(elem.storage)
    return [values.reshape(shape_of(t, []))]


def index_grid(shape: Sequence[int]) -> list[np.ndarray]:
    """One int64 index array per dim, each broadcastable to `shape`."""
    rank = len(shape)
    return [
        np.arange(n, dtype=np.int64).reshape([n if d == i else 1 for d in range(rank)])
        for i, n in enumerate(shape)
    ]


def _generate(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.generate: its region over the whole result."""
    assert isinstance(op, tensor.GenerateOp)
    t = op.result.type
    shape = shape_of(t, args)
    _, (value,) = ip.run_region(op.body, index_grid(shape))
    elem = elem_of(t)
    return [np.broadcast_to(storage_of(value, elem), shape).copy()]


def _pad(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.pad (static or dynamic, value possibly index-dependent)."""
    assert isinstance(op, tensor.PadOp)
    source = np.asarray(args[0])
    static_low, static_high = int_list(op.static_low), int_list(op.static_high)
    it = iter(args[1:])
    low = mixed(static_low, [next(it) for v in static_low if v == DYNAMIC])
    high = mixed(static_high, [next(it) for v in static_high if v == DYNAMIC])
    if any(v < 0 for v in (*low, *high)):
        raise fail(f"'tensor.pad' op with negative padding low={low} high={high}", op)
    shape = tuple(lo + n + hi for lo, n, hi in zip(low, source.shape, high, strict=True))
    elem = elem_of(op.results[0].type)
    # The region may depend on the indices: evaluate it once over the whole result.
    _, (value,) = ip.run_region(op.region, index_grid(shape))
    result = np.broadcast_to(storage_of(value, elem), shape).copy()
    result[tuple(slice(lo, lo + n) for lo, n in zip(low, source.shape, strict=True))] = source
    return [result]


# ---- access --------------------------------------------------------------------------------


def _dim(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.dim / memref.dim."""
    value, index = np.asarray(args[0]), int(args[1])
    if not 0 <= index < value.ndim:
        raise fail(f"'{op.name}' op dimension {index} of a rank-{value.ndim} value", op)
    return [np.int64(value.shape[index])]


def element_index(op: Operation, shape: Sequence[int], indices: Sequence[Any]) -> tuple[Any, ...]:
    """A (possibly vectorized) element index, after checking it is in bounds."""
    if len(indices) != len(shape):
        raise fail(
            f"'{op.name}' op indexes a rank-{len(shape)} value with {len(indices)} indices", op
        )
    out = []
    for dim, (n, i) in enumerate(zip(shape, indices, strict=True)):
        i = np.asarray(i, dtype=np.int64)
        if i.size and (int(i.min()) < 0 or int(i.max()) >= n):
            raise fail(
                f"'{op.name}' op index {int(i.min()) if int(i.min()) < 0 else int(i.max())} out of bounds for dimension {dim} of size {n}",
                op,
            )
        out.append(i if i.ndim else int(i))
    return tuple(out)


def _extract(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.extract (vectorized indices inside linalg bodies)."""
    source = np.asarray(args[0])
    return [np.asarray(source[element_index(op, source.shape, args[1:])])]


def _insert(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.insert into a copy."""
    dest = np.array(args[1], copy=True)
    dest[element_index(op, dest.shape, args[2:])] = args[0]
    return [dest]


def _load(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """memref.load."""
    return [np.asarray(args[0][element_index(op, args[0].shape, args[1:])]).copy()]


def _store(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """memref.store."""
    value, mem = args[0], args[1]
    mem[element_index(op, mem.shape, args[2:])] = value
    return []


# ---- reshapes and casts --------------------------------------------------------------------


ReshapeOp = (
    tensor.CollapseShapeOp | tensor.ExpandShapeOp | memref.CollapseShapeOp | memref.ExpandShapeOp
)
"""The collapse/expand ops, each with its reassociation groups."""


def _groups(op: Operation) -> list[list[int]]:
    """The reassociation groups of a collapse/expand."""
    assert isinstance(op, ReshapeOp)
    return [int_list(group) for group in op.reassociation.data]


def _collapse(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """collapse_shape: a row-major reshape."""
    source = args[0]
    shape = [math.prod(source.shape[i] for i in group) for group in _groups(op)]
    return [source.reshape(shape)]


def _expand(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """expand_shape: a row-major reshape to the output shape."""
    assert isinstance(op, tensor.ExpandShapeOp | memref.ExpandShapeOp)
    source = args[0]
    shape = mixed(int_list(op.static_output_shape), args[1:])
    if math.prod(shape) != source.size:
        raise fail(f"'{op.name}' op cannot expand shape {source.shape} to {shape}", op)
    return [source.reshape(shape)]


def _reshape(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.reshape."""
    shape = [int(v) for v in np.asarray(args[1]).reshape(-1)]
    if math.prod(shape) != np.asarray(args[0]).size:
        raise fail(f"'tensor.reshape' op cannot reshape {np.shape(args[0])} to {shape}", op)
    return [np.asarray(args[0]).reshape(shape)]


def _cast(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.cast / memref.cast: checks the static dims."""
    _check_shape(np.asarray(args[0]), op.results[0].type, op, "its operand")
    return [args[0]]


def _concat(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """tensor.concat."""
    assert isinstance(op, tensor.ConcatOp)
    return [np.concatenate([np.asarray(a) for a in args], axis=op.dim.value.data)]


# ---- memref and bufferization --------------------------------------------------------------


def _copy(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """memref.copy."""
    source, target = args
    if source.shape != target.shape:
        raise fail(f"'memref.copy' op copies shape {source.shape} into shape {target.shape}", op)
    target[...] = source
    return []


def _to_tensor(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    # A snapshot: later writes to the buffer must not change the tensor.
    """A snapshot copy (to_tensor, to_buffer, clone)."""
    return [np.array(args[0], copy=True)]


def _alloc_tensor(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """bufferization.alloc_tensor."""
    t = op.results[0].type
    n_dynamic = sum(1 for d in _static_shape(t) if d == DYNAMIC)
    if len(args) > n_dynamic:
        return [np.array(args[n_dynamic], copy=True)]
    return [poison(shape_of(t, args), elem_of(t))]


def _materialize(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """bufferization.materialize_in_destination."""
    source, dest = np.asarray(args[0]), args[1]
    if source.shape != np.shape(dest):
        raise fail(
            f"'{op.name}' op materializes shape {source.shape} into shape {np.shape(dest)}", op
        )
    if isinstance(op.operands[1].type, MemRefType):
        dest[...] = source
        return []
    return [source]


def _dealloc(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """Deallocation: nothing to do."""
    return []


def handlers() -> dict[type[Operation], Handler]:
    """The handlers of this module, by op class."""
    return {
        tensor.EmptyOp: _empty,
        tensor.ExtractSliceOp: _extract_slice,
        tensor.InsertSliceOp: _insert_slice,
        tensor.PadOp: _pad,
        tensor.DimOp: _dim,
        tensor.ExtractOp: _extract,
        tensor.InsertOp: _insert,
        tensor.CastOp: _cast,
        tensor.CollapseShapeOp: _collapse,
        tensor.ExpandShapeOp: _expand,
        tensor.ReshapeOp: _reshape,
        tensor.FromElementsOp: _from_elements,
        tensor.GenerateOp: _generate,
        tensor.SplatOp: _splat,
        tensor.ConcatOp: _concat,
        memref.AllocOp: _alloc,
        memref.AllocaOp: _alloc,
        memref.DeallocOp: _dealloc,
        memref.CopyOp: _copy,
        memref.LoadOp: _load,
        memref.StoreOp: _store,
        memref.DimOp: _dim,
        memref.SubviewOp: _subview,
        memref.CastOp: _cast,
        memref.CollapseShapeOp: _collapse,
        memref.ExpandShapeOp: _expand,
        bufferization.ToTensorOp: _to_tensor,
        bufferization.ToBufferOp: _to_tensor,
        bufferization.CloneOp: _to_tensor,
        bufferization.AllocTensorOp: _alloc_tensor,
        bufferization.MaterializeInDestinationOp: _materialize,
    }


__all__ = [
    "element_index",
    "handlers",
    "index_grid",
    "insert_slice_into",
    "kept_dims",
    "shape_of",
    "slice_params",
]
