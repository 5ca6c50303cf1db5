"""The import structure of DESIGN.md, checked on the import graph (grimp): every import
counts, also those inside functions and under `if TYPE_CHECKING:`.

- Layers: testing -> cli -> tuning -> api -> autotune -> verify_each -> universe -> pipeline -> transform | lowering ->
  transform.rewrites -> reference -> dialects | gpu -> cpu -> abi -> output -> options | diagnostics.
  gpu (whose CUDA host code runs through cpu's JIT), cpu and the leaves never import xDSL.
  A module whose unit has no rank fails.
- Privacy: a `_`-prefixed module or name is imported only from inside the package that
  holds it.
- No import cycle.

The checkers run on synthetic packages too (the tests at the end), to prove each one fails.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import grimp
import pytest

ROOT = "schedir"
PACKAGE = Path(__file__).parents[2] / ROOT

# Rank of each top-level unit of the package: a module may import only lower ranks (or its
# own unit). transform and lowering share a rank and must not import each other.
RANKS = {
    "options": 0,
    "diagnostics": 0,
    "output": 0.25,
    "abi": 0.5,
    "dialects": 1,
    "cpu": 1,
    "gpu": 1.5,
    "reference": 2,
    "transform.rewrites": 2.5,
    "transform": 3,
    "lowering": 3,
    "pipeline": 4,
    "universe": 4.2,
    "verify_each": 4.5,
    "autotune": 5,
    "api": 6,
    "tuning": 6.5,
    "cli": 7,
    "testing": 7.5,
    "__init__": 8,
}
NO_XDSL = {"abi", "gpu", "cpu", "options", "diagnostics", "output"}


# --- the graph -------------------------------------------------------------------------


@dataclass(frozen=True)
class Graph:
    """A package's import graph: every import statement, wherever it stands."""

    root: str
    graph: grimp.ImportGraph
    folder: Path

    @staticmethod
    def build(root: str) -> Graph:
        # exclude_type_checking_imports=False keeps `if TYPE_CHECKING:` imports; grimp reads
        # every import of the module's AST, so function-level imports count too (the tests
        # below prove both). cache_dir=None: no cache folder written into the checkout.
        graph = grimp.build_graph(
            root,
            include_external_packages=True,
            exclude_type_checking_imports=False,
            cache_dir=None,
        )
        spec = importlib.util.find_spec(root)  # a top-level name: imports nothing
        assert spec is not None and spec.origin is not None, f"package {root} not found"
        return Graph(root, graph, Path(spec.origin).parent)

    def modules(self) -> list[str]:
        """The package's own modules, sorted."""
        return sorted(m for m in self.graph.modules if _inside(m, self.root))

    def imports(self, module: str) -> list[str]:
        """The modules `module` imports (the package's own and external ones), sorted."""
        return sorted(self.graph.find_modules_directly_imported_by(module))

    def lines(self, importer: str, imported: str) -> str:
        """Where `importer` imports `imported`: `line N`, comma separated."""
        details = self.graph.get_import_details(importer=importer, imported=imported)
        return ", ".join(f"line {d['line_number']}" for d in details) or "?"

    def source(self, module: str) -> Path:
        """The source file of one of the package's modules."""
        path = self.folder.joinpath(*module.split(".")[1:])
        return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")

    def is_package(self, module: str) -> bool:
        """Whether `module` is a package."""
        return self.source(module).name == "__init__.py"


def _inside(module: str, package: str) -> bool:
    """Whether `module` is `package` or one of its submodules."""
    return module == package or module.startswith(package + ".")


@cache
def schedir_graph() -> Graph:
    return Graph.build(ROOT)


# --- layering ----------------------------------------------------------------------------


