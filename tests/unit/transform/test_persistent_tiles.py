"""transform.schedir.nvgpu.persistent_tiles on generated grids, rings and block counts:
the rewritten launch, evaluated block by block and thread by thread (a small interpreter
of its index arithmetic and loops), computes every tile exactly once, in raster groups,
with each role's tile loop under its `setmaxregister` (run once) and each block's ring
steps numbered on across its tiles (0, 1, 2, ... in every k loop that synchronizes on
mbarriers: the phases a ring of any stage count needs), whatever the grid, the group,
the k steps and the number of blocks (fewer, as many or more than the tiles)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue

from schedir.dialects import affine, get_context, gpu, nvvm
from schedir.dialects import nvgpu as ng
from schedir.dialects.syntax import parse_module
from schedir.pipeline import apply_schedule

_PAYLOAD = """
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %l = transform.structured.match ops{{["gpu.launch"]}} in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.param.constant {ctas} : i64 -> !transform.param<i64>
    %g = transform.param.constant {group} : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.persistent_tiles %l ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }}
  func.func @k(%log: memref<?x?xindex>, %regs: memref<?xindex>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %cs = arith.constant {stages} : index
    %ck = arith.constant {k} : index
    %gx = arith.constant {gx} : index
    %gy = arith.constant {gy} : index
    gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %gy, %sgz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {{
      %bars = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
      %x = gpu.block_id x
      %row = arith.muli %by, %c128 : index
      %col = affine.apply affine_map<()[s0] -> (s0 * 64)>()[%x]
      %tile = affine.apply affine_map<()[s0, s1] -> (s0 * 1000 + s1)>()[%row, %col]
      gpu.barrier
      %tid = gpu.thread_id x
      %wg = arith.divui %tid, %c128 : index
      %producer = arith.cmpi eq, %wg, %c0 : index
      scf.if %producer {{
        nvvm.setmaxregister decrease 40
        %lead = arith.cmpi eq, %tid, %c0 : index
        scf.if %lead {{
          scf.for %k = %c0 to %ck step %c64 {{
            %d = arith.subi %k, %c0 : index
            %i = arith.divui %d, %c64 : index
            %s = arith.remui %i, %cs : index
            %t = nvgpu.mbarrier.arrive %bars[%s] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
            memref.store %i, %log[%tile, %k] : memref<?x?xindex>
          }}
        }}
      }} else {{
        nvvm.setmaxregister increase 232
        scf.for %k = %c0 to %ck step %c64 {{
          %d = arith.subi %k, %c0 : index
          %i = arith.divui %d, %c64 : index
          %s = arith.remui %i, %cs : index
          %t = nvgpu.mbarrier.arrive %bars[%s] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
          memref.store %i, %log[%tile, %k] : memref<?x?xindex>
        }}
        memref.store %tile, %regs[%tile] : memref<?xindex>
      }}
      gpu.terminator
    }}
    return
  }}
}}
"""

_BINARY: dict[type[Operation], Callable[[int, int], int]] = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b,
    arith.RemUIOp: lambda a, b: a % b,
    arith.MinUIOp: min,
}


def _fold(v: SSAValue) -> int:
    """The value of index arithmetic on constants."""
    owner = v.owner
    if isinstance(owner, arith.ConstantOp):
        assert isinstance(owner.value, IntegerAttr)
        return owner.value.value.data
    assert isinstance(owner, Operation) and type(owner) in _BINARY, f"{v} undefined"
    a, b = (_fold(o) for o in owner.operands)
    return _BINARY[type(owner)](a, b)


class _Thread:
    """One thread of one block running the launch body: what it stores and in what order."""

    def __init__(self, launch: gpu.LaunchOp, bx: int, grid: int, tid: int) -> None:
        self.launch = launch
        self.values: dict[SSAValue, int] = {}
        self.stores: list[tuple[str, tuple[int, ...], int]] = []
        self.setmaxregister = 0
        self.ids = {"x": bx, "y": 0}
        self.grid = {"x": grid, "y": 1}
        self.tid = tid
        body = launch.body.block
        ids = (bx, 0, 0, tid, 0, 0, grid, 1, 1, 256, 1, 1)
        for arg, value in zip(body.args[: len(ids)], ids, strict=True):
            self.values[arg] = value

    def value(self, v: SSAValue) -> int:
        if v not in self.values:
            # Defined outside the launch: constants and the grid's arithmetic.
            self.values[v] = _fold(v)
        return self.values[v]

    def run(self, block: Block) -> None:
        for op in block.ops:
            self.step(op)

    def step(self, op: Operation) -> None:
        if isinstance(op, arith.ConstantOp):
            self.value(op.result)
        elif type(op) in _BINARY:
            a, b = (self.value(v) for v in op.operands)
            self.values[op.results[0]] = _BINARY[type(op)](a, b)
        elif isinstance(op, arith.CmpiOp):
            a, b = (self.value(v) for v in op.operands)
            assert op.predicate.value.data == 0  # eq
            self.values[op.result] = int(a == b)
        elif isinstance(op, affine.ApplyOp):
            operands = [self.value(v) for v in op.operands]
            (result,) = op.map.data.eval([], operands)
            self.values[op.result] = result
        elif isinstance(op, gpu.BlockIdOp):
            self.values[op.result] = self.ids[op.dim]
        elif isinstance(op, gpu.GridDimOp):
            self.values[op.result] = self.grid[op.dim]
        elif isinstance(op, gpu.ThreadIdOp):
            self.values[op.result] = self.tid
        elif isinstance(op, scf.IfOp):
            region = op.true_region if self.value(op.cond) else op.false_region
            if region.blocks:
                self.run(region.block)
        elif isinstance(op, scf.ForOp):
            lb, ub, st = (self.value(v) for v in (op.lb, op.ub, op.step))
            for iv in range(lb, ub, st):
                self.values[op.body.block.args[0]] = iv
                self.run(op.body.block)
        elif isinstance(op, memref.StoreOp):
            name = "log" if len(op.indices) == 2 else "regs"
            index = tuple(self.value(v) for v in op.indices)
            self.stores.append((name, index, self.value(op.value)))
        elif isinstance(op, nvvm.SetMaxRegisterOp):
            self.setmaxregister += 1
        elif isinstance(
            op,
            (
                ng.MBarrierCreateOp,
                ng.MBarrierArriveOp,
                gpu.BarrierOp,
                scf.YieldOp,
                gpu.TerminatorOp,
            ),
        ):
            pass
        else:
            raise AssertionError(f"unexpected op {op.name}")


def _rewritten(gx: int, gy: int, k: int, stages: int, ctas: int, group: int) -> gpu.LaunchOp:
    ctx = get_context()
    text = _PAYLOAD.format(gx=gx, gy=gy, k=k, stages=stages, ctas=ctas, group=group)
    module = parse_module(text, "<test>", ctx=ctx)
    assert isinstance(module, ModuleOp)
    assert apply_schedule(ctx, module, None)
    return next(op for op in module.walk() if isinstance(op, gpu.LaunchOp))


def _grid(launch: gpu.LaunchOp) -> int:
    assert _fold(launch.gridSizeY) == 1 and _fold(launch.gridSizeZ) == 1
    return _fold(launch.gridSizeX)


@settings(max_examples=25, deadline=None)
@given(
    gx=st.integers(1, 6),
    gy=st.integers(1, 7),
    steps=st.integers(1, 6),
    stages=st.integers(2, 4),
    ctas=st.integers(1, 50),
    group=st.sampled_from([1, 2, 3, 8]),
)
def test_every_tile_once_and_the_steps_count_on(
    gx: int, gy: int, steps: int, stages: int, ctas: int, group: int
) -> None:
    launch = _rewritten(gx, gy, 64 * steps, stages, ctas, group)
    blocks = _grid(launch)
    assert blocks == min(gx * gy, ctas)
    tiles = sorted(y * 128 * 1000 + x * 64 for x in range(gx) for y in range(gy))
    for role_tid in (0, 128):  # the producer's thread 0, a consumer's thread
        seen: list[int] = []
        for bx in range(blocks):
            thread = _Thread(launch, bx, blocks, role_tid)
            thread.run(launch.body.block)
            assert thread.setmaxregister == 1
            log = [s for s in thread.stores if s[0] == "log"]
            # This block's ring steps: 0, 1, 2, ... across its tiles, k steps per tile.
            assert [value for _, _, value in log] == list(range(len(log)))
            assert len(log) % steps == 0
            mine: list[int] = []
            for n in range(len(log) // steps):
                run = log[n * steps : (n + 1) * steps]
                assert {index[0] for _, index, _ in run} == {run[0][1][0]}
                assert [index[1] for _, index, _ in run] == [64 * j for j in range(steps)]
                mine.append(run[0][1][0])
            if role_tid:
                # The consumer's store after each tile's k loop, of that tile.
                assert [index[0] for name, index, _ in thread.stores if name == "regs"] == mine
            seen += mine
        assert sorted(seen) == tiles


def test_the_tiles_follow_the_raster_groups() -> None:
    """One block, so the tile loop's order is the raster order: groups of 2 rows of 3 x 5
    tiles walked column by column."""
    launch = _rewritten(3, 5, 64, 2, 1, 2)
    thread = _Thread(launch, 0, 1, 128)
    thread.run(launch.body.block)
    order = [index[0] for name, index, _ in thread.stores if name == "regs"]
    expected = []
    for first in range(0, 5, 2):
        rows = min(5 - first, 2)
        for x in range(3):
            expected += [(first + r) * 128 * 1000 + x * 64 for r in range(rows)]
    assert order == expected
