"""The affine super-vectorizer (upstream's `vectorizeChildAffineLoops`,
mlir/lib/Dialect/Affine/Transforms/SuperVectorize.cpp), behind
`transform.affine.super_vectorize`.

A nest of `affine.for` loops matching the pattern (one loop per vector dimension, each
nested somewhere in the previous one) is vectorized: loop k steps by `sizes[k]`, every
`affine.load` under the outermost matched loop becomes a `vector.transfer_read` of the
full vector shape (a broadcast dimension where the access does not vary with a vectorized
loop), every `affine.store` a `vector.transfer_write`, elementwise arith/math ops work on
vectors, and the loops between or below the matched ones stay scalar:

    affine.for %i = 0 to %M {                       affine.for %i = 0 to %M step 4 {
      affine.for %j = 0 to %N {          [4, 8]       affine.for %j = 0 to %N step 8 {
        %a = affine.load %A[%i, %j]        =>            %a = vector.transfer_read %A[%i, %j], %pad : vector<4x8xf32>
        affine.store %a, %B[%j, %i]                      vector.transfer_write %a, %B[%j, %i] {permutation_map = (d0, d1) -> (d1, d0)}

A loop qualifies as upstream's filter says: it is parallel (no loop-carried dependence
through memory; with `vectorize_reductions`, iteration arguments that are reductions are
allowed), its body has no conditionals, no regions other than `affine.for`, no vector
values, and each access varies along at most one memref dimension with the loop, the
same one for all accesses (`fastest_varying_pattern[k]`, counted from the innermost
memref dimension, when given).

Where schedir is stricter than upstream, so that a vectorized loop never computes
something else: an access must move by exactly one element per iteration along its
varying dimension (upstream only checks that a single dimension varies), loops must have
step 1, and a loop whose trip count is not a known multiple of its vector size masks its
stores and reductions (`vector.create_mask` of the remaining iterations) where upstream
relies on out-of-bounds transfers. A reduction loop vectorizes as the only vector
dimension: the accumulator is a vector starting at the combiner's neutral element,
reduced after the loop (`vector.reduction`) and combined with the initial value. A match
that cannot be vectorized is left unchanged, as upstream does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import affine as xaffine
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.traits import Pure

from schedir.dialects import arith as shaped_arith
from schedir.dialects.affine import ApplyOp, MinOp
from schedir.dialects.vector import (
    BroadcastOp,
    CreateMaskOp,
    ReductionOp,
    TransferReadOp,
    TransferWriteOp,
)
from schedir.dialects.vector.attributes import make_kind
from schedir.transform.rewrites.split_reduction import neutral_element
from schedir.transform.rewrites.vector.utils import ELEMENTWISE_ARITH_MATH_OPS
from schedir.transform.rewrites.vectorization.body import combiner_kind

AffineFor = xaffine.ForOp
_ACCESS = (xaffine.LoadOp, xaffine.StoreOp)


class VectorizeFailure(Exception):
    """The match cannot be vectorized; the IR is left as it was."""


# --- the loop filter ------------------------------------------------------------------


def _depends_on(value: SSAValue, iv: SSAValue, scope: Operation) -> bool:
    """`value` is `iv` or computed inside `scope` from it."""
    work, seen = [value], set[int]()
    while work:
        current = work.pop()
        if current is iv:
            return True
        owner = current.owner
        if id(current) in seen or not isinstance(owner, Operation) or not scope.is_ancestor(owner):
            continue
        seen.add(id(current))
        work.extend(owner.operands)
    return False


def _access_parts(op: Operation) -> tuple[SSAValue, AffineMap, list[SSAValue]]:
    """(memref, map, map operands) of an affine load or store."""
    if isinstance(op, xaffine.LoadOp):
        return op.memref, op.map.data, list(op.indices)  # type: ignore[union-attr]  # schedir's load always carries its map
    assert isinstance(op, xaffine.StoreOp)
    return op.memref, op.map.data, list(op.indices)  # type: ignore[union-attr]  # schedir's store always carries its map


def _expr_operands(expr: AffineExpr, map_: AffineMap, operands: Sequence[SSAValue]) -> list[int]:
    """Positions in `operands` of the dims and symbols `expr` uses."""
    found: list[int] = []

    def visit(e: AffineExpr) -> None:
        if isinstance(e, AffineDimExpr):
            found.append(e.position)
        elif isinstance(e, AffineSymExpr):
            found.append(map_.num_dims + e.position)
        elif isinstance(e, AffineBinaryOpExpr):
            visit(e.lhs)
            visit(e.rhs)

    visit(expr)
    return found


def _varying_dim(op: Operation, loop: AffineFor) -> tuple[bool, int]:
    """Upstream's `isContiguousAccess`: (at most one memref dim varies with the loop,
    that dim counted from the innermost, or -1 when invariant)."""
    memref, map_, operands = _access_parts(op)
    iv = loop.body.block.args[0]
    varying = -1
    for d, expr in enumerate(map_.results):
        if any(_depends_on(operands[p], iv, loop) for p in _expr_operands(expr, map_, operands)):
            if varying != -1:
                return False, -1
            varying = d
    assert isinstance(memref.type, MemRefType)
    rank = len(memref.type.get_shape())
    return True, -1 if varying == -1 else rank - (varying + 1)


def _vectorizable_body(loop: AffineFor, fastest: int) -> bool:
    """Upstream's `isVectorizableLoopBody` plus the fastest-varying filter."""
    memref_dim = -1
    for op in loop.body.walk():
        if op is loop:
            continue
        if op.regions and not isinstance(op, AffineFor):
            return False
        types = [*op.operand_types, *op.result_types]
        if any(isinstance(t, VectorType) for t in types):
            return False
        if isinstance(op, _ACCESS):
            contiguous, dim = _varying_dim(op, loop)
            if not contiguous:
                return False
            if dim != -1:
                if memref_dim not in (-1, dim):
                    return False
                memref_dim = dim
    return memref_dim == -1 or fastest == -1 or memref_dim == fastest


