"""Apply function of `transform.sequence` (upstream's TransformOps.cpp): run the body
with the sequence's failure propagation mode. `named_sequence` is run by the interpreter
(the entry point) or by `include`; `yield` is read by the op that runs its block.
"""

from __future__ import annotations

from schedir.dialects.transform.core.sequence import SequenceOp
from schedir.transform.interface import Interpreter, applies


@applies(SequenceOp)
def apply_sequence(op: SequenceOp, interp: Interpreter) -> None:
    """Run the body on the root and extra bindings (the payload root at top level)."""
    if op.operands:
        bindings = [list(interp.state.mapped(v)) for v in op.operands]
    else:  # a top-level sequence without root binds the payload root
        bindings = [[interp.state.root]]
    results = interp.run_region(op.body, bindings, op.mode)
    interp.set_results(op, results)
