"""Division by a reciprocal: the payload algorithm of
`transform.schedir.gpu.divide_by_reciprocal`.

An IEEE division (`div.rn.f32`) is a dozen instructions on NVIDIA GPUs (a reciprocal
approximation, Newton steps, a check for the slow path); a multiplication is one. Where
many elements are divided by one value (softmax: every element of a row by the row's sum)
the division of each by d can be a multiplication by 1/d, computed once:

    %q = arith.divf %x, %d : f32
    // ->
    %one = arith.constant 1.0 : f32
    %r = arith.divf %one, %d : f32
    %q = arith.mulf %x, %r : f32

inside the body of a structured op, so that once vectorized and unrolled, every element's
reciprocal is the same op on the same divisor, which CSE merges. The result is not the
correctly rounded quotient: x * rn(1/d) differs from x / d by at most about 1.5 ulp (a
relative error below 2^-23 + 2^-24) while 1/d is a normal float (|d| below 2^126 and not
subnormal); a subnormal divisor makes 1/d infinite. A schedule applies it where that is so
by construction and the reference's tolerance admits the error (see the op's doc).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, FloatAttr
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import arith
from schedir.dialects.linalg.interface import is_structured


class ReciprocalRewriteError(Exception):
    """The target is not an op this rewrite handles (a silenceable failure)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def divide_by_reciprocal(rewriter: PatternRewriter, op: Operation) -> int:
    """Rewrite each scalar `arith.divf` of the body of the structured op `op` into a
    multiplication by the divisor's reciprocal (see the module docstring), the fastmath
    flags kept on both; the number rewritten."""
    if not is_structured(op) or not op.regions or not op.regions[0].blocks:
        raise ReciprocalRewriteError("expected a structured op with a body")
    body = op.regions[0].block
    count = 0
    for div in [o for o in body.ops if isinstance(o, arith.DivfOp)]:
        float_type = div.result.type
        if not isinstance(float_type, AnyFloat):
            continue
        rewriter.insertion_point = InsertPoint.before(div)
        one = rewriter.insert(arith.ConstantOp(FloatAttr(1.0, float_type)))
        reciprocal = rewriter.insert(arith.DivfOp(one.results[0], div.rhs, div.fastmath))
        product = arith.MulfOp(div.lhs, reciprocal.results[0], div.fastmath)
        rewriter.replace(div, product)
        count += 1
    return count


__all__ = ["ReciprocalRewriteError", "divide_by_reciprocal"]
