"""GPU schedules written as upstream MLIR writes them, with payloads at any sizes.

The schedule is the plain upstream recipe: `tile_using_forall` to `#gpu.block<y, x>`,
again to `#gpu.thread<y, x>` (`num_threads`, so the thread forall stays static at partial
block tiles), `one_shot_bufferize {bufferize_function_boundaries = true}` with no layout
option (function-boundary memrefs get `strided<[?, ?], offset: ?>`), then
`map_forall_to_blocks ... generate_gpu_launch` and `map_nested_forall_to_threads`.
Shared by the CPU-only PTX tests (tests/unit/gpu) and the device tests (tests/gpu).
"""

from __future__ import annotations

from dataclasses import dataclass

ANY = "!transform.any_op"


@dataclass(frozen=True)
class Case:
    """A payload kind at sizes, with the block tile and the threads of a block."""

    kind: str
    sizes: tuple[int, ...]
    block_tile: tuple[int, int] = (16, 32)
    threads: tuple[int, int] = (8, 32)

    @property
    def text(self) -> str:
        """The payload and its upstream-style schedule, in one module."""
        return f"{PAYLOADS[self.kind](*self.sizes)}\n{self.schedule}"

    @property
    def schedule(self) -> str:
        tm, tn = self.block_tile
        ty, tx = self.threads
        return f"""\
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {ANY} {{transform.consumed}}) {{
    %op = transform.structured.match ops{{["{TARGET_OPS[self.kind]}"]}} in %root : ({ANY}) -> {ANY}
    %tiled, %blocks = transform.structured.tile_using_forall %op tile_sizes [{tm}, {tn}]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : ({ANY}) -> ({ANY}, {ANY})
    %tiled_t, %threads = transform.structured.tile_using_forall %tiled num_threads [{ty}, {tx}]
        (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : ({ANY}) -> ({ANY}, {ANY})
    %bufferized = transform.bufferization.one_shot_bufferize %root
        {{bufferize_function_boundaries = true}} : ({ANY}) -> {ANY}
    %func = transform.structured.match ops{{["func.func"]}} in %bufferized : ({ANY}) -> {ANY}
    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch : ({ANY}) -> {ANY}
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [{tx}, {ty}, 1]
      : ({ANY}) -> {ANY}
    transform.yield
  }}
}}
"""


def matmul_accumulate(m: int, n: int, k: int) -> str:
    """C + A B, C an argument: its buffer is written in place and returned (the result
    is copied out of a fully dynamic-layout argument)."""
    return f"""\
func.func @matmul(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>)
    -> tensor<{m}x{n}xf32> {{
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
      outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}"""


def elementwise(m: int, n: int) -> str:
    """tanh(a * b) - a into a new tensor."""
    t = f"tensor<{m}x{n}xf32>"
    return f"""\
#id = affine_map<(i, j) -> (i, j)>
func.func @elementwise(%a: {t}, %b: {t}) -> {t} {{
  %init = tensor.empty() : {t}
  %y = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%init : {t}) {{
  ^bb0(%x: f32, %w: f32, %o: f32):
    %m = arith.mulf %x, %w : f32
    %t = math.tanh %m : f32
    %d = arith.subf %t, %x : f32
    linalg.yield %d : f32
  }} -> {t}
  return %y : {t}
}}"""


def elementwise_in_place(m: int, n: int) -> str:
    """a * b + c into c, an argument (written in place and returned)."""
    t = f"tensor<{m}x{n}xf32>"
    return f"""\
#id = affine_map<(i, j) -> (i, j)>
func.func @fma(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %y = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%c : {t}) {{
  ^bb0(%x: f32, %w: f32, %o: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }} -> {t}
  return %y : {t}
}}"""


PAYLOADS = {
    "matmul": matmul_accumulate,
    "elementwise": elementwise,
    "elementwise_in_place": elementwise_in_place,
}
TARGET_OPS = {
    "matmul": "linalg.matmul",
    "elementwise": "linalg.generic",
    "elementwise_in_place": "linalg.generic",
}

CASES = (
    Case("matmul", (67, 93, 45)),
    Case("matmul", (129, 31, 77), block_tile=(32, 16), threads=(16, 8)),
    Case("elementwise", (97, 131)),
    Case("elementwise", (5, 1001), block_tile=(4, 128), threads=(4, 32)),
    Case("elementwise_in_place", (33, 257)),
)
"""Odd sizes: partial block tiles and partial thread tiles at every edge."""
