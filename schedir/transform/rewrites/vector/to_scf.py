"""Progressive lowering of n-D transfers to loops of lower-rank transfers (upstream
VectorToSCF.cpp), the `transfer_to_scf` descriptor.

`transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = R full_unroll = U`
peels the leading vector dimension of transfers of rank > R on memrefs, one at a time:

- `full_unroll = true`: one (n-1)-D transfer per leading index, inserted into / extracted
  from the full vector, each guarded by `scf.if` when that dimension may be out of bounds
  (or masked by a 1-D mask);
- `full_unroll = false`: the vector goes through a stack buffer (`memref.alloca` of the
  vector type, viewed with `vector.type_cast`) and an `scf.for` over the leading dim;
- with R = 1, 1-D transfers that cannot become vector loads (permuted, broadcast, strided
  memrefs) become loops of scalar `memref.load` / `memref.store`.

Tensor transfers are left alone (upstream's `lowerTensors` is off for the descriptor).

Before (full_unroll = true):

    %v = vector.transfer_read %m[%i, %j], %pad : memref<?x?xf32>, vector<2x3xf32>

After (first row; the second is the same at `%i + 1`):

    %d = memref.dim %m, %c0 : memref<?x?xf32>
    %ok = arith.andi (%i >= 0), (%i < %d) : i1
    %r0 = scf.if %ok -> (vector<2x3xf32>) {
      %row = vector.transfer_read %m[%i, %j], %pad : memref<?x?xf32>, vector<3xf32>
      %ins = vector.insert %row, %init [0] : vector<3xf32> into vector<2x3xf32>
      scf.yield %ins : vector<2x3xf32>
    } else {
      scf.yield %init : vector<2x3xf32>
    }
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    MemRefType,
    UnitAttr,
    VectorType,
    i32,
)
from xdsl.dialects.memref import DimOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.dialects import arith as shaped_arith
from schedir.dialects import memref, vector
from schedir.dialects.vector.attributes import (
    bool_array,
    in_bounds_values,
    is_minor_identity,
    is_zero,
    vec,
)
from schedir.dialects.vector.transfer import is_last_dim_unit_stride
from schedir.transform.rewrites.canonicalize.affine import composed_folded_apply
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import broadcast, entry_block, extract, insert

PASS_LABEL = "__vector_to_scf_lowering__"
"""Upstream's marker of transfers being lowered progressively (loop variant)."""

Xfer = vector.TransferReadOp | vector.TransferWriteOp


# --- shared helpers -------------------------------------------------------------------------


def _perm(op: Xfer) -> AffineMap:
    return op.permutation_map.data


def _vtype(op: Xfer) -> VectorType:
    return cast(
        VectorType, op.result.type if isinstance(op, vector.TransferReadOp) else op.vector.type
    )


def _unpacked_dim(op: Xfer) -> int | None:
    """The memref dim the leading vector dim maps to; None for a broadcast."""
    expr = _perm(op).results[0]
    return None if is_zero(expr) else cast(AffineDimExpr, expr).position


def _dim_in_bounds(op: Xfer, dim: int) -> bool:
    if is_zero(_perm(op).results[dim]):
        return True
    return in_bounds_values(op.in_bounds, len(_perm(op).results))[dim]


def _unpacked_map(op: Xfer) -> AffineMapAttr:
    m = _perm(op)
    return AffineMapAttr(AffineMap(m.num_dims, 0, tuple(m.results[1:])))


def _add(rw: CanonRewriter, base: SSAValue, iv: SSAValue, loc: Operation) -> SSAValue:
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    return composed_folded_apply(rw, AffineMap(2, 0, (d0 + d1,)), [base, iv], loc)


def _xfer_indices(rw: CanonRewriter, op: Xfer, iv: SSAValue) -> list[SSAValue]:
    """Upstream's `getXferIndices`: the unpacked dim's index moves by `iv`."""
    indices = list(op.indices)
    dim = _unpacked_dim(op)
    if dim is not None:
        indices[dim] = _add(rw, indices[dim], iv, op)
    return indices


def _mask_rank(op: Xfer) -> int:
    return cast(VectorType, op.mask.type).get_num_dims() if op.mask is not None else 0


