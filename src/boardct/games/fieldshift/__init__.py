"""FieldShift, the flagship: rules, notation, screen and the earlier tool's save files."""

from boardct.core.registry import register
from boardct.games.fieldshift.game import FieldShift
from boardct.games.fieldshift.state import FieldShiftState

GAME = register(FieldShift())
FieldShiftState.game = GAME

__all__ = ["GAME", "FieldShift", "FieldShiftState"]
