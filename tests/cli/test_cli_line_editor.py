"""The terminal as a real command line, through a pseudo-terminal (pexpect): arrow keys edit
and recall lines, Tab completes the legal moves with their words, a line shows while the
computer thinks, and the hot-seat hand-over tells the incoming player every public event of
the other's whole turn and nothing hidden. What a line did is checked in the game's record
(`--save`), not only on the screen."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect") if sys.platform != "win32" else None
pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="pexpect needs a POSIX pseudo-terminal")

LEFT, UP, BACKSPACE, TAB, ENTER = "\x1b[D", "\x1b[A", "\x7f", "\t", "\r"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(tmp_path: Path, *args: str, rows: int = 50, columns: int = 120):
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    env = dict(os.environ, COLUMNS=str(columns), LINES=str(rows))
    return pexpect.spawn(exe, list(args), cwd=str(tmp_path), encoding="utf-8", timeout=30,
                         dimensions=(rows, columns), env=env)


def complete(child, typed: str) -> None:
    """Type `typed` and Tab; the completion is worked out after the key (as for a person, who
    reads it before pressing Enter): wait until the line editor has drawn it."""
    child.send(typed + TAB)
    time.sleep(1.0)


def actions(save: Path) -> list[str]:
    return json.loads(save.read_text(encoding="utf-8"))["actions"]


def plain(text: str) -> str:
    return ANSI.sub("", text).replace("\r\n", "\n")


def test_arrow_keys_edit_a_line_and_recall_the_last_one_without_a_rejection(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear", "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    child.send("4" + LEFT + "2" + ENTER)  # typed 4, went back, put 2 before it: 24
    child.expect_exact("+0 moves from sector 0 to sector 4")
    child.expect_exact("Player 2 (-0):")
    child.send(UP)  # the line typed before, 24, edited into 29
    child.send(BACKSPACE + "9" + ENTER)
    child.expect_exact("-0 moves from sector 9 to sector 9")
    child.expect_exact("Player 1 (+0):")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert "Rejected" not in child.before and "control character" not in child.before
    assert actions(save) == ["24", "29"]


def test_tab_completes_a_legal_move_and_shows_what_each_does(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear", "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    complete(child, "2")  # ten moves start with 2: the menu shows them with their words
    child.expect_exact("+0 moves from sector 0 to sector 3")
    complete(child, BACKSPACE * 5 + "mov")  # the table's `moves`, completed
    child.send(ENTER)
    child.expect_exact("+0 moves from sector 0 to sector 1")
    child.expect_exact("Player 1 (+0):")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert not save.exists() or actions(save) == []


def test_tab_completes_a_unique_move_which_is_then_played(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "shift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear", "--save", str(save))
    child.expect(r"\(Ann\)|\(Ben\)|Player \d")
    child.expect_exact(":")
    complete(child, "fir")
    child.send(ENTER)
    child.expect_exact("(shift phase):")  # Ann went first: her first shift phase
    time.sleep(0.5)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert actions(save) == ["first"]


def test_the_thinking_line_shows_after_the_players_own_move_and_goes(tmp_path):
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "--vs", "2:mcts:time=2",
                  "--seed", "1", "--color", "never", "--no-clear", "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (computer): ")
    text = child.before + child.after
    child.expect_exact("Player 1 (+0):")
    text += child.before
    child.sendeof()
    child.expect(pexpect.EOF)
    own = text.index("+0 moves from sector 0 to sector 4")
    thinking = text.index("Computer (mcts) is thinking...")
    reply = text.index("Player 2 (computer): ")
    assert own < thinking < reply  # the player's move is read before the computer thinks
    # the thinking line is erased (Rich's transient status) before the reply is printed
    assert "\x1b[2K" in text[thinking:reply]
    assert "is thinking" not in text[reply:]
    assert re.search(r"is thinking\.\.\. [0-9]+ s", text)  # with the time spent
    # the computer's move, named, under the next board: its whole turn (a select, then an
    # order, or one action), in the order played
    played = actions(save)[1:]
    named = re.search(r"> Computer \(mcts\) played (.*)", plain(text[reply:]))
    assert named, text[reply:]
    line, at = named.group(1), 0
    assert line.startswith(played[0] + " ") or line == played[0]
    for move in played:  # each of the turn's actions, in order
        at = line.index(move, at) + len(move)


def test_hills_incoming_player_reads_the_others_whole_turn_and_nothing_hidden(tmp_path):
    """Seed 3: Ann's Rocketeer reveals a tile, her Infantry reveals one and finds a star (she
    draws Artillery Strike), she ends. Ben, after the hand-over, reads all of it (public,
    BSH-14: the draw is public, the card is not) and never the card's name."""
    child = spawn(tmp_path, "play", "hills", "--names", "Ann", "Ben", "--seed", "3",
                  "--color", "never", "--no-clear")
    child.expect_exact("Pass the keyboard to Ann (Player 1) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 1 (turn 1, to act: I R M):")
    child.sendline("R move E")
    child.expect_exact("Player 1 (turn 1, to act: I M):")
    child.sendline("I move SW")
    child.expect_exact("Player 1 hand: Artillery Strike")  # her own hand, on her screen
    child.expect_exact("Player 1 (turn 1, to act: M):")
    child.sendline("end")
    child.expect_exact("Ann: press Enter to hide the screen.")
    child.sendline("")
    child.expect_exact("Pass the keyboard to Ben (Player 2) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 2 (turn 1, to act: I R M):")
    ben = plain(child.before)
    child.sendeof()
    child.expect(pexpect.EOF)
    for event in ("The tile at (-1,0) is revealed:", "Player 1's Rocketeer moves (-2,0) -> (-1,0).",
                  "is revealed:", "Player 1's Infantry moves (-2,0) ->",
                  "finds a star: Player 1 draws a bonus card.", "Player 1 ends the turn."):
        assert event in ben, event
    assert ben.count("is revealed:") >= 2  # both tiles, not only the last command's
    assert "Artillery Strike" not in ben  # Ann's hidden card
    assert "Player 1 hand: 1 card" in ben


