"""The layers hold (docs/architecture.md): imports point down only, the core knows no game and
no front end, and the front ends know games only through the core API.

Read from the source with `ast` and `tokenize`, so a new import or a game id written into a
front end fails here, in the test run, rather than in a review.
"""

from __future__ import annotations

import ast
import io
import tokenize
from collections import defaultdict
from pathlib import Path

import pytest

from boardct.core import registry

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "boardct"
# Where a package may import from (besides itself and the standard library).
ALLOWED = {
    "core": set(),
    "games": {"core"},  # the engines; a game's front-end parts: below
    "agents": {"core"},
    "arena": {"core", "agents"},
    "adapters": {"core", "agents"},
    "server": {"core", "agents"},
    "cli": {"core", "agents", "arena", "server", "adapters"},
}
# A game's front-end modules, loaded by the front ends (never by the engine): they may use
# the extension point the front end publishes.
FRONT_END_PARTS = {"cli.py": {"core", "cli.ext"}, "server.py": {"core", "server.ext"},
                   "agents.py": {"core", "agents.base"}}
# Front ends and the floor: no game id appears in their code.
GAME_FREE = ("core", "agents", "arena", "adapters", "cli", "server")


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(SRC).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        if "migrations" in parts:
            continue
        out.append((".".join(parts), path))
    return out


def imports(path: Path) -> list[tuple[str, bool]]:
    """Every `boardct...` module `path` imports, and whether the import is inside a function
    (a lazy import)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, bool]] = []

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                if child.module.startswith("boardct"):
                    found.append((child.module, inner))
                    found.extend((f"{child.module}.{a.name}", inner) for a in child.names)
            elif isinstance(child, ast.Import):
                found.extend((a.name, inner) for a in child.names if a.name.startswith("boardct"))
            visit(child, inner)

    visit(tree, False)
    return [(m, lazy) for m, lazy in found if _exists(m)]


def _exists(module: str) -> bool:
    rel = Path(*module.split("."))
    return (SRC / rel).with_suffix(".py").exists() or (SRC / rel / "__init__.py").exists()


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "boardct"


MODULES = modules()


def test_the_core_imports_nothing_above_it_not_even_lazily():
    bad = [(m, target) for m, path in MODULES if layer(m) == "core"
           for target, _lazy in imports(path) if layer(target) != "core"]
    assert not bad, bad


def test_the_core_needs_no_lazy_import_of_its_own_modules():
    """No import hidden in a function to dodge a circle: the core's modules form a tree."""
    lazy = [(m, target) for m, path in MODULES if layer(m) == "core"
            for target, is_lazy in imports(path) if is_lazy]
    assert not lazy, lazy


def test_every_package_imports_only_the_layers_below_it():
    bad = []
    for m, path in MODULES:
        here = layer(m)
        if here not in ALLOWED:
            continue
        allowed = ALLOWED[here]
        if here == "games" and path.name in FRONT_END_PARTS:
            allowed = FRONT_END_PARTS[path.name]
        for target, _lazy in imports(path):
            there = layer(target)
            if there == here or there == "boardct":
                continue
            if here == "games" and path.name in FRONT_END_PARTS:
                ok = there == "core" or any(target == p or target.startswith(p + ".")
                                            for p in (f"boardct.{a}" for a in allowed))
            else:
                ok = there in allowed
            if not ok:
                bad.append((m, target))
    assert not bad, bad


def test_a_games_engine_imports_no_other_game():
    bad = []
    for m, path in MODULES:
        parts = m.split(".")
        if len(parts) < 3 or parts[1] != "games":
            continue
        for target, _lazy in imports(path):
            tparts = target.split(".")
            if len(tparts) > 2 and tparts[1] == "games" and tparts[2] != parts[2]:
                bad.append((m, target))
    assert not bad, bad


def test_no_import_circle_between_packages():
    """The graph of packages (core, each game, agents, arena, adapters, server, cli), every
    import counted, lazy ones too, has no cycle."""
    def node(module: str) -> str:
        parts = module.split(".")
        if len(parts) > 2 and parts[1] == "games":
            return f"games.{parts[2]}"
        return layer(module)

    edges: dict[str, set[str]] = defaultdict(set)
    for m, path in MODULES:
        for target, _lazy in imports(path):
            a, b = node(m), node(target)
            if a != b and b != "boardct":
                edges[a].add(b)
    seen: dict[str, int] = {}
    stack: list[str] = []

    def walk(n: str) -> None:
        seen[n] = 1
        stack.append(n)
        for nxt in sorted(edges[n]):
            if seen.get(nxt) == 1:
                pytest.fail(f"import circle: {' -> '.join(stack[stack.index(nxt):] + [nxt])}")
            if nxt not in seen:
                walk(nxt)
        stack.pop()
        seen[n] = 2

    for n in sorted(edges):
        if n not in seen:
            walk(n)


def code_tokens(path: Path) -> list[tuple[int, str]]:
    """The names and string literals of a module's code, docstrings and comments left out."""
    text = path.read_text(encoding="utf-8")
    docstrings = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(body[0].lineno)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME or (tok.type == tokenize.STRING
                                          and tok.start[0] not in docstrings):
            out.append((tok.start[0], tok.string))
    return out


@pytest.mark.parametrize("package", GAME_FREE)
def test_no_game_id_in_the_code_of_the_floor_and_the_front_ends(package):
    ids = set(registry.ids())
    assert ids, "no game registered"
    found = []
    for m, path in MODULES:
        if layer(m) != package:
            continue
        for line, tok in code_tokens(path):
            words = set(tok.strip("'\"").replace("-", "_").split()) | {tok.strip("'\"")}
            hit = ids & words
            if hit:
                found.append(f"{path.relative_to(SRC)}:{line}: {tok}")
    assert not found, "\n".join(found)


def test_the_source_cites_rules_and_docs_not_the_tracker():
    """Comments and docstrings say why in words, rulings and docs; an "issue N" reference
    means nothing to someone who reads the code without the tracker."""
    import re

    pattern = re.compile(r"\bissue\s+#?\d+", re.I)
    found = [f"{p.relative_to(SRC)}:{n}" for p in sorted(PACKAGE.rglob("*"))
             if p.suffix in (".py", ".js", ".html", ".css")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert not found, found
