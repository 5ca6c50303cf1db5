"""transform.schedir.nvgpu.raster_blocks on generated grids: the block ids the rewritten
launch computes (its emitted index arithmetic, evaluated for every block) are a
permutation of the grid, in groups of `group` rows walked column by column, whatever the
grid and the group (full, partial or larger than the grid)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Operation, SSAValue

from schedir.dialects import get_context, gpu
from schedir.dialects.syntax import parse_module
from schedir.pipeline import apply_schedule

_SCHEDULE = """
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %l = transform.structured.match ops{{["gpu.launch"]}} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.param.constant {group} : i64 -> !transform.param<i64>
    transform.schedir.nvgpu.raster_blocks %l group = %g : (!transform.any_op, !transform.param<i64>) -> ()
    transform.yield
  }}
  func.func @k(%out: memref<?xindex>) {{
    %c1 = arith.constant 1 : index
    %gx = arith.constant {gx} : index
    %gy = arith.constant {gy} : index
    gpu.launch blocks(%bx, %by, %bz) in (%sgx = %gx, %sgy = %gy, %sgz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {{
      %y = gpu.block_id y
      memref.store %bx, %out[%y] : memref<?xindex>
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


def _order(gx: int, gy: int, group: int) -> list[tuple[int, int]]:
    """(x', y') of each block in launch order (x fastest), from the rewritten IR."""
    ctx = get_context()
    module = parse_module(_SCHEDULE.format(gx=gx, gy=gy, group=group), "<test>", ctx=ctx)
    assert apply_schedule(ctx, module, None)
    launch = next(op for op in module.walk() if isinstance(op, gpu.LaunchOp))
    store = next(op for op in launch.walk() if isinstance(op, memref.StoreOp))
    new_x, new_y = store.operands[0], store.operands[2]
    result: list[tuple[int, int]] = []
    for y in range(gy):
        for x in range(gx):
            values: dict[SSAValue, int] = {}
            for op in launch.body.block.ops:
                if isinstance(op, gpu.BlockIdOp):
                    values[op.result] = {"x": x, "y": y}[op.dim]
                elif isinstance(op, gpu.GridDimOp):
                    values[op.result] = {"x": gx, "y": gy}[op.dim]
                elif isinstance(op, arith.ConstantOp):
                    assert isinstance(op.value, IntegerAttr)
                    values[op.result] = op.value.value.data
                elif type(op) in _BINARY:
                    a, b = (values[v] for v in op.operands)
                    values[op.results[0]] = _BINARY[type(op)](a, b)
                else:
                    break
            result.append((values[new_x], values[new_y]))
    return result


@settings(max_examples=40)
@given(
    gx=st.integers(1, 9),
    gy=st.integers(1, 13),
    group=st.one_of(st.integers(1, 16), st.just(65536)),
)
def test_the_new_order_is_a_permutation_in_groups(gx: int, gy: int, group: int) -> None:
    order = _order(gx, gy, group)
    assert sorted(order) == [(x, y) for x in range(gx) for y in range(gy)]
    # Launch order walks each group of rows column by column.
    for index, (x, y) in enumerate(order):
        first = index // (group * gx) * group
        rows = min(gy - first, group)
        assert first <= y < first + rows
        within = index - first * gx
        assert (x, y) == (within // rows, first + within % rows)


def test_a_group_of_one_row_is_the_launch_order() -> None:
    assert _order(4, 3, 1) == [(x, y) for y in range(3) for x in range(4)]
