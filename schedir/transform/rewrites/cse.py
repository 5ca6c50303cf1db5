"""Common subexpression elimination, linear in the size of the IR.

Upstream's CSE (mlir/lib/Transforms/CSE.cpp) with the same results, without its
quadratic corner (xDSL's `cse` rescans the ops between two candidates for writes):

* a scoped hash table of known ops, one scope per block, walked along the dominator
  tree (single-block regions directly; the regions of isolated-from-above ops get a fresh
  table); nested regions are simplified before the op that holds them;
* ops are equal when their name, properties, attributes, result types and operands are
  (commutative ops compare operands as a multiset) and their regions are structurally
  equal (upstream's `OperationEquivalence` with locations ignored);
* an op without memory effects replaces with its first equal predecessor; an op that
  only reads memory does so only within one block with no write in between. Each op of a
  block gets the count of writing (or unknown-effect) ops before it, its *epoch*: two
  reads see the same memory exactly when their epochs are equal, so no pair needs a
  rescan;
* trivially dead ops are erased (upstream's CSE does so too); terminators and ops with
  multi-block regions are left alone.

Replacements are reported to the listener (the transform handles follow the kept op),
then the duplicates are erased once the walk is done.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove, IsTerminator

from schedir.transform.rewrites.effects import (
    WRITE,
    Effect,
    is_trivially_dead,
    only_reads,
    recursive_effects,
)
from schedir.transform.rewrites.rewriter import CanonRewriter

COMMUTATIVE: tuple[type[Operation], ...] = (
    arith.AddiOp, arith.MuliOp, arith.AndIOp, arith.OrIOp, arith.XOrIOp,
    arith.MaxSIOp, arith.MaxUIOp, arith.MinSIOp, arith.MinUIOp,
    arith.AddfOp, arith.MulfOp, arith.MaximumfOp, arith.MinimumfOp,
    arith.MaxnumfOp, arith.MinnumfOp, arith.AddUIExtendedOp,
    arith.MulUIExtendedOp, arith.MulSIExtendedOp,
)  # fmt: skip
"""Ops with upstream's `Commutative` trait: their operands compare as a multiset."""


@dataclass(frozen=True)
class CseResult:
    """What one CSE run did."""

    changed: bool
    num_cse: int
    num_dce: int


# --- op keys ----------------------------------------------------------------------------------


def _attr_key(attr: Attribute) -> Hashable:
    try:
        hash(attr)
    except TypeError:
        return (type(attr).__name__, str(attr))
    return attr


def _dict_key(items: dict[str, Attribute]) -> tuple[tuple[str, Hashable], ...]:
    return tuple(sorted((k, _attr_key(v)) for k, v in items.items()))


def _local_value_key(value: SSAValue, local: dict[SSAValue, tuple[int, ...]]) -> Hashable:
    """A value inside a compared region by its position; outside values by identity."""
    position = local.get(value)
    return position if position is not None else value


def _region_key(region: Region, local: dict[SSAValue, tuple[int, ...]], depth: int) -> Hashable:
    blocks: list[Hashable] = []
    block_index = {block: i for i, block in enumerate(region.blocks)}
    for bi, block in enumerate(region.blocks):
        for ai, arg in enumerate(block.args):
            local[arg] = (depth, bi, -1, ai)
        ops: list[Hashable] = []
        for oi, op in enumerate(block.ops):
            ops.append(
                (
                    op.name,
                    _dict_key(op.properties),
                    _dict_key(op.attributes),
                    tuple(r.type for r in op.results),
                    tuple(_local_value_key(v, local) for v in op.operands),
                    tuple(block_index.get(s, -1) for s in op.successors),
                    tuple(_region_key(r, local, depth + 1) for r in op.regions),
                )
            )
            for ri, result in enumerate(op.results):
                local[result] = (depth, bi, oi, ri)
        blocks.append((tuple(a.type for a in block.args), tuple(ops)))
    return tuple(blocks)


