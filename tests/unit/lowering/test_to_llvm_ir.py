"""`translate_module`: LLVM-dialect modules to LLVM IR text that LLVM itself accepts."""

from __future__ import annotations

import llvmlite.binding as llvm
import ml_dtypes
import numpy as np
import pytest

from schedir.abi import ScalarSpec
from schedir.cpu import CpuFunction, JitModule
from schedir.diagnostics import LoweringError, UnsupportedError
from schedir.dialects.syntax import parse_module
from schedir.lowering.to_llvm_ir import translate_module


def _verified(text: str) -> str:
    ir = translate_module(parse_module(text))
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = llvm.parse_assembly(ir)
    module.verify()
    return ir


def test_blocks_out_of_dominance_order_and_unreachable_blocks() -> None:
    # ^bb2 uses a value of ^bb1 but comes first in the region; ^dead is unreachable.
    ir = _verified(
        """
        llvm.func @f(%n: i64) -> i64 {
          %z = llvm.mlir.constant(0 : i64) : i64
          llvm.br ^bb1(%z : i64)
        ^bb2:
          %next = llvm.add %i, %one : i64
          llvm.br ^bb1(%next : i64)
        ^dead:
          %x = llvm.add %n, %n : i64
          llvm.return %x : i64
        ^bb1(%i: i64):
          %one = llvm.mlir.constant(1 : i64) : i64
          %more = llvm.icmp "slt" %i, %n : i64
          llvm.cond_br %more, ^bb2, ^exit
        ^exit:
          llvm.return %i : i64
        }
        """
    )
    assert ir.count("add i64") == 1


def test_duplicate_edges_with_different_values_get_their_own_block() -> None:
    ir = _verified(
        """
        llvm.func @_mlir_ciface_pick(%c: i1, %a: i32, %b: i32) -> i32 {
          llvm.cond_br %c, ^join(%a : i32), ^join(%b : i32)
        ^join(%x: i32):
          llvm.return %x : i32
        }
        """
    )
    f = CpuFunction(
        JitModule(ir),
        "pick",
        [ScalarSpec(np.bool_), ScalarSpec(np.int32), ScalarSpec(np.int32)],
        [ScalarSpec(np.int32)],
    )
    assert f(True, 3, 4) == [3] and f(False, 3, 4) == [4]


def test_switch_with_the_same_destination_twice() -> None:
    ir = _verified(
        """
        llvm.func @_mlir_ciface_sw(%v: i32, %a: f32, %b: f32) -> f32 {
          llvm.switch %v : i32, ^d(%a : f32) [
            1: ^d(%b : f32),
            2: ^d(%a : f32),
            7: ^e
          ]
        ^d(%x: f32):
          llvm.return %x : f32
        ^e:
          %m = llvm.fneg %a : f32
          llvm.return %m : f32
        }
        """
    )
    f = CpuFunction(
        JitModule(ir),
        "sw",
        [ScalarSpec(np.int32), ScalarSpec(np.float32), ScalarSpec(np.float32)],
        [ScalarSpec(np.float32)],
    )
    assert [f(v, 1.0, 2.0)[0] for v in (0, 1, 2, 7)] == [1.0, 2.0, 1.0, -1.0]


def test_bf16_and_half_constants_and_globals() -> None:
    ir = _verified(
        """
        llvm.mlir.global internal constant @table(dense<[1.5, -2.0, 0.333]> : tensor<3xbf16>) {addr_space = 0 : i32} : !llvm.array<3 x bf16>
        llvm.func @_mlir_ciface_get(%i: i64) -> bf16 {
          %p = llvm.mlir.addressof @table : !llvm.ptr
          %q = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x bf16>
          %v = llvm.load %q : !llvm.ptr -> bf16
          %h = llvm.mlir.constant(0.1 : f16) : f16
          %e = llvm.fpext %h : f16 to f32
          %w = llvm.fpext %v : bf16 to f32
          %s = llvm.fadd %e, %w : f32
          %r = llvm.fptrunc %s : f32 to bf16
          llvm.return %r : bf16
        }
        """
    )
    f = CpuFunction(JitModule(ir), "get", [ScalarSpec(np.int64)], [ScalarSpec(ml_dtypes.bfloat16)])
    for i, value in enumerate([1.5, -2.0, 0.333]):
        stored = np.float32(ml_dtypes.bfloat16(value))
        expected = ml_dtypes.bfloat16(np.float32(np.float16(0.1)) + stored)
        assert f(i) == [expected]


def test_operations_outside_the_llvm_dialect_are_reported_at_the_op() -> None:
    text = "llvm.func @f(%x: i64) -> i64 {\n  %y = arith.addi %x, %x : i64\n  llvm.return %y : i64\n}\n"
    with pytest.raises(UnsupportedError, match=r"'arith\.addi' is not in the LLVM dialect") as info:
        translate_module(parse_module(text, "in.mlir"))
    assert info.value.location is not None and info.value.location.line == 2


def test_a_leftover_cast_says_what_was_not_lowered() -> None:
    text = (
        "llvm.func @f(%x: i64) -> i64 {\n"
        "  %y = builtin.unrealized_conversion_cast %x : i64 to index\n"
        "  %z = builtin.unrealized_conversion_cast %y : index to i64\n"
        "  llvm.return %z : i64\n}\n"
    )
    with pytest.raises(LoweringError, match="unrealized conversion cast remains"):
        translate_module(parse_module(text))


def test_triple_and_data_layout_come_from_module_attributes() -> None:
    text = (
        'module attributes {llvm.target_triple = "nvptx64-nvidia-cuda", '
        'llvm.data_layout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"} {\n'
        "  llvm.func @k() attributes {nvvm.kernel} {\n    llvm.return\n  }\n}\n"
    )
    ir = translate_module(parse_module(text))
    assert 'target triple = "nvptx64-nvidia-cuda"' in ir
    assert "ptx_kernel void @k()" in ir
