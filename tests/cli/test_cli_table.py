"""Help at the table in the terminal (issue 17 item 1): `moves`, `hint`, `preview CMD`/`?CMD`,
`undo`, `status`, `save`, `quit` and `resign` in every game, after the game's own commands in
`help`, and never in the way of a game's own command."""

from __future__ import annotations

import io
import json

import pytest
from cli_helpers import run, script
from rich.console import Console

from boardct.agents import make
from boardct.cli import terminal
from boardct.cli.terminal import Session
from boardct.core import registry
from boardct.core.records import load_state, record_of

GAMES = ["fieldshift", "fff", "hills", "shift", "ctf2187"]


class Answers:
    """The answers a player types to the terminal's questions, in order; every question is
    kept. Asking more than was planned fails the test."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.questions: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.questions.append(prompt)
        assert self.answers, f"unexpected question: {prompt!r}"
        return self.answers.pop(0)


def session(game_id: str, seed: int = 5, **kwargs) -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, color_system=None, highlight=False, soft_wrap=True)
    state = registry.get(game_id).new(seed=seed, names=("Ann", "Bob"))
    return Session(state, console, **kwargs), out


# -- help ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_help_lists_the_games_own_commands_first_then_those_at_the_table(game_id):
    s, _ = session(game_id)
    step = s.handle("help", Answers())
    own = registry.get(game_id).help_text.rstrip("\n").split("\n")
    assert step.kind == "help" and step.lines[:len(own)] == own
    rest = "\n".join(step.lines[len(own):])
    for word in ("moves [GROUP]", "hint", "preview CMD", "?CMD", "undo", "status",
                 "save [FILE]", "quit", "resign"):
        assert word in rest


def test_fieldshift_help_names_its_confirm_and_deny_answers_for_undo():
    s, _ = session("fieldshift")
    assert any("must agree 01/00" in ln for ln in s.handle("help", Answers()).lines)


# -- moves, preview, status ----------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_moves_preview_and_status_show_things_and_change_nothing(game_id):
    s, _ = session(game_id)
    before = record_of(s.state).to_json()
    moves = s.handle("moves", Answers())
    assert moves.kind == "help" and len(moves.lines) > 1
    first = s.state.notation(s.state.legal_actions(s.state.current_players()[0])[0])
    preview = s.handle(f"?{first}", Answers())
    assert preview.kind == "help" and preview.lines[0].startswith(first)
    assert s.handle(f"preview {first}", Answers()).lines == preview.lines
    status = s.handle("status", Answers())
    counted = "to decide" if s.state.game.simultaneous else "0 actions played"  # CTF-41
    assert status.kind == "help" and counted in status.lines[0]
    assert record_of(s.state).to_json() == before


def test_moves_of_one_group_and_a_group_there_is_not():
    s, _ = session("fieldshift")
    step = s.handle("moves mov", Answers())
    assert step.lines[0] == "MOV (10):" and len(step.lines) == 11
    bad = s.handle("moves XYZ", Answers())
    assert bad.kind == "rejected" and "no group 'xyz'" in bad.lines[0]


def test_a_preview_of_a_command_that_breaks_a_rule_says_which_and_changes_nothing():
    s, _ = session("fieldshift")
    step = s.handle("?2x", Answers())
    assert step.kind == "rejected" and "FS-5" in step.lines[0]
    assert s.handle("preview", Answers()).kind == "rejected"
    assert s.state.history() == []


def test_a_hills_preview_gives_odds_from_the_players_view():
    s, _ = session("hills")
    p = s.state.current_players()[0]
    move = next(s.state.notation(a) for a in s.state.legal_actions(p)
                if any(e[0] == "reveal" for e in s.state.clone().apply(a, p)))
    step = s.handle(f"?{move}", Answers())
    assert "from what you can see" in step.lines[0]
    assert all(ln.endswith("%)") for ln in step.lines[1:])


# -- hint ----------------------------------------------------------------------------------------
def test_a_hint_is_the_agents_suggestion_with_its_evaluation_and_the_same_for_a_seed():
    got = []
    for _ in range(2):
        s, _ = session("fieldshift")
        s.hint_agent, s.hint_seed = "mcts:iters=200", 9
        step = s.handle("hint", Answers())
        assert step.kind == "help" and step.lines[0].startswith("Hint (mcts:iters=200): ")
        assert s.state.history() == []
        got.append(step.lines)
    assert got[0] == got[1]
    suggested = got[0][0].split(": ", 1)[1].split()[0]
    assert s.state.parse(suggested) in s.state.legal_actions()


# -- undo ----------------------------------------------------------------------------------------
def test_hot_seat_undo_needs_the_opponents_confirm_01():
    s, _ = session("fieldshift")
    start = s.state.snapshot()
    assert s.handle("21", Answers()).kind == "ok"
    ask = Answers("01")
    step = s.handle("undo", ask)
    assert ask.questions == ["Bob (Player 2), allow Ann (Player 1) to take back their move? "
                             "01/00 "]
    assert step.kind == "ok" and step.lines[0] == "Taken back: 1 action."
    assert s.state.snapshot() == start
    assert record_of(s.state).actions == ["21", "undo"]


def test_hot_seat_undo_refused_with_00_changes_nothing():
    s, _ = session("fieldshift")
    s.handle("21", Answers())
    step = s.handle("undo", Answers("00"))
    assert step.kind == "rejected" and "Bob said no" in step.lines[0]
    assert [s.state.notation(a) for _, a in s.state.history()] == ["21"]
    assert record_of(s.state).actions == ["21"]


def test_an_answer_that_is_neither_is_asked_again():
    s, out = session("hills")
    p = s.state.current_players()[0]
    s.handle("I wait", Answers())
    ask = Answers("maybe", "y")
    assert s.handle("undo", ask).kind == "ok" and len(ask.questions) == 2
    assert "Answer y (yes) or n (no)." in out.getvalue()
    assert s.state.current_players() == (p,)


def test_three_answers_that_are_neither_are_a_no():
    s, _ = session("hills")
    s.handle("I wait", Answers())
    ask = Answers("maybe", "perhaps", "later", "y")
    assert s.handle("undo", ask).kind == "rejected" and len(ask.questions) == 3
    assert len(s.state.history()) == 1  # nothing taken back


def test_undo_is_refused_with_a_clear_message_after_a_hidden_tile_is_revealed():
    s, _ = session("hills")
    p = s.state.current_players()[0]
    move = next(s.state.notation(a) for a in s.state.legal_actions(p)
                if any(e[0] == "reveal" for e in s.state.clone().apply(a, p)))
    s.handle(move, Answers())
    step = s.handle("undo", Answers())  # refused before anyone is asked
    assert step.kind == "rejected" and "revealed something" in step.lines[0]
    assert len(s.state.history()) == 1


def test_against_the_computer_undo_takes_back_your_move_and_its_reply_without_asking():
    s, _ = session("fff", computer={1: make("random", seed=1)})
    assert s.handle("a1 NE", Answers()).kind == "ok"
    s.computer_moves()
    assert len(s.state.history()) == 2
    step = s.handle("undo", Answers())
    assert step.kind == "ok" and step.lines[0] == "Taken back: 2 actions."
    assert s.state.history() == [] and s.state.current_players() == (0,)
    assert record_of(s.state).actions[-1] == "undo 2"


def test_against_the_computer_there_is_nothing_to_take_back_before_your_first_move():
    s, _ = session("fff", computer={0: make("random", seed=1)})
    s.computer_moves()
    step = s.handle("undo", Answers())
    assert step.kind == "rejected" and "no move to take back" in step.lines[0]


def test_an_undo_is_kept_in_the_save_file_and_a_replay_shows_it(tmp_path):
    path = tmp_path / "game.json"
    s, _ = session("fieldshift", save_path=path)
    s.handle("21", Answers())
    s.handle("undo", Answers("01"))
    s.handle("24", Answers())
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["actions"] == ["21", "undo", "24"] and doc["version"] == 2
    resumed = load_state(path)
    assert resumed.snapshot() == s.state.snapshot()
    replayed = terminal.positions(resumed)
    frames, texts = replayed.frames, replayed.texts
    assert texts == ["21", "undo", "24"]
    assert frames[2].snapshot() == frames[0].snapshot()  # after the undo: the start again
    out = io.StringIO()
    console = Console(file=out, color_system=None, highlight=False, soft_wrap=True)
    terminal.run_replay(resumed, console, False, Answers("", "", "q"))
    assert "--- move 2 of 3 (after 2: undo) ---\n  (undo)" in out.getvalue()


def test_undo_in_a_script_is_answered_by_the_next_token(tmp_path):
    code, out = run("play", "fieldshift", "--names", "A", "B", "--seed", "1", "--trace",
                    "--script", script(tmp_path, "21", "undo", "01", "status"))
    assert code == 0
    assert "B (Player 2), allow A (Player 1) to take back their move? 01/00 01" in out
    assert "Taken back: 1 action." in out
    assert "FieldShift: 0 actions played; to decide: Player 1." in out


# -- resign, save, quit --------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_resign_asks_for_confirmation_and_ends_the_game(game_id):
    s, _ = session(game_id)
    p = s.state.current_players()[0]
    yes, no = s.state.game.confirm_words
    refused = s.handle("resign", Answers(no))
    assert refused.kind == "rejected" and not s.state.is_over
    step = s.handle("resign", Answers(yes))
    assert step.kind == "ok" and s.state.is_over
    assert p not in s.state.outcome.winners
    assert s.handle("undo", Answers()).kind == "rejected"  # a finished game stays finished


def test_fieldshift_resign_is_its_concession_09():
    s, _ = session("fieldshift")
    s.handle("resign", Answers("01"))
    assert record_of(s.state).actions == ["09"] and s.state.outcome.reason == "concession"


def test_save_keeps_the_game_and_play_goes_on(tmp_path):
    s, _ = session("shift")
    path = tmp_path / "kept.json"
    step = s.handle(f"save {path}", Answers())
    assert step.kind == "help" and step.lines[0].startswith(f"Game saved to {path}.")
    assert record_of(load_state(path)).actions == record_of(s.state).actions
    assert not s.state.is_over


def test_a_save_that_fails_says_so_and_the_game_goes_on(tmp_path):
    s, _ = session("shift")
    step = s.handle(f"save {tmp_path / 'no' / 'such' / 'dir.json'}", Answers())
    assert step.kind == "rejected" and step.lines[0].startswith("Could not save to ")


def test_quit_saves_the_game_and_leaves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "hills", "--names", "A", "B", "--seed", "3",
                    "--script", script(tmp_path, "end", "quit", "end"))
    assert code == 0
    saved = sorted(tmp_path.glob("boardct-hills-*.json"))
    assert len(saved) == 1 and f"Game saved to {saved[0].name}." in out
    assert record_of(load_state(saved[0])).actions == ["end"]  # the last `end` was never read


def test_quit_to_a_named_file(tmp_path):
    s, _ = session("fff")
    s.handle("a1 NE", Answers())
    step = s.handle(f"quit {tmp_path / 'g.json'}", Answers())
    assert step.kind == "suspended" and step.path == tmp_path / "g.json"
    assert record_of(load_state(tmp_path / "g.json")).actions == ["a1 NE"]


# -- the game's words first ----------------------------------------------------------------------
def test_a_command_the_game_reads_is_the_games_even_if_it_is_a_table_word(monkeypatch):
    from boardct.games.fff.state import FFFState

    real = FFFState.parse

    def parse(self, text, player=None):
        return () if text == "status" else real(self, text, player)

    monkeypatch.setattr(FFFState, "parse", parse)
    s, _ = session("fff")
    step = s.handle("status", Answers())
    assert step.kind == "ok" and [a for _, a in s.state.history()] == [()]  # it passed


@pytest.mark.parametrize("game_id", GAMES)
def test_no_game_reads_a_table_word_as_one_of_its_commands(game_id):
    s, _ = session(game_id)
    for word in sorted(terminal.TABLE_WORDS) + ["?I move E", "?21", "moves I", "save x.json"]:
        assert not s._game_reads(word), word


def test_the_games_own_help_words_still_work():
    s, _ = session("shift")
    assert s.handle("?", Answers()).kind == "help"
    assert s.handle("pass", Answers()).kind in ("ok", "rejected")  # Shift's, not the table's
