"""`apply_patterns.linalg.fold_add_into_dest`: a `linalg.add` of a zero-initialized
contraction and another value becomes the contraction accumulating into that value, under
upstream's conditions, and keeps the payload's results (`schedir.reference` before and
after, odd sizes, non-zero inputs).

`linalg.add` is only built in Python (neither schedir's parser nor the installed upstream
one reads it any more), so each payload is written with a `linalg.generic` marked `{add}`
that the test swaps for xDSL's `linalg.add`.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Operation

from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.linalg import GenericOp
from schedir.dialects.syntax import parse_module
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.fold_add_into_dest import fold_add_into_dest_patterns

ADD_BODY = """ {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> !c"""


def _maps(rank: int) -> str:
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    return f"indexing_maps = [{identity}, {identity}, {identity}]"


def add(lhs: str, rhs: str, init: str) -> str:
    """A generic add of `lhs` and `rhs` into `init` (2-d `!c`), to become a linalg.add."""
    iterators = 'iterator_types = ["parallel", "parallel"], add'
    return (
        f"linalg.generic {{{_maps(2)}, {iterators}}} ins({lhs}, {rhs} : !c, !c) "
        f"outs({init} : !c)" + ADD_BODY
    )


def payload(body: str, m: int, n: int, k: int) -> str:
    """A function @f(%A: MxK, %B: KxN, %D: MxN) -> MxN with `body` (using `!c` for MxN)."""
    text = f"""func.func @f(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %D: !c) -> !c {{
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : !c
    %z = linalg.fill ins(%zero : f32) outs(%e : !c) -> !c
{body}
  }}"""
    return text.replace("!c", f"tensor<{m}x{n}xf32>").replace(
        "!ab", f"tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>"
    )


def build(text: str) -> ModuleOp:
    """Parse `text` and swap each generic marked `{add}` for a `linalg.add`."""
    module = parse_module(text, "<test>", ctx=get_context())
    swapped = 0
    for op in list(module.walk()):
        if isinstance(op, GenericOp) and "add" in op.attributes:
            new = xlinalg.AddOp(list(op.inputs), list(op.outputs), [r.type for r in op.results])
            parent = op.parent
            assert parent is not None
            parent.insert_op_before(new, op)
            op.results[0].replace_all_uses_with(new.results[0])
            parent.erase_op(op)
            swapped += 1
    assert swapped, "no generic marked {add}"
    module.verify()
    return module


def fold(module: ModuleOp) -> ModuleOp:
    """The module after the pattern set (on a clone)."""
    folded = module.clone()
    apply_patterns_greedily(folded, fold_add_into_dest_patterns())
    folded.verify()
    return folded


def ops_of(module: ModuleOp, cls: type[Operation]) -> list[Operation]:
    return [op for op in module.walk() if isinstance(op, cls)]


def check_same_results(before: ModuleOp, after: ModuleOp, m: int, n: int, k: int) -> None:
    rng = np.random.default_rng(m * 100 + n * 10 + k)

    def nonzero(*shape: int) -> np.ndarray:
        values = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
        return values.astype(np.float32)

    inputs = [nonzero(m, k), nonzero(k, n), nonzero(m, n)]
    want = reference.evaluate(before, "f", inputs)
    got = reference.evaluate(after, "f", inputs)
    for w, g in zip(want, got, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)


FOLDS = {
    # The contraction's result is the first summand, the other a function argument.
    "matmul_plus_arg": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %r = ADD(%c, %D, %e)
    return %r : !c""",
    # The contraction is the second summand.
    "arg_plus_matmul": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %r = ADD(%D, %c, %e)
    return %r : !c""",
    # Two zero-initialized matmuls: the second accumulates into the first.
    "two_matmuls": """    %c1 = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %z2 = linalg.fill ins(%zero : f32) outs(%e : !c) -> !c
    %c2 = linalg.matmul ins(%A, %B : !ab) outs(%z2 : !c) -> !c
    %r = ADD(%c1, %c2, %e)
    return %r : !c""",
    # A zero through a copy of a zero fill.
    "copy_of_zero": """    %zc = linalg.copy ins(%z : !c) outs(%e : !c) -> !c
    %c = linalg.matmul ins(%A, %B : !ab) outs(%zc : !c) -> !c
    %r = ADD(%c, %D, %e)
    return %r : !c""",
}

KEEPS = {
    # The destination is not zero.
    "nonzero_dest": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%D : !c) -> !c
    %r = ADD(%c, %D, %e)
    return %r : !c""",
    # The contraction's result has another user.
    "two_users": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %r = ADD(%c, %D, %e)
    %r2 = ADD(%r, %c, %e)
    return %r2 : !c""",
    # Both summands are the same contraction: neither dominates the other.
    "self_sum": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %r = ADD(%c, %c, %e)
    return %r : !c""",
    # The other summand is defined after the contraction.
    "late_summand": """    %c = linalg.matmul ins(%A, %B : !ab) outs(%z : !c) -> !c
    %late = linalg.copy ins(%D : !c) outs(%e : !c) -> !c
    %r = ADD(%c, %late, %e)
    return %r : !c""",
    # Not a contraction (an elementwise generic).
    "not_contraction": """    %c = linalg.copy ins(%D : !c) outs(%z : !c) -> !c
    %r = ADD(%c, %D, %e)
    return %r : !c""",
}


