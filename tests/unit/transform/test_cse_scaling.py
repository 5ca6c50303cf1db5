"""CSE stays linear on blocks that read memory (xDSL's `cse` is quadratic there).

The block reads many addresses once in its first half and again in its second half, so
every second read has an equal read far before it: a CSE that rescans the ops between
two candidates for writes (xDSL's) does O(n^2) work. The test counts the effect queries
(deterministic, unlike timings): at most a few per op.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, f32
from xdsl.ir import Block, Region

from schedir.transform.rewrites import cse
from schedir.transform.rewrites.cse import eliminate_common_subexpressions


def _block_with_reads(num_ops: int) -> tuple[ModuleOp, int]:
    """A function of about `num_ops` ops; returns it and the number of duplicate reads."""
    buffer_type = MemRefType(f32, [1 << 20])
    block = Block(arg_types=[buffer_type])
    buffer = block.args[0]
    per_address = 4  # constant, load, addf, and the second load (plus its addf)
    addresses = num_ops // (2 * per_address)
    indices = []
    for i in range(addresses):
        const = arith.ConstantOp(IntegerAttr(i, IndexType()))
        block.add_op(const)
        indices.append(const.results[0])
    total = None
    duplicates = 0
    for half in range(2):
        for index in indices:
            load = memref.LoadOp.get(buffer, [index])
            block.add_op(load)
            value = load.results[0]
            if total is None:
                total = value
            else:
                add = arith.AddfOp(total, value)
                block.add_op(add)
                total = add.results[0]
            duplicates += half
    assert total is not None
    block.add_op(func.ReturnOp(total))
    function = func.FuncOp("reads", ([buffer_type], [f32]), Region(block))
    return ModuleOp([function]), duplicates


def _effect_queries(num_ops: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """How many times CSE reads an op's memory effects on a block of about `num_ops` ops,
    and how many ops the block has."""
    module, duplicates = _block_with_reads(num_ops)
    ops = sum(1 for _ in module.walk())
    calls = 0

    def counted(function):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal calls
            calls += 1
            return function(*args, **kwargs)

        return wrapper

    for name in ("recursive_effects", "only_reads", "is_trivially_dead"):
        monkeypatch.setattr(cse, name, counted(getattr(cse, name)))
    result = cse.eliminate_common_subexpressions(module)
    monkeypatch.undo()
    assert result.num_cse == duplicates
    return calls, ops


def test_cse_merges_reads_across_a_write_free_block() -> None:
    module, duplicates = _block_with_reads(400)
    ops_before = sum(1 for _ in module.walk())
    result = eliminate_common_subexpressions(module)
    assert result.num_cse == duplicates
    assert sum(1 for _ in module.walk()) == ops_before - duplicates
    module.verify()


def test_cse_is_linear_on_5k_ops_with_memory_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    # A quadratic CSE rescans the ops between two equal reads for writes; this one reads
    # each op's effects a bounded number of times, whatever the block's length.
    for size in (2500, 5000):
        calls, ops = _effect_queries(size, monkeypatch)
        assert calls <= 3 * ops, f"{calls} effect queries for {ops} ops"
