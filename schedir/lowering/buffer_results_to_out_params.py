"""`buffer-results-to-out-params`: statically shaped buffer results become out-parameters.

Upstream's pass of the same name, and the ABI the Python runtime relies on: every memref
result of a function with a fully static shape becomes a trailing argument (`%out0`,
`%out1`, ... in result order, identity layout) that the caller allocates; the function
copies the value it returned into it. Memref results with dynamic sizes and scalar
results stay results.

With `hoist-static-allocs`, a returned buffer that is a statically shaped `memref.alloc` of
the function is replaced by the out-parameter itself: the function computes directly into
the caller's buffer, with no copy.

When the returned value is copied, a buffer the function allocated for it (a
`memref.alloc`, a call result, or an `scf.if` whose branches yield such buffers) is no
longer returned, so it is freed after the copy. Call sites allocate the out buffers
(`memref.alloc`) and pass them; what freed the old call result now frees that allocation.

    func.func @f(%a: memref<4xf32>) -> memref<4xf32> {
      %r = memref.alloc() : memref<4xf32>
      "use"(%a, %r) : (memref<4xf32>, memref<4xf32>) -> ()
      return %r : memref<4xf32>
    }
    // buffer-results-to-out-params{hoist-static-allocs=true} ->
    func.func @f(%a: memref<4xf32>, %out0: memref<4xf32>) {
      "use"(%a, %out0) : (memref<4xf32>, memref<4xf32>) -> ()
      return
    }
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects.memref import AllocOp, CastOp, CopyOp
from schedir.dialects.syntax import op_location
from schedir.lowering.bufferization import cast_is_safe


def _is_out_param_type(value_type: Attribute) -> bool:
    return isinstance(value_type, MemRefType) and all(
        d != DYNAMIC_INDEX for d in cast(MemRefType[Attribute], value_type).get_shape()
    )


def _out_type(value_type: MemRefType[Attribute]) -> MemRefType[Attribute]:
    """The identity-layout buffer type of an out-parameter for a result of `value_type`."""
    return MemRefType(
        value_type.get_element_type(), value_type.get_shape(), NoneAttr(), value_type.memory_space
    )


def _allocated_here(value: SSAValue, function: func.FuncOp) -> bool:
    """Whether `value` is a buffer `function` owns: an allocation, a call result, or an
    `scf.if` both of whose branches yield such buffers made in the branch."""
    owner = value.owner
    if not isinstance(owner, Operation) or not function.is_ancestor(owner):
        return False
    if any(isinstance(use.operation, memref.DeallocOp) for use in value.uses):
        return False  # someone frees it already
    if isinstance(owner, memref.AllocOp | func.CallOp):
        return True
    if isinstance(owner, scf.IfOp):
        index = cast(Operation, owner).results.index(value)
        for region in owner.regions:
            if not region.blocks:
                return False
            terminator = region.block.last_op
            if terminator is None:
                return False
            yielded = terminator.operands[index]
            if not (
                isinstance(yielded.owner, Operation)
                and yielded.owner.parent_block() is region.block
                and _allocated_here(yielded, function)
            ):
                return False
        return True
    return False


@dataclass(frozen=True)
class BufferResultsToOutParams(ModulePass):
    """Turn statically shaped memref results into trailing out-parameters."""

    name = "buffer-results-to-out-params"

    hoist_static_allocs: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        converted: dict[str, list[int]] = {}
        for function in [f for f in op.ops if isinstance(f, func.FuncOp)]:
            outputs = list(function.function_type.outputs.data)
            indices = [i for i, t in enumerate(outputs) if _is_out_param_type(t)]
            if not indices:
                continue
            converted[function.sym_name.data] = indices
            self._convert_function(function, indices)
        if not converted:
            return
        for call in [o for o in op.walk() if isinstance(o, func.CallOp)]:
            indices = converted.get(call.callee.root_reference.data)
            if indices is not None:
                _convert_call(call, indices)

    def _convert_function(self, function: func.FuncOp, indices: list[int]) -> None:
        inputs = list(function.function_type.inputs.data)
        outputs = list(function.function_type.outputs.data)
        out_types = [_out_type(cast(MemRefType[Attribute], outputs[i])) for i in indices]
        for index, out_type in zip(indices, out_types, strict=True):
            result_type = cast(MemRefType[Attribute], outputs[index])
            if not cast_is_safe(out_type, result_type):
                # Callers allocate identity buffers; they must be usable as the result.
                raise UnsupportedError(
                    f"cannot create an out-parameter for result #{index} of type "
                    f"{result_type}: only identity or fully dynamic layouts are supported",
                    op_location(function),
                )
        kept = [t for i, t in enumerate(outputs) if i not in indices]
        function.function_type = FunctionType.from_lists([*inputs, *out_types], kept)
        if function.arg_attrs is not None:
            empty = DictionaryAttr({})
            function.arg_attrs = ArrayAttr([*function.arg_attrs.data, *([empty] * len(indices))])
        if function.res_attrs is not None:
            function.res_attrs = ArrayAttr(
                [a for i, a in enumerate(function.res_attrs.data) if i not in indices]
            )
        if not function.body.blocks:
            return
        entry = function.body.blocks.first
        assert entry is not None
        params = []
        for n, out_type in enumerate(out_types):
            param = entry.insert_arg(out_type, len(entry.args))
            param.name_hint = f"out{n}"
            params.append(param)
        returns = [o for o in function.walk() if isinstance(o, func.ReturnOp)]
        for ret in returns:
            for param, index in zip(params, indices, strict=True):
                self._store_result(function, ret, ret.operands[index], param)
            new_ret = func.ReturnOp(*[v for i, v in enumerate(ret.operands) if i not in indices])
            new_ret.location = ret.location
            Rewriter.insert_op(new_ret, InsertPoint.before(ret))
            Rewriter.erase_op(ret)

    def _store_result(
        self, function: func.FuncOp, ret: Operation, value: SSAValue, param: SSAValue
    ) -> None:
        owner = value.owner
        if (
            self.hoist_static_allocs
            and isinstance(owner, memref.AllocOp)
            and function.is_ancestor(owner)
            and not owner.dynamic_sizes
            and owner.memref.type == param.type
            and not any(isinstance(u.operation, memref.DeallocOp) for u in value.uses)
        ):
            # Compute straight into the caller's buffer.
            value.replace_all_uses_with(param)
            Rewriter.erase_op(owner)
            return
        copy = CopyOp(value, param)
        copy.location = ret.location
        Rewriter.insert_op(copy, InsertPoint.before(ret))
        if (
            _allocated_here(value, function)
            and sum(1 for u in value.uses if u.operation is ret) == 1
        ):
            dealloc = memref.DeallocOp.get(value)
            dealloc.location = ret.location
            Rewriter.insert_op(dealloc, InsertPoint.before(ret))


def _convert_call(call: func.CallOp, indices: list[int]) -> None:
    """Allocate the out buffers before `call`, pass them, use them instead of its results."""
    buffers: list[SSAValue] = []
    for index in indices:
        result_type = cast(MemRefType[Attribute], call.results[index].type)
        alloc = AllocOp([], [], _out_type(result_type), IntegerAttr(64, 64))
        alloc.location = call.location
        Rewriter.insert_op(alloc, InsertPoint.before(call))
        buffers.append(alloc.memref)
    kept_types = [r.type for i, r in enumerate(call.results) if i not in indices]
    new_call = func.CallOp(call.callee, [*call.arguments, *buffers], kept_types)
    new_call.location = call.location
    Rewriter.insert_op(new_call, InsertPoint.before(call))
    position = 0
    for i, result in enumerate(call.results):
        if i in indices:
            replacement = buffers[indices.index(i)]
            if replacement.type != result.type:
                cast_op = CastOp.build(
                    operands=[replacement], result_types=[cast(MemRefType[Attribute], result.type)]
                )
                cast_op.location = call.location
                Rewriter.insert_op(cast_op, InsertPoint.before(call))
                replacement = cast_op.results[0]
            result.replace_all_uses_with(replacement)
        else:
            result.replace_all_uses_with(new_call.results[position])
            position += 1
    Rewriter.erase_op(call)


__all__ = ["BufferResultsToOutParams"]
