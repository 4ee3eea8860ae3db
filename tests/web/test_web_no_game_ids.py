"""The server and its pages know no game: every game reaches them through the core API and the
parts its own package ships (its renderer, its routes). So no registered game id may appear in
`src/boardct/server` as a string literal or an identifier in code, Python, JavaScript, HTML or
CSS alike. Comments and docstrings are prose, not code, and are not scanned (they should speak
generically all the same)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from boardct.core import registry

SERVER = Path(__file__).resolve().parents[2] / "src" / "boardct" / "server"
GAME_IDS = tuple(registry.ids())
# Standard JavaScript method names that happen to spell a game id: `Array.prototype.shift()`
# is the array method wherever it is called as one.
JS_METHODS = {"shift"}


def _word(game_id: str, word_chars: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![{word_chars}]){re.escape(game_id)}(?![{word_chars}])")


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _identifiers(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    return []


def python_hits(path: Path) -> list[str]:
    """`file:line: what` for each game id in a string literal (docstrings aside) or in an
    identifier (split at `_` and `.`, any case) of a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skip = _docstrings(tree)
    hits = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for gid in GAME_IDS:
                if _word(gid, "A-Za-z0-9_").search(node.value):
                    hits.append(f"{path.name}:{line}: {gid!r} in the string {node.value[:60]!r}")
        for name in _identifiers(node):
            parts = re.split(r"[_.]", name.lower())
            for gid in GAME_IDS:
                if gid in parts:
                    hits.append(f"{path.name}:{line}: {gid!r} in the identifier {name!r}")
    return hits


def strip_js_comments(text: str) -> str:
    """The text with `//` and `/* */` comments blanked (strings, template literals included,
    kept as they are); line breaks stay, so line numbers hold."""
    out = []
    i, n = 0, len(text)
    quote = None
    while i < n:
        c = text[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
        elif c in "\"'`":
            quote = c
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:end]))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _blank(match: re.Match[str]) -> str:
    return "".join(ch if ch == "\n" else " " for ch in match.group(0))


def web_hits(path: Path) -> list[str]:
    """`file:line: what` for each game id in the code of a page file (JS, HTML, CSS), its
    comments aside; colour literals such as `#fff` are colours, not ids."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        text = re.sub(r"<!--.*?-->", _blank, text, flags=re.S)
    elif path.suffix == ".css":
        text = re.sub(r"/\*.*?\*/", _blank, text, flags=re.S)
    else:
        text = strip_js_comments(text)
    text = re.sub(r"#[0-9A-Fa-f]{3,8}\b", _blank, text)
    hits = []
    for gid in GAME_IDS:
        for m in _word(gid, "A-Za-z0-9_$").finditer(text):
            if gid in JS_METHODS and path.suffix == ".js" and text[m.start() - 1:m.start()] == "." \
                    and text[m.end():m.end() + 1] == "(":
                continue
            line = text.count("\n", 0, m.start()) + 1
            hits.append(f"{path.name}:{line}: {gid!r}")
    return hits


def server_files() -> list[Path]:
    return sorted(p for p in SERVER.rglob("*") if p.suffix in {".py", ".js", ".html", ".css"})


def test_the_server_and_its_pages_name_no_game():
    assert GAME_IDS, "no game is registered: nothing to check against"
    files = server_files()
    assert any(p.suffix == ".js" for p in files) and any(p.suffix == ".py" for p in files)
    hits = []
    for path in files:
        hits += python_hits(path) if path.suffix == ".py" else web_hits(path)
    assert not hits, "game ids in the server's code:\n" + "\n".join(hits)


# -- the scanner itself finds what it must, and only that -------------------------------------
@pytest.fixture
def a_game_id() -> str:
    return GAME_IDS[0]


def test_the_scan_finds_an_id_in_a_python_string_or_identifier(tmp_path, a_game_id):
    src = tmp_path / "x.py"
    src.write_text(f'"""Docstring about {a_game_id}."""\n'
                   f'# a comment about {a_game_id}\n'
                   f'KNOWN = ("{a_game_id}",)\n'
                   f'def for_{a_game_id}(x):\n    return x\n', encoding="utf-8")
    hits = python_hits(src)
    assert sorted(int(h.split(":")[1]) for h in hits) == [3, 4], hits


def test_the_scan_finds_an_id_in_page_code_but_not_in_comments_or_colours(tmp_path, a_game_id):
    js = tmp_path / "x.js"
    js.write_text(f'// {a_game_id} in a comment\n/* {a_game_id} */\n'
                  f'const url = `${{scheme}}//host`; const c = "#fff";\n'
                  f'if (g.id === "{a_game_id}") pick();\n', encoding="utf-8")
    assert [h.split(":")[1] for h in web_hits(js)] == ["4"]
    css = tmp_path / "x.css"
    css.write_text(f"/* {a_game_id} */\n.a {{ color: #fff; }}\n.{a_game_id}-board {{}}\n",
                   encoding="utf-8")
    assert [h.split(":")[1] for h in web_hits(css)] == ["3"]
    html = tmp_path / "x.html"
    html.write_text(f"<!-- {a_game_id} -->\n<p data-game=\"{a_game_id}\"></p>\n",
                    encoding="utf-8")
    assert [h.split(":")[1] for h in web_hits(html)] == ["2"]
