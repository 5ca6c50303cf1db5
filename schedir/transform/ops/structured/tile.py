"""Apply functions of the tiling ops `transform.structured.tile_using_for` and
`tile_using_forall`.

Thin adapters over `schedir.transform.rewrites.tiling`: they read the sizes from the op
(static, params, handles, packed), tile each payload op and set the result handles, with
upstream's diagnostics (LinalgTransformOps.cpp, TileUsingForOp / TileUsingForallOp).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IndexType
from xdsl.ir import Operation, SSAValue

from schedir.diagnostics import Diagnostic, Note, TransformError
from schedir.dialects.syntax import op_location, op_note
from schedir.dialects.transform.structured.tile import TileUsingForallOp, TileUsingForOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.ops.structured._sizes import (
    check_sizes,
    dense,
    int_param,
    mixed,
    unpack_packed,
    unpack_single,
)
from schedir.transform.rewrites.tiling.affine import Ofr, constant_of
from schedir.transform.rewrites.tiling.interface import (
    OpTilingError,
    is_tileable,
    loop_iterator_types,
)
from schedir.transform.rewrites.tiling.tile_using_scf import (
    PartialTileError,
    TilingError,
    TilingOptions,
    tile_using_scf,
)
from schedir.transform.state import (
    MultipleTransformErrors,
    definite,
    handle_kind,
    payload_location,
    silenceable,
    value_location,
)

# --- tile_using_for ----------------------------------------------------------------------


def _per_target_sizes(
    interp: Interpreter,
    op: TileUsingForOp,
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
            values = [int_param(op, a) for a in interp.state.params(entry)]
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


def _interchange(interp: Interpreter, op: TileUsingForOp) -> list[int]:
    packed = op.packed_interchange
    if packed is not None:
        return [v if isinstance(v, int) else -1 for v in unpack_packed(interp, op, packed)]
    entries = mixed(dense(op.static_interchange), list(op.interchange))
    values = unpack_single(interp, op, entries)
    if any(not isinstance(v, int) for v in values):
        raise silenceable(op, "expected the interchange to be given by constants or parameters")
    return [v for v in values if isinstance(v, int)]


def _payload_tiling_errors(err: OpTilingError, *, silenceable: bool) -> list[TransformError]:
    """The errors upstream's tiler emits at the payload op it failed on. Under
    `failures(suppress)` schedir drops them with the failure; upstream keeps the two
    already emitted."""
    at = payload_location(err.op)
    return [
        TransformError(str(err), at, silenceable=silenceable),
        TransformError(
            f"'{err.op.name}' op failed to generate tiling loops", at, silenceable=silenceable
        ),
    ]


@applies(TileUsingForOp)
def apply_tile_using_for(op: TileUsingForOp, interp: Interpreter) -> None:
    """Tile each target into an `scf.for` nest (one loop per non-zero size)."""
    targets = list(interp.state.payload_ops(op.target))
    packed = op.packed_tile_sizes
    scalable = dense(op.scalable_sizes)
    if any(scalable):
        raise definite(op, "scalable tile sizes are not supported: schedir targets have no vscale")
    if packed is not None:
        shared = unpack_packed(interp, op, packed)
        sizes_per_target = [list(shared) for _ in targets]
        # Upstream checks the count of the static list only, which is empty here.
        num_sizes = 0
    else:
        static = dense(op.static_sizes)
        entries = mixed(static, list(op.dynamic_sizes))
        sizes_per_target = _per_target_sizes(interp, op, targets, entries)
        num_sizes = len(static)
    for sizes in sizes_per_target:
        check_sizes(op, "tile sizes", sizes)
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
        except PartialTileError as err:
            raise silenceable(op, str(err), notes=[op_note(target, "target op")]) from None
        except OpTilingError as err:
            # Upstream: the errors at the payload op, a definite failure without a word.
            raise MultipleTransformErrors(_payload_tiling_errors(err, silenceable=False)) from None
        except TilingError as err:
            raise definite(op, str(err), target) from None
        rewriter.replace(target, [], list(result.replacements))
        tiled.extend(result.tiled_ops)
        for depth, loop in enumerate(result.loops[:num_loop_results]):
            loops[depth].append(loop)
    interp.set_results(op, [tiled, *loops])


# --- tile_using_forall -------------------------------------------------------------------


def _forall_entries(
    interp: Interpreter,
    op: TileUsingForallOp,
    packed: SSAValue | None,
    static: DenseArrayBase | None,
    dynamic: Sequence[SSAValue],
) -> list[Ofr]:
    if packed is not None:
        return unpack_packed(interp, op, packed)
    return unpack_single(interp, op, mixed(dense(static), list(dynamic)))


def _warn_reduction_tiles(
    interp: Interpreter, target: Operation, num_threads: Sequence[Ofr], tile_sizes: Sequence[Ofr]
) -> None:
    """Upstream's `checkTileSizes` warning: a forall over a non-parallel loop (more than one
    thread, or a non-zero constant tile size) races on the shared output; the run goes on."""
    sizes = num_threads if num_threads else tile_sizes
    least = 1 if num_threads else 0
    for index, (iterator, size) in enumerate(zip(loop_iterator_types(target), sizes, strict=False)):
        value = constant_of(size)
        if iterator != "parallel" and value is not None and value > least:
            interp.emit(
                Diagnostic(
                    "warning", f"tiling is not thread safe at axis #{index}", op_location(target)
                )
            )


@applies(TileUsingForallOp)
def apply_tile_using_forall(op: TileUsingForallOp, interp: Interpreter) -> None:
    """Tile each target into one `scf.forall` by `num_threads` or `tile_sizes`."""
    num_threads = _forall_entries(
        interp, op, op.packed_num_threads, op.static_num_threads, op.num_threads
    )
    tile_sizes = _forall_entries(
        interp, op, op.packed_tile_sizes, op.static_tile_sizes, op.tile_sizes
    )
    check_sizes(op, "num_threads", num_threads, threads=True)
    check_sizes(op, "tile sizes", tile_sizes)
    mapping = tuple(op.mapping.data) if op.mapping is not None else ()
    tiled: list[Operation] = []
    foralls: list[Operation] = []
    for target in interp.state.payload_ops(op.target):
        if not is_tileable(target):
            raise silenceable(
                op, "only TilingInterface ops are supported", notes=[op_note(target, "target op")]
            )
        _warn_reduction_tiles(interp, target, num_threads, tile_sizes)
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
        except PartialTileError as err:
            raise silenceable(op, str(err), notes=[op_note(target, "target op")]) from None
        except OpTilingError as err:
            # Upstream: the errors at the payload op, then its default silenceable failure.
            errors = _payload_tiling_errors(err, silenceable=True)
            errors.append(silenceable(op, f"{op.name} failed to apply", target))
            raise MultipleTransformErrors(errors) from None
        except TilingError as err:
            raise definite(op, str(err), target) from None
        rewriter.replace(target, [], list(result.replacements))
        foralls.extend(result.loops[:1])
        tiled.extend(result.tiled_ops)
    interp.set_results(op, [tiled, foralls])
