"""End to end: memref-level MLIR by hand -> LLVM dialect -> LLVM IR -> JIT -> numpy.

Each test writes a function on memrefs (func + memref + scf + arith + math), lowers it
with the passes of `schedir.lowering`, runs it through `JitModule` and `CpuFunction`, and
compares with numpy at odd sizes and non-zero inputs.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from test_llvm_harness import compile_function, compile_module

from schedir import reference

RNG = np.random.default_rng(1234)


def rand(*shape: int, dtype: type = np.float32) -> np.ndarray:
    return (RNG.standard_normal(shape) + 0.5).astype(dtype)


SAXPY = """
func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf32>
    %yi = memref.load %y[%i] : memref<?xf32>
    %ax = arith.mulf %a, %xi : f32
    %s = arith.addf %ax, %yi : f32
    memref.store %s, %y[%i] : memref<?xf32>
  }
  return
}
"""


@pytest.mark.parametrize("n", [1, 7, 1001])
def test_saxpy_writes_its_output_argument(n: int) -> None:
    f = compile_function(SAXPY)
    x, y = rand(n), rand(n)
    expected = np.float32(2.5) * x + y
    assert f(2.5, x, y) == []
    np.testing.assert_allclose(y, expected, rtol=1e-6)


MATMUL = """
func.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %K = memref.dim %A, %c1 : memref<?x?xf32>
  %N = memref.dim %B, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %M step %c1 {
    scf.for %j = %c0 to %N step %c1 {
      %init = memref.load %C[%i, %j] : memref<?x?xf32>
      %acc = scf.for %k = %c0 to %K step %c1 iter_args(%s = %init) -> (f32) {
        %a = memref.load %A[%i, %k] : memref<?x?xf32>
        %b = memref.load %B[%k, %j] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      memref.store %acc, %C[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"""


@pytest.mark.parametrize("m,n,k", [(13, 17, 11), (1, 1, 1), (64, 3, 129)])
def test_matmul_loop_nest(m: int, n: int, k: int) -> None:
    f = compile_function(MATMUL)
    a, b, c = rand(m, k), rand(k, n), rand(m, n)
    expected = c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    f(a, b, c)
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4)


STRIDED = """
func.func @strided(%m: memref<?x?xf32>, %o0: index, %o1: index, %s0: index, %s1: index)
    -> memref<?x?xf32> {
  %v = memref.subview %m[%o0, %o1] [%s0, %s1] [2, 3]
      : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %out = memref.alloc(%s0, %s1) : memref<?x?xf32>
  memref.copy %v, %out : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32>
  return %out : memref<?x?xf32>
}
"""


def test_dynamic_strided_subview_copied_to_a_returned_allocation() -> None:
    f = compile_function(STRIDED)
    m = rand(19, 23)
    (out,) = f(m, 3, 2, 7, 5)
    np.testing.assert_array_equal(out, m[3 : 3 + 14 : 2, 2 : 2 + 15 : 3])
    (edge,) = f(m, 18, 22, 1, 1)
    np.testing.assert_array_equal(edge, m[18:, 22:])


VIEWS = """
func.func @views(%m: memref<6x8xf32>, %i: index) -> (memref<8xf32>, memref<3x2xf32>, f32) {
  // A rank-reducing row and a static 2-D window with strides.
  %row = memref.subview %m[%i, 0] [1, 8] [1, 1]
      : memref<6x8xf32> to memref<8xf32, strided<[1], offset: ?>>
  %win = memref.subview %m[1, 2] [3, 2] [2, 3]
      : memref<6x8xf32> to memref<3x2xf32, strided<[16, 3], offset: 10>>
  %r = memref.alloc() : memref<8xf32>
  %w = memref.alloc() : memref<3x2xf32>
  memref.copy %row, %r : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32>
  memref.copy %win, %w : memref<3x2xf32, strided<[16, 3], offset: 10>> to memref<3x2xf32>
  %c1 = arith.constant 1 : index
  %e = memref.load %win[%c1, %c1] : memref<3x2xf32, strided<[16, 3], offset: 10>>
  return %r, %w, %e : memref<8xf32>, memref<3x2xf32>, f32
}
"""


def test_static_rank_reducing_and_strided_subviews() -> None:
    f = compile_function(VIEWS)
    m = rand(6, 8)
    row, win, elem = f(m, 4)
    np.testing.assert_array_equal(row, m[4])
    np.testing.assert_array_equal(win, m[1:7:2, 2:8:3])
    assert elem == m[3, 5]


CONTIGUOUS_COPY = """
func.func @dup(%a: memref<?x5xi64>) -> memref<?x5xi64> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x5xi64>
  %b = memref.alloc(%n) : memref<?x5xi64>
  memref.copy %a, %b : memref<?x5xi64> to memref<?x5xi64>
  return %b : memref<?x5xi64>
}
"""


def test_contiguous_copy_uses_memcpy_and_is_exact() -> None:
    compiled = compile_module(CONTIGUOUS_COPY)
    assert "llvm.memcpy" in compiled.llvm_ir
    f = compiled.function(CONTIGUOUS_COPY, "dup")
    a = RNG.integers(-(2**62), 2**62, size=(9, 5), dtype=np.int64)
    (b,) = f(a)
    np.testing.assert_array_equal(a, b)
    assert b.ctypes.data != a.ctypes.data


ALIGNED = """
func.func @aligned(%n: index) -> (index, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  %t = memref.alloca(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %f = arith.index_cast %i : index to i32
    %x = arith.sitofp %f : i32 to f32
    memref.store %x, %a[%i] : memref<?xf32>
    memref.store %x, %t[%i] : memref<?xf32>
  }
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = memref.load %t[%i] : memref<?xf32>
    %p = arith.addf %x, %y : f32
    %q = arith.addf %s, %p : f32
    scf.yield %q : f32
  }
  %p = "memref.extract_aligned_pointer_as_index"(%a) : (memref<?xf32>) -> index
  %mis = arith.remui %p, %c64 : index
  memref.dealloc %a : memref<?xf32>
  return %mis, %sum : index, f32
}
"""


def test_alloc_with_alignment_alloca_and_dealloc() -> None:
    f = compile_function(ALIGNED)
    for n in (1, 3, 100):
        misalignment, total = f(n)
        assert misalignment == 0
        assert total == pytest.approx(n * (n - 1), rel=1e-6)


RANK0 = """
func.func @rank0(%a: memref<f32>, %b: memref<f64>) -> (memref<f32>, f64) {
  %x = memref.load %a[] : memref<f32>
  %y = arith.mulf %x, %x : f32
  %r = memref.alloc() : memref<f32>
  memref.store %y, %r[] : memref<f32>
  %z = memref.load %b[] : memref<f64>
  %w = arith.addf %z, %z : f64
  memref.store %w, %b[] : memref<f64>
  return %r, %w : memref<f32>, f64
}
"""


def test_rank0_memrefs() -> None:
    f = compile_function(RANK0)
    a = np.array(3.5, dtype=np.float32)
    b = np.array(-1.25, dtype=np.float64)
    r, w = f(a, b)
    assert r.shape == () and r == np.float32(12.25)
    assert w == -2.5 and b == -2.5


SCALARS = """
func.func @scalars(%h: f16, %b: bf16, %c: i1, %k: i8) -> (f16, bf16, i1, i8) {
  %h2 = arith.mulf %h, %h : f16
  %b2 = arith.addf %b, %b : bf16
  %true = arith.constant true
  %c2 = arith.xori %c, %true : i1
  %k2 = arith.muli %k, %k : i8
  return %h2, %b2, %c2, %k2 : f16, bf16, i1, i8
}

func.func @one_half(%h: f16) -> f16 {
  %r = arith.negf %h : f16
  return %r : f16
}
"""


def test_half_bfloat_bool_and_byte_scalars_cross_the_abi() -> None:
    compiled = compile_module(SCALARS)
    f = compiled.function(SCALARS, "scalars")
    h, b, c, k = f(np.float16(1.5), ml_dtypes.bfloat16(3.0), True, np.int8(-7))
    assert h == np.float16(2.25) and h.dtype == np.float16
    assert b == ml_dtypes.bfloat16(6.0) and b.dtype == np.dtype(ml_dtypes.bfloat16)
    assert c == np.False_ and k == np.int8(49)
    g = compiled.function(SCALARS, "one_half")
    assert g(np.float16(0.75)) == [np.float16(-0.75)]


INDEX_MATH = """
func.func @index_math(%n: index) -> memref<?xindex> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %cm5 = arith.constant -5 : index
  %out = memref.alloc(%n) : memref<?xindex>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c7 : index
    %b = arith.addi %a, %cm5 : index
    %f = arith.floordivsi %b, %c3 : index
    %g = arith.ceildivsi %b, %c3 : index
    %r = arith.remsi %b, %c3 : index
    %s = arith.subi %f, %g : index
    %t = arith.addi %s, %r : index
    %u = arith.shli %t, %c3 : index
    %w = arith.maxsi %u, %b : index
    %i32 = arith.index_cast %w : index to i32
    %back = arith.index_cast %i32 : i32 to index
    memref.store %back, %out[%i] : memref<?xindex>
  }
  return %out : memref<?xindex>
}
"""


def test_index_arithmetic_matches_the_reference() -> None:
    f = compile_function(INDEX_MATH)
    for n in (1, 9, 31):
        (actual,) = f(n)
        (expected,) = reference.evaluate(INDEX_MATH, None, [n])
        assert actual.dtype == np.int64
        np.testing.assert_array_equal(actual, expected)


GLOBALS = """
memref.global "private" constant @table : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @ints : memref<4xindex> = dense<[10, -20, 30, -40]>

