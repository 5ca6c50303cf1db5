"""The host side of schedir.gpu that needs no device: targets, launch checks, kernel
parameter packing (the memref-descriptor ABI), array adoption through DLPack and
`__cuda_array_interface__`, timing statistics, and clean errors where there is no GPU."""

from __future__ import annotations

import ctypes
import struct
import subprocess
import sys
import textwrap
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from schedir.abi import MemRefSpec, ScalarSpec
from schedir.diagnostics import InputError, SchedirError, ToolError
from schedir.gpu import (
    CudaContextLostError,
    CudaError,
    DeviceArray,
    DeviceUnavailableError,
    GpuContext,
    GpuTarget,
    LaunchConfigError,
    Timing,
)
from schedir.gpu.context import describe_launch, stream_handle
from schedir.gpu.function import memref_params
from schedir.gpu.runtime import ParamPack, dims3, pack_argument
from schedir.gpu.target import DEVICE_ATTRIBUTES, parse_arch, ptx_isa_version
from schedir.options import CompileOptions

# A context that is never initialized: DeviceArray and the packing helpers only touch the
# driver when they copy or allocate, so they can be checked here without a GPU.
LAZY = GpuContext(0)


# -- targets --------------------------------------------------------------------------


def test_default_target_is_an_h200() -> None:
    target = GpuTarget()
    assert target.arch == "sm_90" and target.compute_capability == (9, 0)
    assert target.llvm_features == "+ptx80" and target.ptx_version == "8.0"
    assert target.triple == "nvptx64-nvidia-cuda"
    assert target.max_threads_per_block == 1024 and target.warp_size == 32
    assert target.max_shared_memory_per_block == 49152
    assert target.max_shared_memory_per_block_optin == 232448
    assert target.multiprocessor_count == 132
    assert target.l2_cache_bytes >= 50 * 1024 * 1024
    assert hash(target) == hash(GpuTarget())


def test_target_arch_and_ptx_parsing() -> None:
    assert parse_arch("sm_90a") == (9, 0) and parse_arch("sm_100") == (10, 0)
    assert parse_arch("sm_120f") == (12, 0)
    assert ptx_isa_version("ptx87") == "8.7" and ptx_isa_version("+ptx80") == "8.0"
    for bad in ("sm90", "sm_9", "compute_90", "sm_90x"):
        with pytest.raises(ValueError, match="arch must look like"):
            GpuTarget(arch=bad)
    with pytest.raises(ValueError, match="PTX feature"):
        GpuTarget(ptx_feature="8.0")
    assert GpuTarget(ptx_feature="+ptx85").ptx_feature == "ptx85"


def test_target_from_options_and_attributes() -> None:
    target = GpuTarget.from_options(
        CompileOptions(target="cuda", arch="sm_90a", ptx_version="ptx85")
    )
    assert (target.arch, target.ptx_feature) == ("sm_90a", "ptx85")
    assert GpuTarget.from_options(CompileOptions()).ptx_feature == "ptx80"
    values = dict.fromkeys(DEVICE_ATTRIBUTES, 7)
    values |= {
        "compute_capability_major": 8,
        "compute_capability_minor": 9,
        "l2_cache_size": 1 << 20,
    }
    queried = GpuTarget.from_attributes(values, name="Some GPU")
    assert queried.arch == "sm_89" and queried.name == "Some GPU"
    assert queried.max_block_dims == (7, 7, 7) and queried.l2_cache_bytes == 1 << 20


def test_launch_limits() -> None:
    target = GpuTarget()
    assert target.check_launch((100, 1, 1), (256, 1, 1), 0) is None
    assert target.check_launch((1, 1, 1), (1024, 1, 1), 232448) is None
    assert "2048 threads" in (target.check_launch((1, 1, 1), (32, 64, 1), 0) or "")
    assert "block size in z is 65" in (target.check_launch((1, 1, 1), (1, 1, 65), 0) or "")
    assert "grid size in y is 0" in (target.check_launch((1, 0, 1), (1, 1, 1), 0) or "")
    assert "opt-in limit" in (target.check_launch((1, 1, 1), (1, 1, 1), 232449) or "")
    assert dims3(5, "grid") == (5, 1, 1) and dims3((2, 3), "grid") == (2, 3, 1)
    assert dims3(np.int64(4), "block") == (4, 1, 1)
    with pytest.raises(LaunchConfigError, match="grid must be"):
        dims3((1, 2, 3, 4), "grid")
    assert describe_launch("k", (4, 1, 1), (256, 1, 1), 0) == (
        "kernel 'k' (grid (4, 1, 1), block (256, 1, 1), 0 bytes of dynamic shared memory)"
    )


