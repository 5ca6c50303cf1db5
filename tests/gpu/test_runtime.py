"""The CUDA runtime on a real device: hand-written NVPTX kernels launched on numpy, PyTorch
and CuPy arrays at odd sizes and compared with numpy; zero-copy adoption; errors that
must not end the process (illegal address, out of memory, bad modules); event timing."""

from __future__ import annotations

import gc
import math
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import ml_dtypes
import numpy as np
import pytest

import schedir
from schedir import reference
from schedir.abi import MemRefSpec, ScalarSpec
from schedir.diagnostics import InputError, ToolError
from schedir.gpu import (
    CudaError,
    CudaOutOfMemoryError,
    DeviceArray,
    GpuContext,
    GpuFunction,
    GpuModule,
    Kernel,
    LaunchConfigError,
    assemble,
    compile_ptx,
    launch,
    time_function,
)
from tests.helpers import check_results

pytestmark = pytest.mark.gpu

F32 = np.dtype(np.float32)
BF16 = np.dtype(ml_dtypes.bfloat16)
REPO = Path(__file__).parents[2]
KernelFactory = Callable[..., Kernel]


def _blocks(n: int, block: int) -> int:
    return max(math.ceil(n / block), 1)


def _saxpy(kernel: KernelFactory, via: str = "cubin") -> GpuFunction:
    vector = MemRefSpec(F32, (None,))
    return GpuFunction(
        kernel("saxpy_desc", via),
        [ScalarSpec(F32), vector, vector, vector],
        grid=lambda args: _blocks(args[1][0], 256),
        block=256,
        outputs=(3,),
        arg_names=("a", "x", "y", "out"),
    )


# -- the device -------------------------------------------------------------------------


def test_target_is_queried_from_the_device(context: GpuContext) -> None:
    target = context.target
    assert target.name
    assert target.arch.startswith("sm_") and target.compute_capability[0] >= 7
    assert target.multiprocessor_count > 0 and target.warp_size == 32
    assert target.max_shared_memory_per_block_optin >= target.max_shared_memory_per_block
    assert target.l2_cache_bytes > 0
    assert context.target is target, "queried once"
    free, total = context.memory_info()
    assert 0 < free <= total


# -- GpuFunction: the memref-descriptor ABI on numpy arrays ------------------------------


@pytest.mark.parametrize("via", ["cubin", "ptx"])
@pytest.mark.parametrize("n", [0, 1, 37, 1000, 100_003])
def test_saxpy_on_numpy_arrays(kernel: KernelFactory, n: int, via: str) -> None:
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(F32)
    y = rng.standard_normal(n).astype(F32)
    out = np.full(n, np.nan, F32)
    before = (x.copy(), y.copy(), out.copy())
    (result,) = _saxpy(kernel, via)(2.5, x, y, out)
    np.testing.assert_array_equal(result, np.float32(2.5) * x + y)
    # Inputs (and the NaN-filled output argument) are never modified.
    for original, now in zip(before, (x, y, out), strict=True):
        np.testing.assert_array_equal(original, now)


def test_two_dimensional_descriptors_with_a_grid_from_the_shapes(kernel: KernelFactory) -> None:
    matrix = MemRefSpec(F32, (None, None))
    add = GpuFunction(
        kernel("add_transposed_desc"),
        [matrix, matrix, matrix],
        grid=lambda args: (_blocks(args[0][1], 16), _blocks(args[0][0], 8)),
        block=(16, 8),
        outputs=(2,),
    )
    rng = np.random.default_rng(0)
    for m, n in ((37, 53), (1, 129), (300, 7)):
        a = rng.standard_normal((m, n)).astype(F32)
        b = rng.standard_normal((n, m)).astype(F32)
        (result,) = add(a, b, np.full((m, n), np.nan, F32))
        np.testing.assert_array_equal(result, a + b.T)
    # A non-contiguous numpy input is copied densely before upload.
    wide = rng.standard_normal((37, 106)).astype(F32)
    b = rng.standard_normal((53, 37)).astype(F32)
    (result,) = add(wide[:, ::2], b, np.zeros((37, 53), F32))
    np.testing.assert_array_equal(result, wide[:, ::2] + b.T)


