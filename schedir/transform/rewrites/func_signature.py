"""Function-level rewrites of the func transform ops (upstream Func/Utils/Utils.cpp and
FuncTransformOps.cpp): reorder or merge a function's arguments and results together with
its calls, and replace a slice of a function by a call.

A mapping `old_to_new[i] = j` sends old argument (result) `i` to new position `j`;
several old positions may share a new one (merged duplicates), the first of them giving
the new argument's type, location and attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.transform.rewrites.bufferization.empty_tensor_elimination import (
    dominates,
    properly_dominates,
    value_properly_dominates,
)


def _inverse(old_to_new: Sequence[int]) -> list[list[int]]:
    """For each new index, the old indices mapped to it (in order)."""
    count = 1 + max(old_to_new) if old_to_new else 0
    new_to_old: list[list[int]] = [[] for _ in range(count)]
    for old, new in enumerate(old_to_new):
        new_to_old[new].append(old)
    return new_to_old


def _permuted_attrs(
    attrs: ArrayAttr[DictionaryAttr] | None, new_to_old: Sequence[Sequence[int]]
) -> ArrayAttr[DictionaryAttr] | None:
    if attrs is None:
        return None
    return ArrayAttr([attrs.data[olds[0]] for olds in new_to_old])


def replace_func_with_new_mapping(
    rewriter: PatternRewriter,
    function: func.FuncOp,
    old_arg_to_new: Sequence[int],
    old_res_to_new: Sequence[int],
) -> func.FuncOp | None:
    """Replace `function` by one whose arguments and results follow the mappings; None
    (nothing changed) unless its body is one block ending in `func.return`."""
    assert len(old_arg_to_new) == len(function.args)
    assert len(old_res_to_new) == len(function.function_type.outputs.data)
    body = function.body
    if len(body.blocks) != 1 or not isinstance(body.block.last_op, func.ReturnOp):
        return None
    arg_sources = _inverse(old_arg_to_new)
    res_sources = _inverse(old_res_to_new)
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    new_inputs = [inputs[olds[0]] for olds in arg_sources]
    new_outputs = [outputs[olds[0]] for olds in res_sources]
    block = Block(arg_types=new_inputs)
    for new_arg, olds in zip(block.args, arg_sources, strict=True):
        old_arg = function.args[olds[0]]
        if old_arg.name_hint is not None:
            new_arg.name_hint = old_arg.name_hint
    old_block = body.block
    for old_index, new_index in enumerate(old_arg_to_new):
        old_block.args[old_index].replace_all_uses_with(block.args[new_index])
    for op in list(old_block.ops):
        op.detach()
        block.add_op(op)
    returned = block.last_op
    assert isinstance(returned, func.ReturnOp)
    new_return = func.ReturnOp(*(returned.arguments[olds[0]] for olds in res_sources))
    block.insert_op_before(new_return, returned)
    block.erase_op(returned)
    new_function = func.FuncOp(
        function.sym_name.data,
        (new_inputs, new_outputs),
        Region(block),
        function.sym_visibility,
        arg_attrs=_permuted_attrs(function.arg_attrs, arg_sources),
        res_attrs=_permuted_attrs(function.res_attrs, res_sources),
    )
    new_function.attributes.update(function.attributes)
    rewriter.insert(new_function, InsertPoint.before(function))
    rewriter.erase(function)
    return new_function


def replace_call_with_new_mapping(
    rewriter: PatternRewriter,
    call: func.CallOp,
    old_arg_to_new: Sequence[int],
    old_res_to_new: Sequence[int],
) -> func.CallOp:
    """Replace `call` by one whose operands and results follow the mappings."""
    operands = [call.arguments[olds[0]] for olds in _inverse(old_arg_to_new)]
    result_types = [call.res[olds[0]].type for olds in _inverse(old_res_to_new)]
    new_call = func.CallOp(call.callee, operands, result_types)
    new_call.attributes.update(call.attributes)
    for name, value in call.properties.items():
        new_call.properties.setdefault(name, value)
    rewriter.insert(new_call, InsertPoint.before(call))
    for old_index, new_index in enumerate(old_res_to_new):
        rewriter.replace_all_uses_with(call.res[old_index], new_call.res[new_index])
    rewriter.erase(call)
    return new_call


def calls_of(module: ModuleOp, name: str) -> list[func.CallOp]:
    """The `func.call` ops in `module` whose callee is the flat symbol `name`."""
    return [
        op
        for op in module.walk()
        if isinstance(op, func.CallOp) and op.callee == SymbolRefAttr(name)
    ]


@dataclass(frozen=True)
class Deduplicated:
    """The function with merged arguments and its rewritten call."""

    function: func.FuncOp
    call: func.CallOp


def deduplicate_func_args(
    rewriter: PatternRewriter, function: func.FuncOp, module: ModuleOp
) -> Deduplicated | None:
    """Merge the arguments of `function` that its only call passes the same value to;
    None (nothing changed) if it has no call or several, or no repeated operand."""
    calls = calls_of(module, function.sym_name.data)
    if len(calls) != 1:
        return None
    call = calls[0]
    first_index: dict[SSAValue, int] = {}
    old_arg_to_new = [first_index.setdefault(v, len(first_index)) for v in call.arguments]
    if len(first_index) == len(call.arguments):
        return None
    identity = list(range(len(call.res)))
    new_function = replace_func_with_new_mapping(rewriter, function, old_arg_to_new, identity)
    if new_function is None:
        return None
    new_call = replace_call_with_new_mapping(rewriter, call, old_arg_to_new, identity)
    return Deduplicated(new_function, new_call)


class CastAndCallFailure(ValueError):
    """Why `cast_and_call` refused; `definite` mirrors upstream's failure kind."""

    def __init__(self, message: str, *, definite: bool, at: Operation | None = None) -> None:
        super().__init__(message)
        self.definite = definite
        self.at = at


