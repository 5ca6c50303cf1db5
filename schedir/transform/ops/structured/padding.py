"""Apply functions of the structured ops that pad, hoist pads and promote tensors:
`hoist_pad`, `hoist_pad.build_packing_loop_nest`, `pad_tiling_interface` and
`promote_tensor` (upstream's LinalgTransformOps.cpp), over
`schedir.transform.rewrites` (`hoist_padding`, `pad_tiling_interface`,
`promote_tensor`), with upstream's messages and failure modes.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import scf
from xdsl.dialects.builtin import ContainerType, ShapedType
from xdsl.ir import Attribute, Operation, TypedAttribute

from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.syntax import op_note
from schedir.dialects.tensor import PadOp
from schedir.dialects.transform.structured.padding import (
    HoistPadBuildPackingLoopNestOp,
    HoistPadOp,
    PadTilingInterfaceOp,
    PromoteTensorOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.structured._sizes import check_sizes, reify_sizes
from schedir.transform.rewrites import hoist_padding, pad_tiling_interface, promote_tensor
from schedir.transform.rewrites.padding import zero_attr
from schedir.transform.rewrites.structured_misc import RewriteFailure
from schedir.transform.state import definite, silenceable
from schedir.transform.tracking import PayloadTracker

# --- hoist_pad ------------------------------------------------------------------------


@applies(HoistPadOp)
def apply_hoist_pad(op: HoistPadOp, interp: Interpreter) -> None:
    """Hoist each `tensor.pad` above `num_loops` loops, building its packing loop nest."""
    transpose = [int(v) for v in op.transpose.get_values()]
    num_loops = op.num_loops.value.data

    tracker = PayloadTracker(interp.state, op)

    def one(payload: Operation) -> list[Mapped]:
        if not isinstance(payload, PadOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        try:
            result = hoist_padding.hoist_padding(payload, num_loops, transpose, tracker.listener())
        except hoist_padding.HoistPaddingFailure:
            raise silenceable(op, f"{op.name} failed to apply", payload) from None
        assert result.replacement is not None
        interp.state.rewriter(payload).replace(payload, [], [result.replacement])
        return [result.hoisted_pad]

    interp.apply_to_each(op, op.target, one)
    tracker.check()


@applies(HoistPadBuildPackingLoopNestOp)
def apply_build_packing_loop_nest(op: HoistPadBuildPackingLoopNestOp, interp: Interpreter) -> None:
    """Build the packing loop nest of one `tensor.pad` above one `scf.for`."""
    targets = interp.state.payload_ops(op.target)
    loops = interp.state.payload_ops(op.loop)
    if len(targets) != 1 or len(loops) != 1:
        raise definite(
            op,
            "requires exactly one target and one loop handle (got "
            f"{len(targets)} and {len(loops)})",
        )
    pad, loop = targets[0], loops[0]
    if not isinstance(pad, PadOp) or not isinstance(loop, scf.ForOp):
        raise definite(op, "requires exactly 2 non-null handles")
    transpose = [int(v) for v in op.transpose.get_values()]
    tracker = PayloadTracker(interp.state, op)
    try:
        result = hoist_padding.build_packing_loop_nest(pad, loop, transpose, tracker.listener())
    except hoist_padding.HoistPaddingFailure:
        raise definite(op, "could not build packing loop nest") from None
    tracker.check()
    packing: Operation = (
        result.packing_loop if result.packing_loop is not None else result.hoisted_pad
    )
    interp.set_results(op, [[packing]])


# --- pad_tiling_interface -------------------------------------------------------------


@applies(PadTilingInterfaceOp)
def apply_pad_tiling_interface(op: PadTilingInterfaceOp, interp: Interpreter) -> None:
    """Pad structured ops to (multiples of) sizes of their iteration domain."""
    static_sizes = [int(v) for v in op.static_padding_sizes.get_values()]
    padded_ops: list[Mapped] = []
    pad_ops: list[Mapped] = []
    for payload in interp.state.payload_ops(op.target):
        if not is_structured(payload):
            raise silenceable(
                op, "expected TilingInterface target", notes=[op_note(payload, "target op")]
            )
        sizes = reify_sizes(op, interp, static_sizes, list(op.padding_sizes))
        check_sizes(op, "padding_sizes", sizes, positive=False)
        values = _padding_values(op, payload)
        options = pad_tiling_interface.Options(
            padding_sizes=tuple(sizes),
            pad_to_multiple_of=op.pad_to_multiple_of is not None,
            padding_values=tuple(values),
        )
        try:
            result = pad_tiling_interface.pad_tiling_interface(
                interp.state.rewriter(payload), payload, options
            )
        except pad_tiling_interface.PadTilingInterfaceFailure:
            raise silenceable(
                op, "failed to pad op", notes=[op_note(payload, "target op")]
            ) from None
        padded_ops.append(result.padded)
        pad_ops.extend(result.pads)
    interp.set_results(op, [padded_ops, pad_ops])


def _padding_values(op: PadTilingInterfaceOp, payload: Operation) -> list[Attribute]:
    """The padding values for the operands (zeros when none are given), checked against
    their element types as upstream's verifier of the attribute does."""
    given = list(op.padding_values.data)
    types = [*(v.type for v in payload.operands), *payload.result_types]
    if not given:
        try:
            return [zero_attr(_element_type(t)) for t in types]
        except RewriteFailure:
            raise silenceable(op, "failed to pad op", payload) from None
    for attr, type_ in zip(given, types, strict=False):
        element = _element_type(type_)
        if isinstance(attr, TypedAttribute) and attr.get_type() != element:
            raise definite(
                op,
                f"'{op.name}' op expects a padding value of type '{element}', got {attr}",
                payload,
            )
    return given


def _element_type(type_: Attribute) -> Attribute:
    if isinstance(type_, ShapedType) and isinstance(type_, ContainerType):
        return cast(ContainerType[Attribute], type_).get_element_type()
    return type_


# --- promote_tensor -------------------------------------------------------------------


@applies(PromoteTensorOp)
def apply_promote_tensor(op: PromoteTensorOp, interp: Interpreter) -> None:
    """Promote each tensor value to a new allocation (in a memory space)."""
    promoted: list[Mapped] = []
    for value in interp.state.payload_values(op.tensor):
        try:
            promoted.append(promote_tensor.promote_tensor(value, op.memory_space))
        except promote_tensor.PromoteTensorFailure as failure:
            raise silenceable(op, str(failure)) from None
    interp.set_results(op, [promoted])