func.func @globals() -> (memref<2x3xf32>, memref<2x3xf32>, index) {
  %g = memref.get_global @table : memref<2x3xf32>
  %copy = memref.alloc() : memref<2x3xf32>
  memref.copy %g, %copy : memref<2x3xf32> to memref<2x3xf32>
  %i = memref.get_global @ints : memref<4xindex>
  %c1 = arith.constant 1 : index
  %v = memref.load %i[%c1] : memref<4xindex>
  return %g, %copy, %v : memref<2x3xf32>, memref<2x3xf32>, index
}
"""


def test_globals_are_read_and_never_freed() -> None:
    f = compile_function(GLOBALS)
    table = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    for _ in range(3):  # freeing the global's 0xdeadbeef marker would crash
        direct, copy, value = f()
        np.testing.assert_array_equal(direct, table)
        np.testing.assert_array_equal(copy, table)
        assert value == -20


ALIASING = """
func.func @alias(%a: memref<?xf32>) -> (memref<?xf32>, memref<2xf32, strided<[1], offset: 1>>) {
  %s = memref.subview %a[1] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1], offset: 1>>
  return %a, %s : memref<?xf32>, memref<2xf32, strided<[1], offset: 1>>
}
"""


def test_results_aliasing_arguments_are_copied_not_freed() -> None:
    f = compile_function(ALIASING)
    a = rand(5)
    for _ in range(3):
        whole, part = f(a)
        np.testing.assert_array_equal(whole, a)
        np.testing.assert_array_equal(part, a[1:3])
        assert whole.ctypes.data != a.ctypes.data


def test_one_allocation_returned_twice_is_freed_once() -> None:
    # A double free aborts the process, so the call runs in a child process.
    script = textwrap.dedent(
        """
        import sys
        sys.path.insert(0, HARNESS_DIR)
        from test_llvm_harness import compile_function
        f = compile_function('''
        func.func @twice(%n: index) -> (memref<?xf32>, memref<?xf32, strided<[1], offset: 1>>) {
          %c1 = arith.constant 1 : index
          %m = arith.subi %n, %c1 : index
          %a = memref.alloc(%n) : memref<?xf32>
          %s = memref.subview %a[1] [%m] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
          return %a, %s : memref<?xf32>, memref<?xf32, strided<[1], offset: 1>>
        }
        ''')
        for _ in range(200):
            a, s = f(1000)
            assert a.shape == (1000,) and s.shape == (999,)
        print("ok")
        """
    ).replace("HARNESS_DIR", repr(str(Path(__file__).parent)))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


LEAK = """
func.func @big(%n: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %one, %a[%i] : memref<?xf32>
  }
  return %a : memref<?xf32>
}
"""


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def test_returned_allocations_are_freed() -> None:
    f = compile_function(LEAK)
    n = 1 << 20  # 4 MiB per call: malloc maps it, free unmaps it
    f(n)
    before = _rss_bytes()
    for _ in range(100):
        (a,) = f(n)
        del a
    grown = _rss_bytes() - before
    assert grown < 100 * (1 << 20), f"resident memory grew by {grown >> 20} MiB"


RESHAPES = """
func.func @reshapes(%m: memref<4x6xf32>) -> (memref<24xf32>, memref<4x2x3xf32>, memref<3x5xf32>) {
  %flat = memref.collapse_shape %m [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  %cube = memref.expand_shape %m [[0], [1, 2]] output_shape [4, 2, 3] : memref<4x6xf32> into memref<4x2x3xf32>
  %re = memref.reinterpret_cast %m to offset: [2], sizes: [3, 5], strides: [6, 1]
      : memref<4x6xf32> to memref<3x5xf32, strided<[6, 1], offset: 2>>
  %a = memref.alloc() : memref<24xf32>
  %b = memref.alloc() : memref<4x2x3xf32>
  %c = memref.alloc() : memref<3x5xf32>
  memref.copy %flat, %a : memref<24xf32> to memref<24xf32>
  memref.copy %cube, %b : memref<4x2x3xf32> to memref<4x2x3xf32>
  memref.copy %re, %c : memref<3x5xf32, strided<[6, 1], offset: 2>> to memref<3x5xf32>
  return %a, %b, %c : memref<24xf32>, memref<4x2x3xf32>, memref<3x5xf32>
}
"""


def test_collapse_expand_and_reinterpret_cast() -> None:
    f = compile_function(RESHAPES)
    m = rand(4, 6)
    flat, cube, re = f(m)
    np.testing.assert_array_equal(flat, m.reshape(24))
    np.testing.assert_array_equal(cube, m.reshape(4, 2, 3))
    np.testing.assert_array_equal(
        re, np.lib.stride_tricks.as_strided(m.reshape(-1)[2:], (3, 5), (24, 4))
    )


CALLS = """
func.func private @stats(%a: memref<?xf64>) -> (f64, memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %sq = memref.alloc(%n) : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = memref.load %a[%i] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    memref.store %y, %sq[%i] : memref<?xf64>
    %t = arith.addf %acc, %x : f64
    scf.yield %t : f64
  }
  return %s, %sq : f64, memref<?xf64>
}

