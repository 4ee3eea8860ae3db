"""Issue 17 item 3: in hot-seat Shifting Hills the acting player reads what their last action did
(a tile revealed, a Mech that could not enter, a fight) on the hand-over screen, before the
screen is wiped for the other player. Each of those results is one clear line in words
(`describe`), and every line still passes through `events_for` (the secrecy filter)."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest
from hills_helpers import HILLS, layout, play, position
from rich.console import Console

from boardct.cli.terminal import Session

WIPE = "\x1b[H\x1b[2J\x1b[3J"  # the hand-over's wipe: screen and scrollback


# -- the results in words (describe) --------------------------------------------------------------
def test_a_revealed_tile_is_named_in_words():
    """BSH-8: a move onto a face-down tile turns it face up for both."""
    s = position(tiles={(-1, 0): "F"})
    ev = play(s, "I move E")
    assert s.describe(ev[0]) == "The tile at (-1,0) is revealed: forest."


def test_a_revealed_star_is_named_too():
    s = position(tiles={(-1, 0): "P*"}, deck=("artillery",))
    ev = play(s, "I move E")
    assert s.describe(ev[0]) == "The tile at (-1,0) is revealed: plains with a star."


def test_a_mech_that_could_not_enter_says_where_why_and_what_it_cost():
    """BSH-8, BSH-27: a Mech moving onto a face-down mountain stays; its action is spent."""
    s = position(tiles={(-1, 0): "M"})
    ev = play(s, "M move E")
    assert [s.describe(e) for e in ev] == [
        "The tile at (-1,0) is revealed: mountain.",
        "Player 1's Mech could not enter (-1,0): it is a mountain. The Mech stays, its "
        "action spent.",
    ]


def test_a_fight_says_who_strikes_whom_and_the_units_lost_and_left():
    """BSH-10: stage 1, then the defender still standing strikes back (stage 2)."""
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6)})
    ev = play(s, "I attack E R")
    assert [s.describe(e) for e in ev] == [
        "Player 1's Infantry attacks Player 2's Rocketeer at (1,0) for 3.",
        "Player 2's Rocketeer loses 3 units (3 left).",
        "Player 2's Rocketeer strikes back at Player 1's Infantry for 2.",
        "Player 1's Infantry loses 2 units (4 left).",
    ]


def test_one_unit_lost_reads_unit():
    s = position(squads={"1M": (1, 0, 4)}, hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    ev = play(s, "play artillery M")
    assert s.describe(ev[-1]) == "Player 2's Mech loses 1 unit (3 left)."


def test_extra_ammo_names_both_squads():
    """BSH-33: Extra Ammo repeats stage 1 against the same defender."""
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6)}, hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    ev = play(s, "play ammo I E R")
    lines = [s.describe(e) for e in ev]
    assert "Extra Ammo: Player 1's Infantry strikes Player 2's Rocketeer again." in lines


def test_a_kill_says_destroyed_and_moves_in():
    """BSH-11: the defender destroyed, the attacker moves in."""
    s = position(squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    ev = play(s, "M attack E I")
    assert [s.describe(e) for e in ev][-2:] == [
        "Player 2's Infantry is destroyed.",
        "Player 1's Mech moves in to (1,0).",
    ]


# -- the hand-over screen -------------------------------------------------------------------------
class Keyboard:
    """Answers the prompts in order (EOFError when done), writing each prompt as a terminal
    shows it."""

    def __init__(self, out: io.StringIO, answers: list[str]):
        self.out = out
        self.answers = list(answers)

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        if not self.answers:
            raise EOFError
        answer = self.answers.pop(0)
        self.out.write(answer + "\n")
        return answer


def hand_over(state, commands: list[str]) -> str:
    """Play `commands` as Player 1 in hot-seat until the hand-over to Player 2; the screen."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, color_system=None, highlight=False,
                      soft_wrap=True, width=200, height=60)
    session = Session(state, console)
    answers = [""] + commands + ["", ""]  # pass to Player 1, commands, hide, pass to Player 2
    session.run_interactive(Keyboard(out, answers))
    return out.getvalue()


def before_the_wipe(screen: str) -> str:
    """What the acting player read before the hand-over wiped the screen."""
    hide = screen.index("Player 1: press Enter to hide the screen.")
    assert WIPE in screen[hide:], "the hand-over did not wipe the screen"
    return screen[:hide]


