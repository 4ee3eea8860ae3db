"""Force Field Factions as a boardct `Game`: options, initial state and a heuristic."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardct.core.errors import OptionError
from boardct.core.game import Game, Option, Setup
from boardct.core.inputs import InputError, looks_like_path, read_text
from boardct.games.fff import position as posmod
from boardct.games.fff.notation import shown
from boardct.games.fff.pieces import FIELDS, NCODES, OWNER, SIZE
from boardct.games.fff.state import FFFState

SIZE_VALUE = (0.0, 1.0, 1.6, 2.4)
# What each piece code's fields add to Black's lead: 0.15 a field, negative for White's pieces.
FIELD_SCORE = [0.0 if not c or not SIZE[c] else
               (0.15 if OWNER[c] == 0 else -0.15) * len(FIELDS[c]) for c in range(NCODES)]


# A turn limit of fifty times the default is already a game longer than anyone plays; it keeps
# a record of a game that runs to it (one action a turn) far inside what records hold.
MAX_TURN_LIMIT = 10_000
# A position (FFF-32) is under a kilobyte; a position file is read no further than this.
MAX_POSITION_BYTES = 64 * 1024


class PositionOption(Option):
    """The `position` option: FFF-32 text, or the name of a file that holds it.

    A file is read here (bounded, a byte-order mark dropped) and its text becomes the
    option's value, so the game's record holds the position itself and replays without the
    file. A position always has five fields separated by spaces, so a value with no space is
    a file name, as is the name of any existing file.
    """

    def names_file(self, value: Any) -> bool:
        """The rule `convert` reads by: a value without a space, or naming a file."""
        if not isinstance(value, str):
            return False
        text = value.strip()
        return bool(text) and (" " not in text or looks_like_path(value))

    def convert(self, value: Any) -> Any:
        value = super().convert(value)
        text = value.strip()
        if not text or (" " in text and not looks_like_path(value)):
            return value
        try:
            return read_text(Path(value), MAX_POSITION_BYTES, "position file").strip()
        except InputError as exc:
            raise OptionError(f"option position: {shown(exc.source)}: not an FFF-32 position (five "
                              f"fields) nor a file holding one: {exc.reason}") from None


HELP = """\
Force Field Factions turn notation (one line, tokens separated by spaces; FFF-30)

  pass                  pass the turn
  Q[~] [-C] P... [+C]   select the piece on square Q (d4; d4~ for your out-of-phase piece),
                        optionally remove its outermost field of colour C, spend points P,
                        optionally add a field of colour C last
  points P:  N NE E SE S SW W NW U   turn to that facing
             m                        step one square forward
             x                        attack ahead; the attack fails
             xD                       capture, green push or orange strip; then face D
             xD/E                     purple conversion: face D, the converted piece faces E
  colours C: r red, g green, b blue, y yellow, p purple, o orange, c clear

Examples: d1 NE m +y   d4 xN xE   d4 xE/W   c3~ -c m   pass
Case does not matter (D1 ne M +Y is d1 NE m +y; up is U). An m into an enemy piece that the
attack captures or pushes is that attack, keeping the facing; otherwise the message shows
what to type. The record keeps the canonical text.
Movement points = pips (doubled by a yellow field). Lose when you have no piece of some size.
"""


class FFFGame(Game):
    id = "fff"
    title = "Force Field Factions"
    help_text = HELP
    min_players = 2
    max_players = 2
    perfect_information = True
    has_chance = False
    simultaneous = False
    options = (
        Option("turn_limit", 200, "draw after this many turns in a row without a capture "
               "(FFF-16, FFF-28); 0 turns it off", type=int, minimum=0,
               maximum=MAX_TURN_LIMIT),
        PositionOption("position", "", "start from this FFF-32 position instead of the "
                       "standard start: its text, or a file holding it", type=str,
                       local_file=True),
    )

    def initial_state(self, setup: Setup) -> FFFState:
        text = setup.options.get("position") or ""
        board = posmod.read(text) if text else posmod.initial_board()
        return FFFState(setup, board)

    def from_position(self, text: str, turn_limit: int = 200) -> FFFState:
        """A game starting at an FFF-32 position (a convenience for tests and tools)."""
        return self.new(seed=0, position=text, turn_limit=turn_limit)  # type: ignore[return-value]

    def evaluate(self, state: FFFState, player: int) -> float:  # type: ignore[override]
        """Material: sizes weighted, a size down to its last piece weighs heavily (losing
        every piece of one size loses the game, FFF-15), fields count a little."""
        black = _black_value(state)
        return black if player == 0 else -black

    def evaluate_all(self, state: FFFState) -> list[float]:  # type: ignore[override]
        black = _black_value(state)
        return [black, -black]


def _black_value(state: FFFState) -> float:
    """`evaluate` for Black; White's is its negative. Written for speed: search calls it at
    every leaf."""
    out = state.outcome
    if out is not None:
        return out.returns[0] * 2.0 - 1.0
    cnt = state.cnt
    lead = 0.0
    for i in (0, 1, 2):
        black, white = cnt[i], cnt[i + 3]
        lead += (black - white) * SIZE_VALUE[i + 1]
        if black == 1:
            lead -= 1.5
        if white == 1:
            lead += 1.5
    fields = FIELD_SCORE
    for c in state.main:
        if c:
            lead += fields[c]
    for c in state.ghost:
        if c:
            lead += fields[c]
    return max(-0.99, min(0.99, lead / (abs(lead) + 4.0)))

FFF = FFFGame()
FFFState.game = FFF
