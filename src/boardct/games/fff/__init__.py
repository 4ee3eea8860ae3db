"""Force Field Factions (game id `fff`): pyramids on a chessboard with facing, movement points
and force fields. Rules: FFF-1..FFF-33 (docs/fff.md). Offered through the `boardct.games`
entry point as `GAME`."""

from boardct.games.fff.game import FFF, FFFGame
from boardct.games.fff.state import FFFState

GAME = FFF

__all__ = ["FFF", "GAME", "FFFGame", "FFFState"]
