"""`CpuExecutable`: the entry function of a program compiled for the CPU, called on numpy arrays.

The driver (`schedir.pipeline`) builds it from the LLVM IR of the `llvm-ir` stage and the
entry's `schedir.abi.EntrySignature`. It checks the arguments against the signature (dtype,
rank, static sizes, scalars that fit: `schedir.abi.scalar_value`), allocates the
out-parameters (statically shaped results) unless the caller gives them, and returns every
result in order.

Inputs are never modified: a memref argument the compiled function may write (a schedule
that bufferizes with `bufferize_function_boundaries = true` lets a linalg op accumulate
into a function argument in place) is passed as a private copy, unless the function has
no results (then its memref arguments are its outputs by design, written in place). `written` lists those
arguments (the driver computes it from the bufferized function with
`schedir.lowering.gpu.written_arguments`); None means unknown, and then every memref
argument is copied.

This module must not import xDSL.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from schedir.abi import (
    DYNAMIC,
    ArgSpec,
    EntrySignature,
    MemRefSpec,
    argument_type,
    is_out_param,
    scalar_value,
)
from schedir.cpu.jit import CIFACE_PREFIX, JitModule, ObjectCode
from schedir.cpu.runtime import CpuFunction
from schedir.diagnostics import Diagnostic, InputError
from schedir.options import CompileOptions


@dataclass(frozen=True)
class CpuExecutable:
    """A JIT-compiled entry function and the ABI to call it on numpy arrays.

    The entry's arguments are passed in place, but those in `written` (all memref arguments
    when `written` is None: unknown) as private copies, so the caller's arrays are never
    modified; statically shaped results are written into arrays allocated here (trailing
    out-params, see `buffer-results-to-out-params`); dynamically shaped results come back
    from the kernel.
    """

    signature: EntrySignature
    function: CpuFunction
    written: frozenset[int] | None = None

    @staticmethod
    def build(
        llvm_ir: str,
        signature: EntrySignature,
        options: CompileOptions,
        on_diagnostic: Callable[[Diagnostic], None] | None = None,
        written: Collection[int] | None = None,
        code: ObjectCode | None = None,
    ) -> CpuExecutable:
        """JIT-compile `llvm_ir` and bind its `_mlir_ciface_` wrapper of the entry (warnings
        of the JIT go to `on_diagnostic`); `written` are the indices of the arguments the
        function may write (None: unknown, every memref argument is copied on each call);
        `code`: its object code compiled already (`schedir.cpu.jit.object_code`), only
        loaded here."""
        params = [*signature.args, *signature.out_params]
        results = [r for r in signature.results if not is_out_param(r)]
        jit = JitModule(
            llvm_ir,
            opt_level=options.opt_level,
            cpu_name=options.cpu_name,
            cpu_features=options.cpu_features,
            isolated=options.isolate_llvm,
            on_diagnostic=on_diagnostic,
            code=code,
        )
        function = CpuFunction(jit, f"{CIFACE_PREFIX}{signature.name}", params, results)
        return CpuExecutable(signature, function, None if written is None else frozenset(written))

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
        """A call with fixed arguments and outputs, for timing (written arguments are copied
        once: repeated calls work on the same private copy, as on cuda)."""
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
            _check_arg(i, spec, value, self._copies(i))
            for i, (spec, value) in enumerate(zip(sig.args, args, strict=True))
        ]
        if outputs is None:
            outputs = [np.empty(spec.shape, dtype=spec.dtype) for spec in sig.out_params]
        params += outputs
        return params

    def _copies(self, index: int) -> bool:
        """Whether argument `index` is passed as a private copy.

        A function without results can only produce its output through its memref
        arguments: those are out-parameters by design (upstream's memref calling
        convention), written in place. A function with results gets a copy of every
        argument it may write (all memref arguments while `written` is unknown).
        """
        if not self.signature.results:
            return False
        return self.written is None or index in self.written

    def _collect(self, params: list[Any], returned: Sequence[Any]) -> list[np.ndarray]:
        outs = iter(params[len(self.signature.args) :])
        rets = iter(returned)
        return [
            next(outs) if is_out_param(spec) else np.asarray(next(rets), dtype=spec.dtype)
            for spec in self.signature.results
        ]


def _check_arg(index: int, spec: ArgSpec, value: Any, written: bool) -> Any:
    """The argument as the runtime takes it (a private copy when the function may write
    it); InputError naming the argument if it does not fit `spec`."""
    if not isinstance(spec, MemRefSpec):
        return scalar_value(index, spec, value).item()
    what = argument_type(spec)
    if not isinstance(value, np.ndarray):
        raise InputError(
            f"argument {index}: expected a numpy array ({what}), got {type(value).__name__}"
        )
    if value.dtype != spec.dtype:
        # Never cast: a cast may change the values (a wider int wraps, a float rounds).
        raise InputError(
            f"argument {index}: expected an array of dtype {spec.dtype} ({what}), got {value.dtype}"
        )
    if value.ndim != spec.rank or any(
        want != DYNAMIC and want != got for want, got in zip(spec.shape, value.shape, strict=True)
    ):
        shape = "(" + ", ".join("?" if d == DYNAMIC else str(d) for d in spec.shape) + ")"
        raise InputError(
            f"argument {index}: expected shape {shape} ({what}), got {tuple(value.shape)}"
        )
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
    if written or not value.flags.c_contiguous:
        return value.copy(order="C")
    return value


__all__ = ["CpuExecutable"]
