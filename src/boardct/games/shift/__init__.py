"""Shift, the single-card duel (rulebook 002, rulings SH-1..SH-40): cards as TOML data.
Offered through the `boardct.games` entry point as `GAME`."""

from boardct.games.shift.game import GAME, ShiftGame

__all__ = ["GAME", "ShiftGame"]
