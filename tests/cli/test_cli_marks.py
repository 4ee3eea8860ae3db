"""The computer's move marked on the board at the terminal, game by game (`mark_board` of
each game's CLI module, `boardct.cli.ext`, and the engine's `State.event_targets`): on a real
board after a real agent's move the marked element is the one the targets name, the mark shows
without colours (markers written over blanks or a cell's brackets) and no column moves; and
at `boardct play` the board after the computer's move carries the mark. CTF 2187 marks only
what the viewer's Bots saw (CTF-15, CTF-38, CTF-41)."""

from __future__ import annotations

import importlib
import io
import re

from cli_helpers import run
from rich.text import Text

from boardct.agents.base import make
from boardct.core import moves, registry


def cli_module(game_id: str):
    return importlib.import_module(registry.get(game_id).frontends.cli)


def agent_moves(state, count: int = 1):
    """`count` greedy moves of whoever is to move; the last one's player, targets (named
    where it was chosen) and events."""
    for _ in range(count):
        p = state.current_players()[0]
        action = make("greedy", seed=1).select(state.clone(), p)
        targets = tuple(state.action_targets(action, p))
        events = moves.act(state, p, action, entry=False).events
    return p, targets, events


def reversed_text(board: Text) -> str:
    """The characters of `board` in reverse video, in order."""
    return "".join(board.plain[s.start:s.end] for s in board.spans if "reverse" in str(s.style))


# -- Force Field Factions ------------------------------------------------------------------------
def fff_cell(board: str, square: str) -> tuple[str, int]:
    """The rank line holding `square` and the column its cell starts at."""
    lines = board.split("\n")
    header = next(ln for ln in lines if ln.split()[:2] == ["a", "b"])
    col = header.index(f" {square[0]} ") + 1
    row = next(ln for ln in lines if ln.split()[:1] == [square[1:]])
    return row, col


def test_fff_marks_the_square_the_piece_left_and_the_one_it_stepped_to():
    state = registry.get("fff").new(seed=1, names=["Ann", "Ben"])
    p, targets, events = agent_moves(state, 5)  # Black's greedy turn: d1 m N... (a step)
    mod = cli_module("fff")
    seen = state.event_targets(state.events_for(events, None), None)
    assert targets == ("sq:d1",) and seen and seen[0] == "sq:d2"
    board = state.render_rich(None)
    marked = mod.mark_board(board, targets + seen)
    for square in ("d1", "d2"):
        row, col = fff_cell(marked.plain, square)
        assert row[col - 1] == ">" and "<" in row[col:col + 9], row
    row, col = fff_cell(marked.plain, "e1")  # an untouched square stays as it was
    assert row[col - 1] == " "
    assert "B2" in reversed_text(marked)  # the piece where it went, in reverse video
    assert [len(x) for x in marked.plain.split("\n")] == [len(x) for x in board.plain.split("\n")]


def test_fff_without_targets_or_header_leaves_the_board():
    state = registry.get("fff").new(seed=1, names=["Ann", "Ben"])
    board = state.render_rich(None)
    assert cli_module("fff").mark_board(board, ()) is board
    assert cli_module("fff").mark_board(Text("no board"), ("sq:d1",)).plain == "no board"


def test_play_fff_the_board_after_the_computers_turn_carries_its_squares(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fff", "--names", "Ann", "--vs", "2:greedy", "--seed", "1",
                    "--no-clear", "--color", "never", input="d1 m\n")
    assert code == 0
    named = re.search(r"> Computer \(greedy\) played ([a-h][1-8]) .*steps to ([a-h][1-8])", out)
    assert named, out[-600:]
    board = out[:named.start()].rsplit("    a       b", 2)[-2]  # the board above the name
    board = "    a       b" + board
    for square in named.groups():
        row, col = fff_cell(board, square)
        assert row[col - 1] == ">", (square, row)


# -- Shift ---------------------------------------------------------------------------------------
def shift_marked(board: str) -> list[tuple[int, str]]:
    """The marked gear lines as (card number, line)."""
    card, out = -1, []
    for line in board.split("\n"):
        if line.startswith("  Ability:"):
            card += 1
        if line.endswith(" <"):
            out.append((card, line))
    return out