func.func @caller(%a: memref<?xf64>) -> (memref<?xf64>, f64) {
  %s, %sq = func.call @stats(%a) : (memref<?xf64>) -> (f64, memref<?xf64>)
  return %sq, %s : memref<?xf64>, f64
}
"""


def test_calls_pass_descriptors_and_return_structs() -> None:
    f = compile_function(CALLS, "caller")
    a = rand(11, dtype=np.float64)
    sq, total = f(a)
    np.testing.assert_allclose(sq, a * a, rtol=1e-15)
    assert total == pytest.approx(a.sum(), rel=1e-12)


CONTROL = """
func.func @gcd(%a: i64, %b: i64) -> i64 {
  %r:2 = scf.while (%x = %a, %y = %b) : (i64, i64) -> (i64, i64) {
    %zero = arith.constant 0 : i64
    %more = arith.cmpi ne, %y, %zero : i64
    scf.condition(%more) %x, %y : i64, i64
  } do {
  ^bb0(%x: i64, %y: i64):
    %m = arith.remsi %x, %y : i64
    scf.yield %y, %m : i64, i64
  }
  return %r#0 : i64
}

func.func @pick(%flag: index, %a: f32, %b: f32) -> f32 {
  cf.switch %flag : index, [
    default: ^other(%a : f32),
    2: ^two(%b : f32),
    -1: ^other(%b : f32)
  ]
^two(%x: f32):
  %d = arith.addf %x, %x : f32
  return %d : f32
^other(%y: f32):
  return %y : f32
}