def unit_of(module: str, root: str = ROOT) -> str:
    """The layering unit of a module: its top-level name below the root (`__init__` for the
    root itself), `transform.rewrites` for the rewrites."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__"
    if parts[:2] == ["transform", "rewrites"]:
        return "transform.rewrites"
    return parts[0]


def layering_violations(
    graph: Graph, ranks: dict[str, float] = RANKS, no_xdsl: set[str] = NO_XDSL
) -> list[str]:
    """Every import that goes up or sideways in `ranks`, every xDSL import of a unit in
    `no_xdsl`, every module whose unit has no rank."""
    problems = []
    for module in graph.modules():
        unit = unit_of(module, graph.root)
        if unit not in ranks:
            problems.append(f"{module}: unit '{unit}' has no place in the layering (RANKS)")
            continue
        for imported in graph.imports(module):
            where = f"{module} ({graph.lines(module, imported)})"
            if not _inside(imported, graph.root):
                if imported.split(".")[0] == "xdsl" and unit in no_xdsl:
                    problems.append(f"{where}: '{unit}' must not import xDSL")
                continue
            target = unit_of(imported, graph.root)
            if target == unit or target not in ranks:
                continue  # a unit without rank is reported as the importer above
            if ranks[target] >= ranks[unit]:
                problems.append(f"{where}: '{unit}' may not import '{target}' ({imported})")
    return problems


# --- privacy -----------------------------------------------------------------------------


def is_private(name: str) -> bool:
    """`_name`, not `__dunder__`."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _owner_of_private_module(module: str) -> str | None:
    """The package a `_`-prefixed module (or one below a `_` package) belongs to: the
    parent of its innermost `_` part. None for a public module."""
    parts = module.split(".")
    private = [i for i in range(1, len(parts)) if is_private(parts[i])]
    return ".".join(parts[: private[-1]]) if private else None


def _private_uses(graph: Graph, module: str) -> Iterator[tuple[int, str, str]]:
    """(line, holder, name) for every `_` name that `module` takes from another of the
    package's modules: `from holder import _name` (relative ones resolved) and
    `alias._name` where `alias` is bound to the module `holder` by an import; wherever the
    statement stands. Names that are themselves modules are left to the graph."""
    known = set(graph.modules())
    package = module if graph.is_package(module) else module.rpartition(".")[0]
    path = graph.source(module)
    tree = ast.parse(path.read_text(), str(path))
    aliases: dict[str, str] = {}  # local name -> module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    first = alias.name.split(".")[0]
                    aliases[first] = first
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                target = f"{source}.{alias.name}"
                if target in known:
                    aliases[alias.asname or alias.name] = target
                elif is_private(alias.name):
                    yield node.lineno, source, alias.name
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
            continue
        dotted = _dotted(node.value)
        if dotted is None or dotted.split(".")[0] not in aliases:
            continue
        first, _, rest = dotted.partition(".")
        holder = ".".join(filter(None, (aliases[first], rest)))
        if holder in known and f"{holder}.{node.attr}" not in known:
            yield node.lineno, holder, node.attr


