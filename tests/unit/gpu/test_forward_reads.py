"""`transform.schedir.gpu.forward_reads` over the family of reads and clobbers: every read
op class (`memref.load`, `vector.load`, `vector.transfer_read`) against every kind of op
elsewhere in the kernel (nothing, a barrier, an all-reduce, a store to the same memref or
through a view of it, to a `llvm.noalias` argument, to an allocation, to an argument that
may alias, a call of unknown effects) and every placement of the second read (after the
first, in a branch after it, before it in a branch): forwarded exactly when no op may
write the memory and the first read dominates the second."""

from __future__ import annotations

import itertools

import pytest
from xdsl.dialects import func, memref, vector
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.transform.rewrites.gpu.forward_reads import forward_reads

READS = {
    "memref.load": "memref.load %x[%i, %j] : memref<64x256xf32>",
    "vector.load": "vector.load %x[%i, %j] : memref<64x256xf32>, vector<4xf32>",
    "vector.transfer_read": (
        "vector.transfer_read %x[%i, %j], %pad {in_bounds = [true]} "
        ": memref<64x256xf32>, vector<4xf32>"
    ),
}

CLOBBERS = {
    # name: (op text, whether it may write x)
    "nothing": ("", False),
    "barrier": ("gpu.barrier", False),
    "all_reduce": ("%r = gpu.all_reduce add %f uniform {} : (f32) -> f32", False),
    "store_x": ("memref.store %f, %x[%j, %i] : memref<64x256xf32>", True),
    "store_view_of_x": (
        "%v = memref.subview %x[1, 0] [1, 256] [1, 1] : memref<64x256xf32> to "
        "memref<256xf32, strided<[1], offset: 256>>\n"
        "      memref.store %f, %v[%j] : memref<256xf32, strided<[1], offset: 256>>",
        True,
    ),
    "store_noalias_arg": ("memref.store %f, %y[%j] : memref<256xf32>", False),
    "store_alloc": (
        "%a = memref.alloc() : memref<256xf32>\n      memref.store %f, %a[%j] : memref<256xf32>",
        False,
    ),
    "store_aliasing_arg": ("memref.store %f, %z[%j] : memref<256xf32>", True),
    "call": ("func.call @opaque(%y) : (memref<256xf32>) -> ()", True),
}

PLACEMENTS = {
    # name: (template of the two reads around the clobber, whether the first dominates,
    # whether the clobber's writes are settled before the first read: done before a
    # barrier of the kernel body that precedes it)
    "after": ("%first = {read}\n      {clobber}\n      %second = {read}", True, False),
    "in_branch_after": (
        "%first = {read}\n      {clobber}\n      scf.if %c {{\n        %second = {read}\n      }}",
        True,
        False,
    ),
    "branch_before": (
        "scf.if %c {{\n        %first = {read}\n      }}\n      {clobber}\n      %second = {read}",
        False,
        False,
    ),
    "before_no_barrier": ("{clobber}\n      %first = {read}\n      %second = {read}", True, False),
    "before_barrier": (
        "{clobber}\n      gpu.barrier\n      %first = {read}\n      %second = {read}",
        True,
        True,
    ),
    "in_branch_before_barrier": (
        "scf.if %c {{\n      {clobber}\n      }}\n      gpu.barrier\n"
        "      %first = {read}\n      gpu.barrier\n      %second = {read}",
        True,
        True,
    ),
    "before_barrier_and_between": (
        "{clobber}\n      gpu.barrier\n      %first = {read}\n      {clobber2}\n"
        "      %second = {read}",
        True,
        False,
    ),
}


def _kernel(read: str, clobber: str, placement: str) -> str:
    clobber_text = CLOBBERS[clobber][0]
    # a second copy of the clobber defines other values
    again = clobber_text.replace("%v", "%v2").replace("%a", "%a2").replace("%r ", "%r2 ")
    body = PLACEMENTS[placement][0].format(read=READS[read], clobber=clobber_text, clobber2=again)
    return f"""
func.func private @opaque(memref<256xf32>)
func.func @k(%x: memref<64x256xf32> {{llvm.noalias}}, %y: memref<256xf32> {{llvm.noalias}},
             %z: memref<256xf32>, %i: index, %j: index, %c: i1, %f: f32) {{
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pad = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {{
      {body}
      gpu.terminator
  }}
  return
}}
"""


def _function(module: ModuleOp) -> func.FuncOp:
    """The kernel's host function (the transform's target, as in the schedules)."""
    return next(op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks)


def _reads(op: Operation) -> int:
    kinds = (memref.LoadOp, vector.LoadOp, vector.TransferReadOp)
    return sum(isinstance(inner, kinds) for inner in op.walk())


@pytest.mark.parametrize(
    ("read", "clobber", "placement"),
    list(itertools.product(READS, CLOBBERS, PLACEMENTS)),
    ids=["-".join(case) for case in itertools.product(READS, CLOBBERS, PLACEMENTS)],
)
def test_forwarded_exactly_when_settled_and_dominated(
    read: str, clobber: str, placement: str
) -> None:
    module = parse_module(_kernel(read, clobber, placement), "k.mlir", ctx=get_context())
    before = _reads(module)
    replaced = forward_reads(_function(module))
    _, dominates, settled = PLACEMENTS[placement]
    writes = CLOBBERS[clobber][1]
    # a call's effects are unknown: it may write anything, anywhere
    expected = dominates and (not writes or (settled and clobber != "call"))
    assert replaced == int(expected)
    assert _reads(module) == before - replaced
    module.verify()


def test_reads_in_two_kernels_stay() -> None:
    kernel = _kernel("memref.load", "nothing", "after")
    launch_start = kernel.index("  gpu.launch")
    launch_end = kernel.index("  return")
    launch = kernel[launch_start:launch_end]
    text = kernel[:launch_end] + launch + kernel[launch_end:]
    module = parse_module(text, "k.mlir", ctx=get_context())
    # one forwarding per kernel, none across them
    assert forward_reads(_function(module)) == 2
    assert _reads(module) == 2


def test_a_module_target_forwards_too() -> None:
    """Functions and declarations are definitions: their bodies' effects count, not they."""
    module = parse_module(_kernel("vector.load", "barrier", "after"), "k.mlir", ctx=get_context())
    assert forward_reads(module) == 1