def _reduction_combiner(loop: AffineFor, position: int) -> Operation | None:
    """The combiner of iteration argument `position` (a supported reduction), or None."""
    arg = loop.body.block.args[1 + position]
    uses = list(arg.uses)
    if len(uses) != 1:
        return None
    combiner = uses[0].operation
    terminator = loop.body.block.last_op
    if (
        combiner.parent_block() is not loop.body.block
        or combiner_kind(combiner) is None
        or neutral_element(combiner) is None
        or len(combiner.results) != 1
        or terminator is None
        or terminator.operands[position] is not combiner.results[0]
        or combiner.results[0].uses.get_length() != 1
    ):
        return None
    other = combiner.operands[1] if combiner.operands[0] is arg else combiner.operands[0]
    carried = set(loop.body.block.args[1:])
    if any(_depends_on(other, a, loop) for a in carried):
        return None
    return combiner


def _is_parallel(loop: AffineFor, reductions: bool) -> bool:
    """No loop-carried dependence through memory (each store's location is written by one
    iteration only and read only there); iteration arguments only as reductions."""
    if loop.inits and not (
        reductions and all(_reduction_combiner(loop, p) is not None for p in range(len(loop.inits)))
    ):
        return False
    accesses: list[Operation] = []
    for op in loop.body.walk():
        if isinstance(op, _ACCESS):
            accesses.append(op)
        elif not isinstance(
            op, (AffineFor, xaffine.YieldOp, *ELEMENTWISE_ARITH_MATH_OPS, arith.ConstantOp)
        ) and not op.has_trait(Pure):
            return False
    iv = loop.body.block.args[0]
    for store in accesses:
        if not isinstance(store, xaffine.StoreOp):
            continue
        memref, map_, operands = _access_parts(store)
        if not _owned_by_iteration(map_, operands, iv, loop):
            return False
        for other in accesses:
            other_memref, other_map, other_operands = _access_parts(other)
            if other_memref is memref and (other_map != map_ or other_operands != operands):
                return False
    return True


