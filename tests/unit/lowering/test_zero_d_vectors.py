"""0-d vectors (`vector<T>`) lower everywhere, and fully vectorized payloads with 0-d
tensors in and out compute what the reference computes.

Two families:

- every vector op that takes or makes a 0-d vector (broadcast, splat, extract / insert
  with no position, 0-d transfers (masked too), reductions, multi_reduction and contract
  to a scalar, shape_cast to and from 0-d, elementwise arith / math, constants, shuffle,
  bitcast, fma, from_elements / to_elements, create / constant masks) in a small kernel
  on tensors, compiled for the CPU and compared with numpy (the reference evaluator does
  not run vector IR);
- linalg payloads whose results or operands are 0-d tensors (full reductions of every
  kind, `linalg.reduce`, `linalg.dot`, 0-d elementwise ops, broadcasts of a 0-d tensor),
  vectorized whole (`structured.vectorize`, with vector sizes too, or
  `vectorize_children_and_apply_patterns`) and compared with `schedir.reference`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import ANY, run_and_check, schedule_module

# --- vector ops on 0-d vectors ---------------------------------------------------------------

Expected = Callable[[float, np.ndarray], float]

OPS: dict[str, tuple[str, Expected]] = {
    "elementwise": ("%r = arith.addf %a, %a : vector<f32>", lambda a, b: 2 * a),
    "broadcast_scalar": ("%r = vector.broadcast %s : f32 to vector<f32>", lambda a, b: a),
    "broadcast_0d_to_0d": ("%r = vector.broadcast %a : vector<f32> to vector<f32>", lambda a, b: a),
    "broadcast_0d_to_1d": (
        "%t = vector.broadcast %a : vector<f32> to vector<5xf32>\n"
        "%u = arith.mulf %t, %b5 : vector<5xf32>\n"
        "%q = vector.reduction <add>, %u : vector<5xf32> into f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: a * b.sum(),
    ),
    "broadcast_0d_to_2d": (
        "%t = vector.broadcast %a : vector<f32> to vector<3x5xf32>\n"
        "%u = vector.multi_reduction <add>, %t, %s [0, 1] : vector<3x5xf32> to f32\n"
        "%r = vector.broadcast %u : f32 to vector<f32>",
        lambda a, b: 16 * a,
    ),
    "splat": ("%r = vector.splat %s : vector<f32>", lambda a, b: a),
    "insert": (
        "%z = arith.constant dense<1.0> : vector<f32>\n"
        "%t = arith.addf %s, %s : f32\n"
        "%r = vector.insert %t, %z[] : f32 into vector<f32>",
        lambda a, b: 2 * a,
    ),
    "extract_dynamic": (
        "%e = vector.extract %b5[%c0] : f32 from vector<5xf32>\n"
        "%r = vector.broadcast %e : f32 to vector<f32>",
        lambda a, b: b[0],
    ),
    "reduction_with_acc": (
        "%q = vector.reduction <add>, %b5, %s : vector<5xf32> into f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: a + b.sum(),
    ),
    "reduction_of_0d": (
        "%q = vector.reduction <mul>, %a, %s : vector<f32> into f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: a * a,
    ),
    "multi_reduction_to_scalar": (
        "%q = vector.multi_reduction <maximumf>, %b5, %s [0] : vector<5xf32> to f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: max(a, b.max()),
    ),
    "contract_to_scalar": (
        "%q = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, "
        "affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = "
        '["reduction"], kind = #vector.kind<add>} %b5, %b5, %s : vector<5xf32>, '
        "vector<5xf32> into f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: a + (b * b).sum(),
    ),
    "shape_cast_to_0d": (
        "%one = vector.extract_strided_slice %b5 {offsets = [2], sizes = [1], strides = [1]}"
        " : vector<5xf32> to vector<1xf32>\n"
        "%c = vector.shape_cast %one : vector<1xf32> to vector<f32>\n"
        "%r = arith.addf %c, %a : vector<f32>",
        lambda a, b: a + b[2],
    ),
    "shape_cast_from_0d": (
        "%t = vector.shape_cast %a : vector<f32> to vector<1x1xf32>\n"
        "%u = vector.extract %t[0, 0] : f32 from vector<1x1xf32>\n"
        "%r = vector.broadcast %u : f32 to vector<f32>",
        lambda a, b: a,
    ),
    "math": ("%r = math.exp %a : vector<f32>", lambda a, b: float(np.exp(a))),
    "constant": (
        "%z = arith.constant dense<3.0> : vector<f32>\n%r = arith.mulf %a, %z : vector<f32>",
        lambda a, b: 3 * a,
    ),
    "compare_select": (
        "%z = arith.constant dense<3.0> : vector<f32>\n"
        "%c = arith.cmpf olt, %a, %z : vector<f32>\n"
        "%r = arith.select %c, %a, %z : vector<i1>, vector<f32>",
        lambda a, b: min(a, 3.0),
    ),
    "integer_casts": (
        "%t = arith.fptosi %a : vector<f32> to vector<i32>\n"
        "%u = arith.addi %t, %t : vector<i32>\n"
        "%r = arith.sitofp %u : vector<i32> to vector<f32>",
        lambda a, b: 2.0 * int(a),
    ),
    "fma": ("%r = vector.fma %a, %a, %a : vector<f32>", lambda a, b: a * a + a),
    "from_elements": ("%r = vector.from_elements %s : vector<f32>", lambda a, b: a),
    "to_elements": (
        "%e = vector.to_elements %a : vector<f32>\n%r = vector.broadcast %e : f32 to vector<f32>",
        lambda a, b: a,
    ),
    "transpose": ("%r = vector.transpose %a, [] : vector<f32> to vector<f32>", lambda a, b: a),
    "bitcast": (
        "%t = vector.bitcast %a : vector<f32> to vector<i32>\n"
        "%r = vector.bitcast %t : vector<i32> to vector<f32>",
        lambda a, b: a,
    ),
    "shuffle": (
        "%t = vector.shuffle %a, %a [0, 1] : vector<f32>, vector<f32>\n"
        "%q = vector.reduction <add>, %t : vector<2xf32> into f32\n"
        "%r = vector.broadcast %q : f32 to vector<f32>",
        lambda a, b: 2 * a,
    ),
    "create_mask": (
        "%c1 = arith.constant 1 : index\n"
        "%m = vector.create_mask %c1 : vector<i1>\n"
        "%z = arith.constant dense<3.0> : vector<f32>\n"
        "%r = arith.select %m, %a, %z : vector<i1>, vector<f32>",
        lambda a, b: a,
    ),
    "constant_mask_off": (
        "%m = vector.constant_mask [0] : vector<i1>\n"
        "%z = arith.constant dense<3.0> : vector<f32>\n"
        "%r = arith.select %m, %a, %z : vector<i1>, vector<f32>",
        lambda a, b: 3.0,
    ),
    "read_0d_at_index": (
        "%c3 = arith.constant 3 : index\n"
        "%r = vector.transfer_read %B[%c3], %p : tensor<5xf32>, vector<f32>",
        lambda a, b: b[3],
    ),
    "write_0d_at_index": (
        "%c3 = arith.constant 3 : index\n"
        "%w5 = vector.transfer_write %a, %B[%c3] : vector<f32>, tensor<5xf32>\n"
        "%r = vector.transfer_read %w5[%c3], %p : tensor<5xf32>, vector<f32>",
        lambda a, b: a,
    ),
    "masked_read_off": (
        "%c3 = arith.constant 3 : index\n"
        "%m = vector.create_mask %c0 : vector<1xi1>\n"
        "%r = vector.mask %m { vector.transfer_read %B[%c3], %s : tensor<5xf32>, vector<f32> }"
        " : vector<1xi1> -> vector<f32>",
        lambda a, b: a,
    ),
    "masked_read_on": (
        "%c3 = arith.constant 3 : index\n"
        "%c1 = arith.constant 1 : index\n"
        "%m = vector.create_mask %c1 : vector<1xi1>\n"
        "%r = vector.mask %m { vector.transfer_read %B[%c3], %s : tensor<5xf32>, vector<f32> }"
        " : vector<1xi1> -> vector<f32>",
        lambda a, b: b[3],
    ),
}


def _kernel(body: str) -> str:
    lines = "\n".join("  " + line for line in body.splitlines())
    return f"""func.func @k(%A: tensor<f32>, %B: tensor<5xf32>, %O: tensor<f32>) -> tensor<f32> {{
  %c0 = arith.constant 0 : index
  %p = ub.poison : f32
  %a = vector.transfer_read %A[], %p : tensor<f32>, vector<f32>
  %b5 = vector.transfer_read %B[%c0], %p : tensor<5xf32>, vector<5xf32>
  %s = vector.extract %a[] : f32 from vector<f32>
{lines}
  %w = vector.transfer_write %r, %O[] : vector<f32>, tensor<f32>
  return %w : tensor<f32>
}}"""


@pytest.mark.parametrize("name", sorted(OPS))
def test_zero_d_vector_op_lowers(name: str, recwarn: pytest.WarningsRecorder) -> None:
    body, expected = OPS[name]
    kernel = schedir.compile(_kernel(body))
    a = np.array(1.75, np.float32)
    b = np.array([1.5, -2.25, 0.5, 3.0, -1.25], np.float32)
    (out,) = kernel.run(a, b, np.array(0.0, np.float32), prefill_nan=True)
    np.testing.assert_allclose(out, expected(float(a), b.astype(np.float64)), rtol=1e-6)
    assert not recwarn.list, [str(w.message) for w in recwarn.list]


# --- linalg payloads with 0-d tensors, vectorized whole ---------------------------------------

FLOAT_KINDS = {
    "add": "arith.addf",
    "mul": "arith.mulf",
    "max": "arith.maximumf",
    "min": "arith.minimumf",
    "maxnum": "arith.maxnumf",
}
INT_KINDS = {
    "add": "arith.addi",
    "mul": "arith.muli",
    "max": "arith.maxsi",
    "min": "arith.minui",
    "xor": "arith.xori",
}


def _tensor(shape: list[int], t: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + t + ">"


def _dims(n: int) -> str:
    return ", ".join(f"d{i}" for i in range(n))


def full_reduction(shape: list[int], t: str, kind: str, pre: str) -> str:
    """A `linalg.generic` reducing every dim of its input into a 0-d init."""
    rank, src, dst = len(shape), _tensor(shape, t), f"tensor<{t}>"
    floating = t.startswith("f")
    combine = (FLOAT_KINDS if floating else INT_KINDS)[kind]
    head, x = "", "%x"
    if pre == "exp" and floating:
        head, x = f"      %p = math.exp %x : {t}\n", "%p"
    elif pre == "square":
        mul = "arith.mulf" if floating else "arith.muli"
        head, x = f"      %p = {mul} %x, %x : {t}\n", "%p"
    iterators = ", ".join(['"reduction"'] * rank)
    return f"""  func.func @red(%A: {src}, %C: {dst}) -> {dst} {{
    %r = linalg.generic {{indexing_maps = [affine_map<({_dims(rank)}) -> ({_dims(rank)})>, affine_map<({_dims(rank)}) -> ()>], iterator_types = [{iterators}]}}
        ins(%A : {src}) outs(%C : {dst}) {{
    ^bb0(%x: {t}, %o: {t}):
{head}      %s = {combine} {x}, %o : {t}
      linalg.yield %s : {t}
    }} -> {dst}
    return %r : {dst}
  }}"""


def reduce_all(shape: list[int], t: str, kind: str) -> str:
    """`linalg.reduce` over every dim into a 0-d init."""
    src, dst = _tensor(shape, t), f"tensor<{t}>"
    combine = (FLOAT_KINDS if t.startswith("f") else INT_KINDS)[kind]
    dims = ", ".join(str(i) for i in range(len(shape)))
    return f"""  func.func @red(%A: {src}, %C: {dst}) -> {dst} {{
    %r = linalg.reduce ins(%A : {src}) outs(%C : {dst}) dimensions = [{dims}]
      (%x: {t}, %o: {t}) {{
        %s = {combine} %x, %o : {t}
        linalg.yield %s : {t}
      }}
    return %r : {dst}
  }}"""


def dot(n: int, t: str, filled: bool) -> str:
    """`linalg.dot` into a 0-d argument, or into a fill of zero."""
    vec = f"tensor<{n}x{t}>"
    zero = "0.0" if t.startswith("f") else "0"
    init = "%C"
    args = f"%A: {vec}, %B: {vec}, %C: tensor<{t}>"
    fill = ""
    if filled:
        args = f"%A: {vec}, %B: {vec}"
        init = "%f"
        fill = (
            f"    %z = arith.constant {zero} : {t}\n"
            f"    %e = tensor.empty() : tensor<{t}>\n"
            f"    %f = linalg.fill ins(%z : {t}) outs(%e : tensor<{t}>) -> tensor<{t}>\n"
        )
    return f"""  func.func @dot({args}) -> tensor<{t}> {{
{fill}    %r = linalg.dot ins(%A, %B : {vec}, {vec}) outs({init} : tensor<{t}>) -> tensor<{t}>
    return %r : tensor<{t}>
  }}"""


def elementwise_0d(t: str) -> str:
    """A `linalg.generic` with no loops: 0-d operands, a 0-d init."""
    if t.startswith("f"):
        body = f"      %s = arith.mulf %x, %y : {t}\n      %u = arith.addf %s, %o : {t}\n"
    else:
        body = f"      %s = arith.muli %x, %y : {t}\n      %u = arith.subi %s, %o : {t}\n"
    z = f"tensor<{t}>"
    return f"""  func.func @ew(%A: {z}, %B: {z}, %C: {z}) -> {z} {{
    %r = linalg.generic {{indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}}
        ins(%A, %B : {z}, {z}) outs(%C : {z}) {{
    ^bb0(%x: {t}, %y: {t}, %o: {t}):
{body}      linalg.yield %u : {t}
    }} -> {z}
    return %r : {z}
  }}"""


def broadcast_add(shape: list[int], t: str) -> str:
    """An n-d input plus a 0-d one, broadcast over every dim."""
    rank, full = len(shape), _tensor(shape, t)
    add = "arith.addf" if t.startswith("f") else "arith.addi"
    iterators = ", ".join(['"parallel"'] * rank)
    return f"""  func.func @bc(%A: {full}, %s: tensor<{t}>, %C: {full}) -> {full} {{
    %r = linalg.generic {{indexing_maps = [affine_map<({_dims(rank)}) -> ({_dims(rank)})>, affine_map<({_dims(rank)}) -> ()>, affine_map<({_dims(rank)}) -> ({_dims(rank)})>], iterator_types = [{iterators}]}}
        ins(%A, %s : {full}, tensor<{t}>) outs(%C : {full}) {{
    ^bb0(%x: {t}, %y: {t}, %o: {t}):
      %u = {add} %x, %y : {t}
      linalg.yield %u : {t}
    }} -> {full}
    return %r : {full}
  }}"""


def linalg_broadcast(shape: list[int], t: str) -> str:
    """`linalg.broadcast` of a 0-d tensor to every dim."""
    full = _tensor(shape, t)
    dims = ", ".join(str(i) for i in range(len(shape)))
    return f"""  func.func @bc(%s: tensor<{t}>, %C: {full}) -> {full} {{
    %r = linalg.broadcast ins(%s : tensor<{t}>) outs(%C : {full}) dimensions = [{dims}]
    return %r : {full}
  }}"""


def _schedule(how: str, op: str, sizes: list[int]) -> str:
    match_op = f'    %g = transform.structured.match ops{{["{op}"]}} in %root : ({ANY}) -> {ANY}\n'
    if how == "vectorize":
        return match_op + f"    transform.structured.vectorize %g : {ANY}\n"
    if how == "masked":
        return match_op + f"    transform.structured.vectorize %g vector_sizes {sizes} : {ANY}\n"
    return (
        f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %v = transform.structured.vectorize_children_and_apply_patterns %f : ({ANY}) -> {ANY}\n"
    )


@st.composite
def zero_d_cases(draw: st.DrawFn) -> tuple[str, str]:
    """(payload, schedule lines): a payload with 0-d tensors and a whole-op vectorization."""
    t = draw(st.sampled_from(["f32", "f64", "i32"]))
    shape = draw(st.lists(st.sampled_from([1, 2, 3, 5, 7]), min_size=1, max_size=3))
    kinds = FLOAT_KINDS if t.startswith("f") else INT_KINDS
    kind = draw(st.sampled_from(sorted(kinds)))
    family = draw(
        st.sampled_from(["full", "reduce", "dot", "fill_dot", "elementwise", "bcast", "lbcast"])
    )
    if family == "full":
        pre = draw(st.sampled_from(["", "exp", "square"]))
        payload, op, loops = full_reduction(shape, t, kind, pre), "linalg.generic", shape
    elif family == "reduce":
        payload, op, loops = reduce_all(shape, t, kind), "linalg.reduce", shape
    elif family in ("dot", "fill_dot"):
        payload, op, loops = dot(shape[0], t, family == "fill_dot"), "linalg.dot", shape[:1]
    elif family == "elementwise":
        payload, op, loops = elementwise_0d(t), "linalg.generic", []
    elif family == "bcast":
        payload, op, loops = broadcast_add(shape, t), "linalg.generic", shape
    else:
        payload, op, loops = linalg_broadcast(shape, t), "linalg.broadcast", shape
    ways = ["vectorize", "children"] + (["masked"] if loops else [])
    how = draw(st.sampled_from(ways))
    extra = draw(st.lists(st.integers(0, 3), min_size=len(loops), max_size=len(loops)))
    sizes = [d + e for d, e in zip(loops, extra, strict=True)]
    return payload, _schedule(how, op, sizes)


@settings(max_examples=12, derandomize=True)
@given(zero_d_cases())
def test_vectorized_zero_d_payloads(case: tuple[str, str]) -> None:
    payload, schedule = case
    ir = run_and_check(schedule_module(payload, schedule), reduction=None)
    assert "vector." in ir


@pytest.mark.parametrize(
    "payload,op,sizes",
    [
        (full_reduction([7], "f32", "add", ""), "linalg.generic", [8]),
        (full_reduction([3, 5], "f64", "max", "exp"), "linalg.generic", [4, 8]),
        (full_reduction([2, 3, 5], "i32", "max", "square"), "linalg.generic", [3, 4, 5]),
        (reduce_all([5, 3], "f32", "mul"), "linalg.reduce", [5, 4]),
        (dot(9, "f32", True), "linalg.dot", [12]),
        (linalg_broadcast([1], "f64"), "linalg.broadcast", [1]),
        (linalg_broadcast([5, 7], "f32"), "linalg.broadcast", [8, 8]),
        (broadcast_add([9, 3, 1], "f32"), "linalg.generic", [9, 4, 2]),
    ],
)
@pytest.mark.parametrize("how", ["vectorize", "children", "masked"])
def test_vectorized_zero_d_payload_examples(
    payload: str, op: str, sizes: list[int], how: str
) -> None:
    """The cases that crashed, looped or were rejected: the 0-d splat, the fold loop on
    the broadcast read of a 0-d tensor, masked reductions to a scalar, masked writes."""
    run_and_check(schedule_module(payload, _schedule(how, op, sizes)), reduction=None)
