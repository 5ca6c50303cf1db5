"""The CPU JIT and the numpy <-> memref-descriptor runtime, on hand-written LLVM IR.

No xDSL here: what schedir.cpu gets is LLVM IR text, and the runtime's ABI is the C one
of mlir/docs/TargetLLVMIR.md. The descriptor-returning functions below allocate with
malloc exactly as lowered MLIR does.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from schedir.abi import MemRefSpec, ScalarSpec
from schedir.cpu import CpuFunction, JitModule
from schedir.cpu.jit import undefined_symbols
from schedir.cpu.runtime import descriptor_type
from schedir.diagnostics import InputError, ToolError

SCALE = """
define void @_mlir_ciface_scale(ptr %desc, float %k) {
entry:
  %d = load {ptr, ptr, i64, [1 x i64], [1 x i64]}, ptr %desc
  %aligned = extractvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d, 1
  %offset = extractvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d, 2
  %n = extractvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d, 3, 0
  br label %head
head:
  %i = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %j = add i64 %i, %offset
  %p = getelementptr float, ptr %aligned, i64 %j
  %x = load float, ptr %p
  %y = fmul float %x, %k
  store float %y, ptr %p
  %next = add i64 %i, 1
  br label %head
exit:
  ret void
}
"""


def test_jit_runs_a_ciface_function_on_a_numpy_array() -> None:
    jit = JitModule(SCALE)
    f = CpuFunction(jit, "scale", [MemRefSpec(np.float32, (None,)), ScalarSpec(np.float32)], [])
    a = np.arange(9, dtype=np.float32)
    assert f(a, 3.0) == []
    np.testing.assert_array_equal(a, np.arange(9, dtype=np.float32) * 3)


def test_optimized_ir_assembly_and_packed_wrapper() -> None:
    jit = JitModule(SCALE, opt_level=2)
    assert jit.has_function("_mlir_ciface_scale")
    assert jit.has_function("_mlir__mlir_ciface_scale")
    assert "define void @_mlir__mlir_ciface_scale(ptr" in jit.optimized_ir
    assert "_mlir_ciface_scale" in jit.assembly
    assert jit.address("_mlir_ciface_scale") != 0


@pytest.mark.parametrize("level", [0, 1, 3])
def test_every_optimization_level_runs(level: int) -> None:
    f = CpuFunction(
        JitModule(SCALE, opt_level=level),
        "_mlir_ciface_scale",
        [MemRefSpec(np.float32, (4,)), ScalarSpec(np.float32)],
        [],
    )
    a = np.ones(4, np.float32)
    f(a, -2.0)
    np.testing.assert_array_equal(a, -2 * np.ones(4, np.float32))


def test_generic_cpu_without_features_works() -> None:
    jit = JitModule(SCALE, cpu_name="x86-64", cpu_features="")
    assert jit.cpu_name == "x86-64" and jit.cpu_features == ""
    f = CpuFunction(jit, "scale", [MemRefSpec(np.float32, (None,)), ScalarSpec(np.float32)], [])
    a = np.full(3, 2.0, np.float32)
    f(a, 0.5)
    np.testing.assert_array_equal(a, np.ones(3, np.float32))


def test_invalid_ir_is_a_tool_error_with_a_repro() -> None:
    with pytest.raises(ToolError) as info:
        JitModule("define i32 @f() {\n  ret float 0.0\n}\n")
    err = info.value
    assert "LLVM rejected the IR" in err.message
    assert "float" in err.log
    path = next(word for word in err.repro.split() if word.endswith(".ll"))
    assert Path(path).read_text().startswith("define i32 @f()")


def test_unresolvable_symbol_is_reported_before_running() -> None:
    text = (
        "declare void @no_such_function_anywhere()\n"
        "define void @f() {\n  call void @no_such_function_anywhere()\n  ret void\n}\n"
    )
    with pytest.raises(ToolError, match="no_such_function_anywhere"):
        JitModule(text)


def test_address_of_an_unknown_function_is_a_tool_error() -> None:
    with pytest.raises(ToolError, match="defines no function 'g'"):
        JitModule(SCALE).address("g")


def test_bad_opt_level() -> None:
    with pytest.raises(ValueError):
        JitModule(SCALE, opt_level=4)


LIBM = """
declare float @erff(float)
declare double @tanh(double)
declare float @llvm.exp.f32(float)
define float @_mlir_ciface_erf(float %x) {
  %r = call float @erff(float %x)
  ret float %r
}
define double @_mlir_ciface_tanh(double %x) {
  %r = call double @tanh(double %x)
  ret double %r
}
define float @_mlir_ciface_exp(float %x) {
  %r = call float @llvm.exp.f32(float %x)
  ret float %r
}
"""


def test_libm_symbols_and_intrinsic_libcalls_resolve() -> None:
    jit = JitModule(LIBM)
    erf = CpuFunction(jit, "erf", [ScalarSpec(np.float32)], [ScalarSpec(np.float32)])
    tanh = CpuFunction(jit, "tanh", [ScalarSpec(np.float64)], [ScalarSpec(np.float64)])
    exp = CpuFunction(jit, "exp", [ScalarSpec(np.float32)], [ScalarSpec(np.float32)])
    assert erf(0.5)[0] == pytest.approx(0.5204998778, rel=1e-6)
    assert tanh(0.25)[0] == pytest.approx(np.tanh(0.25), rel=1e-15)
    assert exp(1.0)[0] == pytest.approx(np.e, rel=1e-6)


def _special_floats(dtype: type) -> np.ndarray:
    rng = np.random.default_rng(7)
    info = np.finfo(dtype)
    values = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        info.max,
        -info.max,
        info.tiny,
        info.tiny / 8,
        1.0,
        -1.0,
        3.14159265358979,
        65504.0,
        3.3895e38,
        3.4e38,
        1e-40,
        -1e-45,
    ]
    return np.concatenate(
        [
            np.array(values, dtype=dtype),
            rng.standard_normal(4000).astype(dtype) * 100,
            (rng.standard_normal(2000) * 1e-39).astype(dtype),
        ]
    )


BF16_CONVERSIONS = """
define void @_mlir_ciface_f2bf(ptr %in, ptr %out, i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [0, %entry], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %exit
body:
  %p = getelementptr float, ptr %in, i64 %i
  %x = load float, ptr %p
  %y = fptrunc float %x to bfloat
  %q = getelementptr bfloat, ptr %out, i64 %i
  store bfloat %y, ptr %q
  %next = add i64 %i, 1
  br label %head
exit:
  ret void
}
define bfloat @_mlir_ciface_d2bf(double %x) {
  %y = fptrunc double %x to bfloat
  ret bfloat %y
}
"""


def test_bf16_conversion_fallbacks_round_to_nearest_even() -> None:
    """The generic x86-64 target calls __truncsfbf2 / __truncdfbf2, which libgcc before 13
    lacks: schedir's own definitions must round exactly as ml_dtypes does."""
    jit = JitModule(BF16_CONVERSIONS, cpu_name="x86-64", cpu_features="")
    assert "__truncsfbf2" in undefined_symbols_of(BF16_CONVERSIONS)
    # Pass raw pointers through int64 scalars: the function takes plain pointers.
    f2bf = CpuFunction(
        jit, "f2bf", [ScalarSpec(np.int64), ScalarSpec(np.int64), ScalarSpec(np.int64)], []
    )
    values = _special_floats(np.float32)
    out = np.zeros(values.size, dtype=ml_dtypes.bfloat16)
    f2bf(values.ctypes.data, out.ctypes.data, values.size)
    expected = values.astype(ml_dtypes.bfloat16)
    same = (out.view(np.uint16) == expected.view(np.uint16)) | (
        np.isnan(out.astype(np.float32)) & np.isnan(values)
    )
    assert same.all(), values[~same][:10]

    d2bf = CpuFunction(jit, "d2bf", [ScalarSpec(np.float64)], [ScalarSpec(ml_dtypes.bfloat16)])
    doubles = list(_special_floats(np.float64)[:300])
    # Doubles just off a bf16 tie: rounding to float first lands on the tie and then
    # rounds to even, the wrong way (ml_dtypes' own double -> bfloat16 does that).
    tie = 1.0 + 2.0**-8
    doubles += [tie + 2.0**-40, tie - 2.0**-40, -(tie + 2.0**-40), 3 * tie + 2.0**-38]
    doubles += [1e300, -1e300, 5e-324, 3.3961e38, 3.3962e38]
    for x in doubles:
        (got,) = d2bf(x)
        want = _bf16_bits_exact(x)
        if want is None:
            assert np.isnan(got)
        else:
            assert int(got.view(np.uint16)) == want, (x, got)


