"""One ply and the game's evaluation: the simplest agent that knows what a good position is."""

from __future__ import annotations

from boardct.agents.base import Agent, register
from boardct.core.game import Action, State
from boardct.core.rng import Rng


def position_value(state: State, player: int) -> float:
    """`player`'s value of a state in [-1, 1]: the result if the game is over, else the game's
    evaluation (0 when the game has none)."""
    out = state.outcome
    if out is not None:
        return 2.0 * out.returns[player] - 1.0
    value = state.game.evaluate(state, player)
    return 0.0 if value is None else float(value)


class GreedyAgent(Agent):
    """Plays the action whose resulting position the game's evaluation likes best, judged on a
    determinization for its seat (it never reads what the seat cannot see); ties are broken at
    random from the agent's seed."""

    name = "greedy"

    def __init__(self, seed: int = 0, eps: float = 0.0):
        if not 0.0 <= eps <= 1.0:
            raise ValueError("greedy needs 0 <= eps <= 1")
        self.rng = Rng(seed)
        # the share of decisions played at random instead: a weaker opponent between random
        # and greedy on the strength ladder (agents/levels.py)
        self.eps = float(eps)

    def select(self, state: State, player: int) -> Action:
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        if self.eps and self.rng.random() < self.eps:
            return self.rng.choice(legal)
        base = state.determinize(player, self.rng.next64())
        best: list[Action] = []
        best_value = -2.0
        for action in legal:
            child = base.clone()
            child.apply(action, player)
            value = position_value(child, player)
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif value > best_value - 1e-12:
                best.append(action)
        return self.rng.choice(best)


register("greedy", GreedyAgent)
