"""The facts about a game at one set of options, in one frozen object (as OpenSpiel's
`GameInfo` and `GameType`): how many action ids, the tensor shapes, the longest game, and what
kind of game it is. Learners' adapters and search agents read these from the `Game`
(`Game.info(options)`) without building a state to ask it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# The length `GameInfo.max_game_length` gives for a game whose rules set no bound on it (a
# request may be repeated without end): learners' adapters end such a game there.
LENGTH_CAP = 100_000


class Chance(StrEnum):
    """Where chance comes from. `SAMPLED`: the engine draws it from its seeded source inside
    `apply` (no chance nodes for a search to branch on); `DETERMINISTIC`: there is none."""

    DETERMINISTIC = "deterministic"
    SAMPLED = "sampled"


class Information(StrEnum):
    PERFECT = "perfect"
    IMPERFECT = "imperfect"


class Dynamics(StrEnum):
    """`SEQUENTIAL`: one player decides at a time; `SIMULTANEOUS`: several hand in orders
    for the same turn (CTF 2187's sheets), each unaware of the others'."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"


class Utility(StrEnum):
    """How the returns of one game relate. `CONSTANT_SUM`: they always add up to the same
    total (1: win 1 and loss 0, draw 0.5 each); `GENERAL_SUM`: they need not."""

    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"


@dataclass(frozen=True)
class GameInfo:
    """A game's facts at one option set and player count. Equal options give an equal
    (indeed the same, cached) object."""

    game: str
    players: int
    num_distinct_actions: int  # action ids run from 0 to this less one
    observation_shape: tuple[int, ...]
    information_state_shape: tuple[int, ...]
    max_game_length: int  # an upper bound on the actions of one game (every player's)
    chance: Chance
    information: Information
    dynamics: Dynamics
    utility: Utility
    min_utility: float = 0.0  # the least return a player can get
    max_utility: float = 1.0  # the most
    utility_sum: float | None = 1.0  # what every game's returns add up to (None: varies)

    @property
    def perfect_information(self) -> bool:
        return self.information is Information.PERFECT

    @property
    def has_chance(self) -> bool:
        return self.chance is not Chance.DETERMINISTIC

    @property
    def simultaneous(self) -> bool:
        return self.dynamics is Dynamics.SIMULTANEOUS