def test_half_and_bool_scalar_parameters(kernel: KernelFactory) -> None:
    fill = GpuFunction(
        kernel("fill_half_desc"),
        [MemRefSpec(np.float16, (None,)), ScalarSpec(np.float16), ScalarSpec(np.bool_)],
        grid=lambda args: _blocks(args[0][0], 128),
        block=128,
        outputs=(0,),
    )
    (negative,) = fill(np.zeros(1001, np.float16), 1.5, True)
    (positive,) = fill(np.zeros(1001, np.float16), np.float16(1.5), False)
    np.testing.assert_array_equal(negative, np.full(1001, -1.5, np.float16))
    np.testing.assert_array_equal(positive, np.full(1001, 1.5, np.float16))


def test_argument_checks_name_the_argument(kernel: KernelFactory) -> None:
    static = GpuFunction(
        kernel("saxpy_desc"),
        [ScalarSpec(F32)] + [MemRefSpec(F32, (64,))] * 3,
        grid=1,
        block=64,
        outputs=(3,),
        arg_names=("a", "x", "y", "out"),
    )
    good = np.zeros(64, F32)
    with pytest.raises(
        InputError, match=r"argument #2 \('y'\) of saxpy_desc has shape \(63,\), expected \(64\)"
    ):
        static(1.0, good, np.zeros(63, F32), good)
    with pytest.raises(InputError, match=r"argument #1 \('x'\) of saxpy_desc has dtype float64"):
        static(1.0, np.zeros(64), good, good)
    with pytest.raises(InputError, match="takes 4 arguments, got 3"):
        static(1.0, good, good)
    with pytest.raises(InputError, match="must be a numpy array or a device array"):
        static(1.0, [0.0] * 64, good, good)


def test_run_and_bind_keep_results_on_the_device(
    kernel: KernelFactory, context: GpuContext
) -> None:
    saxpy = _saxpy(kernel)
    x = np.arange(1000, dtype=F32)
    y = np.ones(1000, F32)
    (device_out,) = saxpy.run(3.0, x, y, np.zeros(1000, F32))
    assert isinstance(device_out, DeviceArray) and device_out.owned
    np.testing.assert_array_equal(device_out.to_numpy(), 3 * x + 1)
    device_out.free()
    with saxpy.bind(2.0, x, y, np.zeros(1000, F32)) as bound:
        bound()
        bound()
        (result,) = bound.results()
        np.testing.assert_array_equal(result, 2 * x + 1)
    free_before, _ = context.memory_info()
    assert free_before > 0


# -- raw launches: shared memory, shuffles, libdevice -------------------------------------


@pytest.mark.parametrize("n", [1, 255, 256, 1000, 65_537])
def test_shared_memory_block_reduction(kernel: KernelFactory, context: GpuContext, n: int) -> None:
    x = np.random.default_rng(n).standard_normal(n).astype(F32)
    blocks = _blocks(n, 256)
    x_dev = DeviceArray.from_numpy(x, context)
    out = DeviceArray.empty(blocks, F32, context)
    launch(kernel("block_sum"), blocks, 256, [x_dev, out, np.int32(n)])
    padded = np.zeros(blocks * 256, np.float64)
    padded[:n] = x
    np.testing.assert_allclose(
        out.to_numpy(), padded.reshape(blocks, 256).sum(axis=1), rtol=1e-5, atol=1e-5
    )


@pytest.mark.parametrize("n", [1, 31, 32, 33, 10_007])
def test_warp_shuffle_reduction(kernel: KernelFactory, context: GpuContext, n: int) -> None:
    x = np.random.default_rng(n).standard_normal(n).astype(F32)
    blocks = _blocks(n, 128)
    x_dev = DeviceArray.from_numpy(x, context)
    out = DeviceArray.empty(blocks * 4, F32, context)
    out.fill_bytes(0xFF)  # NaN: a warp that writes nothing cannot pass
    launch(kernel("warp_sum"), blocks, 128, [x_dev, out, np.int32(n)])
    padded = np.zeros(blocks * 128, np.float64)
    padded[:n] = x
    np.testing.assert_allclose(
        out.to_numpy(), padded.reshape(-1, 32).sum(axis=1), rtol=1e-5, atol=1e-5
    )


