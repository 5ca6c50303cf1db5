"""Apply function of `transform.structured.gpu.map_copy_to_threads` (upstream's
LinalgTransformOps.cpp), over `schedir.transform.rewrites.gpu.copy`.
"""

from __future__ import annotations

from xdsl.ir import Operation

from schedir.diagnostics import Note
from schedir.dialects.transform.structured.gpu import MapCopyToThreadsOp
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.rewrites.gpu.copy import CopyMappingError, map_copy_to_threads
from schedir.transform.state import payload_location, silenceable


@applies(MapCopyToThreadsOp)
def apply_map_copy_to_threads(op: MapCopyToThreadsOp, interp: Interpreter) -> None:
    """Distribute each copy (or pad) over GPU threads as a mapped `scf.forall`."""
    threads = op.total_num_threads.value.data
    bits = op.desired_bit_alignment.value.data

    def one(payload: Operation) -> list[Mapped | None]:
        try:
            result = map_copy_to_threads(
                payload, threads, bits, listener=interp.state.tracking_listener()
            )
        except CopyMappingError as err:
            raise silenceable(
                op, err.message, notes=[Note("target op", payload_location(payload))]
            ) from None
        return [result.forall, result.tiled]

    interp.apply_to_each(op, op.target, one)
