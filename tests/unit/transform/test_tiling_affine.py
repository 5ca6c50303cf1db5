"""The index arithmetic of tiling: composition, folding, dims vs symbols, semi-affine."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects.affine import ApplyOp, MaxOp, MinOp
from schedir.transform.rewrites.tiling.affine import (
    Aff,
    IndexBuilder,
    compose,
    constant_of,
    is_valid_symbol,
)


def _builder() -> tuple[IndexBuilder, Block]:
    """A builder at the end of a function taking one index argument (a valid symbol)."""
    body = Block(arg_types=[IndexType()])
    fn = func.FuncOp("f", ((IndexType(),), ()), Region(body))
    ModuleOp([fn])
    rewriter = PatternRewriter(InsertPoint.at_end(body))
    return IndexBuilder(rewriter, fn.location), body


def test_constants_fold_without_ops() -> None:
    b, body = _builder()
    assert b.apply(Aff.const(37) - 8 * 4) == 5
    assert b.min([Aff.const(37) - 32, Aff.const(8)]) == 5
    assert b.max([Aff.const(0), Aff.const(-3)]) == 0
    assert not list(body.ops)


def test_a_single_leaf_folds_to_the_value() -> None:
    b, body = _builder()
    n = body.args[0]
    assert b.apply(Aff.opaque(n) - 1 + 1) is n
    assert b.min([Aff.opaque(n), Aff.opaque(n)]) is n
    assert not list(body.ops)


def test_function_arguments_are_symbols() -> None:
    b, body = _builder()
    n = body.args[0]
    assert is_valid_symbol(n)
    size = b.min([Aff.opaque(n) - 8, Aff.const(16)])
    op = size.owner
    assert isinstance(op, MinOp)
    assert op.map.data.num_dims == 0 and op.map.data.num_symbols == 1
    assert op.map.data.results[1] == AffineExpr.constant(16)


def test_composition_through_affine_apply() -> None:
    b, body = _builder()
    n = body.args[0]
    times8 = b.apply(Aff.opaque(n) * 8)
    assert isinstance(times8.owner, ApplyOp)
    # (n * 8) + 3 composes into one map over n, not over the apply's result.
    plus3 = b.apply(compose(times8) + 3)
    assert isinstance(plus3.owner, ApplyOp)
    assert list(plus3.owner.operands) == [n]
    assert compose(plus3).expr.eval([2], []) == 19
    assert constant_of(b.constant(7)) == 7 and compose(b.constant(7)).constant == 7


def test_semi_affine_products_use_arith() -> None:
    b, body = _builder()
    n = body.args[0]
    product = b.mul(Aff.opaque(n), Aff.opaque(n))
    assert product.leaves[0].owner.name == "arith.muli"
    quotient = b.ceildiv(Aff.opaque(n), Aff.opaque(n))
    assert quotient.leaves[0].owner.name == "arith.ceildivsi"


def test_max_keeps_its_zero() -> None:
    b, body = _builder()
    n = body.args[0]
    value = b.max([Aff.const(0), Aff.opaque(n) - 4])
    assert isinstance(value.owner, MaxOp)
    assert value.owner.map.data.results[0] == AffineExpr.constant(0)
