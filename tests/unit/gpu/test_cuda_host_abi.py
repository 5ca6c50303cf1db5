"""The host side of a CUDA program without a GPU: the compiled host code of a schedule is
called on host buffers with a runtime that records the `mgpu*` calls instead of making
them, so the launch configuration, the kernel name, the embedded PTX and the kernel
parameters (memref descriptors expanded field by field) can be checked."""

from __future__ import annotations

import ctypes
import gc
import weakref
from pathlib import Path
from typing import Any

import numpy as np

import schedir
from schedir.gpu import CudaExecutable
from schedir.gpu.host import HostRuntime
from schedir.options import CompileOptions

REPO = Path(__file__).parents[3]


class RecordingRuntime(HostRuntime):
    """The runtime API on host memory: records calls, launches nothing."""

    def __init__(self) -> None:
        super().__init__(context=object())  # type: ignore[arg-type]
        self.calls: list[tuple[Any, ...]] = []
        self.buffers: list[Any] = []

    def _mgpuModuleLoad(self, data: int, size: int) -> int:
        self.calls.append(("load", ctypes.string_at(data, size)))
        return 0x100

    def _mgpuModuleGetFunction(self, module: int, name: bytes) -> int:
        self.calls.append(("function", module, name.decode()))
        return 0x200

    def _mgpuLaunchKernel(
        self,
        function: int,
        gx: int,
        gy: int,
        gz: int,
        bx: int,
        by: int,
        bz: int,
        smem: int,
        stream: int | None,
        params: int | None,
        extra: int | None,
        count: int,
    ) -> None:
        assert params is not None
        pointers = (ctypes.c_void_p * count).from_address(params)
        values = [ctypes.c_uint64.from_address(p).value for p in pointers]
        self.calls.append(("launch", function, (gx, gy, gz), (bx, by, bz), smem, values))

    def _mgpuStreamSynchronize(self, stream: int | None) -> None:
        self.calls.append(("sync",))

    def _mgpuMemAlloc(self, nbytes: int, stream: int | None, shared: int) -> int:
        buffer = ctypes.create_string_buffer(nbytes)
        self.buffers.append(buffer)
        return ctypes.addressof(buffer)

    def _mgpuMemcpy(
        self, dst: int | None, src: int | None, nbytes: int, stream: int | None
    ) -> None:
        ctypes.memmove(dst, src, nbytes)


def _descriptor(array: np.ndarray, keep: list[Any]) -> int:
    rank = array.ndim
    fields = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    fields += [("sizes", ctypes.c_int64 * rank), ("strides", ctypes.c_int64 * rank)]
    desc = type("Desc", (ctypes.Structure,), {"_fields_": fields})()
    desc.allocated = desc.aligned = array.ctypes.data
    for dim in range(rank):
        desc.sizes[dim] = array.shape[dim]
        desc.strides[dim] = array.strides[dim] // array.itemsize
    holder = ctypes.c_void_p(ctypes.addressof(desc))
    keep += [desc, holder]
    return ctypes.addressof(holder)


def _matmul_bias_relu() -> tuple[schedir.Kernel, CudaExecutable, RecordingRuntime]:
    """The matmul + bias + relu example compiled for CUDA and its executable built on a
    recording runtime."""
    kernel = schedir.compile(
        REPO / "examples" / "matmul_bias_relu_cuda.mlir",
        schedule=REPO / "schedules" / "matmul_bias_relu_cuda.mlir",
        target="cuda",
    )
    runtime = RecordingRuntime()
    executable = CudaExecutable.build(
        kernel.stages["llvm-ir"], kernel.signature, CompileOptions(target="cuda"), runtime=runtime
    )
    return kernel, executable, runtime


def _matmul_bias_relu_arguments() -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, ctypes.Array[ctypes.c_void_p], list[Any]
]:
    """A (1001x513), B (513x257), the bias, the output, the packed descriptors of the four
    and what keeps the descriptors alive."""
    a = np.ones((1001, 513), np.float32)
    b = np.ones((513, 257), np.float32)
    bias = np.ones((257,), np.float32)
    out = np.zeros((1001, 257), np.float32)
    keep: list[Any] = []
    packed = (ctypes.c_void_p * 4)(*[_descriptor(x, keep) for x in (a, b, bias, out)])
    return a, b, bias, out, packed, keep


def test_launch_of_matmul_bias_relu_passes_descriptors() -> None:
    _kernel, executable, runtime = _matmul_bias_relu()
    a, b, bias, out, packed, _keep = _matmul_bias_relu_arguments()
    executable.function._call(packed)
    runtime.check()

    kinds = [call[0] for call in runtime.calls]
    assert kinds == ["load", "function", "launch", "sync"]
    image = runtime.calls[0][1]
    assert image.endswith(b"\0") and b".entry matmul_bias_relu_kernel(" in image
    assert runtime.calls[1][2] == "matmul_bias_relu_kernel"
    _, _, grid, block, smem, params = runtime.calls[2]
    # 128x128 tiles of a 1001x257 result: 3 blocks in x (columns), 8 in y; 16x16 threads.
    assert grid == (3, 8, 1) and block == (16, 16, 1) and smem == 0
    # Each memref is (allocated, aligned, offset, sizes..., strides...): A first.
    assert params[:7] == [a.ctypes.data, a.ctypes.data, 0, 1001, 513, 513, 1]
    assert len(params) == 7 + 7 + 7 + 5
    descriptors = {
        params[i]
        for i in range(0, len(params))
        if params[i] in (a.ctypes.data, b.ctypes.data, bias.ctypes.data, out.ctypes.data)
    }
    assert descriptors == {a.ctypes.data, b.ctypes.data, bias.ctypes.data, out.ctypes.data}


def test_callback_errors_surface_after_the_call() -> None:
    kernel = schedir.compile(
        REPO / "examples" / "elementwise_cuda.mlir",
        schedule=REPO / "schedules" / "elementwise_cuda.mlir",
        target="cuda",
    )

    class Failing(RecordingRuntime):
        def _mgpuModuleGetFunction(self, module: int, name: bytes) -> int:
            raise RuntimeError("no such kernel")

    runtime = Failing()
    executable = CudaExecutable.build(
        kernel.stages["llvm-ir"], kernel.signature, CompileOptions(target="cuda"), runtime=runtime
    )
    arrays = [np.ones((1001, 777), np.float32) for _ in range(4)]
    keep: list[Any] = []
    packed = (ctypes.c_void_p * 4)(*[_descriptor(x, keep) for x in arrays])
    executable.function._call(packed)
    # Later callbacks did nothing; the first error is raised once, then cleared.
    assert [c[0] for c in runtime.calls] == ["load"]
    try:
        runtime.check()
    except RuntimeError as err:
        assert "no such kernel" in str(err)
    else:
        raise AssertionError("the callback's error was lost")
    runtime.check()


def test_the_host_function_keeps_its_code_alive() -> None:
    """A function (and so every call bound from it, `Kernel.bind`) taken from a compiled
    CUDA program outlives the program: it holds the JIT module its code lives in. Before,
    only the executable held it, and a bound call kept after its kernel was collected
    jumped into freed code (SIGILL on the H200 in a benchmark that rebound `k` in a loop)."""
    kernel, executable, runtime = _matmul_bias_relu()
    function = executable.function
    code = weakref.ref(executable.jit)
    del executable, kernel
    gc.collect()
    assert code() is not None
    *_, packed, _keep = _matmul_bias_relu_arguments()
    function._call(packed)
    runtime.check()
    assert [call[0] for call in runtime.calls] == ["load", "function", "launch", "sync"]
    del function
    gc.collect()
    assert code() is None
