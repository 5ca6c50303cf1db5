"""One-Shot Bufferize: in-place decisions checked structurally, deallocation checked on
every alloc, and whole payloads executed with memory checks against the numpy reference."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from test_bufferization_runtime import compile_to_loops
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from schedir.diagnostics import UnsupportedError
from schedir.dialects import get_context
from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import parse_pass_pipeline, run_passes

BOUNDARIES = "one-shot-bufferize{bufferize-function-boundaries=true}"


def bufferize(text: str, pipeline: str = BOUNDARIES) -> ModuleOp:
    ctx = get_context()
    module = parse_module(text, ctx=ctx)
    run_passes(ctx, module, parse_pass_pipeline(pipeline))
    check_deallocs(module)
    return module


def ops(module: ModuleOp, kind: type[Operation]) -> list[Operation]:
    return [op for op in module.walk() if isinstance(op, kind)]


def copies(module: ModuleOp) -> list[memref.CopyOp]:
    return [op for op in module.walk() if isinstance(op, memref.CopyOp)]


def allocs(module: ModuleOp) -> list[memref.AllocOp]:
    return [op for op in module.walk() if isinstance(op, memref.AllocOp)]


def _aliases(value: SSAValue) -> Iterator[tuple[SSAValue, Operation]]:
    """(value, user) for every use of `value` and of the views and scf.if merges of it."""
    work, seen = [value], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            user = use.operation
            yield v, user
            if isinstance(
                user,
                memref.SubviewOp | memref.CastOp | memref.CollapseShapeOp | memref.ExpandShapeOp,
            ):
                work.append(user.results[0])
            elif isinstance(user, scf.YieldOp) and isinstance(user.parent_op(), scf.IfOp):
                work.append(user.parent_op().results[use.index])  # type: ignore[union-attr]


def check_deallocs(module: ModuleOp) -> None:
    """Every allocation is freed exactly once, in its own block, after every use of it and
    of its views; or it is returned / handed to an scf.if result that is freed instead.
    Structured control flow makes this hold on every path."""
    for alloc in allocs(module):
        buffer = alloc.memref
        block = alloc.parent_block()
        assert block is not None
        deallocs = [
            u for v, u in _aliases(buffer) if isinstance(u, memref.DeallocOp) and v is buffer
        ]
        escapes = any(
            isinstance(u, func.ReturnOp)
            or (isinstance(u, scf.YieldOp) and isinstance(u.parent_op(), scf.IfOp) and v is buffer)
            for v, u in _aliases(buffer)
        )
        if escapes:
            assert not deallocs, f"escaping buffer freed:\n{print_op(module)}"
            continue
        assert len(deallocs) == 1, f"{len(deallocs)} deallocs of {buffer}:\n{print_op(module)}"
        dealloc = deallocs[0]
        assert dealloc.parent_block() is block
        positions = {op: i for i, op in enumerate(block.ops)}
        for _, user in _aliases(buffer):
            if user is dealloc:
                continue
            anchor = block.find_ancestor_op_in_block(user)
            assert anchor is not None and positions[anchor] < positions[dealloc], (
                f"use after free of {buffer}:\n{print_op(module)}"
            )
    for if_op in ops(module, scf.IfOp):
        for result in if_op.results:
            yielded = [r.block.last_op.operands[result.index] for r in if_op.regions if r.blocks]  # type: ignore[union-attr]
            owned = all(
                isinstance(y.owner, memref.AllocOp) and y.owner.parent_op() is if_op
                for y in yielded
            )
            frees = [
                u for v, u in _aliases(result) if isinstance(u, memref.DeallocOp) and v is result
            ]
            returned = any(isinstance(u, func.ReturnOp) for _, u in _aliases(result))
            if owned and not returned:
                assert len(frees) == 1, print_op(module)
            if not owned:
                assert not frees, print_op(module)


# ---------------------------------------------------------------------------------------
# in place where it must be


MATMUL_FILL_EMPTY = """
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
"""


def test_matmul_into_fill_into_empty_has_one_alloc_and_no_copy() -> None:
    module = bufferize(MATMUL_FILL_EMPTY)
    (alloc,) = allocs(module)
    assert not copies(module)
    structured = [op for op in module.walk() if is_structured(op)]
    assert [op.name for op in structured] == ["linalg.fill", "linalg.matmul"]
    assert all(op.operands[-1] is alloc.memref for op in structured)
    (ret,) = ops(module, func.ReturnOp)
    assert ret.operands[0] is alloc.memref


def test_hoisted_result_computes_into_the_out_param() -> None:
    module = bufferize(
        MATMUL_FILL_EMPTY, BOUNDARIES + ",buffer-results-to-out-params{hoist-static-allocs=true}"
    )
    assert not allocs(module) and not copies(module)
    fn = ops(module, func.FuncOp)[0]
    out = fn.body.block.args[-1]  # type: ignore[attr-defined]
    assert out.name_hint == "out0"
    assert all(op.operands[-1] is out for op in module.walk() if is_structured(op))


TILED = """
func.func @tiled(%A: tensor<50x23xf32>, %B: tensor<23x31xf32>, %C: tensor<50x31xf32> WRITABLE)
    -> tensor<50x31xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c50 = arith.constant 50 : index
  %r = scf.for %i = %c0 to %c50 step %c16 iter_args(%acc = %C) -> (tensor<50x31xf32>) {
    %n = affine.min affine_map<(i) -> (16, 50 - i)>(%i)
    %a = tensor.extract_slice %A[%i, 0] [%n, 23] [1, 1] : tensor<50x23xf32> to tensor<?x23xf32>
    %c = tensor.extract_slice %acc[%i, 0] [%n, 31] [1, 1] : tensor<50x31xf32> to tensor<?x31xf32>
    %p = linalg.matmul ins(%a, %B : tensor<?x23xf32>, tensor<23x31xf32>)
                       outs(%c : tensor<?x31xf32>) -> tensor<?x31xf32>
    %u = tensor.insert_slice %p into %acc[%i, 0] [%n, 31] [1, 1] : tensor<?x31xf32> into tensor<50x31xf32>
    scf.yield %u : tensor<50x31xf32>
  }
  return %r : tensor<50x31xf32>
}
"""


def test_tiled_loop_with_slices_is_in_place() -> None:
    module = bufferize(TILED.replace("WRITABLE", ""))
    (loop,) = ops(module, scf.ForOp)
    inside = [op for op in loop.walk() if isinstance(op, memref.CopyOp | memref.AllocOp)]
    assert not inside, print_op(module)
    assert not loop.results  # the loop updates %C's buffer in place, carries nothing
    (matmul,) = [op for op in module.walk() if is_structured(op)]
    view = matmul.operands[-1].owner
    assert isinstance(view, memref.SubviewOp)
    assert view.source is ops(module, func.FuncOp)[0].body.block.args[2]  # type: ignore[attr-defined]


def test_tiled_loop_on_read_only_init_copies_once_before_the_loop() -> None:
    module = bufferize(TILED.replace("WRITABLE", "{bufferization.writable = false}"))
    (copy,) = copies(module)
    (loop,) = ops(module, scf.ForOp)
    assert copy.parent_block() is loop.parent_block()
    assert not [op for op in loop.walk() if isinstance(op, memref.CopyOp | memref.AllocOp)]


FORALL = """
func.func @f(%t: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %cst = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %e) -> (tensor<64x32xf32>) {
    %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %x = tensor.extract_slice %t[%off, 0] [8, 32] [1, 1] : tensor<64x32xf32> to tensor<8x32xf32>
    %s = tensor.extract_slice %o[%off, 0] [8, 32] [1, 1] : tensor<64x32xf32> to tensor<8x32xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<8x32xf32>) outs(%s : tensor<8x32xf32>) {
    ^bb0(%v: f32, %w: f32):
      %m = arith.mulf %v, %cst : f32
      linalg.yield %m : f32
    } -> tensor<8x32xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[%off, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<64x32xf32>
    }
  }
  return %r : tensor<64x32xf32>
}
"""


def test_forall_with_parallel_insert_slice_is_in_place() -> None:
    module = bufferize(FORALL)
    assert len(allocs(module)) == 1  # the tensor.empty
    assert not copies(module), print_op(module)
    from schedir.dialects.scf import ForallOp

    (forall,) = ops(module, ForallOp)
    assert not forall.results
    assert len([op for op in forall.walk() if isinstance(op, memref.SubviewOp)]) == 2


def test_forall_writing_a_tensor_from_outside_privatizes_it() -> None:
    text = """
    func.func @f(%t: tensor<8xf32>) -> tensor<8xf32> {
      %cst = arith.constant 2.0 : f32
      %e = tensor.empty() : tensor<8xf32>
      %r = scf.forall (%i) in (8) shared_outs(%o = %e) -> (tensor<8xf32>) {
        %f = linalg.fill ins(%cst : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
        %v = tensor.extract %f[%i] : tensor<8xf32>
        %s = tensor.from_elements %v : tensor<1xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
        }
      }
      return %r : tensor<8xf32>
    }"""
    module = bufferize(text)
    from schedir.dialects.scf import ForallOp

    (forall,) = ops(module, ForallOp)
    (fill,) = [op for op in forall.walk() if is_structured(op)]
    # Each iteration fills its own buffer, never the shared argument %t.
    assert isinstance(fill.operands[-1].owner, memref.AllocOp)
    assert fill.operands[-1].owner.parent_op() is forall


def test_elementwise_chain_reuses_one_buffer() -> None:
    text = """
    #id = affine_map<(i, j) -> (i, j)>
    func.func @f(%a: tensor<61x47xf32>, %b: tensor<47x35xf32>, %bias: tensor<35xf32>) -> tensor<61x35xf32> {
      %zero = arith.constant 0.0 : f32
      %init = tensor.empty() : tensor<61x35xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<61x35xf32>) -> tensor<61x35xf32>
      %mm = linalg.matmul ins(%a, %b : tensor<61x47xf32>, tensor<47x35xf32>) outs(%acc : tensor<61x35xf32>) -> tensor<61x35xf32>
      %out = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel"]}
          ins(%mm, %bias : tensor<61x35xf32>, tensor<35xf32>) outs(%init : tensor<61x35xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %s = arith.addf %x, %y : f32
        %r = arith.maximumf %s, %zero : f32
        linalg.yield %r : f32
      } -> tensor<61x35xf32>
      return %out : tensor<61x35xf32>
    }"""
    module = bufferize(text)
    assert len(allocs(module)) == 1 and not copies(module), print_op(module)


# ---------------------------------------------------------------------------------------
# copies where they must be


def test_dps_into_read_only_argument_copies() -> None:
    text = """
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32> {bufferization.writable = false}) -> tensor<4x5xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
      return %r : tensor<4x5xf32>
    }"""
    module = bufferize(text)
    (copy,) = copies(module)
    arg_c = ops(module, func.FuncOp)[0].body.block.args[2]  # type: ignore[attr-defined]
    assert copy.source is arg_c
    (matmul,) = [op for op in module.walk() if is_structured(op)]
    assert matmul.operands[-1] is copy.destination


def test_tensor_read_after_overwrite_gets_a_new_buffer() -> None:
    text = """
    func.func @f(%t: tensor<8xf32>, %i: index) -> (tensor<8xf32>, f32) {
      %cst = arith.constant 1.0 : f32
      %f = linalg.fill ins(%cst : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
      %x = tensor.extract %t[%i] : tensor<8xf32>
      return %f, %x : tensor<8xf32>, f32
    }"""
    module = bufferize(text)
    (fill,) = [op for op in module.walk() if is_structured(op)]
    assert isinstance(fill.operands[-1].owner, memref.AllocOp)
    # The fill overwrites everything: its private buffer needs no copy of %t.
    assert not copies(module)
    (load,) = ops(module, memref.LoadOp)
    assert load.operands[0] is ops(module, func.FuncOp)[0].body.block.args[0]  # type: ignore[attr-defined]


def test_read_after_write_that_reads_copies_the_old_contents() -> None:
    text = """
    #id = affine_map<(i) -> (i)>
    func.func @f(%t: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
      %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<8xf32>) {
      ^bb0(%o: f32):
        %d = arith.addf %o, %o : f32
        linalg.yield %d : f32
      } -> tensor<8xf32>
      return %g, %t : tensor<8xf32>, tensor<8xf32>
    }"""
    module = bufferize(text)
    (generic,) = [op for op in module.walk() if is_structured(op)]
    target = generic.operands[-1]
    assert isinstance(target.owner, memref.AllocOp)
    assert any(c.destination is target for c in copies(module))


def test_write_to_constant_goes_to_a_copy() -> None:
    text = """
    func.func @f() -> tensor<4xf32> {
      %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
      %x = arith.constant 7.0 : f32
      %i = arith.constant 1 : index
      %r = tensor.insert %x into %c[%i] : tensor<4xf32>
      return %r : tensor<4xf32>
    }"""
    module = bufferize(text)
    (glob,) = ops(module, memref.GlobalOp)
    assert glob.constant is not None and glob.sym_name.data == "__constant_4xf32"
    (store,) = ops(module, memref.StoreOp)
    assert isinstance(store.memref.owner, memref.AllocOp)
    (copy,) = copies(module)
    assert isinstance(copy.source.owner, memref.GetGlobalOp)


def test_scf_if_yielding_different_tensors() -> None:
    text = """
    func.func @f(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, f32) {
      %cst = arith.constant 1.0 : f32
      %r = scf.if %c -> (tensor<4xf32>) {
        scf.yield %a : tensor<4xf32>
      } else {
        %e = tensor.empty() : tensor<4xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
        scf.yield %f : tensor<4xf32>
      }
      %i = arith.constant 0 : index
      %v = tensor.extract %r[%i] : tensor<4xf32>
      %w = tensor.extract %a[%i] : tensor<4xf32>
      %s = arith.addf %v, %w : f32
      return %b, %s : tensor<4xf32>, f32
    }"""
    module = bufferize(text)
    (if_op,) = ops(module, scf.IfOp)
    # The else branch allocates, so each branch hands over a buffer it allocated and the
    # result is freed once after its last use.
    then_yield = if_op.true_region.block.last_op
    assert isinstance(then_yield.operands[0].owner, memref.AllocOp)  # type: ignore[union-attr]
    frees = [
        u.operation for u in if_op.results[0].uses if isinstance(u.operation, memref.DeallocOp)
    ]
    assert len(frees) == 1


def test_scf_if_merging_outside_buffers_needs_no_result_copy() -> None:
    text = """
    func.func @f(%c: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> f32 {
      %r = scf.if %c -> (tensor<4xf32>) {
        scf.yield %a : tensor<4xf32>
      } else {
        scf.yield %b : tensor<4xf32>
      }
      %i = arith.constant 0 : index
      %v = tensor.extract %r[%i] : tensor<4xf32>
      return %v : f32
    }"""
    module = bufferize(text)
    assert not allocs(module) and not copies(module)
    (if_op,) = ops(module, scf.IfOp)
    assert len(if_op.results) == 1


def test_loop_yielding_a_new_tensor_copies_into_the_iteration_buffer() -> None:
    text = """
    #id = affine_map<(i) -> (i)>
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
        %e = tensor.empty() : tensor<4xf32>
        %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
            ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
        ^bb0(%x: f32, %y: f32):
          %z = arith.addf %x, %x : f32
          linalg.yield %z : f32
        } -> tensor<4xf32>
        scf.yield %g : tensor<4xf32>
      }
      return %r : tensor<4xf32>
    }"""
    module = bufferize(text)
    (loop,) = ops(module, scf.ForOp)
    (alloc,) = [op for op in loop.walk() if isinstance(op, memref.AllocOp)]
    (copy,) = [op for op in loop.walk() if isinstance(op, memref.CopyOp)]
    assert copy.source is alloc.memref
    assert not loop.results  # nothing allocated escapes the loop


def test_unknown_op_is_rejected_by_name() -> None:
    text = """
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %r = tensor.reshape %a(%s) : (tensor<4xf32>, tensor<1xindex>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }""".replace("%s", "%shape")
    text = text.replace(
        "func.func @f(%a: tensor<4xf32>)",
        "func.func @f(%a: tensor<4xf32>, %shape: tensor<1xindex>)",
    )
    with pytest.raises(UnsupportedError, match=r"'tensor\.reshape'"):
        bufferize(text)


def _chain(n: int) -> str:
    """n elementwise ops, each in place on the previous result: one alias set of 2n values."""
    lines = [
        "#id = affine_map<(i) -> (i)>",
        "func.func @f(%t0: tensor<16xf32>) -> tensor<16xf32> {",
    ]
    for k in range(n):
        lines += [
            f"  %t{k + 1} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = "
            f'["parallel"]}} ins(%t{k} : tensor<16xf32>) outs(%t{k} : tensor<16xf32>) {{',
            "  ^bb0(%x: f32, %y: f32):",
            "    %z = arith.addf %x, %y : f32",
            "    linalg.yield %z : f32",
            "  } -> tensor<16xf32>",
        ]
    return "\n".join([*lines, f"  return %t{n} : tensor<16xf32>", "}"])


def _tiles(n: int) -> str:
    """n tiles of one accumulator, each extracted, computed in place and inserted back."""
    lines = [
        f"func.func @f(%A: tensor<{4 * n}x16xf32>) -> tensor<{4 * n}x16xf32> {{",
        f"  %acc0 = tensor.empty() : tensor<{4 * n}x16xf32>",
    ]
    t = f"tensor<{4 * n}x16xf32>"
    for k in range(n):
        lines += [
            f"  %s{k} = tensor.extract_slice %A[{4 * k}, 0] [4, 16] [1, 1] : {t} to tensor<4x16xf32>",
            f"  %d{k} = tensor.extract_slice %acc{k}[{4 * k}, 0] [4, 16] [1, 1] : {t} to tensor<4x16xf32>",
            f"  %m{k} = linalg.map {{ arith.addf }} ins(%s{k}, %s{k} : tensor<4x16xf32>, "
            f"tensor<4x16xf32>) outs(%d{k} : tensor<4x16xf32>)",
            f"  %acc{k + 1} = tensor.insert_slice %m{k} into %acc{k}[{4 * k}, 0] [4, 16] [1, 1] : "
            f"tensor<4x16xf32> into {t}",
        ]
    return "\n".join([*lines, f"  return %acc{n} : {t}", "}"])


@pytest.mark.parametrize(("make", "n"), [(_chain, 800), (_tiles, 400)], ids=["chain", "tiles"])
def test_large_alias_sets_stay_fast(make: object, n: int) -> None:
    """The analysis indexes each alias set's reads and writes by block position, so long
    straight-line chains in one set cost about linear time (seconds, not minutes)."""
    ctx = get_context()
    module = parse_module(make(n), ctx=ctx, verify=False)  # type: ignore[operator]
    (one_shot,) = parse_pass_pipeline(BOUNDARIES)
    start = time.perf_counter()
    one_shot.apply(ctx, module)
    elapsed = time.perf_counter() - start
    # In place throughout; the chain's result is its argument, copied once to be returned.
    assert len(copies(module)) <= 1 and len(allocs(module)) == 1, print_op(module)
    assert elapsed < 15, f"one-shot-bufferize took {elapsed:.1f}s"


def test_compiled_module_has_only_loop_level_ops() -> None:
    module = compile_to_loops(TILED.replace("WRITABLE", ""))
    allowed = (
        "func.",
        "memref.",
        "scf.for",
        "scf.if",
        "scf.yield",
        "affine.",
        "arith.",
        "math.",
        "builtin.module",
    )
    assert all(op.name.startswith(allowed) for op in module.walk()), print_op(module)


def test_one_function_without_boundaries_can_be_bufferized_alone() -> None:
    """What `transform.bufferization.one_shot_bufferize` on a func.func handle does."""
    from schedir.lowering.one_shot_bufferize import OneShotBufferize

    module = parse_module(
        """
        func.func @a(%v: f32) -> tensor<4xf32> {
          %unused = arith.constant dense<1.0> : tensor<4xf32>
          %e = tensor.empty() : tensor<4xf32>
          %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
          return %f : tensor<4xf32>
        }
        func.func @b(%t: tensor<4xf32>) -> tensor<4xf32> {
          return %t : tensor<4xf32>
        }"""
    )
    first, second = ops(module, func.FuncOp)
    OneShotBufferize().bufferize(first)
    names = [op.name for op in first.body.block.ops]
    assert names == ["memref.alloc", "linalg.fill", "bufferization.to_tensor", "func.return"]
    assert not ops(module, memref.GlobalOp)  # the unused constant left no global behind
    assert "tensor.empty" not in print_op(first) and "tensor<4xf32>" in print_op(second)
    with pytest.raises(UnsupportedError, match="needs a module"):
        OneShotBufferize(bufferize_function_boundaries=True).bufferize(second)
