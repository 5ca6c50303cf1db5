"""The sets One-Shot analysis maintains: alias/equivalence sets (union-find with member lists)
and, per alias set, its reads and in-place writes indexed for conflict queries."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import TypeVar

from xdsl.ir import Block, SSAValue

from schedir.lowering.bufferization.model import Key

_T = TypeVar("_T", bound=tuple[int, *tuple[object, ...]])
"""An entry of a per-block list: a position first."""


@dataclass
class SetUses:
    """The reads and in-place writes of one alias set, indexed for conflict queries.

    Reads whose op and definitions all sit in one block are kept per block, sorted by the
    position of their earliest definition; in-place writes per block, sorted by position.
    In one block a read R (earliest definition at d, at position r) can only see a write W
    at position w with d <= w <= r: each side finds its candidates by bisection.
    """

    reads_in: dict[Block, list[tuple[int, int, Key]]] = field(
        default_factory=dict[Block, list[tuple[int, int, Key]]]
    )
    other_reads: list[Key] = field(default_factory=list[Key])
    writes_in: dict[Block, list[tuple[int, Key]]] = field(
        default_factory=dict[Block, list[tuple[int, Key]]]
    )
    writes: list[Key] = field(default_factory=list[Key])

    def has_reads(self) -> bool:
        return bool(self.other_reads) or any(self.reads_in.values())

    def num_reads(self) -> int:
        return len(self.other_reads) + sum(len(r) for r in self.reads_in.values())

    def add_write(self, key: Key, block: Block | None, position: int) -> None:
        self.writes.append(key)
        if block is not None:
            entries = self.writes_in.setdefault(block, [])
            bisect.insort(entries, (position, key), key=first_field)

    def merged(self, other: SetUses) -> SetUses:
        """The union of two sets' uses; reuses (and modifies) the larger one's lists."""
        big, small = (
            (self, other)
            if len(self.writes) + self.num_reads() >= len(other.writes) + other.num_reads()
            else (other, self)
        )
        _merge_into(big.reads_in, small.reads_in)
        _merge_into(big.writes_in, small.writes_in)
        big.other_reads.extend(small.other_reads)
        big.writes.extend(small.writes)
        return big

    def writes_outside(self, block: Block) -> list[Key]:
        """The in-place writes made by ops of other blocks than `block`."""
        return [w for b, entries in self.writes_in.items() if b is not block for _, w in entries]


def first_field(entry: tuple[int, *tuple[object, ...]]) -> int:
    """The sort key of the per-block lists: their first field (a position)."""
    return entry[0]


def _merge_into(big: dict[Block, list[_T]], small: dict[Block, list[_T]]) -> None:
    """Add `small`'s per-block sorted lists into `big`'s, keeping them sorted."""
    for block, entries in small.items():
        mine = big.get(block)
        if mine is None:
            big[block] = entries
        elif len(entries) < len(mine):
            for entry in entries:
                bisect.insort(mine, entry, key=first_field)
        else:
            big[block] = sorted(mine + entries, key=first_field)


class UnionFind:
    """Disjoint sets of values with member lists (union by size)."""

    def __init__(self) -> None:
        self._parent: dict[SSAValue, SSAValue] = {}
        self._members: dict[SSAValue, list[SSAValue]] = {}

    def find(self, value: SSAValue) -> SSAValue:
        parent = self._parent.get(value)
        if parent is None:
            self._parent[value] = value
            self._members[value] = [value]
            return value
        root = value
        while (up := self._parent[root]) is not root:
            root = up
        while (up := self._parent[value]) is not root:
            self._parent[value] = root
            value = up
        return root

    def union(self, a: SSAValue, b: SSAValue) -> SSAValue:
        ra, rb = self.find(a), self.find(b)
        if ra is rb:
            return ra
        if len(self._members[ra]) < len(self._members[rb]):
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._members[ra].extend(self._members.pop(rb))
        return ra

    def members(self, value: SSAValue) -> list[SSAValue]:
        return self._members[self.find(value)]

    def same(self, a: SSAValue, b: SSAValue) -> bool:
        return self.find(a) is self.find(b)


__all__ = ["SetUses", "UnionFind", "first_field"]
