"""No module of the project imports, even through others, a module that imports it back (issue #35).

A circle held together by imports inside functions is still a circle: the two modules cannot be read,
tested or moved apart. `lint-imports` checks the layers (pyproject.toml); this test walks the whole import
graph, function-level imports included, and names any circle it finds. Imports under ``if TYPE_CHECKING:``
run only in a type checker and are left out.
"""

from __future__ import annotations

import grimp
import pytest

PACKAGES = ("casino", "tables", "tournaments")


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan's algorithm)."""
    modules = sorted(graph.modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in modules:
        if module not in index:
            visit(module)
    return found


@pytest.fixture(scope="module")
def project_graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True)


def test_no_module_of_the_project_is_in_an_import_circle(project_graph):
    assert circles(project_graph) == []


def test_a_circle_through_a_function_level_import_is_found():
    """The check itself: two modules that import each other, one of them inside a function."""
    graph = grimp.ImportGraph()
    for module in ("game.reads", "game.services", "game.views"):
        graph.add_module(module)
    graph.add_import(importer="game.views", imported="game.services")
    graph.add_import(importer="game.services", imported="game.reads")
    graph.add_import(importer="game.reads", imported="game.services")  # e.g. `from game.services import x` in a def
    assert circles(graph) == [["game.reads", "game.services"]]


def test_the_tournaments_read_side_never_imports_its_write_side(project_graph):
    """The reads, projections and screens' rendering read what the writes left in their caches; they never
    import the write path or a command (``tournaments.writing``, ``tournaments.services``)."""
    read_side = [m for m in project_graph.modules
                 if m.startswith(("tournaments.reads", "tournaments.projections", "tournaments.rendering"))]
    write_side = ("tournaments.writing", "tournaments.services")
    reaching = [(m, w) for m in read_side for w in project_graph.find_upstream_modules(m)
                if w.startswith(write_side)]
    assert reaching == []