def test_libdevice_exp(kernel: KernelFactory, context: GpuContext) -> None:
    n = 4099
    x = np.random.default_rng(1).uniform(-80, 80, n).astype(F32)
    x_dev = DeviceArray.from_numpy(x, context)
    y = DeviceArray.empty(n, F32, context)
    launch(kernel("exp"), _blocks(n, 256), 256, [x_dev, y, np.int32(n)])
    np.testing.assert_allclose(y.to_numpy(), np.exp(x.astype(np.float64)), rtol=1e-6)


def test_dynamic_shared_memory_above_48k_is_opted_in(
    kernel: KernelFactory, context: GpuContext
) -> None:
    blocks, threads = 3, 256
    shared = 400 * threads  # 102400 bytes
    x = np.random.default_rng(2).standard_normal(blocks * threads).astype(F32)
    x_dev = DeviceArray.from_numpy(x, context)
    out = DeviceArray.empty(blocks * threads, F32, context)
    launch(kernel("rotate_shared"), blocks, threads, [x_dev, out], shared_bytes=shared)
    np.testing.assert_array_equal(
        out.to_numpy(), np.roll(x.reshape(blocks, threads), -1, axis=1).ravel()
    )
    with pytest.raises(
        LaunchConfigError, match=r"kernel 'rotate_shared' \(grid \(3, 1, 1\).*opt-in limit"
    ):
        launch(kernel("rotate_shared"), blocks, threads, [x_dev, out], shared_bytes=10**7)


def test_launch_configuration_beyond_the_limits(kernel: KernelFactory) -> None:
    args = [np.uint64(0), np.uint64(0), np.int32(0)]
    with pytest.raises(
        LaunchConfigError,
        match=r"cannot launch kernel 'exp' \(grid \(1, 1, 1\), block \(2048, 1, 1\).*block size in x is 2048",
    ):
        launch(kernel("exp"), 1, 2048, args)
    with pytest.raises(LaunchConfigError, match=r"block \(32, 64, 1\) has 2048 threads"):
        launch(kernel("exp"), 1, (32, 64), args)


def test_kernel_attributes(kernel: KernelFactory) -> None:
    block_sum = kernel("block_sum")
    assert block_sum.num_regs > 0
    assert block_sum.static_shared_bytes == 1024
    assert block_sum.max_threads_per_block == 256, "nvvm.maxntid"
    assert block_sum.local_bytes == 0


# -- device arrays --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dtype",
    [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.int8, np.int64, np.uint8, np.bool_],
)
def test_device_array_round_trip(context: GpuContext, dtype: type) -> None:
    rng = np.random.default_rng(3)
    for shape in ((), (0,), (1,), (7, 13), (3, 1, 5)):
        host = rng.standard_normal(shape).astype(dtype)
        device = DeviceArray.from_numpy(host, context)
        assert device.shape == host.shape and device.dtype == host.dtype
        np.testing.assert_array_equal(device.to_numpy(), host)
        device.free()
        device.free()


def test_device_array_copy_is_an_independent_equal_array(context: GpuContext) -> None:
    rng = np.random.default_rng(5)
    for shape in ((), (0,), (7, 13), (1001, 1003)):
        host = rng.standard_normal(shape).astype(np.float32)
        device = DeviceArray.from_numpy(host, context)
        copy = device.copy()
        assert copy.ptr != device.ptr or host.size == 0
        assert copy.shape == device.shape and copy.dtype == device.dtype
        np.testing.assert_array_equal(copy.to_numpy(), host)
        device.fill_bytes(0)
        context.synchronize()
        np.testing.assert_array_equal(copy.to_numpy(), host)  # its own memory
        copy.free()
        device.free()


