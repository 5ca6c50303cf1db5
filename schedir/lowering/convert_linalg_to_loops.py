"""`convert-linalg-to-loops`: structured linalg ops on buffers become `scf.for` nests.

Upstream's pass of the same name. Each structured op (any: named ops go through
`as_generic`) becomes one `scf.for` per loop of its iteration space, outermost first in
iterator order, from 0 to the loop's size step 1. A loop's size is the size of the first
operand dimension its indexing maps index by exactly that loop: a constant when static, a
`memref.dim` otherwise (strided and subview buffers work the same way). The innermost
body loads every input and init element the payload uses (at the indices the indexing
maps give, through `affine.apply` where a map result is not a plain loop index), inlines
the payload with `linalg.index d` replaced by loop `d`'s index, and stores each yielded
value into its init. All loads come before the stores, so an elementwise op may read and
write the same buffer. Scalar inputs (a fill's value) are used as they are.

    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                    iterator_types = ["parallel", "reduction"]}
        ins(%a : memref<4x?xf32>) outs(%o : memref<?xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
    // ->
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d1 = memref.dim %a, %c1 : memref<4x?xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %d1 step %c1 {
        %x = memref.load %a[%i, %j] : memref<4x?xf32>
        %acc = memref.load %o[%j] : memref<?xf32>
        %s = arith.addf %x, %acc : f32
        memref.store %s, %o[%j] : memref<?xf32>
      }
    }

`linalg.copy` is lowered like any structured op; `memref.copy` is not a linalg op and is
left alone. Structured ops still on tensors are an error (bufferize first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    LocationAttr,
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import LoweringError
from schedir.dialects.affine import ApplyOp
from schedir.dialects.linalg import GenericOp, IndexOp, YieldOp
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.memref import LoadOp, StoreOp
from schedir.dialects.syntax import op_location


class _Emitter:
    """Inserts new ops before an anchor, each located at the op being lowered."""

    def __init__(self, anchor: Operation, location: LocationAttr) -> None:
        self.point = InsertPoint.before(anchor)
        self.location = location

    def emit(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        op.location = self.location
        return op

    def index(self, value: int) -> SSAValue:
        return self.emit(arith.ConstantOp.from_int_and_width(value, IndexType())).results[0]

    def indices(self, amap: AffineMap, ivs: Sequence[SSAValue]) -> list[SSAValue]:
        """The buffer indices map `amap` gives for loop indices `ivs`."""
        result: list[SSAValue] = []
        for expr in amap.results:
            if isinstance(expr, AffineDimExpr):
                result.append(ivs[expr.position])
            elif isinstance(expr, AffineConstantExpr):
                result.append(self.index(expr.value))
            else:
                used = sorted(expr.used_dims())
                single = AffineMap(amap.num_dims, 0, (expr,))
                dropped = single.drop_dims(tuple(d not in used for d in range(amap.num_dims)))
                apply = ApplyOp([ivs[d] for d in used], AffineMapAttr(dropped))
                result.append(self.emit(apply).results[0])
        return result


def _loop_bounds(generic: GenericOp, emitter: _Emitter) -> list[SSAValue]:
    """The size of each loop, from the first operand dimension indexed by exactly it."""
    maps = [m.data for m in generic.indexing_maps.data]
    operands = [*generic.inputs, *generic.outputs]
    num_loops = len(generic.iterator_types.data)
    bounds: list[SSAValue | None] = [None] * num_loops
    for operand, amap in zip(operands, maps, strict=True):
        if not isinstance(operand.type, MemRefType):
            continue
        shape = cast(MemRefType[Attribute], operand.type).get_shape()
        for dim, expr in enumerate(amap.results):
            if not isinstance(expr, AffineDimExpr) or bounds[expr.position] is not None:
                continue
            if shape[dim] == DYNAMIC_INDEX:
                size = emitter.emit(memref.DimOp(operand, emitter.index(dim))).results[0]
            else:
                size = emitter.index(shape[dim])
            bounds[expr.position] = size
    missing = [d for d, b in enumerate(bounds) if b is None]
    if missing:
        raise LoweringError(
            f"cannot compute the size of loop {missing[0]} of '{generic.name}': no operand "
            "dimension is indexed by it alone",
            op_location(generic),
        )
    return [b for b in bounds if b is not None]


def lower_to_loops(op: Operation) -> None:
    """Replace structured op `op` (on buffers) by its loop nest."""
    if any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results)):
        raise LoweringError(
            f"'{op.name}' still works on tensors: run one-shot-bufferize before "
            "convert-linalg-to-loops",
            op_location(op),
        )
    generic = op if isinstance(op, GenericOp) else as_generic(op)
    emitter = _Emitter(op, op.location)
    num_loops = len(generic.iterator_types.data)
    zero = emitter.index(0) if num_loops else None
    one = emitter.index(1) if num_loops else None
    bounds = _loop_bounds(generic, emitter)
    ivs: list[SSAValue] = []
    for bound in bounds:
        assert zero is not None and one is not None
        body = Block(arg_types=[IndexType()])
        loop = scf.ForOp(zero, bound, one, [], Region(body))
        emitter.emit(loop)
        yield_op = scf.YieldOp()
        body.add_op(yield_op)
        yield_op.location = op.location
        ivs.append(body.args[0])
        emitter.point = InsertPoint.before(yield_op)
    _inline_payload(generic, ivs, emitter)
    if generic is not op:
        generic.erase()  # the unattached generic form still holds uses of the operands
    Rewriter.erase_op(op)


def _inline_payload(generic: GenericOp, ivs: Sequence[SSAValue], emitter: _Emitter) -> None:
    maps = [m.data for m in generic.indexing_maps.data]
    operands = [*generic.inputs, *generic.outputs]
    block = generic.body.block
    for operand, amap, arg in zip(operands, maps, block.args, strict=True):
        if not arg.uses:
            continue
        if isinstance(operand.type, MemRefType):
            load = LoadOp.get(operand, emitter.indices(amap, ivs))
            arg.replace_all_uses_with(emitter.emit(load).results[0])
        else:
            arg.replace_all_uses_with(operand)
    terminator = block.last_op
    assert isinstance(terminator, YieldOp)
    for nested in list(block.ops):
        if nested is terminator:
            break
        if isinstance(nested, IndexOp):
            nested.result.replace_all_uses_with(ivs[nested.dim.value.data])
            Rewriter.erase_op(nested)
            continue
        nested.detach()
        Rewriter.insert_op(nested, emitter.point)
    inits = list(generic.outputs)
    init_maps = maps[len(generic.inputs) :]
    for value, init, amap in zip(terminator.operands, inits, init_maps, strict=True):
        emitter.emit(StoreOp.get(value, init, emitter.indices(amap, ivs)))


@dataclass(frozen=True)
class ConvertLinalgToLoops(ModulePass):
    """Lower every structured linalg op on buffers to loops (see the module docstring)."""

    name = "convert-linalg-to-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        structured = [o for o in op.walk() if is_structured(o)]
        for structured_op in structured:
            lower_to_loops(structured_op)


__all__ = ["ConvertLinalgToLoops", "lower_to_loops"]
