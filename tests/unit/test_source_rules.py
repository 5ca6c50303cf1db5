"""Rules on the source text of schedir, checked on the AST and the comments.

- Lowerings (`schedir/lowering/`) and rewrites (`schedir/transform/rewrites/`) dispatch
  on op classes, never on op-name strings: no `op.name == "arith.addf"`, no
  `op.name in ("scf.for", ...)`, no `op.name.startswith("arith.")`, no
  `match op.name: case "scf.for":`, no table keyed by op names (`_HANDLERS[op.name]`),
  also through a variable (`name = op.name`) or the dialect part
  (`op.name.split(".")[0] == "arith"`). Where an op name is data (printed text, a
  diagnostic, a name the user wrote in a schedule) none of these forms is needed.
- Every `type: ignore` (and `pyright: ignore`) comment names its rules in brackets and
  gives a reason after them on the same line: `# type: ignore[attr-defined]  # reason`.

The checkers run on small snippets too (the tests at the end), to prove each one fails.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "schedir"
DISPATCH_FREE = (PACKAGE / "lowering", PACKAGE / "transform" / "rewrites")

OP_NAME = re.compile(r"[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_.]*")
"""An op name as MLIR spells it: `dialect.op` (`arith.addf`, `llvm.intr.fma`)."""
DIALECT_PREFIX = re.compile(r"[a-z_][a-z0-9_]*\.")
"""The start of an op name: `arith.`, `llvm.intr.`."""
DIALECT = re.compile(r"[a-z_][a-z0-9_]*")


# --- op-name dispatch --------------------------------------------------------------------


class _Scope:
    """What a module or function binds by plain assignment: op-name values (`name = op.name`),
    dialect parts (`dialect = name.split(".")[0]`) and literal collections."""

    def __init__(self, body: list[ast.stmt], parent: _Scope | None = None) -> None:
        self.parent = parent
        self.values: dict[str, ast.expr] = {}
        for node in _shallow_walk(body):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.values[target.id] = node.value
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.value is not None
            ):
                self.values[node.target.id] = node.value

    def lookup(self, name: str) -> ast.expr | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope.values[name]
            scope = scope.parent
        return None


def _shallow_walk(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of `body`; a nested function or class is yielded, not entered."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _is_class_name_attr(node: ast.expr) -> bool:
    """`SomeOp.name` or `arith.AddfOp.name`: an op class's name."""
    if not (isinstance(node, ast.Attribute) and node.attr == "name"):
        return False
    owner = node.value
    last = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
    return last[:1].isupper()


def _is_op_name(node: ast.expr, scope: _Scope, depth: int = 0) -> bool:
    """Whether `node` evaluates to an op's name: `x.name` or a variable bound to one."""
    if isinstance(node, ast.Attribute) and node.attr == "name":
        return not _is_class_name_attr(node)
    if isinstance(node, ast.Name) and depth < 8:
        value = scope.lookup(node.id)
        return value is not None and _is_op_name(value, scope, depth + 1)
    return False


def _is_dialect_part(node: ast.expr, scope: _Scope, depth: int = 0) -> bool:
    """`E.split(".")[0]` / `E.partition(".")[0]` of an op name E, or a variable bound to it."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        call = node.value
        return (
            node.slice.value == 0
            and isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("split", "partition", "rsplit")
            and _is_op_name(call.func.value, scope)
        )
    if isinstance(node, ast.Name) and depth < 8:
        value = scope.lookup(node.id)
        return value is not None and _is_dialect_part(value, scope, depth + 1)
    return False


def _elements(node: ast.expr, scope: _Scope, depth: int = 0) -> list[ast.expr] | None:
    """The elements (keys for a dict) of a literal collection, through names, `frozenset(...)`
    and `|`/`+`; None when `node` is not one."""
    if depth > 8:
        return None
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return list(node.elts)
    if isinstance(node, ast.Dict):
        return [k for k in node.keys if k is not None]
    if isinstance(node, ast.Name):
        value = scope.lookup(node.id)
        return None if value is None else _elements(value, scope, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr | ast.Add):
        left, right = _elements(node.left, scope, depth + 1), _elements(node.right, scope, depth)
        return None if left is None and right is None else (left or []) + (right or [])
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("frozenset", "set", "tuple", "list", "dict")
        and len(node.args) == 1
    ):
        return _elements(node.args[0], scope, depth + 1)
    return None


def _literal(node: ast.expr, pattern: re.Pattern[str]) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and pattern.fullmatch(node.value) is not None
    )


def _names_an_op(node: ast.expr) -> bool:
    """An op-name literal, or an op class's `.name`."""
    return _literal(node, OP_NAME) or _is_class_name_attr(node)


