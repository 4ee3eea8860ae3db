"""Issue 15, "What it must show": over whole random hot-seat games of the games with hidden
information, what the terminal prints to a player between two hand-overs holds nothing that
only another player's view holds.

The check is generic: at every prompt, the lines of the other player's board that neither
this player's board nor a spectator's shows (the other's hand, Bots only they can see...) must
not be in what the terminal printed since the keyboard was handed to this player.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from boardct.cli.terminal import Session
from boardct.core import registry


class RandomPlayer:
    """Answers each prompt of `Session.run_interactive`: a random legal command at a command
    prompt, Enter at a hand-over; checks what the player at the keyboard has seen so far."""

    def __init__(self, session: Session, out: io.StringIO, seed: int, limit: int):
        self.s = session
        self.out = out
        self.rng = random.Random(seed)
        self.limit = limit
        self.seen_from = 0  # where the present player's screen starts in `out`
        self.checked = 0

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        if prompt.startswith("Pass the keyboard"):
            self.seen_from = self.out.tell()  # a new player: the screen is wiped
            self.out.write("\n")
            return ""
        if "press Enter to hide" in prompt:
            self.out.write("\n")
            return ""
        state = self.s.state
        players = state.current_players()
        if not players or self.limit <= 0:
            raise EOFError
        self.limit -= 1
        me = players[0]
        self.check(state, me, self.out.getvalue()[self.seen_from:])
        action = self.rng.choice(state.legal_actions(me))
        text = state.notation(action)
        self.out.write(text + "\n")
        return text

    def check(self, state, me: int, screen: str) -> None:
        mine = set(state.render(me).splitlines()) | set(state.render(None).splitlines())
        for other in state.iter_players():
            if other == me:
                continue
            secret = [ln for ln in state.render(other).splitlines()
                      if ln.strip() and ln not in mine]
            leaked = [ln for ln in secret if ln in screen.splitlines()]
            assert not leaked, f"Player {me + 1} was shown Player {other + 1}'s {leaked}"
        self.checked += 1


@pytest.mark.parametrize("game_id,seed", [("hills", 1), ("hills", 2), ("ctf2187", 3),
                                          ("ctf2187", 4)])
def test_a_whole_hot_seat_game_never_shows_a_player_what_only_the_other_may_see(
        game_id, seed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where the game is saved when the input ends
    out = io.StringIO()
    console = Console(file=out, color_system=None, highlight=False, soft_wrap=True)
    state = registry.get(game_id).new(seed=seed, names=("A", "B"))
    session = Session(state, console)
    player = RandomPlayer(session, out, seed, limit=120)
    session.run_interactive(player)
    assert player.checked >= 10  # a real game was played through the terminal
    assert "Pass the keyboard" in out.getvalue()


def test_ctf2187_at_the_terminal_nobody_is_told_who_else_has_handed_in(tmp_path, monkeypatch):
    """CTF-41 at the terminal: B plays against two computers (A and C, who hand in before and
    after B). The computers' sheets are not announced ("played."), and B's `status` names
    every player as still to decide, A's sheet in or not; once B has handed in and the turn is
    processed, turn 2 begins with everyone to decide again."""
    from boardct.agents import make as make_agent

    monkeypatch.chdir(tmp_path)  # the session's save file
    out = io.StringIO()
    console = Console(file=out, color_system=None, highlight=False, soft_wrap=True)
    state = registry.get("ctf2187").new(seed=3, names=("A", "B", "C"), teams=3)
    s = Session(state, console, computer={0: make_agent("random", seed=1),
                                          2: make_agent("random", seed=2)})
    answers = ["status", "default", "status"]

    def keyboard(prompt: str) -> str:
        out.write(prompt)
        if not answers:
            raise EOFError
        answer = answers.pop(0)
        out.write(answer + "\n")
        return answer

    s.run_interactive(keyboard)
    text = out.getvalue()
    assert s.state.turn == 2  # A's, B's and C's sheets were all handed in
    assert "(computer)" not in text
    lines = [ln for ln in text.splitlines() if "to decide:" in ln]
    assert len(lines) == 2
    assert all(ln.endswith("to decide: Player 1, Player 2, Player 3.") for ln in lines)