def _build_if(
    rw: CanonRewriter,
    loc: Operation,
    cond: SSAValue,
    types: Sequence[Attribute],
    then_fn: Callable[[], SSAValue | None],
    else_fn: Callable[[], SSAValue | None] | None,
) -> SSAValue | None:
    then_block, else_block = Block(), Block()
    if_op = rw.create(scf.IfOp(cond, list(types), Region(then_block), Region(else_block)), loc)
    saved = rw.insertion_point
    rw.insertion_point = InsertPoint.at_end(then_block)
    value = then_fn()
    rw.create(scf.YieldOp(*([value] if types and value is not None else [])), loc)
    rw.insertion_point = InsertPoint.at_end(else_block)
    other = else_fn() if else_fn is not None else None
    rw.create(scf.YieldOp(*([other] if types and other is not None else [])), loc)
    rw.insertion_point = saved
    return if_op.results[0] if types else None


def _in_bounds_check(
    rw: CanonRewriter,
    op: Xfer,
    iv: SSAValue,
    dim: int | None,
    types: Sequence[Attribute],
    in_bounds_case: Callable[[], SSAValue | None],
    out_of_bounds_case: Callable[[], SSAValue | None] | None = None,
) -> SSAValue | None:
    """Upstream's `generateInBoundsCheck`: `0 <= idx + iv < dim` (and the 1-D mask bit)."""
    cond: SSAValue | None = None
    if not _dim_in_bounds(op, 0) and dim is not None:
        size = rw.create(DimOp(op.source, rw.constant_index(dim, op)), op)
        index = _add(rw, op.indices[dim], iv, op)
        zero = rw.constant_index(0, op)
        non_negative = rw.create(shaped_arith.CmpiOp(index, zero, "sge"), op).results[0]
        in_range = rw.create(shaped_arith.CmpiOp(index, size.results[0], "slt"), op).results[0]
        cond = rw.create(arith.AndIOp(non_negative, in_range), op).results[0]
    if op.mask is not None and _mask_rank(op) == 1 and not is_zero(_perm(op).results[0]):
        bit = extract(rw, op.mask, [iv], op)
        cond = bit if cond is None else rw.create(arith.AndIOp(cond, bit), op).results[0]
    if cond is not None:
        return _build_if(rw, op, cond, types, in_bounds_case, out_of_bounds_case)
    return in_bounds_case()


def _new_read(
    rw: CanonRewriter, op: vector.TransferReadOp, vtype: VectorType, indices: list[SSAValue]
) -> vector.TransferReadOp:
    rank = len(_perm(op).results)
    in_bounds = in_bounds_values(op.in_bounds, rank)[1:]
    new = vector.TransferReadOp(
        op.source, indices, op.padding, vtype, bool_array(in_bounds), _unpacked_map(op)
    )
    return cast(vector.TransferReadOp, rw.create(new, op))


def _new_write(
    rw: CanonRewriter, op: vector.TransferWriteOp, value: SSAValue, indices: list[SSAValue]
) -> vector.TransferWriteOp:
    rank = len(_perm(op).results)
    new = vector.TransferWriteOp(
        value,
        op.source,
        indices,
        bool_array(in_bounds_values(op.in_bounds, rank)[1:]),
        None,
        _unpacked_map(op),
    )
    return cast(vector.TransferWriteOp, rw.create(new, op))


def _set_mask(op: Xfer, mask: SSAValue) -> None:
    """Attach `mask` to a just-built transfer (it had none)."""
    op.operands = [*op.operands, mask]
    segments = cast(DenseArrayBase[IntegerType], op.properties["operandSegmentSizes"])
    sizes = [int(v) for v in segments.get_values()]
    sizes[-1] = 1
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)


def _common_checks(op: Xfer, target_rank: int) -> bool:
    vtype = _vtype(op)
    if vtype.get_num_dims() <= target_rank:
        return False
    if not isinstance(op.source.type, MemRefType):
        return False  # tensor transfers are not lowered (lowerTensors = false)
    if vtype.get_element_type() != op.source.type.get_element_type():
        return False
    return not vtype.get_num_scalable_dims()


# --- full unroll ------------------------------------------------------------------------------


