"""The pattern sets of the `transform.apply_patterns.math.*` descriptors.

`math.polynomial_approximation` (upstream's `populatePolynomialApproximateExpPatterns`
family, PolynomialApproximation.cpp) rewrites `math.exp` on f32 scalars and vectors into
arithmetic that vectorizes: no libm call per lane, so a vectorized exp runs at the speed of
the surrounding vector code. schedir approximates `exp` only; other math ops are left for
convert-math-to-llvm as upstream leaves ops it has no approximation for.

    transform.apply_patterns to %f {
      transform.apply_patterns.math.polynomial_approximation
    } : !transform.any_op

Before:

    %e = math.exp %x : vector<16xf32>

After (Cephes' expf, as upstream): x = k ln2 + r with k = floor(x log2(e) + 1/2) and r
reduced in two steps (ln2 split in a high and a low part), exp(r) by a degree-6 polynomial
(<= 1 ulp on [-ln2/2, ln2/2]), then the result scaled by 2^k in two halves so that
results in the subnormal range and overflow to +inf come out of the multiplications
themselves. NaN stays NaN (the clamps propagate it), +inf gives +inf, -inf gives 0.
"""

from __future__ import annotations

import struct

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    VectorType,
    f32,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector import constant

_LOG2E = 1.44269504088896341
_LN2_HI = 0.693359375
_LN2_LO = -2.12194440e-4
_EXP_POLY = (
    1.9875691500e-4,
    1.3981999507e-3,
    8.3334519073e-3,
    4.1665795894e-2,
    1.6666665459e-1,
    5.0000001201e-1,
)
"""Cephes' expf coefficients, highest degree first (the terms of degree 1 and 0 are
added exactly: exp(r) ~ 1 + r + r^2 P(r))."""
_X_MIN = -104.0
"""exp(-104) is below half the smallest f32 subnormal: anything lower gives 0."""
_X_MAX = 89.0
"""exp(89) overflows f32: anything higher gives +inf."""


def _f32(value: float) -> float:
    """`value` rounded to f32 (the constants are f32 attributes)."""
    return struct.unpack("f", struct.pack("f", value))[0]


class _Builder:
    """Emits elementwise arith/math ops of one shape before `at`: f32 scalars for shape
    (), vectors of f32 otherwise."""

    def __init__(self, rw: CanonRewriter, at: Operation, shape: tuple[int, ...]):
        self.rw = rw
        self.at = at
        self.ftype: Attribute = VectorType(f32, shape) if shape else f32
        self.itype: Attribute = VectorType(i32, shape) if shape else i32

    def emit(self, op: Operation) -> SSAValue:
        return self.rw.create(op, self.at).results[0]

    def const(self, value: float) -> SSAValue:
        attr: Attribute = FloatAttr(_f32(value), f32)
        if isinstance(self.ftype, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(self.ftype, [_f32(value)])  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here
        return constant(self.rw, attr, self.ftype, self.at)

    def iconst(self, value: int) -> SSAValue:
        attr: Attribute = IntegerAttr(value, i32)
        if isinstance(self.itype, VectorType):
            attr = DenseIntOrFPElementsAttr.from_list(self.itype, [value])  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here
        return constant(self.rw, attr, self.itype, self.at)

    def binary(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        return self.emit(cls.create(operands=[a, b], result_types=[a.type]))

    def fma(self, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        return self.emit(math.FmaOp(a, b, c))

    def cast(self, cls: type[Operation], a: SSAValue, to: Attribute) -> SSAValue:
        return self.emit(cls.create(operands=[a], result_types=[to]))


def _f32_shape(t: Attribute) -> tuple[int, ...] | None:
    """() for f32, the shape of a static vector of f32, None for any other type."""
    if isinstance(t, Float32Type):
        return ()
    if isinstance(t, VectorType) and isinstance(t.get_element_type(), Float32Type):
        shape = tuple(t.get_shape())
        if all(d > 0 for d in shape) and not any(t.get_scalable_dims()):
            return shape
    return None


def _pow2(b: _Builder, k: SSAValue) -> SSAValue:
    """2^k as f32 for an integer-valued f32 k in [-126, 127], built from exponent bits
    without a float-to-int conversion: k + 127 + 2^23 is exact and holds k + 127 in its
    low mantissa bits, which the shift moves into the exponent field (the bits of 2^23
    above them fall off)."""
    magic = b.binary(arith.AddfOp, k, b.const(127.0 + 2.0**23))
    bits = b.cast(arith.BitcastOp, magic, b.itype)
    return b.cast(arith.BitcastOp, b.binary(arith.ShLIOp, bits, b.iconst(23)), b.ftype)


def exp_approximation(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ExpApproximation`: `math.exp` on f32 as a polynomial (see the module)."""
    assert isinstance(op, math.ExpOp)
    shape = _f32_shape(op.result.type)
    if shape is None:
        return False
    b = _Builder(rw, op, shape)
    x = op.operand
    # NaN-propagating clamps (maximumf/minimumf): NaN flows through every step below.
    clamped = b.binary(
        arith.MinimumfOp, b.binary(arith.MaximumfOp, x, b.const(_X_MIN)), b.const(_X_MAX)
    )
    # k = floor(x log2(e) + 1/2); r = x - k ln2, with ln2 = hi + lo (hi exact in 9 bits).
    kf = b.emit(math.FloorOp(b.fma(clamped, b.const(_LOG2E), b.const(0.5))))
    r = b.fma(kf, b.const(-_LN2_HI), clamped)
    r = b.fma(kf, b.const(-_LN2_LO), r)
    # exp(r) ~ 1 + r + r^2 P(r).
    p = b.const(_EXP_POLY[0])
    for coefficient in _EXP_POLY[1:]:
        p = b.fma(p, r, b.const(coefficient))
    r2 = b.binary(arith.MulfOp, r, r)
    er = b.binary(arith.AddfOp, b.fma(p, r2, r), b.const(1.0))
    # 2^k = 2^(k/2) * 2^(k - k/2): both halves are normal for k in [-151, 129].
    half = b.emit(math.FloorOp(b.binary(arith.MulfOp, kf, b.const(0.5))))
    rest = b.binary(arith.SubfOp, kf, half)
    scaled = b.binary(arith.MulfOp, b.binary(arith.MulfOp, er, _pow2(b, half)), _pow2(b, rest))
    rw.replace_values(op, [scaled])
    return True


def polynomial_approximation_patterns() -> PatternSet:
    """`transform.apply_patterns.math.polynomial_approximation` (exp only)."""
    return PatternSet().add(math.ExpOp, exp_approximation)


__all__ = ["exp_approximation", "polynomial_approximation_patterns"]
