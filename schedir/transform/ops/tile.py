"""Apply functions of `transform.structured.tile_using_for` and `tile_using_forall`.

Thin adapters over `schedir.transform.rewrites.tiling`: they read the sizes from the op
(static, params, handles, packed), tile each payload op and set the result handles, with
upstream's diagnostics (LinalgTransformOps.cpp, TileUsingForOp / TileUsingForallOp).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DenseArrayBase, IndexType, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.diagnostics import Note
from schedir.dialects.syntax import op_note
from schedir.dialects.transform.structured import TileUsingForallOp, TileUsingForOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.rewrites.tiling.affine import Ofr
from schedir.transform.rewrites.tiling.interface import is_tileable, loop_iterator_types
from schedir.transform.rewrites.tiling.tile_using_scf import (
    TilingError,
    TilingOptions,
    tile_using_scf,
)
from schedir.transform.state import definite, handle_kind, silenceable, value_location


def dense(attr: Attribute | None) -> list[int]:
    """The values of an optional i64/i1 dense array property."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    return []


def mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """Static entries with each DYNAMIC_INDEX replaced by the next dynamic operand."""
    operands = iter(dynamic)
    return [next(operands) if v == DYNAMIC_INDEX else v for v in static]


def _int_param(op: Operation, attr: Attribute) -> int:
    if not isinstance(attr, IntegerAttr):
        raise definite(op, "expected the parameter to be associated with an integer attribute")
    return attr.value.data


def _index_result(op: Operation, producer: Operation) -> SSAValue:
    """The single index result of a size-producing payload op (upstream's check)."""
    if len(producer.results) != 1 or not isinstance(producer.results[0].type, IndexType):
        raise silenceable(
            op,
            "payload op must have exactly 1 index result",
            notes=[op_note(producer, f"has {len(producer.results)} results")],
        )
    return producer.results[0]


def unpack_single(
    interp: Interpreter, op: Operation, entries: Sequence[int | SSAValue]
) -> list[Ofr]:
    """Upstream's `unpackSingleIndexResultPayloadOperations`: each param holds one
    integer, each handle one payload op with one index result."""
    result: list[Ofr] = []
    for entry in entries:
        if isinstance(entry, int):
            result.append(entry)
            continue
        if handle_kind(entry) == "param":
            params = interp.state.params(entry)
            if len(params) != 1:
                raise definite(op, "requires exactly one parameter associated")
            result.append(_int_param(op, params[0]))
            continue
        payloads = interp.state.payload_ops(entry)
        if len(payloads) != 1:
            raise silenceable(
                op,
                "handle must be mapped to exactly one payload op",
                notes=[Note(f"mapped to {len(payloads)} payload ops", value_location(entry))],
            )
        result.append(_index_result(op, payloads[0]))
    return result


def unpack_packed(interp: Interpreter, op: Operation, packed: SSAValue) -> list[Ofr]:
    """A packed list `*(%h)`: every integer of a param, or the index result of every op."""
    if handle_kind(packed) == "param":
        return [_int_param(op, attr) for attr in interp.state.params(packed)]
    return [_index_result(op, payload) for payload in interp.state.payload_ops(packed)]


# --- tile_using_for ----------------------------------------------------------------------


def _per_target_sizes(
    interp: Interpreter,
    op: Operation,
    targets: Sequence[Operation],
    entries: Sequence[int | SSAValue],
) -> list[list[Ofr]]:
    """Tile sizes for each target: a param or handle gives one value per target."""
    columns: list[list[Ofr]] = []
    for entry in entries:
        if isinstance(entry, int):
            columns.append([entry] * len(targets))
            continue
        if handle_kind(entry) == "param":
            values = [_int_param(op, a) for a in interp.state.params(entry)]
            if len(values) != len(targets):
                # Upstream prints the (empty) producer count here, so always 0.
                raise silenceable(
                    op,
                    f"expected as many parameter values (0) as target ops ({len(targets)})",
                    notes=[Note("for this parameter", value_location(entry))],
                )
            columns.append(list(values))
            continue
        producers = interp.state.payload_ops(entry)
        if len(producers) != len(targets):
            raise silenceable(
                op,
                f"expected as many dynamic size-producing operations ({len(producers)}) as target ops "
                f"({len(targets)})",
                notes=[Note("for this handle", value_location(entry))],
            )
        column: list[Ofr] = []
        for producer in producers:
            if len(producer.results) != 1 or not isinstance(producer.results[0].type, IndexType):
                raise silenceable(
                    op,
                    "expected sizes to be produced by ops with a single index-type result",
                    notes=[
                        op_note(producer, "size producer op"),
                        Note("for this handle", value_location(entry)),
                    ],
                )
            column.append(producer.results[0])
        columns.append(column)
    return [[column[i] for column in columns] for i in range(len(targets))]


