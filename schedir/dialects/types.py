"""Payload types seen from Python: element types as numpy dtypes, the entry function and its
`schedir.abi.EntrySignature`."""

from __future__ import annotations

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

from schedir.abi import DYNAMIC, ArgSpec, EntrySignature, MemRefSpec, ScalarSpec
from schedir.diagnostics import InputError, Note, UnsupportedError
from schedir.dialects.syntax import module_location, op_location


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


def arg_spec(t: Attribute, name: str = "") -> ArgSpec:
    """The `ArgSpec` of a payload type (of the argument `name`, for messages)."""
    if isinstance(t, TensorType | MemRefType):
        shape = tuple(DYNAMIC if d < 0 else d for d in t.get_shape())
        return MemRefSpec(numpy_dtype(t.get_element_type()), shape, str(t), name)
    return ScalarSpec(numpy_dtype(t), str(t), name)


def find_entry(module: ModuleOp, entry: str | None = None) -> func.FuncOp:
    """The function named `entry`, or the only public function with a body."""
    funcs = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                return f
        names = ", ".join(f"@{f.sym_name.data}" for f in funcs) or "none"
        raise InputError(
            f"no function named '{entry}'",
            module_location(module),
            notes=(Note(f"functions in the payload: {names}"),),
        )
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    if len(public) == 1:
        return public[0]
    if not public:
        raise InputError("the payload has no public function to run", module_location(module))
    raise InputError(
        f"the payload has {len(public)} public functions; choose one with --entry",
        op_location(public[1]),
        notes=tuple(Note(f"candidate '@{f.sym_name.data}'", op_location(f)) for f in public),
    )


def entry_signature(fn: func.FuncOp) -> EntrySignature:
    """The `EntrySignature` of a payload function."""
    ftype = fn.function_type
    names = [f"%{a.name_hint}" if a.name_hint else "" for a in fn.args] if fn.body.blocks else []
    return EntrySignature(
        fn.sym_name.data,
        tuple(arg_spec(t, names[i] if names else "") for i, t in enumerate(ftype.inputs)),
        tuple(arg_spec(t) for t in ftype.outputs),
    )


__all__ = [
    "arg_spec",
    "entry_signature",
    "find_entry",
    "numpy_dtype",
]