def test_a_bad_option_fails_before_any_name_is_asked(tmp_path):
    for args in (["hills", "-o", "stars=99"], ["shift", "--cards", "foo", "bar"]):
        child = spawn(tmp_path, "play", *args)
        child.expect(pexpect.EOF)
        out = child.before
        child.close()
        assert "Enter name" not in out and "error:" in out, out
        assert child.exitstatus == 2


CTRL_R = "\x12"


def test_lines_are_kept_per_game_in_the_data_folder_and_ctrl_r_finds_them(tmp_path):
    from boardct.cli.prompt import history_file

    first = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear")
    first.expect_exact("Player 1 (+0):")
    first.sendline("24")
    first.expect_exact("Player 2 (-0):")
    time.sleep(0.5)
    first.sendeof()
    first.expect(pexpect.EOF)
    kept = history_file("fieldshift")
    assert kept is not None and "+24" in kept.read_text(encoding="utf-8").splitlines()
    save = tmp_path / "g.json"
    again = spawn(tmp_path, "play", "fieldshift", "--names", "Cy", "Dee", "--seed", "2",
                  "--color", "never", "--no-clear", "--save", str(save))
    again.expect_exact("Player 1 (+0):")
    again.send(CTRL_R + "24")  # reverse search of the lines typed in the earlier game
    time.sleep(0.5)
    again.send(ENTER)  # ends the search with the line found
    time.sleep(0.5)
    again.send(ENTER)  # and plays it
    again.expect_exact("+0 moves from sector 0 to sector 4")
    again.expect_exact("Player 2 (-0):")
    time.sleep(0.5)
    again.sendeof()
    again.expect(pexpect.EOF)
    assert actions(save) == ["24"]


