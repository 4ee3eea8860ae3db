"""Issue 17 item 8: the terminal's layout. Messages wrap at word boundaries (never mid-word) on a
terminal and stay one line in a file; boards are never wrapped; at 80x24 every game's board and
prompt fit, with the game's compact board (`State.render_compact`) where the ordinary one does
not."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.cells import cell_len
from rich.console import Console

from boardct.cli.terminal import Session, fits
from boardct.core import registry
from boardct.core.game import COMPACT_SIZE

GAMES = ("fieldshift", "fff", "hills", "shift", "ctf2187")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
LONG = ("Rejected: BSH-27: your Mech cannot move E: that is off the map, and a Mech never "
        "enters a revealed mountain; nothing changed.")


def terminal(width: int, height: int, color: bool = False) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=width, height=height,
                      color_system="standard" if color else None, highlight=False,
                      soft_wrap=True)
    return console, out


def session(game_id: str, console: Console, color: bool = False) -> Session:
    return Session(registry.get(game_id).new(seed=3, names=("A", "B")), console, color=color)


# -- messages ---------------------------------------------------------------------------------
def test_a_long_message_wraps_at_words_at_width_40():
    console, out = terminal(40, 24)
    session("hills", console).say([LONG])
    lines = out.getvalue().splitlines()
    assert len(lines) > 1 and all(len(line) <= 40 for line in lines)
    # every word whole on one line: the lines' words are the message's words, in order
    assert [w for line in lines for w in line.split()] == LONG.split()
    assert all(line == line.rstrip() for line in lines)  # no trailing blanks left by wrapping


def test_a_coloured_message_wraps_at_words_too():
    console, out = terminal(40, 24, color=True)
    session("hills", console, color=True).say([LONG], "red")
    lines = ANSI.sub("", out.getvalue()).splitlines()
    assert all(len(line) <= 40 for line in lines)
    assert [w for line in lines for w in line.split()] == LONG.split()


def test_a_word_longer_than_the_line_is_folded_not_lost():
    console, out = terminal(20, 24)
    word = "x" * 50
    session("fff", console).say([f"Could not save to {word}."])
    text = out.getvalue()
    assert all(len(line) <= 20 for line in text.splitlines())
    assert word in text.replace("\n", "")


def test_messages_written_to_a_file_stay_one_line():
    """Script output goes to files and pipes, where lines are searched, not read at a width."""
    out = io.StringIO()
    console = Console(file=out, width=40, color_system=None, highlight=False, soft_wrap=True)
    session("hills", console).say([LONG])
    assert out.getvalue() == LONG + "\n"


# -- boards -----------------------------------------------------------------------------------
def shown_lines(out: io.StringIO) -> list[str]:
    return ANSI.sub("", out.getvalue()).rstrip("\n").split("\n")


def assert_fits(lines: list[str], prompt: str) -> None:
    columns, rows = COMPACT_SIZE
    assert len(lines) + 1 <= rows, f"{len(lines)} board lines and the prompt"
    for line in lines + [prompt]:
        assert cell_len(line) <= columns, line


@pytest.mark.parametrize("game_id", GAMES)
def test_board_and_prompt_fit_an_80x24_terminal(game_id):
    console, out = terminal(*COMPACT_SIZE)
    s = session(game_id, console)
    s.show_board()
    assert_fits(shown_lines(out), s.state.prompt())


@pytest.mark.parametrize("game_id", GAMES)
def test_the_coloured_board_fits_an_80x24_terminal_and_says_the_same(game_id):
    console, out = terminal(*COMPACT_SIZE, color=True)
    s = session(game_id, console, color=True)
    s.show_board()
    lines = shown_lines(out)
    assert_fits(lines, s.state.prompt())
    viewer = s.viewer()
    full = s.state.render(viewer)
    board = full if fits_plain(full) else s.state.render_compact(viewer).plain
    assert [ln.rstrip() for ln in lines] == [ln.rstrip() for ln in board.rstrip("\n").split("\n")]


def fits_plain(board: str) -> bool:
    from rich.text import Text

    return fits(Text(board), COMPACT_SIZE)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_large_terminal_shows_the_ordinary_board_unchanged(game_id):
    """The compact board is for small terminals only: FieldShift's FS-23 screen and every other
    board are printed exactly as `render` draws them when they fit."""
    console, out = terminal(200, 80)
    s = session(game_id, console)
    s.show_board()
    assert out.getvalue() == s.state.render(s.viewer()) + "\n"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_file_gets_the_ordinary_board_whatever_its_width(game_id):
    out = io.StringIO()
    console = Console(file=out, width=40, height=10, color_system=None, highlight=False,
                      soft_wrap=True)
    s = session(game_id, console)
    s.show_board()
    assert out.getvalue() == s.state.render(s.viewer()) + "\n"  # and never wrapped


@pytest.mark.parametrize("game_id", GAMES)
def test_the_compact_board_fits_80x24_through_a_whole_random_game(game_id):
    """Not only the opening: every position of a seeded random game, seen by the player to
    move (and by a spectator), fits 80x24 with its prompt."""
    game = registry.get(game_id)
    state = game.new(seed=5, names=("A", "B"))
    rnd = random.Random(5)
    for _ in range(120):
        if state.is_over:
            break
        player = state.current_players()[0]
        for viewer in {None, player}:
            lines = state.render_compact(viewer).plain.rstrip("\n").split("\n")
            assert_fits(lines, state.prompt())
        state.apply(rnd.choice(state.legal_actions(player)), player)


def test_hills_compact_board_fits_with_every_line_at_its_longest():
    """Shifting Hills at its widest: Seize counters for both, impeded squads to deimpede,
    a Boost pending, a hand of every card, a full discard pile."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "hills"))
    from hills_helpers import position

    s = position(squads={"0I": (2, 0, 12, True), "0R": (-1, -2, 10, True),
                         "0M": (1, -3, 3, True), "1I": (-2, 0, 2, True)},
                 hands=((0, 9, 9, 9), (0, 9, 9, 9)), seize=(2, 1))
    s.discard = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]
    s.boosted = 1
    for viewer in (0, 1, None):
        lines = s.render_compact(viewer).plain.rstrip("\n").split("\n")
        assert_fits(lines, s.prompt())
    full = s.render(0).split("\n")
    assert max(len(line) for line in full) > COMPACT_SIZE[0]  # the case the compact board is for


