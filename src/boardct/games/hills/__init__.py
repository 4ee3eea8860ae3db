"""Battle for The Shifting Hills (rulebook 001, rulings BSH-1..BSH-39): a two-player hex
skirmish with face-down tiles, a bonus deck and private hands. Offered through the
`boardct.games` entry point as `GAME`."""

from boardct.games.hills.game import HillsGame
from boardct.games.hills.state import HillsState

GAME = HillsGame()
HillsState.game = GAME

__all__ = ["GAME", "HillsGame", "HillsState"]
