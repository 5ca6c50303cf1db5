"""One-Shot in-place analysis: which tensor operands may bufferize in place.

The algorithm is upstream's (mlir/lib/Dialect/Bufferization/Transforms/OneShotAnalysis.cpp):

* Every tensor value starts in its own *alias set* (values whose buffers may overlap) and
  its own *equivalence set* (values bufferizing to the very same buffer).
* Operands are decided one at a time, walking the ops bottom-up. Deciding an operand in
  place merges its buffer with the buffers of the results it aliases. An operand is out of
  place (its op gets a private copy) when being in place would either
  - write a buffer that is not writable (a constant, an argument marked
    `bufferization.writable = false`), or
  - create a read-after-write conflict: a read R that, following SSA, must see the value of
    its *definitions* (the last writes of its tensor), but with the merged buffers some
    in-place write W to the same memory happens between those definitions and R.
* Writes inside a parallel region (`scf.forall`) to a buffer defined outside it always
  conflict when `check-parallel-regions` is on: each iteration needs its own copy.

Exceptions that make the common patterns copy-free (all upstream's): a read that happens
before the write; mutually exclusive `scf.if` branches; an elementwise op that reads and
writes the same buffer; and the matching `extract_slice` / `insert_slice` (or
`parallel_insert_slice`) pair: writing into the slice that is later inserted back at the
same offsets/sizes/strides does not conflict with the insert reading the destination
(`subsets`, which also clears reads and writes of disjoint static slices).

Cost. Conflicts only disappear as more operands are decided in place (the exceptions grow
with the equivalence sets), so each decision checks just the read/write pairs it newly
brings together. Each alias set keeps its reads and in-place writes indexed by block
position (`sets`): within a block only a write between a read's first
definition and the read can conflict, which bisection finds. No decision walks the
function; long straight-line chains in one alias set cost about linear time.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects import func, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from schedir.diagnostics import UnsupportedError
from schedir.dialects.scf import ForallOp
from schedir.dialects.syntax import op_location
from schedir.lowering.bufferization.model import Key, OpModel, is_tensor, kind
from schedir.lowering.bufferization.sets import SetUses, UnionFind, first_field
from schedir.lowering.bufferization.subsets import SubsetRules


@dataclass
class AnalysisOptions:
    """The One-Shot options the analysis reads."""

    check_parallel_regions: bool = True
    copy_before_write: bool = False


@dataclass
class Decisions:
    """The analysis result the bufferization step consumes."""

    in_place: set[Key] = field(default_factory=set[Key])
    aliases: UnionFind = field(default_factory=UnionFind)
    equivalences: UnionFind = field(default_factory=UnionFind)

    def is_in_place(self, op: Operation, index: int) -> bool:
        return (op, index) in self.in_place


_LOOPS = (scf.ForOp, scf.WhileOp, ForallOp, scf.ParallelOp)
"""Ops whose regions run repeatedly (upstream: RegionBranchOpInterface loops)."""

_PARALLEL = (ForallOp, scf.ParallelOp)
_BRANCHES = (scf.IfOp, scf.IndexSwitchOp)


def _enclosing(region: Region | None, kinds: tuple[type[Operation], ...]) -> Region | None:
    """The closest region at or above `region` whose op is one of `kinds`."""
    while region is not None:
        parent = region.parent_op()
        if parent is None:
            return None
        if isinstance(parent, kinds):
            return region
        if isinstance(parent, func.FuncOp):
            return None
        region = parent.parent_region()
    return None


def _region_of_value(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent_region()
    assert isinstance(value, OpResult)
    return value.op.parent_region()


class InPlaceAnalysis:
    """Decides in-place bufferization for the tensor operands of one function body."""

    def __init__(self, model: OpModel, options: AnalysisOptions) -> None:
        self.model = model
        self.options = options
        self.decisions = Decisions()
        self._positions: dict[Operation, int] = {}
        self._definitions: dict[SSAValue, tuple[SSAValue, ...]] = {}
        self._kinds: dict[Operation, str] = {}
        self._privatize: dict[Key, bool] = {}
        self._assumed: Key | None = None
        self._read_cache: dict[SSAValue, bool] = {}
        self._subsets = SubsetRules(self.decisions.equivalences, self._reverse_chain)
        self._summaries: dict[Key, tuple[Block | None, int, int | None]] = {}
        self._groups: dict[SSAValue, SetUses] = {}
        """(reads, in-place writes) of each alias set, by its root."""
        """The operand being decided, assumed in place while its conflicts are checked."""

    # -- driver ------------------------------------------------------------------------

    def run(self, body: Region) -> Decisions:
        """Analyze every op nested in `body` (a function body)."""
        ops = list(self._preorder(body))
        for op in ops:
            for region in op.regions:
                for block in region.blocks:
                    if len(region.blocks) > 1:
                        raise UnsupportedError(
                            f"'{op.name}' has a region with several blocks: one-shot-bufferize "
                            "supports structured control flow only",
                            op_location(op),
                        )
                    for index, nested in enumerate(block.ops):
                        self._positions[nested] = index
        for index, op in enumerate(body.block.ops if body.blocks else ()):
            self._positions[op] = index
        # Operands that must be in place (scf.if yields) merge their sets first.
        for op in ops:
            for index in self._tensor_operands(op):
                info = self.model.info(op, index)
                if info.must_in_place:
                    self._mark_in_place((op, index))
        # Bottom-up: a region's ops are decided before the op holding it, later ops first.
        for op in reversed(ops):
            for index in self._tensor_operands(op):
                key = (op, index)
                if key not in self.decisions.in_place:
                    self._decide(key)
        return self.decisions

    def _preorder(self, region: Region) -> Iterator[Operation]:
        for block in region.blocks:
            for op in block.ops:
                yield op
                for nested in op.regions:
                    yield from self._preorder(nested)

    def _kind(self, op: Operation) -> str:
        found = self._kinds.get(op)
        if found is None:
            found = kind(op)
            self._kinds[op] = found
        return found

    def _tensor_operands(self, op: Operation) -> list[int]:
        if self._kind(op) in ("none", "func"):
            return []
        return [i for i, v in enumerate(op.operands) if is_tensor(v)]

    # -- decisions ---------------------------------------------------------------------

    def _mark_in_place(self, key: Key) -> None:
        self.decisions.in_place.add(key)
        value = key[0].operands[key[1]]
        aliases = self.decisions.aliases
        info = self.model.info(*key)
        for result, equivalent in info.aliases:
            before = {aliases.find(value), aliases.find(result)}
            groups = [self._set_uses(root) for root in before]
            root = aliases.union(value, result)
            if len(before) == 2:
                # The merged set's reads and writes are both sets' (kept per root).
                for old in before:
                    self._groups.pop(old, None)
                self._groups[root] = groups[0].merged(groups[1])
            if equivalent:
                self.decisions.equivalences.union(value, result)
        if info.write:
            self._set_uses(value).add_write(key, key[0].parent_block(), self._positions[key[0]])

    def _decide(self, key: Key) -> None:
        info = self.model.info(*key)
        if not info.write and not info.aliases:
            # Reads only: nothing is created or overwritten, in place trivially.
            self.decisions.in_place.add(key)
            return
        if self.options.copy_before_write and info.write:
            return
        self._assumed = key
        try:
            if self._writes_non_writable(key) or self._creates_conflict(key):
                return
        finally:
            self._assumed = None
        self._mark_in_place(key)

    def is_write(self, key: Key) -> bool:
        """An operand that writes its buffer and was decided in place."""
        return key in self.decisions.in_place and self.model.info(*key).write

    # -- writability -------------------------------------------------------------------

    def _writes_non_writable(self, key: Key) -> bool:
        """Would deciding `key` in place let some in-place write reach a read-only buffer?

        Before the decision no write does (an invariant). The new in-place link is
        result -> operand; writes whose buffer chain reaches the result now also reach the
        operand's chain, and so does this op's own write.
        """
        op, index = key
        info = self.model.info(op, index)
        value = op.operands[index]
        writes_through = info.write or any(
            self._has_in_place_write(result) for result, _ in info.aliases
        )
        return writes_through and self._reaches_read_only(value)

    def _has_in_place_write(self, value: SSAValue) -> bool:
        return bool(self._set_uses(value).writes)

    def _reaches_read_only(self, value: SSAValue) -> bool:
        """Whether `value`'s buffer is, through in-place aliasing, a non-writable buffer."""
        work = [value]
        seen: set[SSAValue] = set()
        while work:
            v = work.pop()
            if v in seen:
                continue
            seen.add(v)
            if not self.model.is_writable(v):
                return True
            for source, _ in self.model.aliasing_operands(v):
                if source in self.decisions.in_place:
                    work.append(source[0].operands[source[1]])
        return False

    # -- read-after-write conflicts ----------------------------------------------------

    def _set_uses(self, value: SSAValue) -> SetUses:
        """The reads and in-place writes of `value`'s alias set (cached per set, merged on
        union, extended when a write is decided in place)."""
        root = self.decisions.aliases.find(value)
        found = self._groups.get(root)
        if found is not None:
            return found
        found = SetUses()
        for member in self.decisions.aliases.members(value):
            for use in member.uses:
                key = (use.operation, use.index)
                if self._kind(key[0]) in ("none", "func"):
                    continue
                info = self.model.info(*key)
                if info.read or (
                    # An alias-only use (extract_slice, cast, ...) whose result is read
                    # reads this buffer too, even before its own decision merges the sets.
                    not info.write and any(self._value_read(r) for r, _ in info.aliases)
                ):
                    block, position, first_def = self._read_summary(key)
                    if block is not None and first_def is not None:
                        found.reads_in.setdefault(block, []).append((first_def, position, key))
                    else:
                        found.other_reads.append(key)
                if info.write and key in self.decisions.in_place:
                    found.add_write(key, key[0].parent_block(), self._positions[key[0]])
        for reads in found.reads_in.values():
            reads.sort(key=first_field)
        self._groups[root] = found
        return found

    def _value_read(self, value: SSAValue) -> bool:
        found = self._read_cache.get(value)
        if found is None:
            found = self.model.value_read(value)
            self._read_cache[value] = found
        return found

    def _creates_conflict(self, key: Key) -> bool:
        op, index = key
        info = self.model.info(op, index)
        value = op.operands[index]
        roots: list[SSAValue] = []
        for v in (value, *(r for r, _ in info.aliases)):
            root = self.decisions.aliases.find(v)
            if all(root is not other for other in roots):
                roots.append(root)
        groups = [self._set_uses(root) for root in roots]
        new_writes: list[Key] = [key] if info.write else []
        if self.options.check_parallel_regions and any(g.has_reads() for g in groups):
            # Writes of a set that had reads were checked when they joined it.
            candidates = new_writes + [w for g in groups if not g.has_reads() for w in g.writes]
            if any(self._needs_privatization(w) for w in candidates):
                return True
        for i, reads in enumerate(groups):
            for j, writes in enumerate(groups):
                if i != j and self._any_conflict(reads, writes):
                    return True
        if not new_writes:
            return False
        new = SetUses()
        new.add_write(key, op.parent_block(), self._positions[op])
        return any(self._any_conflict(g, new) for g in groups)

    def _needs_privatization(self, write: Key) -> bool:
        """A write in a parallel region to a buffer that was defined outside the region."""
        cached = self._privatize.get(write)
        if cached is None:
            region = _enclosing(write[0].parent_region(), _PARALLEL)
            start = write[0].operands[write[1]]
            cached = any(
                _enclosing(_region_of_value(found), _PARALLEL) is not region
                for found in self._reverse_chain(
                    start, self.model.is_definition, include_leaves=True
                )
            )
            self._privatize[write] = cached
        return cached

    def _any_conflict(self, reads: SetUses, writes: SetUses) -> bool:
        """Whether any read of `reads` conflicts with any in-place write of `writes`,
        iterating the smaller side and bisecting the other within a block."""
        if not writes.writes or not reads.has_reads():
            return False
        for read in reads.other_reads:
            definitions = self._definitions_of(read)
            if definitions and any(self._conflicts(read, w, definitions) for w in writes.writes):
                return True
        if reads.num_reads() <= len(writes.writes):
            for block, entries in reads.reads_in.items():
                block_writes = writes.writes_in.get(block, [])
                elsewhere = writes.writes_outside(block)
                for first_def, position, read in entries:
                    low = bisect.bisect_left(block_writes, first_def, key=first_field)
                    high = bisect.bisect_right(block_writes, position, key=first_field)
                    candidates = [w for _, w in block_writes[low:high]] + elsewhere
                    definitions = self._definitions_of(read)
                    if any(self._conflicts(read, w, definitions) for w in candidates):
                        return True
            return False
        for write in writes.writes:
            write_op = write[0]
            write_block = write_op.parent_block()
            write_pos = self._positions[write_op]
            for block, entries in reads.reads_in.items():
                if block is write_block:
                    # Reads defined at or before the write (a prefix), read at or after it.
                    end = bisect.bisect_right(entries, write_pos, key=first_field)
                    candidates = [read for _, pos, read in entries[:end] if pos >= write_pos]
                else:
                    candidates = [read for _, _, read in entries]
                for read in candidates:
                    if self._conflicts(read, write, self._definitions_of(read)):
                        return True
        return False

    def _read_summary(self, read: Key) -> tuple[Block | None, int, int | None]:
        """(block, position) of a read, and the position of its earliest definition when all
        its definitions are results of ops in that same block (else None)."""
        found = self._summaries.get(read)
        if found is None:
            op = read[0]
            block = op.parent_block()
            first: int | None = None
            definitions = self._definitions_of(read)
            if definitions and all(
                isinstance(d, OpResult) and d.op.parent_block() is block for d in definitions
            ):
                first = min(self._positions[cast(OpResult, d).op] for d in definitions)
            found = (block, self._positions[op], first)
            self._summaries[read] = found
        return found

    def _definitions_of(self, read: Key) -> tuple[SSAValue, ...]:
        value = read[0].operands[read[1]]
        found = self._definitions.get(value)
        if found is None:
            found = tuple(
                self._reverse_chain(value, self.model.is_definition, include_leaves=False)
            )
            self._definitions[value] = found
        return found

    def _conflicts(self, read: Key, write: Key, definitions: Sequence[SSAValue]) -> bool:
        """Whether in-place `write` may change what `read` must see (upstream's
        hasReadAfterWriteInterference for one pair). The definition test runs first: it is
        decisive for most pairs and cheap."""
        if all(self._definition_excludes(d, write) for d in definitions):
            return False
        read_op, write_op = read[0], write[0]
        if self._can_use_dominance(read_op, write_op, definitions):
            if self._happens_before(read_op, write_op):
                return False
            if read == write:
                return False
            if self._mutually_exclusive(read_op, write_op):
                return False
            if read_op is write_op and self.model.elementwise(read_op, (read[1], write[1])):
                read_value = read_op.operands[read[1]]
                write_value = write_op.operands[write[1]]
                if self._equivalent_upstream(read_value, write_value) or self._equivalent_upstream(
                    write_value, read_value
                ):
                    return False
        return not (
            self._subsets.non_conflicting(read, write) or self._subsets.disjoint(read, write)
        )

    def _definition_excludes(self, definition: SSAValue, write: Key) -> bool:
        """Whether `write` cannot clobber `definition` for its readers: it happens before the
        definition, inside the op computing it, outside the block of a block-argument
        definition, or it is the definition itself."""
        write_op = write[0]
        if isinstance(definition, OpResult):
            def_op = definition.op
            if def_op is not write_op:
                if def_op.parent_block() is write_op.parent_block():
                    # Same block: plain program order (the common, fast case).
                    if self._positions[write_op] < self._positions[def_op]:
                        return True
                elif self._happens_before(write_op, def_op) or def_op.is_ancestor(write_op):
                    return True
        else:
            assert isinstance(definition, BlockArgument)
            if definition.block.find_ancestor_op_in_block(write_op) is None:
                return True
        aliases = self.model.info(*write).aliases
        return len(aliases) == 1 and aliases[0][0] is definition

    def _equivalent_upstream(self, start: SSAValue, other: SSAValue) -> bool:
        """Whether `other` is on `start`'s reverse chain of in-place, equivalent, same-type
        aliases (then an elementwise op reads and writes the same element)."""
        v: SSAValue | None = start
        seen: set[SSAValue] = set()
        while v is not None and v not in seen:
            if v is other:
                return True
            seen.add(v)
            nxt: SSAValue | None = None
            for source, equivalent in self.model.aliasing_operands(v):
                src = source[0].operands[source[1]]
                in_place = source in self.decisions.in_place or source == self._assumed
                if equivalent and in_place and src.type == v.type:
                    nxt = src
                    break
            v = nxt
        return False

    def _reverse_chain(
        self, start: SSAValue, condition: Callable[[SSAValue], bool], *, include_leaves: bool
    ) -> Iterator[SSAValue]:
        """Values on the reverse alias chains from `start` that satisfy `condition`, stopping
        there; chain ends (block arguments, values without aliasing operands) too with
        `include_leaves` (upstream's findValueInReverseUseDefChain)."""
        work = [start]
        seen: set[SSAValue] = set()
        while work:
            v = work.pop()
            if v in seen:
                continue
            seen.add(v)
            if condition(v):
                yield v
                continue
            sources = self.model.aliasing_operands(v)
            if not sources:
                if include_leaves:
                    yield v
                continue
            work.extend(key[0].operands[key[1]] for key, _ in sources)

    def _happens_before(self, a: Operation, b: Operation) -> bool:
        """`a` or an ancestor of it properly dominates `b`, and `b` is not inside `a`."""
        current: Operation | None = a
        while current is not None:
            if current is not b and current.is_ancestor(b):
                return False
            block = current.parent_block()
            if block is not None:
                other = block.find_ancestor_op_in_block(b)
                if other is not None and other is not current:
                    pa, pb = self._positions.get(current), self._positions.get(other)
                    if pa is not None and pb is not None and pa < pb:
                        return True
            current = current.parent_op()
        return False

    def _mutually_exclusive(self, a: Operation, b: Operation) -> bool:
        """Whether `a` and `b` sit in different regions of the same branch op."""
        regions_a: dict[Operation, Region] = {}
        region = a.parent_region()
        while region is not None and (parent := region.parent_op()) is not None:
            if isinstance(parent, _BRANCHES):
                regions_a[parent] = region
            region = parent.parent_region()
        region = b.parent_region()
        while region is not None and (parent := region.parent_op()) is not None:
            if parent in regions_a:
                return regions_a[parent] is not region
            region = parent.parent_region()
        return False

    def _can_use_dominance(
        self, read_op: Operation, write_op: Operation, definitions: Iterable[SSAValue]
    ) -> bool:
        """False when a loop repeats the read after the write (upstream's
        canUseOpDominanceDueToRegions): the read's loop that is nested in the definition's
        loop also contains the write."""
        for definition in definitions:
            r_read = _enclosing(read_op.parent_region(), _LOOPS)
            r_def = _enclosing(_region_of_value(definition), _LOOPS)
            if r_read is r_def:
                continue
            while True:
                if r_read is None:
                    return False
                parent = r_read.parent_op()
                assert parent is not None
                nxt = _enclosing(parent.parent_region(), _LOOPS)
                if nxt is r_def:
                    break
                r_read = nxt
            loop = r_read.parent_op()
            if loop is not None and loop.is_ancestor(write_op):
                return False
        return True


__all__ = ["AnalysisOptions", "Decisions", "InPlaceAnalysis"]