def test_a_board_is_measured_with_its_closing_blank_lines_and_the_prompt():
    """FieldShift's screen ends with two blank lines (FS-40): they take screen lines too."""
    from rich.text import Text

    board = Text("[Player 1]\nSector 0:\n\n")  # four printed lines, then the prompt
    assert fits(board, (80, 5)) and not fits(board, (80, 4))
    assert not fits(Text("x" * 81), (80, 24)) and fits(Text("x" * 80), (80, 24))


def test_the_hills_compact_board_shows_only_the_viewers_own_hand():
    """The compact board is drawn from the same view as the ordinary one: the opponent's hand
    is a count, face-down tiles stay '?'."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parents[1] / "hills"))
    from hills_helpers import position

    s = position(tiles={(-1, 0): "M*"}, hands=((0, 1, 0, 0), (0, 0, 2, 1)))
    mine = s.render_compact(0).plain
    assert "Player 1 hand: Artillery Strike\n" in mine
    assert "Player 2 hand: 3 cards\n" in mine
    assert "Extra Ammo" not in mine and "Boost" not in mine.replace("Boost on", "")
    assert "[?   -1,0]" in mine and "M*" not in mine
    theirs = s.render_compact(1).plain
    assert "Player 2 hand: Extra Ammo x2, Boost\n" in theirs and "Artillery" not in theirs