def test_hidden_information_hot_seat_recalls_no_other_players_line(tmp_path):
    """Hills hot-seat: Ben's Up arrow finds nothing Ann typed, and nothing is written."""
    from boardct.cli.prompt import history_file

    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "hills", "--names", "Ann", "Ben", "--seed", "3",
                  "--color", "never", "--no-clear", "--save", str(save))
    child.expect_exact("Pass the keyboard to Ann (Player 1) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 1 (turn 1, to act: I R M):")
    child.sendline("R move E")
    child.expect_exact("Player 1 (turn 1, to act: I M):")
    child.sendline("end")
    child.expect_exact("Ann: press Enter to hide the screen.")
    child.sendline("")
    child.expect_exact("Pass the keyboard to Ben (Player 2) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 2 (turn 1, to act: I R M):")
    time.sleep(0.5)
    child.send(UP + UP)  # Ann's lines are not Ben's to recall: the line stays empty
    time.sleep(0.5)
    child.send("end" + ENTER)  # had anything been recalled, this would not read "end"
    if child.expect_exact(["Ben: press Enter to hide the screen.",
                           "Pass the keyboard to Ann (Player 1) and press Enter."]) == 0:
        child.sendline("")
        child.expect_exact("Pass the keyboard to Ann (Player 1) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 1 (turn 2")
    time.sleep(0.5)
    child.send(UP + ENTER)  # Ann recalls her own last line, "end"
    child.expect_exact("Ann: press Enter to hide the screen.")
    child.sendline("")
    child.expect_exact("press Enter.")
    child.sendeof()
    child.expect(pexpect.EOF)
    assert actions(save) == ["R move E", "end", "end", "end"]
    kept = history_file("hills")
    assert kept is None or not kept.exists()


def test_hot_seat_undo_asks_the_opponent_to_allow_the_player_who_asked(tmp_path):
    """Ann played 24, Ben 29; Ann, at her turn, asks: Ben is asked to allow Ann (not the
    other way round), and both moves go back."""
    save = tmp_path / "g.json"
    child = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear", "--save", str(save))
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    child.sendline("29")
    child.expect_exact("-0 moves from sector 9 to sector 9")
    child.expect_exact("Player 1 (+0):")
    child.sendline("undo")
    child.expect_exact("Ben (Player 2), allow Ann (Player 1) to take back their move and the "
                       "reply (2 actions)? 01/00")
    child.sendline("01")
    child.expect_exact("Taken back: 2 actions.")
    child.expect_exact("Player 1 (+0):")
    time.sleep(0.5)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert actions(save) == ["24", "29", "undo 2"]


def test_undo_then_quit_is_kept_in_the_history_as_it_was_left(tmp_path):
    """24, undo (Ben allows with 01), quit: `boardct replay 1` ends at the start position and
    `--resume 1` goes on from there (Ann to move again)."""
    child = spawn(tmp_path, "play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1",
                  "--color", "never", "--no-clear")
    child.expect_exact("Player 1 (+0):")
    child.sendline("24")
    child.expect_exact("Player 2 (-0):")
    child.sendline("undo")
    child.expect_exact("Ben (Player 2), allow Ann (Player 1) to take back their move? 01/00")
    child.sendline("01")
    child.expect_exact("Taken back: 1 action.")
    child.expect_exact("Player 1 (+0):")
    time.sleep(0.5)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    final = spawn(tmp_path, "replay", "1", "--final", "--color", "never")
    final.expect(pexpect.EOF)
    assert "Ruins Sector 0: +0 +1 +2 +3 +4" in final.before  # +0 is home again
    save = tmp_path / "r.json"
    resumed = spawn(tmp_path, "play", "fieldshift", "--resume", "1", "--color", "never",
                    "--no-clear", "--save", str(save))
    resumed.expect_exact("Player 1 (+0):")  # Ann's move again, not Ben's
    resumed.sendline("29")
    resumed.expect_exact("+0 moves from sector 0 to sector 9")
    resumed.expect_exact("Player 2 (-0):")
    time.sleep(0.5)
    resumed.sendeof()
    resumed.expect(pexpect.EOF)
    assert actions(save) == ["24", "undo", "29"]
