"""Shift, the single-card duel (rulebook 002, rulings SH-1..SH-40): cards as TOML data."""

from boardct.core.registry import register
from boardct.games.shift.game import ShiftGame

GAME = register(ShiftGame())

__all__ = ["GAME", "ShiftGame"]