def _dotted(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def privacy_violations(graph: Graph) -> list[str]:
    """Every import of a `_` module, or use of a `_` name, from outside the package that
    holds it (the module's own package for a name defined in a module)."""
    problems = []
    for module in graph.modules():
        for imported in graph.imports(module):
            owner = _owner_of_private_module(imported)
            if owner is not None and not _inside(module, owner):
                problems.append(
                    f"{module} ({graph.lines(module, imported)}): imports private module "
                    f"{imported} from outside {owner}"
                )
        for line, holder, name in _private_uses(graph, module):
            if not _inside(holder, graph.root):
                continue
            owner = holder if graph.is_package(holder) else holder.rpartition(".")[0]
            if not _inside(module, owner):
                problems.append(
                    f"{module} (line {line}): uses private name {name} of {holder} "
                    f"from outside {owner}"
                )
    return problems


# --- cycles ------------------------------------------------------------------------------


def import_cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of the package's own import graph that hold a
    cycle, each sorted, largest first."""
    modules = graph.modules()
    edges = {m: [i for i in graph.imports(m) if _inside(i, graph.root)] for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    # Tarjan's algorithm, iteratively (a deep import chain must not hit the recursion limit).
    for start in modules:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(edges[start])))
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(edges[succ])))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in edges[node]:
                        components.append(sorted(component))
    return sorted(components, key=lambda c: (-len(c), c))


def shortest_cycle(graph: Graph, component: list[str]) -> list[str]:
    """One shortest cycle through the first module of `component`, as a module path."""
    members = set(component)
    start = component[0]
    parents: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in graph.imports(node):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parents[path[-1]])
                    return [*reversed(path), start]
                if succ in members and succ not in parents:
                    parents[succ] = node
                    following.append(succ)
        frontier = following
    return [start, start]


def describe_cycles(graph: Graph) -> list[str]:
    """Each cycle: its modules, and one shortest cycle through it with the import lines."""
    lines = []
    for component in import_cycles(graph):
        path = shortest_cycle(graph, component)
        steps = " -> ".join(f"{a} ({graph.lines(a, b)})" for a, b in itertools.pairwise(path))
        lines.append(
            f"cycle of {len(component)} modules: {', '.join(component)}\n"
            f"    e.g. {steps} -> {path[-1]}"
        )
    return lines


# --- the checks on schedir ---------------------------------------------------------------


def test_imports_respect_layers() -> None:
    problems = layering_violations(schedir_graph())
    assert not problems, f"{len(problems)} layering violations:\n" + "\n".join(problems)


def test_no_private_imports_across_packages() -> None:
    problems = privacy_violations(schedir_graph())
    assert not problems, f"{len(problems)} private imports:\n" + "\n".join(problems)


def test_no_import_cycles() -> None:
    cycles = describe_cycles(schedir_graph())
    assert not cycles, f"{len(cycles)} import cycles:\n" + "\n".join(cycles)


def test_only_cli_reads_the_environment() -> None:
    offenders = []
    for module in sorted(PACKAGE.rglob("*.py")):
        if module.name == "cli.py":
            continue
        text = module.read_text()
        if "os.environ" in text or "os.getenv" in text:
            offenders.append(str(module.relative_to(PACKAGE)))
    assert not offenders, f"only schedir/cli.py may read the environment: {offenders}"


# --- the checkers fail where they must: synthetic packages -------------------------------


MakePackage = Callable[[dict[str, str]], Graph]


@pytest.fixture
def make_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> MakePackage:
    """Write a package of the given files (path -> source) under a fresh name; return its
    graph and the name."""
    monkeypatch.syspath_prepend(str(tmp_path))
    name = "pkg_" + request.node.name.replace("[", "_").replace("]", "").replace("-", "_")

    def make(files: dict[str, str]) -> Graph:
        for rel, text in {"__init__.py": "", **files}.items():
            path = tmp_path / name / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            for parent in path.relative_to(tmp_path).parents:
                init = tmp_path / parent / "__init__.py"
                if parent != Path(".") and not init.exists():
                    init.write_text("")
            path.write_text(text.replace("PKG", name))
        return Graph.build(name)

    return make


def _strip(problems: list[str], name: str) -> list[str]:
    return [p.replace(name, "PKG") for p in problems]


def test_layering_catches_upward_sideways_unranked_and_xdsl(make_package: MakePackage) -> None:
    graph = make_package(
        {
            "options.py": "import xdsl\n",
            "dialects/ops.py": "from PKG.options import X\n",
            "transform/apply.py": "def f():\n    from PKG.lowering import passes\n",
            "lowering/passes.py": "from PKG.transform.rewrites import tile\n",
            "transform/rewrites/tile.py": "from PKG import api\n",
            "api.py": "from PKG.dialects import ops\n",
            "extra.py": "",
        }
    )
    problems = _strip(layering_violations(graph), graph.root)
    assert problems == [
        "PKG.extra: unit 'extra' has no place in the layering (RANKS)",
        "PKG.options (line 1): 'options' must not import xDSL",
        "PKG.transform.apply (line 2): 'transform' may not import 'lowering' (PKG.lowering.passes)",
        "PKG.transform.rewrites.tile (line 1): 'transform.rewrites' may not import 'api' (PKG.api)",
    ]


def test_layering_counts_type_checking_imports(make_package: MakePackage) -> None:
    graph = make_package(
        {
            "dialects/__init__.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from PKG.transform import state\n"
            ),
            "transform/state.py": "",
        }
    )
    assert _strip(layering_violations(graph), graph.root) == [
        "PKG.dialects (line 3): 'dialects' may not import 'transform' (PKG.transform.state)"
    ]


def test_privacy_catches_private_modules_and_names_from_outside(make_package: MakePackage) -> None:
    graph = make_package(
        {
            "dialects/transform/__init__.py": "from PKG.dialects.transform import _syntax\n",
            "dialects/transform/_syntax.py": "def _helper(): ...\n",
            "dialects/transform/core.py": "from ._syntax import _helper\n",
            "dialects/vector/attributes.py": "def _helper(): ...\nX = 1\n",
            "dialects/vector/ops.py": "from PKG.dialects.vector.attributes import _helper\n",
            "dialects/vector/_impl/deep.py": "",
            "lowering/x.py": (
                "def f():\n"
                "    from PKG.dialects.transform import _syntax\n"
                "    from PKG.dialects.vector.attributes import X, _helper\n"
                "    from PKG.dialects.vector._impl import deep\n"
                "    from PKG.dialects.vector import __doc__\n"
            ),
            "lowering/y.py": (
                "import PKG.dialects.vector.attributes\n"
                "from PKG.dialects.vector import attributes as attrs\n"
                "attrs._helper(attrs.X, PKG.dialects.vector.attributes._helper)\n"
                "class C:\n"
                "    def f(self):\n"
                "        return self._x, attrs.__name__\n"
            ),
        }
    )
    assert _strip(privacy_violations(graph), graph.root) == [
        "PKG.lowering.x (line 2): imports private module PKG.dialects.transform._syntax "
        "from outside PKG.dialects.transform",
        "PKG.lowering.x (line 4): imports private module PKG.dialects.vector._impl.deep "
        "from outside PKG.dialects.vector",
        "PKG.lowering.x (line 3): uses private name _helper of "
        "PKG.dialects.vector.attributes from outside PKG.dialects.vector",
        "PKG.lowering.y (line 3): uses private name _helper of "
        "PKG.dialects.vector.attributes from outside PKG.dialects.vector",
        "PKG.lowering.y (line 3): uses private name _helper of "
        "PKG.dialects.vector.attributes from outside PKG.dialects.vector",
    ]


def test_cycles_count_function_level_and_type_checking_imports(make_package: MakePackage) -> None:
    graph = make_package(
        {
            "a.py": "from PKG import b\n",
            "b.py": "def f():\n    from PKG import c\n",
            "c.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from PKG.a import X\n"
            ),
            "d.py": "import PKG.e\n",
            "e.py": "from . import d\n",
            "f.py": "from PKG import a\n",
        }
    )
    described = _strip(describe_cycles(graph), graph.root)
    assert described == [
        "cycle of 3 modules: PKG.a, PKG.b, PKG.c\n"
        "    e.g. PKG.a (line 1) -> PKG.b (line 2) -> PKG.c (line 3) -> PKG.a",
        "cycle of 2 modules: PKG.d, PKG.e\n    e.g. PKG.d (line 1) -> PKG.e (line 1) -> PKG.d",
    ]
    excluded = grimp.build_graph(graph.root, exclude_type_checking_imports=True, cache_dir=None)
    assert not excluded.direct_import_exists(importer=f"{graph.root}.c", imported=f"{graph.root}.a")


def test_a_clean_package_passes_every_check(make_package: MakePackage) -> None:
    graph = make_package(
        {
            "options.py": "",
            "dialects/_shared.py": "from PKG.options import X\n_Y = 1\n",
            "dialects/ops.py": "from PKG.dialects._shared import _Y\nfrom . import _shared\n",
            "api.py": "from PKG.dialects import ops\n",
        }
    )
    assert layering_violations(graph) == []
    assert privacy_violations(graph) == []
    assert import_cycles(graph) == []


def test_every_source_file_is_in_the_graph() -> None:
    """grimp sees every module on disk (a module it missed would escape every check)."""
    on_disk = {
        ".".join((ROOT, *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        for p in PACKAGE.rglob("*.py")
    }
    assert on_disk == set(schedir_graph().modules())
