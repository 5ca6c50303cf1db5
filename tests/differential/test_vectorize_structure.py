"""Vectorization cases give upstream's vector IR, op for op.

`test_differential.py` compares the loop / linalg structure of every case; for the
vectorization cases (`cases/vectorize_*.mlir`) that misses what matters. Here both
interpreters' outputs are reduced, per loop body, to the sorted list of the vector,
linalg, tensor and memref ops (and arith / math ops on vectors) with their operand and
result types and the attributes that carry meaning (transfer permutation maps and
in_bounds, contraction maps and kinds, reduction dims, transposes, masks). Value names,
constants, poison, index arithmetic and op order inside a block may differ.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from harness import run_schedir, run_upstream
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DenseArrayBase, VectorType
from xdsl.ir import Operation

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module

CASES = sorted((Path(__file__).parent / "cases").glob("vectorize_*.mlir"))
LOOPS = ("scf.for", "scf.forall", "scf.if", "gpu.launch", "vector.mask", "linalg.generic")
SKIPPED = frozenset(
    {
        "arith.constant",
        "ub.poison",
        "tensor.dim",
        "memref.dim",
        "affine.apply",
        "affine.min",
        "affine.max",
        "scf.yield",
        "vector.yield",
        "func.return",
        "scf.forall.in_parallel",
        "gpu.terminator",
    }
)


def _attrs(op: Operation) -> str:
    parts: list[str] = []
    for name in (
        "permutation_map",
        "in_bounds",
        "indexing_maps",
        "kind",
        "reduction_dims",
        "permutation",
    ):
        attr = op.properties.get(name) or op.attributes.get(name)
        if attr is None:
            continue
        if isinstance(attr, AffineMapAttr):
            text = str(attr.data)
        elif isinstance(attr, ArrayAttr):
            text = (
                "["
                + ", ".join(
                    str(a.data) if isinstance(a, AffineMapAttr) else str(a) for a in attr.data
                )
                + "]"
            )
        elif isinstance(attr, DenseArrayBase):
            text = str(list(attr.get_values()))
        else:
            text = str(attr)
        parts.append(f"{name}={text}")
    return " {" + ", ".join(parts) + "}" if parts else ""


def _interesting(op: Operation) -> bool:
    if op.name in SKIPPED:
        return False
    dialect = op.name.split(".", 1)[0]
    if dialect in ("vector", "linalg", "tensor", "memref", "bufferization"):
        return True
    if dialect in ("arith", "math"):
        return any(isinstance(t, VectorType) for t in (*op.operand_types, *op.result_types))
    return False


def _label(op: Operation) -> str:
    ins = ", ".join(str(t) for t in op.operand_types)
    outs = ", ".join(str(t) for t in op.result_types)
    return f"{op.name}({ins}) -> ({outs}){_attrs(op)}"


def _render(op: Operation, indent: int) -> list[str]:
    lines: list[str] = []
    for region in op.regions:
        for block in region.blocks:
            flat: list[str] = []
            nested: list[list[str]] = []
            for inner in block.ops:
                if inner.name in LOOPS or (
                    inner.regions and inner.name.startswith(("scf.", "gpu."))
                ):
                    head = "  " * indent + _label(inner)
                    nested.append([head, *_render(inner, indent + 1)])
                elif _interesting(inner):
                    flat.append("  " * indent + _label(inner))
            lines.extend(sorted(flat))
            for group in nested:
                lines.extend(group)
    return lines


def vector_structure(text: str) -> str:
    """Per function, the loop tree with each body's sorted interesting ops."""
    module = parse_module(text, "<structure>", ctx=get_context(), verify=False)
    out: list[str] = []
    for op in module.walk():
        if op.name == "func.func":
            out.append(f"func @{op.properties['sym_name'].data}")  # type: ignore[union-attr]
            out.extend(_render(op, 1))
    return "\n".join(out)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name.removesuffix(".mlir"))
def test_vector_structure_matches_upstream(case: Path) -> None:
    upstream = run_upstream(case, None)
    ours = run_schedir(case, None)
    assert upstream.ok == ours.ok, (
        f"upstream ok={upstream.ok}, schedir ok={ours.ok}\n{upstream.message}\n{ours.message}"
    )
    if not upstream.ok:
        assert upstream.error_line == ours.error_line
        return
    expected, got = vector_structure(upstream.text), vector_structure(ours.text)
    assert got == expected, f"--- upstream\n{expected}\n--- schedir\n{got}"


def test_structure_sees_vector_ops() -> None:
    """The reduction keeps what the comparison relies on (and drops what it must not)."""
    text = """
    func.func @f(%t: tensor<8xf32>, %i: index) -> vector<8xf32> {
      %c0 = arith.constant 0 : index
      %p = ub.poison : f32
      %v = vector.transfer_read %t[%c0], %p {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
      %w = arith.addf %v, %v : vector<8xf32>
      return %w : vector<8xf32>
    }
    """
    got = vector_structure(text)
    assert "vector.transfer_read(tensor<8xf32>, index, f32) -> (vector<8xf32>)" in got
    assert "in_bounds=" in got
    assert "arith.addf" in got
    assert "arith.constant" not in got and "ub.poison" not in got
