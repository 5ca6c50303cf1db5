"""The knobs of a schedule: read them, and resolve them to chosen values.

A schedule declares its tunables as upstream's `transform.tune.knob` (a named choice among
`options`, resolved by `selected`) and `transform.tune.alternatives` (a named choice among
sub-schedules, resolved by `selected_region`). `read_knobs` lists them as `Knob` records
with plain Python values (ints, floats, strings, tuples of them); `select` writes a choice
into the schedule, so that the printed schedule is a plain upstream one that replays the
same kernel; `clear` removes every selection (the form the autotuner keys its results on).

    %t = transform.tune.knob<"tile_m"> = 64 from options = [32, 64, 128] -> !transform.any_param
    select(module, {"tile_m": 128})
    %t = transform.tune.knob<"tile_m"> = 128 from options = [32, 64, 128] -> !transform.any_param

Knobs of the same name are one choice (they must list the same options): a schedule may
read a tile size in two places. An `alternatives` op whose region is chosen by a param is
not a choice of its own (the param's knob is).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation

from schedir.diagnostics import InputError, Location, Note
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.tune import KnobOp, TuneAlternativesOp

KnobValue: TypeAlias = "int | float | str | bool | tuple[KnobValue, ...]"
"""A knob option as a Python value."""


@dataclass(frozen=True)
class Knob:
    """One named choice of a schedule.

    `options` are the values it may take, in the schedule's order; `selected` is the value
    the schedule resolves it to as written (None: unresolved). For `alternatives`, the
    options are the region indices.
    """

    name: str
    options: tuple[KnobValue, ...]
    selected: KnobValue | None
    is_alternatives: bool = False
    location: Location | None = None

    @property
    def numeric(self) -> bool:
        """Whether every option is a number (an ordered knob)."""
        return all(isinstance(v, int | float) and not isinstance(v, bool) for v in self.options)


def attr_value(attr: Attribute) -> KnobValue:
    """The Python value of a knob option attribute; InputError for a kind it cannot be."""
    if isinstance(attr, IntegerAttr):
        if attr.type == i1:
            return bool(attr.value.data)
        return int(attr.value.data)
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, ArrayAttr):
        return tuple(attr_value(a) for a in attr.data)
    if isinstance(attr, DenseArrayBase):
        return tuple(attr.get_values())
    raise InputError(f"knob option {attr} is not an integer, float, string or array")


def _knob_options(op: KnobOp) -> tuple[tuple[Attribute, ...], tuple[KnobValue, ...]]:
    options = op.options
    if not isinstance(options, ArrayAttr):
        raise InputError(
            f'knob "{op.name_.data}" has options {options}: only an array of options can be '
            "searched",
            op_location(op),
        )
    attrs = tuple(options.data)
    if not attrs:
        raise InputError(f'knob "{op.name_.data}" has no options', op_location(op))
    return attrs, tuple(attr_value(a) for a in attrs)


def knob_ops(root: Operation) -> Iterator[KnobOp | TuneAlternativesOp]:
    """Every knob and every attribute-selected `alternatives` op under `root`, in order."""
    for op in root.walk():
        if isinstance(op, KnobOp) or (
            isinstance(op, TuneAlternativesOp) and op.selected_region_param is None
        ):
            yield op


def read_knobs(root: Operation) -> tuple[Knob, ...]:
    """The choices of the schedule under `root`, one per name, in order of appearance.

    InputError when two knobs of one name disagree on their options or selection, or an
    `alternatives` op shares a name with a knob.
    """
    found: dict[str, Knob] = {}
    for op in knob_ops(root):
        if isinstance(op, KnobOp):
            _, values = _knob_options(op)
            selected = attr_value(op.selected) if op.selected is not None else None
            knob = Knob(op.name_.data, values, selected, False, op_location(op))
        else:
            attr = op.selected_region_attr
            knob = Knob(
                op.name_.data,
                tuple(range(len(op.alternatives))),
                attr.value.data if attr is not None else None,
                True,
                op_location(op),
            )
        seen = found.get(knob.name)
        if seen is None:
            found[knob.name] = knob
            continue
        if (seen.options, seen.selected, seen.is_alternatives) != (
            knob.options,
            knob.selected,
            knob.is_alternatives,
        ):
            raise InputError(
                f'choice "{knob.name}" is declared twice with different options or selections',
                knob.location,
                notes=(Note("first declared here", seen.location),),
            )
    return tuple(found.values())


def select(root: Operation, choices: Mapping[str, KnobValue]) -> None:
    """Resolve the choices under `root` in place: `selected` of every knob named in
    `choices`, `selected_region` of every such `alternatives` op.

    InputError for a name the schedule does not declare or a value not among its options
    (the message lists them); knobs not named keep their selection.
    """
    declared = {k.name: k for k in read_knobs(root)}
    unknown = sorted(set(choices) - set(declared))
    if unknown:
        known = ", ".join(declared) or "none"
        raise InputError(
            f"the schedule has no knob named {', '.join(repr(u) for u in unknown)}",
            notes=(Note(f"its knobs: {known}"),),
        )
    for name, value in choices.items():
        knob = declared[name]
        if _normalized(value) not in [_normalized(o) for o in knob.options]:
            options = ", ".join(format_value(o) for o in knob.options)
            raise InputError(
                f'value {format_value(value)} is not an option of knob "{name}"',
                knob.location,
                notes=(Note(f"its options: {options}"),),
            )
    for op in list(knob_ops(root)):
        name = op.name_.data
        if name not in choices:
            continue
        wanted = _normalized(choices[name])
        if isinstance(op, KnobOp):
            attrs, values = _knob_options(op)
            index = [_normalized(v) for v in values].index(wanted)
            op.selected = attrs[index]
        else:
            assert isinstance(wanted, int)
            op.selected_region_attr = IntegerAttr(wanted, i64)


def clear(root: Operation) -> None:
    """Remove every selection under `root` (the schedule as a space of choices)."""
    for op in list(knob_ops(root)):
        if isinstance(op, KnobOp):
            op.selected = None
        else:
            op.selected_region_attr = None


def selections(root: Operation) -> dict[str, KnobValue]:
    """The value every resolved choice under `root` has."""
    return {k.name: k.selected for k in read_knobs(root) if k.selected is not None}


def _normalized(value: KnobValue) -> KnobValue:
    """Lists and tuples compare alike (JSON gives lists); bools stay apart from ints."""
    if isinstance(value, list | tuple):
        return tuple(_normalized(v) for v in value)
    if isinstance(value, bool):
        return ("bool", value)  # pyright: ignore[reportReturnType]  # a tag keeps True != 1
    return value


def format_value(value: KnobValue) -> str:
    """A knob value as the CLI prints and parses it: `64`, `"outer"`, `[8,32]`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ",".join(format_value(v) for v in value) + "]"
    return repr(value)


__all__ = [
    "Knob",
    "KnobValue",
    "attr_value",
    "clear",
    "format_value",
    "knob_ops",
    "read_knobs",
    "select",
    "selections",
]