def _owned_by_iteration(
    map_: AffineMap, operands: Sequence[SSAValue], iv: SSAValue, loop: AffineFor
) -> bool:
    """Some index is `c * iv + (values defined above the loop)` with c != 0: distinct
    iterations touch distinct locations."""
    for expr in map_.results:
        positions = _expr_operands(expr, map_, operands)
        uses_iv = [p for p in positions if operands[p] is iv]
        others = [p for p in positions if operands[p] is not iv]
        if not uses_iv or any(_depends_on(operands[p], iv, loop) for p in others):
            continue
        if any(_defined_in(operands[p], loop) for p in others):
            continue
        if _coefficient(expr, {p for p in uses_iv}, map_.num_dims) not in (None, 0):
            return True
    return False


def _defined_in(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    return op is not None and loop.is_ancestor(op)


def _coefficient(expr: AffineExpr, positions: set[int], num_dims: int) -> int | None:
    """The coefficient of the operands at `positions` in `expr` when it is linear in
    them (no div/mod over them), else None."""

    def mentions(e: AffineExpr) -> bool:
        if isinstance(e, AffineDimExpr):
            return e.position in positions
        if isinstance(e, AffineSymExpr):
            return num_dims + e.position in positions
        if isinstance(e, AffineBinaryOpExpr):
            return mentions(e.lhs) or mentions(e.rhs)
        return False

    def linear(e: AffineExpr) -> bool:
        if isinstance(e, AffineBinaryOpExpr):
            if e.kind is AffineBinaryOpKind.Add:
                return linear(e.lhs) and linear(e.rhs)
            if e.kind is AffineBinaryOpKind.Mul:
                return (linear(e.lhs) and not mentions(e.rhs)) or (
                    linear(e.rhs) and not mentions(e.lhs)
                )
            return not mentions(e)
        return True

    if not linear(expr):
        return None

    def value(e: AffineExpr, x: int) -> int:
        if isinstance(e, AffineDimExpr):
            return x if e.position in positions else 0
        if isinstance(e, AffineSymExpr):
            return x if num_dims + e.position in positions else 0
        if isinstance(e, AffineConstantExpr):
            return e.value
        assert isinstance(e, AffineBinaryOpExpr)
        lhs, rhs = value(e.lhs, x), value(e.rhs, x)
        match e.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
            case _:
                return 0  # not mentioning the positions (checked above): a constant offset

    return value(expr, 1) - value(expr, 0)


# --- pattern matching -------------------------------------------------------------------


def _match(op: Operation, filters: Sequence[int], reductions: bool) -> list[AffineFor] | None:
    """The first nest under `op` (pre-order) matching `filters` loop by loop."""
    for candidate in op.walk():
        if not isinstance(candidate, AffineFor):
            continue
        if not _is_parallel(candidate, reductions) or not _vectorizable_body(candidate, filters[0]):
            continue
        if len(filters) == 1:
            return [candidate]
        for inner in candidate.body.block.ops:
            rest = _match(inner, filters[1:], reductions)
            if rest is not None:
                return [candidate, *rest]
    return None


def vectorize_affine_loops(
    root: Operation, sizes: Sequence[int], pattern: Sequence[int], reductions: bool
) -> int:
    """Vectorize each outermost matching nest under `root` (itself included); the number
    of nests vectorized."""
    filters = list(pattern) if pattern else [-1] * len(sizes)
    done = 0
    skipped: set[int] = set()
    while True:
        match = _first_unvisited(root, filters, reductions, skipped)
        if match is None:
            return done
        try:
            _Vectorizer(match, list(sizes)).run()
            done += 1
            if match[0] is root:
                return done  # `root` itself was replaced
        except VectorizeFailure:
            skipped.add(id(match[0]))


def _first_unvisited(
    root: Operation, filters: Sequence[int], reductions: bool, skipped: set[int]
) -> list[AffineFor] | None:
    for candidate in root.walk():
        if not isinstance(candidate, AffineFor) or id(candidate) in skipped:
            continue
        if _vectorized(candidate):
            continue
        found = _match(candidate, filters, reductions)
        if found is not None and found[0] is candidate:
            return found
    return None


def _vectorized(loop: AffineFor) -> bool:
    """Made by the vectorizer (or holding vectors): never matched again."""
    return any(
        isinstance(t, VectorType)
        for op in loop.walk()
        for t in [*op.operand_types, *op.result_types]
    )


# --- vectorizing a match ----------------------------------------------------------------


@dataclass
class _Vectorizer:
    loops: list[AffineFor]
    sizes: list[int]
    values: dict[SSAValue, SSAValue] = field(default_factory=dict[SSAValue, SSAValue])
    vector_ivs: dict[SSAValue, int] = field(default_factory=dict[SSAValue, int])
    """Old induction variable of a vectorized loop -> its vector dimension."""
    new_loops: dict[int, AffineFor] = field(default_factory=dict[int, AffineFor])

    def run(self) -> None:
        root = self.loops[0]
        if any(loop.step.value.data != 1 for loop in self.loops):
            raise VectorizeFailure
        if any(loop.inits for loop in self.loops) and len(self.loops) != 1:
            raise VectorizeFailure  # a reduction is vectorized as the only vector dimension
        staging = Block()
        self._op(root, staging)
        parent = root.parent_block()
        assert parent is not None
        for op in list(staging.ops):
            op.detach()
            parent.insert_op_before(op, root)
        for old, new in zip(root.results, [self.values[r] for r in root.results], strict=True):
            old.replace_all_uses_with(new)
        parent.erase_op(root)

    # -- helpers

    @property
    def shape(self) -> list[int]:
        return self.sizes

    def _vtype(self, element: Attribute) -> VectorType:
        return VectorType(element, self.sizes)

    def _is_vector(self, value: SSAValue) -> bool:
        return isinstance(value.type, VectorType)

    def _scalar(self, old: SSAValue) -> SSAValue:
        new = self.values.get(old, old)
        if self._is_vector(new):
            raise VectorizeFailure
        return new

    def _varies(self, old: SSAValue) -> bool:
        return any(_depends_on(old, iv, self.loops[0]) for iv in self.vector_ivs)

    def _as_vector(self, new: SSAValue, block: Block) -> SSAValue:
        if self._is_vector(new):
            return new
        owner = new.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr | FloatAttr):
            # A constant becomes a splat constant, as upstream vectorizes it.
            splat = [owner.value.value.data]
            dense = DenseIntOrFPElementsAttr.from_list(self._vtype(new.type), splat)  # type: ignore[arg-type]  # an int or float element type
            return self._emit(arith.ConstantOp(dense), block)
        return self._emit(BroadcastOp(new, self._vtype(new.type)), block)

    def _emit(self, op: Operation, block: Block) -> SSAValue:
        block.add_op(op)
        return op.results[0]

    # -- ops

    def _block(self, old: Block, new: Block) -> None:
        for op in old.ops:
            self._op(op, new)

    def _op(self, op: Operation, block: Block) -> None:
        match op:
            case AffineFor():
                self._loop(op, block)
            case xaffine.LoadOp():
                self._load(op, block)
            case xaffine.StoreOp():
                self._store(op, block)
            case xaffine.YieldOp():
                self._yield(op, block)
            case arith.ConstantOp():
                self._clone(op, block)
            case _ if isinstance(op, ELEMENTWISE_ARITH_MATH_OPS):
                self._elementwise(op, block)
            case _ if not op.regions and op.has_trait(Pure):
                if any(self._varies(v) for v in op.operands) and not isinstance(op, ApplyOp):
                    raise VectorizeFailure
                self._clone(op, block)
            case _:
                raise VectorizeFailure

    def _clone(self, op: Operation, block: Block) -> None:
        operands = [self._scalar(v) for v in op.operands]
        new = op.clone()
        new.operands = operands
        block.add_op(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.values[old] = result

    def _elementwise(self, op: Operation, block: Block) -> None:
        operands = [self.values.get(v, v) for v in op.operands]
        if not any(self._is_vector(v) for v in operands):
            if any(self._varies(v) for v in op.operands):
                raise VectorizeFailure  # an induction variable used as a value
            self._clone(op, block)
            return
        operands = [self._as_vector(v, block) for v in operands]
        new = type(op).create(
            operands=operands,
            result_types=[self._vtype(t) for t in op.result_types],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        block.add_op(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.values[old] = result

    def _loop(self, loop: AffineFor, block: Block) -> None:
        lower = [self._scalar(v) for v in loop.lowerBoundOperands]
        upper = [self._scalar(v) for v in loop.upperBoundOperands]
        if loop in self.loops:
            k = self.loops.index(loop)
            step = self.sizes[k]
            self.vector_ivs[loop.body.block.args[0]] = k
        else:
            if loop.inits:
                raise VectorizeFailure
            step = loop.step.value.data
        combiners = [_reduction_combiner(loop, p) for p in range(len(loop.inits))]
        if any(c is None for c in combiners):
            raise VectorizeFailure
        inits: list[SSAValue] = []
        for combiner in combiners:
            assert combiner is not None
            neutral = neutral_element(combiner)
            assert neutral is not None
            constant = arith.ConstantOp(neutral)  # type: ignore[arg-type]  # a typed int/float attribute
            block.add_op(constant)
            inits.append(self._as_vector(constant.result, block))
        body = Block(arg_types=[IndexType(), *(v.type for v in inits)])
        new = AffineFor.create(
            operands=[*lower, *upper, *inits],
            result_types=[v.type for v in inits],
            properties={
                "lowerBoundMap": loop.lowerBoundMap,
                "upperBoundMap": loop.upperBoundMap,
                "step": IntegerAttr(step, IndexType()),
                "operandSegmentSizes": loop.properties["operandSegmentSizes"],
            },
            attributes=dict(loop.attributes),
            regions=[Region(body)],
        )
        for old, arg in zip(loop.body.block.args, body.args, strict=True):
            self.values[old] = arg
        self.new_loops[id(loop)] = new
        self._block(loop.body.block, body)
        block.add_op(new)
        # Reductions: reduce the vector accumulator, combine with the initial value.
        for position, combiner in enumerate(combiners):
            assert combiner is not None
            kind = combiner_kind(combiner)
            assert kind is not None
            reduced = self._emit(ReductionOp(new.results[position], make_kind(kind)), block)
            final = combiner.clone()
            final.operands = [reduced, self._scalar(loop.inits[position])]
            self.values[loop.results[position]] = self._emit(final, block)

    def _indices(
        self, op: Operation, block: Block
    ) -> tuple[SSAValue, list[SSAValue], AffineMap, list[int | None]]:
        """(memref, new indices, permutation map, memref dim of each vector dim)."""
        memref, map_, operands = _access_parts(op)
        assert isinstance(memref.type, MemRefType)
        rank = len(memref.type.get_shape())
        dims_of: list[int | None] = []
        for iv, k in sorted(self.vector_ivs.items(), key=lambda item: item[1]):
            del k
            found: list[int] = []
            for d, expr in enumerate(map_.results):
                positions = _expr_operands(expr, map_, operands)
                through = [
                    p
                    for p in positions
                    if operands[p] is not iv and _depends_on(operands[p], iv, self.loops[0])
                ]
                if through:
                    raise VectorizeFailure  # varies through a computed index
                direct = {p for p in positions if operands[p] is iv}
                if direct:
                    if _coefficient(expr, direct, map_.num_dims) != 1:
                        raise VectorizeFailure  # not one element per iteration
                    found.append(d)
            if len(found) > 1:
                raise VectorizeFailure
            dims_of.append(found[0] if found else None)
        # Loops of the match not yet entered (deeper) do not vary here: broadcast dims.
        dims_of += [None] * (len(self.sizes) - len(dims_of))
        taken = [d for d in dims_of if d is not None]
        if len(taken) != len(set(taken)):
            raise VectorizeFailure
        perm = AffineMap(
            rank,
            0,
            tuple(
                AffineExpr.constant(0) if d is None else AffineExpr.dimension(d) for d in dims_of
            ),
        )
        new_operands = [self._scalar(v) for v in operands]
        indices: list[SSAValue] = []
        for expr in map_.results:
            if isinstance(expr, AffineDimExpr):
                indices.append(new_operands[expr.position])
            elif isinstance(expr, AffineSymExpr):
                indices.append(new_operands[map_.num_dims + expr.position])
            else:
                single = AffineMap(map_.num_dims, map_.num_symbols, (expr,))
                indices.append(self._emit(ApplyOp(new_operands, AffineMapAttr(single)), block))
        return memref, indices, perm, dims_of

    def _load(self, op: xaffine.LoadOp, block: Block) -> None:
        memref, indices, perm, dims_of = self._indices(op, block)
        element = op.result.type
        pad = self._emit(arith.ConstantOp(_zero(element)), block)  # type: ignore[arg-type]  # a typed zero attribute
        in_bounds = ArrayAttr([BoolAttr.from_bool(d is None) for d in dims_of])
        read = TransferReadOp(
            memref, indices, pad, self._vtype(element), in_bounds, AffineMapAttr(perm)
        )
        self.values[op.result] = self._emit(read, block)

    def _store(self, op: xaffine.StoreOp, block: Block) -> None:
        memref, indices, perm, dims_of = self._indices(op, block)
        if any(d is None for d in dims_of):
            raise VectorizeFailure  # lanes would write one location
        value = self._as_vector(self.values.get(op.value, op.value), block)
        mask = self._mask(block)
        minor = list(range(perm.num_dims - len(dims_of), perm.num_dims))
        if mask is not None and dims_of != minor:
            raise VectorizeFailure  # masks only for minor-identity stores
        in_bounds = ArrayAttr([BoolAttr.from_bool(False) for _ in dims_of])
        write = TransferWriteOp(
            value, memref, indices, in_bounds, mask, permutation_map=AffineMapAttr(perm)
        )
        block.add_op(write)

    def _yield(self, op: xaffine.YieldOp, block: Block) -> None:
        operands = [self.values.get(v, v) for v in op.operands]
        if operands:
            mask = self._mask(block)
            loop = op.parent_op()
            assert isinstance(loop, AffineFor)
            if mask is not None:
                new_loop = self.new_loops[id(loop)]
                carried = new_loop.body.block.args[1:]
                operands = [
                    self._emit(shaped_arith.SelectOp(mask, v, acc), block)
                    for v, acc in zip(operands, carried, strict=True)
                ]
        block.add_op(xaffine.YieldOp.get(*operands))

    def _mask(self, block: Block) -> SSAValue | None:
        """The lanes still inside their loops' ranges, when some vectorized loop entered so
        far has a trip count that is not a known multiple of its vector size."""
        if all(_divisible(loop, size) for loop, size in zip(self.loops, self.sizes, strict=True)):
            return None
        entered = sorted(self.vector_ivs.items(), key=lambda item: item[1])
        if len(entered) != len(self.sizes):
            raise VectorizeFailure  # a store or yield above the innermost vector loop
        counts: list[SSAValue | Operation] = []
        for old_iv, k in entered:
            loop = self.loops[k]
            if _divisible(loop, self.sizes[k]):
                counts.append(
                    self._emit(arith.ConstantOp(IntegerAttr(self.sizes[k], IndexType())), block)
                )
                continue
            iv = self.values[old_iv]
            upper = [self._scalar(v) for v in loop.upperBoundOperands]
            map_ = loop.upperBoundMap.data
            last = AffineExpr.dimension(map_.num_dims)
            shifted = tuple(r - last for r in map_.results)
            remaining_map = AffineMap(map_.num_dims + 1, map_.num_symbols, shifted)
            operands = [*upper[: map_.num_dims], iv, *upper[map_.num_dims :]]
            op_class = ApplyOp if len(shifted) == 1 else MinOp
            counts.append(self._emit(op_class(operands, AffineMapAttr(remaining_map)), block))
        mask_type = VectorType(i1, self.sizes)
        return self._emit(CreateMaskOp(counts, mask_type), block)


def _divisible(loop: AffineFor, size: int) -> bool:
    lower, upper = loop.lowerBoundMap.data, loop.upperBoundMap.data
    if lower.num_dims or lower.num_symbols or upper.num_dims or upper.num_symbols:
        return False
    if len(lower.results) != 1 or len(upper.results) != 1:
        return False
    (lo,), (hi,) = lower.eval([], []), upper.eval([], [])
    return hi <= lo or (hi - lo) % size == 0


def _zero(element: Attribute) -> Attribute:
    if isinstance(element, IntegerType | IndexType):
        return IntegerAttr(0, element)
    return FloatAttr(0.0, element)  # type: ignore[arg-type]  # a float element type


__all__ = ["VectorizeFailure", "vectorize_affine_loops"]
