"""The package's shape, checked: no import cycles between modules, and imports point
down the layers of design/architecture.md (source -> tree -> checks -> rubric -> report).

Every ``import`` statement counts, wherever it stands (module top, inside a function, under
``TYPE_CHECKING``): a cycle hidden in a function body is still a cycle."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "artifactcheck"

# Lowest first. A module may import its own layer's modules and any layer below it.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "digest", "caches", "version", "schema_file", "limits", "input_files"),
    ("model",),
    ("extractors",),
    ("loading", "snapshot"),
    ("checks",),
    ("report",),  # the report model is what the rubric runner produces
    ("rubric",),
    ("batch", "commands", "testing"),
    ("service", "client"),  # the HTTP service and its client: above what the CLI commands do
    ("cli", ""),  # "" is the package's own __init__ (the public API)
]


def _modules() -> dict[str, tuple[Path, bool]]:
    found: dict[str, tuple[Path, bool]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["artifactcheck", *path.relative_to(PACKAGE).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _imports(module: str, path: Path, is_package: bool, known: set[str]) -> Iterator[str]:
    here = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in known:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if sub in known else target


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    known = set(mods)
    return {m: set(_imports(m, p, pkg, known)) - {m} for m, (p, pkg) in mods.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of more than one module are cycles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else ""
    for i, names in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"{module}: top-level module not placed in LAYERS (tests/test_architecture.py)")


def test_no_import_cycles() -> None:
    cycles = strongly_connected(import_graph())
    assert cycles == [], "import cycles (break each by moving the shared piece down): " + "; ".join(
        " <-> ".join(c) for c in cycles
    )


def test_cycle_finder_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_imports_point_down_the_layers() -> None:
    upward = [
        f"{m} -> {t}"
        for m, targets in import_graph().items()
        for t in sorted(targets)
        if _layer(t) > _layer(m)
    ]
    assert upward == []


def test_extractors_root_holds_only_entry_modules() -> None:
    root = sorted(p.name for p in (PACKAGE / "extractors").glob("*.py"))
    assert root == ["__init__.py", "office.py", "tree_builder.py"]


def test_every_subpackage_says_what_it_owns() -> None:
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init.relative_to(PACKAGE.parent)} has no docstring"
