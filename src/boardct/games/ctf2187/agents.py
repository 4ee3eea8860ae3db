"""`sparring`: CTF 2187's weakest opponent, level 1 of its strength ladder.

CTF 2187's search gains little from time, so from random sheets to the best search there are
only some 320 to 410 Elo (docs/agents.md, "The strength ladder"): too few for four steps of 100
above random with any margin. Its ladder therefore starts below random, with a Bot for a new
commander to learn the order sheets against: at each of its decisions it holds (the menu's
sheet that stays put and holds fire in all five phases) with probability `hold`, and
otherwise hands in a sheet of the menu at random, as `random` does. It reads nothing but its
own legal sheets.
"""

from __future__ import annotations

from boardct.agents.base import Agent, register
from boardct.core.errors import BoardctError
from boardct.core.game import Action, State
from boardct.core.rng import Rng
from boardct.games.ctf2187.sheet import TURN


def holds_still(action: Action) -> bool:
    """The sheet that stays and holds fire in every phase: 25 zero orders."""
    return (isinstance(action, tuple) and len(action) == 27 and action[0] == TURN
            and not any(action[2:]))


class SparringAgent(Agent):
    """Holds still with probability `hold`, else a random sheet (see the module docstring)."""

    name = "sparring"

    def __init__(self, seed: int = 0, hold: float = 0.5):
        if isinstance(hold, bool) or not isinstance(hold, int | float) or not 0.0 <= hold <= 1.0:
            raise ValueError("sparring needs 0 <= hold <= 1")
        self.rng = Rng(seed)
        self.hold = float(hold)

    def select(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if not legal:
            raise BoardctError("sparring: no legal action")
        if self.rng.random() < self.hold:
            # the first Bot the player owes a sheet for, holding still (on every Bot's menu)
            for action in legal:
                if holds_still(action):
                    return action
        return self.rng.choice(legal)


register("sparring", SparringAgent)
