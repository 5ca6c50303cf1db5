"""Subset rules of One-Shot analysis: when a read and a write of one buffer touch slices that
cannot interfere (upstream's areNonConflictingSubsets, and statically disjoint slices).

* A tile computed into `extract_slice %t[o][s][st]` and inserted back with `insert_slice`
  / `parallel_insert_slice` at the same offsets, sizes and strides: the insert does not
  read the part the write overwrote, and copying the tile back rewrites what is there.
* A read of one slice and a write of another, statically disjoint, slice of a buffer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, cast

from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Operation, SSAValue

from schedir.dialects.tensor import ParallelInsertSliceOp
from schedir.lowering.bufferization.index_equality import same_values
from schedir.lowering.bufferization.model import Key, is_tensor, static_slice_params
from schedir.lowering.bufferization.sets import UnionFind


class ReverseChain(Protocol):
    """The analysis' walk of reverse alias chains (upstream's
    findValueInReverseUseDefChain)."""

    def __call__(
        self, start: SSAValue, condition: Callable[[SSAValue], bool], *, include_leaves: bool
    ) -> Iterator[SSAValue]: ...


class SubsetRules:
    """The subset rules, over the analysis' equivalence sets and reverse alias chains."""

    def __init__(self, equivalences: UnionFind, reverse_chain: ReverseChain) -> None:
        self._equivalences = equivalences
        self._reverse_chain = reverse_chain
        self._leaves: dict[SSAValue, tuple[SSAValue, ...]] = {}
        self._matched: set[tuple[SSAValue, Operation]] = set()

    # -- subset insertion (extract_slice / insert_slice pairs) ---------------------------

    def non_conflicting(self, read: Key, write: Key) -> bool:
        """Whether `read` and `write` touch matching slices so that they cannot conflict
        (upstream's areNonConflictingSubsets)."""
        read_op, read_index = read
        write_op, write_index = write
        if _is_insert(read_op):
            if read_index == 1 and self._matches_destination(write, read_op):
                return True  # the insert does not read the part the write overwrites
            if (
                read_index == 0
                and write == (read_op, 1)
                and self._matches_destination(read, read_op)
            ):
                return True  # the insert copies what an equivalent slice already holds
        if _is_insert(write_op) and write_index == 1:
            source = write_op.operands[0]
            read_value = read_op.operands[read_index]
            if self._equivalences.same(read_value, source) and self._matches_destination(
                (write_op, 0), write_op
            ):
                return True  # the insert rewrites the memory with the data it holds
        return False

    def disjoint(self, read: Key, write: Key) -> bool:
        """Whether the read and the write touch statically disjoint slices of one buffer
        (e.g. reading `%t[4..8)` through an extract_slice while an insert_slice writes
        `%t[0..4)`)."""
        read_slices = self._slices_of(read[0].operands[read[1]])
        if read_slices is None:
            return False
        if _is_insert(write[0]) and write[1] == 1:
            write_slices: list[tuple[SSAValue, Operation]] | None = [
                (write[0].operands[1], write[0])
            ]
        else:
            write_slices = self._slices_of(write[0].operands[write[1]])
        if write_slices is None:
            return False
        return all(
            self._equivalences.same(rc, wc) and _disjoint(r_op, w_op)
            for rc, r_op in read_slices
            for wc, w_op in write_slices
        )

    def _slices_of(self, value: SSAValue) -> list[tuple[SSAValue, Operation]] | None:
        """(container, extract_slice) for every alias chain end of `value`, if all end at a
        `tensor.extract_slice` (the value then lives inside those slices)."""
        leaves = self._slice_leaves(value)
        if not leaves or not all(isinstance(v.owner, xtensor.ExtractSliceOp) for v in leaves):
            return None
        return [
            (cast(xtensor.ExtractSliceOp, v.owner).source, cast(Operation, v.owner)) for v in leaves
        ]

    def _slice_leaves(self, value: SSAValue) -> tuple[SSAValue, ...]:
        """The first `tensor.extract_slice` results (or chain ends) on `value`'s reverse alias
        chains (static, so cached)."""
        found = self._leaves.get(value)
        if found is None:

            def is_slice(v: SSAValue) -> bool:
                return isinstance(v.owner, xtensor.ExtractSliceOp)

            found = tuple(self._reverse_chain(value, is_slice, include_leaves=True))
            self._leaves[value] = found
        return found

    def _matches_destination(self, use: Key, insert: Operation) -> bool:
        """Every reverse alias chain of `use`'s value reaches an extract_slice of a buffer
        equivalent to `insert`'s destination at the same offsets, sizes and strides.

        As upstream's matchesInsertDestination, the chains run on through slices that do
        not match: a tile of a tile (`extract_slice` of the loop result that carries the
        matching slice) lies inside the matching slice all the same. Equivalence sets only
        grow, so a match found stays one and is cached."""
        value = use[0].operands[use[1]]
        key = (value, insert)
        if key in self._matched:
            return True

        def matching(v: SSAValue) -> bool:
            return isinstance(v.owner, xtensor.ExtractSliceOp) and self._same_subset(
                v.owner, insert
            )

        found = list(self._reverse_chain(value, matching, include_leaves=True))
        matched = bool(found) and all(matching(v) for v in found)
        if matched:
            self._matched.add(key)
        return matched

    def _same_subset(self, extract: xtensor.ExtractSliceOp, insert: Operation) -> bool:
        dest = insert.operands[1]
        if not self._equivalences.same(extract.source, dest):
            return False
        return _same_slice(extract, insert)

    # -- reverse use-def chains and ordering -------------------------------------------


def _is_insert(op: Operation) -> bool:
    return isinstance(op, xtensor.InsertSliceOp | ParallelInsertSliceOp)


def _same_slice(a: Operation, b: Operation) -> bool:
    """Same static offsets/sizes/strides and provably equal dynamic index values."""
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if a.properties.get(name) != b.properties.get(name):
            return False
    dyn_a = [v for v in a.operands[1:] if not is_tensor(v)]
    dyn_b = [v for v in b.operands[2:] if not is_tensor(v)]
    return same_values(dyn_a, dyn_b)


def _disjoint(a: Operation, b: Operation) -> bool:
    """Whether two slices (static offsets/sizes/strides) of one tensor cannot overlap: in
    some dimension their index ranges are apart."""
    ranges = []
    for op in (a, b):
        offsets, sizes, strides = static_slice_params(op)
        ranges.append(list(zip(offsets, sizes, strides, strict=True)))
    for (o1, n1, s1), (o2, n2, s2) in zip(ranges[0], ranges[1], strict=True):
        if DYNAMIC_INDEX in (o1, n1, s1, o2, n2, s2):
            continue
        if n1 == 0 or n2 == 0:
            return True
        if o1 + (n1 - 1) * s1 < o2 or o2 + (n2 - 1) * s2 < o1:
            return True
    return False


__all__ = ["SubsetRules"]