def cast_and_call(
    rewriter: PatternRewriter,
    callee: func.FuncOp,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    insertion_point: Operation,
    *,
    insert_after: bool,
) -> func.CallOp:
    """Call `callee` on `inputs` at `insertion_point` and let the users of `outputs` use
    its results instead (the outputs' definitions stay); raises `CastAndCallFailure`."""
    for output in outputs:
        for use in output.uses:
            user = use.operation
            ok = (
                properly_dominates(insertion_point, user)
                if insert_after
                else dominates(insertion_point, user)
            )
            if not ok:
                raise CastAndCallFailure(
                    f"User {user.name} is not dominated by insertion point {insertion_point.name}",
                    definite=True,
                    at=user,
                )
    for value in inputs:
        if insert_after:
            ok = value_properly_dominates(value, insertion_point) or (
                value.owner is insertion_point
            )
        else:
            ok = value_properly_dominates(value, insertion_point)
        if not ok:
            raise CastAndCallFailure(
                f"input {value.name_hint or 'value'} does not dominate insertion point "
                f"{insertion_point.name}",
                definite=True,
            )
    arg_types = callee.function_type.inputs.data
    res_types = callee.function_type.outputs.data
    if len(arg_types) != len(inputs):
        raise CastAndCallFailure(
            f"mismatch between number of function arguments {len(arg_types)} and number of "
            f"inputs {len(inputs)}",
            definite=False,
            at=callee,
        )
    if len(res_types) != len(outputs):
        raise CastAndCallFailure(
            f"mismatch between number of function results {len(res_types)} and number of "
            f"outputs {len(outputs)}",
            definite=False,
            at=callee,
        )
    _require_same_types([v.type for v in inputs], arg_types)
    _require_same_types(res_types, [v.type for v in outputs])
    call = func.CallOp(callee.sym_name.data, list(inputs), list(res_types))
    where = (
        InsertPoint.after(insertion_point) if insert_after else InsertPoint.before(insertion_point)
    )
    rewriter.insert(call, where)
    for output, result in zip(outputs, call.res, strict=True):
        output.replace_uses_with_if(result, lambda use: use.operation is not call)
    return call


def _require_same_types(sources: Sequence[Attribute], targets: Sequence[Attribute]) -> None:
    # Upstream materializes casts with the type converters of the op's region; schedir has
    # no converter builder ops, so a mismatch is the failure upstream gives when none
    # applies.
    for source, target in zip(sources, targets, strict=True):
        if source != target:
            raise CastAndCallFailure(
                f"Failed to materialize conversion of {source} to type {target}",
                definite=True,
            )


__all__ = [
    "CastAndCallFailure",
    "Deduplicated",
    "calls_of",
    "cast_and_call",
    "deduplicate_func_args",
    "replace_call_with_new_mapping",
    "replace_func_with_new_mapping",
]
