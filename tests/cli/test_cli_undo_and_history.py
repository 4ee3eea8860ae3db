"""Take-backs at the terminal: who is asked (the opponent allows the player who asks), what a
player may not take back (another player's hidden orders), and the history entry of a game
whose moves were taken back, which must replay and resume where the game was left."""

from __future__ import annotations

import io
import json

from cli_helpers import run
from rich.console import Console

from boardct.cli import history
from boardct.cli.terminal import Session
from boardct.core import registry
from boardct.core.records import load_state


class Answers:
    """The answers to the terminal's questions, in order; every question is kept."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.questions: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.questions.append(prompt)
        assert self.answers, f"unexpected question: {prompt!r}"
        return self.answers.pop(0)


def session(game_id: str, seed: int = 1) -> Session:
    console = Console(file=io.StringIO(), color_system=None, highlight=False)
    return Session(registry.get(game_id).new(seed=seed, names=("Ann", "Ben")), console)


def test_the_player_who_asks_is_named_and_the_opponent_is_asked():
    """Ann played 24, Ben 29; at her turn Ann asks: Ben is asked to allow Ann to take back her
    move and his reply (not Ann to allow Ben)."""
    s = session("fieldshift")
    assert s.handle("24", Answers()).kind == "ok"
    assert s.handle("29", Answers()).kind == "ok"
    ask = Answers("01")
    step = s.handle("undo", ask)
    assert ask.questions == ["Ben (Player 2), allow Ann (Player 1) to take back their move and "
                             "the reply (2 actions)? 01/00 "]
    assert step.kind == "ok" and not s.state.history()


def test_right_after_a_move_the_opponent_is_asked_for_the_mover():
    s = session("fieldshift")
    s.handle("24", Answers())
    ask = Answers("00")
    step = s.handle("undo", ask)
    assert ask.questions == ["Ben (Player 2), allow Ann (Player 1) to take back their move? "
                             "01/00 "]
    assert step.kind == "rejected" and len(s.state.history()) == 1


def test_ctf2187_a_player_cannot_take_back_another_players_hidden_sheet():
    s = session("ctf2187")
    assert s.handle("default", Answers()).kind == "ok"  # Ann's sheet for Bot 1, sealed
    assert s.state.current_players() == (1,)
    step = s.handle("undo", Answers())  # Ben at the keyboard: nobody is even asked
    assert step.kind == "rejected" and "no move to take back" in step.lines[0]
    s.handle("default", Answers())  # Ben's sheet: turn 1 is processed
    s.handle("default", Answers())  # Ann's sheet for turn 2, sealed
    step = s.handle("undo", Answers())  # Ben's last sheet lies behind Ann's
    assert step.kind == "rejected" and "another player's hidden move" in step.lines[0]
    assert len(s.state.history()) == 3


def test_ctf2187_a_player_may_not_take_back_a_processed_turn():
    s = session("ctf2187")
    s.handle("default", Answers())
    s.handle("default", Answers())  # Ben's: the turn is processed, which reveals (CTF-41)
    step = s.handle("undo", Answers())
    assert step.kind == "rejected" and len(s.state.history()) == 2


def test_fieldshift_undo_then_quit_history_replays_and_resumes_after_the_undo(tmp_path,
                                                                               monkeypatch):
    """24, undo (allowed with 01), quit: the history entry ends after the undo, so `replay N`
    shows the start and `--resume N` goes on from it (the taken-back 24 is not in force)."""
    monkeypatch.chdir(tmp_path)
    code, out = run("play", "fieldshift", "--names", "Ann", "Ben", "--seed", "1", "--no-clear",
                    "--color", "never", input="24\nundo\n01\nquit\n")
    assert code == 0 and "Taken back: 1 action." in out
    [kept] = history.history_files(history.history_dir())
    rec = json.loads(kept.read_text(encoding="utf-8"))
    assert rec["actions"] == ["24", "undo"]
    state = load_state(str(kept))
    assert state.history() == [] and state.current_players() == (0,)
    start = registry.get("fieldshift").new(seed=1, names=("Ann", "Ben"))
    assert state.snapshot() == start.snapshot()
    code, out = run("replay", "1", "--final", "--color", "never")
    assert code == 0 and "Ruins Sector 0: +0 +1 +2 +3 +4" in out  # +0 back at home
    code, out = run("play", "fieldshift", "--resume", "1", "--no-clear", "--color", "never",
                    "--save", str(tmp_path / "r.json"), input="29\n")
    assert code == 0 and "+0 moves from sector 0 to sector 9" in out  # Ann moves again
    assert json.loads((tmp_path / "r.json").read_text())["actions"] == ["24", "undo", "29"]