class OpKey:
    """Upstream's `OperationEquivalence` (locations ignored) as a dict key.

    As upstream's `computeHash`, the hash covers the name, properties, attributes, result
    types and operands but not the regions: it is computed once, and regions are only
    compared (structurally) between ops that agree on everything else.
    """

    __slots__ = ("_hash", "_regions", "_shallow", "op")

    def __init__(self, op: Operation) -> None:
        operands: tuple[Hashable, ...]
        if isinstance(op, COMMUTATIVE) and len(op.operands) > 1:
            operands = (frozenset(_count(op.operands)),)
        else:
            operands = tuple(op.operands)
        self.op = op
        self._shallow: Hashable = (
            op.name,
            _dict_key(op.properties),
            _dict_key(op.attributes),
            tuple(r.type for r in op.results),
            operands,
        )
        self._hash = hash(self._shallow)
        self._regions: tuple[Hashable, ...] | None = None if op.regions else ()

    def regions(self) -> tuple[Hashable, ...]:
        """The structural key of the op's regions (computed on the first comparison)."""
        if self._regions is None:
            local: dict[SSAValue, tuple[int, ...]] = {}
            self._regions = tuple(_region_key(r, local, 0) for r in self.op.regions)
        return self._regions

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, OpKey):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._shallow == other._shallow
            and self.regions() == other.regions()
        )


def op_key(op: Operation) -> OpKey:
    """Upstream's `OperationEquivalence` (locations ignored) as a hashable key."""
    return OpKey(op)


