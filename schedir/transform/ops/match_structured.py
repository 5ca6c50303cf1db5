"""Apply functions of `transform.match.structured` and its predicates (upstream's
LinalgMatchOps.cpp), with upstream's messages, failure kinds and results.

`match.structured` binds its one structured payload op to its block argument and applies
the predicates of its body in order; the first silenceable failure ends the match
(`failures(propagate)`, the default) or is dropped with the results defined so far kept
(`failures(suppress)`). The predicates read the op's loops, operands, results and body
through the structured-op interface of `schedir.dialects.linalg`; the body and dimension
analyses they share with upstream (isContractionBody, matchReduction, isElementwise,
inferContractionDims, inferConvolutionDims) are in `_linalg_analysis`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ContainerType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    i64,
)
from xdsl.dialects.transform import AffineMapType, TransformValueHandleType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap

from schedir.diagnostics import TransformError
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
    num_loops,
    static_loop_ranges,
)
from schedir.dialects.syntax import op_note
from schedir.dialects.transform.core import FailurePropagationMode
from schedir.dialects.transform.match_structured import (
    MatchStructuredBodyOp,
    MatchStructuredClassifyContractionDimsOp,
    MatchStructuredClassifyConvolutionDimsOp,
    MatchStructuredDimOp,
    MatchStructuredElementalBitwidthOp,
    MatchStructuredInitOp,
    MatchStructuredInputOp,
    MatchStructuredNumInitsOp,
    MatchStructuredNumInputsOp,
    MatchStructuredOp,
    MatchStructuredRankOp,
    MatchStructuredResultOp,
    MatchStructuredYieldOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops._linalg_analysis import (
    contraction_body_error,
    infer_contraction_dims,
    infer_convolution_dims,
    is_elementwise,
    is_permutation,
    match_reduction,
    type_text,
)
from schedir.transform.state import definite, silenceable

K_DYNAMIC = -(2**63)
"""`ShapedType::kDynamic`: the size `match.structured.dim` captures for a dynamic loop."""


# --- shared helpers ----------------------------------------------------------------------


def _single_op(op: Operation, interp: Interpreter, handle: SSAValue) -> Operation:
    """Upstream's SingleOpMatcherOpTrait: the handle must hold exactly one payload op."""
    payloads = interp.state.payload_ops(handle)
    if len(payloads) != 1:
        raise definite(
            op,
            "SingleOpMatchOpTrait requires the operand handle to point to a single payload op",
        )
    return payloads[0]


def _structured(op: Operation, interp: Interpreter, handle: SSAValue) -> Operation:
    """The structured payload op of a predicate (its parent already checked the kind)."""
    current = _single_op(op, interp, handle)
    if not is_structured(current):
        # Unreachable through the verifier (predicates sit directly in match.structured,
        # which checks the kind before applying them); upstream would `cast` and crash.
        raise definite(op, "expected a Linalg op", current)
    return current


def _i64_params(values: Sequence[int]) -> list[Mapped]:
    return [IntegerAttr(v, i64) for v in values]


def _positions(
    op: MatchStructuredDimOp | MatchStructuredInputOp | MatchStructuredInitOp,
    raw: Sequence[int],
    count: int,
    payload: Operation,
    what: str,
) -> list[int]:
    """Upstream's expandTargetSpecification: `[0, -1]`, `[all]`, `[except(0)]` -> indices.

    Out-of-range and repeated positions are silenceable failures with a note at the
    payload op (`while considering <what> of this payload operation`).
    """
    if op.is_all is not None:
        return list(range(count))
    note = op_note(payload, f"while considering {what} of this payload operation")
    listed: list[int] = []
    for position in raw:
        updated = position + count if position < 0 else position
        if updated >= count:
            message = f"position overflow {updated} (updated from {position}) for maximum {count}"
        elif updated < 0:
            message = f"position underflow {updated} (updated from {position})"
        elif updated in listed:
            message = f"repeated position {updated} (updated from {position})"
        else:
            listed.append(updated)
            continue
        raise silenceable(op, message, notes=[note])
    if op.is_inverted is not None:
        return [i for i in range(count) if i not in listed]
    return listed


# --- match.structured --------------------------------------------------------------------


