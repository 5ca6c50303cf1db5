"""`vector.contract` and `vector.outerproduct` lowering (upstream LowerVectorContract.cpp),
and the folding of arith extensions into contractions (VectorTransforms.cpp).

`transform.apply_patterns.vector.lower_contraction lowering_strategy = S` adds upstream's
`ContractionOpLowering` and `ContractionOpToOuterProductOpLowering` for strategy S:

- `outerproduct`: a matmul / matvec / transposed-matvec layout becomes one
  `vector.outerproduct` per reduction step, after transposing the operands into
  reduction-major form;
- `dot`: a matmul / matvec becomes one `arith.mul` + `vector.reduction` per output element;
- `parallelarith`: contractions whose reduction dims have size 1 become elementwise ops;
- otherwise (and for `llvmintr`, whose intrinsic lowering schedir does not have) the
  generic unrolling: one free or batch dimension at a time into lower-rank contractions,
  down to dot products.

Before (outerproduct):

    %r = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel",
           "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c
           : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>

After:

    %t = vector.transpose %a, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
    %a0 = vector.extract %t[0] : vector<2xf32> from vector<3x2xf32>
    %b0 = vector.extract %b[0] : vector<4xf32> from vector<3x4xf32>
    %r0 = vector.outerproduct %a0, %b0, %c {kind = #vector.kind<add>} : vector<2xf32>, vector<4xf32>
    ... (k = 1, 2)

`lower_outerproduct` turns each `vector.outerproduct` into per-row `vector.fma` (or
mul + combine) on broadcast lhs elements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import arith as shaped_arith
from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    element_type,
    kind_name,
    make_kind,
    vec,
)
from schedir.dialects.vector.contract import contract_iterators, contract_maps
from schedir.transform.rewrites.greedy import Pattern, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.contract_generic import lower_generic, supported_generic
from schedir.transform.rewrites.vector.utils import (
    contract_arith,
    defining,
    extract,
    insert,
    mask_operation,
    masking_op,
    mul,
    result_index,
    transpose,
    zero,
)

STRATEGIES = ("dot", "llvmintr", "outerproduct", "parallelarith")
"""Upstream's VectorContractLowering cases, in the descriptor's enum order."""

Lowering = Callable[[vector.ContractionOp, CanonRewriter, SSAValue | None], SSAValue | None]


def maskable(lowering: Lowering) -> Pattern:
    """Upstream's `MaskableOpRewritePattern`: a masked contraction is rewritten in place of
    its `vector.mask` (new ops go before it; the mask op's results are replaced)."""

    def pattern(op: Operation, rw: CanonRewriter) -> bool:
        assert isinstance(op, vector.ContractionOp)
        mask_op = masking_op(op)
        root: Operation = mask_op if mask_op is not None else op
        rw.set_insertion_point(root)
        result = lowering(op, rw, mask_op.mask if mask_op is not None else None)
        if result is None:
            return False
        rw.replace_values(root, [result] if root.results else [])
        return True

    pattern.__name__ = lowering.__name__
    return pattern


# --- helpers --------------------------------------------------------------------------------


def infer(exprs: Sequence[Sequence[AffineExpr]], num_dims: int) -> list[AffineMap]:
    return [AffineMap(num_dims, 0, tuple(e)) for e in exprs]


def _dims(n: int) -> list[AffineExpr]:
    return [AffineExpr.dimension(i) for i in range(n)]


def _is_int(t: Attribute) -> bool:
    return isinstance(element_type(t), IntegerType | IndexType)


def _add(
    rw: CanonRewriter,
    x: SSAValue,
    y: SSAValue,
    is_int: bool,
    loc: Operation,
    fmf: FastMathFlagsAttr | None = None,
) -> SSAValue:
    new = arith.AddiOp(x, y) if is_int else arith.AddfOp(x, y, fmf)
    return rw.create(new, loc).results[0]


# --- outer products ----------------------------------------------------------------------------


class _OuterProductGenerator:
    """Upstream's `UnrolledOuterProductGenerator`."""

    def __init__(self, rw: CanonRewriter, op: vector.ContractionOp, mask: SSAValue | None):
        self.rw = rw
        self.op = op
        self.kind = op.kind
        self.lhs, self.rhs, self.res = op.lhs, op.rhs, op.acc
        self.lhs_type = cast(VectorType, op.lhs.type)
        self.mask = mask
        self.maps = contract_maps(op)
        self.iterators = contract_iterators(op)

    def layout(self, exprs: Sequence[Sequence[AffineExpr]]) -> bool:
        return self.maps == infer(exprs, self.maps[0].num_dims)

    def t(self, v: SSAValue | None, perm: Sequence[int] = (1, 0)) -> SSAValue | None:
        return None if v is None else transpose(self.rw, v, perm, self.op)

    def promote(self, v: SSAValue, elem: Attribute) -> SSAValue:
        t = v.type
        src_elem = element_type(t)
        if src_elem == elem:
            return v
        promoted = VectorType(elem, t.get_shape()) if isinstance(t, VectorType) else elem
        ext = (
            shaped_arith.ExtFOp(v, promoted)
            if isinstance(elem, AnyFloat)
            else shaped_arith.ExtSIOp(v, promoted)  # type: ignore[arg-type]  # takes vectors; xDSL's __init__ says IntegerType
        )
        return self.rw.create(ext, self.op).results[0]

    def reduction_size(self, dim: int) -> int:
        return self.lhs_type.get_shape()[dim]

    def outer(
        self, lhs: SSAValue | None, rhs: SSAValue | None, size: int, mask: SSAValue | bool | None
    ) -> SSAValue | None:
        """`mask` is False when the caller has no mask to pass (masked ops then fail)."""
        if self.mask is not None and mask is False:
            return None
        assert lhs is not None and rhs is not None
        res = self.res
        res_elem = cast(VectorType, res.type).get_element_type()
        for k in range(size):
            a = extract(self.rw, lhs, [k], self.op)
            b = extract(self.rw, rhs, [k], self.op)
            a = self.promote(a, res_elem)
            b = self.promote(b, res_elem)
            m = extract(self.rw, mask, [k], self.op) if isinstance(mask, SSAValue) else None
            outer = self.rw.create(vector.OuterProductOp(a, b, res, self.kind), self.op)
            res = mask_operation(self.rw, outer, m).results[0]
        return res

    def matmat(self) -> SSAValue | None:
        if self.iterators != ["parallel", "parallel", "reduction"]:
            return None
        m, n, k = _dims(3)
        lhs, rhs = self.lhs, self.rhs
        t, mask = self.t, self.mask
        if self.layout([[m, k], [k, n], [m, n]]):
            return self.outer(t(lhs), rhs, self.reduction_size(1), t(mask, (2, 0, 1)))
        if self.layout([[m, k], [n, k], [m, n]]):
            return self.outer(t(lhs), t(rhs), self.reduction_size(1), t(mask, (2, 0, 1)))
        if self.layout([[k, m], [k, n], [m, n]]):
            return self.outer(lhs, rhs, self.reduction_size(0), t(mask, (2, 0, 1)))
        if self.layout([[k, m], [n, k], [m, n]]):
            return self.outer(lhs, t(rhs), self.reduction_size(0), t(mask, (2, 0, 1)))
        if self.layout([[m, k], [k, n], [n, m]]):
            return self.outer(rhs, t(lhs), self.reduction_size(1), t(mask, (2, 0, 1)))
        if self.layout([[m, k], [n, k], [n, m]]):
            t_rhs = t(rhs)
            return self.outer(t_rhs, t(lhs), self.reduction_size(1), t(mask, (2, 0, 1)))
        if self.layout([[k, m], [k, n], [n, m]]):
            return self.outer(rhs, lhs, self.reduction_size(0), t(mask, (2, 0, 1)))
        if self.layout([[k, m], [n, k], [n, m]]):
            return self.outer(t(rhs), lhs, self.reduction_size(0), t(mask, (2, 0, 1)))
        return None

    def matvec(self) -> SSAValue | None:
        if self.iterators != ["parallel", "reduction"]:
            return None
        m, k = _dims(2)
        lhs, rhs, t, mask = self.lhs, self.rhs, self.t, self.mask
        if self.layout([[m, k], [k], [m]]):
            return self.outer(t(lhs), rhs, self.reduction_size(1), t(mask))
        if self.layout([[k, m], [k], [m]]):
            return self.outer(lhs, rhs, self.reduction_size(0), t(mask))
        if self.layout([[k], [m, k], [m]]):
            return self.outer(t(rhs), lhs, self.reduction_size(0), t(mask))
        if self.layout([[k], [k, m], [m]]):
            return self.outer(rhs, lhs, self.reduction_size(0), t(mask))
        return None

    def tmatvec(self) -> SSAValue | None:
        if self.iterators != ["reduction", "parallel"]:
            return None
        k, m = _dims(2)
        lhs, rhs, t, mask = self.lhs, self.rhs, self.t, self.mask
        if self.layout([[m, k], [k], [m]]):
            return self.outer(t(lhs), rhs, self.reduction_size(1), mask)
        if self.layout([[k, m], [k], [m]]):
            return self.outer(lhs, rhs, self.reduction_size(0), mask)
        if self.layout([[k], [m, k], [m]]):
            return self.outer(t(rhs), lhs, self.reduction_size(0), mask)
        if self.layout([[k], [k, m], [m]]):
            return self.outer(rhs, lhs, self.reduction_size(0), mask)
        return None


def _to_outer_product(strategy: str) -> Lowering:
    def to_outer_product(
        op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
    ) -> SSAValue | None:
        """Upstream's `ContractionOpToOuterProductOpLowering`."""
        if strategy != "outerproduct":
            return None
        gen = _OuterProductGenerator(rw, op, mask)
        for flavour in (gen.matmat, gen.matvec, gen.tmatvec):
            result = flavour()
            if result is not None:
                return result
        return None

    return to_outer_product


# --- dot products ------------------------------------------------------------------------------


def _to_dot(strategy: str) -> Lowering:
    def to_dot(
        op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
    ) -> SSAValue | None:
        """Upstream's `ContractionOpToDotLowering`."""
        if mask is not None or strategy != "dot":
            return None
        its = contract_iterators(op)
        maps = contract_maps(op)
        lhs, rhs = op.lhs, op.rhs
        perm = (1, 0)
        if its == ["parallel", "parallel", "reduction"]:
            m, n, k = _dims(3)

            def is_(exprs: list[list[AffineExpr]]) -> bool:
                return maps == infer(exprs, 3)

            if is_([[m, k], [k, n], [m, n]]):
                rhs = transpose(rw, rhs, perm, op)
            elif is_([[m, k], [n, k], [m, n]]):
                pass
            elif is_([[k, m], [k, n], [m, n]]):
                lhs = transpose(rw, lhs, perm, op)
                rhs = transpose(rw, rhs, perm, op)
            elif is_([[k, m], [n, k], [m, n]]):
                lhs = transpose(rw, lhs, perm, op)
            elif is_([[m, k], [k, n], [n, m]]):
                lhs, rhs = transpose(rw, rhs, perm, op), lhs
            elif is_([[m, k], [n, k], [n, m]]):
                lhs, rhs = rhs, lhs
            elif is_([[k, m], [k, n], [n, m]]):
                tmp = lhs
                lhs = transpose(rw, rhs, perm, op)
                rhs = transpose(rw, tmp, perm, op)
            elif is_([[k, m], [n, k], [n, m]]):
                lhs, rhs = rhs, transpose(rw, lhs, perm, op)
            else:
                return None
        elif its[:2] == ["parallel", "reduction"] and len(its) == 2:
            m, n = _dims(2)

            def is2(exprs: list[list[AffineExpr]]) -> bool:
                return maps == infer(exprs, 2)

            if is2([[m, n], [n], [m]]):
                pass
            elif is2([[n, m], [n], [m]]):
                lhs = transpose(rw, lhs, perm, op)
            elif is2([[n], [m, n], [m]]):
                lhs, rhs = rhs, lhs
            elif is2([[n], [n, m], [m]]):
                lhs, rhs = rhs, lhs
                lhs = transpose(rw, lhs, perm, op)
            else:
                return None
        else:
            return None
        dst = cast(VectorType, op.result.type)
        rank = dst.get_num_dims()
        rows = dst.get_shape()[0]
        cols = 1 if rank == 1 else dst.get_shape()[1]
        res = zero(rw, dst, op)
        is_int = isinstance(dst.get_element_type(), IntegerType)
        columns: list[SSAValue] = []
        for r in range(rows):
            row = extract(rw, lhs, [r], op)
            for c in range(cols):
                if r == 0:
                    columns.append(rhs if rank == 1 else extract(rw, rhs, [c], op))
                product = mul(rw, row, columns[c], is_int, op, op.fastmath)
                total = rw.create(
                    vector.ReductionOp(product, make_kind("add"), fastmath=op.fastmath), op
                ).results[0]
                res = insert(rw, total, res, [r] if rank == 1 else [r, c], op)
        return _add(rw, res, op.acc, is_int, op, op.fastmath)

    return to_dot


# --- elementwise (parallelarith) ------------------------------------------------------------------


def _to_elementwise(strategy: str) -> Lowering:
    def to_elementwise(
        op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
    ) -> SSAValue | None:
        """Upstream's `ContractOpToElementwise`: unit reduction dims only."""
        if mask is not None or strategy != "parallelarith":
            return None
        lhs_t, rhs_t = cast(VectorType, op.lhs.type), cast(VectorType, op.rhs.type)
        maps = contract_maps(op)
        its = contract_iterators(op)
        lhs_red = [
            i
            for i, e in enumerate(maps[0].results)
            if its[cast(AffineDimExpr, e).position] == "reduction"
        ]
        rhs_red = [
            i
            for i, e in enumerate(maps[1].results)
            if its[cast(AffineDimExpr, e).position] == "reduction"
        ]
        if any(lhs_t.get_shape()[d] != 1 for d in lhs_red) or any(
            rhs_t.get_shape()[d] != 1 for d in rhs_red
        ):
            return None
        acc_map = maps[2]
        num_parallel = len(acc_map.results)
        lhs_bcast = num_parallel - (len(maps[0].results) - len(lhs_red))
        rhs_bcast = num_parallel - (len(maps[1].results) - len(rhs_red))
        lhs_dims: list[int] = []
        rhs_dims: list[int] = []
        lhs_perm = [lhs_bcast + d for d in lhs_red]
        rhs_perm = [rhs_bcast + d for d in rhs_red]
        res_t = cast(VectorType, op.result.type)
        for i in range(num_parallel):
            it = cast(AffineDimExpr, acc_map.results[i]).position
            ld = result_index(maps[0], it)
            if ld is not None:
                lhs_perm.append(lhs_bcast + ld)
            else:
                lhs_dims.append(res_t.get_shape()[i])
                lhs_perm.append(len(lhs_dims) - 1)
            rd = result_index(maps[1], it)
            if rd is not None:
                rhs_perm.append(rhs_bcast + rd)
            else:
                rhs_dims.append(res_t.get_shape()[i])
                rhs_perm.append(len(rhs_dims) - 1)
        new_lhs, new_rhs = op.lhs, op.rhs
        if lhs_dims:
            t = vec([*lhs_dims, *lhs_t.get_shape()], lhs_t.get_element_type())
            new_lhs = rw.create(vector.BroadcastOp(new_lhs, t), op).results[0]
        if rhs_dims:
            t = vec([*rhs_dims, *rhs_t.get_shape()], rhs_t.get_element_type())
            new_rhs = rw.create(vector.BroadcastOp(new_rhs, t), op).results[0]
        is_int = _is_int(lhs_t)
        new_lhs = transpose(rw, new_lhs, lhs_perm, op)
        new_rhs = transpose(rw, new_rhs, rhs_perm, op)
        new_lhs = extract(rw, new_lhs, [0] * len(lhs_red), op)
        new_rhs = extract(rw, new_rhs, [0] * len(rhs_red), op)
        return contract_arith(
            rw, new_lhs, new_rhs, op.acc, kind_name(op.kind), is_int, op, None, op.fastmath
        )

    return to_elementwise


def _contraction_lowering(strategy: str) -> Lowering:
    outer, dot, elementwise = (
        _to_outer_product(strategy),
        _to_dot(strategy),
        _to_elementwise(strategy),
    )

    def contraction_lowering(
        op: vector.ContractionOp, rw: CanonRewriter, mask: SSAValue | None
    ) -> SSAValue | None:
        """Upstream's `ContractionOpLowering`: the strategy's lowering, else unrolling."""
        if not supported_generic(op):
            return None

        for lowering in (outer, dot, elementwise, lower_generic):
            result = lowering(op, rw, mask)
            if result is not None:
                return result
        return None

    return contraction_lowering


def lower_contraction_patterns(strategy: str) -> PatternSet:
    """`transform.apply_patterns.vector.lower_contraction lowering_strategy = strategy`."""
    return (
        PatternSet()
        .add(vector.ContractionOp, maskable(_contraction_lowering(strategy)))
        .add(vector.ContractionOp, maskable(_to_outer_product(strategy)))
    )


# --- arith extensions ----------------------------------------------------------------------------


def fold_arith_extension(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `FoldArithExtIntoContractionOp` (extf and extsi): contract the narrow
    operands directly when both are extended the same way.

    The combining kind is kept: upstream rebuilds the contraction with the default kind
    (`add`), which changes what a `maxnumf` / `mul` / ... contraction computes."""
    assert isinstance(op, vector.ContractionOp)
    for extension in (arith.ExtFOp, arith.ExtSIOp):
        lhs, rhs = defining(op.lhs, extension), defining(op.rhs, extension)
        if lhs is None or rhs is None:
            continue
        new = vector.ContractionOp(
            lhs.input, rhs.input, op.acc, op.indexing_maps, op.iterator_types, op.kind
        )
        rw.replace_with_op(op, new)
        return True
    return False


def fold_arith_extension_patterns() -> PatternSet:
    return PatternSet().add(vector.ContractionOp, fold_arith_extension)


__all__ = [
    "STRATEGIES",
    "fold_arith_extension",
    "fold_arith_extension_patterns",
    "lower_contraction_patterns",
    "maskable",
]
