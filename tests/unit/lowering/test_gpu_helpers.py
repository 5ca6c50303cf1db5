"""Helpers of the GPU lowering: which entry arguments a program writes (device inputs
are copied first), static bounds of index values (per-thread buffer sizes), upstream's
copy-distribution heuristic, and the cuda pipeline as data."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.lowering.gpu import upper_bound, written_arguments
from schedir.lowering.pipelines import PIPELINES, cuda_to_llvm
from schedir.transform.rewrites.gpu.copy import CopyMappingError, copy_mapping
from schedir.transform.rewrites.gpu.mapping import check_gpu_limits


def _parse(text: str) -> ModuleOp:
    return parse_module(text, "<test>", ctx=get_context())


def test_written_arguments_follow_views_into_launches() -> None:
    module = _parse(
        """
        func.func @f(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8xf32>, %n: index) {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %v = memref.load %a[%c0, %c0] : memref<8x8xf32>
          %s = memref.subview %b[0, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1]>>
          gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                     threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
            memref.store %v, %s[%tx] : memref<8xf32, strided<[1]>>
            linalg.copy ins(%c : memref<8xf32>) outs(%s : memref<8xf32, strided<[1]>>)
            gpu.terminator
          }
          return
        }
        """
    )
    fn = next(op for op in module.walk() if op.name == "func.func")
    assert written_arguments(fn) == [1]


def test_upper_bounds_of_tile_sizes() -> None:
    module = _parse(
        """
        func.func @f(%n: index, %i: index) {
          %m = affine.min affine_map<(d0)[s0] -> (s0 - d0, 4)>(%i)[%n]
          %c = affine.apply affine_map<()[s0] -> (s0 ceildiv 4)>()[%m]
          %x = affine.max affine_map<()[s0] -> (0, s0)>()[%c]
          %u = affine.apply affine_map<(d0) -> (d0 * 3)>(%i)
          "test.use"(%m, %c, %x, %u) : (index, index, index, index) -> ()
          return
        }
        """.replace('"test.use"(%m, %c, %x, %u) : (index, index, index, index) -> ()', "")
    )
    values = {op.results[0].name_hint: op.results[0] for op in module.walk() if op.results}
    assert upper_bound(values["m"]) == 4
    assert upper_bound(values["c"]) == 1
    assert upper_bound(values["x"]) == 1
    assert upper_bound(values["u"]) is None


@pytest.mark.parametrize(
    ("total", "bits", "sizes", "elem", "threads", "vector"),
    [
        (32, 128, [8], 16, (1,), 8),
        (32, 128, [20], 16, (5,), 4),
        (32, 128, [128], 16, (32,), 4),
        (32, 128, [16, 32, 64], 8, (1, 8, 4), 16),
        (128, 8, [16, 15, 5], 8, (8, 3, 5), 1),
    ],
)
def test_copy_mapping_matches_upstream(
    total: int, bits: int, sizes: list[int], elem: int, threads: tuple[int, ...], vector: int
) -> None:
    mapping = copy_mapping(total, bits, sizes, elem)
    assert mapping.num_threads == threads
    assert mapping.vector_size == vector
    assert [str(m) for m in mapping.mapping][-1] == "#gpu.thread<linear_dim_0>"


def test_copy_mapping_fails_with_too_few_threads() -> None:
    with pytest.raises(CopyMappingError, match="too few threads"):
        copy_mapping(32, 128, [1024], 16)


def test_gpu_limits() -> None:
    assert check_gpu_limits((2147483647, 1, 1)) is None
    # Upstream also bounds the total number of blocks by 2^31 - 1.
    assert check_gpu_limits((65535, 65535, 1)) is not None
    assert "grid_dims = (1, 65536, 1)" in (check_gpu_limits((1, 65536, 1)) or "")
    assert "block_dims = (1024, 2, 1)" in (check_gpu_limits(block=(1024, 2, 1)) or "")


def test_cuda_pipeline_as_data() -> None:
    passes = cuda_to_llvm("sm_90a", "ptx85", 2, "bin")
    assert 'nvvm-attach-target{chip=sm_90a features="+ptx85" O=2}' in passes
    assert "gpu-module-to-binary{format=bin}" in passes
    order = [p.split("{")[0] for p in PIPELINES["cuda"]]
    for before, after in [
        ("gpu-kernel-outlining", "convert-gpu-to-nvvm"),
        ("convert-gpu-to-nvvm", "gpu-module-to-binary"),
        ("finalize-memref-to-llvm", "gpu-to-llvm"),
        ("gpu-to-llvm", "reconcile-unrealized-casts"),
    ]:
        assert order.index(before) < order.index(after)
