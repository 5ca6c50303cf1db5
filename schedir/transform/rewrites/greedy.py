"""The greedy pattern driver: pattern sets keyed by op class, and the worklist engine.

Mirrors upstream's `GreedyPatternRewriteDriver` (mlir/lib/Transforms/Utils/
GreedyPatternRewriteDriver.cpp), the engine of `transform.apply_patterns` and of the
`canonicalize` pass:

* each iteration walks the region, de-duplicates constants and moves them to the front of
  the entry block of the closest isolated-from-above region (upstream's `OperationFolder`,
  in walk order: a constant found after other ops goes to the very front), and puts every
  op on a worklist (post-order; processed from the back, i.e. bottom-up, or top-down);
* an op is erased when trivially dead, else folded (by its folder in the driver's folder
  table, whatever the pattern set), else the patterns registered for its class are tried
  in order;
* the driver follows every change: new, moved and modified ops and the users of replaced
  ones go back on the worklist (with their ancestors, as upstream), and so do the
  producers of the operands of erased ops; iterations repeat until one changes nothing,
  bounded by `max_iterations` and `max_num_rewrites` (-1: no limit);
* every change is reported to the caller's listener (the transform handles' tracking).

Patterns and folders are keyed by op class. schedir redefines several xDSL ops as
subclasses (upstream syntax) and both classes may be built, so a key stands for its op
name's whole class chain: `root_class` maps either class to the xDSL one.

This module takes the folder table from its caller; `canonicalize.driver` runs it with
every dialect's folders, as upstream's driver folds every op.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeAlias, TypeVar, overload

from xdsl.dialects import arith, func, scf
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsolatedFromAbove

from schedir.dialects import scf as schedir_scf
from schedir.dialects import vector
from schedir.transform.rewrites.constants import constant_attr, materialize_constant
from schedir.transform.rewrites.dce import simplify_regions, walk_region
from schedir.transform.rewrites.effects import is_trivially_dead
from schedir.transform.rewrites.rewriter import CanonRewriter

OpT = TypeVar("OpT", bound=Operation)

FoldResult: TypeAlias = "list[Attribute | SSAValue] | bool | None"
"""What a folder returns: replacements (one per result), True if it updated the op in
place, or None when it does not apply."""

Folder = Callable[[Operation], "list[Attribute | SSAValue] | bool | None"]
Pattern = Callable[[Operation, CanonRewriter], bool]
"""A rewrite pattern: returns True if it changed the IR (through the rewriter)."""

FolderTable = Mapping[type[Operation], Folder]
"""Folders by op class (one folder per op)."""

NO_LIMIT = -1


@cache
def root_class(cls: type[Operation]) -> type[Operation]:
    """The class that stands for `cls` in pattern and folder tables: its most basic
    ancestor with the same op name (xDSL's class, where schedir redefines the op)."""
    root = cls
    for base in cls.__mro__[1:]:
        if vars(base).get("name") == cls.name:
            root = base
    return root


@dataclass
class PatternSet:
    """Rewrite patterns by root op class (None: patterns for any op), in the order they
    are tried."""

    by_root: dict[type[Operation] | None, list[Pattern]] = field(default_factory=dict)

    @overload
    def add(
        self, root: type[OpT], *patterns: Callable[[OpT, CanonRewriter], bool]
    ) -> PatternSet: ...

    @overload
    def add(self, root: None, *patterns: Pattern) -> PatternSet: ...

    def add(
        self, root: type[Operation] | None, *patterns: Callable[[Any, CanonRewriter], bool]
    ) -> PatternSet:
        """Append `patterns` to those of `root` (and of every class with its op name)."""
        key = root_class(root) if root is not None else None
        self.by_root.setdefault(key, []).extend(patterns)
        return self

    def update(self, other: PatternSet) -> PatternSet:
        """Append the patterns of `other` that this set does not hold yet."""
        for root, patterns in other.by_root.items():
            for pattern in patterns:
                if pattern not in self.by_root.get(root, ()):
                    self.by_root.setdefault(root, []).append(pattern)
        return self

    def patterns_of(self, root: type[Operation]) -> list[Pattern]:
        """The patterns registered for `root`'s ops (not those for any op)."""
        return list(self.by_root.get(root_class(root), ()))

    def for_op(self, op: Operation) -> Sequence[Pattern]:
        """The patterns to try on `op`: those of its class, then those for any op."""
        specific = self.by_root.get(root_class(type(op)), ())
        generic = self.by_root.get(None, ())
        if not generic:
            return specific
        return [*specific, *generic]


def folder_table(*tables: FolderTable) -> dict[type[Operation], Folder]:
    """The union of `tables` keyed by root class (a later table's folder wins)."""
    merged: dict[type[Operation], Folder] = {}
    for table in tables:
        for cls, folder in table.items():
            merged[root_class(cls)] = folder
    return merged


@dataclass(frozen=True)
class GreedyConfig:
    """Upstream's `GreedyRewriteConfig` (the options the transform op and the pass set)."""

    max_iterations: int = NO_LIMIT
    max_num_rewrites: int = NO_LIMIT
    top_down: bool = False
    fold: bool = True
    cse_constants: bool = True
    region_simplification: bool = True


DEFAULT_CONFIG = GreedyConfig()
"""Upstream's defaults: no limits, bottom-up, folding, constant CSE, region simplification."""


@dataclass(frozen=True)
class GreedyResult:
    """Whether the rewrite converged, and whether it changed anything."""

    converged: bool
    changed: bool


# --- worklist ------------------------------------------------------------------------------


class _Worklist:
    """Upstream's `Worklist`: a stack without duplicates, O(1) removal."""

    def __init__(self) -> None:
        self._items: list[Operation | None] = []
        self._index: dict[Operation, int] = {}

    def __bool__(self) -> bool:
        while self._items and self._items[-1] is None:
            self._items.pop()
        return bool(self._items)

    def push(self, op: Operation) -> None:
        if op not in self._index:
            self._index[op] = len(self._items)
            self._items.append(op)

    def pop(self) -> Operation:
        while True:
            op = self._items.pop()
            if op is not None:
                del self._index[op]
                return op

    def remove(self, op: Operation) -> None:
        index = self._index.pop(op, None)
        if index is not None:
            self._items[index] = None

    def clear(self) -> None:
        self._items.clear()
        self._index.clear()

    def reverse(self) -> None:
        self._items.reverse()
        self._index = {op: i for i, op in enumerate(self._items) if op is not None}


# --- the constant folder -------------------------------------------------------------------


def insertion_region(block: Block) -> Region | None:
    """Where constants of `block` live: the closest region of an isolated-from-above op."""
    region = block.parent
    while region is not None:
        parent = region.parent
        if parent is None or parent.has_trait(IsolatedFromAbove, value_if_unregistered=False):
            return region
        region = parent.parent_region()
    return None


class ConstantFolder:
    """Upstream's `OperationFolder::insertKnownConstant`: one constant per value and type
    per isolated region, at the front of its entry block."""

    def __init__(self, rewriter: CanonRewriter) -> None:
        self._rewriter = rewriter
        self._scopes: dict[Region, dict[tuple[Attribute, Attribute], Operation]] = {}
        self._owned: dict[Operation, tuple[Region, tuple[Attribute, Attribute]]] = {}
        """Each uniqued constant -> its scope and key (`forget` in O(1), not a scan of
        every scope per erased constant)."""

    def insert_known_constant(self, op: Operation, value: Attribute) -> bool:
        """Record `op`; if an equal constant exists, replace `op` by it and return False."""
        block = op.parent_block()
        if block is None:
            return True
        region = insertion_region(block)
        if region is None or region.blocks.first is None:
            return True
        key = (value, op.results[0].type)
        scope = self._scopes.setdefault(region, {})
        existing = scope.get(key)
        if existing is not None and existing is not op:
            self.forget(op)
            self._rewriter.replace_values(op, list(existing.results))
            return False
        entry = region.blocks.first
        if block is not entry or (entry.first_op is not op and op.prev_op not in self._owned):
            op.detach()
            first = entry.first_op
            if first is None:
                entry.add_op(op)
            else:
                entry.insert_op_before(op, first)
        self.forget(op)  # recorded before under another value, if ever
        scope[key] = op
        self._owned[op] = (region, key)
        return True

    def forget(self, op: Operation) -> None:
        """`op` is being erased: drop it from the uniqued constants."""
        entry = self._owned.pop(op, None)
        if entry is None:
            return
        region, key = entry
        scope = self._scopes.get(region)
        if scope is not None and scope.get(key) is op:
            del scope[key]


# --- the driver ----------------------------------------------------------------------------


_NOT_MATERIALIZING = (*scf.Scf.operations, *schedir_scf.Scf.operations, *func.Func.operations)
"""The ops of the dialects that cannot materialize constants (scf, func)."""


class FoldPattern:
    """A pattern that applies `folder` the way the driver applies a folder, so that a
    pattern set can carry folds with it (`apply` applies the folder's result). The driver
    skips it on an op it has just tried to fold with the same folder: the same call on the
    unchanged op gives the same answer (a profile of a GPU lowering spent a tenth of its
    pattern time folding every vector op twice)."""

    __slots__ = ("__name__", "apply", "folder")

    def __init__(
        self, folder: Folder, apply: Callable[[Operation, CanonRewriter, FoldResult], bool]
    ) -> None:
        self.folder = folder
        self.apply = apply
        self.__name__ = f"fold_{getattr(folder, '__name__', 'op')}"

    def __call__(self, op: Operation, rewriter: CanonRewriter) -> bool:
        return self.apply(op, rewriter, self.folder(op))


def _materializes(op: Operation) -> bool:
    """Whether the op's dialect can materialize constants (scf and func cannot)."""
    return not isinstance(op, _NOT_MATERIALIZING)


class GreedyDriver:
    """Applies folders and patterns to a worklist of ops until nothing changes."""

    def __init__(
        self,
        patterns: PatternSet,
        folders: FolderTable,
        config: GreedyConfig = GreedyConfig(),
        listener: PatternRewriterListener | None = None,
        scope: Region | None = None,
    ) -> None:
        self.patterns = patterns
        self.config = config
        self.folders = folder_table(folders)
        self.scope = scope
        self.worklist = _Worklist()
        self.folder: ConstantFolder | None = None
        own = PatternRewriterListener(
            operation_insertion_handler=[self._inserted],
            operation_removal_handler=[self._removed],
            operation_modification_handler=[self._modified],
        )
        self.rewriter = CanonRewriter(InsertPoint.at_end(Block()))
        # The caller's listener hears of a change before the driver updates its worklist.
        if listener is not None:
            self.rewriter.extend_from_listener(listener)
        self.rewriter.extend_from_listener(own)

    # -- notifications -------------------------------------------------------------------

    def add_to_worklist(self, op: Operation) -> None:
        """Add `op` and its ancestors up to the scope region (upstream's addToWorklist)."""
        ancestors: list[Operation] = []
        current: Operation | None = op
        while current is not None:
            ancestors.append(current)
            region = current.parent_region()
            if region is self.scope:
                for item in ancestors:
                    self.worklist.push(item)
                return
            if region is None:
                return
            current = region.parent

    def _inserted(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def _modified(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def _removed(self, op: Operation) -> None:
        # Upstream's addOperandsToWorklist: a producer left with at most one other user
        # may now be dead or foldable.
        for operand in op.operands:
            owner = operand.owner
            if not isinstance(owner, Operation):
                continue
            others: set[Operation] = set()
            for use in operand.uses:
                if use.operation is not op:
                    others.add(use.operation)
                    if len(others) > 1:
                        break
            if len(others) <= 1:
                self.add_to_worklist(owner)
        for nested in op.walk():
            self.worklist.remove(nested)
            if self.folder is not None:
                self.folder.forget(nested)

    # -- one op ----------------------------------------------------------------------------

    def _fold(self, op: Operation) -> bool:
        folder = self.folders.get(root_class(type(op)))
        if folder is None or isinstance(op, arith.ConstantOp):
            return False
        result = folder(op)
        if result is None or result is False:
            return False
        if result is True:
            self.rewriter.modified(op)
            return True
        rewriter = self.rewriter
        rewriter.set_insertion_point(op)
        replacements: list[SSAValue] = []
        created: list[Operation] = []
        for item, res in zip(result, op.results, strict=True):
            if isinstance(item, SSAValue):
                replacements.append(item)
                continue
            const = (
                materialize_constant(rewriter, item, res.type, op.location)
                if _materializes(op)
                else None
            )
            if const is None:
                for made in created:
                    rewriter.erase(made)
                return False
            created.append(const)
            replacements.append(const.results[0])
        if all(r is old for r, old in zip(replacements, op.results, strict=True)):
            return False
        rewriter.replace_values(op, replacements)
        return True

    def _match(self, op: Operation) -> bool:
        rewriter = self.rewriter
        patterns = self.patterns.for_op(op)
        if not patterns:
            return False
        # Each pattern starts before `op`; a failing pattern changes nothing, so the
        # point is built once. An op masked by a `vector.mask` is the only op its mask's
        # body may hold: what a pattern builds for it (indices, constants) goes before the
        # mask, as upstream's MaskableOpRewritePattern places it.
        parent = op.parent_op()
        point = InsertPoint.before(parent if isinstance(parent, vector.MaskOp) else op)
        # The folder `_fold` has just tried on `op` (when it could also materialize).
        folded = (
            self.folders.get(root_class(type(op)))
            if self.config.fold and _materializes(op) and not isinstance(op, arith.ConstantOp)
            else None
        )
        for pattern in patterns:
            if folded is not None and isinstance(pattern, FoldPattern) and pattern.folder is folded:
                continue
            rewriter.has_done_action = False
            rewriter.insertion_point = point
            if pattern(op, rewriter):
                return True
            if rewriter.has_done_action:
                # A pattern that changed the IR must say so; count it as applied.
                return True
        return False

    def process_worklist(self) -> bool:
        """Upstream's `processWorklist`: returns whether anything changed."""
        changed = False
        num_rewrites = 0
        limit = self.config.max_num_rewrites
        while self.worklist and (limit == NO_LIMIT or num_rewrites < limit):
            op = self.worklist.pop()
            if op.parent is None:
                continue
            if is_trivially_dead(op):
                self.rewriter.erase(op)
                changed = True
                continue
            if self.config.fold and self._fold(op):
                changed = True
                continue
            if self._match(op):
                changed = True
                num_rewrites += 1
        return changed

    # -- whole regions -----------------------------------------------------------------

    def simplify_region(self, region: Region) -> GreedyResult:
        """Upstream's `RegionPatternRewriteDriver::simplify`."""
        iteration = 0
        again = False
        while True:
            iteration += 1
            if self.config.max_iterations != NO_LIMIT and iteration > self.config.max_iterations:
                break
            self.worklist.clear()
            self.folder = ConstantFolder(self.rewriter) if self.config.cse_constants else None
            ops = walk_region(region, pre_order=self.config.top_down)
            for op in ops:
                if op.parent is None:
                    continue  # erased as a duplicate constant of an earlier one
                if self.folder is not None and isinstance(op, arith.ConstantOp):
                    value = constant_attr(op.results[0])
                    if value is not None and not self.folder.insert_known_constant(op, value):
                        continue
                self.worklist.push(op)
            if self.config.top_down:
                self.worklist.reverse()
            again = self.process_worklist()
            if self.config.region_simplification:
                again |= simplify_regions(self.rewriter, region)
            if not again:
                break
        self.folder = None
        return GreedyResult(converged=not again, changed=iteration > 1)


# --- entry points --------------------------------------------------------------------------


def simplify_greedily(
    target: Operation | Region,
    patterns: PatternSet,
    folders: FolderTable,
    config: GreedyConfig = GreedyConfig(),
    listener: PatternRewriterListener | None = None,
) -> GreedyResult:
    """Rewrite the regions of `target` (an isolated-from-above op, or one region) to a
    fixpoint with `patterns` and `folders`; the op itself is not rewritten."""
    regions = [target] if isinstance(target, Region) else list(target.regions)
    converged = True
    changed = False
    for region in regions:
        driver = GreedyDriver(patterns, folders, config, listener, scope=region)
        result = driver.simplify_region(region)
        converged &= result.converged
        changed |= result.changed
    return GreedyResult(converged, changed)


def rewrite_ops_greedily(
    ops: Iterable[Operation],
    patterns: PatternSet,
    folders: FolderTable,
    config: GreedyConfig = GreedyConfig(),
    listener: PatternRewriterListener | None = None,
) -> GreedyResult:
    """Upstream's `applyOpPatternsGreedily`: one worklist pass seeded with `ops`."""
    ops = list(ops)
    if not ops:
        return GreedyResult(True, False)
    scope = _common_region(ops)
    driver = GreedyDriver(patterns, folders, config, listener, scope=scope)
    for op in ops:
        driver.worklist.push(op)
    changed = driver.process_worklist()
    return GreedyResult(converged=not driver.worklist, changed=changed)


def _common_region(ops: Sequence[Operation]) -> Region | None:
    region = ops[0].parent_region()
    while region is not None:
        if all(_in_region(region, op) for op in ops[1:]):
            return region
        parent = region.parent
        region = parent.parent_region() if parent is not None else None
    return None


def _in_region(region: Region, op: Operation) -> bool:
    current: Operation | None = op
    while current is not None:
        if current.parent_region() is region:
            return True
        current = current.parent_op()
    return False


__all__ = [
    "DEFAULT_CONFIG",
    "NO_LIMIT",
    "ConstantFolder",
    "FoldPattern",
    "FoldResult",
    "Folder",
    "FolderTable",
    "GreedyConfig",
    "GreedyDriver",
    "GreedyResult",
    "Pattern",
    "PatternSet",
    "folder_table",
    "insertion_region",
    "rewrite_ops_greedily",
    "root_class",
    "simplify_greedily",
]
