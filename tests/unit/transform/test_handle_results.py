"""Loop handles follow upstream's rules: `structured.fuse` asks for one loop per non-zero
tile size; a requested loop the target's rank cannot give is a null payload op, a definite
failure "attempting to assign a null payload op to this transform value" at the op (as
upstream's `TransformState::setPayloadOps`), never a silently empty handle. The matrix
(rank x tile sizes x interchange) is compared with iree-opt wherever upstream does not
crash on it (its assertion-enabled build aborts on exactly the null cases).
"""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

import pytest

from tests.differential.harness import iree_opt, run_schedir
from tests.helpers import ANY, match, schedule_module

NULL = "attempting to assign a null payload op to this transform value"


def _payload(rank: int) -> str:
    shape = "x".join(["7", "5", "3"][:rank])
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join(['"parallel"'] * rank)
    ty = f"tensor<{shape}xf32>"
    return f"""  func.func @f(%a: {ty}, %o: {ty}) -> {ty} {{
    %r = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{iterators}]}} ins(%a : {ty}) outs(%o : {ty}) {{
    ^bb0(%x: f32, %y: f32):
      %e = math.exp %x : f32
      linalg.yield %e : f32
    }} -> {ty}
    return %r : {ty}
  }}"""


def _case(rank: int, sizes: tuple[int, ...], interchange: list[int] | None) -> str:
    loops = sum(1 for s in sizes if s)
    names = ", ".join(["%t"] + [f"%l{i}" for i in range(loops)])
    results = ", ".join([ANY] * (loops + 1))
    inter = f" interchange [{', '.join(map(str, interchange))}]" if interchange else ""
    schedule = match("%m", "linalg.generic") + (
        f"    {names} = transform.structured.fuse %m tile_sizes [{', '.join(map(str, sizes))}]"
        f"{inter} : ({ANY}) -> ({results})\n"
    )
    schedule += "".join(f'    transform.annotate %l{i} "l{i}" : {ANY}\n' for i in range(loops))
    return schedule_module(_payload(rank), schedule)


def _annotations(text: str) -> list[int]:
    """How many payload ops carry each `l<i>` annotation."""
    body = text[: text.find("transform.named_sequence")]
    found = re.findall(r"\{(l\d+)\}", body)
    return [found.count(f"l{i}") for i in range(len(set(found)))]


CASES = [
    (rank, sizes, interchange)
    for rank in (1, 2, 3)
    for n in range(1, rank + 2)
    for sizes in itertools.product([0, 4], repeat=n)
    if any(sizes)
    for interchange in ([None, list(reversed(range(min(n, rank))))] if rank > 1 else [None])
]


@pytest.mark.parametrize(("rank", "sizes", "interchange"), CASES)
def test_fuse_loop_handles(
    rank: int, sizes: tuple[int, ...], interchange: list[int] | None, tmp_path: Path
) -> None:
    case = tmp_path / "case.mlir"
    case.write_text(_case(rank, sizes, interchange))
    ours = run_schedir(case, None)
    created = sum(1 for s in sizes[:rank] if s)
    requested = sum(1 for s in sizes if s)
    if created < requested:
        assert not ours.ok and NULL in ours.message, ours.message
        assert (
            ours.error_line is not None
            and "structured.fuse" in case.read_text().splitlines()[ours.error_line - 1]
        )
        return
    assert ours.ok, ours.message
    assert _annotations(ours.text) == [1] * requested
    upstream = subprocess.run(
        [iree_opt(), "--transform-interpreter", str(case)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert upstream.returncode == 0, upstream.stderr
    assert _annotations(upstream.stdout) == [1] * requested