def _bf16_bits_exact(x: float) -> int | None:
    """The bits of `x` rounded once, to nearest even, to bfloat16 (None for NaN)."""
    if np.isnan(x):
        return None
    sign = 0x8000 if np.signbit(x) else 0
    if np.isinf(x):
        return sign | 0x7F80
    target = Fraction(abs(x))

    def value(bits: int) -> Fraction:
        if bits >= 0x7F80:  # rounding past the largest finite value gives infinity
            return Fraction(2) ** 128
        return Fraction(float(np.uint16(bits).view(ml_dtypes.bfloat16)))

    with np.errstate(over="ignore"):  # beyond f32's range the guess is infinity
        guess = int(np.float32(abs(x)).astype(ml_dtypes.bfloat16).view(np.uint16))
    candidates = [b for b in (guess - 1, guess, guess + 1) if 0 <= b <= 0x7F80]
    best = min(candidates, key=lambda b: (abs(value(b) - target), b & 1))
    return sign | best


def undefined_symbols_of(ir_text: str) -> list[str]:
    import llvmlite.binding as llvm

    module = llvm.parse_assembly(ir_text)
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu="x86-64", features="", jit=True
    )
    return undefined_symbols(machine.emit_object(module))


HALF_AND_BOOL = """
define half @_mlir_ciface_h(half %x, i1 %neg) {
  %n = fneg half %x
  %r = select i1 %neg, half %n, half %x
  ret half %r
}
"""