@applies(MatchStructuredOp)
def apply_match_structured(op: MatchStructuredOp, interp: Interpreter) -> None:
    """Bind the structured payload op and apply the body's predicates in order."""
    current = _single_op(op, interp, op.current)
    suppress = op.mode == FailurePropagationMode.SUPPRESS
    if not is_structured(current):
        if not suppress:
            raise silenceable(op, "expected a Linalg op")
        # An optional match of a non-structured op succeeds with empty results.
        interp.set_results(op, [[] for _ in op.results])
        return
    block = op.body_region.block
    nested_ops = list(block.ops)
    terminator = nested_ops.pop()
    state = interp.state
    with state.region_scope(op.body_region):
        try:
            state.set_mapped(block.args[0], [current])
        except TransformError as err:
            # Upstream reports the handle type mismatch and fails definitely.
            err.silenceable = False
            raise
        undefined: set[SSAValue] = set()
        for index, nested in enumerate(nested_ops):
            try:
                interp.apply(nested)
            except TransformError as err:
                if not err.silenceable or not suppress:
                    raise
                # Suppressed: forward only the terminator operands already defined
                # (outside the body, or by an op before the failing one); the other
                # results are empty.
                undefined = {r for later in nested_ops[index:] for r in later.results}
                break
        results = [[] if v in undefined else list(state.mapped(v)) for v in terminator.operands]
    interp.set_results(op, results)


# --- predicates on the body --------------------------------------------------------------


@applies(MatchStructuredBodyOp)
def apply_body(op: MatchStructuredBodyOp, interp: Interpreter) -> None:
    """`match.structured.body`: reduction, passthrough, elementwise or contraction body."""
    current = _structured(op, interp, op.operand_handle)
    block = current.regions[0].block
    if op.reduction_position is not None:
        combiners = match_reduction(current, op.reduction_position.value.data)
        if combiners is None:
            raise silenceable(op, "could not match reduction")
        if len(combiners) != 1:
            raise silenceable(op, "reduction combiner is not a single op")
        return
    if op.passthrough is not None:
        terminator = block.last_op
        inputs = list(block.args[: len(dps_inputs(current))])
        if terminator is None or list(terminator.operands) != inputs:
            raise silenceable(op, "not a passthrough")
        return
    if op.elementwise is not None:
        if not is_elementwise(current):
            raise silenceable(op, "not elementwise")
        return
    if op.contraction is not None:
        elem, red = (name.data for name in op.contraction.data)
        error = contraction_body_error(block, elem, red)
        if error is not None:
            raise silenceable(op, f"contraction: {error}")
        return
    raise definite(op, "unknown body condition")


# --- predicates on loops -----------------------------------------------------------------


@applies(MatchStructuredDimOp)
def apply_dim(op: MatchStructuredDimOp, interp: Interpreter) -> None:
    """`match.structured.dim`: loop kinds, optionally capturing static sizes as i64."""
    current = _structured(op, interp, op.operand_handle)
    dims = _positions(op, op.raw_dim_list.get_values(), num_loops(current), current, "dimensions")
    kind = "parallel" if op.parallel is not None else "reduction" if op.reduction else None
    if kind is not None:
        iterators = iterator_types(current)
        for dim in dims:
            if iterators[dim] != kind:
                raise silenceable(op, f"expects dimension #{dim} to be {kind}")
    if op.result is None:
        return
    ranges = [K_DYNAMIC if size < 0 else size for size in static_loop_ranges(current)]
    interp.set_results(op, [_i64_params([ranges[d] for d in dims])])


@applies(MatchStructuredRankOp)
def apply_rank(op: MatchStructuredRankOp, interp: Interpreter) -> None:
    """`match.structured.rank`: the number of loops as an i64 param."""
    current = _structured(op, interp, op.operand_handle)
    interp.set_results(op, [_i64_params([num_loops(current)])])


@applies(MatchStructuredNumInputsOp)
def apply_num_inputs(op: MatchStructuredNumInputsOp, interp: Interpreter) -> None:
    """`match.structured.num_inputs`: the number of DPS inputs as an i64 param."""
    current = _structured(op, interp, op.operand_handle)
    interp.set_results(op, [_i64_params([len(dps_inputs(current))])])


@applies(MatchStructuredNumInitsOp)
def apply_num_inits(op: MatchStructuredNumInitsOp, interp: Interpreter) -> None:
    """`match.structured.num_inits`: the number of DPS inits as an i64 param."""
    current = _structured(op, interp, op.operand_handle)
    interp.set_results(op, [_i64_params([len(dps_inits(current))])])


@applies(MatchStructuredClassifyContractionDimsOp)
def apply_classify_contraction_dims(
    op: MatchStructuredClassifyContractionDimsOp, interp: Interpreter
) -> None:
    """`match.structured.classify_contraction_dims`: batch, m, n, k (upstream's
    inferContractionDims) as i64 params."""
    current = _structured(op, interp, op.operand_handle)
    dims = infer_contraction_dims(current)
    if dims is None:
        raise silenceable(op, "could not infer contraction dimensions")
    interp.set_results(op, [_i64_params(d) for d in dims])


@applies(MatchStructuredClassifyConvolutionDimsOp)
def apply_classify_convolution_dims(
    op: MatchStructuredClassifyConvolutionDimsOp, interp: Interpreter
) -> None:
    """`match.structured.classify_convolution_dims`: batch, output image/channel, filter
    loop, input channel, depth, strides, dilations (upstream's inferConvolutionDims)."""
    current = _structured(op, interp, op.operand_handle)
    dims = infer_convolution_dims(current)
    if dims is None:
        raise silenceable(op, "could not infer convolution dimensions")
    interp.set_results(op, [_i64_params(d) for d in dims])


