"""Helpers shared by the tests: the numeric harness and the schedule-module builders.

The harness compiles a payload (with or without a schedule), runs it on seeded random
inputs that are never zero with every output pre-filled with NaN (an element nobody writes
cannot pass), and compares each result with `schedir.reference` in float64, element by
element within the reference's forward error bound (`evaluate_with_bounds`). Test files import it as
`from tests.helpers import run_and_check` (pyproject's `pythonpath` puts the repository
root on `sys.path`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

import schedir
from schedir import reference

Payload = str | os.PathLike[str] | ModuleOp
"""MLIR text, a path to an `.mlir` file, or a parsed module."""

ANY = "!transform.any_op"


def check_results(
    actual: Sequence[np.ndarray],
    expected: Sequence[reference.Expected],
    dtypes: Sequence[np.dtype[Any]],
    *,
    where: str = "",
) -> None:
    """Assert that each result matches its reference (from `evaluate_with_bounds`) within
    its per-element tolerance."""
    assert len(actual) == len(expected), f"{len(actual)} results, reference has {len(expected)}"
    for index, (got, want, dtype) in enumerate(zip(actual, expected, dtypes, strict=True)):
        result = reference.compare(got, want, dtype)
        assert result.ok, f"result {index}: {result.message}{where}"


def check_kernel(
    kernel: schedir.Kernel,
    payload: Payload,
    *,
    seed: int = 0,
    dynamic: int | None = None,
    inputs: Sequence[Any] | None = None,
    reduction: int | Sequence[int] | None = 1,
) -> None:
    """Run `kernel` with NaN-prefilled outputs on `inputs` (default: seeded random non-zero
    inputs of its signature, dynamic dims of size `dynamic`) and compare every result with
    the bounded reference evaluation of the untransformed `payload`.

    `reduction` is ignored: the tolerances come from the reference's own error bounds
    (kept so that existing call sites need not change)."""
    del reduction
    signature = kernel.signature
    if inputs is None:
        inputs = reference.random_inputs(signature, seed=seed, dynamic_sizes=dynamic)
    expected = reference.evaluate_with_bounds(payload, signature.name, list(inputs))
    actual = kernel.run(*inputs, prefill_nan=True)
    dtypes = [spec.dtype for spec in signature.results]
    check_results(actual, expected, dtypes, where=_describe(payload))


def run_and_check(
    payload: Payload,
    schedule: str | os.PathLike[str] | None = None,
    *,
    seed: int = 0,
    dynamic: int | None = None,
    inputs: Sequence[Any] | None = None,
    reduction: int | Sequence[int] | None = 1,
) -> str:
    """Compile `payload` for the CPU (with its embedded schedule and/or `schedule`), check a
    run against the reference as `check_kernel` does; return the scheduled IR."""
    kernel = schedir.compile(payload, schedule)
    check_kernel(kernel, payload, seed=seed, dynamic=dynamic, inputs=inputs, reduction=reduction)
    return kernel.stages["scheduled"]


def resized_example(name: str, dims: dict[int, int]) -> str:
    """The text of `examples/<name>`, every tensor dimension d replaced by `dims[d]` (and a
    float constant `d.0`, e.g. layernorm's row length, likewise)."""
    text = (Path(__file__).parents[1] / "examples" / name).read_text()

    def one(found: re.Match[str]) -> str:
        shape = "x".join(str(dims.get(int(d), int(d))) for d in found.group(1).split("x"))
        return f"tensor<{shape}x{found.group(2)}>"

    text = re.sub(r"tensor<((?:\d+x)*\d+)x(\w+)>", one, text)
    for old, new in dims.items():
        text = text.replace(f"arith.constant {old}.0 : f32", f"arith.constant {new}.0 : f32")
    return text


def schedule_module(payload: str, schedule: str, *, consumed: bool = False) -> str:
    """`payload` and `schedule` (lines of a `@__transform_main` body) in one module; the root
    handle is `%root`, consumed or read-only."""
    effect = "consumed" if consumed else "readonly"
    body = schedule if schedule.endswith("\n") else schedule + "\n"
    return (
        "module attributes {transform.with_named_sequence} {\n"
        f"{payload}\n"
        f"  transform.named_sequence @__transform_main(%root: {ANY} {{transform.{effect}}}) {{\n"
        f"{body}"
        "    transform.yield\n  }\n}\n"
    )


def match(name: str, op: str, *, root: str = "%root", attributes: str = "") -> str:
    """A schedule line: `name` = the ops named `op` under `root` (with `attributes`)."""
    attrs = f" attributes{{{attributes}}}" if attributes else ""
    return (
        f'    {name} = transform.structured.match ops{{["{op}"]}}{attrs} in {root}'
        f" : ({ANY}) -> {ANY}\n"
    )


def matmul_payload(m: int, n: int, k: int) -> str:
    """A static f32 `linalg.matmul` payload C = A B (C zero-filled) of sizes M, N, K."""
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return f"""func.func @matmul(%A: {a}, %B: {b}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : {c}
  %acc = linalg.fill ins(%zero : f32) outs(%init : {c}) -> {c}
  %r = linalg.matmul ins(%A, %B : {a}, {b}) outs(%acc : {c}) -> {c}
  return %r : {c}
}}
"""


def payload_part(ir: str) -> str:
    """The payload part of scheduled IR (what comes before the schedule's transform ops)."""
    return ir[: ir.find("transform.") if "transform." in ir else len(ir)]


def one_shot_bufferize(*, boundaries: bool, root: str = "%root") -> str:
    """A schedule line: `%b` = one-shot bufferization of `root` (with function boundaries
    when `boundaries`)."""
    option = " <{bufferize_function_boundaries = true}>" if boundaries else ""
    return (
        f"    %b = transform.bufferization.one_shot_bufferize {root}{option} : ({ANY}) -> {ANY}\n"
    )


def _describe(payload: Payload) -> str:
    """The payload, for a failure message: its path or its text."""
    if isinstance(payload, ModuleOp):
        return ""
    if isinstance(payload, os.PathLike):
        return f" ({payload})"
    return f"\n{payload}"
