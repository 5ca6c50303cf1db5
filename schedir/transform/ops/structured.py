"""Apply functions of the structured transform ops other than plain tiling and fusion.

generalize, specialize, interchange, decompose, decompose_interface, pad,
split_reduction, tile_reduction_using_for and tile_reduction_using_forall, with
upstream's messages and failure modes (LinalgTransformOps.cpp). Each one reads its
handles, calls a payload algorithm from `schedir.transform.rewrites` and sets its result
handles; the interpreter consumes the target handle.

Ops declared with a payload type in upstream's `applyToOne` (LinalgOp, GenericOp) fail
silenceably with "transform applied to the wrong op kind" on any other payload op, and
the other payload ops are still transformed (TransformEachOpTrait).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
    StringAttr,
    TypedAttribute,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.diagnostics import TransformError
from schedir.dialects import linalg
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.structured_partition import (
    PadOp,
    SplitReductionOp,
    TileReductionUsingForallOp,
    TileReductionUsingForOp,
)
from schedir.dialects.transform.structured_rewrite import (
    DecomposeInterfaceOp,
    DecomposeOp,
    GeneralizeOp,
    InterchangeOp,
    SpecializeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.core import flag, int_list_prop, int_prop, operand, prop, str_prop
from schedir.transform.rewrites import padding, specialize, split_reduction, structured_misc
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.rewrites.tiling import reduction as reduction_tiling
from schedir.transform.state import MultipleTransformErrors, definite, handle_kind, silenceable

PayloadCheck = Callable[[Operation], bool]


def _each(
    op: Operation,
    interp: Interpreter,
    accepts: PayloadCheck,
    fn: Callable[[Operation], Sequence[Mapped | None]],
) -> None:
    """Upstream's `applyToOne` over the target handle with a payload-kind check."""
    target = operand(op, "target")
    assert target is not None

    def one(payload: Operation) -> Sequence[Mapped | None]:
        if not accepts(payload):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        return fn(payload)

    interp.apply_to_each(op, target, one)


def _default_failure(op: Operation, payload: Operation) -> TransformError:
    """Upstream's `emitDefaultSilenceableFailure`."""
    return silenceable(op, f"{op.name} failed to apply", payload)


def _is_generic(payload: Operation) -> bool:
    return isinstance(payload, linalg.GenericOp)


# --- generalize / interchange / decompose_interface -------------------------------------


