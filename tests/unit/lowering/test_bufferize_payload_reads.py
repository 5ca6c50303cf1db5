"""Tensors read inside a structured op's payload bufferize to loads (a fuzz class).

A `tensor.extract` in a `linalg.generic` body of a tensor defined outside the op (a
function argument, another op's result, a value later overwritten in place) was left in
the body: the op's region moved to the buffer op unchanged, so a `bufferization.to_tensor`
of the argument stayed behind and the LLVM translation refused it. The analysis already
counted those extracts as reads of the op (an in-place write of the same buffer after the
op must not clobber what it reads); the rewrite now turns them into `memref.load`s. Each
variant runs at odd sizes with and without function boundaries, against the reference.
"""

from __future__ import annotations

import pytest

from tests.helpers import one_shot_bufferize, run_and_check, schedule_module

_BODY = """
  ^bb0(%x: f32, %y: f32):
    %i = linalg.index 0 : index
    %c{k} = arith.constant {shift} : index
    %j = arith.addi %i, %c{k} : index
    %e = tensor.extract {table}[%j] : tensor<{m}xf32>
    {extra}
    linalg.yield %s : f32
"""


def payload(n: int, shift: int, source: str, nested: bool) -> str:
    """`r[i] = a[i] + table[i + shift]` where `table` is `source`:
    "arg" (a function argument), "computed" (a generic's result), "overwritten" (an
    argument that a fill writes after the read, in place when the boundaries allow it)."""
    m = n + shift
    t, tm = f"tensor<{n}xf32>", f"tensor<{m}xf32>"
    ew = '{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}'
    lines = [f"  func.func @f(%a: {t}, %t: {tm}, %o: {t}) -> ({t}, {tm}) {{"]
    table = "%t"
    if source == "computed":
        lines += [
            f"    %e0 = tensor.empty() : {tm}",
            f"    %tt = linalg.generic {ew} ins(%t : {tm}) outs(%e0 : {tm}) {{",
            "    ^bb0(%p: f32, %q: f32):",
            "      %p2 = arith.mulf %p, %p : f32",
            "      linalg.yield %p2 : f32",
            f"    }} -> {tm}",
        ]
        table = "%tt"
    if nested:
        # The read sits in an scf.if inside the body (a region of a region).
        extra = (
            "%z = arith.constant 0.0 : f32\n"
            "    %pos = arith.cmpf ogt, %x, %z : f32\n"
            "    %s = scf.if %pos -> (f32) {\n"
            f"      %e2 = tensor.extract {table}[%i] : tensor<{m}xf32>\n"
            "      %s1 = arith.addf %x, %e2 : f32\n"
            "      scf.yield %s1 : f32\n"
            "    } else {\n"
            "      %s2 = arith.addf %x, %e : f32\n"
            "      scf.yield %s2 : f32\n"
            "    }"
        )
    else:
        extra = "%s = arith.addf %x, %e : f32"
    body = _BODY.format(k=0, shift=shift, table=table, m=m, extra=extra)
    lines += [f"    %r = linalg.generic {ew} ins(%a : {t}) outs(%o : {t}) {{{body}    }} -> {t}"]
    second = table
    if source == "overwritten":
        lines += [
            "    %one = arith.constant 1.5 : f32",
            f"    %w = linalg.fill ins(%one : f32) outs(%t : {tm}) -> {tm}",
        ]
        second = "%w"
    lines += [f"    return %r, {second} : {t}, {tm}", "  }"]
    return "\n".join(lines)


@pytest.mark.parametrize("source", ["arg", "computed", "overwritten"])
@pytest.mark.parametrize("boundaries", [True, False])
@pytest.mark.parametrize(("n", "shift", "nested"), [(5, 2, False), (13, 1, True), (1, 6, False)])
def test_extract_in_payload_reads_the_right_buffer(
    source: str, boundaries: bool, n: int, shift: int, nested: bool
) -> None:
    text = schedule_module(
        payload(n, shift, source, nested), one_shot_bufferize(boundaries=boundaries), consumed=True
    )
    ir = run_and_check(text)
    assert "tensor.extract " not in ir, ir
    if boundaries:  # without them, to_tensor marks the function boundary, as upstream's
        assert "bufferization.to_tensor" not in ir, ir