def test_half_and_bool_scalars_use_the_packed_wrapper() -> None:
    f = CpuFunction(
        JitModule(HALF_AND_BOOL),
        "h",
        [ScalarSpec(np.float16), ScalarSpec(np.bool_)],
        [ScalarSpec(np.float16)],
    )
    assert f(np.float16(1.5), True) == [np.float16(-1.5)]
    assert f(2.25, False) == [np.float16(2.25)]


# A function returning (memref<?xf32>, i32, memref<2x?xi8, strided<[?, 2], offset: ?>>):
# the results struct comes through the first pointer argument.
RESULTS = """
declare ptr @malloc(i64)
define void @_mlir_ciface_make(ptr %out, i64 %n) {
  %bytes = mul i64 %n, 4
  %buf = call ptr @malloc(i64 %bytes)
  br label %head
head:
  %i = phi i64 [0, %0], [%next, %body]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %p = getelementptr float, ptr %buf, i64 %i
  %f = sitofp i64 %i to float
  store float %f, ptr %p
  %next = add i64 %i, 1
  br label %head
done:
  %d0 = insertvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} poison, ptr %buf, 0
  %d1 = insertvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d0, ptr %buf, 1
  %d2 = insertvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d1, i64 0, 2
  %d3 = insertvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d2, i64 %n, 3, 0
  %d4 = insertvalue {ptr, ptr, i64, [1 x i64], [1 x i64]} %d3, i64 1, 4, 0
  ; a 2 x (n/2) i8 view of the same bytes, read backwards along the rows
  %half = sdiv i64 %n, 2
  %e0 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} poison, ptr %buf, 0
  %e1 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e0, ptr %buf, 1
  %last = sub i64 %half, 1
  %off = mul i64 %last, 2
  %e2 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e1, i64 %off, 2
  %e3 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e2, i64 2, 3, 0
  %e4 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e3, i64 %half, 3, 1
  %e5 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e4, i64 1, 4, 0
  %e6 = insertvalue {ptr, ptr, i64, [2 x i64], [2 x i64]} %e5, i64 -2, 4, 1
  %s0 = insertvalue {{ptr, ptr, i64, [1 x i64], [1 x i64]}, i32, {ptr, ptr, i64, [2 x i64], [2 x i64]}} poison, {ptr, ptr, i64, [1 x i64], [1 x i64]} %d4, 0
  %s1 = insertvalue {{ptr, ptr, i64, [1 x i64], [1 x i64]}, i32, {ptr, ptr, i64, [2 x i64], [2 x i64]}} %s0, i32 42, 1
  %s2 = insertvalue {{ptr, ptr, i64, [1 x i64], [1 x i64]}, i32, {ptr, ptr, i64, [2 x i64], [2 x i64]}} %s1, {ptr, ptr, i64, [2 x i64], [2 x i64]} %e6, 2
  store {{ptr, ptr, i64, [1 x i64], [1 x i64]}, i32, {ptr, ptr, i64, [2 x i64], [2 x i64]}} %s2, ptr %out
  ret void
}
"""


def _make() -> CpuFunction:
    return CpuFunction(
        JitModule(RESULTS),
        "make",
        [ScalarSpec(np.int64)],
        [MemRefSpec(np.float32, (None,)), ScalarSpec(np.int32), MemRefSpec(np.int8, (2, None))],
    )


