"""One-shot bufferization of `scf.while` on tensors (an open class of issue 14).

Upstream bufferizes `scf.while` through its iteration arguments; schedir rejected it. Now
every tensor that keeps its position through the loop is carried by one buffer (the init's,
or a copy when the init is read afterwards), as an `scf.for` iteration argument: what the
condition forwards and what the body yields is copied into it when it is another buffer,
through a temporary when it may overlap another carried buffer (swapped tensors). The
variants below (bodies that update in place or build a new tensor, conditions that read the
tensor, an init read after the loop, swapped tensors, with and without function
boundaries) run at odd sizes against the reference; a while that moves a tensor to another
type is a diagnostic.
"""

from __future__ import annotations

import pytest

import schedir
from schedir.diagnostics import SchedirError
from tests.helpers import one_shot_bufferize, run_and_check, schedule_module


def _elementwise(
    t: str, ins: list[str], dst: str, out: str, args: str, body: list[str], result: str
) -> list[str]:
    """`dst = linalg.generic` over 1-d `t`: identity maps, `body` (lines) yielding `result`."""
    maps = ", ".join(["affine_map<(d0) -> (d0)>"] * (len(ins) + 1))
    return [
        f"      {dst} = linalg.generic {{indexing_maps = [{maps}], "
        f'iterator_types = ["parallel"]}} ins({", ".join(ins)} : {", ".join([t] * len(ins))}) '
        f"outs({out} : {t}) {{",
        f"      ^bb0({args}):",
        *(f"        {line}" for line in body),
        f"        linalg.yield {result} : f32",
        f"      }} -> {t}",
    ]


def _step(t: str, src: str, dst: str, out: str, op: str) -> list[str]:
    """`dst = op(src, src) * 0.5` elementwise into `out`."""
    body = [
        f"%p2 = {op} %p, %p : f32",
        "%h = arith.constant 0.5 : f32",
        "%p3 = arith.mulf %p2, %h : f32",
    ]
    return _elementwise(t, [src], dst, out, "%p: f32, %q: f32", body, "%p3")


def _binary(t: str, lhs: str, rhs: str, dst: str, op: str) -> list[str]:
    """`dst = op(lhs, rhs)` elementwise, written into `rhs` (its destination)."""
    body = [f"%v = {op} %l, %r0 : f32"]
    return _elementwise(t, [lhs, rhs], dst, rhs, "%l: f32, %r0: f32, %o: f32", body, "%v")


def payload(n: int, trips: int, body: str, condition: str, read_after: bool, swap: bool) -> str:
    """A loop over `%a` (and `%b`): `body` "in_place" (tensor.insert), "new" (a generic
    into a tensor.empty) or "dest" (a generic into the carried tensor); `condition`
    "counter" or "contents" (also stops when element 0 exceeds 1e6)."""
    t = f"tensor<{n}xf32>"
    lines = [
        f"  func.func @f(%a: {t}, %b: {t}) -> ({t}, {t}, {t}) {{",
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        f"    %cn = arith.constant {trips} : index",
        f"    %r:3 = scf.while (%i = %c0, %x = %a, %y = %b) : (index, {t}, {t}) -> (index, {t}, {t}) {{",
        "      %lt = arith.cmpi slt, %i, %cn : index",
    ]
    if condition == "contents":
        lines += [
            f"      %x0 = tensor.extract %x[%c0] : {t}",
            "      %big = arith.constant 1.0e6 : f32",
            "      %small = arith.cmpf olt, %x0, %big : f32",
            "      %go = arith.andi %lt, %small : i1",
        ]
    else:
        lines.append("      %go = arith.andi %lt, %lt : i1")
    lines += [
        f"      scf.condition(%go) %i, %x, %y : index, {t}, {t}",
        "    } do {",
        f"    ^bb0(%i2: index, %x2: {t}, %y2: {t}):",
    ]
    if body == "in_place":
        lines += [
            f"      %e = tensor.extract %x2[%c0] : {t}",
            f"      %f = tensor.extract %y2[%c1] : {t}",
            "      %g = arith.addf %e, %f : f32",
            f"      %x3 = tensor.insert %g into %x2[%c0] : {t}",
            f"      %y3 = tensor.insert %e into %y2[%c1] : {t}",
        ]
    elif body == "new":
        lines.append(f"      %em = tensor.empty() : {t}")
        lines += _step(t, "%x2", "%x3", "%em", "arith.addf")
        lines += _binary(t, "%x2", "%y2", "%y3", "arith.addf")
    else:
        lines += _step(t, "%y2", "%x3", "%x2", "arith.mulf")
        lines += _binary(t, "%y2", "%x2", "%y3", "arith.subf")
    yielded = "%y3, %x3" if swap else "%x3, %y3"
    lines += [
        "      %i3 = arith.addi %i2, %c1 : index",
        f"      scf.yield %i3, {yielded} : index, {t}, {t}",
        "    }",
    ]
    third = "%a" if read_after else "%r#2"
    lines += [f"    return %r#1, %r#2, {third} : {t}, {t}, {t}", "  }"]
    return "\n".join(lines)


@pytest.mark.parametrize("body", ["in_place", "new", "dest"])
@pytest.mark.parametrize("condition", ["counter", "contents"])
@pytest.mark.parametrize(
    ("n", "trips", "read_after", "swap", "boundaries"),
    [
        (5, 3, False, False, True),
        (7, 4, True, False, True),
        (3, 5, False, True, True),
        (9, 2, True, True, False),
        (2, 0, True, False, True),
    ],
)
def test_while_on_tensors_bufferizes_and_computes_the_reference(
    body: str, condition: str, n: int, trips: int, read_after: bool, swap: bool, boundaries: bool
) -> None:
    text = schedule_module(
        payload(n, trips, body, condition, read_after, swap),
        one_shot_bufferize(boundaries=boundaries),
        consumed=True,
    )
    ir = run_and_check(text)
    loop_lines = [ln for ln in ir.splitlines() if "scf.while" in ln or "scf.condition" in ln]
    assert loop_lines and not any("tensor<" in ln for ln in loop_lines), ir


def test_a_while_moving_a_tensor_to_another_type_is_a_diagnostic() -> None:
    loop = """  func.func @f(%a: tensor<4xf32>) -> tensor<?xf32> {
    %c0 = arith.constant 0 : index
    %r = scf.while (%x = %a) : (tensor<4xf32>) -> tensor<?xf32> {
      %d = tensor.cast %x : tensor<4xf32> to tensor<?xf32>
      %f = arith.constant false
      scf.condition(%f) %d : tensor<?xf32>
    } do {
    ^bb0(%y: tensor<?xf32>):
      %s = tensor.cast %y : tensor<?xf32> to tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    return %r : tensor<?xf32>
  }"""
    with pytest.raises(SchedirError) as info:
        schedir.compile(schedule_module(loop, one_shot_bufferize(boundaries=True), consumed=True))
    assert "'scf.while' on tensors is not supported" in info.value.message
    assert info.value.location is not None and info.value.location.line == 4
