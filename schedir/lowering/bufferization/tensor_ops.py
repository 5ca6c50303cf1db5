"""One-Shot bufferization rules of the ops that make new tensors: dense constants (a private
constant `memref.global`), `tensor.from_elements`, `splat`, `generate`, `pad`, `concat`
(a new buffer filled by stores, `linalg.fill`, a `linalg.generic` or copies into subviews).
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, memref
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects.linalg import FillOp, GenericOp, IndexOp, YieldOp
from schedir.dialects.memref import (
    GetGlobalOp,
    GlobalOp,
    StoreOp,
)
from schedir.dialects.syntax import op_location
from schedir.dialects.tensor import GenerateOp
from schedir.lowering.bufferization.base import RewriterBase, mixed_list
from schedir.lowering.bufferization.types import memref_for_tensor


class TensorRules(RewriterBase):
    """Rewrite rules of the tensor ops that create a new buffer."""

    def _constant(self, op: Operation) -> None:
        assert isinstance(op, arith.ConstantOp)
        value = op.value
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise UnsupportedError(
                f"tensor constant of attribute kind '{value.name}' is not supported",
                op_location(op),
            )
        memref_type = memref_for_tensor(cast(TensorType[Attribute], op.result.type))
        name = self.global_for(value, memref_type)
        get = GetGlobalOp(SymbolRefAttr(name), memref_type)
        self.insert(get, op)
        self.views.append(get)  # dropped if nothing reads the constant
        self.finish(op, [get.memref])

    def global_for(
        self, value: DenseIntOrFPElementsAttr, memref_type: MemRefType[Attribute]
    ) -> str:
        """The private constant `memref.global` holding `value` (one per distinct value)."""
        key = (str(memref_type), value)
        found = self.state.globals.get(key)
        if found is not None:
            return found
        module = self.state.module
        shape = "x".join(str(d) for d in memref_type.get_shape())
        base = f"__constant_{shape}{'x' if shape else ''}{memref_type.get_element_type()}"
        taken = {
            cast(StringAttr, op.properties["sym_name"]).data  # symbol names are strings
            for op in module.ops
            if "sym_name" in op.properties
        } | {
            cast(StringAttr, op.attributes["sym_name"]).data
            for op in module.ops
            if "sym_name" in op.attributes
        }
        name, suffix = base, 0
        while name in taken:
            name = f"{base}_{suffix}"
            suffix += 1
        global_op = GlobalOp.build(
            properties={
                "sym_name": StringAttr(name),
                "sym_visibility": StringAttr("private"),
                "type": memref_type,
                "initial_value": value,
                "constant": UnitAttr(),
                "alignment": IntegerAttr(64, 64),
            }
        )
        first = module.body.block.first_op
        if first is None:
            module.body.block.add_op(global_op)
        else:
            Rewriter.insert_op(global_op, InsertPoint.before(first))
        self.state.globals[key] = name
        return name

    def _new(self, op: Operation) -> None:
        result_type = cast(TensorType[Attribute], op.results[0].type)
        target = memref_for_tensor(result_type)
        match op:
            case xtensor.FromElementsOp():
                buffer = self.alloc(target, [], op)
                shape = result_type.get_shape()
                strides = [1] * len(shape)
                for d in range(len(shape) - 2, -1, -1):
                    strides[d] = strides[d + 1] * shape[d + 1]
                for flat, element in enumerate(op.elements):
                    indices = [
                        self.index((flat // s) % n, op) for s, n in zip(strides, shape, strict=True)
                    ]
                    self.insert(StoreOp.get(element, buffer, indices), op)
            case xtensor.SplatOp():
                buffer = self.alloc(target, list(op.dynamicSizes), op)
                self.insert(FillOp([op.input], [buffer]), op)
            case GenerateOp():
                buffer = self.alloc(target, list(op.dynamicExtents), op)
                self._generate_into(buffer, op.body, op)
            case xtensor.PadOp():
                buffer = self._pad(op, target)
            case xtensor.ConcatOp():
                buffer = self._concat(op, target)
            case _:
                raise UnsupportedError(
                    f"'{op.name}' is not supported by one-shot-bufferize", op_location(op)
                )
        self.finish(op, [buffer])

    def _generate_into(self, buffer: SSAValue, body: Region, op: Operation) -> None:
        """Fill `buffer` with the values `body` (index args, `tensor.yield`) computes."""
        rank = cast(MemRefType[Attribute], buffer.type).get_num_dims()
        block = Block(arg_types=[cast(MemRefType[Attribute], buffer.type).get_element_type()])
        indices: list[SSAValue] = []
        for d in range(rank):
            index_op = IndexOp(d)
            block.add_op(index_op)
            indices.append(index_op.result)
        source = body.block
        terminator = source.last_op
        assert terminator is not None
        yielded = terminator.operands[0]
        for arg, index in zip(source.args, indices, strict=True):
            arg.replace_all_uses_with(index)
        Rewriter.erase_op(terminator)
        for nested in list(source.ops):
            nested.detach()
            block.add_op(nested)
        block.add_op(YieldOp(yielded))
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            [],
            [buffer],
            Region(block),
            [identity],
            [IteratorTypeAttr.parallel()] * rank,
        )
        self.insert(generic, op)
        # The body may read tensors (a `tensor.extract` of an argument): those reads now
        # read buffers too.
        self.rewrite_block(block)

    def _pad(self, op: xtensor.PadOp, target: MemRefType[Attribute]) -> SSAValue:
        source = self.buffer_of(op.source)
        source_shape = cast(MemRefType[Attribute], source.type).get_shape()
        low = mixed_list(op.static_low.get_values(), list(op.low))
        high = mixed_list(op.static_high.get_values(), list(op.high))
        sizes: list[SSAValue] = []
        source_sizes: list[int | SSAValue] = []
        for d, size in enumerate(source_shape):
            if size == DYNAMIC_INDEX:
                dim = self.insert(memref.DimOp(source, self.index(d, op)), op).results[0]
                source_sizes.append(dim)
            else:
                source_sizes.append(size)
            if target.get_shape()[d] == DYNAMIC_INDEX:
                total = self._as_value(source_sizes[d], op)
                for extra in (low[d], high[d]):
                    total = self.insert(arith.AddiOp(total, self._as_value(extra, op)), op).results[
                        0
                    ]
                sizes.append(total)
        buffer = self.alloc(target, sizes, op)
        terminator = op.region.block.last_op
        assert terminator is not None
        pad_value = terminator.operands[0]
        if not op.region.block.args or not any(a.uses for a in op.region.block.args):
            if op.is_ancestor(pad_value.owner) and pad_value.owner is not op:
                # A constant computed in the body: hoist the body before the op.
                for nested in list(op.region.block.ops):
                    if nested is terminator:
                        break
                    nested.detach()
                    self.insert(nested, op, nested)
            self.insert(FillOp([pad_value], [buffer]), op)
        else:
            self._generate_into(buffer, op.region, op)
        interior = self._subview_mixed(buffer, low, source_sizes, op)
        self.copy(source, interior, op)
        return buffer

    def _concat(self, op: xtensor.ConcatOp, target: MemRefType[Attribute]) -> SSAValue:
        axis = op.dim.value.data
        buffers = [self.buffer_of(v) for v in op.inputs]
        sizes: list[SSAValue] = []
        rank = target.get_num_dims()
        for d in range(rank):
            if target.get_shape()[d] != DYNAMIC_INDEX:
                continue
            if d != axis:
                sizes.append(
                    self.insert(memref.DimOp(buffers[0], self.index(d, op)), op).results[0]
                )
                continue
            total = self.index(0, op)
            for b in buffers:
                dim = self.insert(memref.DimOp(b, self.index(d, op)), op).results[0]
                total = self.insert(arith.AddiOp(total, dim), op).results[0]
            sizes.append(total)
        buffer = self.alloc(target, sizes, op)
        offset: int | SSAValue = 0
        for b in buffers:
            shape = cast(MemRefType[Attribute], b.type).get_shape()
            extent: list[int | SSAValue] = [
                s
                if s != DYNAMIC_INDEX
                else self.insert(memref.DimOp(b, self.index(d, op)), op).results[0]
                for d, s in enumerate(shape)
            ]
            offsets: list[int | SSAValue] = [0] * rank
            offsets[axis] = offset
            self.copy(b, self._subview_mixed(buffer, offsets, extent, op), op)
            if isinstance(offset, int) and isinstance(extent[axis], int):
                offset = offset + cast(int, extent[axis])
            else:
                offset = self.insert(
                    arith.AddiOp(self._as_value(offset, op), self._as_value(extent[axis], op)), op
                ).results[0]
        return buffer


__all__ = ["TensorRules"]
