"""Helpers shared by the reference tests: evaluate MLIR text, build small payloads, and
independent integer/float formulas (Python integers, `struct`) to check against."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import ml_dtypes
import numpy as np

from schedir import reference
from schedir.dialects.syntax import parse_module

INT_DTYPES = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def parse_or_skip(text: str) -> Any:
    """Parse a payload (every op the reference evaluates must parse: no skipping in CI)."""
    return parse_module(text, "<test>")


def run(text: str, *inputs: Any, entry: str | None = None) -> list[np.ndarray]:
    """Evaluate `entry` of the MLIR `text` on `inputs`; the bounded evaluation must give the
    same values (integers exactly, floats up to float64 summation order, NaN where NaN) and
    a non-negative bound on every float."""
    module = parse_or_skip(text)
    plain = reference.evaluate(module, entry, list(inputs))
    bounded = reference.evaluate_with_bounds(module, entry, list(inputs))
    for value, expected in zip(plain, bounded, strict=True):
        if expected.error is None:
            np.testing.assert_array_equal(value, expected.value)
        else:
            np.testing.assert_allclose(value, expected.value, rtol=1e-13, atol=1e-300)
            assert expected.error.shape == value.shape and not (expected.error < 0).any()
    return plain


def run1(text: str, *inputs: Any, entry: str | None = None) -> np.ndarray:
    """The only result of `run`."""
    (result,) = run(text, *inputs, entry=entry)
    return result


def tensor(shape: Sequence[int], elem: str) -> str:
    """MLIR tensor type text."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def elementwise(body: str, in_elems: Sequence[str], out_elem: str, n: int) -> str:
    """A 1-D linalg.generic applying `body` (which reads %x0, %x1, ... and defines %v)."""
    ins = ", ".join(f"%a{i}" for i in range(len(in_elems)))
    in_types = ", ".join(tensor([n], e) for e in in_elems)
    args = ", ".join(f"%a{i}: {tensor([n], e)}" for i, e in enumerate(in_elems))
    block = ", ".join(f"%x{i}: {e}" for i, e in enumerate(in_elems))
    maps = ", ".join(["affine_map<(d0) -> (d0)>"] * (len(in_elems) + 1))
    out = tensor([n], out_elem)
    return f"""
func.func @f({args}) -> {out} {{
  %e = tensor.empty() : {out}
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel"]}}
      ins({ins} : {in_types}) outs(%e : {out}) {{
  ^bb0({block}, %o: {out_elem}):
    {body}
    linalg.yield %v : {out_elem}
  }} -> {out}
  return %r : {out}
}}
"""


def to_signed(value: int, bits: int) -> int:
    """Two's-complement reading of the low `bits` bits of `value`."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def to_unsigned(value: int, bits: int) -> int:
    """Unsigned reading of the low `bits` bits of `value`."""
    return value & ((1 << bits) - 1)


def f16_round(x: float) -> float:
    """Round to IEEE half precision, ties to even, by Python's own packer."""
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def bf16_round_from_f32(x: float) -> float:
    """Round an exactly-f32 value to bfloat16 with the bit trick (ties to even)."""
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bias = 0x7FFF + ((bits >> 16) & 1)
    rounded = ((bits + bias) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", rounded & 0xFFFFFFFF))[0]


def f32_round(x: float) -> float:
    """Round to IEEE single precision by Python's packer."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


FLOATS = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f64": np.float64}
INTS = {"i8": np.int8, "i32": np.int32, "i64": np.int64}
DTYPES = {**FLOATS, **INTS, "i1": np.bool_}


def rand(shape: tuple[int, ...], elem: str, seed: int) -> np.ndarray:
    """Non-zero test data of an element type: floats in [-1, 1], ints in [-8, 8]."""
    rng = np.random.default_rng(seed)
    if elem in FLOATS:
        return rng.uniform(-1, 1, shape).astype(FLOATS[elem])
    if elem == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    return (rng.integers(1, 9, shape) * rng.choice([-1, 1], shape)).astype(INTS[elem])


def f64(x: np.ndarray) -> np.ndarray:
    return np.asarray(x).astype(np.float64)


def wrap(values: np.ndarray, elem: str) -> np.ndarray:
    """Python-integer wraparound of exact int64 results to `elem`."""
    bits = {"i8": 8, "i32": 32, "i64": 64}[elem]
    out = [
        ((int(v) + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))
        for v in np.asarray(values).reshape(-1)
    ]
    return np.array(out, dtype=np.int64).reshape(np.shape(values))


def filled_out(name: str, shape: tuple[int, ...], elem: str, zero: str = "0.0") -> str:
    """`%name` = a zero-filled tensor (`linalg.fill` of an empty one)."""
    t = tensor(shape, elem)
    return (
        f"  %z_{name} = arith.constant {zero} : {elem}\n"
        f"  %e_{name} = tensor.empty() : {t}\n"
        f"  %{name} = linalg.fill ins(%z_{name} : {elem}) outs(%e_{name} : {t}) -> {t}\n"
    )


def zero_of(elem: str) -> str:
    return "0.0" if elem in FLOATS else ("false" if elem == "i1" else "0")


def open_example(name: str) -> str:
    """The text of an example payload."""
    from pathlib import Path

    return (Path(__file__).parents[3] / "examples" / name).read_text()