def _unroll_read(target_rank: int):
    def unroll_read(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `UnrollTransferReadConversion`."""
        assert isinstance(op, vector.TransferReadOp)
        if not _common_checks(op, target_rank):
            return False
        vtype = _vtype(op)
        users = [u.operation for u in op.result.uses]
        insert_op = users[0] if len(users) == 1 and isinstance(users[0], vector.InsertOp) else None
        value = insert_op.dest if insert_op is not None else broadcast(rw, op.padding, vtype, op)
        value_type = value.type
        new_type = vec(vtype.get_shape()[1:], vtype.get_element_type())
        prefix = list(insert_op.get_mixed_position()) if insert_op is not None else []
        for i in range(vtype.get_shape()[0]):
            iv = rw.constant_index(i, op)
            current = value

            def in_bounds(i: int = i, iv: SSAValue = iv, current: SSAValue = current) -> SSAValue:
                indices = _xfer_indices(rw, op, iv)
                new = _new_read(rw, op, new_type, indices)
                _assign_unrolled_mask(rw, op, new, i)
                val = new.result
                if new_type.get_num_dims() == 0:
                    val = extract(rw, val, [], op)
                return insert(rw, val, current, [*prefix, i], op)

            result = _in_bounds_check(
                rw, op, iv, _unpacked_dim(op), [value_type], in_bounds, lambda c=current: c
            )
            assert result is not None
            value = result
        if insert_op is not None:
            rw.replace_values(insert_op, [value])
            rw.erase(op)
        else:
            rw.replace_values(op, [value])
        return True

    return unroll_read


def _unroll_write(target_rank: int):
    def unroll_write(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `UnrollTransferWriteConversion`."""
        assert isinstance(op, vector.TransferWriteOp)
        if not _common_checks(op, target_rank):
            return False
        vtype = _vtype(op)
        source = op.vector
        prefix: list[int | SSAValue] = []
        if isinstance(source.owner, vector.ExtractOp):
            prefix = list(source.owner.get_mixed_position())
            source = source.owner.vector
        for i in range(vtype.get_shape()[0]):
            iv = rw.constant_index(i, op)

            def in_bounds(i: int = i, iv: SSAValue = iv) -> None:
                indices = _xfer_indices(rw, op, iv)
                extracted = extract(rw, source, [*prefix, i], op)
                value = extracted
                if vtype.get_num_dims() == 1:
                    value = broadcast(rw, extracted, vec([], vtype.get_element_type()), op)
                new = _new_write(rw, op, value, indices)
                _assign_unrolled_mask(rw, op, new, i)
                return None

            _in_bounds_check(rw, op, iv, _unpacked_dim(op), [], in_bounds)
        rw.erase(op)
        return True

    return unroll_write


def _assign_unrolled_mask(rw: CanonRewriter, op: Xfer, new: Xfer, i: int) -> None:
    """Upstream's `maybeAssignMask`."""
    if op.mask is None:
        return
    if is_zero(_perm(op).results[0]):
        _set_mask(new, op.mask)
        return
    if _mask_rank(op) > 1:
        saved = rw.insertion_point
        rw.insertion_point = InsertPoint.before(new)
        _set_mask(new, extract(rw, op.mask, [i], op))
        rw.insertion_point = saved


# --- loops over a stack buffer ------------------------------------------------------------------


def _alloca_at_scope(rw: CanonRewriter, op: Operation, t: MemRefType) -> SSAValue:
    """A `memref.alloca` at the start of the enclosing allocation scope (the function;
    serial loops are skipped, as upstream does)."""
    block = entry_block(op)
    assert block is not None
    saved = rw.insertion_point
    first = block.first_op
    # After the allocas already made for other transfers: creation order, as upstream.
    while (
        isinstance(first, memref.AllocaOp)
        and first.memref.type.get_num_dims() == 0
        and isinstance(first.memref.type.get_element_type(), VectorType)
    ):
        first = first.next_op
    rw.insertion_point = (
        InsertPoint.before(first) if first is not None else InsertPoint.at_end(block)
    )
    # Built as schedir's class (xDSL's `AllocaOp.get` builds xDSL's).
    alloca = memref.AllocaOp.build(
        operands=[[], []], result_types=[t], properties={"alignment": None}
    )
    rw.create(alloca, op)
    rw.insertion_point = saved
    return alloca.memref


def _in_scope(op: Operation) -> bool:
    scope = op.parent_op()
    while scope is not None:
        if scope.has_trait(IsolatedFromAbove, value_if_unregistered=False):
            return True
        scope = scope.parent_op()
    return False


def _buffers(rw: CanonRewriter, op: Xfer) -> tuple[SSAValue, SSAValue | None]:
    data = _alloca_at_scope(rw, op, MemRefType(_vtype(op), []))
    mask = None
    if op.mask is not None:
        mask_buffer = _alloca_at_scope(rw, op, MemRefType(op.mask.type, []))
        rw.create(memref.StoreOp.get(op.mask, mask_buffer, []), op)
        mask = rw.create(memref.LoadOp.get(mask_buffer, []), op).results[0]
    return data, mask


def _labeled(op: Operation) -> bool:
    return PASS_LABEL in op.attributes


def _prepare_checks(op: Xfer, target_rank: int) -> bool:
    return not _labeled(op) and _common_checks(op, target_rank) and _in_scope(op)


def _prepare_read(target_rank: int):
    def prepare_read(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `PrepareTransferReadConversion`."""
        assert isinstance(op, vector.TransferReadOp)
        if not _prepare_checks(op, target_rank):
            return False
        data, mask = _buffers(rw, op)
        new = op.clone()
        new.attributes[PASS_LABEL] = UnitAttr()
        if mask is not None:
            new.operands = [*new.operands[:-1], mask]
        rw.create(new, op)
        rw.create(memref.StoreOp.get(new.results[0], data, []), op)
        load = rw.create(memref.LoadOp.get(data, []), op)
        rw.replace_values(op, list(load.results))
        return True

    return prepare_read


def _prepare_write(target_rank: int):
    def prepare_write(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `PrepareTransferWriteConversion`."""
        assert isinstance(op, vector.TransferWriteOp)
        if not _prepare_checks(op, target_rank):
            return False
        data, mask = _buffers(rw, op)
        rw.create(memref.StoreOp.get(op.vector, data, []), op)
        loaded = rw.create(memref.LoadOp.get(data, []), op).results[0]
        operands = [loaded, *op.operands[1:]]
        if mask is not None:
            operands[-1] = mask
        op.operands = operands
        op.attributes[PASS_LABEL] = UnitAttr()
        rw.modified(op)
        return True

    return prepare_write


def _unpack_one_dim(t: MemRefType) -> MemRefType | None:
    """memref<S x vector<d0 x rest>> -> memref<S x d0 x vector<rest>>."""
    elem = cast(VectorType, t.get_element_type())
    if elem.get_num_scalable_dims():
        return None
    inner = vec(elem.get_shape()[1:], elem.get_element_type())
    return MemRefType(inner, [*t.get_shape(), elem.get_shape()[0]])


def _type_cast(rw: CanonRewriter, buffer: SSAValue, t: MemRefType, loc: Operation) -> SSAValue:
    new = vector.TypeCastOp.build(operands=[buffer], result_types=[t])
    return rw.create(new, loc).results[0]


def _mask_buffer(op: Xfer) -> SSAValue:
    load = op.mask.owner if op.mask is not None else None
    assert isinstance(load, memref.LoadOp), "expected the transfer's mask loaded from its buffer"
    return load.memref


def _loop_conversion(target_rank: int):
    def convert(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `TransferOpConversion` (read and write)."""
        assert isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
        if not _labeled(op):
            return False
        is_read = isinstance(op, vector.TransferReadOp)
        store: memref.StoreOp | None = None
        if is_read:
            uses = list(op.result.uses)
            user = uses[0].operation if len(uses) == 1 else None
            if not isinstance(user, memref.StoreOp):
                return False
            store = user
            buffer = store.memref
            prev_indices = list(store.indices)
        else:
            load = op.vector.owner
            if not isinstance(load, memref.LoadOp):
                return False
            buffer = load.memref
            prev_indices = list(load.indices)
        casted_type = _unpack_one_dim(cast(MemRefType, buffer.type))
        if casted_type is None:
            return False
        casted = _type_cast(rw, buffer, casted_type, op)
        casted_mask: SSAValue | None = None
        mask_buffer: SSAValue | None = None
        if op.mask is not None:
            mask_buffer = _mask_buffer(op)
            if is_zero(_perm(op).results[0]) or _mask_rank(op) == 1:
                casted_mask = mask_buffer
            else:
                mask_t = _unpack_one_dim(cast(MemRefType, mask_buffer.type))
                assert mask_t is not None
                casted_mask = _type_cast(rw, mask_buffer, mask_t, op)
        lb = rw.constant_index(0, op)
        ub = rw.constant_index(casted_type.get_shape()[-1], op)
        step = rw.constant_index(1, op)
        body = Block(arg_types=[IndexType()])
        loop = rw.create(scf.ForOp(lb, ub, step, [], body), op)
        saved = rw.insertion_point
        rw.insertion_point = InsertPoint.at_end(body)
        iv = body.args[0]
        inner_type = cast(VectorType, casted_type.get_element_type())

        def in_bounds() -> None:
            indices = _xfer_indices(rw, op, iv)
            if is_read:
                assert isinstance(op, vector.TransferReadOp)
                new: Xfer = _new_read(rw, op, inner_type, indices)
                rw.create(memref.StoreOp.get(new.results[0], casted, [*prev_indices, iv]), op)
            else:
                assert isinstance(op, vector.TransferWriteOp)
                value = rw.create(memref.LoadOp.get(casted, [*prev_indices, iv]), op).results[0]
                new = _new_write(rw, op, value, indices)
            if inner_type.get_num_dims() > target_rank:
                new.attributes[PASS_LABEL] = UnitAttr()
            if op.mask is not None and (is_zero(_perm(op).results[0]) or _mask_rank(op) > 1):
                assert casted_mask is not None and mask_buffer is not None
                load_indices: list[SSAValue] = []
                for use in mask_buffer.uses:
                    if isinstance(use.operation, memref.LoadOp):
                        load_indices = list(use.operation.indices)
                        break
                if not is_zero(_perm(op).results[0]):
                    load_indices.append(iv)
                inner = rw.insertion_point
                rw.insertion_point = InsertPoint.before(new)
                mask = rw.create(memref.LoadOp.get(casted_mask, load_indices), op).results[0]
                rw.insertion_point = inner
                _set_mask(new, mask)

        def out_of_bounds() -> None:
            if is_read:
                assert isinstance(op, vector.TransferReadOp)
                pad = broadcast(rw, op.padding, inner_type, op)
                rw.create(memref.StoreOp.get(pad, casted, [*prev_indices, iv]), op)

        _in_bounds_check(
            rw,
            op,
            iv,
            _unpacked_dim(op),
            [],
            lambda: in_bounds(),
            lambda: out_of_bounds(),
        )
        rw.create(scf.YieldOp(), op)
        rw.insertion_point = saved
        if store is not None:
            rw.erase(store)
        rw.erase(op)
        del loop
        return True

    return convert


# --- 1-D transfers as scalar loops ---------------------------------------------------------------


def _transfer_1d(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferOp1dConversion`: scalar loads / stores in an `scf.for`."""
    assert isinstance(op, vector.TransferReadOp | vector.TransferWriteOp)
    m = _perm(op)
    if len(m.results) == 0:
        return False
    mtype = op.source.type
    if not isinstance(mtype, MemRefType):
        return False
    vtype = _vtype(op)
    if vtype.get_num_dims() != 1:
        return False
    if is_minor_identity(m) and is_last_dim_unit_stride(mtype):
        return False
    lb = rw.constant_index(0, op)
    ub = rw.constant_index(vtype.get_shape()[0], op)
    step = rw.constant_index(1, op)
    is_read = isinstance(op, vector.TransferReadOp)
    init = [broadcast(rw, op.padding, vtype, op)] if is_read else []
    body = Block(arg_types=[IndexType(), *(v.type for v in init)])
    loop = rw.create(scf.ForOp(lb, ub, step, init, body), op)
    saved = rw.insertion_point
    rw.insertion_point = InsertPoint.at_end(body)
    iv = body.args[0]
    indices = list(op.indices)
    dim = _unpacked_dim(op)
    if dim is not None:
        indices[dim] = _add(rw, indices[dim], iv, op)
    if is_read:
        current = body.args[1]

        def read_in() -> SSAValue:
            value = rw.create(memref.LoadOp.get(op.source, indices), op).results[0]
            return insert(rw, value, current, [iv], op)

        nxt = _in_bounds_check(rw, op, iv, dim, [vtype], read_in, lambda: current)
        assert nxt is not None
        rw.create(scf.YieldOp(nxt), op)
    else:
        written = op.vector

        def write_in() -> None:
            value = extract(rw, written, [iv], op)
            rw.create(memref.StoreOp.get(value, op.source, indices), op)

        _in_bounds_check(rw, op, iv, dim, [], write_in)
        rw.create(scf.YieldOp(), op)
    rw.insertion_point = saved
    rw.replace_values(op, list(loop.results))
    return True


def transfer_to_scf_patterns(target_rank: int = 1, full_unroll: bool = False) -> PatternSet:
    """`transform.apply_patterns.vector.transfer_to_scf` with its two options."""
    patterns = PatternSet()
    if full_unroll:
        patterns.add(vector.TransferReadOp, _unroll_read(target_rank))
        patterns.add(vector.TransferWriteOp, _unroll_write(target_rank))
    else:
        patterns.add(
            vector.TransferReadOp, _prepare_read(target_rank), _loop_conversion(target_rank)
        )
        patterns.add(
            vector.TransferWriteOp, _prepare_write(target_rank), _loop_conversion(target_rank)
        )
    if target_rank == 1:
        patterns.add(vector.TransferReadOp, _transfer_1d)
        patterns.add(vector.TransferWriteOp, _transfer_1d)
    return patterns


__all__ = ["PASS_LABEL", "transfer_to_scf_patterns"]
