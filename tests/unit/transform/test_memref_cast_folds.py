"""Canonicalization on buffers keeps named linalg ops valid (campaign finding
dim_of_cast_after_bufferize): `memref.dim` folds through a subview to its size operand and
through a cast to its source, as upstream's DimOp::fold, so a tile buffer gets the static
sizes its subviews get; and a `memref.cast` folds into a linalg op only when the op still
verifies (a transpose with a static output next to a dynamic input does not).
"""

from __future__ import annotations

import pytest
from xdsl.dialects import memref

from schedir.dialects.context import get_context
from schedir.dialects.syntax import parse_module
from schedir.pipeline import apply_schedule
from tests.helpers import ANY, match, schedule_module

_CANON = (
    match("%f", "func.func")
    + f"    transform.apply_patterns to %f {{ transform.apply_patterns.canonicalization }} : {ANY}\n"
)


def _canonicalized(payload: str) -> str:
    module = parse_module(schedule_module(payload, _CANON), "casts.mlir")
    assert apply_schedule(get_context(), module)
    casts = [op for op in module.walk() if isinstance(op, memref.CastOp)]
    return f"{len(casts)} casts"


@pytest.mark.parametrize(
    ("op", "casts"),
    [
        (
            "linalg.transpose ins(%a : memref<?x?xf32>) outs(%c : memref<?x?xf32>) permutation = [1, 0]",
            1,
        ),
        ("linalg.copy ins(%a : memref<?x?xf32>) outs(%c : memref<?x?xf32>)", 0),
    ],
)
def test_a_cast_folds_into_a_linalg_op_only_if_it_still_verifies(op: str, casts: int) -> None:
    shape = "5x4" if "copy" in op else "4x5"
    payload = f"""  func.func @t(%a: memref<?x?xf32>, %o: memref<{shape}xf32>) {{
    %c = memref.cast %o : memref<{shape}xf32> to memref<?x?xf32>
    {op}
    return
  }}"""
    assert _canonicalized(payload) == f"{casts} casts"


@pytest.mark.parametrize("dropped", [False, True])
def test_dim_folds_through_subviews_and_casts(dropped: bool) -> None:
    # dim(cast(subview)) of a dynamic size is the size operand; of a static one, a
    # constant; the alloc sized by them becomes static and the casts fold away.
    unit = "1, " if dropped else ""
    one = "%i, " if dropped else ""
    src = "memref<3x9x7xf32>" if dropped else "memref<9x7xf32>"
    payload = f"""  func.func @t(%m: {src}, %i: index, %n: index) -> index {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %v = memref.subview %m[{one}%i, 0] [{unit}%n, %c5] [{unit}1, 1] : {src} to memref<?x?xf32, strided<[7, 1], offset: ?>>
    %w = memref.cast %v : memref<?x?xf32, strided<[7, 1], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    %d0 = memref.dim %w, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %d1 = memref.dim %w, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
    %s = arith.addi %d0, %d1 : index
    return %s : index
  }}"""
    module = parse_module(schedule_module(payload, _CANON), "dims.mlir")
    assert apply_schedule(get_context(), module)
    ops = [op for op in module.walk() if not isinstance(op, memref.CastOp)]
    names = [op.name for op in ops]
    assert "memref.dim" not in names and "memref.subview" not in names, names
    add = next(op for op in ops if op.name == "arith.addi")
    assert add.operands[0].name_hint == "n" or add.operands[1].name_hint == "n"
