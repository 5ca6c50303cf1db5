"""`CudaExecutable`: the entry function of a program compiled for CUDA, called on arrays.

A CUDA program is host code (the entry function, lowered by `gpu-to-llvm`, with its kernels
embedded as PTX) that runs on the CPU and calls upstream's `mgpu*` runtime API. The driver
(`schedir.pipeline`) builds the executable from the LLVM IR of the `llvm-ir` stage: the host
code is JIT-compiled by the CPU JIT (`schedir.cpu.jit`) with the `mgpu*` symbols resolved to
a `schedir.gpu.host.HostRuntime`, and its packed C wrapper becomes a `HostFunction`.

This module must not import xDSL (nor cuda-python: the runtime loads it on first use).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from schedir.abi import EntrySignature, ScalarSpec, is_out_param, scalar_value
from schedir.cpu.jit import CIFACE_PREFIX, PACKED_PREFIX, JitModule, ObjectCode
from schedir.diagnostics import InputError, UnsupportedError
from schedir.gpu.host import BoundHostCall, HostFunction, HostRuntime
from schedir.gpu.memory import DeviceArray
from schedir.options import CompileOptions


@dataclass(frozen=True)
class CudaExecutable:
    """A CUDA program: its host code JIT-compiled for this CPU, calling the kernels through
    the `mgpu*` runtime of `schedir.gpu.host`, and the ABI to call it on arrays.

    Arguments are numpy arrays (copied to the device) or device arrays (used in place;
    copied first when the program writes them, see `written`); scalars must fit their type
    (`schedir.abi.scalar_value`, the CPU's rule: never wrapped); statically shaped results
    are device buffers allocated per call and returned as numpy arrays.
    """

    signature: EntrySignature
    function: HostFunction
    """The host entry, called on the arguments and the output buffers."""
    jit: JitModule
    """The JIT module holding the host code (the function holds it too: see
    `HostFunction`'s owner)."""

    @staticmethod
    def build(
        llvm_ir: str,
        signature: EntrySignature,
        options: CompileOptions,
        written: Collection[int] = (),
        runtime: HostRuntime | None = None,
        code: ObjectCode | None = None,
    ) -> CudaExecutable:
        """JIT-compile the host code `llvm_ir` against `runtime` (a new `HostRuntime` by
        default; tests pass one that records the runtime calls). `written` are the indices
        of the arguments the program may write. `code`: the host code's object code, made
        elsewhere for this host (`schedir.cpu.jit.object_code`): it is only loaded."""
        for spec in signature.results:
            if not is_out_param(spec):
                raise UnsupportedError(
                    f"@{signature.name} returns {spec.mlir_type}: dynamically shaped or scalar "
                    "results are not supported on the cuda target yet"
                )
        params = [*signature.args, *signature.results]
        runtime = runtime if runtime is not None else HostRuntime()
        jit = JitModule(
            llvm_ir,
            opt_level=options.opt_level,
            cpu_name=options.cpu_name,
            cpu_features=options.cpu_features,
            extra_symbols=runtime.symbols(),
            code=code,
        )
        address = jit.address(f"{PACKED_PREFIX}{CIFACE_PREFIX}{signature.name}")
        outputs = range(len(signature.args), len(params))
        function = HostFunction(
            address,
            params,
            runtime,
            name=signature.name,
            outputs=outputs,
            written=written,
            owner=jit,
        )
        return CudaExecutable(signature, function, jit)

    def run(
        self, args: Sequence[Any], *, outputs: Sequence[np.ndarray] | None = None
    ) -> list[np.ndarray]:
        """Call with `args` (numpy or device arrays, scalars); the results as numpy arrays.

        `outputs` give the initial contents of the result buffers (e.g. NaN-filled for
        checking); by default they are uninitialized device buffers.
        """
        return self.function(*self._checked(args), outputs=outputs)

    def run_device(self, args: Sequence[Any]) -> list[DeviceArray]:
        """Call with `args`; the results stay on the device (`DeviceArray`s)."""
        return self.function.run_device(*self._checked(args))

    def bind(self, args: Sequence[Any]) -> BoundHostCall:
        """A call with fixed arguments that queues one run without waiting (for timing)."""
        return self.function.bind(*self._checked(args))

    def _checked(self, args: Sequence[Any]) -> list[Any]:
        """`args` with their count checked and every scalar converted exactly (InputError
        naming the argument when one does not fit its type); arrays are checked by the
        host function."""
        sig = self.signature
        if len(args) != len(sig.args):
            raise InputError(f"@{sig.name} takes {len(sig.args)} argument(s), got {len(args)}")
        return [
            scalar_value(i, spec, value) if isinstance(spec, ScalarSpec) else value
            for i, (spec, value) in enumerate(zip(sig.args, args, strict=True))
        ]


__all__ = ["CudaExecutable"]
