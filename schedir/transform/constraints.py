"""Static constraints on the knobs of a schedule (filled in below)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.ir import Operation

from schedir.transform.knobs import Knob


def constraints_of(root: Operation, knobs: Sequence[Knob]) -> tuple[Any, ...]:
    """The static constraints the schedule under `root` writes on its knobs."""
    del root, knobs
    return ()
