"""The scf dialect as schedir uses it: xDSL's loops plus `scf.forall`, with upstream syntax.

xDSL has no `scf.forall` (the loop a schedule tiles into and maps onto GPU blocks and
threads) and prints `scf.parallel` only generically. `forall` adds `scf.forall` and its
`scf.forall.in_parallel` terminator; `parallel` gives `scf.parallel` / `scf.reduce`
upstream's custom syntax and prints `scf.execute_region` as upstream does; `while_op`
gives `scf.while` upstream's syntax without loop-carried values. `scf.for`, `scf.if`,
`scf.yield`, `scf.condition`, `scf.index_switch` and
`scf.reduce.return` are xDSL's: their syntax matches upstream's. The replaced ops subclass
xDSL's where one exists, so xDSL code that checks `isinstance(op,
xdsl.dialects.scf.ParallelOp)` still recognises them.
"""

from __future__ import annotations

from xdsl.dialects import scf as xscf
from xdsl.ir import Dialect

from schedir.dialects.scf.forall import ForallOp, InParallelOp
from schedir.dialects.scf.parallel import ExecuteRegionOp, ParallelOp, ReduceOp
from schedir.dialects.scf.while_op import WhileOp

ConditionOp = xscf.ConditionOp
ForOp = xscf.ForOp
IfOp = xscf.IfOp
IndexSwitchOp = xscf.IndexSwitchOp
ReduceReturnOp = xscf.ReduceReturnOp
YieldOp = xscf.YieldOp

Scf = Dialect(
    "scf",
    [
        IfOp,
        ForOp,
        YieldOp,
        ExecuteRegionOp,
        ConditionOp,
        ParallelOp,
        ReduceOp,
        ReduceReturnOp,
        WhileOp,
        IndexSwitchOp,
        ForallOp,
        InParallelOp,
    ],
    [],
)
"""xDSL's scf dialect with schedir's forall, parallel, reduce and execute_region."""

__all__ = [
    "ConditionOp",
    "ExecuteRegionOp",
    "ForOp",
    "ForallOp",
    "IfOp",
    "InParallelOp",
    "IndexSwitchOp",
    "ParallelOp",
    "ReduceOp",
    "ReduceReturnOp",
    "Scf",
    "WhileOp",
    "YieldOp",
]
