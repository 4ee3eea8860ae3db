"""At 80x24 and at 100 columns no word is broken: every line `boardct` writes to a terminal
fits its width (a wider line would be cut by the terminal at its last column, mid-word), and
prose is cut between words. Checked through a pseudo-terminal (pexpect) for `help` and a
preview in every game (the sixth, installed by the suite, too), `boardct history`, `boardct
replay` and `boardct games`."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import run
from rich.cells import cell_len

from boardct.core import registry, table

pexpect = pytest.importorskip("pexpect") if sys.platform != "win32" else None
pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="pexpect needs a POSIX pseudo-terminal")

SIZES = [(24, 80), (40, 100)]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
# what the line editor draws while a line is typed (between bracketed paste on and off) is
# redrawn in place with cursor moves: not lines the program wrote
EDITING = re.compile(r"\x1b\[\?2004h.*?\x1b\[\?2004l", re.S)


def spawn(tmp_path: Path, args: list[str], size: tuple[int, int]):
    rows, columns = size
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    env = dict(os.environ, COLUMNS=str(columns), LINES=str(rows))
    return pexpect.spawn(exe, args, cwd=str(tmp_path), encoding="utf-8", timeout=60,
                         dimensions=size, env=env)


def written_lines(raw: str) -> list[str]:
    text = ANSI.sub("", EDITING.sub("\n", raw))
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def too_wide(raw: str, columns: int, typed: tuple[str, ...] = ()) -> list[str]:
    """The lines wider than `columns`; the echo of a typed line (the prompt, then what was
    typed) is the line editor's, which wraps it itself, and not counted."""
    return [line for line in written_lines(raw) if cell_len(line) > columns
            and not any(f": {t}" in line for t in typed)]


def first_move(game_id: str) -> str:
    state = registry.get(game_id).new(seed=1, names=("Ann", "Ben"))
    return table.legal_moves(state)[-1].text


def play(tmp_path: Path, game_id: str, size: tuple[int, int], lines: list[str]) -> str:
    """Hot-seat GAME_ID, each line typed at the prompt (the hand-over's Enter first where the
    game hides anything), then Ctrl-D; everything written."""
    child = spawn(tmp_path, ["play", game_id, "--names", "Ann", "Ben", "--seed", "1",
                             "--color", "never", "--no-clear"], size)
    out = ""
    game = registry.get(game_id)
    if not game.perfect_information:
        child.expect_exact("press Enter.")
        out += child.before
        child.sendline("")
    for line in lines:
        child.expect(r"\x1b\[\?2004h")  # the line editor is up: type
        out += child.before + child.after
        time.sleep(0.3)
        child.sendline(line)
    child.expect(r"\x1b\[\?2004h")
    out += child.before + child.after
    time.sleep(0.5)
    child.sendeof()
    child.expect(pexpect.EOF)
    return out + child.before


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100"])
@pytest.mark.parametrize("game_id", registry.ids())
def test_help_and_a_preview_fit_the_terminal(tmp_path, game_id, size):
    typed = ("help", f"preview {first_move(game_id)}", "moves")
    out = play(tmp_path, game_id, size, list(typed))
    assert "At the table" in out
    assert too_wide(out, size[1], typed) == []


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "100"])
def test_games_history_and_replay_fit_the_terminal(tmp_path, size, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the games left unfinished are saved here
    columns = size[1]
    run("play", "ctf2187", "--names", "Ann-with-a-long-name", "Ben-with-a-long-name",
        "--seed", "1", "--no-clear", input="\ndefault\n\ndefault\n")
    run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
        input="24\n09\n")
    for args in (["games"], ["history"]):
        child = spawn(tmp_path, args, size)
        child.expect(pexpect.EOF)
        assert "-o " in child.before or "NUMBER" in child.before
        assert too_wide(child.before, columns) == [], args
    for number in ("1", "2"):
        child = spawn(tmp_path, ["replay", number, "--color", "never", "--reveal"], size)
        out = ""
        for _ in range(2):
            child.expect_exact("q quit]")
            out += child.before
            time.sleep(0.3)
            child.sendline("")
        child.expect_exact("q quit]")
        out += child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
        assert "--- move 1 of" in out
        assert too_wide(out, columns) == []