def test_out_of_memory_is_clean_and_the_context_survives(context: GpuContext) -> None:
    with pytest.raises(CudaOutOfMemoryError) as info:
        DeviceArray.empty((1 << 50,), np.uint8, context)
    err = info.value
    assert err.call == "cuMemAlloc" and err.error_name == "CUDA_ERROR_OUT_OF_MEMORY"
    assert err.message.startswith(
        "cuMemAlloc failed while allocating 1125899906842624 bytes: CUDA_ERROR_OUT_OF_MEMORY"
    )
    assert "bytes free" in err.render()
    assert context.lost is None
    np.testing.assert_array_equal(
        DeviceArray.from_numpy(np.arange(5), context).to_numpy(), np.arange(5)
    )


# -- sticky errors: in a child process, since they end the context for good --------------

_CRASH_SCRIPT = """
import importlib.util, sys
import numpy as np
sys.path.insert(0, {repo!r})
from schedir.abi import MemRefSpec
from schedir.gpu import *
spec = importlib.util.spec_from_file_location("k", {kernels!r})
k = importlib.util.module_from_spec(spec); spec.loader.exec_module(k)
ctx = GpuContext(0)
target = ctx.target
module = GpuModule(ctx, assemble(compile_ptx(k.OUT_OF_BOUNDS, target), target.arch), name="oob")
bad = module.kernel("out_of_bounds")
try:
    if {mode!r} == "function":
        f = GpuFunction(bad, [MemRefSpec(np.float32, (16,))], grid=1, block=1, outputs=(0,), bare_pointers=True)
        f(np.zeros(16, np.float32))
    else:
        x = DeviceArray.from_numpy(np.zeros(16, np.float32), ctx)
        launch(bad, (2, 1), (32, 2), [x])
        x.to_numpy()
except CudaContextLostError as err:
    print("CAUGHT", type(err).__name__)
    print(err.render())
try:
    DeviceArray.empty(4, np.float32, ctx)
except CudaContextLostError as err:
    print("SECOND", err.render())
print("ALIVE")
"""


@pytest.mark.parametrize("mode", ["function", "launch"])
def test_illegal_address_names_the_kernel_and_the_process_survives(
    kernels_ir: ModuleType, mode: str
) -> None:
    script = _CRASH_SCRIPT.format(repo=str(REPO), kernels=str(kernels_ir.__file__), mode=mode)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "CAUGHT CudaContextLostError" in output
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in output
    if mode == "function":
        assert (
            "failed while running kernel 'out_of_bounds' (grid (1, 1, 1), block (1, 1, 1), "
            "0 bytes of dynamic shared memory): CUDA_ERROR_ILLEGAL_ADDRESS"
        ) in output
    else:
        assert (
            "the last launch on this context was kernel 'out_of_bounds' (grid (2, 1, 1), block (32, 2, 1)"
            in output
        )
    assert "restart the Python process" in output
    assert "SECOND" in output and "was lost earlier" in output
    assert output.rstrip().endswith("ALIVE")


# -- module loading ---------------------------------------------------------------------------


def test_bad_ptx_is_refused_with_the_driver_log_and_a_repro(context: GpuContext) -> None:
    bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus.instruction; ret; }\n"
    with pytest.raises(CudaError) as info:
        GpuModule(context, bad, name="bad")
    err = info.value
    assert "could not load module 'bad'" in err.message
    assert err.log
    assert err.repro.startswith(f"ptxas -arch={context.target.arch} ")
    assert Path(err.repro.split()[2]).read_text().startswith(".version 8.0")
    assert context.lost is None


def test_unknown_kernel_lists_the_module_kernels(
    context: GpuContext, kernels_ir: ModuleType
) -> None:
    ptx = compile_ptx(kernels_ir.SAXPY_DESC, context.target)
    for image in (ptx, assemble(ptx, context.target.arch)):
        module = GpuModule(context, image, name="saxpy")
        with pytest.raises(ToolError, match="module 'saxpy' has no kernel 'nope'") as info:
            module.kernel("nope")
        assert "saxpy_desc" in info.value.render()


