"""Fusion through and of `linalg.softmax` leaves the ops upstream leaves (findings 2602, 3360).

Upstream's softmax implements `getTiledImplementation` but no `generateResultTileValue`, so
no fusion ever computes a tile of it: `structured.fuse` stops at a softmax (its producers
stay whole, an unused clone and slice of it stay in the loop) and
`fuse_into_containing_op` clones the whole softmax into the loop. schedir fused a tile of
it, and then its producers: later `match`/`split_handle` saw more ops than upstream (2602),
and a fused producer with a dynamic tile no longer vectorized (3360). The property: over
random chains producer -> softmax -> consumer and random fusions, the number of each linalg
op after the schedule equals iree-opt's, and the compiled result matches the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.cli import opt_main
from schedir.testing.fuzz import FINDINGS, Case, Runner
from tests.fuzz.helpers import op_counts, run_upstream, transform_main


@dataclass(frozen=True)
class Chain:
    """A producer -> softmax -> consumer payload on odd static shapes, and a fusion."""

    m: int
    k: int
    n: int
    producer: str
    dim: int
    consumer: str
    fusion: str
    tiles: tuple[int, int]


_EW = (
    "linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
    'affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} '
    "ins({x} : {t}) outs({o} : {t}) {{\n"
    "  ^bb0(%i: f32, %u: f32):\n    %y = arith.mulf %i, %i : f32\n    linalg.yield %y : f32\n"
    "  }} -> {t}"
)


def payload(c: Chain) -> str:
    """The payload function of `c`; its results are all computed from the arguments."""
    t = f"tensor<{c.m}x{c.n}xf32>"
    lines = [
        f"func.func @f(%a: tensor<{c.m}x{c.k}xf32>, %b: tensor<{c.k}x{c.n}xf32>, "
        f"%x: {t}, %w: tensor<{c.n}x{c.n}xf32>) -> {t} {{",
        "  %z = arith.constant 0.000000e+00 : f32",
        f"  %e0 = tensor.empty() : {t}",
    ]
    if c.producer == "matmul":
        lines += [
            f"  %f0 = linalg.fill ins(%z : f32) outs(%e0 : {t}) -> {t}",
            f"  %p = linalg.matmul ins(%a, %b : tensor<{c.m}x{c.k}xf32>, "
            f"tensor<{c.k}x{c.n}xf32>) outs(%f0 : {t}) -> {t}",
        ]
    else:
        lines.append("  %p = " + _EW.format(x="%x", o="%e0", t=t))
    lines += [
        f"  %e1 = tensor.empty() : {t}",
        f"  %s = linalg.softmax dimension({c.dim}) ins(%p : {t}) outs(%e1 : {t}) -> {t}",
        f"  %e2 = tensor.empty() : {t}",
    ]
    if c.consumer == "matmul":
        lines += [
            f"  %f2 = linalg.fill ins(%z : f32) outs(%e2 : {t}) -> {t}",
            f"  %r = linalg.matmul ins(%s, %w : {t}, tensor<{c.n}x{c.n}xf32>) "
            f"outs(%f2 : {t}) -> {t}",
        ]
    else:
        lines.append("  %r = " + _EW.format(x="%s", o="%e2", t=t))
    lines += [f"  return %r : {t}", "}"]
    return "\n".join(lines) + "\n"


def schedule(c: Chain) -> str:
    """Tile the consumer (the last op of its kind) and fuse, as `c.fusion` says."""
    kind = "linalg.matmul" if c.consumer == "matmul" else "linalg.generic"
    any_op = "!transform.any_op"
    body = [
        f'%all = transform.structured.match ops{{["{kind}"]}} in %root : ({any_op}) -> {any_op}'
    ]
    last = "%all"
    if c.producer == c.consumer:
        body.append(
            f"%first, %last = transform.split_handle %all : ({any_op}) -> ({any_op}, {any_op})"
        )
        last = "%last"
    ts = f"[{c.tiles[0]}, {c.tiles[1]}]"
    if c.fusion == "fuse":
        loops = sum(1 for t in c.tiles if t)
        names = ", ".join(["%t", *(f"%l{i}" for i in range(loops))])
        types = ", ".join([any_op] * (loops + 1))
        body.append(
            f"{names} = transform.structured.fuse {last} tile_sizes {ts} : ({any_op}) -> ({types})"
        )
    else:
        body += [
            f'%sm = transform.structured.match ops{{["linalg.softmax"]}} in %root '
            f": ({any_op}) -> {any_op}",
            f"%t, %l = transform.structured.tile_using_forall {last} tile_sizes {ts} "
            f": ({any_op}) -> ({any_op}, {any_op})",
            f"%fs, %l2 = transform.structured.fuse_into_containing_op %sm into %l "
            f": ({any_op}, {any_op}) -> ({any_op}, {any_op})",
        ]
    return transform_main(body)


@st.composite
def chains(draw: st.DrawFn) -> Chain:
    m, k, n = (draw(st.integers(2, 9)) for _ in range(3))
    return Chain(
        m,
        k,
        n,
        draw(st.sampled_from(["matmul", "generic"])),
        draw(st.integers(0, 1)),
        draw(st.sampled_from(["matmul", "generic"])),
        draw(st.sampled_from(["fuse", "into_forall"])),
        (draw(st.integers(0, m + 1)), draw(st.integers(0, n + 1))),
    )


@settings(max_examples=30)
@given(chains())
def test_linalg_ops_after_fusion_are_upstreams(
    iree_opt: str, tmp_path_factory: pytest.TempPathFactory, chain: Chain
) -> None:
    if chain.tiles == (0, 0):
        return  # no loop: nothing is fused (upstream's fuse then names no loop handle)
    folder = tmp_path_factory.mktemp("fusion")
    source = folder / "case.mlir"
    source.write_text(payload(chain) + schedule(chain))
    upstream = run_upstream(iree_opt, source)
    assert upstream.returncode == 0, upstream.stderr
    out = folder / "out.mlir"
    assert opt_main([str(source), "-o", str(out)]) == 0
    assert op_counts(out.read_text()) == op_counts(upstream.stdout), chain


@pytest.mark.parametrize(
    "chain",
    [
        Chain(7, 5, 9, "matmul", 0, "matmul", "fuse", (7, 2)),
        Chain(7, 5, 9, "matmul", 1, "generic", "fuse", (3, 4)),
        Chain(5, 3, 6, "generic", 0, "generic", "into_forall", (2, 0)),
        Chain(9, 4, 5, "matmul", 1, "matmul", "into_forall", (4, 5)),
        Chain(6, 2, 7, "generic", 1, "matmul", "fuse", (0, 3)),
    ],
    ids=str,
)
def test_fused_chains_compute_the_reference(runner: Runner, chain: Chain) -> None:
    text = payload(chain) + schedule(chain)
    outcome = runner.run(Case("fusion", text, upstream=text), timeout=60)
    assert outcome.kind not in FINDINGS, f"{outcome.kind}: {outcome.detail}"
    assert "check: OK" in outcome.result.stdout, outcome.result.stdout


def test_found_cases_are_kept(tmp_path: Path) -> None:
    # The minimized 2602 case is a FIXED regression in known.py.
    case = Path(__file__).parent / "cases" / "softmax_not_fused_by_structured_fuse.mlir"
    assert opt_main([str(case), "-o", str(tmp_path / "out.mlir")]) == 0
    counts = op_counts((tmp_path / "out.mlir").read_text())
    assert counts["matmul"] == 2 and counts["softmax"] == 2, counts