def test_shift_marks_the_gear_the_computer_shifted_to_on_its_own_card():
    state = registry.get("shift").new(seed=2, names=["Ann", "Ben"])
    moves.act(state, 0, state.parse("first", 0), entry=False)
    moves.act(state, 0, state.parse("pass", 0), entry=False)
    p, targets, _ = agent_moves(state)  # the computer's shift (SH-16)
    assert p == 1 and len(targets) == 1 and targets[0].startswith("gear:1:")
    gear = targets[0].rsplit(":", 1)[1]
    board = state.render_rich(None)
    marked = cli_module("shift").mark_board(board, targets)
    [(card, line)] = shift_marked(marked.plain)
    assert card == 1 and line.startswith(f" *> gear {gear} ") and line.endswith(" <")
    assert f"gear {gear} " in reversed_text(marked)
    assert shift_marked(board.plain) == []
    old, new = board.plain.split("\n"), marked.plain.split("\n")
    k = new.index(line)  # the same line, a blank turned `*` and ` <` after it: no column moved
    assert line == " *" + old[k][2:] + " <"


def test_play_shift_the_board_after_the_computers_shift_marks_its_gear(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "shift", "--cards", "ember-duelist", "tide-warden", "--names", "Ann",
                    "--vs", "2:greedy", "--seed", "2", "--no-clear", "--color", "never",
                    input="first\npass\n")
    assert code == 0
    named = re.search(r"> Computer \(greedy\) played shift (\S+)", out)
    assert named, out[-600:]
    board = out[:named.start()].rsplit("Shift: turn", 1)[1]
    marked = shift_marked(board)
    assert len(marked) == 1 and marked[0][0] == 1  # the computer's card, Player 2's
    assert f"gear {named.group(1)} " in marked[0][1]


# -- Battle for The Shifting Hills ---------------------------------------------------------------
def test_hills_marks_the_hex_a_squad_moved_to_and_the_squad():
    state = registry.get("hills").new(seed=1, names=["Ann", "Ben"])
    p, targets, events = agent_moves(state)  # Player 2 moves its Infantry west (BSH-19)
    mod = cli_module("hills")
    seen = state.event_targets(state.events_for(events, 0), 0)
    assert p == 1 and seen == targets == ("squad:1I", "hex:1,0")
    board = state.render_rich(0)
    marked = mod.mark_board(board, seen)
    lines = marked.plain.split("\n")
    tile = next(k for k, ln in enumerate(lines) if ">F    1,0<" in ln)
    col = lines[tile].index(">F    1,0<")
    assert lines[tile + 1][col] == ">" and "2I6" in lines[tile + 1][col:col + 10]
    squads = next(ln for ln in lines if ln.startswith("Player 2:"))
    assert squads.startswith("Player 2:>I6 (1,0) [done]<| R6")  # only the squad that moved
    assert [ln for ln in lines if ">" in ln and "Player" not in ln] == \
        [lines[tile], lines[tile + 1]]  # nothing else marked on the map
    assert [len(x) for x in lines] == [len(x) for x in board.plain.split("\n")]


def test_hills_names_nothing_for_an_ended_turn_or_a_card_drawn():
    state = registry.get("hills").new(seed=1, names=["Ann", "Ben"])
    assert state.event_targets([("end", 1), ("turn", 0, 1), ("draw", 1)], 0) == ()


def test_play_hills_the_board_after_the_computers_turn_marks_where_its_squads_went(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "hills", "--names", "Ann", "--vs", "2:greedy", "--seed", "1",
                    "--no-clear", "--color", "never", input="end\n")
    assert code == 0
    turn = out.rsplit("Player 1 ends the turn.", 1)[1]
    went = re.findall(r"Player 2's \w+ moves \(\S+\) -> \((\S+)\)", turn)
    assert went, turn[:600]
    board = turn[turn.index("Battle for The Shifting Hills"):]
    for where in went:
        assert re.search(rf">[^\[\]<>]{{1,7}} {re.escape(where)}<", board), where
    assert "Player 2:>" in board and "Player 1:>" not in board


# -- CTF 2187 ------------------------------------------------------------------------------------
def ctf_cell(board: str, x: int, y: int) -> str:
    row = next(ln for ln in board.split("\n") if re.match(rf"^ {{0,2}}{y} ", ln) and
               len(ln) >= 4 + 3 * x)
    return row[4 + 3 * (x - 1):4 + 3 * x]


def ctf_turn():
    """A real turn: Player 1's default sheet, then the computer's (Player 2's) sheet, which
    completes it."""
    state = registry.get("ctf2187").new(seed=1, names=["Ann", "Ben"])
    moves.act(state, 0, state.parse("default", 0), entry=False)
    p, targets, events = agent_moves(state)
    return state, p, targets, events


