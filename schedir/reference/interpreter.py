"""The op-by-op interpreter at the heart of the reference: values, regions, dispatch.

An SSA value maps to a numpy array (a tensor, a memref, or a scalar as a 0-d array or numpy
scalar). Inside a linalg body the same handlers run on whole arrays at once: a block
argument is bound to every element it takes over the iteration space, so the region is
evaluated once, vectorized, instead of once per element.

Handlers are found by the op's class: the class schedir's context parses the op into
(`schedir.dialects.get_context()`), as xDSL's `backend/llvm/convert_op.py` does.

A *bounded* interpreter holds every float as value + i * error bound (see `bounds`): the
float results of every op are made bounded here (a constant or a fresh buffer is exact,
bound 0), and the handlers that compute floats apply the rules of `bounds`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import cf, func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator

from schedir.diagnostics import InputError, SchedirError, UnsupportedError
from schedir.dialects.syntax import op_location
from schedir.reference import bounds
from schedir.reference.values import elem_of

Handler = Callable[["Interpreter", Operation, list[Any]], Sequence[Any]]
"""Evaluates one op given its evaluated operands; returns one value per result."""

Handlers = Mapping[type[Operation], Handler]
"""The handler of each op class the evaluator supports."""


class Interpreter:
    """Evaluates the functions of one module; `call` runs one on arguments.

    With `bounded`, floats are held with their forward error bounds (module docstring).
    """

    def __init__(self, module: ModuleOp, handlers: Handlers, *, bounded: bool = False) -> None:
        self.module = module
        self.handlers = handlers
        self.bounded = bounded
        self._is_float: dict[Attribute, bool] = {}
        self.env: dict[SSAValue, Any] = {}
        # The iteration indices of the linalg bodies being evaluated, innermost last: one
        # array per loop, broadcastable over the part of the iteration space evaluated.
        self.linalg_indices: list[Sequence[Any]] = []
        self._functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
        }

    def function(self, name: str, at: Operation) -> func.FuncOp:
        """The function called `name`; a call to a missing or external one is an error."""
        fn = self._functions.get(name)
        if fn is None or not fn.body.blocks:
            raise UnsupportedError(
                f"cannot evaluate a call to '@{name}': it has no body", op_location(at)
            )
        return fn

    def call(self, fn: func.FuncOp, args: Sequence[Any]) -> list[Any]:
        """Run `fn` on evaluated arguments in a fresh scope; return its results."""
        saved, self.env = self.env, {}
        try:
            _, results = self.run_region(fn.body, args)
        finally:
            self.env = saved
        return results

    def value(self, v: SSAValue) -> Any:
        """The current value of an SSA value."""
        try:
            return self.env[v]
        except KeyError:
            raise UnsupportedError(
                f"value {v.name_hint or v} used before it was evaluated"
            ) from None

    def bind(self, values: Iterable[SSAValue], evaluated: Iterable[Any]) -> None:
        """Bind SSA values (usually block arguments) to evaluated values."""
        for v, x in zip(values, evaluated, strict=True):
            self.env[v] = x

    def run_region(self, region: Region, args: Sequence[Any]) -> tuple[Operation, list[Any]]:
        """Run a region from its entry block, following `cf` branches between blocks.

        Returns the terminator that left the region and its evaluated operands.
        """
        block = region.blocks[0]
        while True:
            self.bind(block.args, args)
            terminator = self.run_ops(block)
            operands = [self.value(v) for v in terminator.operands]
            if isinstance(terminator, cf.BranchOp):
                block, args = terminator.successor, operands
                continue
            if isinstance(terminator, cf.ConditionalBranchOp):
                block, args = self._cond_branch(terminator, operands)
                continue
            return terminator, operands

    def run_ops(self, block: Block, skip: frozenset[Operation] = frozenset()) -> Operation:
        """Evaluate every op of `block` but its terminator (and `skip`); return the terminator."""
        op = block.first_op
        while op is not None:
            nxt = op.next_op
            if nxt is None and op.has_trait(IsTerminator):
                return op
            if op not in skip:
                self.eval_op(op)
            op = nxt
        raise UnsupportedError(
            "block without a terminator", op_location(block.parent_op() or self.module)
        )

    def eval_op(self, op: Operation) -> None:
        """Evaluate one op and bind its results."""
        handler = self.handlers.get(type(op))
        if handler is None:
            raise UnsupportedError(
                f"the reference evaluator does not support '{op.name}'", op_location(op)
            )
        args = [self.value(v) for v in op.operands]
        try:
            with np.errstate(all="ignore"):
                results = handler(self, op, args)
        except SchedirError as err:
            if err.location is None:
                err.location = op_location(op)
            raise
        except np.exceptions.ComplexWarning:
            # A bounded float reached code that reads it as a plain float (made an error
            # by `evaluate_with_bounds`): its bound would be lost, so say so.
            raise UnsupportedError(
                f"the error bound of '{op.name}' is not implemented", op_location(op)
            ) from None
        except (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError) as err:
            raise InputError(
                f"'{op.name}' op could not be evaluated: {err}", op_location(op)
            ) from None
        if len(results) != len(op.results):
            raise UnsupportedError(
                f"'{op.name}' op evaluated to {len(results)} values for {len(op.results)} results",
                op_location(op),
            )
        if self.bounded:
            results = [
                bounds.bounded(x) if self._float_typed(r.type) else x
                for r, x in zip(op.results, results, strict=True)
            ]
        self.bind(op.results, results)

    def _float_typed(self, t: Attribute) -> bool:
        """Whether values of type `t` hold floats (scalars, tensors, memrefs of floats)."""
        known = self._is_float.get(t)
        if known is None:
            try:
                known = elem_of(t).is_float
            except UnsupportedError:
                known = False
            self._is_float[t] = known
        return known

    def _cond_branch(
        self, op: cf.ConditionalBranchOp, operands: list[Any]
    ) -> tuple[Block, list[Any]]:
        """The successor block and arguments a cf.cond_br takes (operands: cond, then, else)."""
        cond = np.asarray(operands[0])
        if cond.ndim:
            raise UnsupportedError("'cf.cond_br' on a vector condition", op_location(op))
        n_true = len(op.then_arguments)
        if bool(cond):
            return op.then_block, operands[1 : 1 + n_true]
        return op.else_block, operands[1 + n_true :]


def fail(message: str, op: Operation | None = None) -> InputError:
    """An evaluation failure caused by the payload or its inputs, at `op` when given."""
    return InputError(message, op_location(op) if op is not None else None)


def unsupported(message: str, op: Operation | None = None) -> UnsupportedError:
    """A form of an op the reference does not evaluate, at `op` when given."""
    return UnsupportedError(message, op_location(op) if op is not None else None)


__all__ = ["Handler", "Handlers", "Interpreter", "fail", "unsupported"]
