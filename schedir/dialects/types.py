"""Payload types seen from Python: element types as numpy dtypes, entry signatures."""

from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute

from schedir.diagnostics import InputError, Note, UnsupportedError
from schedir.dialects.syntax import op_location

DYNAMIC = -1
"""A dynamic dimension in `ArgSpec.shape` (MLIR's `?`)."""


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype holding one element of `element_type` (i1 -> bool, index -> int64)."""
    match element_type:
        case Float32Type():
            return np.dtype(np.float32)
        case Float64Type():
            return np.dtype(np.float64)
        case Float16Type():
            return np.dtype(np.float16)
        case BFloat16Type():
            return np.dtype(ml_dtypes.bfloat16)
        case IndexType():
            return np.dtype(np.int64)
        case IntegerType():
            width = element_type.width.data
            if width == 1:
                return np.dtype(np.bool_)
            if width in (8, 16, 32, 64):
                return np.dtype(f"int{width}")
    raise UnsupportedError(f"element type {element_type} has no numpy equivalent")


@dataclass(frozen=True)
class ArgSpec:
    """One argument or result of an entry function: shape (DYNAMIC for `?`) and dtype.

    `shape` is None for a scalar; `kind` says whether the value is a tensor, a memref or a
    scalar in the payload.
    """

    kind: str
    shape: tuple[int, ...] | None
    dtype: np.dtype
    mlir_type: str

    @property
    def is_static(self) -> bool:
        return self.shape is None or DYNAMIC not in self.shape


def arg_spec(t: Attribute) -> ArgSpec:
    """The `ArgSpec` of a payload type."""
    if isinstance(t, TensorType | MemRefType):
        shape = tuple(DYNAMIC if d < 0 else d for d in t.get_shape())
        kind = "tensor" if isinstance(t, TensorType) else "memref"
        return ArgSpec(kind, shape, numpy_dtype(t.get_element_type()), str(t))
    return ArgSpec("scalar", None, numpy_dtype(t), str(t))


@dataclass(frozen=True)
class EntrySignature:
    """Name, argument and result specs of the function a kernel runs."""

    name: str
    args: tuple[ArgSpec, ...]
    results: tuple[ArgSpec, ...]


def find_entry(module: ModuleOp, entry: str | None = None) -> func.FuncOp:
    """The function named `entry`, or the only public function with a body."""
    funcs = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                return f
        names = ", ".join(f"@{f.sym_name.data}" for f in funcs) or "none"
        raise InputError(
            f"no function named '{entry}'", notes=(Note(f"functions in the payload: {names}"),)
        )
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) == 1:
        return public[0]
    if not public:
        raise InputError("the payload has no public function to run")
    raise InputError(
        f"the payload has {len(public)} public functions; choose one with --entry",
        op_location(public[1]),
        notes=tuple(Note(f"candidate '@{f.sym_name.data}'", op_location(f)) for f in public),
    )


def entry_signature(fn: func.FuncOp) -> EntrySignature:
    """The `EntrySignature` of a payload function."""
    ftype = fn.function_type
    return EntrySignature(
        fn.sym_name.data,
        tuple(arg_spec(t) for t in ftype.inputs),
        tuple(arg_spec(t) for t in ftype.outputs),
    )


__all__ = [
    "DYNAMIC",
    "ArgSpec",
    "EntrySignature",
    "arg_spec",
    "entry_signature",
    "find_entry",
    "numpy_dtype",
]
