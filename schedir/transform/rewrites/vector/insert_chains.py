"""Extracts from long chains of `vector.insert`, resolved in one linear pass per chain.

The extract folder (`fold_extract`, upstream's `ExtractFromInsertTransposeChainState`)
walks back through the inserts that built its source until one writes the extracted
position. The lowerings of transposes, shape casts, broadcasts and contractions build
vectors element by element, and their consumers extract every element again: folding
each extract by a walk is quadratic in the chain (a 3x96x105 matmul vectorized whole makes
chains of 30,000 inserts). The folder therefore walks at most `WALK_LIMIT` links; past
that this pattern indexes the whole chain once, in program order, and resolves every
static extract of every value of the chain:

- the latest insert at the extracted position (or at a prefix of it) gives the value
  (the inserted scalar or vector, or an extract from the inserted vector);
- a position no insert of the chain touches is read from the chain's base;
- a sub-vector whose every element was inserted as a scalar becomes a
  `vector.from_elements` of those scalars;
- anything else (a sub-vector partly overwritten) is left as it is, as the folder leaves it.

    %0 = vector.insert %a, %v [0, 0] : f32 into vector<2x2xf32>
    %1 = vector.insert %b, %0 [0, 1] : f32 into vector<2x2xf32>
    ...
    %e = vector.extract %1[0, 0] : f32 from vector<2x2xf32>    // -> %a
    %r = vector.extract %1[0] : vector<2xf32> from vector<2x2xf32>
    // -> %r = vector.from_elements %a, %b : vector<2xf32>

Each index is built in time linear in the chain plus its extracts, and a chain is indexed
again only when an extract of it is visited that the walk could not resolve.
"""

from __future__ import annotations

from math import prod
from typing import cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, VectorType, i64
from xdsl.ir import SSAValue

from schedir.dialects import vector
from schedir.dialects.vector.attributes import dense_ints
from schedir.dialects.vector.shape import POISON_INDEX
from schedir.transform.rewrites.rewriter import CanonRewriter

WALK_LIMIT = 32
"""How many inserts and transposes the extract folder walks back before it leaves the
extract to `resolve_insert_chain`."""

Position = tuple[int, ...]


def static_position(op: vector.ExtractOp | vector.InsertOp) -> Position | None:
    """The position of `op` when it is static (None if a part is dynamic or poison)."""
    values = dense_ints(op.static_position)
    if DYNAMIC_INDEX in values or POISON_INDEX in values:
        return None
    return values


def _chain(value: SSAValue) -> tuple[list[vector.InsertOp], SSAValue]:
    """The inserts with static positions that built `value`, first to last, and the value
    they were inserted into."""
    inserts: list[vector.InsertOp] = []
    while isinstance(owner := value.owner, vector.InsertOp):
        if static_position(owner) is None:
            break
        inserts.append(owner)
        value = owner.dest
    inserts.reverse()
    return inserts, value


class _Index:
    """The inserts of a chain seen so far, for position queries (see the module docstring)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape
        self.exact: dict[Position, tuple[int, vector.InsertOp]] = {}
        """Position -> (step, insert) of the latest insert at exactly that position."""
        self.under: dict[Position, int] = {}
        """Prefix -> step of the latest insert strictly inside it."""
        self.scalars: dict[Position, int] = {}
        """Prefix -> how many distinct full positions inside it scalar inserts wrote."""
        self.partial: set[Position] = set()
        """Prefixes with a sub-vector insert strictly inside them."""

    def add(self, step: int, op: vector.InsertOp, position: Position) -> None:
        fresh = position not in self.exact
        self.exact[position] = (step, op)
        full = len(position) == len(self.shape)
        for length in range(len(position)):
            prefix = position[:length]
            self.under[prefix] = step
            if not full:
                self.partial.add(prefix)
            elif fresh:
                self.scalars[prefix] = self.scalars.get(prefix, 0) + 1

    def lookup(self, position: Position) -> tuple[str, vector.InsertOp | None, int]:
        """How an extract at `position` resolves: ("insert", op, prefix length), ("base",
        None, 0), ("elements", None, 0) for a sub-vector written element by element, or
        ("none", None, 0)."""
        best: tuple[int, vector.InsertOp, int] | None = None
        for length in range(len(position) + 1):
            found = self.exact.get(position[:length])
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], length)
        inside = self.under.get(position)
        if inside is not None and (best is None or inside > best[0]):
            # Element by element only where nothing ever wrote the whole sub-vector (or
            # more): an older element could be hidden under such a write.
            count = prod(self.shape[len(position) :])
            if (
                best is None
                and position not in self.partial
                and self.scalars.get(position, 0) == count
            ):
                return ("elements", None, 0)
            return ("none", None, 0)
        if best is None:
            return ("base", None, 0)
        return ("insert", best[1], best[2])

    def elements(self, position: Position) -> list[SSAValue]:
        """The scalars written at every full position inside `position`, row-major."""
        inner = self.shape[len(position) :]
        values: list[SSAValue] = []
        for flat in range(prod(inner)):
            rest: list[int] = []
            for size in reversed(inner):
                rest.append(flat % size)
                flat //= size
            values.append(self.exact[position + tuple(reversed(rest))][1].source)
        return values


def _extract_users(value: SSAValue) -> list[tuple[vector.ExtractOp, Position]]:
    users: list[tuple[vector.ExtractOp, Position]] = []
    for use in list(value.uses):
        user = use.operation
        if isinstance(user, vector.ExtractOp) and use.index == 0:
            position = static_position(user)
            if position is not None:
                users.append((user, position))
    return users


def _set_source(
    rw: CanonRewriter, op: vector.ExtractOp, source: SSAValue, position: Position
) -> bool:
    """Make `op` extract `position` from `source` (or replace it by `source`)."""
    if not position and source.type == op.result.type:
        rw.replace_values(op, [source])
        return True
    if op.vector is source and static_position(op) == position:
        return False
    op.operands = [source]
    op.properties["static_position"] = DenseArrayBase.from_list(i64, list(position))
    rw.modified(op)
    return True


def resolve_insert_chain(op: vector.ExtractOp, rw: CanonRewriter) -> bool:
    """Resolve every static extract of the insert chain `op` reads from (see the module
    docstring); a chain the folder's walk covers is left to the folder."""
    if static_position(op) is None or not isinstance(op.vector.owner, vector.InsertOp):
        return False
    inserts, base = _chain(op.vector)
    if len(inserts) <= WALK_LIMIT:
        return False
    index = _Index(tuple(cast(VectorType, op.vector.type).get_shape()))
    changed = False
    for step, insert in enumerate(inserts):
        index.add(step, insert, cast(Position, static_position(insert)))
        for user, position in _extract_users(insert.result):
            kind, found, length = index.lookup(position)
            if kind == "insert":
                assert found is not None
                changed |= _set_source(rw, user, found.source, position[length:])
            elif kind == "base":
                changed |= _set_source(rw, user, base, position)
            elif kind == "elements":
                rw.set_insertion_point(user)
                result_type = cast(VectorType, user.result.type)
                new = rw.create(vector.FromElementsOp(index.elements(position), result_type), user)
                rw.replace_values(user, [new.results[0]])
                changed = True
    return changed


__all__ = ["WALK_LIMIT", "resolve_insert_chain", "static_position"]