def _holds_op_names(node: ast.expr, scope: _Scope) -> bool:
    elements = _elements(node, scope)
    return elements is not None and any(_names_an_op(e) for e in elements)


def _holds_dialects(node: ast.expr, scope: _Scope) -> bool:
    elements = _elements(node, scope)
    return elements is not None and any(_literal(e, DIALECT) for e in elements)


def _pattern_literals(pattern: ast.pattern) -> Iterator[ast.expr]:
    """The values a `case` pattern compares with."""
    if isinstance(pattern, ast.MatchValue):
        yield pattern.value
    elif isinstance(pattern, ast.MatchOr):
        for alternative in pattern.patterns:
            yield from _pattern_literals(alternative)
    elif isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        yield from _pattern_literals(pattern.pattern)


def _dispatches(node: ast.AST, scope: _Scope) -> str | None:
    """What kind of op-name dispatch `node` is, or None."""
    if isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands[:-1], operands[1:], strict=True):
            if isinstance(op, ast.Eq | ast.NotEq):
                for a, b in ((left, right), (right, left)):
                    if _is_op_name(a, scope) and _names_an_op(b):
                        return "compares an op name"
                    if _is_dialect_part(a, scope) and _literal(b, DIALECT):
                        return "compares an op's dialect"
            if isinstance(op, ast.In | ast.NotIn):
                if _is_op_name(left, scope) and _holds_op_names(right, scope):
                    return "looks an op name up in a collection of op names"
                if _is_dialect_part(left, scope) and _holds_dialects(right, scope):
                    return "looks an op's dialect up in a collection of dialects"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        func = node.func
        if func.attr == "startswith" and _is_op_name(func.value, scope) and node.args:
            prefixes = _elements(node.args[0], scope) or [node.args[0]]
            if any(_literal(p, DIALECT_PREFIX) or _literal(p, OP_NAME) for p in prefixes):
                return "tests an op name's dialect prefix"
        if (
            func.attr == "get"
            and node.args
            and _is_op_name(node.args[0], scope)
            and _holds_op_names(func.value, scope)
        ):
            return "looks an op name up in a table keyed by op names"
    if (
        isinstance(node, ast.Subscript)
        and _is_op_name(node.slice, scope)
        and _holds_op_names(node.value, scope)
    ):
        return "looks an op name up in a table keyed by op names"
    if isinstance(node, ast.Match):
        op_name, dialect = _is_op_name(node.subject, scope), _is_dialect_part(node.subject, scope)
        for case in node.cases:
            values = list(_pattern_literals(case.pattern))
            if op_name and any(_names_an_op(v) for v in values):
                return "matches an op name against op-name cases"
            if dialect and any(_literal(v, DIALECT) for v in values):
                return "matches an op's dialect against dialect cases"
    return None


def op_name_dispatch(source: str, filename: str = "<source>") -> list[str]:
    """`file:line: what: source` for every op-name dispatch in `source`."""
    tree = ast.parse(source, filename)
    lines = source.splitlines()
    found: list[tuple[int, str]] = []

    def visit(body: list[ast.stmt], scope: _Scope) -> None:
        for node in _shallow_walk(body):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(node.body, _Scope(node.body, scope))
            else:
                what = _dispatches(node, scope)
                if what is not None and isinstance(node, ast.expr | ast.stmt):
                    found.append((node.lineno, what))

    # The nested definitions of the module body are reached by `visit` itself.
    visit(tree.body, _Scope(tree.body))
    return [
        f"{filename}:{line}: {what}: {lines[line - 1].strip()}" for line, what in sorted(set(found))
    ]


# --- type: ignore ------------------------------------------------------------------------

SUPPRESSION = re.compile(r"\b(type|pyright):\s*ignore\b")
WELL_FORMED = re.compile(
    r"\b(type|pyright):\s*ignore\[[\w-]+(\s*,\s*[\w-]+)*\]\s*#\s*(?P<reason>.*\w.*)$"
)


def bare_type_ignores(source: str, filename: str = "<source>") -> list[str]:
    """`file:line: comment` for every `type: ignore` / `pyright: ignore` comment without
    its rules in brackets and a reason after them."""
    problems = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT or not SUPPRESSION.search(token.string):
            continue
        if not WELL_FORMED.search(token.string):
            problems.append(f"{filename}:{token.start[0]}: {token.string}")
    return problems


# --- the checks on schedir ---------------------------------------------------------------