# --- predicates on operands and results --------------------------------------------------


def _apply_operand(
    op: MatchStructuredInputOp | MatchStructuredInitOp, interp: Interpreter, *, inits: bool
) -> None:
    """`match.structured.input` / `.init`: map checks, capture of operands, producers or
    indexing maps."""
    current = _structured(op, interp, op.operand_handle)
    inputs = dps_inputs(current)
    operands = dps_inits(current) if inits else inputs
    maps = indexing_maps(current)[len(inputs) :] if inits else indexing_maps(current)
    what = "DPS inits (outputs)" if inits else "DPS inputs"
    positions = _positions(op, op.raw_position_list.get_values(), len(operands), current, what)
    name = "output(init)" if inits else "input"
    captured: list[Mapped] = []
    for position in positions:
        map_: AffineMap = maps[position]
        if op.permutation is not None and not is_permutation(map_):
            raise silenceable(op, f"the indexing map for {name} #{position} is not a permutation")
        if op.projected_permutation is not None and not map_.is_projected_permutation():
            # Upstream's message for inits says "permutation" here too.
            expected = "permutation" if inits else "projected permutation"
            raise silenceable(op, f"the indexing map for {name} #{position} is not a {expected}")
        if op.result is None:
            continue
        if isinstance(op.result.type, AffineMapType):
            captured.append(AffineMapAttr(map_))
            continue
        value = operands[position]
        if isinstance(op.result.type, TransformValueHandleType):
            captured.append(value)
            continue
        if not isinstance(value, OpResult):
            raise silenceable(op, f"{name} #{position} is not produced by an operation")
        captured.append(value.op)
    if op.result is not None:
        interp.set_results(op, [captured])


@applies(MatchStructuredInputOp)
def apply_input(op: MatchStructuredInputOp, interp: Interpreter) -> None:
    """`match.structured.input`."""
    _apply_operand(op, interp, inits=False)


@applies(MatchStructuredInitOp)
def apply_init(op: MatchStructuredInitOp, interp: Interpreter) -> None:
    """`match.structured.init`."""
    _apply_operand(op, interp, inits=True)


@applies(MatchStructuredResultOp)
def apply_result(op: MatchStructuredResultOp, interp: Interpreter) -> None:
    """`match.structured.result`: the result tied to an init, or its `any`/`single` user."""
    current = _structured(op, interp, op.operand_handle)
    raw = op.position.value.data
    count = len(dps_inits(current))
    position = count + raw if raw < 0 else raw
    if not 0 <= position < count or position >= len(current.results):
        # Buffer-semantics ops have no results; upstream would dereference a null value.
        raise silenceable(
            op,
            f"position {raw} overflows the number of results(ints) of the payload operation",
        )
    result = current.results[position]
    if isinstance(op.result.type, TransformValueHandleType):
        interp.set_results(op, [[result]])
        return
    # MLIR's (and xDSL's) use lists start with the most recently added use.
    uses = list(result.uses)
    if not uses:
        raise silenceable(op, f"no users of the result #{raw}")
    if op.single is not None and len(uses) != 1:
        raise silenceable(op, "more than one result user with single user requested")
    if op.any is None and op.single is None:
        raise definite(op, "unknown sub-predicate")
    interp.set_results(op, [[uses[0].operation]])


@applies(MatchStructuredElementalBitwidthOp)
def apply_elemental_bitwidth(op: MatchStructuredElementalBitwidthOp, interp: Interpreter) -> None:
    """`match.structured.elemental_bitwidth`: bitwidth of a value's (element) type."""
    values = interp.state.payload_values(op.operand_handle)
    if len(values) != 1:
        raise definite(
            op,
            "SingleValueMatchOpTrait requires the value handle to point to a single payload value",
        )
    value_type: Attribute = values[0].type
    element = (
        value_type.get_element_type()
        if isinstance(value_type, ShapedType) and isinstance(value_type, ContainerType)
        else value_type
    )
    if isinstance(element, IntegerType | AnyFloat):
        interp.set_results(op, [_i64_params([cast(IntegerType, element).bitwidth])])
        return
    # MLIR diagnostics quote the types they print.
    raise silenceable(op, f"unsupported type for bitwidth extraction: '{type_text(value_type)}'")


@applies(MatchStructuredYieldOp)
def apply_structured_yield(op: MatchStructuredYieldOp, interp: Interpreter) -> None:
    """`match.structured.yield` is never applied on its own: its parent reads it."""
    raise definite(op, "'transform.match.structured.yield' is applied by its parent op")
