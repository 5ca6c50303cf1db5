"""`CpuExecutable`: the entry function of a program compiled for the CPU, called on numpy arrays.

The driver (`schedir.pipeline`) builds it from the LLVM IR of the `llvm-ir` stage and the
entry's `schedir.abi.EntrySignature`. It checks the arguments against the signature (dtype,
rank, static sizes, scalars that fit), passes them as read-only memrefs, allocates the
out-parameters (statically shaped results) unless the caller gives them, and returns every
result in order.

This module must not import xDSL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from schedir.abi import DYNAMIC, ArgSpec, EntrySignature, MemRefSpec, is_out_param
from schedir.cpu.jit import CIFACE_PREFIX, JitModule
from schedir.cpu.runtime import CpuFunction
from schedir.diagnostics import Diagnostic, InputError
from schedir.options import CompileOptions


@dataclass(frozen=True)
class CpuExecutable:
    """A JIT-compiled entry function and the ABI to call it on numpy arrays.

    The entry's tensor arguments are passed as read-only memrefs; statically shaped results
    are written into arrays allocated here (trailing out-params, see
    `buffer-results-to-out-params`); dynamically shaped results come back from the kernel.
    """

    signature: EntrySignature
    function: CpuFunction

    @staticmethod
    def build(
        llvm_ir: str,
        signature: EntrySignature,
        options: CompileOptions,
        on_diagnostic: Callable[[Diagnostic], None] | None = None,
    ) -> CpuExecutable:
        """JIT-compile `llvm_ir` and bind its `_mlir_ciface_` wrapper of the entry
        (warnings of the JIT go to `on_diagnostic`)."""
        params = [*signature.args, *signature.out_params]
        results = [r for r in signature.results if not is_out_param(r)]
        jit = JitModule(
            llvm_ir,
            opt_level=options.opt_level,
            cpu_name=options.cpu_name,
            cpu_features=options.cpu_features,
            isolated=options.isolate_llvm,
            on_diagnostic=on_diagnostic,
        )
        return CpuExecutable(
            signature, CpuFunction(jit, f"{CIFACE_PREFIX}{signature.name}", params, results)
        )

    def run(
        self, args: Sequence[Any], *, outputs: Sequence[np.ndarray] | None = None
    ) -> list[np.ndarray]:
        """Call with `args` (checked against the signature); all results, in order.

        `outputs` are the out-parameters to write (e.g. NaN-filled for checking); by
        default new uninitialized arrays.
        """
        params = self._params(args, outputs)
        return self._collect(params, self.function(*params))

    def bind(self, args: Sequence[Any]) -> Callable[[], object]:
        """A call with fixed arguments and outputs, for timing."""
        params = self._params(args, None)
        return lambda: self.function(*params)

    def _params(self, args: Sequence[Any], outputs: Sequence[np.ndarray] | None) -> list[Any]:
        sig = self.signature
        if len(args) != len(sig.args):
            raise InputError(
                f"@{sig.name} takes {len(sig.args)} argument(s) "
                f"({', '.join(a.mlir_type for a in sig.args)}), got {len(args)}"
            )
        params = [
            _check_arg(i, spec, value)
            for i, (spec, value) in enumerate(zip(sig.args, args, strict=True))
        ]
        if outputs is None:
            outputs = [np.empty(spec.shape, dtype=spec.dtype) for spec in sig.out_params]
        params += outputs
        return params

    def _collect(self, params: list[Any], returned: Sequence[Any]) -> list[np.ndarray]:
        outs = iter(params[len(self.signature.args) :])
        rets = iter(returned)
        return [
            next(outs) if is_out_param(spec) else np.asarray(next(rets), dtype=spec.dtype)
            for spec in self.signature.results
        ]


def _check_arg(index: int, spec: ArgSpec, value: Any) -> Any:
    """The argument as the runtime takes it; InputError if it does not fit `spec`."""
    if not isinstance(spec, MemRefSpec):
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise InputError(
                f"argument {index}: expected a scalar of type {spec.mlir_type}, got an array"
            )
        return np.asarray(value).astype(spec.dtype, casting="same_kind").item()
    array = value if isinstance(value, np.ndarray) else np.asarray(value)
    if array.dtype != spec.dtype:
        raise InputError(
            f"argument {index}: expected an array of dtype {spec.dtype} ({spec.mlir_type}), got {array.dtype}"
        )
    if array.ndim != spec.rank or any(
        want != DYNAMIC and want != got for want, got in zip(spec.shape, array.shape, strict=True)
    ):
        shape = "(" + ", ".join("?" if d == DYNAMIC else str(d) for d in spec.shape) + ")"
        raise InputError(
            f"argument {index}: expected shape {shape} ({spec.mlir_type}), got {tuple(array.shape)}"
        )
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
    return array if array.flags.c_contiguous else array.copy(order="C")


__all__ = ["CpuExecutable"]