def _sources(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


def test_lowerings_and_rewrites_dispatch_by_class() -> None:
    problems = [
        problem
        for path in _sources(*DISPATCH_FREE)
        for problem in op_name_dispatch(path.read_text(), str(path.relative_to(PACKAGE.parent)))
    ]
    assert not problems, f"{len(problems)} op-name dispatches:\n" + "\n".join(problems)


def test_type_ignores_carry_rule_and_reason() -> None:
    problems = [
        problem
        for path in _sources(PACKAGE)
        for problem in bare_type_ignores(path.read_text(), str(path.relative_to(PACKAGE.parent)))
    ]
    assert not problems, (
        f"{len(problems)} type: ignore comments without `[rule]  # reason`:\n" + "\n".join(problems)
    )


# --- the checkers fail where they must ---------------------------------------------------

DISPATCH = """
import arith

_HANDLERS = {"arith.addf": 1, arith.MulfOp.name: 2}
_VIEWS = frozenset({"memref.subview", "memref.cast"}) | {"memref.view"}
_PURE = ("arith", "math")


def f(op, other):
    if op.name == "arith.addf":
        pass
    if "scf.for" != other.op.name:
        pass
    if op.name in ("memref.alloc", "memref.alloca"):
        pass
    if op.name not in _VIEWS:
        pass
    if op.name.startswith("gpu."):
        pass
    if op.name.startswith(("llvm.", "nvvm.")):
        pass
    handler = _HANDLERS.get(op.name)
    value = _HANDLERS[op.name]
    name = op.name
    match name:
        case "cf.br" | "cf.cond_br":
            pass
    dialect = name.split(".", 1)[0]
    if dialect in _PURE or dialect == "vector":
        pass
    if op.name == arith.AddfOp.name:
        pass
    return [o for o in op.walk() if o.name in {"affine.for"}]
"""


def test_op_name_dispatch_is_found_in_every_form() -> None:
    found = [p.split(": ", 2)[1] + " @" + p.split(":")[1] for p in op_name_dispatch(DISPATCH)]
    assert found == [
        "compares an op name @10",
        "compares an op name @12",
        "looks an op name up in a collection of op names @14",
        "looks an op name up in a collection of op names @16",
        "tests an op name's dialect prefix @18",
        "tests an op name's dialect prefix @20",
        "looks an op name up in a table keyed by op names @22",
        "looks an op name up in a table keyed by op names @23",
        "matches an op name against op-name cases @25",
        "compares an op's dialect @29",
        "looks an op's dialect up in a collection of dialects @29",
        "compares an op name @31",
        "looks an op name up in a collection of op names @33",
    ]


def test_names_that_are_data_are_not_dispatch() -> None:
    source = """
import scf

def f(op, ops, user_names):
    if isinstance(op, scf.ForOp):
        pass
    if op.sym_name.data == "main":
        pass
    if pass_.name == "canonicalize":
        pass
    if op.name in user_names:
        pass
    message = f"{op.name} is not supported"
    if op.name == "arith":
        pass
    if op.name.startswith("_"):
        pass
    if fn.name == "arith.addf" and False:
        pass
    return [o for o in ops if "matmul" in o.name]
"""
    found = op_name_dispatch(source)
    # Only the `fn.name == "arith.addf"` line names an op, whatever `fn` is.
    assert [p.split(":")[1] for p in found] == ["18"]


@pytest.mark.parametrize(
    ("comment", "ok"),
    [
        ("# type: ignore[attr-defined]  # xDSL declares .value on the base class only", True),
        ("# type: ignore[attr-defined, arg-type]  # both come from the untyped parser", True),
        ("# pyright: ignore[reportAttributeAccessIssue]  # dynamic attribute", True),
        ("# noqa: E501  # type: ignore[misc]  # the metaclass confuses it", True),
        ("# type: ignore", False),
        ("# type: ignore  # because", False),
        ("# type: ignore[attr-defined]", False),
        ("# type: ignore[attr-defined]  #", False),
        ("# type: ignore[attr-defined] # ", False),
        ("# type: ignore[]  # reason", False),
        ("# pyright: ignore", False),
        ("#type:ignore[x]", False),
    ],
)
def test_type_ignore_needs_rule_and_reason(comment: str, ok: bool) -> None:
    source = f"x = f()  {comment}\n"
    assert bare_type_ignores(source) == ([] if ok else [f"<source>:1: {comment}"])


def test_type_ignore_in_a_string_is_not_a_comment() -> None:
    assert bare_type_ignores('TEXT = "x = 1  # type: ignore"\n') == []
