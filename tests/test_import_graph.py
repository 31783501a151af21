"""The package's import graph: no cycles between its packages and root modules, lazy imports counted.

A cycle makes each side impossible to read, test or move without the other. Every import is counted,
also those inside functions (a lazy import hides a cycle from Python, not from a reader). There is
none (issue 38 broke the last two: archive <-> evaluation and containment <-> sandbox, now rooms of one
unit, kernelevo.isolation, checked apart), and a new one fails this test.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "kernelevo"

# imports a unit must never make: the archive and the API read records, not the roles that make them
FORBIDDEN = {
    "archive": {"evaluation", "search", "storage", "api"},
    "api": {"search", "evaluation", "variation"},
}


def unit(module: str) -> str:
    """The unit a module belongs to: its subpackage (kernelevo.search.scheduler -> search), or a root module itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "kernelevo"


def import_graph() -> dict[str, set[str]]:
    """Unit -> the units it imports (any kernelevo import anywhere in its files, lazy ones included)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        source = unit(module)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] if node.module != "kernelevo" else [f"kernelevo.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            graph[source] |= {unit(n) for n in names if n.startswith("kernelevo.")} - {source, "kernelevo"}
    return graph


def cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """The strongly connected components of more than one unit (Tarjan's algorithm), each as sorted units."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[tuple[str, ...]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(tuple(sorted(component)))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {("a", "b", "c")}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_the_graph_sees_lazy_imports() -> None:
    graph = import_graph()
    assert "api" in graph["cli"]  # only imported inside cli.service.serve()
    assert {"search", "storage", "evaluation"} <= graph["driver"]


def test_the_records_are_the_floor() -> None:
    assert import_graph()["records"] <= {"utils"}  # only the small helpers of utils/ are below them


def test_no_unit_imports_what_it_must_not() -> None:
    graph = import_graph()
    found = {name: sorted(graph[name] & banned) for name, banned in FORBIDDEN.items() if graph[name] & banned}
    assert found == {}, f"imports to move below their importer: {found}"


def test_no_cycles_between_packages() -> None:
    found = cycles(import_graph())
    assert found == set(), f"import cycles: {found}"


def rooms(package: str) -> dict[str, set[str]]:
    """Room -> the other rooms it imports, for kernelevo.<package>: its subpackages and modules are its rooms, and
    a name taken from the package itself (``from kernelevo.evaluation import Evaluator``) is its ``__init__``'s."""
    folder = PACKAGE / package
    prefix = f"kernelevo.{package}"

    def room_of(name: str) -> str | None:
        if name == prefix:
            return "__init__"
        if not name.startswith(f"{prefix}."):
            return None
        first = name.split(".")[2]
        return first if (folder / first).is_dir() or (folder / f"{first}.py").is_file() else "__init__"

    graph: dict[str, set[str]] = defaultdict(set)
    for path in folder.rglob("*.py"):
        parts = path.relative_to(folder).parts
        room = parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{prefix}.{a.name}" for a in node.names] if node.module == prefix else [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            graph[room] |= {r for r in map(room_of, names) if r is not None}
    return {room: used - {room} for room, used in graph.items()}


def test_the_rooms_of_variation_import_only_downward() -> None:
    """kernelevo.variation's rooms: seeding and the operators use the moves, the moves use source analysis, and
    source analysis uses no other room (a tuning literal's reader never needs a move)."""
    graph = rooms("variation")
    assert cycles(graph) == set(), graph
    assert graph["source"] == set() and graph["moves"] <= {"source"}, graph


def test_the_containment_starts_no_child() -> None:
    """kernelevo.isolation: the containment is applied in a child and read back from it, and never starts one
    (the probe, which does, sits above both it and the sandbox); the child's side never imports the fork server."""
    graph = rooms("isolation")
    assert cycles(graph) == set(), graph
    assert graph.get("containment", set()) == set(), graph
    assert "zygote" not in graph["child"] | graph["sandbox"], graph


def test_the_child_never_imports_the_judge() -> None:
    """kernelevo.evaluation: the child's side (what runs in the children that run a candidate's code) imports
    only what both sides share, never the judge's side, the static checks or the package's face (which loads the
    evaluator); the shared room imports no other room, and the static checks only the shared one."""
    graph = rooms("evaluation")
    assert cycles(graph) == set(), graph
    assert graph["child"] <= {"common"}, graph
    assert graph["common"] == set(), graph
    assert graph["static"] <= {"common"}, graph


def test_a_childs_modules_load_nothing_of_the_judge() -> None:
    """The same at run time, the package's face included (it loads the evaluator's names on first use only): the
    modules the children that run a candidate's code start from load no module of the judge's side or static/."""
    handlers = ("runner", "precompile", "aot", "cuda_build")
    code = "; ".join([*(f"import kernelevo.evaluation.child.{name}" for name in handlers), "import sys",
                      "print(*sorted(m for m in sys.modules if m.startswith(('kernelevo.evaluation.judge', "
                      "'kernelevo.evaluation.static'))))"])
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300)
    assert loaded.stdout.split() == []