def test_the_acting_player_reads_a_fight_that_ended_the_turn_before_the_wipe(tmp_path,
                                                                             monkeypatch):
    """The Infantry is Player 1's last squad: its attack ends the turn (BSH-24), so the fight's
    result is on the hand-over screen, above the prompt that hides it."""
    monkeypatch.chdir(tmp_path)
    # an arranged position has no record to keep when the input ends
    monkeypatch.setattr(Session, "_leave", lambda self, why, code=0, always=False: code)
    s = position(squads={"0I": (0, 0, 6), "0R": None, "0M": None, "1R": (1, 0, 6)})
    screen = hand_over(s, ["I attack E R"])
    mine = before_the_wipe(screen)
    last = mine[mine.rindex("Player 1 (turn 1"):]  # after the prompt that took the attack
    for line in ("Player 1's Infantry attacks Player 2's Rocketeer at (1,0) for 3.",
                 "Player 2's Rocketeer loses 3 units (3 left).",
                 "Player 2's Rocketeer strikes back at Player 1's Infantry for 2.",
                 "Player 1's Infantry loses 2 units (4 left).",
                 "Player 1 has nothing left to do."):
        assert line in last


def test_the_acting_player_reads_a_mech_stopped_by_a_mountain_before_the_wipe(tmp_path,
                                                                             monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = position(tiles={(-1, 0): "M"})
    screen = hand_over(s, ["I wait", "R wait", "M move E"])
    last = before_the_wipe(screen)
    last = last[last.rindex("Player 1 (turn 1"):]
    assert "The tile at (-1,0) is revealed: mountain." in last
    assert "Player 1's Mech could not enter (-1,0): it is a mountain." in last


def test_the_hand_over_lines_pass_through_the_secrecy_filter(tmp_path, monkeypatch):
    """What the acting player reads is `events_for(events, acting player)`: a filter that
    hides an event hides it on the hand-over screen too."""
    monkeypatch.chdir(tmp_path)
    asked: list = []
    cls = type(HILLS.new(seed=1))
    real = cls.events_for

    def events_for(self, events, player):
        asked.append(player)
        return [e for e in real(self, events, player) if e[0] != "stopped"]

    monkeypatch.setattr(cls, "events_for", events_for)
    s = position(tiles={(-1, 0): "M"})
    screen = hand_over(s, ["I wait", "R wait", "M move E"])
    last = before_the_wipe(screen)
    assert "The tile at (-1,0) is revealed: mountain." in last
    assert "could not enter" not in screen
    assert 0 in asked


@pytest.mark.skipif(sys.platform == "win32", reason="pexpect needs a POSIX pseudo-terminal")
def test_hot_seat_at_an_80x24_terminal_shows_the_results_then_wipes(tmp_path):
    """The real program in a pseudo-terminal of 80x24: Player 1's last action reveals a
    mountain that stops the Mech and ends the turn; Ann reads both results (wrapped at words)
    before she hides the screen, and only then is it wiped for Ben."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "layout.txt"
    path.write_text(layout({(-1, 0): "M"}))
    exe = shutil.which("boardct") or str(Path(sys.executable).with_name("boardct"))
    child = pexpect.spawn(exe, ["play", "hills", "--names", "Ann", "Ben", "-o",
                                f"layout={path}", "--color", "never"], cwd=str(tmp_path),
                          encoding="utf-8", timeout=20, dimensions=(24, 80))
    child.expect_exact("Pass the keyboard to Ann (Player 1) and press Enter.")
    child.sendline("")
    child.expect_exact("P plains, M mountain (no Mechs)")  # the compact board fits 80x24
    for command in ("I wait", "R wait", "M move E"):
        child.expect_exact("Player 1 (turn 1, to act:")
        child.sendline(command)
    child.expect_exact("The tile at (-1,0) is revealed: mountain.")
    child.expect_exact("Player 1's Mech could not enter (-1,0): it is a mountain. The Mech "
                       "stays, its\r\naction spent.")  # 80 columns: wrapped at a word
    child.expect_exact("Ann: press Enter to hide the screen.")
    assert WIPE not in child.before  # nothing wiped her results before she read them
    child.sendline("")
    child.expect_exact(WIPE)
    child.expect_exact("Pass the keyboard to Ben (Player 2) and press Enter.")
    child.sendline("")
    child.expect_exact("Player 2 (turn 1, to act: I R M):")
    child.sendeof()
    child.expect_exact("Input ended; the game was saved to ")
    child.expect(pexpect.EOF)