func.func @sign(%x: f32) -> i32 {
  %zero = arith.constant 0.0 : f32
  %neg = arith.cmpf olt, %x, %zero : f32
  %r = scf.if %neg -> (i32) {
    %m = arith.constant -1 : i32
    scf.yield %m : i32
  } else {
    %p = arith.constant 1 : i32
    scf.yield %p : i32
  }
  return %r : i32
}
"""


def test_structured_and_unstructured_control_flow() -> None:
    compiled = compile_module(CONTROL)
    gcd = compiled.function(CONTROL, "gcd")
    assert gcd(np.int64(1071), np.int64(462)) == [21]
    pick = compiled.function(CONTROL, "pick")
    assert pick(2, 1.0, 4.0) == [8.0]
    assert pick(-1, 1.0, 4.0) == [4.0]
    assert pick(7, 1.0, 4.0) == [1.0]
    sign = compiled.function(CONTROL, "sign")
    assert sign(-3.0) == [-1] and sign(0.5) == [1]


def test_dynamic_result_shape_follows_the_argument() -> None:
    text = """
    func.func @iota(%n: index, %m: index) -> memref<?x?xi32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %out = memref.alloc(%n, %m) : memref<?x?xi32>
      scf.for %i = %c0 to %n step %c1 {
        scf.for %j = %c0 to %m step %c1 {
          %k = arith.muli %i, %m : index
          %l = arith.addi %k, %j : index
          %v = arith.index_cast %l : index to i32
          memref.store %v, %out[%i, %j] : memref<?x?xi32>
        }
      }
      return %out : memref<?x?xi32>
    }
    """
    f = compile_function(text)
    for n, m in ((3, 5), (1, 1), (0, 4), (17, 2)):
        (out,) = f(n, m)
        assert out.shape == (n, m) and out.dtype == np.int32
        np.testing.assert_array_equal(out, np.arange(n * m, dtype=np.int32).reshape(n, m))


def test_unoptimized_code_computes_the_same() -> None:
    f = compile_function(MATMUL, opt_level=0)
    a, b, c = rand(5, 7), rand(7, 3), np.zeros((5, 3), np.float32)
    f(a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


PINGPONG = """
func.func @pingpong(%a: memref<?xf32>, %steps: index) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %src, %dst = scf.for %s = %c0 to %steps step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf32>, memref<?xf32>) {
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i] : memref<?xf32>
    }
    scf.yield %y, %x : memref<?xf32>, memref<?xf32>
  }
  %out = memref.alloc(%n) : memref<?xf32>
  memref.copy %src, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %out : memref<?xf32>
}
"""


def test_memrefs_carried_through_loop_block_arguments() -> None:
    """Descriptors flow through block arguments (scf.for iter_args after scf-to-cf)."""
    f = compile_function(PINGPONG)
    for steps in (0, 1, 2, 5):
        a = np.arange(7, dtype=np.float32)
        (out,) = f(a, steps)
        np.testing.assert_array_equal(out, np.arange(7, dtype=np.float32) * 2.0**steps)


METADATA = """
func.func @meta(%m: memref<?x?xf32>, %o: index) -> (index, index, index, index, index, f32) {
  %v = memref.subview %m[%o, 1] [2, 3] [3, 2]
      : memref<?x?xf32> to memref<2x3xf32, strided<[?, 2], offset: ?>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %v
      : memref<2x3xf32, strided<[?, 2], offset: ?>> -> memref<f32>, index, index, index, index, index
  %x = memref.load %base[] : memref<f32>
  return %offset, %sizes#0, %sizes#1, %strides#0, %strides#1, %x
      : index, index, index, index, index, f32
}
"""


def test_extract_strided_metadata_of_a_subview() -> None:
    f = compile_function(METADATA)
    m = np.arange(35, dtype=np.float32).reshape(5, 7) + 1
    offset, size0, size1, stride0, stride1, first = f(m, 1)
    assert (offset, size0, size1, stride0, stride1) == (8, 2, 3, 21, 2)
    assert first == m[0, 0]