def _expand(body: str) -> str:
    out = []
    for line in body.splitlines():
        if "ADD(" in line:
            head, args = line.split("ADD(")
            lhs, rhs, init = (a.strip() for a in args.rstrip(")").split(","))
            line = head + add(lhs, rhs, init)
        out.append(line)
    return "\n".join(out)


@pytest.mark.parametrize("name", sorted(FOLDS))
def test_folds(name: str) -> None:
    m, n, k = 5, 3, 7
    before = build(payload(_expand(FOLDS[name]), m, n, k))
    after = fold(before)
    assert not ops_of(after, xlinalg.AddOp), name
    check_same_results(before, after, m, n, k)


@pytest.mark.parametrize("name", sorted(KEEPS))
def test_keeps(name: str) -> None:
    before = build(payload(_expand(KEEPS[name]), 5, 3, 7))
    after = fold(before)
    assert len(ops_of(after, xlinalg.AddOp)) == len(ops_of(before, xlinalg.AddOp)), name


def test_generic_add_is_left_alone() -> None:
    """As upstream's interpreter: only linalg.add matches, not a generic that adds."""
    text = payload(_expand(FOLDS["matmul_plus_arg"]), 5, 3, 7).replace(", add}", "}")
    module = parse_module(text, "<test>", ctx=get_context())
    after = fold(module)
    assert len(ops_of(after, GenericOp)) == 1
    assert str(after) == str(module)


def test_accumulating_into_a_non_projection_is_kept() -> None:
    """A contraction whose destination map is not an ordered projection keeps its add."""
    body = """    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : !ab) outs(%z : !c) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %o, %p : f32
      linalg.yield %s : f32
    } -> !c
    %r = ADD(%c, %D, %e)
    return %r : !c"""
    before = build(payload(_expand(body), 4, 4, 3))
    assert len(ops_of(fold(before), xlinalg.AddOp)) == 1


@settings(max_examples=8)
@given(
    m=st.integers(1, 9),
    n=st.integers(1, 9),
    k=st.integers(1, 9),
    name=st.sampled_from(sorted(FOLDS)),
)
def test_folds_keep_results(m: int, n: int, k: int, name: str) -> None:
    before = build(payload(_expand(FOLDS[name]), m, n, k))
    after = fold(before)
    assert not ops_of(after, xlinalg.AddOp)
    assert isinstance(next(iter(before.walk())), ModuleOp)
    assert ops_of(after, func.FuncOp)
    check_same_results(before, after, m, n, k)