# -- zero-copy with PyTorch and CuPy -----------------------------------------------------------


def test_torch_tensors_are_used_in_place(kernel: KernelFactory) -> None:
    torch = pytest.importorskip("torch")
    n = 10_007
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    out = torch.full((n,), float("nan"), device="cuda")
    x_before = x.clone()
    (result,) = _saxpy(kernel)(2.0, x, y, out)
    expected = np.float32(2.0) * x.cpu().numpy() + y.cpu().numpy()
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(out.cpu().numpy(), expected)  # written in place
    assert torch.equal(x, x_before)
    assert DeviceArray.adopt(x).ptr == x.data_ptr()
    with pytest.raises(InputError, match="strided device array"):
        _saxpy(kernel)(2.0, torch.randn(2 * n, device="cuda")[::2], y, out)


def test_torch_bfloat16_goes_through_dlpack(kernel: KernelFactory) -> None:
    torch = pytest.importorskip("torch")
    vector = MemRefSpec(BF16, (None,))
    copy = GpuFunction(
        kernel("copy16_desc"),
        [vector, vector],
        grid=lambda a: _blocks(a[0][0], 256),
        block=256,
        outputs=(1,),
    )
    x = torch.randn(999, device="cuda", dtype=torch.bfloat16)
    (result,) = copy(x, np.zeros(999, BF16))
    assert result.dtype == BF16
    np.testing.assert_array_equal(result.view(np.int16), x.view(torch.int16).cpu().numpy())
    assert DeviceArray.adopt(x).ptr == x.data_ptr()


def test_device_arrays_export_to_torch_and_read_strided_views(context: GpuContext) -> None:
    torch = pytest.importorskip("torch")
    host = np.arange(12, dtype=F32).reshape(3, 4)
    device = DeviceArray.from_numpy(host, context)
    shared = torch.as_tensor(device, device="cuda")
    assert shared.data_ptr() == device.ptr
    shared.add_(1)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(device.to_numpy(), host + 1)
    view = torch.arange(30, device="cuda", dtype=torch.float32).reshape(5, 6)[1:4, ::2].t()
    np.testing.assert_array_equal(DeviceArray.adopt(view).to_numpy(), view.cpu().numpy())


def test_cupy_arrays_are_used_in_place(kernel: KernelFactory) -> None:
    cp = pytest.importorskip("cupy")
    n = 4097
    x = cp.random.standard_normal(n, dtype=cp.float32)
    y = cp.random.standard_normal(n, dtype=cp.float32)
    out = cp.full(n, cp.nan, dtype=cp.float32)
    (result,) = _saxpy(kernel)(0.5, x, y, out)
    expected = np.float32(0.5) * cp.asnumpy(x) + cp.asnumpy(y)
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(cp.asnumpy(out), expected)
    assert DeviceArray.adopt(x).ptr == x.data.ptr


# -- timing ----------------------------------------------------------------------------------


def test_event_timing_of_a_bound_kernel(kernel: KernelFactory, context: GpuContext) -> None:
    n = 1 << 24
    x = np.random.default_rng(4).standard_normal(n).astype(F32)
    y = np.ones(n, F32)
    with _saxpy(kernel).bind(2.0, x, y, np.zeros(n, F32)) as bound:
        flushed = time_function(bound, context=context, warmup=3, repeat=20)
        warm = time_function(bound, context=context, warmup=1, repeat=10, flush_l2=False)
        (result,) = bound.results()
    np.testing.assert_array_equal(result, np.float32(2.0) * x + y)
    for timing in (flushed, warm):
        assert 0 < timing.min_ms <= timing.median_ms <= timing.max_ms
        # 201 MB moved: slower than 6 TB/s is the only possibility, and far under 50 ms.
        assert 3 * n * 4 / (timing.median_ms * 1e-3) < 6e12
        assert timing.median_ms < 50
    assert flushed.repeats == 20 and flushed.flushed_l2 and not warm.flushed_l2
    print(f"saxpy 2^24: {flushed} -> {3 * n * 4 / (flushed.median_ms * 1e-3) / 1e9:.0f} GB/s")


