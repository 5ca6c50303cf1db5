"""SSA dominance, checked as MLIR's verifier checks it (mlir/lib/IR/Verifier.cpp).

xDSL's verifier does not check that a value's definition dominates its uses, so a payload
that uses a value before defining it parses and only fails deep in the lowering, far from
the line the user wrote. `dominance_failure(op)` gives upstream's diagnostic for `op`:

    error: operand #0 does not dominate this use
    note: operand defined here (op in the same block)

Inside one block a definition dominates the ops after it; across blocks of one region the
CFG's dominator tree decides (uses in blocks unreachable from the entry are not checked,
as upstream); a use nested in a region sees the values of the enclosing regions. The bodies
of `builtin.module` and `gpu.module` are graph regions without dominance.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import SymbolTable


@dataclass
class DominanceInfo:
    """Lazily computed block positions and per-region dominator sets, for one verifier run."""

    _positions: dict[Block, dict[Operation, int]] = field(default_factory=dict)
    _dominators: dict[Region, dict[Block, set[Block]]] = field(default_factory=dict)

    def position(self, op: Operation) -> int:
        """The index of `op` in its block."""
        block = op.parent
        assert block is not None
        table = self._positions.get(block)
        if table is None:
            table = {o: i for i, o in enumerate(block.ops)}
            self._positions[block] = table
        return table[op]

    def dominators(self, region: Region) -> dict[Block, set[Block]]:
        """The dominators of each block reachable from the region's entry."""
        found = self._dominators.get(region)
        if found is None:
            found = _dominator_sets(region)
            self._dominators[region] = found
        return found


def _successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


def _dominator_sets(region: Region) -> dict[Block, set[Block]]:
    """The classic iterative data-flow: dom(entry) = {entry}, dom(b) = {b} + the
    intersection of dom(p) over the reachable predecessors p."""
    entry = region.blocks.first
    if entry is None:
        return {}
    reachable: list[Block] = []
    seen = {entry}
    stack = [entry]
    while stack:
        block = stack.pop()
        reachable.append(block)
        for succ in _successors(block):
            if succ not in seen:
                seen.add(succ)
                stack.append(succ)
    preds: dict[Block, list[Block]] = {b: [] for b in reachable}
    for block in reachable:
        for succ in _successors(block):
            preds[succ].append(block)
    everything = set(reachable)
    dom: dict[Block, set[Block]] = {b: set(everything) for b in reachable}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for block in reachable:
            if block is entry:
                continue
            incoming = [dom[p] for p in preds[block]]
            new = set.intersection(*incoming) if incoming else set()
            new.add(block)
            if new != dom[block]:
                dom[block] = new
                changed = True
    return dom


def _is_graph_region(region: Region) -> bool:
    """Regions without SSA dominance: the bodies of symbol tables such as modules."""
    owner = region.parent
    return owner is not None and (isinstance(owner, ModuleOp) or owner.has_trait(SymbolTable))


def _ancestor_in(op: Operation, region: Region) -> Operation | None:
    """The ancestor of `op` (or `op` itself) whose block lies directly in `region`."""
    current: Operation | None = op
    while current is not None:
        block = current.parent
        if block is not None and block.parent is region:
            return current
        current = current.parent_op()
    return None


def _dominates(info: DominanceInfo, value: SSAValue, user: Operation) -> bool:
    if isinstance(value, OpResult):
        definer: Operation | None = value.op
        block = value.op.parent
    elif isinstance(value, BlockArgument):
        definer = None
        block = value.block
    else:
        return True
    if block is None or block.parent is None:
        return True
    region = block.parent
    if _is_graph_region(region):
        return True
    ancestor = _ancestor_in(user, region)
    if ancestor is None:
        return False
    use_block = ancestor.parent
    assert use_block is not None
    multi_block = region.blocks.first is not region.blocks.last
    if multi_block and use_block not in info.dominators(region):
        return True  # uses in unreachable blocks are not checked, as upstream
    if use_block is block:
        if definer is None:
            return True
        # A result does not dominate the op's own regions.
        return info.position(definer) < info.position(ancestor)
    return block in info.dominators(region)[use_block]


def _relation(use_block: Block, def_block: Block) -> str:
    """How a definition's block relates to the use's, in upstream's words."""
    use_region, def_region = use_block.parent, def_block.parent
    if use_block is def_block:
        return "in the same block"
    if use_region is def_region:
        return "in the same region"
    if def_region is not None and use_region is not None:
        if def_region.is_ancestor(use_block) and use_region is not def_region:
            return "in a parent region"
        if use_region.is_ancestor(def_block):
            return "in a child region"
    return "is neither in a parent nor in a child region"


def dominance_failure(
    info: DominanceInfo, op: Operation
) -> tuple[str, tuple[tuple[Operation, str], ...]] | None:
    """Upstream's message and notes for the first operand of `op` whose definition does
    not dominate it, or None."""
    for index, value in enumerate(op.operands):
        if _dominates(info, value, op):
            continue
        message = f"operand #{index} does not dominate this use"
        use_block = op.parent
        if isinstance(value, OpResult) and use_block is not None and value.op.parent is not None:
            relation = _relation(use_block, value.op.parent)
            return message, ((value.op, f"operand defined here (op {relation})"),)
        if isinstance(value, BlockArgument) and use_block is not None:
            owner = value.block.parent_op()
            region = value.block.parent
            number = region.blocks.index(value.block) if region is not None else 0
            relation = _relation(use_block, value.block)
            note = f"operand defined as a block argument (block #{number} {relation})"
            return message, (((owner, note),) if owner is not None else ())
        return message, ()
    return None


__all__ = ["DominanceInfo", "dominance_failure"]
