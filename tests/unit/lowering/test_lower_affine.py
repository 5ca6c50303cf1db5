"""lower-affine keeps affine semantics (floor division, non-negative mod) on every sign."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

import schedir

PAYLOAD = """\
func.func @f(%i: index, %s: index) -> (index, index, index, index) {
  %a = affine.apply affine_map<(d0)[s0] -> (d0 mod 4 + d0 floordiv 3 - (d0 ceildiv 5) * 3 + s0)>(%i)[%s]
  %b = affine.max affine_map<(d0)[s0] -> (d0 - 7, s0, 2)>(%i)[%s]
  %c = affine.min affine_map<(d0) -> (d0 mod 3, -d0, 16)>(%i)
  %d = affine.apply affine_map<(d0)[s0] -> (d0 * 5 + s0 * 7 - 3)>(%i)[%s]
  return %a, %b, %c, %d : index, index, index, index
}
"""


@settings(max_examples=60)
@given(st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_affine_ops_match_the_reference(i: int, s: int) -> None:
    kernel = _kernel()
    got = [int(v) for v in kernel(i, s)]
    want = [int(v) for v in schedir.reference.evaluate(PAYLOAD, None, [i, s])]
    assert got == want


@cache
def _kernel() -> schedir.Kernel:
    """Compiled once for all examples."""
    return schedir.compile(PAYLOAD)
