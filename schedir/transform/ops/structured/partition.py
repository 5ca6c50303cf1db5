"""Apply functions of the structured ops that partition an op's work: `pad`,
`multitile_sizes` (static sizes), `split_reduction`, `tile_reduction_using_for` and
`tile_reduction_using_forall`
(upstream's LinalgTransformOps.cpp), over `schedir.transform.rewrites` (`padding`,
`split_reduction`, `tiling.reduction`), with upstream's messages and failure modes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ContainerType, IntegerAttr, ShapedType, StringAttr, i64
from xdsl.dialects.transform import TransformParamHandleType
from xdsl.ir import Attribute, Operation, TypedAttribute
from xdsl.parser import Parser

from schedir.diagnostics import TransformError
from schedir.dialects import get_context
from schedir.dialects.linalg.interface import is_structured, num_loops, static_loop_ranges
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.structured.partition import (
    MultiTileSizesOp,
    PadOp,
    SplitReductionOp,
    TileReductionUsingForallOp,
    TileReductionUsingForOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.structured._sizes import check_sizes, reify_sizes
from schedir.transform.rewrites import padding, split_reduction
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.rewrites.tiling import reduction as reduction_tiling
from schedir.transform.state import MultipleTransformErrors, definite, silenceable

# --- pad ------------------------------------------------------------------------------


def _padding_attrs(op: PadOp, payload: Operation) -> list[Attribute]:
    """The padding values for the operands, checked against their element types (string
    values are parsed as attributes of that type); definite failures as upstream."""
    entries = list(op.padding_values.data)
    checked: list[Attribute] = []
    for attr, operand_value in zip(entries, payload.operands, strict=False):
        element = operand_value.type
        if isinstance(element, ShapedType) and isinstance(element, ContainerType):
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
    try:
        attr = Parser(get_context(), f"{text} : {element}").parse_attribute()
    except Exception:  # a string that is not an attribute of that type
        return None
    return attr if isinstance(attr, TypedAttribute) and attr.get_type() == element else None


@applies(PadOp)
def apply_pad(op: PadOp, interp: Interpreter) -> None:
    """Pad structured ops to static (multiple-of) shapes."""
    dims = [a.value.data for a in op.padding_dimensions.data]
    copy_back = op.copy_back_op.data or "bufferization.materialize_in_destination"
    if copy_back not in padding.COPY_BACK_OPS:
        raise definite(op, "invalid copy_back_op")
    nofold = tuple(bool(a.value.data) for a in op.nofold_flags.data)
    static_multiples = (
        [int(v) for v in op.static_pad_to_multiple_of.get_values()]
        if op.static_pad_to_multiple_of is not None
        else []
    )
    dynamic_multiples = list(op.pad_to_multiple_of)
    padded_ops: list[Mapped] = []
    pad_ops: list[Mapped] = []
    copy_ops: list[Mapped] = []
    for payload in interp.state.payload_ops(op.target):
        if not is_structured(payload):
            raise silenceable(op, "expected LinalgOp target", notes=[op_note(payload, "target op")])
        values = _padding_attrs(op, payload)
        multiples = reify_sizes(op, interp, static_multiples, dynamic_multiples)
        check_sizes(op, "pad_to_multiple_of", multiples, positive=True)
        options = padding.PaddingOptions(
            padding_dimensions=tuple(dims),
            pad_to_multiple_of=tuple(multiples) if multiples else (1,) * len(dims),
            padding_values=tuple(values),
            nofold_flags=nofold,
            copy_back_op=copy_back,
            use_prescribed_tensor_shapes=op.use_prescribed_tensor_shapes is not None,
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


# --- multitile_sizes -------------------------------------------------------------------


def static_multitile_sizes(
    trip_count: int, target_size: int, divisor: int
) -> tuple[int, int, int] | None:
    """(low size, high size, split point) tiling `trip_count` exactly with low and high
    tiles, multiples of `divisor` near `target_size` (upstream's
    `computeStaticMultiTileSizes`); None where none does (`trip_count` not a multiple of
    `divisor`)."""
    a = trip_count // divisor
    t = -(-target_size // divisor)
    total = -(-a // t)
    if total == 0:
        return None
    low = (a // total) * divisor
    high = low + divisor
    low_trips = total - a % total
    high_trips = a % total
    if low * low_trips + high * high_trips != trip_count:
        return None
    return low, high, low * low_trips


@applies(MultiTileSizesOp)
def apply_multitile_sizes(op: MultiTileSizesOp, interp: Interpreter) -> None:
    """Two tile sizes and a split point that tile `dimension` of each target exactly, as
    params, as upstream's for param results: a silenceable failure where the dimension is
    dynamic or not a multiple of `divisor`. Op-handle results (upstream builds the index
    computation for dynamic sizes) are not supported: a definite failure."""
    dimension = op.dimension.value.data
    target_size = op.target_size.value.data
    divisor = op.divisor.value.data
    if target_size <= 0 or divisor <= 0:
        raise definite(op, "expects target_size and divisor to be positive")
    if not isinstance(op.low_size.type, TransformParamHandleType):
        raise definite(
            op, "only !transform.param results are supported (the sizes of static shapes)"
        )

    def one(payload: Operation) -> list[Mapped]:
        if not is_structured(payload):
            raise silenceable(op, "only applies to structured ops", payload)
        if dimension >= num_loops(payload):
            raise silenceable(op, "dimension overflow", payload)
        trip_count = static_loop_ranges(payload)[dimension]
        if trip_count < 0:
            raise silenceable(
                op,
                "cannot compute parametric tile sizes for dynamically shaped payload op",
                payload,
            )
        sizes = static_multitile_sizes(trip_count, target_size, divisor)
        if sizes is None:
            raise silenceable(op, "failed to compute multi-size tiling sizes", payload)
        return [IntegerAttr(size, i64) for size in sizes]

    interp.apply_to_each(op, op.target, one)


# --- split_reduction --------------------------------------------------------------------


@applies(SplitReductionOp)
def apply_split_reduction(op: SplitReductionOp, interp: Interpreter) -> None:
    """Split the reduction of structured ops into partials and a combiner."""
    factor = op.split_factor.value.data
    insert = op.insert_split_dimension.value.data
    use_alloc = op.use_alloc is not None

    def one(payload: Operation) -> list[Mapped]:
        if not is_structured(payload):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        rewriter = interp.state.rewriter(payload)
        try:
            if op.use_scaling_algorithm is not None:
                result = split_reduction.split_reduction_by_scaling(
                    rewriter, payload, factor, insert, use_alloc
                )
            else:
                result = split_reduction.split_reduction(
                    rewriter, payload, factor, insert, op.inner_parallel is not None, use_alloc
                )
        except RewriteFailure:
            # Upstream's emitDefaultDefiniteFailure.
            raise definite(
                op, "failed to apply", notes=[op_note(payload, "attempted to apply to this op")]
            ) from None
        return [result.init_or_alloc, result.fill, result.split, result.combining]

    interp.apply_to_each(op, op.target, one)


# --- tile_reduction_using_for / _forall -------------------------------------------------


def _reduction_tiling_failure(
    op: TileReductionUsingForOp | TileReductionUsingForallOp,
    payload: Operation,
    error: reduction_tiling.PartialReductionError,
    message: str,
) -> TransformError:
    """Upstream reports the reason at the payload op, then `message` (silenceable) at the
    transform op."""
    reason = TransformError(f"'{payload.name}' op {error}", op_location(payload), silenceable=True)
    return MultipleTransformErrors([reason, silenceable(op, message)])


def _reduction_tiling_results(result: reduction_tiling.ReductionTilingResult) -> list[Mapped]:
    return [*result.fills, *result.partial_ops, *result.merge_ops, result.loop]


@applies(TileReductionUsingForOp)
def apply_tile_reduction_using_for(op: TileReductionUsingForOp, interp: Interpreter) -> None:
    """Tile reduction loops into an `scf.for` of partial accumulations plus a merge."""
    sizes = [a.value.data for a in op.tile_sizes.data]
    dims = [a.value.data for a in op.reduction_dims.data]
    check_sizes(op, "tile sizes", sizes)

    def one(payload: Operation) -> list[Mapped]:
        if not is_structured(payload):
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

    interp.apply_to_each(op, op.target, one)


@applies(TileReductionUsingForallOp)
def apply_tile_reduction_using_forall(op: TileReductionUsingForallOp, interp: Interpreter) -> None:
    """Tile reduction loops into an `scf.forall` of partial accumulations plus a merge."""
    threads = [int(v) for v in op.num_threads.get_values()]
    sizes = [int(v) for v in op.tile_sizes.get_values()]
    check_sizes(op, "num_threads", threads, threads=True)
    check_sizes(op, "tile sizes", sizes)
    mapping = list(op.mapping.data) if op.mapping is not None else []

    def one(payload: Operation) -> list[Mapped]:
        if not is_structured(payload):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        try:
            result = reduction_tiling.tile_reduction_using_forall(
                interp.state.rewriter(payload), payload, threads, sizes, mapping
            )
        except reduction_tiling.PartialReductionError as error:
            raise _reduction_tiling_failure(
                op, payload, error, "could not tile reduction"
            ) from None
        return _reduction_tiling_results(result)

    interp.apply_to_each(op, op.target, one)
