"""Linalg bodies that compare, select and cast vectorize and compute what the reference does.

xDSL 0.74 defines `arith.cmpf`/`cmpi`, `arith.select` and the casts on scalars only;
schedir's arith dialect takes vectors (`vector<4x8xi1>` comparison results, vector
conditions, vector casts), so `structured.vectorize` of these bodies gives valid IR that
lowers to LLVM vector instructions. Each payload runs untransformed (linalg to loops) and
tiled + vectorized with masks for the partial tiles (bufferized by `schedir.compile`'s
pipeline), at odd sizes, against `schedir.reference`.
"""

from __future__ import annotations

import re

import pytest
from test_vectorize_numerics import LOWER_MASKED, tile_for, vectorize

import schedir
from tests.helpers import match, run_and_check, schedule_module

ID = "affine_map<(d0, d1) -> (d0, d1)>"
SCALAR = "affine_map<(d0, d1) -> ()>"
ROW = "affine_map<(d0, d1) -> (d0)>"


def generic(name: str, ins: list[str], out: str, maps: list[str], body: str) -> str:
    """A 2-D elementwise `linalg.generic` in a function taking `ins`, returning `out`."""
    args = ", ".join(f"%in{i}: {t}" for i, t in enumerate(ins))
    ins_list = ", ".join(f"%in{i}" for i in range(len(ins)))
    block_args = ", ".join(
        [
            f"%a{i}: {t.split('x')[-1].rstrip('>') if 'x' in t else t[7:-1]}"
            for i, t in enumerate(ins)
        ]
        + [f"%o: {out.split('x')[-1].rstrip('>')}"]
    )
    return f"""  func.func @{name}({args}) -> {out} {{
    %e = tensor.empty() : {out}
    %r = linalg.generic {{indexing_maps = [{", ".join(maps)}], iterator_types = ["parallel", "parallel"]}}
        ins({ins_list} : {", ".join(ins)}) outs(%e : {out}) {{
    ^bb0({block_args}):
{body}
    }} -> {out}
    return %r : {out}
  }}"""


def relu(t: str, shape: str = "13x37") -> str:
    return generic(
        "relu",
        [f"tensor<{shape}x{t}>"],
        f"tensor<{shape}x{t}>",
        [ID, ID],
        f"""      %z = arith.constant 0.0 : {t}
      %c = arith.cmpf ogt, %a0, %z : {t}
      %s = arith.select %c, %a0, %z : {t}
      linalg.yield %s : {t}""",
    )


def clamp(t: str) -> str:
    return generic(
        "clamp",
        [f"tensor<13x37x{t}>"],
        f"tensor<13x37x{t}>",
        [ID, ID],
        f"""      %lo = arith.constant -0.5 : {t}
      %hi = arith.constant 0.25 : {t}
      %below = arith.cmpf olt, %a0, %lo : {t}
      %x = arith.select %below, %lo, %a0 : {t}
      %above = arith.cmpf ogt, %x, %hi : {t}
      %y = arith.select %above, %hi, %x : {t}
      linalg.yield %y : {t}""",
    )


def cast_chain(t: str, i: str) -> str:
    """f -> i (toward zero) -> f, scaled first so the integers are not all zero."""
    return generic(
        "cast_chain",
        [f"tensor<11x29x{t}>"],
        f"tensor<11x29x{t}>",
        [ID, ID],
        f"""      %k = arith.constant 7.0 : {t}
      %s = arith.mulf %a0, %k : {t}
      %n = arith.fptosi %s : {t} to {i}
      %f = arith.sitofp %n : {i} to {t}
      linalg.yield %f : {t}""",
    )


def int_casts() -> str:
    """i32 -> i64 -> i16 -> f64, with a signed and an unsigned compare on the way."""
    return generic(
        "int_casts",
        ["tensor<11x29xi32>"],
        "tensor<11x29xf64>",
        [ID, ID],
        """      %w = arith.extsi %a0 : i32 to i64
      %n = arith.trunci %w : i64 to i16
      %z = arith.constant 0 : i16
      %neg = arith.cmpi slt, %n, %z : i16
      %m = arith.subi %z, %n : i16
      %abs = arith.select %neg, %m, %n : i16
      %u = arith.extui %abs : i16 to i32
      %f = arith.uitofp %u : i32 to f64
      linalg.yield %f : f64""",
    )


