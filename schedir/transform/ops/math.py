"""The pattern set of the math descriptor (upstream's MathTransformOps.cpp
`populatePatterns`): `polynomial_approximation`, from `rewrites.patterns.math`, with the
folds of the vector ops it creates.
"""

from __future__ import annotations

from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.math import ApplyMathPolynomialApproximationOp
from schedir.transform.interface import populates
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.patterns.math import polynomial_approximation_patterns
from schedir.transform.rewrites.vector.folders import with_folds


@populates(ApplyMathPolynomialApproximationOp)
def polynomial_approximation(op: Descriptor) -> PatternSet:
    """Replace math functions (exp) by polynomial approximations that vectorize."""
    return with_folds(polynomial_approximation_patterns())