def test_ctf_marks_the_other_bots_move_as_the_viewers_bots_saw_it():
    state, p, targets, events = ctf_turn()
    mod = cli_module("ctf2187")
    seen = state.event_targets(state.events_for(events, 0), 0)
    bot = state.bots_of(1)[0]
    assert seen == (f"bot:{bot.num}", f"sector:{bot.x}-{bot.y}")  # where it ended
    assert "bot:1" not in seen  # the viewer's own Bot is not the computer's move
    board = state.render_rich(0)
    marked = mod.mark_board(board, seen)
    cell = ctf_cell(marked.plain, bot.x, bot.y)
    assert cell.startswith("*") and cell[1:2] == str(bot.num)
    assert reversed_text(marked).strip("*") == cell.strip("*")
    assert [len(x) for x in marked.plain.split("\n")] == [len(x) for x in board.plain.split("\n")]


def test_ctf_marks_nothing_a_sealed_sheet_or_a_spectator_would_learn():
    """CTF-41: handing in a sheet names no Bot to anyone; a spectator, who sees no Bot while the
    game goes on, gets no mark of any."""
    state = registry.get("ctf2187").new(seed=1, names=["Ann", "Ben"])
    _, targets, events = agent_moves(state)  # a sheet handed in, the turn not processed
    assert targets  # the sheet's own target, which the terminal never uses here
    assert state.event_targets(state.events_for(events, 1), 1) == ()
    state, _, _, events = ctf_turn()
    assert state.event_targets(state.events_for(events, None), None) == ()


def test_play_ctf_the_map_after_the_turn_marks_the_computers_bot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "ctf2187", "--names", "Ann", "--vs", "2:greedy", "--seed", "1",
                    "--no-clear", "--color", "never", input="default\n")
    assert code == 0
    moved = re.findall(r"Bot 2 \w+ \S+ -> (\d+)-(\d+)", out)
    assert moved, out[-600:]
    board = out[out.rindex("CTF 2187  turn 2"):]
    x, y = map(int, moved[-1])
    assert ctf_cell(board, x, y) .startswith("*2")
    mine = re.search(r"Bot 1 A \w+ at (\d+)-(\d+)", board)
    assert mine and not ctf_cell(board, *map(int, mine.groups())).startswith("*")


def test_ctf_a_bot_whose_cell_has_no_blank_is_named_under_the_map():
    """Bot 12's cell (`12<`) has no blank for `*`: reverse video, and a line naming it."""
    state = registry.get("ctf2187").new(seed=1, names=["Ann", "Ben"], bots_per_team=6)
    bot = next(b for b in state.bots_of(1) if b.num == 12)
    board = state.render_rich(1)
    marked = cli_module("ctf2187").mark_board(board, ("bot:12",))
    assert ctf_cell(marked.plain, bot.x, bot.y) == ctf_cell(board.plain, bot.x, bot.y)
    assert reversed_text(marked) == ctf_cell(board.plain, bot.x, bot.y)
    assert marked.plain.split("\n")[-1] == f"Marked (the last turn): Bot 12 at {bot.x}-{bot.y}"
    assert cli_module("ctf2187").mark_board(board, ("bot:13",)) is board  # no such Bot drawn


def computer_session(state, seat: int):
    from rich.console import Console

    from boardct.cli.terminal import Session

    console = Console(file=io.StringIO(), width=100, color_system=None)
    return Session(state, console, computer={seat: make("greedy", seed=1)})


def test_the_terminal_marks_no_sealed_sheet_of_the_computer():
    """CTF-41: the computer (Player 1) hands in its sheet first; until the turn is processed
    nothing is marked, though the sheet names its Bot (`action_targets`)."""
    state = registry.get("ctf2187").new(seed=1, names=["Ben", "Ann"])
    session = computer_session(state, 0)
    session.computer_moves()
    assert tuple(state.current_players()) == (1,) and session.last_targets == ()
    moves.act(state, 1, state.parse("default", 1), entry=False)  # Ann's sheet: turn 1 done
    session.computer_moves()  # the computer's next sheet: again nothing to mark
    assert session.last_targets == ()


def test_the_terminal_marks_a_hills_turn_whole_from_its_public_events():
    """Every action of the computer's turn is marked (not the last one, `end`, alone), from
    what its public events name."""
    state = registry.get("hills").new(seed=1, names=["Ann", "Ben"])
    alone, agent, expected = state.clone(), make("greedy", seed=1), []
    while alone.current_players() == (1,):  # the same turn played aside, its events read
        action = agent.select(alone.clone(), 1)
        events = moves.act(alone, 1, action, entry=False).events
        found = alone.event_targets(alone.events_for(events, 0), 0)
        expected += [t for t in found if t not in expected]
    session = computer_session(state, 1)
    session.computer_moves()
    assert tuple(state.current_players()) == (0,)
    assert session.last_targets == tuple(expected)
    assert len([t for t in expected if t.startswith("squad:1")]) >= 2