def precision() -> str:
    """f32 -> f16 -> f32 and f32 -> f64 -> f32 (rounding to half precision in between)."""
    return generic(
        "precision",
        ["tensor<13x37xf32>"],
        "tensor<13x37xf32>",
        [ID, ID],
        """      %h = arith.truncf %a0 : f32 to f16
      %b = arith.extf %h : f16 to f32
      %d = arith.extf %b : f32 to f64
      %s = arith.truncf %d : f64 to f32
      linalg.yield %s : f32""",
    )


def where() -> str:
    """where(mask > 0, a, b) with an integer mask."""
    return generic(
        "where",
        ["tensor<13x37xi32>", "tensor<13x37xf32>", "tensor<13x37xf32>"],
        "tensor<13x37xf32>",
        [ID, ID, ID, ID],
        """      %z = arith.constant 0 : i32
      %m = arith.cmpi sgt, %a0, %z : i32
      %s = arith.select %m, %a1, %a2 : f32
      linalg.yield %s : f32""",
    )


def where_row() -> str:
    """One flag per row, broadcast along it (a scalar condition per row before vectorizing)."""
    return generic(
        "where_row",
        ["tensor<13xf32>", "tensor<13x37xf32>", "tensor<13x37xf32>"],
        "tensor<13x37xf32>",
        [ROW, ID, ID, ID],
        """      %z = arith.constant 0.0 : f32
      %m = arith.cmpf oge, %a0, %z : f32
      %s = arith.select %m, %a1, %a2 : f32
      linalg.yield %s : f32""",
    )


def where_scalar() -> str:
    """A condition from a 0-d tensor: one flag for the whole tile (broadcast on vectorizing)."""
    return generic(
        "where_scalar",
        ["tensor<f32>", "tensor<13x37xf32>", "tensor<13x37xf32>"],
        "tensor<13x37xf32>",
        [SCALAR, ID, ID, ID],
        """      %z = arith.constant 0.0 : f32
      %m = arith.cmpf oge, %a0, %z : f32
      %s = arith.select %m, %a1, %a2 : f32
      linalg.yield %s : f32""",
    )


PAYLOADS = {
    "relu_f32": relu("f32"),
    "relu_f64": relu("f64"),
    "relu_f16": relu("f16", "5x19"),
    "clamp_f32": clamp("f32"),
    "clamp_f64": clamp("f64"),
    "cast_chain_f32_i32": cast_chain("f32", "i32"),
    "cast_chain_f64_i64": cast_chain("f64", "i64"),
    "cast_chain_f32_i8": cast_chain("f32", "i8"),
    "int_casts": int_casts(),
    "precision": precision(),
    "where": where(),
    "where_row": where_row(),
}
UNTILED_ONLY = {"where_scalar": where_scalar()}
"""A 0-d input vectorizes to `vector<f32>`, which the CPU vector lowering does not take yet."""

TILED = (
    match("%g", "linalg.generic") + tile_for("%g", [4, 8]) + vectorize("%t", [4, 8]) + LOWER_MASKED
)
"""Partial tiles at every size here: masked vectors of 4x8."""


@pytest.mark.parametrize("name", [*PAYLOADS, *UNTILED_ONLY])
def test_without_schedule(name: str) -> None:
    run_and_check({**PAYLOADS, **UNTILED_ONLY}[name])


@pytest.mark.parametrize("name", PAYLOADS)
def test_tiled_and_vectorized(name: str) -> None:
    ir = run_and_check(schedule_module(PAYLOADS[name], TILED), seed=1)
    assert "linalg.generic" not in ir
    assert "x8xi1>" in ir  # the compare (or the mask) is a vector of i1


def test_vectorized_compare_and_select_are_vector_ops() -> None:
    """The compare gives vector<4x8xi1> and the select takes it as its condition; the
    LLVM IR has them as one instruction per row of eight lanes."""
    kernel = schedir.compile(schedule_module(PAYLOADS["relu_f32"], TILED))
    ir = kernel.stages["scheduled"]
    assert "arith.cmpf ogt, %" in ir and ": vector<4x8xf32>" in ir
    assert "arith.select" in ir and ": vector<4x8xi1>, vector<4x8xf32>" in ir
    llvm_ir = kernel.stages["llvm-ir"]
    assert "fcmp ogt <8 x float>" in llvm_ir
    assert re.search(r"select\s+<8 x i1> %[^,]*, <8 x float>", llvm_ir)


def test_vectorized_casts_lower_to_vector_instructions() -> None:
    kernel = schedir.compile(schedule_module(PAYLOADS["cast_chain_f32_i32"], TILED))
    llvm_ir = kernel.stages["llvm-ir"]
    assert "fptosi <8 x float>" in llvm_ir and "to <8 x i32>" in llvm_ir
    assert "sitofp <8 x i32>" in llvm_ir
