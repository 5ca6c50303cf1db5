"""One-Shot analysis against upstream's: the in-place decision of every tensor operand
(`test-analysis-only`) must equal `iree-opt --one-shot-bufferize`'s (LLVM/MLIR 24) on a
corpus of tiling, slicing, loop, branch, call and forall patterns."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.pipeline import parse_pass_pipeline, run_passes

IREE_OPT = shutil.which("iree-opt") or str(Path(sys.executable).parent / "iree-opt")
ANALYZE = "one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}"
DECISIONS = re.compile(r"__inplace_operands_attr__ = \[([^\]]*)\]")

CORPUS = [
    """
    #id = affine_map<(i) -> (i)>
    func.func @nested(%A: tensor<64x64xf32>, %C: tensor<64x64xf32>) -> tensor<64x64xf32> {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %r = scf.for %i = %c0 to %c64 step %c16 iter_args(%acc = %C) -> (tensor<64x64xf32>) {
        %r2 = scf.for %j = %c0 to %c64 step %c16 iter_args(%acc2 = %acc) -> (tensor<64x64xf32>) {
          %a = tensor.extract_slice %A[%i, %j] [16, 16] [1, 1] : tensor<64x64xf32> to tensor<16x16xf32>
          %c = tensor.extract_slice %acc2[%i, %j] [16, 16] [1, 1] : tensor<64x64xf32> to tensor<16x16xf32>
          %p = linalg.map { arith.addf } ins(%a, %c : tensor<16x16xf32>, tensor<16x16xf32>) outs(%c : tensor<16x16xf32>)
          %u = tensor.insert_slice %p into %acc2[%i, %j] [16, 16] [1, 1] : tensor<16x16xf32> into tensor<64x64xf32>
          scf.yield %u : tensor<64x64xf32>
        }
        scf.yield %r2 : tensor<64x64xf32>
      }
      return %r : tensor<64x64xf32>
    }
    """,
    """
    func.func @slice_read_after_insert(%t: tensor<10xf32>, %v: f32) -> (tensor<10xf32>, f32) {
      %c0 = arith.constant 0 : index
      %s = tensor.extract_slice %t[2] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %f into %t[2] [4] [1] : tensor<4xf32> into tensor<10xf32>
      %x = tensor.extract %s[%c0] : tensor<4xf32>
      return %u, %x : tensor<10xf32>, f32
    }
    func.func @two_slices(%t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
      %s = tensor.extract_slice %t[0] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %s2 = tensor.extract_slice %t[4] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %s2 into %t[0] [4] [1] : tensor<4xf32> into tensor<10xf32>
      %w = tensor.insert_slice %f into %u[4] [4] [1] : tensor<4xf32> into tensor<10xf32>
      return %w : tensor<10xf32>
    }
    func.func @if_writes(%c: i1, %t: tensor<10xf32>, %v: f32) -> (tensor<10xf32>, tensor<10xf32>) {
      %r = scf.if %c -> (tensor<10xf32>) {
        %f = linalg.fill ins(%v : f32) outs(%t : tensor<10xf32>) -> tensor<10xf32>
        scf.yield %f : tensor<10xf32>
      } else {
        scf.yield %t : tensor<10xf32>
      }
      return %r, %t : tensor<10xf32>, tensor<10xf32>
    }
    func.func @if_writes2(%c: i1, %t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
      %r = scf.if %c -> (tensor<10xf32>) {
        %f = linalg.fill ins(%v : f32) outs(%t : tensor<10xf32>) -> tensor<10xf32>
        scf.yield %f : tensor<10xf32>
      } else {
        %c0 = arith.constant 0 : index
        %g = tensor.insert %v into %t[%c0] : tensor<10xf32>
        scf.yield %g : tensor<10xf32>
      }
      return %r : tensor<10xf32>
    }
    func.func @loop_reads_init(%t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (tensor<10xf32>) {
        %x = tensor.extract %t[%i] : tensor<10xf32>
        %y = arith.addf %x, %v : f32
        %g = tensor.insert %y into %a[%i] : tensor<10xf32>
        scf.yield %g : tensor<10xf32>
      }
      return %r : tensor<10xf32>
    }
    func.func @loop_writes_outside(%t: tensor<10xf32>, %u: tensor<10xf32>, %v: f32) -> (tensor<10xf32>, tensor<10xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (tensor<10xf32>) {
        %x = tensor.extract %u[%i] : tensor<10xf32>
        %w = tensor.insert %v into %u[%i] : tensor<10xf32>
        %z = tensor.extract %w[%c0] : tensor<10xf32>
        %s = arith.addf %x, %z : f32
        %g = tensor.insert %s into %a[%i] : tensor<10xf32>
        scf.yield %g : tensor<10xf32>
      }
      return %r, %u : tensor<10xf32>, tensor<10xf32>
    }
    """,
    """
    func.func @cast_reshape(%t: tensor<4x6xf32>, %v: f32) -> (tensor<24xf32>, tensor<4x6xf32>) {
      %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
      %f = linalg.fill ins(%v : f32) outs(%c : tensor<24xf32>) -> tensor<24xf32>
      return %f, %t : tensor<24xf32>, tensor<4x6xf32>
    }
    func.func @expand_write(%t: tensor<24xf32>, %v: f32) -> tensor<4x6xf32> {
      %e = tensor.expand_shape %t [[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
      return %f : tensor<4x6xf32>
    }
    func.func @dyn_cast(%t: tensor<4x6xf32>, %v: f32) -> tensor<?x6xf32> {
      %e = tensor.cast %t : tensor<4x6xf32> to tensor<?x6xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<?x6xf32>) -> tensor<?x6xf32>
      return %f : tensor<?x6xf32>
    }
    func.func @const_read(%v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
      %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%c : tensor<4xf32>) -> tensor<4xf32>
      return %f, %c : tensor<4xf32>, tensor<4xf32>
    }
    func.func @empty_twice(%v: f32, %w: f32) -> (tensor<4xf32>, tensor<4xf32>) {
      %e = tensor.empty() : tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %g = linalg.fill ins(%w : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      return %f, %g : tensor<4xf32>, tensor<4xf32>
    }
    func.func @pad_gen(%t: tensor<3xf32>, %v: f32, %n: index) -> (tensor<7xf32>, tensor<?xf32>) {
      %p = tensor.pad %t low[2] high[2] {
      ^bb0(%i: index):
        tensor.yield %v : f32
      } : tensor<3xf32> to tensor<7xf32>
      %g = tensor.generate %n {
      ^bb0(%i: index):
        %x = arith.index_cast %i : index to i32
        %y = arith.sitofp %x : i32 to f32
        tensor.yield %y : f32
      } : tensor<?xf32>
      return %p, %g : tensor<7xf32>, tensor<?xf32>
    }
    """,
    """
    func.func @callee(%a: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
      %f = linalg.fill ins(%v : f32) outs(%a : tensor<4xf32>) -> tensor<4xf32>
      return %f : tensor<4xf32>
    }
    func.func @caller(%a: tensor<4xf32>, %v: f32) -> (tensor<4xf32>, tensor<4xf32>) {
      %r = func.call @callee(%a, %v) : (tensor<4xf32>, f32) -> tensor<4xf32>
      return %r, %a : tensor<4xf32>, tensor<4xf32>
    }
    func.func @caller2(%a: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
      %r = func.call @callee(%a, %v) : (tensor<4xf32>, f32) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
    """,
    """
    func.func @forall_reads(%t: tensor<64xf32>, %u: tensor<64xf32>) -> tensor<64xf32> {
      %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<64xf32>) {
        %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
        %s = tensor.extract_slice %o[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
        %x = tensor.extract_slice %u[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
        %a = linalg.map { arith.addf } ins(%s, %x : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<8xf32>)
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %a into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
        }
      }
      return %r : tensor<64xf32>
    }
    func.func @forall_init_read_after(%t: tensor<64xf32>, %v: f32) -> (tensor<64xf32>, tensor<64xf32>) {
      %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<64xf32>) {
        %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
        %s = tensor.extract_slice %o[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
        %a = linalg.fill ins(%v : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %a into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
        }
      }
      return %r, %t : tensor<64xf32>, tensor<64xf32>
    }
    """,
    """
    func.func @two_slices(%t: tensor<10xf32>, %v: f32) -> tensor<10xf32> {
      %s = tensor.extract_slice %t[0] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %s2 = tensor.extract_slice %t[4] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %s2 into %t[0] [4] [1] : tensor<4xf32> into tensor<10xf32>
      %w = tensor.insert_slice %f into %u[4] [4] [1] : tensor<4xf32> into tensor<10xf32>
      return %w : tensor<10xf32>
    }
    """,
    """
    func.func @g(%t: tensor<10xf32>, %v: f32) -> (tensor<10xf32>, f32) {
      %c0 = arith.constant 0 : index
      %s2 = tensor.extract_slice %t[4] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %f into %t[0] [4] [1] : tensor<4xf32> into tensor<10xf32>
      %x = tensor.extract %s2[%c0] : tensor<4xf32>
      return %u, %x : tensor<10xf32>, f32
    }
    """,
    """
    func.func @h(%t: tensor<10xf32>, %v: f32) -> (tensor<10xf32>, f32) {
      %c0 = arith.constant 0 : index
      %s2 = tensor.extract_slice %t[2] [4] [1] : tensor<10xf32> to tensor<4xf32>
      %e = tensor.empty() : tensor<4xf32>
      %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
      %u = tensor.insert_slice %f into %t[0] [4] [1] : tensor<4xf32> into tensor<10xf32>
      %x = tensor.extract %s2[%c0] : tensor<4xf32>
      return %u, %x : tensor<10xf32>, f32
    }
    """,
    """
    func.func @if_in_loop(%t: tensor<16xf32>, %v: f32) -> tensor<16xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c8 = arith.constant 8 : index
      %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
        %p = arith.cmpi slt, %i, %c8 : index
        %n = scf.if %p -> (tensor<16xf32>) {
          %w = tensor.insert %v into %a[%i] : tensor<16xf32>
          scf.yield %w : tensor<16xf32>
        } else {
          scf.yield %a : tensor<16xf32>
        }
        scf.yield %n : tensor<16xf32>
      }
      return %r : tensor<16xf32>
    }
    """,
    """
    func.func @forall_in_for(%t: tensor<4x64xf32>, %v: f32) -> tensor<4x64xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (tensor<4x64xf32>) {
        %row = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<4x64xf32> to tensor<64xf32>
        %f = scf.forall (%j) in (8) shared_outs(%o = %row) -> (tensor<64xf32>) {
          %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
          %s = tensor.extract_slice %o[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
          %g = linalg.fill ins(%v : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
          scf.forall.in_parallel {
            tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
          }
        }
        %u = tensor.insert_slice %f into %a[%i, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
        scf.yield %u : tensor<4x64xf32>
      }
      return %r : tensor<4x64xf32>
    }
    """,
    """
    #id = affine_map<(i, j) -> (i, j)>
    #t = affine_map<(i, j) -> (j, i)>
    func.func @transpose_in_place(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %g = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) {
      ^bb0(%x: f32, %y: f32):
        linalg.yield %x : f32
      } -> tensor<8x8xf32>
      return %g : tensor<8x8xf32>
    }
    """,
    """
    func.func @reduction_reads_out(%a: tensor<8x8xf32>, %o: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x8xf32>) outs(%o : tensor<8xf32>) {
      ^bb0(%x: f32, %y: f32):
        %s = arith.addf %x, %y : f32
        linalg.yield %s : f32
      } -> tensor<8xf32>
      %c = linalg.copy ins(%o : tensor<8xf32>) outs(%r : tensor<8xf32>) -> tensor<8xf32>
      return %r, %c : tensor<8xf32>, tensor<8xf32>
    }
    """,
    """
    func.func @double_tile(%A: tensor<32x32xf32>, %B: tensor<32x32xf32>, %C: tensor<32x32xf32>) -> tensor<32x32xf32> {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %r = scf.forall (%i, %j) in (4, 4) shared_outs(%o = %C) -> (tensor<32x32xf32>) {
        %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
        %oj = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
        %cs = tensor.extract_slice %o[%oi, %oj] [8, 8] [1, 1] : tensor<32x32xf32> to tensor<8x8xf32>
        %acc = scf.for %k = %c0 to %c32 step %c8 iter_args(%t = %cs) -> (tensor<8x8xf32>) {
          %as = tensor.extract_slice %A[%oi, %k] [8, 8] [1, 1] : tensor<32x32xf32> to tensor<8x8xf32>
          %bs = tensor.extract_slice %B[%k, %oj] [8, 8] [1, 1] : tensor<32x32xf32> to tensor<8x8xf32>
          %m = linalg.matmul ins(%as, %bs : tensor<8x8xf32>, tensor<8x8xf32>) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
          scf.yield %m : tensor<8x8xf32>
        }
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %acc into %o[%oi, %oj] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<32x32xf32>
        }
      }
      return %r : tensor<32x32xf32>
    }
    """,
    """
    func.func @fused_fill(%A: tensor<32x16xf32>, %B: tensor<16x32xf32>) -> tensor<32x32xf32> {
      %zero = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<32x32xf32>
      %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<32x32xf32>) {
        %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
        %cs = tensor.extract_slice %o[%oi, 0] [8, 32] [1, 1] : tensor<32x32xf32> to tensor<8x32xf32>
        %z = linalg.fill ins(%zero : f32) outs(%cs : tensor<8x32xf32>) -> tensor<8x32xf32>
        %as = tensor.extract_slice %A[%oi, 0] [8, 16] [1, 1] : tensor<32x16xf32> to tensor<8x16xf32>
        %m = linalg.matmul ins(%as, %B : tensor<8x16xf32>, tensor<16x32xf32>) outs(%z : tensor<8x32xf32>) -> tensor<8x32xf32>
        scf.forall.in_parallel {
          tensor.parallel_insert_slice %m into %o[%oi, 0] [8, 32] [1, 1] : tensor<8x32xf32> into tensor<32x32xf32>
        }
      }
      return %r : tensor<32x32xf32>
    }
    """,
    """
    func.func @vec(%a: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<8x8xf32>, vector<4x8xf32>
      %w = vector.transfer_read %c[%c4, %c0], %pad {in_bounds = [true, true]} : tensor<8x8xf32>, vector<4x8xf32>
      %s = arith.addf %v, %w : vector<4x8xf32>
      %r = vector.transfer_write %s, %c[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<8x8xf32>
      %r2 = vector.transfer_write %v, %r[%c4, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<8x8xf32>
      return %r2 : tensor<8x8xf32>
    }
    """,
    """
    func.func @vec_conflict(%c: tensor<8xf32> {bufferization.writable = false}, %x: vector<8xf32>) -> (tensor<8xf32>, vector<8xf32>) {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %r = vector.transfer_write %x, %c[%c0] {in_bounds = [true]} : vector<8xf32>, tensor<8xf32>
      %v = vector.transfer_read %c[%c0], %pad {in_bounds = [true]} : tensor<8xf32>, vector<8xf32>
      return %r, %v : tensor<8xf32>, vector<8xf32>
    }
    """,
]
"""Payloads whose every decision matches upstream's. Not here: functions returning a
view of an argument (upstream forces such slices out of place; schedir copies returned
views anyway) and loops yielding non-equivalent tensors (upstream rejects them; schedir
copies into the iteration buffer)."""


def _decisions(tool: list[str], text: str) -> list[str]:
    result = subprocess.run(tool, input=text, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return DECISIONS.findall(result.stdout)


@pytest.mark.parametrize("payload", CORPUS, ids=lambda t: re.findall(r"func.func @(\w+)", t)[0])
def test_in_place_decisions_match_upstream(payload: str) -> None:
    upstream = _decisions(
        [
            IREE_OPT,
            "--one-shot-bufferize=bufferize-function-boundaries=true test-analysis-only=true",
        ],
        payload,
    )
    ctx = get_context()
    module = parse_module(payload, ctx=ctx)
    run_passes(ctx, module, parse_pass_pipeline(ANALYZE))
    ours = DECISIONS.findall(print_op(module))
    assert upstream, "the oracle made no decision"
    assert ours == upstream