# -- kernel parameters ----------------------------------------------------------------


def test_memref_descriptor_parameters() -> None:
    array = DeviceArray(LAZY, 0x7F0000001000, (3, 5), np.float32)
    fields = memref_params(array)
    assert [len(f) for f in fields] == [8] * 7
    values = [struct.unpack("<q", f)[0] for f in fields]
    # allocated, aligned, offset, sizes, strides (row-major, in elements)
    assert values == [0x7F0000001000, 0x7F0000001000, 0, 3, 5, 5, 1]
    assert memref_params(array, bare_pointer=True) == [struct.pack("<Q", 0x7F0000001000)]
    scalar = DeviceArray(LAZY, 0x1000, (), np.float64)
    assert len(memref_params(scalar)) == 3


def test_launch_arguments_are_packed_with_their_width() -> None:
    array = DeviceArray(LAZY, 0xABC000, (4,), np.float32)
    assert pack_argument(0, array, LAZY)[0] == struct.pack("<Q", 0xABC000)
    assert pack_argument(1, np.float32(1.5), LAZY)[0] == struct.pack("<f", 1.5)
    assert pack_argument(2, np.int64(-2), LAZY)[0] == struct.pack("<q", -2)
    assert pack_argument(3, np.bool_(True), LAZY)[0] == b"\x01"
    assert pack_argument(4, np.float16(2.0), LAZY)[0] == np.float16(2.0).tobytes()
    assert pack_argument(5, ctypes.c_int32(7), LAZY)[0] == struct.pack("<i", 7)
    assert pack_argument(6, b"\x01\x02", LAZY)[0] == b"\x01\x02"
    with pytest.raises(InputError, match=r"argument #7 is a Python int.*np\.int32"):
        pack_argument(7, 3, LAZY)
    with pytest.raises(InputError, match="numpy array in host memory"):
        pack_argument(8, np.zeros(3), LAZY)
    with pytest.raises(InputError, match="cannot pass a str"):
        pack_argument(9, "x", LAZY)
    pack = ParamPack([b"\x01\x00\x00\x00", struct.pack("<Q", 5)])
    pointers = (ctypes.c_void_p * 2).from_address(pack.address)
    assert ctypes.c_int32.from_address(pointers[0]).value == 1
    assert ctypes.c_uint64.from_address(pointers[1]).value == 5
    assert ParamPack([]).address == 0


def test_specs_validate_dtypes() -> None:
    assert MemRefSpec("float32", (None, 4)).rank == 2
    assert ScalarSpec(ml_dtypes.bfloat16).dtype == np.dtype(ml_dtypes.bfloat16)
    with pytest.raises(InputError, match="complex64"):
        MemRefSpec(np.complex64, (1,))


def test_stream_handles() -> None:
    class TorchLike:
        cuda_stream = 1234

    class CupyLike:
        ptr = 99

    class Protocol:
        def __cuda_stream__(self) -> tuple[int, int]:
            return (0, 55)

    assert stream_handle(None) == 0 and stream_handle(7) == 7
    assert stream_handle(TorchLike()) == 1234 and stream_handle(CupyLike()) == 99
    assert stream_handle(Protocol()) == 55
    with pytest.raises(TypeError, match="cannot use a str"):
        stream_handle("s")


# -- device arrays without a device ------------------------------------------------------


class FakeCudaArray:
    """An object exporting `__cuda_array_interface__` for an empty array (null pointer)."""

    def __init__(self, **interface: Any) -> None:
        self.__cuda_array_interface__ = {
            "shape": (0, 3),
            "typestr": "<f4",
            "data": (0, False),
            "version": 3,
            "strides": None,
        } | interface


class FakeDlpackDevice:
    """A numpy array's DLPack capsule, presented as if it lived on CUDA device 0."""

    def __init__(self, array: np.ndarray, versioned: bool) -> None:
        self.array = array
        self.versioned = versioned
        self.streams: list[int | None] = []

    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 0)

    def __dlpack__(self, stream: int | None = None) -> object:
        self.streams.append(stream)
        if self.versioned:
            return self.array.__dlpack__(max_version=(1, 0))
        return self.array.__dlpack__()


