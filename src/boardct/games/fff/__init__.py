"""Force Field Factions (game id `fff`): pyramids on a chessboard with facing, movement points
and force fields. Rules: FFF-1..FFF-33 (docs/fff.md)."""

from boardct.core.registry import register
from boardct.games.fff.game import FFF, FFFGame
from boardct.games.fff.state import FFFState

register(FFF)

__all__ = ["FFF", "FFFGame", "FFFState"]
