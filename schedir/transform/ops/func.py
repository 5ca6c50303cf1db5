"""Apply functions of the func transform ops (upstream FuncTransformOps.cpp):
`func.cast_and_call`, `func.replace_func_signature` and `func.deduplicate_func_args`.

Messages and failure modes are upstream's; the payload algorithms are in
`schedir.transform.rewrites.func_signature`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.traits import SymbolTable

from schedir.diagnostics import TransformError
from schedir.dialects.transform.func import (
    CastAndCallOp,
    DeduplicateFuncArgsOp,
    ReplaceFuncSignatureOp,
)
from schedir.transform.interface import Interpreter, applies
from schedir.transform.rewrites.func_signature import (
    CastAndCallFailure,
    calls_of,
    cast_and_call,
    deduplicate_func_args,
    replace_call_with_new_mapping,
    replace_func_with_new_mapping,
)
from schedir.transform.state import definite, payload_location, silenceable


def _symbol_text(symbol: SymbolRefAttr) -> str:
    return "@" + "::@".join(
        [symbol.root_reference.data, *(n.data for n in symbol.nested_references)]
    )


def _target_module(
    op: ReplaceFuncSignatureOp | DeduplicateFuncArgsOp, interp: Interpreter
) -> ModuleOp:
    payload = interp.state.payload_ops(op.module)
    if len(payload) != 1:
        raise definite(op, "requires a single module to operate on")
    if not isinstance(payload[0], ModuleOp):
        raise silenceable(op, "target is expected to be module operation", payload[0])
    return payload[0]


def _lookup_func(module: ModuleOp, symbol: SymbolRefAttr) -> func.FuncOp | None:
    found = SymbolTable.lookup_symbol(module, symbol)
    return found if isinstance(found, func.FuncOp) else None


@applies(ReplaceFuncSignatureOp)
def apply_replace_func_signature(op: ReplaceFuncSignatureOp, interp: Interpreter) -> None:
    """Reorder a function's arguments and results (and, optionally, its calls')."""
    module = _target_module(op, interp)
    name = _symbol_text(op.function_name)
    function = _lookup_func(module, op.function_name)
    if function is None:
        raise silenceable(op, f"function with name '{name}' not found")
    args = list(op.args_interchange.get_values())
    results = list(op.results_interchange.get_values())
    num_args = len(function.args)
    num_results = len(function.function_type.outputs.data)
    if len(args) != num_args:
        raise silenceable(
            op,
            f"function with name '{name}' has {num_args} arguments, but {len(args)} args "
            "interchange were given",
        )
    if len(results) != num_results:
        raise silenceable(
            op,
            f"function with name '{name}' has {num_results} results, but {len(results)} "
            "results interchange were given",
        )
    if len(set(args)) != len(args):
        raise silenceable(op, "args interchange must be unique")
    if len(set(results)) != len(results):
        raise silenceable(op, "results interchange must be unique")
    for index in args:
        if not 0 <= index < num_args:
            raise silenceable(
                op,
                f"args interchange index {index} is out of bounds for function with name "
                f"'{name}' with {num_args} arguments",
            )
    for index in results:
        if not 0 <= index < num_results:
            raise silenceable(
                op,
                f"results interchange index {index} is out of bounds for function with name "
                f"'{name}' with {num_results} results",
            )
    old_arg_to_new = _invert(args)
    old_res_to_new = _invert(results)
    rewriter = interp.state.rewriter(function)
    new_function = replace_func_with_new_mapping(rewriter, function, old_arg_to_new, old_res_to_new)
    if new_function is None:
        raise silenceable(op, f"failed to replace function signature '{name}' with new order")
    if op.adjust_func_calls is not None:
        for call in calls_of(module, op.function_name.root_reference.data):
            replace_call_with_new_mapping(rewriter, call, old_arg_to_new, old_res_to_new)
    interp.set_results(op, [[module], [new_function]])


def _invert(new_to_old: Sequence[int]) -> list[int]:
    """`interchange[new] = old` as `old_to_new[old] = new` (a permutation)."""
    old_to_new = [0] * len(new_to_old)
    for new, old in enumerate(new_to_old):
        old_to_new[old] = new
    return old_to_new


@applies(DeduplicateFuncArgsOp)
def apply_deduplicate_func_args(op: DeduplicateFuncArgsOp, interp: Interpreter) -> None:
    """Merge the arguments that a function's only call passes the same value to."""
    module = _target_module(op, interp)
    function = _lookup_func(module, op.function_name)
    if function is None:
        raise silenceable(op, f"function with name '{_symbol_text(op.function_name)}' is not found")
    result = deduplicate_func_args(interp.state.rewriter(function), function, module)
    if result is None:
        raise silenceable(
            op, f"failed to deduplicate function arguments of function {function.sym_name.data}"
        )
    interp.set_results(op, [[module], [result.function]])


@applies(CastAndCallOp)
def apply_cast_and_call(op: CastAndCallOp, interp: Interpreter) -> None:
    """Call a function at the insertion point and reroute the outputs' users to it."""
    state = interp.state
    inputs = list(state.payload_values(op.inputs)) if op.inputs is not None else []
    outputs: list[SSAValue] = []
    if op.outputs is not None:
        outputs = list(state.payload_values(op.outputs))
        if len(set(outputs)) != len(outputs):
            raise silenceable(op, "cast and call output values must be unique")
    points = state.payload_ops(op.insertion_point)
    if len(points) != 1:
        raise silenceable(op, "Only one op can be specified as an insertion point")
    point = points[0]
    callee = _resolve_callee(op, interp, point)
    try:
        call = cast_and_call(
            state.rewriter(point),
            callee,
            inputs,
            outputs,
            point,
            insert_after=op.insert_after is not None,
        )
    except CastAndCallFailure as err:
        if err.definite:
            raise definite(op, str(err), err.at) from None
        # Upstream reports an arity mismatch at the function, not at the transform op.
        assert err.at is not None
        raise TransformError(str(err), payload_location(err.at), silenceable=True) from None
    interp.set_results(op, [[call]])


def _lookup_nearest(start: Operation, symbol: SymbolRefAttr) -> Operation | None:
    """Upstream's `lookupNearestSymbolFrom`: look in the closest enclosing symbol table
    (an unregistered op claims every trait, so only ops with a region count)."""
    anchor: Operation | None = start
    while anchor is not None and not (anchor.has_trait(SymbolTable) and anchor.regions):
        anchor = anchor.parent_op()
    return SymbolTable.lookup_symbol(anchor, symbol) if anchor is not None else None


def _resolve_callee(op: CastAndCallOp, interp: Interpreter, point: Operation) -> func.FuncOp:
    if op.function_name is not None:
        found = _lookup_nearest(point, op.function_name)
        if not isinstance(found, func.FuncOp):
            raise definite(op, f"unresolved symbol {_symbol_text(op.function_name)}")
        return found
    assert op.function is not None  # the verifier requires a name or a handle
    payload = interp.state.payload_ops(op.function)
    if len(payload) != 1:
        raise definite(op, "requires a single function to call")
    if not isinstance(payload[0], func.FuncOp):
        raise definite(op, "invalid non-function callee", payload[0])
    return payload[0]
