"""schedir's llvm dialect: the ops it adds or replaces, in upstream MLIR's syntax.

Each text is parsed, printed, and parsed again to the same text; upstream MLIR (iree-opt,
LLVM 24git) must accept what schedir prints, in custom and generic form. The LLVM-dialect
modules the lowering passes produce are checked against upstream the same way.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_llvm_lowering as examples
from test_llvm_harness import compile_module

from schedir.diagnostics import ParseError
from schedir.dialects.syntax import parse_module, print_op

NEW_OPS = """
llvm.func @ops(%p: !llvm.ptr, %q: !llvm.ptr<3>, %x: f32, %v: vector<4xf32>, %i: i32, %n: i64) -> f32 {
  %a = llvm.load %p <alignment = 4> : !llvm.ptr -> f32
  %b = llvm.fptosi %a : f32 to i32
  %c = llvm.uitofp %b : i32 to f32
  %d = llvm.fptoui %a : f32 to i64
  %e = llvm.addrspacecast %q : !llvm.ptr<3> to !llvm.ptr
  %f = llvm.extractelement %v[%i : i32] : vector<4xf32>
  %g = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  %h = llvm.freeze %a : f32
  %k = llvm.getelementptr inbounds|nuw %q[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %l = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64)>
  %m = llvm.getelementptr nusw %p[%n, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
  %r0 = llvm.intr.maximum(%a, %c) : (f32, f32) -> f32
  %r1 = llvm.intr.minimum(%a, %c) {fastmathFlags = #llvm.fastmath<fast>} : (f32, f32) -> f32
  %r2 = llvm.intr.round(%a) : (f32) -> f32
  %r3 = llvm.intr.roundeven(%v) : (vector<4xf32>) -> vector<4xf32>
  %r4 = llvm.intr.trunc(%a) : (f32) -> f32
  %r5 = llvm.intr.log10(%a) : (f32) -> f32
  %r6 = llvm.intr.fmuladd(%a, %a, %c) : (f32, f32, f32) -> f32
  %r7 = llvm.intr.powi(%a, %i) : (f32, i32) -> f32
  %r8 = llvm.intr.smax(%b, %i) : (i32, i32) -> i32
  %r9 = llvm.intr.smin(%b, %i) : (i32, i32) -> i32
  %r10 = llvm.intr.umax(%b, %i) : (i32, i32) -> i32
  %r11 = llvm.intr.umin(%b, %i) : (i32, i32) -> i32
  %r12 = llvm.intr.ctpop(%n) : (i64) -> i64
  %r13 = "llvm.intr.abs"(%b) <{is_int_min_poison = false}> : (i32) -> i32
  %r14 = "llvm.intr.ctlz"(%n) <{is_zero_poison = true}> : (i64) -> i64
  %r15 = "llvm.intr.cttz"(%n) <{is_zero_poison = false}> : (i64) -> i64
  %r16 = "llvm.intr.is.fpclass"(%a) <{bit = 3 : i32}> : (f32) -> i1
  %r17 = llvm.fcmp "ult" %v, %v : vector<4xf32>
  %r18 = llvm.fcmp "_true" %a, %c {fastmathFlags = #llvm.fastmath<nnan>} : f32
  %s = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  "llvm.intr.memcpy"(%p, %e, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.store %a, %p <alignment = 4> : f32, !llvm.ptr
  llvm.store volatile %a, %s : f32, !llvm.ptr
  %t = llvm.load volatile %s : !llvm.ptr -> f32
  llvm.switch %i : i32, ^bb1 [
    1: ^bb1,
    -2: ^bb2(%x : f32)
  ]
^bb1:
  llvm.return %a : f32
^bb2(%y: f32):
  llvm.intr.trap
  llvm.unreachable
}
"""


def _iree_opt() -> str:
    found = shutil.which("iree-opt") or str(Path(sys.executable).parent / "iree-opt")
    if not Path(found).exists():
        pytest.fail("iree-opt not found: install the dev extra (pip install -e .[dev])")
    return found


def _upstream_accepts(text: str) -> None:
    done = subprocess.run(
        [_iree_opt(), "-"], input=text, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"upstream rejects schedir's output:\n{done.stderr}\n{text}"


def test_new_ops_round_trip() -> None:
    printed = print_op(parse_module(NEW_OPS))
    assert print_op(parse_module(printed)) == printed
    for spelling in (
        "llvm.getelementptr inbounds|nuw",
        "llvm.load %p <alignment = 4>",
        "llvm.store volatile",
        "llvm.extractelement %v[%i : i32] : vector<4xf32>",
        '"llvm.intr.abs"(%b) <{is_int_min_poison = false}> : (i32) -> i32',
        "-2: ^bb2(%x : f32)",
    ):
        assert spelling in printed


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_upstream_accepts_the_new_ops(generic: bool) -> None:
    _upstream_accepts(print_op(parse_module(NEW_OPS), generic=generic))


@pytest.mark.parametrize(
    "legacy",
    [
        "%a = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> f32",
        "%a = llvm.load %p <{alignment = 4 : i64}> : !llvm.ptr -> f32",
        "%a = llvm.load %p <alignment = 4> : !llvm.ptr -> f32",
    ],
)
def test_every_alignment_spelling_is_read(legacy: str) -> None:
    text = f"llvm.func @f(%p: !llvm.ptr) -> f32 {{\n  {legacy}\n  llvm.return %a : f32\n}}\n"
    assert "llvm.load %p <alignment = 4> : !llvm.ptr -> f32" in print_op(parse_module(text))


@pytest.mark.parametrize(
    ("legacy", "current"),
    [
        (
            "%r = llvm.fadd %x, %x {fastmathFlags = #llvm.fastmath<fast>} : f32",
            "%r = llvm.fadd %x, %x fastmath<fast> : f32",
        ),
        (
            "%r = llvm.intr.exp(%x) {fastmathFlags = #llvm.fastmath<ninf, nnan>} : (f32) -> f32",
            "%r = llvm.intr.exp(%x) fastmath<nnan, ninf> : (f32) -> f32",
        ),
        (
            '%r = llvm.fcmp "olt" %x, %x {fastmathFlags = #llvm.fastmath<nsz>} : f32',
            '%r = llvm.fcmp "olt" %x, %x fastmath<nsz> : f32',
        ),
        (
            "%r = llvm.fneg %x fastmath<contract, afn> : f32",
            "%r = llvm.fneg %x fastmath<contract, afn> : f32",
        ),
    ],
)
def test_fastmath_flags_print_as_upstream_does(legacy: str, current: str) -> None:
    text = f"llvm.func @f(%x: f32) {{\n  {legacy}\n  llvm.return\n}}\n"
    printed = print_op(parse_module(text))
    assert current in printed
    _upstream_accepts(printed)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("%e = llvm.extractelement %p[%i : i32] : f32", "expected a vector type"),
        ('%e = llvm.fcmp "bogus" %x, %x : f32', "unknown fcmp predicate"),
    ],
)
def test_malformed_ops_are_parse_errors(text: str, message: str) -> None:
    source = f"llvm.func @f(%p: f32, %x: f32, %i: i32) {{\n  {text}\n  llvm.return\n}}\n"
    with pytest.raises(ParseError, match=message):
        parse_module(source)


@pytest.mark.parametrize(
    "name",
    [
        "SAXPY",
        "MATMUL",
        "STRIDED",
        "VIEWS",
        "ALIGNED",
        "RANK0",
        "SCALARS",
        "GLOBALS",
        "CALLS",
        "CONTROL",
    ],
)
def test_upstream_accepts_what_the_lowering_produces(name: str) -> None:
    compiled = compile_module(getattr(examples, name))
    _upstream_accepts(compiled.llvm_dialect)
    _upstream_accepts(print_op(compiled.module, generic=True))
