"""The uniformly random legal player: a baseline and the terminal's simplest opponent."""

from __future__ import annotations

from boardct.agents.base import Agent, register
from boardct.core.game import Action, State
from boardct.core.rng import Rng


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def select(self, state: State, player: int) -> Action:
        return self.rng.choice(state.legal_actions(player))


register("random", RandomAgent)
