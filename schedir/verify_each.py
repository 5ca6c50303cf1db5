"""Per-step checking of a schedule (`schedir-opt --verify-each-transform`,
`CompileOptions.verify_each`): run the payload after each top-level transform op and compare
it with the reference.

It sits on top of the pipeline (it lowers and JIT-compiles every step with the cpu stages of
`schedir.pipeline`), beside the drivers that use it (`schedir.api`); the numerics it checks
with are `schedir.reference`'s (`random_inputs`, `evaluate_with_bounds`, `compare`, `nan_filled`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from schedir import reference
from schedir.abi import EntrySignature
from schedir.cpu import CpuExecutable
from schedir.diagnostics import LoweringError, Note, TransformError, UnsupportedError
from schedir.dialects.syntax import op_location
from schedir.dialects.types import entry_signature, find_entry
from schedir.options import CompileOptions
from schedir.pipeline import LLVM_IR, Compilation, Entry, emit, strip_schedule


@dataclass
class StepChecker:
    """Per-step checking of a schedule: run the payload after each top-level transform op.

    The untransformed payload is evaluated once by the reference on seeded random inputs;
    after every top-level transform op a copy of the payload (schedule stripped) is lowered,
    JIT-compiled and run on the same inputs. The first op after which the results differ
    gets a definite error at its line with the size of the difference. Steps whose IR the
    CPU pipeline cannot run (yet) are recorded in `skipped`, never silently passed.
    """

    ctx: Context
    signature: EntrySignature
    inputs: list[np.ndarray]
    expected: list[reference.Expected]
    options: CompileOptions
    skipped: list[tuple[Operation, str]]

    @staticmethod
    def for_module(
        ctx: Context, module: ModuleOp, entry: str | None, options: CompileOptions, seed: int = 0
    ) -> StepChecker:
        payload = module.clone()
        strip_schedule(payload)
        signature = entry_signature(find_entry(payload, entry))
        inputs = reference.random_inputs(signature, seed)
        expected = reference.evaluate_with_bounds(payload, signature.name, inputs)
        return StepChecker(ctx, signature, inputs, expected, options, [])

    def __call__(self, transform_op: Operation, root: Operation) -> None:
        assert isinstance(root, ModuleOp)
        payload = root.clone()
        strip_schedule(payload)
        try:
            step = Compilation(
                self.ctx, self.options, module=payload, entry=Entry(self.signature.name)
            )
            llvm_ir = emit(step, LLVM_IR.name, "cpu")
            assert isinstance(llvm_ir, str)
            executable = CpuExecutable.build(llvm_ir, self.signature, self.options)
        except (UnsupportedError, LoweringError) as err:
            self.skipped.append((transform_op, err.message))
            return
        outputs = [reference.nan_filled(spec) for spec in self.signature.out_params]
        results = executable.run(self.inputs, outputs=outputs)
        for index, (spec, got, want) in enumerate(
            zip(self.signature.results, results, self.expected, strict=True)
        ):
            check = reference.compare(got, want, spec.dtype)
            if check.ok:
                continue
            which = f"result #{index}" if len(results) > 1 else "the result"
            raise TransformError(
                f"this transform op changes {which} of @{self.signature.name}: "
                f"max_abs_err={check.max_abs_err:.3g} max_rel_err={check.max_rel_err:.3g} "
                f"({check.num_mismatches} of {got.size} elements differ)",
                op_location(transform_op),
                (Note(check.message),) if check.message else (),
            )


__all__ = ["StepChecker"]