@applies(GeneralizeOp)
def apply_generalize(op: Operation, interp: Interpreter) -> None:
    """Named structured ops -> linalg.generic; generic ops are returned unchanged.

    Return modes: consumes the target; returns one generic per payload op. Silenceable
    failure on ops that are not structured ("transform applied to the wrong op kind").
    """

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.generalize(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        return [result.generic]

    _each(op, interp, linalg.is_structured, one)


@applies(InterchangeOp)
def apply_interchange(op: Operation, interp: Interpreter) -> None:
    """Permute the loops of linalg.generic ops; an empty interchange is a no-op.

    Return modes: consumes the target; returns the (in-place) interchanged generics.
    Silenceable failure on other ops and when the permutation's length is not the number
    of loops; definite failure if the rewrite itself fails.
    """
    permutation = int_list_prop(op, "iterator_interchange")

    def one(payload: Operation) -> list[Mapped]:
        assert isinstance(payload, linalg.GenericOp)
        if not permutation:
            return [payload]
        num_loops = len(payload.iterator_types.data)
        if len(permutation) != num_loops:
            raise silenceable(
                op,
                f'"iterator_interchange" has length ({len(permutation)}) different from the '
                f"number of loops in the target operation ({num_loops})",
            )
        try:
            result = structured_misc.interchange(
                interp.state.rewriter(payload), payload, permutation
            )
        except RewriteFailure:
            raise definite(op, "failed to apply") from None
        return [result.generic]

    _each(op, interp, _is_generic, one)


@applies(DecomposeInterfaceOp)
def apply_decompose_interface(op: Operation, interp: Interpreter) -> None:
    """Decompose aggregated ops (linalg.softmax) into the ops defining their results.

    Return modes: consumes the target; returns the ops defining the new results (the
    final division for softmax). Silenceable failure on ops without a decomposition.
    """

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.decompose_aggregate(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        return list(result.result_ops)

    _each(op, interp, lambda _: True, one)


@applies(SpecializeOp)
def apply_specialize(op: Operation, interp: Interpreter) -> None:
    """linalg.generic -> the named op it is equivalent to; other structured ops are
    returned unchanged.

    Return modes: consumes the target; returns the named ops. Silenceable failure on
    non-structured ops and generics no named op matches; definite failure where
    upstream would build a category op schedir does not define (linalg.elementwise,
    linalg.contract).
    """
    emit_category = flag(op, "emit_category")

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, linalg.GenericOp):
            return [payload]
        try:
            result = specialize.specialize(interp.state.rewriter(payload), payload, emit_category)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        except specialize.UnsupportedSpecialization as unsupported:
            raise definite(
                op,
                f"upstream specializes this op to the category op {unsupported}, which "
                "schedir does not define",
                payload,
            ) from None
        return [result.named]

    _each(op, interp, linalg.is_structured, one)


@applies(DecomposeOp)
def apply_decompose(op: Operation, interp: Interpreter) -> None:
    """2-D convolutions/poolings with a unit window dimension -> their 1-D form.

    Return modes: consumes the target; returns the 1-D ops. Silenceable failure on
    other ops; definite failure when the 1-D op is one schedir does not define.
    """

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = structured_misc.decompose_conv(interp.state.rewriter(payload), payload)
        except RewriteFailure:
            raise _default_failure(op, payload) from None
        except structured_misc.MissingOp as missing:
            raise definite(
                op,
                f"upstream decomposes this op into {missing}, which schedir does not define",
                payload,
            ) from None
        return [result.conv_1d]

    _each(op, interp, linalg.is_structured, one)


# --- pad ------------------------------------------------------------------------------


def _reify_sizes(
    op: Operation, interp: Interpreter, static: Sequence[int], dynamic: Sequence[SSAValue]
) -> list[int]:
    """Upstream's `reifyMixedParamAndHandleResults`: static values, single params and
    handles to single constant index ops, in order."""
    values: list[int] = []
    remaining = iter(dynamic)
    for entry in static:
        if entry != DYNAMIC_INDEX:
            values.append(entry)
            continue
        handle = next(remaining)
        if handle_kind(handle) == "param":
            params = interp.state.params(handle)
            if len(params) != 1:
                raise silenceable(op, "expected a single param")
            values.append(interp.state.int_params(op, handle)[0])
            continue
        payload = interp.state.payload_ops(handle)
        if len(payload) != 1:
            raise silenceable(op, "requires param or handle that is mapped to 1 payload op")
        producer = payload[0]
        if len(producer.results) != 1 or not isinstance(producer.results[0].type, IndexType):
            raise silenceable(op, "requires param or handle to be result of op with 1 index result")
        value = producer.properties.get("value") if isinstance(producer, arith.ConstantOp) else None
        if not isinstance(value, IntegerAttr):
            raise silenceable(op, "requires param or handle to be the result of a constant like op")
        values.append(value.value.data)
    return values


def _padding_attrs(op: Operation, payload: Operation) -> list[Attribute]:
    """The padding values for the operands, checked against their element types (string
    values are parsed as attributes of that type); definite failures as upstream."""
    values = prop(op, "padding_values")
    entries = list(values.data) if isinstance(values, ArrayAttr) else []
    checked: list[Attribute] = []
    for attr, operand_value in zip(entries, payload.operands, strict=False):
        element = operand_value.type
        if isinstance(element, ShapedType):
            element = element.get_element_type()
        if isinstance(attr, StringAttr):
            parsed = _parse_typed(attr.data, element)
            if parsed is None:
                raise definite(
                    op,
                    f"'{op.name}' op expects a padding that parses to '{element}', got "
                    f'"{attr.data}"',
                    payload,
                )
            checked.append(parsed)
            continue
        if not isinstance(attr, TypedAttribute):
            raise definite(op, f"'{op.name}' op expects padding values to be typed attributes")
        if attr.get_type() != element:
            raise definite(
                op,
                f"'{op.name}' op expects a padding value of type '{element}', got {attr}",
                payload,
            )
        checked.append(attr)
    return checked


def _parse_typed(text: str, element: Attribute) -> Attribute | None:
    """A padding value written as a string, parsed as an attribute of `element` type."""
    from xdsl.parser import Parser

    from schedir.dialects import get_context

    try:
        attr = Parser(get_context(), f"{text} : {element}").parse_attribute()
    except Exception:  # a string that is not an attribute of that type
        return None
    return attr if isinstance(attr, TypedAttribute) and attr.get_type() == element else None


@applies(PadOp)
def apply_pad(op: Operation, interp: Interpreter) -> None:
    """Pad structured ops to static (multiple-of) shapes.

    Return modes: consumes the target; returns the padded ops, the tensor.pad ops made
    and the copy-back ops (none with `copy_back_op = "none"`). Silenceable failure on a
    non-structured op or an operand without a static bound; definite failure on a
    padding value of the wrong type.
    """
    target = operand(op, "target")
    assert target is not None
    dims = int_list_prop(op, "padding_dimensions")
    copy_back = str_prop(op, "copy_back_op") or "bufferization.materialize_in_destination"
    if copy_back not in padding.COPY_BACK_OPS:
        raise definite(op, "invalid copy_back_op")
    nofold = tuple(bool(v) for v in int_list_prop(op, "nofold_flags"))
    static_multiples = int_list_prop(op, "static_pad_to_multiple_of")
    dynamic_multiples = list(getattr(op, "pad_to_multiple_of", ()))
    padded_ops: list[Mapped] = []
    pad_ops: list[Mapped] = []
    copy_ops: list[Mapped] = []
    for payload in interp.state.payload_ops(target):
        if not linalg.is_structured(payload):
            raise silenceable(op, "expected LinalgOp target", notes=[op_note(payload, "target op")])
        values = _padding_attrs(op, payload)
        multiples = _reify_sizes(op, interp, static_multiples, dynamic_multiples)
        options = padding.PaddingOptions(
            padding_dimensions=tuple(dims),
            pad_to_multiple_of=tuple(multiples) if multiples else (1,) * len(dims),
            padding_values=tuple(values),
            nofold_flags=nofold,
            copy_back_op=copy_back,
            use_prescribed_tensor_shapes=flag(op, "use_prescribed_tensor_shapes"),
        )
        try:
            result = padding.pad_op(interp.state.rewriter(payload), payload, options)
        except RewriteFailure:
            raise silenceable(
                op, "failed to pad op", notes=[op_note(payload, "target op")]
            ) from None
        padded_ops.append(result.padded)
        pad_ops.extend(result.pads)
        copy_ops.extend(c for c in result.copy_backs if c not in copy_ops)
    interp.set_results(op, [padded_ops, pad_ops, copy_ops])


# --- split_reduction --------------------------------------------------------------------


@applies(SplitReductionOp)
def apply_split_reduction(op: Operation, interp: Interpreter) -> None:
    """Split the reduction of structured ops into partials and a combiner.

    Return modes: consumes the target; returns the partials' tensor.empty (or
    bufferization.alloc_tensor), their fill, the split op and the combining op. Definite
    failure ("failed to apply") when the op cannot be split, as upstream.
    """
    factor = int_prop(op, "split_factor", 0) or 0
    insert = int_prop(op, "insert_split_dimension", 0) or 0
    use_alloc = flag(op, "use_alloc")

    def one(payload: Operation) -> list[Mapped]:
        rewriter = interp.state.rewriter(payload)
        try:
            if flag(op, "use_scaling_algorithm"):
                result = split_reduction.split_reduction_by_scaling(
                    rewriter, payload, factor, insert, use_alloc
                )
            else:
                result = split_reduction.split_reduction(
                    rewriter, payload, factor, insert, flag(op, "inner_parallel"), use_alloc
                )
        except RewriteFailure:
            # Upstream's emitDefaultDefiniteFailure.
            raise definite(
                op, "failed to apply", notes=[op_note(payload, "attempted to apply to this op")]
            ) from None
        return [result.init_or_alloc, result.fill, result.split, result.combining]

    _each(op, interp, linalg.is_structured, one)


# --- tile_reduction_using_for / _forall -------------------------------------------------


def _reduction_tiling_failure(
    op: Operation, payload: Operation, error: reduction_tiling.PartialReductionError, message: str
) -> TransformError:
    """Upstream reports the reason at the payload op, then `message` (silenceable) at the
    transform op."""
    reason = TransformError(f"'{payload.name}' op {error}", op_location(payload), silenceable=True)
    return MultipleTransformErrors([reason, silenceable(op, message)])


def _reduction_tiling_results(result: reduction_tiling.ReductionTilingResult) -> list[Mapped]:
    return [*result.fills, *result.partial_ops, *result.merge_ops, result.loop]


@applies(TileReductionUsingForOp)
def apply_tile_reduction_using_for(op: Operation, interp: Interpreter) -> None:
    """Tile reduction loops into an scf.for of partial accumulations plus a merge.

    Return modes: consumes the target; returns the partials' fills, the partial op, the
    merging linalg.reduce and the outermost loop. Silenceable failure (reported at the
    payload op) on ops without the partial-reduction interface, and ("failed to tile
    using partial reduction", after the reason at the payload op) when the op cannot be
    tiled so.
    """
    sizes = int_list_prop(op, "tile_sizes")
    dims = int_list_prop(op, "reduction_dims")

    def one(payload: Operation) -> list[Mapped]:
        if not linalg.is_structured(payload):
            raise TransformError(
                "Operation should implement PartialReductionOpInterface",
                op_location(payload),
                silenceable=True,
            )
        try:
            result = reduction_tiling.tile_reduction_using_for(
                interp.state.rewriter(payload), payload, sizes, dims
            )
        except reduction_tiling.PartialReductionError as error:
            raise _reduction_tiling_failure(
                op, payload, error, "failed to tile using partial reduction"
            ) from None
        return _reduction_tiling_results(result)

    _each(op, interp, lambda _: True, one)


@applies(TileReductionUsingForallOp)
def apply_tile_reduction_using_forall(op: Operation, interp: Interpreter) -> None:
    """Tile reduction loops into an scf.forall whose iterations reduce into their own
    partials, plus a merge.

    Return modes: consumes the target; returns the partials' fills, the partial op, the
    merging linalg.reduce and the forall. Silenceable failure on non-structured ops and
    ("could not tile reduction", after the reason at the payload op) when the op cannot
    be tiled so.
    """
    threads = int_list_prop(op, "num_threads")
    sizes = int_list_prop(op, "tile_sizes")
    mapping_attr = prop(op, "mapping")
    mapping = list(mapping_attr.data) if isinstance(mapping_attr, ArrayAttr) else []

    def one(payload: Operation) -> list[Mapped]:
        try:
            result = reduction_tiling.tile_reduction_using_forall(
                interp.state.rewriter(payload), payload, threads, sizes, mapping
            )
        except reduction_tiling.PartialReductionError as error:
            raise _reduction_tiling_failure(
                op, payload, error, "could not tile reduction"
            ) from None
        return _reduction_tiling_results(result)

    _each(op, interp, linalg.is_structured, one)
