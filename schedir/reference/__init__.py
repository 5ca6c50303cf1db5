"""The numpy reference: evaluates untransformed payloads, the oracle of every numeric check.

    expected = schedir.reference.evaluate_with_bounds("examples/matmul.mlir", None, [a, b])
    check = schedir.reference.compare(actual, expected[0], np.float32)
    print(check.line())   # check: OK max_abs_err=... max_rel_err=... tol=...

It shares nothing with the compiler but the parser: every op is evaluated here from its
upstream definition, by a handler found by the op's class (the class the parser builds). Floats are computed in float64 and returned as float64 (only ops that
change precision round); integers wrap at their declared width and come back in their own
dtype; i1 is bool. `evaluate_with_bounds` also gives, per element, a bound on the error
a correct computation in the payload's own types may have (`bounds`); `compare` checks a
result against it (`checking`).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from schedir.abi import DYNAMIC, ArgSpec, ScalarSpec, scalar_value
from schedir.diagnostics import InputError
from schedir.dialects.syntax import op_location, parse_module
from schedir.dialects.types import entry_signature, find_entry
from schedir.reference import arith_math, bounds, control, linalg, relayout, tensor_ops
from schedir.reference.checking import (
    DEFAULT_DYNAMIC_SIZE,
    DYNAMIC_REDUCTION_EXTENT,
    CheckResult,
    Expected,
    compare,
    nan_filled,
    random_inputs,
    reduction_length,
    tolerance_floor,
)
from schedir.reference.interpreter import Handler, Interpreter
from schedir.reference.values import elem_of, to_storage


def _handlers() -> dict[type[Operation], Handler]:
    """Every op handler of the reference, by op class."""
    table: dict[type[Operation], Handler] = {}
    for module in (arith_math, control, tensor_ops, linalg, relayout):
        table.update(module.handlers())
    return table


def _load(payload: str | os.PathLike[str] | ModuleOp) -> ModuleOp:
    """A parsed module from a module, a path, or MLIR text."""
    if isinstance(payload, ModuleOp):
        return payload
    if isinstance(payload, os.PathLike) or (
        isinstance(payload, str)
        and "\n" not in payload
        and not payload.lstrip().startswith(("func", "module", "#", "//"))
    ):
        path = Path(payload)
        try:
            text = path.read_text()
        except OSError as err:
            raise InputError(f"cannot read payload '{path}': {err.strerror or err}") from None
        return parse_module(text, str(path))
    return parse_module(payload, "<payload>")


def _check_input(index: int, spec: ArgSpec, value: Any) -> np.ndarray:
    """The argument as a fresh storage array; InputError if it does not fit `spec`."""
    if spec.shape is None:
        assert isinstance(spec, ScalarSpec)
        # The runtimes' rule: a scalar must fit its type, never wrapped.
        array = scalar_value(index, spec, value)
    else:
        if not isinstance(value, np.ndarray):
            raise InputError(
                f"argument {index}: expected a numpy array for {spec.mlir_type}, got {type(value).__name__}"
            )
        array = value
        if array.dtype != spec.dtype:
            raise InputError(
                f"argument {index}: expected dtype {spec.dtype} ({spec.mlir_type}), got {array.dtype}"
            )
        if array.ndim != len(spec.shape) or any(
            want != DYNAMIC and want != got
            for want, got in zip(spec.shape, array.shape, strict=True)
        ):
            shape = "(" + ", ".join("?" if d == DYNAMIC else str(d) for d in spec.shape) + ")"
            raise InputError(
                f"argument {index}: expected shape {shape} ({spec.mlir_type}), got {tuple(array.shape)}"
            )
    return array


def evaluate(
    payload: str | os.PathLike[str] | ModuleOp,
    entry: str | None,
    inputs: Sequence[Any],
) -> list[np.ndarray]:
    """Evaluate function `entry` of `payload` on `inputs` with numpy; return its results.

    `payload` is a parsed module, a path to an `.mlir` file, or MLIR text; `entry` names
    the function (None: the only public one). `inputs` are the arguments in declared order:
    numpy arrays of exactly the declared dtype and shape (a dynamic dim takes any size;
    scalars may be Python numbers). Results come back in order as new arrays: float
    results as float64 (computed in float64; only precision-changing ops such as
    `arith.truncf` round), integer results in their declared dtype with two's-complement
    wraparound, i1 as bool. The inputs are never modified.

    Raises `InputError` for arguments that do not fit the signature or for a payload whose
    evaluation is undefined on them (an out-of-bounds slice, a shape mismatch), and
    `UnsupportedError` at the op for an op or form the reference does not evaluate.
    """
    return [e.value for e in _evaluate(payload, entry, inputs, bounded=False)]


def evaluate_with_bounds(
    payload: str | os.PathLike[str] | ModuleOp,
    entry: str | None,
    inputs: Sequence[Any],
) -> list[Expected]:
    """`evaluate`, with a forward error bound for every float result element.

    Each result is an `Expected`: the value `evaluate` gives, and (floats) an array of the
    same shape bounding how far a correct computation of the payload in its declared types
    (any order of its reductions, any tiling) may land from it; `compare` checks against
    it. The rules are in `schedir.reference.bounds`. Same arguments and errors as
    `evaluate`.
    """
    return _evaluate(payload, entry, inputs, bounded=True)


def _evaluate(
    payload: str | os.PathLike[str] | ModuleOp,
    entry: str | None,
    inputs: Sequence[Any],
    *,
    bounded: bool,
) -> list[Expected]:
    """The evaluation behind `evaluate` and `evaluate_with_bounds`."""
    module = _load(payload)
    fn = find_entry(module, entry)
    sig = entry_signature(fn)
    if len(inputs) != len(sig.args):
        raise InputError(
            f"@{sig.name} takes {len(sig.args)} argument(s) ({', '.join(a.mlir_type for a in sig.args)}), got {len(inputs)}",
            op_location(fn),
        )
    block_types = [a.type for a in fn.body.blocks[0].args]
    args = []
    for i, (spec, value, t) in enumerate(zip(sig.args, inputs, block_types, strict=True)):
        elem = elem_of(t)
        arg = to_storage(_check_input(i, spec, value), elem)
        args.append(bounds.bounded(arg) if bounded and elem.is_float else arg)
    interpreter = Interpreter(module, _handlers(), bounded=bounded)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        # A bounded float read as a plain one would lose its bound: make that an error.
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        results = interpreter.call(fn, args)
    out = []
    for t, value in zip(fn.function_type.outputs, results, strict=True):
        elem = elem_of(t)
        if not elem.is_float:
            out.append(
                Expected(np.array(value, dtype=elem.declared, copy=True), None, elem.declared)
            )
            continue
        v, e = bounds.split(value)
        error = np.array(e, dtype=np.float64, copy=True) if bounded else None
        out.append(Expected(np.array(v, dtype=np.float64, copy=True), error, elem.declared))
    return out


__all__ = [
    "DEFAULT_DYNAMIC_SIZE",
    "DYNAMIC_REDUCTION_EXTENT",
    "CheckResult",
    "Expected",
    "compare",
    "evaluate",
    "evaluate_with_bounds",
    "nan_filled",
    "random_inputs",
    "reduction_length",
    "tolerance_floor",
]
