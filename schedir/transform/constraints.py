"""Static constraints a schedule writes on its knobs.

Upstream's spelling is the SMT extension's `transform.smt.constrain_params` (a region of
SMT ops over the params, `mlir/Dialect/Transform/SMTExtension`). schedir does not parse it
yet: its region uses the SMT dialect's integer ops (`smt.int.*`), which xDSL does not
define. Until it does, a schedule has no static constraints of its own and every point of
its space is valid; the constraints a transform or the target imposes are still checked
when a candidate is built (`schedir.autotune.compile_pool`: silenceable failures and
target limits prune the candidate).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.ir import Operation

from schedir.transform.knobs import Knob


def constraints_of(root: Operation, knobs: Sequence[Knob]) -> tuple[Any, ...]:
    """The static constraints the schedule under `root` writes on `knobs` (none yet)."""
    del root, knobs
    return ()