def test_adopting_through_the_cuda_array_interface() -> None:
    adopted = DeviceArray.adopt(FakeCudaArray(), LAZY)
    assert adopted.shape == (0, 3) and adopted.dtype == np.float32 and not adopted.owned
    assert adopted.strides == (12, 4) and adopted.is_c_contiguous
    assert DeviceArray.adopt(adopted, LAZY) is adopted
    with pytest.raises(InputError, match="untyped"):
        DeviceArray.adopt(FakeCudaArray(typestr="<V2"), LAZY)
    with pytest.raises(InputError, match="complex64 is not supported"):
        DeviceArray.adopt(FakeCudaArray(typestr="<c8"), LAZY)
    with pytest.raises(InputError, match="masked"):
        DeviceArray.adopt(FakeCudaArray(mask=object()), LAZY)
    with pytest.raises(InputError, match="neither __cuda_array_interface__ nor __dlpack__"):
        DeviceArray.adopt(object(), LAZY)


@pytest.mark.parametrize("versioned", [False, True], ids=["dltensor", "dltensor_versioned"])
def test_adopting_through_dlpack_reads_pointer_shape_strides_and_dtype(versioned: bool) -> None:
    base = np.arange(24, dtype=np.int16).reshape(4, 6)
    view = base[1:, ::2]
    source = FakeDlpackDevice(view, versioned)
    adopted = DeviceArray.adopt(source, LAZY)
    assert adopted.ptr == view.ctypes.data
    assert adopted.shape == (3, 3) and adopted.dtype == np.int16
    assert adopted.strides == view.strides == (12, 4)
    assert adopted.element_strides == (6, 2)
    assert not adopted.is_c_contiguous
    assert source.streams == [1], "the legacy default stream, as DLPack spells it"
    # The capsule is kept: the producer's memory stays valid while the array lives.
    assert adopted.owner is not None
    adopted.free()
    assert adopted.owner is None


def test_dlpack_of_host_memory_is_refused() -> None:
    with pytest.raises(InputError, match="is on the CPU, not on a CUDA device"):
        DeviceArray.adopt(np.zeros(3, np.float32), LAZY)


def test_device_array_exports_the_cuda_array_interface() -> None:
    array = DeviceArray(LAZY, 0x5000, (2, 3), np.float16)
    interface = array.__cuda_array_interface__
    assert interface == {
        "shape": (2, 3),
        "typestr": "<f2",
        "data": (0x5000, False),
        "strides": None,
        "version": 3,
        "stream": None,
    }
    bf16 = DeviceArray(LAZY, 0x5000, (2,), ml_dtypes.bfloat16)
    assert not hasattr(bf16, "__cuda_array_interface__")
    strided = DeviceArray(LAZY, 0x5000, (2, 3), np.float32, strides=(24, 4))
    assert strided.__cuda_array_interface__["strides"] == (24, 4)
    assert strided.nbytes == 24 and strided.size == 6 and strided.ndim == 2


# -- timing statistics --------------------------------------------------------------------


def test_timing_statistics() -> None:
    timing = Timing((3.0, 1.0, 2.0, 10.0), warmup=2, flushed_l2=True)
    assert timing.median_ms == 2.5 and timing.min_ms == 1.0 and timing.max_ms == 10.0
    assert timing.mean_ms == 4.0 and timing.repeats == 4
    assert str(timing) == "median 2.5000 ms, min 1.0000 ms over 4 runs (2 warm-up, L2 flushed)"


# -- no device ----------------------------------------------------------------------------


def test_a_missing_device_is_a_clean_schedir_error() -> None:
    # Device 99 exists nowhere; without cuda-python, a driver or a GPU the error is the
    # same kind, and it never escapes as a RuntimeError from the bindings.
    context = GpuContext(99)
    with pytest.raises(DeviceUnavailableError) as info:
        context.ensure()
    err = info.value
    assert isinstance(err, CudaError) and isinstance(err, ToolError)
    assert err.render().startswith("error: ")
    with pytest.raises(DeviceUnavailableError):
        DeviceArray.empty((4,), np.float32, context)


