"""The computer's move at the terminal: named under the next board, and marked on it where the
game's CLI module can mark it (FieldShift: the sector its operator moved to); with
`--classic`, the earlier tool's screen, nothing is added."""

from __future__ import annotations

import json
import re

from cli_helpers import run


def test_the_computers_move_is_named_and_its_sector_marked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the game left unfinished is saved here
    save = tmp_path / "g.json"
    code, out = run("play", "fieldshift", "--names", "Ann", "--vs", "2:greedy", "--seed", "1",
                    "--no-clear", "--color", "never", "--save", str(save), input="24\n")
    assert code == 0
    reply = json.loads(save.read_text(encoding="utf-8"))["actions"][1]
    named = re.search(rf"> Computer \(greedy\) played {reply} \((.+)\)", out)
    assert named, out[-800:]
    to = re.search(r"to sector ([0-9])", named.group(1))
    assert to, named.group(1)
    board = out[:named.start()].rsplit("[Player 1: Ann]", 1)[1]  # the board before the name
    marked = [ln for ln in board.splitlines() if ln.endswith(" <")]
    assert len(marked) == 1 and f"Sector {to.group(1)}:" in marked[0]


def test_classic_adds_no_mark_and_no_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "Ann", "--vs", "2:greedy", "--seed", "1",
                    "--no-clear", "--classic", input="24\n")
    assert code == 0 and "played" not in out
    assert not [ln for ln in out.splitlines() if ln.endswith(" <")]


def test_a_hot_seat_move_is_not_marked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
                    "--color", "never", input="24\n")
    assert code == 0 and "> " not in out and not [ln for ln in out.splitlines()
                                                   if ln.endswith(" <")]
