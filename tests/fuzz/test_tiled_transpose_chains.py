"""Tiled and fused chains of transposes, broadcasts and elementwise ops, canonicalized and
vectorized, end as upstream's do (findings 20261130/713 and 20261131/1192).

A transpose of a transpose composes (to nothing when the permutations cancel), a transpose
of a broadcast swaps with it, a broadcast of a broadcast is one. schedir lacked these
canonicalizations: a fused tile of `transpose(transpose(x))` kept both transposes with a
dynamic tile size, and `structured.vectorize` (no vector sizes) rejected them where upstream
had folded them away. The property: over random chains, random tile sizes (dividing the
sizes or not), both fusion styles, canonicalization and a vectorize of a random op kind,
schedir accepts exactly when iree-opt does (with its message when both reject), leaves
the same number of each linalg op, and computes the reference's result.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.testing.fuzz import FINDINGS, Case, Runner
from tests.fuzz.helpers import ANY, op_counts, run_upstream, transform_main

_KIND = {"transpose": "linalg.transpose", "broadcast": "linalg.broadcast", "ew": "linalg.generic"}


@dataclass(frozen=True)
class Step:
    """One op of a chain: `transpose` (with `perm`), `broadcast` (adding dim `dim`, first
    op only) or `ew` (an elementwise generic); `fill` gives its init a zero fill."""

    kind: str
    perm: tuple[int, ...] = ()
    dim: int = 0
    fill: bool = False


@dataclass(frozen=True)
class Chain:
    """Ops on rank-3 tensors of `shape` (the first op's result), a fusion and a vectorize."""

    shape: tuple[int, int, int]
    steps: tuple[Step, ...]
    fusion: str
    tiles: tuple[int, int, int]
    vectorize: str | None


def _type(shape: tuple[int, ...]) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


def payload(c: Chain) -> str:
    """The payload function of `c`: each op feeds the next."""
    first = c.steps[0]
    if first.kind == "broadcast":
        arg = tuple(s for i, s in enumerate(c.shape) if i != first.dim)
    elif first.kind == "transpose":
        arg = tuple(c.shape[first.perm.index(i)] for i in range(3))
    else:
        arg = c.shape
    lines = [f"func.func @f(%x: {_type(arg)}) -> {{result}} {{", "  %z = arith.constant 0.0 : f32"]
    value, shape = "%x", arg
    for i, step in enumerate(c.steps):
        if step.kind == "transpose":
            out = tuple(shape[p] for p in step.perm)
        elif step.kind == "broadcast":
            out = c.shape
        else:
            out = shape
        t_in, t_out = _type(shape), _type(out)
        lines.append(f"  %e{i} = tensor.empty() : {t_out}")
        init = f"%e{i}"
        if step.fill:
            lines.append(f"  %f{i} = linalg.fill ins(%z : f32) outs(%e{i} : {t_out}) -> {t_out}")
            init = f"%f{i}"
        ins_outs = f"ins({value} : {t_in}) outs({init} : {t_out})"
        if step.kind == "transpose":
            perm = ", ".join(map(str, step.perm))
            lines.append(f"  %v{i} = linalg.transpose {ins_outs} permutation = [{perm}]")
        elif step.kind == "broadcast":
            lines.append(f"  %v{i} = linalg.broadcast {ins_outs} dimensions = [{step.dim}]")
        else:
            ident = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
            lines += [
                f"  %v{i} = linalg.generic {{indexing_maps = [{ident}, {ident}], "
                f'iterator_types = ["parallel", "parallel", "parallel"]}} {ins_outs} {{',
                "  ^bb0(%a: f32, %b: f32):",
                "    %y = arith.mulf %a, %a : f32",
                "    linalg.yield %y : f32",
                f"  }} -> {t_out}",
            ]
        value, shape = f"%v{i}", out
    lines += [f"  return {value} : {_type(shape)}", "}"]
    return "\n".join(lines).replace("{result}", _type(shape)) + "\n"


def schedule(c: Chain) -> str:
    """Tile the last op and fuse its producers (`fuse`, or `tile_using_for` and
    `fuse_into_containing_op` of each producer, last first), canonicalize, vectorize."""
    counts = Counter(step.kind for step in c.steps)
    body: list[str] = []
    handles: list[str] = []
    seen: Counter[str] = Counter()
    for kind in counts:
        body.append(
            f'%all_{kind} = transform.structured.match ops{{["{_KIND[kind]}"]}} in %root '
            f": ({ANY}) -> {ANY}"
        )
        if counts[kind] > 1:
            names = ", ".join(f"%{kind}{j}" for j in range(counts[kind]))
            types = ", ".join([ANY] * counts[kind])
            body.append(f"{names} = transform.split_handle %all_{kind} : ({ANY}) -> ({types})")
    for step in c.steps:
        kind = step.kind
        handles.append(f"%{kind}{seen[kind]}" if counts[kind] > 1 else f"%all_{kind}")
        seen[kind] += 1
    loops = sum(1 for t in c.tiles if t)
    sizes = f"[{', '.join(map(str, c.tiles))}]"
    loop_names = ", ".join(f"%l{j}" for j in range(loops))
    types = ", ".join([ANY] * (loops + 1))
    if c.fusion == "fuse":
        body.append(
            f"%t, {loop_names} = transform.structured.fuse {handles[-1]} tile_sizes {sizes} "
            f": ({ANY}) -> ({types})"
        )
    else:
        body.append(
            f"%t, {loop_names} = transform.structured.tile_using_for {handles[-1]} "
            f"tile_sizes {sizes} : ({ANY}) -> ({types})"
        )
        loop = "%l0"
        for j, handle in reversed(list(enumerate(handles[:-1]))):
            body.append(
                f"%fused{j}, %loop{j} = transform.structured.fuse_into_containing_op {handle} "
                f"into {loop} : ({ANY}, {ANY}) -> ({ANY}, {ANY})"
            )
            loop = f"%loop{j}"
    body += [
        f'%func = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}',
        "transform.apply_patterns to %func { transform.apply_patterns.canonicalization } "
        f": {ANY}",
    ]
    if c.vectorize is not None:
        body += [
            f'%vec = transform.structured.match ops{{["{c.vectorize}"]}} in %root '
            f": ({ANY}) -> {ANY}",
            f"transform.structured.vectorize %vec : {ANY}",
        ]
    return transform_main(body)


@st.composite
def chains(draw: st.DrawFn) -> Chain:
    shape = (draw(st.integers(1, 7)), draw(st.integers(1, 7)), draw(st.integers(2, 9)))
    n = draw(st.integers(2, 3))
    steps: list[Step] = []
    for i in range(n):
        kinds = ["transpose", "transpose", "ew", *(["broadcast"] if i == 0 else [])]
        kind = draw(st.sampled_from(kinds))
        perm = tuple(draw(st.permutations(range(3)))) if kind == "transpose" else ()
        steps.append(Step(kind, perm, draw(st.integers(0, 2)), draw(st.booleans())))
    # The last op's result shape bounds its tile sizes.
    out = shape
    for step in steps[1:]:
        if step.kind == "transpose":
            out = tuple(out[p] for p in step.perm)
    tiles = tuple(draw(st.integers(0, s + 1)) for s in out)
    return Chain(
        shape,
        tuple(steps),
        draw(st.sampled_from(["fuse", "into_for"])),
        (tiles[0], tiles[1], tiles[2]),
        draw(st.sampled_from([None, "linalg.transpose", "linalg.generic", "linalg.fill"])),
    )


_ERROR = re.compile(r":\d+:\d+: error: (.*)$", re.M)


def _error(stderr: str) -> str | None:
    found = _ERROR.search(stderr)
    return found.group(1) if found else None


def _compare_with_upstream(iree_opt: str, folder: Path, chain: Chain) -> bool:
    """Assert schedir decides and folds as iree-opt does; whether both accepted."""
    source = folder / "case.mlir"
    source.write_text(payload(chain) + schedule(chain))
    upstream = run_upstream(iree_opt, source)
    out = folder / "out.mlir"
    run = subprocess.run(
        ["schedir-opt", str(source), "-o", str(out)], capture_output=True, text=True, timeout=120
    )
    assert (run.returncode == 0) == (upstream.returncode == 0), (
        chain,
        run.stderr,
        upstream.stderr,
    )
    if upstream.returncode != 0:
        assert _error(run.stderr) == _error(upstream.stderr), (chain, run.stderr)
        return False
    assert op_counts(out.read_text()) == op_counts(upstream.stdout), chain
    return True


@settings(max_examples=25)
@given(chains())
def test_tiled_chains_fold_and_vectorize_as_upstream(
    iree_opt: str, tmp_path_factory: pytest.TempPathFactory, chain: Chain
) -> None:
    if chain.tiles == (0, 0, 0):
        return  # no loop to fuse into (upstream's fuse then names no loop handle)
    _compare_with_upstream(iree_opt, tmp_path_factory.mktemp("chain"), chain)


_T = "transpose"
FOUND = [
    # 20261130/713: a broadcast, two cancelling transposes, the last tiled [2, 1, 0].
    Chain(
        (13, 1, 3),
        (Step("broadcast", dim=1), Step(_T, (2, 1, 0)), Step(_T, (2, 1, 0))),
        "into_for",
        (2, 1, 0),
        "linalg.transpose",
    ),
    # 20261131/1192 (the reduction producer left out): fused by `structured.fuse`, the
    # fill of the cancelled transpose vectorized.
    Chain(
        (4, 13, 1),
        (Step("ew"), Step(_T, (1, 0, 2), fill=True), Step(_T, (1, 0, 2))),
        "fuse",
        (0, 10, 0),
        "linalg.fill",
    ),
    Chain(
        (5, 3, 7),
        (Step(_T, (1, 2, 0)), Step(_T, (2, 0, 1)), Step("ew", fill=True)),
        "into_for",
        (3, 2, 4),
        "linalg.generic",
    ),
    Chain(
        (3, 1, 5),
        (Step("broadcast", dim=0), Step(_T, (2, 0, 1))),
        "fuse",
        (2, 0, 3),
        "linalg.transpose",
    ),
    Chain(
        (6, 7, 2),
        (Step(_T, (2, 1, 0)), Step("ew"), Step(_T, (2, 1, 0))),
        "into_for",
        (4, 5, 0),
        "linalg.transpose",
    ),
]


@pytest.mark.parametrize("chain", FOUND, ids=lambda c: "-".join(s.kind for s in c.steps))
def test_found_chains_compute_the_reference(
    iree_opt: str, runner: Runner, tmp_path: Path, chain: Chain
) -> None:
    accepted = _compare_with_upstream(iree_opt, tmp_path, chain)
    text = payload(chain) + schedule(chain)
    outcome = runner.run(Case("chain", text, upstream=text), timeout=60)
    assert outcome.kind not in FINDINGS, f"{outcome.kind}: {outcome.detail}"
    if accepted:
        assert "check: OK" in outcome.result.stdout, outcome.result.stdout
