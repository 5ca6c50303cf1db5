"""Loop outlining (upstream's `transform.loop.outline`: `wrapInExecuteRegion` then
`outlineSingleBlockRegion`, mlir/lib/Dialect/SCF/Utils/Utils.cpp).

The loop moves into a new function placed before the function holding it; the values it
uses from above become the function's arguments (index constants are also re-created
inside, as upstream does), its results the function's results; a `func.call` replaces it:

    func.func @f(%A: memref<7xf32>, %n: index) {
      %c1 = arith.constant 1 : index
      scf.for %i = %c1 to %n step %c1 {
        ... %A ...
  becomes
    func.func @body(%arg0: memref<7xf32>, %arg1: index, %arg2: index) {
      %c1 = arith.constant 1 : index
      scf.for %i = %c1 to %arg2 step %c1 { ... %arg0 ... }
      return
    }
    func.func @f(...) { %c1 = ...; func.call @body(%A, %c1, %n) ... }

The new name is made unique in the nearest symbol table (`name_0`, `name_1`, ... as
upstream's SymbolTable::insert renames).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import SymbolOpInterface


class OutlineFailure(Exception):
    """The op cannot be outlined (not exactly one region, or no enclosing function)."""


@dataclass(frozen=True)
class Outlined:
    """The new function and the call that replaced the loop."""

    function: func.FuncOp
    call: func.CallOp


def outline_loop(loop: Operation, name: str) -> Outlined:
    """Move `loop` into a new function `name` (uniqued) and call it in its place."""
    if len(loop.regions) != 1:
        raise OutlineFailure
    enclosing = loop.parent_op()
    while enclosing is not None and not isinstance(enclosing, func.FuncOp):
        enclosing = enclosing.parent_op()
    if enclosing is None:
        raise OutlineFailure
    table = enclosing.parent_op()
    captures = _captured_values(loop)
    body = Block(arg_types=[v.type for v in captures])
    callee = func.FuncOp(
        _unique_name(table, name),
        ([v.type for v in captures], list(loop.result_types)),
        Region(body),
    )
    callee.location = loop.location
    parent = loop.parent_block()
    assert parent is not None
    call = func.CallOp(callee.sym_name.data, captures, list(loop.result_types))
    parent.insert_op_before(call, loop)
    for old, new in zip(loop.results, call.results, strict=True):
        old.replace_all_uses_with(new)
    loop.detach()
    body.add_op(loop)
    body.add_op(func.ReturnOp(*loop.results))
    # Index constants are re-created in the function (its argument stays, unused).
    for value, argument in zip(captures, body.args, strict=True):
        replacement: SSAValue = argument
        if isinstance(value.owner, arith.ConstantOp) and isinstance(value.type, IndexType):
            constant = value.owner.clone()
            body.insert_op_before(constant, loop)
            replacement = constant.results[0]
        for use in list(value.uses):
            if callee.is_ancestor(use.operation):
                use.operation.operands[use.index] = replacement
    enclosing_block = enclosing.parent_block()
    assert enclosing_block is not None
    enclosing_block.insert_op_before(callee, enclosing)
    return Outlined(callee, call)


def _captured_values(loop: Operation) -> list[SSAValue]:
    """The values `loop` uses from above, nested ops first (post-order, as
    upstream's `getUsedValuesDefinedAbove` walks)."""
    seen: list[SSAValue] = []
    for op in loop.walk(region_first=True):
        for operand in op.operands:
            if operand not in seen and not _defined_inside(operand, loop):
                seen.append(operand)
    return seen


def _defined_inside(value: SSAValue, loop: Operation) -> bool:
    owner = value.owner
    op = owner if isinstance(owner, Operation) else owner.parent_op()
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def _unique_name(table: Operation | None, name: str) -> str:
    """`name`, or `name_<k>` for the first k free in `table`."""
    if table is None:
        return name
    taken: set[str] = set()
    for op in table.regions[0].block.ops:
        symbol = op.properties.get("sym_name", op.attributes.get("sym_name"))
        if op.get_trait(SymbolOpInterface) is not None and isinstance(symbol, StringAttr):
            taken.add(symbol.data)
    if name not in taken:
        return name
    k = 0
    while f"{name}_{k}" in taken:
        k += 1
    return f"{name}_{k}"


__all__ = ["OutlineFailure", "Outlined", "outline_loop"]
