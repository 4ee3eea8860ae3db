"""The terminal front end knows no game: no game id in the code of `boardct.cli`, and a game's
own CLI module (its `frontends.cli`) imports only the CLI's extension point, the core and its
own game's package."""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import tokenize
from pathlib import Path

import pytest

import boardct.cli
from boardct.core import registry

CLI_DIR = Path(boardct.cli.__file__).parent
# tokenize gives an f-string's text as FSTRING_MIDDLE tokens from Python 3.12 on
TEXT_TOKENS = {tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}


def docstring_starts(source: str) -> set[tuple[int, int]]:
    """Where the docstrings of the module, its classes and functions begin (line, column)."""
    starts = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                starts.add((first.value.lineno, first.value.col_offset))
    return starts


def game_ids_in_code(source: str, ids: list[str]) -> list[tuple[int, str]]:
    """(line, token) of every identifier or string (docstrings and comments aside) that names
    one of the game `ids`: as a whole word in any case ("FieldShift" names `fieldshift`), or as
    a part of an identifier between underscores (`cmd_ctf2187`)."""
    word = re.compile(r"(?<![a-z0-9])(?:" + "|".join(map(re.escape, ids)) + r")(?![a-z0-9])",
                      re.IGNORECASE)
    docs = docstring_starts(source)
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME or (tok.type in TEXT_TOKENS and tok.start not in docs):
            if word.search(tok.string.replace("_", " ")):
                hits.append((tok.start[0], tok.string))
    return hits


def test_the_check_finds_game_ids_in_names_and_strings_but_not_in_docs_or_comments():
    ids = ["fieldshift", "ctf2187", "shift"]
    source = '''"""A module docstring may say FieldShift."""
import boardct.cli.cmd_ctf2187  # a comment may say shift
def f(shift_key, gear):
    """So may a function's: ctf2187."""
    x = "FieldShift: lstd"
    y = f"the {gear} of ctf2187"
    z = "shifted and shifting"
    return x
'''
    found = game_ids_in_code(source, ids)
    assert [line for line, _ in found] == [2, 3, 5, 6]
    assert ("FieldShift" in found[2][1]) and ("ctf2187" in found[3][1])


def test_no_game_id_in_the_code_of_the_terminal_front_end():
    ids = registry.ids()
    assert len(ids) >= 5  # boardct's own games, at least
    files = sorted(CLI_DIR.glob("*.py"))
    assert len(files) >= 6
    found = {path.name: hits for path in files
             if (hits := game_ids_in_code(path.read_text(encoding="utf-8"), ids))}
    assert found == {}, f"game ids in the code of boardct.cli: {found}"


def game_cli_modules() -> list[tuple[str, str, str]]:
    """(game id, CLI module, the game's package) of every game that has a CLI module."""
    return [(g.id, g.frontends.cli, g.package) for g in registry.all_games() if g.frontends.cli]


def test_the_games_with_commands_of_their_own_are_found():
    assert len(game_cli_modules()) >= 2


@pytest.mark.parametrize("game_id,module,package", game_cli_modules())
def test_a_games_cli_module_imports_only_the_extension_point_the_core_and_its_game(
        game_id, module, package):
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None, f"{game_id}: {module} not found"
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 or spec.parent == package, f"{module}: a relative import"
            if node.level == 0 and node.module:
                imported.add(node.module)
    ours = {name for name in imported if name == "boardct" or name.startswith("boardct.")}
    allowed = {name for name in ours if name == "boardct.cli.ext"
               or name == "boardct.core" or name.startswith("boardct.core.")
               or name == package or name.startswith(package + ".")}
    assert ours - allowed == set(), f"{module} imports {sorted(ours - allowed)}"
    assert "boardct.cli.ext" in ours


def test_the_help_of_boardct_and_of_its_own_commands_names_no_game():
    from boardct.cli.main import cli

    ids = registry.ids()
    word = re.compile(r"(?<![a-z0-9])(?:" + "|".join(ids) + r")(?![a-z0-9])", re.IGNORECASE)
    texts = {"boardct": cli.help or ""}
    for name, command in cli.commands.items():  # its own: the games' are not in `commands`
        texts[name] = command.help or ""
        for param in command.params:
            texts[f"{name} {param.name}"] = getattr(param, "help", None) or ""
    assert len(texts) > 20
    assert {k: v for k, v in texts.items() if word.search(v)} == {}
