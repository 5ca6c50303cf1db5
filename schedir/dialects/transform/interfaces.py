"""What the transform interpreter needs to know about every transform op.

An op's handle effects follow upstream's `getEffects`: each operand is either *consumed*
(the payload it points to is invalidated for every other handle, as upstream's
`consumesHandle`) or only read (`onlyReadsHandle`); results are always produced.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.ir import Operation, SSAValue


class TransformOpInterface:
    """Mixin of every transform op class: declares which operands the op consumes.

    `consumed_operands` names operand definitions (the `operand_def`/`var_operand_def`
    field names) that upstream declares as consumed; every other operand is only read.
    Ops whose effects depend on their callee or body (include, foreach) override
    `consumed_values`.
    """

    consumed_operands: ClassVar[tuple[str, ...]] = ()

    def consumed_values(self) -> tuple[SSAValue, ...]:
        """The operand values this op consumes."""
        assert isinstance(self, Operation)
        values: list[SSAValue] = []
        for name in self.consumed_operands:
            operand = getattr(self, name)
            if operand is None:
                continue
            if isinstance(operand, SSAValue):
                values.append(operand)
            else:
                values.extend(operand)
        return tuple(values)


class PatternDescriptorOpInterface:
    """Mixin of `transform.apply_patterns.*` ops: pattern sets named inside apply_patterns."""


__all__ = ["PatternDescriptorOpInterface", "TransformOpInterface"]
