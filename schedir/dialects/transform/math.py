"""Math transform extension (upstream MathTransformOps.td): pattern-set descriptors for
`transform.apply_patterns`.

`math.polynomial_approximation` replaces math functions by polynomial approximations
that vectorize (schedir: `math.exp` on f32; upstream's `enable_avx2` option, which picks
x86 intrinsics for rsqrt, is not accepted).
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.patterns import Option, make_descriptors

_DESCRIPTORS: tuple[tuple[str, str, tuple[Option, ...]], ...] = (
    (
        "math.polynomial_approximation",
        "Replace math functions (exp) by polynomial approximations that vectorize.",
        (),
    ),
)

OPS: tuple[type[IRDLOperation], ...] = make_descriptors(_DESCRIPTORS)

__all__ = ["OPS"]
