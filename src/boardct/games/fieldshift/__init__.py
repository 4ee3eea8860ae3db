"""FieldShift, the flagship: rules, notation, screen and the earlier tool's save files.
Offered through the `boardct.games` entry point as `GAME`."""

from boardct.games.fieldshift.game import FieldShift
from boardct.games.fieldshift.state import FieldShiftState

GAME = FieldShift()
FieldShiftState.game = GAME

__all__ = ["GAME", "FieldShift", "FieldShiftState"]
