"""`simplify_bounded_min_max` (`transform.affine.simplify_bounded_affine_ops`) is sound.

Hypothesis draws `affine.min` / `affine.max` maps (linear terms with floordiv, ceildiv and
mod sub-terms, semi-affine products and divisions by symbolic terms, repeated operands) over bounded and constant operands; whenever the op is
replaced, the replacement must equal the op at every point of the bounds' box. A few fixed
cases check that the provable simplifications do happen.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, test
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Block, Region, SSAValue
from xdsl.ir.affine import AffineBinaryOpKind, AffineExpr, AffineMap

from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.dialects.semi_affine import binary
from schedir.transform.rewrites.bounded_min_max import simplify_bounded_min_max

BOUNDS: list[tuple[int, int]] = [(0, 4), (-3, 2)]


@st.composite
def exprs(draw: st.DrawFn, depth: int = 2) -> AffineExpr:
    leaf = st.one_of(
        st.integers(-6, 6).map(AffineExpr.constant),
        st.integers(0, 2).map(AffineExpr.symbol),
    )
    if depth == 0:
        return draw(leaf)
    kinds = ["leaf", "add", "mul", "floordiv", "ceildiv", "mod", "semi-mul", "semi-div"]
    kind = draw(st.sampled_from(kinds))
    if kind == "leaf":
        return draw(leaf)
    sub = draw(exprs(depth - 1))
    if kind == "add":
        return sub + draw(exprs(depth - 1))
    s0, s1, s2 = (AffineExpr.symbol(i) for i in range(3))
    if kind == "semi-mul":
        # A product of symbolic terms (semi-affine).
        factor = draw(st.sampled_from([s1, s2, s0 // 2, s0 + s1]))
        return binary(AffineBinaryOpKind.Mul, sub, factor)
    if kind == "semi-div":
        # floordiv / ceildiv / mod by a symbolic term that is positive on the box.
        divisor = draw(
            st.sampled_from([s0 + 1, s1 + 4, binary(AffineBinaryOpKind.Mul, s2, s2) + 1])
        )
        div_kind = draw(
            st.sampled_from(
                [AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv, AffineBinaryOpKind.Mod]
            )
        )
        return binary(div_kind, sub, divisor)
    c = draw(st.integers(-3, 3).filter(lambda v: v != 0))
    if kind == "mul":
        return sub * c
    c = abs(c)
    return {"floordiv": sub.__floordiv__, "ceildiv": sub.ceil_div, "mod": sub.__mod__}[kind](c)


def build(
    is_min: bool, results: list[AffineExpr], constant: int
) -> tuple[ModuleOp, list[SSAValue], test.TestOp]:
    block = Block()
    a = test.TestOp(result_types=[IndexType()])
    b = test.TestOp(result_types=[IndexType()])
    c = arith.ConstantOp(IntegerAttr(constant, IndexType()))
    amap = AffineMapAttr(AffineMap(0, 3, tuple(results)))
    operands: list[SSAValue] = [a.results[0], b.results[0], c.result]
    op = MinOp(operands, amap) if is_min else MaxOp(operands, amap)
    user = test.TestOp([op.results[0]])
    block.add_ops([a, b, c, op, user])
    return ModuleOp(Region(block)), operands, user


def value_at(v: SSAValue, point: dict[SSAValue, int]) -> int:
    if v in point:
        return point[v]
    owner = v.owner
    if isinstance(owner, arith.ConstantOp):
        value = owner.value
        assert isinstance(value, IntegerAttr)
        return value.value.data
    assert isinstance(owner, ApplyOp | MinOp | MaxOp)
    args = [value_at(o, point) for o in owner.operands]
    m = owner.map.data
    got = m.eval(args[: m.num_dims], args[m.num_dims :])
    if isinstance(owner, MinOp):
        return min(got)
    if isinstance(owner, MaxOp):
        return max(got)
    return got[0]


@settings(max_examples=300)
@given(
    is_min=st.booleans(),
    results=st.lists(exprs(), min_size=1, max_size=4),
    constant=st.integers(-5, 5),
)
def test_replacement_is_exact_on_the_box(
    is_min: bool, results: list[AffineExpr], constant: int
) -> None:
    module, operands, user = build(is_min, results, constant)
    a, b, _ = operands
    amap = AffineMap(0, 3, tuple(results))
    reference = {}
    for x, y in itertools.product(
        range(BOUNDS[0][0], BOUNDS[0][1] + 1), range(BOUNDS[1][0], BOUNDS[1][1] + 1)
    ):
        got = amap.eval([], [x, y, constant])
        reference[(x, y)] = min(got) if is_min else max(got)
    simplify_bounded_min_max(
        [op for op in module.walk() if isinstance(op, MinOp | MaxOp)], {a: BOUNDS[0], b: BOUNDS[1]}
    )
    module.verify()
    (value,) = user.operands
    for (x, y), expected in reference.items():
        assert value_at(value, {a: x, b: y}) == expected


def test_provable_min_and_max_become_constants() -> None:
    s0 = AffineExpr.symbol(0)
    module, operands, user = build(True, [AffineExpr.constant(50), s0 * -1 + 100], 0)
    simplify_bounded_min_max(
        [op for op in module.walk() if isinstance(op, MinOp)], {operands[0]: (0, 19)}
    )
    assert isinstance(user.operands[0].owner, arith.ConstantOp)


def test_unbounded_operand_is_left_alone() -> None:
    s0 = AffineExpr.symbol(0)
    module, _, user = build(True, [AffineExpr.constant(50), s0 * -1 + 100], 0)
    simplify_bounded_min_max([op for op in module.walk() if isinstance(op, MinOp)], {})
    assert isinstance(user.operands[0].owner, MinOp)


def test_semi_affine_factor_of_one_value_is_that_constant() -> None:
    # s1 in [0, 30], s0 = 32: min(s0 - s1 * (s0 ceildiv 32), s0 ceildiv 32) is 1.
    s0, s1 = AffineExpr.symbol(0), AffineExpr.symbol(1)
    ceil = binary(AffineBinaryOpKind.CeilDiv, s0, AffineExpr.constant(32))
    first = s0 - binary(AffineBinaryOpKind.Mul, s1, ceil)
    module, operands, user = build(True, [first, ceil], 0)
    simplify_bounded_min_max(
        [op for op in module.walk() if isinstance(op, MinOp)],
        {operands[0]: (32, 32), operands[1]: (0, 30)},
    )
    (value,) = user.operands
    assert not isinstance(value.owner, MinOp)
    a, b, _ = operands
    assert all(value_at(value, {a: 32, b: y}) == 1 for y in range(31))


def test_floordiv_term_is_bounded() -> None:
    # s0 in [0, 31]: s0 floordiv 8 <= 3, so min(s0 floordiv 8, 4) is the floordiv.
    s0 = AffineExpr.symbol(0)
    module, operands, user = build(True, [s0 // 8, AffineExpr.constant(4)], 0)
    simplify_bounded_min_max(
        [op for op in module.walk() if isinstance(op, MinOp)], {operands[0]: (0, 31)}
    )
    owner = user.operands[0].owner
    assert isinstance(owner, ApplyOp)
    assert len(owner.map.data.results) == 1
