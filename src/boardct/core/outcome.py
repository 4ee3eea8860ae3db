"""How a game ends: an `Outcome` with a `Termination` kind front ends can switch on.

The kind says *how* the game ended in words every front end shares (an elimination, the turn
limit, a resignation); the outcome's `reason` keeps the game's own text for it ("rout",
"12 turns without a capture", "turn limit; ratings A 0.55, B 0.73"), which records store and
compare, so records written before the kinds existed still replay and match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """The kinds of ending. The value is the JSON text (`"turn_limit"`)."""

    ELIMINATION = "elimination"  # a side has nothing left that fights (or both have not)
    OBJECTIVE = "objective"  # a side achieved the game's goal (a seized hill)
    SCORE = "score"  # a count decided it (damage, victory points at the end)
    TURN_LIMIT = "turn_limit"  # the limit of turns ran out
    NO_PROGRESS = "no_progress"  # too long without progress (no capture for N turns)
    RESIGNATION = "resignation"  # a player (or a whole team) conceded
    AGREEMENT = "agreement"  # the players agreed (a draw)
    DISPUTE = "dispute"  # a disputed rule violation decided it (FieldShift's FS-19)
    TIMEOUT = "timeout"  # a player ran out of time
    OTHER = "other"  # a game's own ending that none of these names

    @property
    def words(self) -> str:
        """The kind for people: "turn limit"."""
        return self.value.replace("_", " ")


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `returns` holds each player's score: 1 win, 0 loss, 0.5 draw (team
    games share). `reason` is the game's own words for the ending (records keep it), `kind`
    the `Termination` every front end understands, `text` the game's own result line where
    it builds one (CTF 2187 names the teams)."""

    returns: tuple[float, ...]
    reason: str
    winners: tuple[int, ...] = ()
    text: str = field(default="", compare=False)
    kind: Termination = Termination.OTHER

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def describe(self, names: Sequence[str] = ()) -> str:
        """The one-line result, e.g. "Player 1 wins (elimination)" or "draw (agreement)".
        With `names` (the setup's), a player who has a name is called by it: "ann wins". A
        game that knows its players better (by team) builds the line itself, `text`, so every
        front end shows it."""
        if self.text:
            return self.text
        if not self.winners:
            return f"draw ({self.reason})"
        who = " and ".join(names[w] if w < len(names) and names[w] else f"Player {w + 1}"
                           for w in self.winners)
        verb = "wins" if len(self.winners) == 1 else "win"
        return f"{who} {verb} ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        """What a record keeps (winners, reason, returns) and the kind."""
        return {"winners": list(self.winners), "reason": self.reason,
                "returns": list(self.returns), "kind": self.kind.value}
