"""Apply functions of the data-tiling ops: `structured.pack`, `structured.pack_transpose`,
`structured.lower_pack`, `structured.lower_unpack` and `structured.pack_greedily`, with
upstream's messages and failure modes (LinalgTransformOps.cpp). The payload algorithms are
in `schedir.transform.rewrites.pack` and `schedir.transform.rewrites.pack_greedily`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.dialects.linalg.interface import is_structured, num_loops
from schedir.dialects.linalg.relayout import PackOp as PayloadPackOp
from schedir.dialects.linalg.relayout import UnPackOp as PayloadUnPackOp
from schedir.dialects.transform.structured.pack import (
    LowerPackOp,
    LowerUnPackOp,
    PackGreedilyOp,
    PackOp,
    PackTransposeOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.ops.structured._sizes import mixed, unpack_single
from schedir.transform.rewrites.pack import (
    PackFailure,
    lower_pack,
    lower_unpack,
    pack_op,
    pack_transpose,
)
from schedir.transform.rewrites.pack_greedily import pack_matmul_greedily
from schedir.transform.state import definite, silenceable


@applies(PackOp)
def apply_pack(op: PackOp, interp: Interpreter) -> None:
    """Pack the one structured op of the target by `packed_sizes`."""
    targets = list(interp.state.payload_ops(op.target))
    if not targets:
        interp.set_results(op, [[]])
        return
    target = targets[0]
    if len(targets) != 1 or not is_structured(target):
        raise silenceable(op, f"requires target to map to exactly 1 LinalgOp (got {len(targets)})")
    entries = mixed(list(op.static_packed_sizes.get_values()), list(op.packed_sizes))
    if len(entries) != num_loops(target):
        raise silenceable(
            op,
            "requires number of packed sizes match the number of loops "
            f"({len(entries)} vs {num_loops(target)})",
        )
    sizes = unpack_single(interp, op, entries)
    try:
        result = pack_op(interp.state.rewriter(target), target, sizes)
    except PackFailure:
        raise definite(op, "data tiling failed") from None
    interp.set_results(op, [[result.packed]])


@applies(PackTransposeOp)
def apply_pack_transpose(op: PackTransposeOp, interp: Interpreter) -> None:
    """Transpose one pack (or unpack) and the generic that consumes (or produces) it."""
    relayouts = list(interp.state.payload_ops(op.target_pack_or_un_pack_op))
    computes = list(interp.state.payload_ops(op.target_linalg_op))
    if len(relayouts) != 1 or len(computes) != 1:
        raise silenceable(
            op,
            "requires target to map to exactly 1 packing op and 1 packed op (got "
            f"{len(relayouts)} and {len(computes)})",
        )
    relayout, compute = relayouts[0], computes[0]
    if not isinstance(relayout, PayloadPackOp | PayloadUnPackOp):
        raise silenceable(op, "requires target to map to a linalg.pack or linalg.unpack")
    if not is_structured(compute):
        raise silenceable(op, "requires a LinalgOp target")
    outer = [int(v) for v in op.outer_perm.get_values()]
    inner = [int(v) for v in op.inner_perm.get_values()]
    try:
        result = pack_transpose(interp.state.rewriter(relayout), relayout, compute, outer, inner)
    except PackFailure as err:
        raise silenceable(op, str(err)) from None
    interp.set_results(
        op,
        [[result.packed], [result.pack], [result.unpack] if result.unpack is not None else []],
    )


@applies(LowerPackOp)
def apply_lower_pack(op: LowerPackOp, interp: Interpreter) -> None:
    """Lower each linalg.pack to pad + expand_shape + transpose."""
    pad_like = bool(op.lowerPadLikeWithInsertSlice.value.data)

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, PayloadPackOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        try:
            result = lower_pack(interp.state.rewriter(payload), payload, pad_like)
        except PackFailure:
            raise silenceable(op, "cannot lower to pad + expand + transpose", payload) from None
        return [result.pad, result.expand_shape, result.transpose]

    interp.apply_to_each(op, op.target, one)


@applies(LowerUnPackOp)
def apply_lower_unpack(op: LowerUnPackOp, interp: Interpreter) -> None:
    """Lower each linalg.unpack to empty + transpose + collapse_shape + extract_slice + copy."""
    unpad_like = bool(op.lowerUnpadLikeWithExtractSlice.value.data)

    def one(payload: Operation) -> list[Mapped | None]:
        if not isinstance(payload, PayloadUnPackOp):
            raise silenceable(op, "transform applied to the wrong op kind", payload)
        try:
            result = lower_unpack(interp.state.rewriter(payload), payload, unpad_like)
        except PackFailure:
            raise silenceable(
                op, "cannot lower to transpose + collapse + extract", payload
            ) from None
        return [
            result.empty,
            result.transpose,
            result.collapse_shape,
            result.extract_slice,
            result.copy,
        ]

    interp.apply_to_each(op, op.target, one)


@applies(PackGreedilyOp)
def apply_pack_greedily(op: PackGreedilyOp, interp: Interpreter) -> None:
    """Pack the matmul of each structured op of the target; an op without one is returned
    as it is, and an op that is not structured is dropped from the result (upstream)."""
    entries = mixed(list(op.static_matmul_packed_sizes.get_values()), list(op.matmul_packed_sizes))
    sizes = unpack_single(interp, op, entries)
    multiples = list(op.matmul_padded_sizes_next_multiple_of.get_values())
    order = list(op.matmul_inner_dims_order.get_values())
    packed: list[Mapped] = []
    for target in interp.state.payload_ops(op.target):
        if not is_structured(target):
            continue
        try:
            result = pack_matmul_greedily(
                interp.state.rewriter(target), target, sizes, multiples, order
            )
        except PackFailure:
            # Failing to pack greedily is fine (upstream): the op stays as it is.
            packed.append(target)
            continue
        packed.append(result.packed)
    interp.set_results(op, [packed])
