"""Full-width minimax to a fixed depth on the game's evaluation, for the arena only
(`benchmarks/mcts_arena.py --new minimax:depth=3 --old minimax:depth=2 --cpu 0`): registered
under the name `minimax` in the arena's process. A diagnostic, not a product agent: it tells
whether deeper search on an evaluation plays better (FieldShift, issue 21's fourth round: three
plies beat two 31-2-7, while MCTS got weaker with more iterations).

Every move of every position down to `depth` plies is played; the last ply is scored by
`Game.score_moves` (the value for the player to move, a share in [0, 1]); two-player
zero-sum games only (the other player's value is 1 minus it). Equal values are told apart by
a jitter of a millionth from the seed, as the MCTS agent does. The `cpu` budget the arena
script appends is accepted and ignored: the depth is the budget.
"""

from __future__ import annotations

import random

from boardct.agents.base import Agent, register
from boardct.core.game import Action, State


class MinimaxAgent(Agent):
    name = "minimax"

    def __init__(self, seed: int = 0, depth: int = 2, cpu: float = 0.0):
        if depth < 1:
            raise ValueError("minimax needs depth >= 1")
        self.depth = int(depth)
        self._jitter = random.Random(seed).random

    def _value(self, s: State, me: int, depth: int) -> float:
        """The value for `me` of position `s`, searched `depth` plies."""
        out = s.outcome
        if out is not None:
            return out.returns[me]
        p = s.current_players()[0]
        moves = s.legal_actions(p)
        if depth == 1:
            best = max(s.game.score_moves(s, p, moves))
            return best if p == me else 1.0 - best
        values = []
        for a in moves:
            child = s.clone()
            child.apply(a, p)
            values.append(self._value(child, me, depth - 1))
        return max(values) if p == me else min(values)

    def select(self, state: State, player: int) -> Action:
        moves = state.legal_actions(player)
        if len(moves) == 1:
            return moves[0]
        if self.depth == 1:
            values = state.game.score_moves(state, player, moves)
        else:
            values = []
            for a in moves:
                child = state.clone()
                child.apply(a, player)
                values.append(self._value(child, player, self.depth - 1))
        values = [v + 1e-6 * self._jitter() for v in values]
        return moves[values.index(max(values))]


register("minimax", MinimaxAgent)