def _count(values: Sequence[SSAValue]) -> Iterator[tuple[SSAValue, int]]:
    counts: dict[SSAValue, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return iter(counts.items())


# --- the scoped table -------------------------------------------------------------------------


@dataclass
class _Known:
    """A known op with, for ops that read memory, the block and epoch it read in."""

    op: Operation
    block: Block | None = None
    epoch: int = 0


@dataclass
class _ScopedTable:
    """A hash table whose insertions are undone when their scope closes."""

    table: dict[Hashable, list[_Known]] = field(default_factory=dict)
    scopes: list[list[Hashable]] = field(default_factory=list)

    def push(self) -> None:
        self.scopes.append([])

    def pop(self) -> None:
        for key in self.scopes.pop():
            stack = self.table[key]
            stack.pop()
            if not stack:
                del self.table[key]

    def lookup(self, key: Hashable) -> _Known | None:
        stack = self.table.get(key)
        return stack[-1] if stack else None

    def insert(self, key: Hashable, known: _Known) -> None:
        self.table.setdefault(key, []).append(known)
        self.scopes[-1].append(key)


# --- the driver -------------------------------------------------------------------------------


class CseDriver:
    """Upstream's CSEDriver with epoch-based read windows."""

    def __init__(self, rewriter: CanonRewriter) -> None:
        self.rewriter = rewriter
        self.to_erase: list[Operation] = []
        self.erased: set[Operation] = set()
        self.num_cse = 0
        self.num_dce = 0

    def simplify(self, op: Operation) -> bool:
        known = _ScopedTable()
        for region in op.regions:
            self._simplify_region(known, region)
        for dead in self.to_erase:
            self.rewriter.erase(dead, safe_erase=False)
        return bool(self.to_erase)

    def _simplify_region(self, known: _ScopedTable, region: Region) -> None:
        blocks = list(region.blocks)
        if not blocks:
            return
        if len(blocks) == 1:
            known.push()
            self._simplify_block(known, blocks[0])
            known.pop()
            return
        # Walk the dominator tree; each node's scope stays open for its subtree.
        children = dominator_tree(region)
        stack: list[tuple[Block, Iterator[Block]]] = []
        known.push()
        self._simplify_block(known, blocks[0])
        stack.append((blocks[0], iter(children.get(blocks[0], ()))))
        while stack:
            _, it = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                known.pop()
                continue
            known.push()
            self._simplify_block(known, child)
            stack.append((child, iter(children.get(child, ()))))

    def _simplify_block(self, known: _ScopedTable, block: Block) -> None:
        epoch = 0
        for op in list(block.ops):
            if op.regions:
                if op.has_trait(IsolatedFromAbove, value_if_unregistered=False):
                    nested = _ScopedTable()
                    for region in op.regions:
                        self._simplify_region(nested, region)
                else:
                    for region in op.regions:
                        self._simplify_region(known, region)
            # The effects (nested ops included) are read once: they decide both whether
            # the op may be merged and whether it ends the block's read window.
            effects = recursive_effects(op)
            self._simplify_op(known, op, block, epoch, effects)
            # A dead or replaced op no longer writes anything.
            if op not in self.erased and (effects is None or any(e.kind == WRITE for e in effects)):
                epoch += 1

    def _simplify_op(
        self,
        known: _ScopedTable,
        op: Operation,
        block: Block,
        epoch: int,
        effects: list[Effect] | None,
    ) -> None:
        if op.has_trait(IsTerminator, value_if_unregistered=False):
            return
        if is_trivially_dead(op):
            self.to_erase.append(op)
            self.erased.add(op)
            self.num_dce += 1
            return
        if any(len(r.blocks) > 1 for r in op.regions):
            return
        if effects is None or effects:  # not free of memory effects
            if not only_reads(op):
                return
            key = op_key(op)
            existing = known.lookup(key)
            if existing is not None and existing.block is block and existing.epoch == epoch:
                self._replace(op, existing.op)
                return
            known.insert(key, _Known(op, block, epoch))
            return
        key = op_key(op)
        existing = known.lookup(key)
        if existing is not None:
            self._replace(op, existing.op)
            return
        known.insert(key, _Known(op))

    def _replace(self, op: Operation, existing: Operation) -> None:
        rw = self.rewriter
        rw.handle_operation_replacement(op, list(existing.results))
        for old, new in zip(op.results, existing.results, strict=True):
            rw.replace_all_uses_with(old, new)
        self.to_erase.append(op)
        self.erased.add(op)
        self.num_cse += 1


def eliminate_common_subexpressions(
    root: Operation, listener: PatternRewriterListener | None = None
) -> CseResult:
    """CSE in the regions of `root` (the op itself is kept)."""
    rewriter = CanonRewriter(InsertPoint.at_end(Block()), listener)
    driver = CseDriver(rewriter)
    changed = driver.simplify(root)
    return CseResult(changed, driver.num_cse, driver.num_dce)


# --- dominance --------------------------------------------------------------------------------


def dominator_tree(region: Region) -> dict[Block, list[Block]]:
    """Children of each reachable block in the dominator tree of a multi-block region
    (Cooper, Harvey and Kennedy's iterative algorithm), in region order."""
    blocks = list(region.blocks)
    entry = blocks[0]
    order: list[Block] = []
    seen: set[Block] = set()
    stack: list[tuple[Block, int]] = [(entry, 0)]
    seen.add(entry)
    # Iterative DFS for a reverse post-order.
    while stack:
        block, index = stack.pop()
        succs = list(block.last_op.successors) if block.last_op is not None else []
        if index < len(succs):
            stack.append((block, index + 1))
            succ = succs[index]
            if succ not in seen:
                seen.add(succ)
                stack.append((succ, 0))
        else:
            order.append(block)
    rpo = list(reversed(order))
    number = {b: i for i, b in enumerate(rpo)}
    preds: dict[Block, list[Block]] = {b: [] for b in rpo}
    for b in rpo:
        if b.last_op is not None:
            for s in b.last_op.successors:
                if s in preds:
                    preds[s].append(b)
    idom: dict[Block, Block] = {entry: entry}

    def intersect(a: Block, b: Block) -> Block:
        while a is not b:
            while number[a] > number[b]:
                a = idom[a]
            while number[b] > number[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in rpo[1:]:
            candidates = [p for p in preds[b] if p in idom]
            if not candidates:
                continue
            new = candidates[0]
            for p in candidates[1:]:
                new = intersect(p, new)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    children: dict[Block, list[Block]] = {}
    for b in blocks:
        if b is entry or b not in idom:
            continue
        children.setdefault(idom[b], []).append(b)
    return children


__all__ = [
    "COMMUTATIVE",
    "CseDriver",
    "CseResult",
    "OpKey",
    "dominator_tree",
    "eliminate_common_subexpressions",
    "op_key",
]
