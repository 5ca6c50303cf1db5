"""Compile memref-level MLIR written by hand down to a callable, for the LLVM tests.

`compile_function(text)` runs the tail of the CPU pipeline (lower-affine onwards: the
lowering to the LLVM dialect), translates to LLVM IR, JIT-compiles it and wraps the
entry's `_mlir_ciface_` function in a `CpuFunction` whose specs come from the entry's
signature. Also checks that this pipeline is the one `schedir.lowering.pipelines` runs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import ModuleOp, UnitAttr

from schedir.abi import ArgSpec, MemRefSpec, ScalarSpec
from schedir.cpu import CpuFunction, JitModule
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.dialects.types import entry_signature, find_entry
from schedir.lowering.pipelines import CPU_TO_LLVM
from schedir.lowering.to_llvm_ir import translate_module
from schedir.pipeline import parse_pass_pipeline, run_passes

LLVM_PIPELINE: tuple[str, ...] = (
    "lower-affine",
    "convert-scf-to-cf",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
)


def spec_of(a: ArgSpec) -> MemRefSpec | ScalarSpec:
    if a.shape is None:
        return ScalarSpec(a.dtype)
    return MemRefSpec(a.dtype, tuple(None if d < 0 else d for d in a.shape))


@dataclass
class Compiled:
    """Everything a test may look at: the lowered module, its IR, the callables."""

    module: ModuleOp
    llvm_ir: str
    jit: JitModule

    @property
    def llvm_dialect(self) -> str:
        return print_op(self.module)

    def function(self, text_module: str, name: str) -> CpuFunction:
        """Function `name` of the source `text_module`, its specs read from its signature."""
        sig = entry_signature(find_entry(parse_module(text_module), name))
        return self.function_with(
            name, [spec_of(a) for a in sig.args], [spec_of(r) for r in sig.results]
        )

    def function_with(
        self,
        name: str,
        params: list[MemRefSpec | ScalarSpec],
        results: list[MemRefSpec | ScalarSpec],
    ) -> CpuFunction:
        """Function `name` with the given specs (no parsing)."""
        return CpuFunction(self.jit, name, params, results)


def compile_module(text: str, *, opt_level: int = 3) -> Compiled:
    """Lower every function of `text` with the C interface and JIT the module."""
    ctx = get_context()
    module = parse_module(text, ctx=ctx)
    for op in module.ops:
        if op.name == "func.func" and op.regions[0].blocks:
            op.attributes["llvm.emit_c_interface"] = UnitAttr()
    run_passes(ctx, module, parse_pass_pipeline(",".join(LLVM_PIPELINE)))
    llvm_ir = translate_module(module)
    return Compiled(module, llvm_ir, JitModule(llvm_ir, opt_level=opt_level))


def compile_function(text: str, entry: str | None = None, *, opt_level: int = 3) -> CpuFunction:
    """The entry of `text` (None: its only public function), compiled and callable."""
    name = find_entry(parse_module(text), entry).sym_name.data
    return compile_module(text, opt_level=opt_level).function(text, name)


def test_pipeline_is_the_cpu_pipelines_tail() -> None:
    assert CPU_TO_LLVM[-len(LLVM_PIPELINE) :] == LLVM_PIPELINE


def test_compile_function_runs_a_scalar_function() -> None:
    f = compile_function(
        "func.func @twice(%x: f64) -> f64 {\n  %r = arith.addf %x, %x : f64\n  return %r : f64\n}\n"
    )
    assert f(1.25) == [np.float64(2.5)]