def test_multiple_results_follow_offsets_sizes_and_negative_strides() -> None:
    f = _make()
    values, answer, view = f(6)
    np.testing.assert_array_equal(values, np.arange(6, dtype=np.float32))
    assert answer == 42 and answer.dtype == np.int32
    raw = np.arange(6, dtype=np.float32).view(np.int8)
    expected = np.lib.stride_tricks.as_strided(raw[4:], (2, 3), (1, -2))
    np.testing.assert_array_equal(view, expected)
    assert view.flags.c_contiguous and view.flags.owndata


def test_a_buffer_returned_twice_is_freed_once() -> None:
    # Both memref results share one malloc: freeing it twice would abort the process.
    script = textwrap.dedent(
        """
        import sys
        sys.path.insert(0, HERE)
        from test_jit import _make
        f = _make()
        for _ in range(300):
            f(64)
        print("ok")
        """
    ).replace("HERE", repr(str(Path(__file__).parent)))
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_result_with_wrong_static_size_is_a_tool_error() -> None:
    f = CpuFunction(
        JitModule(RESULTS),
        "make",
        [ScalarSpec(np.int64)],
        [MemRefSpec(np.float32, (5,)), ScalarSpec(np.int32), MemRefSpec(np.int8, (2, None))],
    )
    with pytest.raises(ToolError, match="result #0 has size 6"):
        f(6)


def test_argument_checks_name_the_argument() -> None:
    f = CpuFunction(
        JitModule(SCALE),
        "scale",
        [MemRefSpec(np.float32, (4,)), ScalarSpec(np.float32)],
        [],
        arg_names=["x", "k"],
    )
    good = np.zeros(4, np.float32)
    with pytest.raises(InputError, match=r"argument #0 \('x'\) has dtype float64"):
        f(np.zeros(4), 1.0)
    with pytest.raises(InputError, match=r"argument #0 \('x'\) has rank 2"):
        f(np.zeros((2, 2), np.float32), 1.0)
    with pytest.raises(InputError, match=r"has shape \(5,\), expected \(4\)"):
        f(np.zeros(5, np.float32), 1.0)
    with pytest.raises(InputError, match="must be C-contiguous"):
        f(np.zeros(8, np.float32)[::2], 1.0)
    with pytest.raises(InputError, match="must be a numpy array"):
        f([0.0] * 4, 1.0)
    with pytest.raises(InputError, match="takes 2 arguments, got 1"):
        f(good)
    with pytest.raises(InputError, match=r"argument 1 \('k': float32\) must be a scalar"):
        f(good, np.ones(3))


def test_integer_scalars_must_fit() -> None:
    f = CpuFunction(
        JitModule(HALF_AND_BOOL),
        "h",
        [ScalarSpec(np.float16), ScalarSpec(np.bool_)],
        [ScalarSpec(np.float16)],
    )
    with pytest.raises(InputError, match=r"must be a bool \(or 0 or 1\), got 2"):
        f(1.0, 2)
    with pytest.raises(InputError, match="must be a bool"):
        f(1.0, 0.5)
    g = CpuFunction(
        JitModule(RESULTS),
        "make",
        [ScalarSpec(np.int64)],
        [MemRefSpec(np.float32, (None,)), ScalarSpec(np.int32), MemRefSpec(np.int8, (2, None))],
    )
    with pytest.raises(InputError, match=r"1180591620717411303424 is out of range for int64"):
        g(2**70)


def test_unsupported_dtype_is_an_input_error() -> None:
    with pytest.raises(InputError, match="complex64"):
        MemRefSpec(np.complex64, (3,))


def test_descriptor_layout_is_the_c_struct() -> None:
    desc = descriptor_type(3)
    assert [name for name, _ in desc._fields_] == [
        "allocated",
        "aligned",
        "offset",
        "sizes",
        "strides",
    ]
    assert desc.sizes.offset == 24 and desc.strides.offset == 48
    assert [name for name, _ in descriptor_type(0)._fields_] == ["allocated", "aligned", "offset"]


def test_zero_sized_arrays() -> None:
    f = CpuFunction(
        JitModule(SCALE), "scale", [MemRefSpec(np.float32, (None,)), ScalarSpec(np.float32)], []
    )
    empty = np.zeros(0, np.float32)
    assert f(empty, 2.0) == []
    g = _make()
    values, answer, view = g(0)
    assert values.shape == (0,) and view.shape == (2, 0) and answer == 42
