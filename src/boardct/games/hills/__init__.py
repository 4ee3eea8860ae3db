"""Battle for The Shifting Hills (rulebook 001, rulings BSH-1..BSH-39): a two-player hex
skirmish with face-down tiles, a bonus deck and private hands."""

from boardct.core.registry import register
from boardct.games.hills.game import HillsGame
from boardct.games.hills.state import HillsState

HillsState.game = register(HillsGame())

__all__ = ["HillsGame", "HillsState"]