def test_importing_schedir_gpu_loads_neither_cuda_nor_xdsl() -> None:
    code = textwrap.dedent(
        """
        import sys
        import schedir.gpu
        from schedir.gpu import compile_ptx, GpuTarget
        loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('cuda', 'xdsl'))
        print(loaded)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_error_classes_render_as_diagnostics() -> None:
    err = CudaContextLostError(
        "cuCtxSynchronize failed while running kernel 'k': CUDA_ERROR_ILLEGAL_ADDRESS",
        call="cuCtxSynchronize",
        code=700,
        error_name="CUDA_ERROR_ILLEGAL_ADDRESS",
    )
    assert isinstance(err, SchedirError) and err.code == 700
    assert err.render().startswith("error: cuCtxSynchronize failed while running kernel 'k'")
    assert issubclass(LaunchConfigError, InputError)


class _CountingContext:
    """A context that hands out fake device addresses and records frees."""

    def __init__(self) -> None:
        self.allocated: list[int] = []
        self.freed: list[int] = []

    def alloc(self, nbytes: int) -> int:
        self.allocated.append(nbytes)
        return 0x1000 * len(self.allocated)

    def free(self, pointer: int) -> None:
        self.freed.append(pointer)


def test_freed_temporaries_are_reused_per_stream_and_size() -> None:
    """A temporary the compiled code frees (colsum's partials) is handed out again to an
    allocation of the same size on the same stream: a repeated call neither allocates nor
    frees; other sizes and streams get their own; close() frees everything."""
    from schedir.gpu.host import HostRuntime

    context = _CountingContext()
    runtime = HostRuntime(context)  # type: ignore[arg-type]  # a stand-in with alloc/free
    first = runtime._mgpuMemAlloc(4096, None, 0)  # pyright: ignore[reportPrivateUsage]  # the mgpu callbacks are what the compiled code calls
    runtime._mgpuMemFree(first, None)  # pyright: ignore[reportPrivateUsage]  # as above
    assert runtime.live_allocations == 0 and context.freed == []
    again = runtime._mgpuMemAlloc(4096, None, 0)  # pyright: ignore[reportPrivateUsage]  # as above
    assert again == first and context.allocated == [4096]
    other = runtime._mgpuMemAlloc(2048, None, 0)  # pyright: ignore[reportPrivateUsage]  # as above
    assert other != first and context.allocated == [4096, 2048]
    runtime._mgpuMemFree(other, None)  # pyright: ignore[reportPrivateUsage]  # as above
    runtime.stream = 7
    elsewhere = runtime._mgpuMemAlloc(2048, None, 0)  # pyright: ignore[reportPrivateUsage]  # as above
    assert elsewhere not in (first, other) and context.allocated == [4096, 2048, 2048]
    runtime.close()
    assert sorted(context.freed) == sorted([first, other, elsewhere])


def test_compiled_code_finds_its_image_by_address_without_copying_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Compiled host code loads its kernel image on every call: a repeated load of the same
    bytes at the same address neither copies them (ctypes.string_at) nor loads a module;
    other bytes at that address (a JIT module freed and another placed there) load their
    own module; the same bytes elsewhere share the first one. Function handles likewise."""
    import ctypes

    from schedir.gpu import host

    made: list[bytes] = []
    asked: list[str] = []

    class FakeModule:
        def __init__(self, context: object, image: bytes, name: str) -> None:
            made.append(image)

        def kernel(self, name: str) -> object:
            asked.append(name)
            return (id(self), name)

        def unload(self) -> None:
            pass

    copies: list[int] = []
    real_string_at = ctypes.string_at

    def counting_string_at(address: int, size: int) -> bytes:
        copies.append(size)
        return real_string_at(address, size)

    monkeypatch.setattr(host, "GpuModule", FakeModule)
    monkeypatch.setattr(ctypes, "string_at", counting_string_at)
    runtime = host.HostRuntime(_CountingContext())  # type: ignore[arg-type]  # no device needed
    load = runtime._mgpuModuleLoad  # pyright: ignore[reportPrivateUsage]  # what compiled code calls
    function = runtime._mgpuModuleGetFunction  # pyright: ignore[reportPrivateUsage]  # as above

    image_a, image_b = b"PTX image A" * 100, b"PTX image B" * 100
    buffer = ctypes.create_string_buffer(image_a, len(image_a))
    address = ctypes.addressof(buffer)
    first = load(address, len(image_a))
    assert [load(address, len(image_a)) for _ in range(5)] == [first] * 5
    assert made == [image_a] and copies == [len(image_a)]

    ctypes.memmove(address, image_b, len(image_b))
    other = load(address, len(image_b))
    assert other != first and made == [image_a, image_b]

    elsewhere = ctypes.create_string_buffer(image_a, len(image_a))
    assert load(ctypes.addressof(elsewhere), len(image_a)) == first
    assert made == [image_a, image_b]

    kernels = [function(first, b"k0") for _ in range(3)] + [function(other, b"k0")]
    assert kernels[0] == kernels[1] == kernels[2] != kernels[3]
    assert asked == ["k0", "k0"]
    runtime.close()
