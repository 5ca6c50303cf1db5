"""Math transform extension (upstream MathTransformOps.td): pattern-set descriptors for
`transform.apply_patterns`.

`math.polynomial_approximation` replaces math functions by polynomial approximations
that vectorize (schedir: `math.exp` on f32; upstream's `enable_avx2` option, which picks
x86 intrinsics for rsqrt, is not accepted).

Given its pattern set by `schedir.transform.ops.math`.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.descriptors import descriptor

ApplyMathPolynomialApproximationOp = descriptor(
    "math.polynomial_approximation",
    "Replace math functions (exp) by polynomial approximations that vectorize.",
)

OPS: tuple[type[IRDLOperation], ...] = (ApplyMathPolynomialApproximationOp,)

__all__ = ["OPS"]