def _interchange(interp: Interpreter, op: Operation) -> list[int]:
    packed = getattr(op, "packed_interchange", None)
    if packed is not None:
        return [v if isinstance(v, int) else -1 for v in unpack_packed(interp, op, packed)]
    entries = mixed(
        dense(op.properties.get("static_interchange")), list(getattr(op, "interchange", ()))
    )
    values = unpack_single(interp, op, entries)
    if any(not isinstance(v, int) for v in values):
        raise silenceable(op, "expected the interchange to be given by constants or parameters")
    return [v for v in values if isinstance(v, int)]


@applies(TileUsingForOp)
def apply_tile_using_for(op: Operation, interp: Interpreter) -> None:
    """Tile each target into an `scf.for` nest (one loop per non-zero size, after
    `interchange`); results are the tiled ops and, per loop depth, the loops. A target
    with buffer semantics gives loops without iter_args over `memref.subview`s.

    Return modes: consumes the target; silenceable failure for a target without the
    TilingInterface, for more sizes than loops and for size params/handles that do not
    give one size per target; definite failure when tiling itself fails.
    """
    targets = list(interp.state.payload_ops(op.operands[0]))
    packed = getattr(op, "packed_tile_sizes", None)
    scalable = dense(op.properties.get("scalable_sizes"))
    if any(scalable):
        raise definite(op, "scalable tile sizes are not supported: schedir targets have no vscale")
    if packed is not None:
        shared = unpack_packed(interp, op, packed)
        sizes_per_target = [list(shared) for _ in targets]
        # Upstream checks the count of the static list only, which is empty here.
        num_sizes = 0
    else:
        static = dense(op.properties.get("static_sizes"))
        entries = mixed(static, list(getattr(op, "dynamic_sizes", ())))
        sizes_per_target = _per_target_sizes(interp, op, targets, entries)
        num_sizes = len(static)
    interchange = _interchange(interp, op)
    num_loop_results = len(op.results) - 1
    tiled: list[Operation] = []
    loops: list[list[Operation]] = [[] for _ in range(num_loop_results)]
    for target, sizes in zip(targets, sizes_per_target, strict=True):
        if not is_tileable(target):
            raise silenceable(
                op,
                "only ops implementing TilingInterface are supported",
                notes=[op_note(target, "target op")],
            )
        num_loops = len(loop_iterator_types(target))
        if num_sizes > num_loops:
            raise silenceable(
                op,
                f"too many tiles provided, expected at most {num_loops} found {num_sizes}",
                notes=[op_note(target, "target op")],
            )
        rewriter = interp.state.rewriter(target)
        try:
            result = tile_using_scf(
                rewriter,
                target,
                TilingOptions(tile_sizes=tuple(sizes), interchange=tuple(interchange)),
            )
        except TilingError as err:
            raise definite(op, str(err), target) from None
        rewriter.replace(target, [], list(result.replacements))
        tiled.extend(result.tiled_ops)
        for depth, loop in enumerate(result.loops[:num_loop_results]):
            loops[depth].append(loop)
    interp.set_results(op, [tiled, *loops])


# --- tile_using_forall -------------------------------------------------------------------


def _forall_entries(interp: Interpreter, op: Operation, kind: str) -> list[Ofr]:
    packed = getattr(op, f"packed_{kind}", None)
    if packed is not None:
        return unpack_packed(interp, op, packed)
    static = dense(op.properties.get(f"static_{kind}"))
    return unpack_single(interp, op, mixed(static, list(getattr(op, kind, ()))))


@applies(TileUsingForallOp)
def apply_tile_using_forall(op: Operation, interp: Interpreter) -> None:
    """Tile each target into one `scf.forall` by `num_threads` or `tile_sizes`, copying
    `mapping` onto it; results are the tiled ops and the foralls. A target with buffer
    semantics gives a forall without shared_outs over `memref.subview`s.

    Return modes: consumes the target; silenceable failure for a target without the
    TilingInterface and for size handles that are not one op with one index result;
    definite failure for a size param with more or less than one value and when tiling
    fails. (Upstream also warns when a non-parallel loop is tiled; schedir does not.)
    """
    num_threads = _forall_entries(interp, op, "num_threads")
    tile_sizes = _forall_entries(interp, op, "tile_sizes")
    mapping_attr = op.properties.get("mapping")
    mapping = tuple(mapping_attr.data) if isinstance(mapping_attr, ArrayAttr) else ()
    tiled: list[Operation] = []
    foralls: list[Operation] = []
    for target in interp.state.payload_ops(op.operands[0]):
        if not is_tileable(target):
            raise silenceable(
                op, "only TilingInterface ops are supported", notes=[op_note(target, "target op")]
            )
        options = TilingOptions(
            tile_sizes=tuple(tile_sizes),
            num_threads=tuple(num_threads),
            loop_type="forall",
            mapping=mapping,
            normalize_forall=not num_threads,
        )
        rewriter = interp.state.rewriter(target)
        try:
            result = tile_using_scf(rewriter, target, options)
        except TilingError as err:
            raise definite(op, str(err), target) from None
        rewriter.replace(target, [], list(result.replacements))
        foralls.extend(result.loops[:1])
        tiled.extend(result.tiled_ops)
    interp.set_results(op, [tiled, foralls])
