"""Folding the mixed static/dynamic lists of slice-like ops (offsets, sizes, strides).

A mixed entry (`schedir.dialects.utils.Mixed`) is a static int or an SSA value; the
helpers here fold SSA entries defined by constants into static ones and compare entries
as upstream's `OpFoldResult` does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import SSAValue

from schedir.dialects.utils import Mixed
from schedir.transform.rewrites.constants import constant_int


def fold_mixed(
    values: Sequence[Mixed], only_non_negative: bool = False
) -> tuple[list[Mixed], bool]:
    """Replace SSA entries defined by constants with their value (upstream
    `foldDynamicIndexList`); returns the new list and whether anything changed."""
    out: list[Mixed] = []
    changed = False
    for v in values:
        c = constant_int(v) if isinstance(v, SSAValue) else None
        if only_non_negative and c is not None and c < 0:
            c = None
        if isinstance(v, SSAValue) and c is not None and c != DYNAMIC_INDEX:
            out.append(c)
            changed = True
        else:
            out.append(v)
    return out, changed


def fold_mixed_lists(
    offsets: Sequence[Mixed], sizes: Sequence[Mixed], strides: Sequence[Mixed]
) -> tuple[list[Mixed], list[Mixed], list[Mixed]] | None:
    """Upstream's constant-argument folding of slice-like ops: offsets, else sizes, else
    strides (its `failed(a) && failed(b) && failed(c)` folds one list per rewrite);
    negative offsets and sizes stay dynamic. None when nothing folds."""
    new_offsets, changed = fold_mixed(offsets, only_non_negative=True)
    if changed:
        return new_offsets, list(sizes), list(strides)
    new_sizes, changed = fold_mixed(sizes, only_non_negative=True)
    if changed:
        return list(offsets), new_sizes, list(strides)
    new_strides, changed = fold_mixed(strides)
    if changed:
        return list(offsets), list(sizes), new_strides
    return None


def same_mixed_strict(a: Mixed, b: Mixed) -> bool:
    """Upstream's `OpFoldResult ==`: the same SSA value or the same static value (an SSA
    constant and a static entry differ)."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return a is b


def same_mixed(a: Mixed, b: Mixed) -> bool:
    """Equal static values or the same SSA value (constants compare by value)."""
    ca = constant_int(a)
    cb = constant_int(b)
    if ca is not None or cb is not None:
        return ca == cb
    return a is b


def in_bounds_slice(
    shape: Sequence[int], offsets: Sequence[Mixed], sizes: Sequence[Mixed], strides: Sequence[Mixed]
) -> bool:
    """Upstream's `verifyInBoundsSlice` on the static entries."""
    for extent, off, size, stride in zip(shape, offsets, sizes, strides, strict=False):
        if not (isinstance(off, int) and isinstance(size, int) and isinstance(stride, int)):
            continue
        if extent == DYNAMIC_INDEX or size == 0:
            continue
        if off + (size - 1) * stride >= extent:
            return False
    return True


__all__ = ["fold_mixed", "fold_mixed_lists", "in_bounds_slice", "same_mixed", "same_mixed_strict"]