def test_timing_a_torch_callable(context: GpuContext) -> None:
    torch = pytest.importorskip("torch")
    a = torch.randn(2048, 2048, device="cuda")
    b = torch.randn(2048, 2048, device="cuda")
    timing = time_function(lambda: torch.mm(a, b), context=context, warmup=2, repeat=10)
    flops = 2 * 2048**3 / (timing.median_ms * 1e-3)
    assert 1e11 < flops < 2e15, timing
    print(f"torch.mm 2048^3 f32: {timing} -> {flops / 1e12:.1f} TFLOP/s")


_SPIN_PTX = """
.version 7.0
.target sm_70
.address_size 64

.visible .entry spin(.param .u64 ns)
{
  .reg .pred %p<2>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [ns];
  mov.u64 %rd2, %globaltimer;
  add.u64 %rd3, %rd2, %rd1;
LOOP:
  mov.u64 %rd4, %globaltimer;
  setp.lt.u64 %p1, %rd4, %rd3;
  @%p1 bra LOOP;
  ret;
}
"""
"""A one-thread kernel that runs for `ns` nanoseconds of the GPU's global timer."""


@pytest.mark.parametrize("host_ms", [0.0, 3.0])
def test_host_time_of_queuing_is_not_timed(context: GpuContext, host_ms: float) -> None:
    """A call whose host side takes 3 ms before it queues a 50 us kernel is timed at the
    kernel's 50 us (the repeats wait behind the gate until all are queued), not at the
    host's 3 ms as a timer that lets the GPU start at once would measure."""
    spin = GpuModule(context, _SPIN_PTX, name="spin").kernel("spin")

    def call() -> None:
        if host_ms:
            time.sleep(host_ms / 1000)
        spin.launch(1, 1, [np.uint64(50_000)])

    timing = time_function(call, context=context, warmup=1, repeat=10)
    assert timing.min_ms > 0.045 and timing.max_ms < 0.5, timing


def test_a_call_that_synchronizes_is_still_timed(context: GpuContext) -> None:
    """A call that waits for the device blocks the host until the gate gives up; its
    runs are then timed as they come, each still at its kernel's time."""
    spin = GpuModule(context, _SPIN_PTX, name="spin").kernel("spin")

    def call() -> None:
        spin.launch(1, 1, [np.uint64(50_000)])
        context.synchronize()

    started = time.monotonic()
    timing = time_function(call, context=context, warmup=1, repeat=5)
    assert timing.min_ms > 0.045 and timing.max_ms < 0.5, timing
    assert time.monotonic() - started < 5


def test_timing_argument_checks(context: GpuContext) -> None:
    with pytest.raises(ValueError, match="repeat"):
        time_function(lambda: None, context=context, repeat=0)


def test_compiled_target_matches_the_device(context: GpuContext, kernels_ir: ModuleType) -> None:
    ptx = compile_ptx(kernels_ir.EXP, context.target)
    assert f".target {context.target.arch}" in ptx


def test_a_bound_call_outlives_its_kernel() -> None:
    """A call bound from a compiled kernel (`Kernel.bind`) keeps the kernel's host code:
    the kernel object may go (rebound in a loop, as benchmarks do) and the bound call
    still runs, timed and then checked against the reference. Before, the JIT module
    went with the kernel and the next call died of SIGILL in freed code."""
    payload = REPO / "examples" / "elementwise_cuda.mlir"
    kernel = schedir.compile(
        payload, schedule=REPO / "schedules" / "elementwise_cuda.mlir", target="cuda"
    )
    signature = kernel.signature
    inputs = reference.random_inputs(signature, seed=11)
    bound = kernel.bind(*inputs)
    del kernel
    gc.collect()
    for _ in range(3):
        bound()
    timing = time_function(bound, warmup=1, repeat=5)
    assert timing.median_ms > 0
    expected = reference.evaluate_with_bounds(payload, signature.name, inputs)
    check_results(bound.results(), expected, [spec.dtype for spec in signature.results])
    bound.close()
