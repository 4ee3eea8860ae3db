"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

from boardct.core.errors import RecordError
from boardct.core.game import Game, Option, Setup
from boardct.core.inputs import MAX_FILE_BYTES, InputError, read_bytes
from boardct.games.fieldshift import savefile
from boardct.games.fieldshift.help import HELP
from boardct.games.fieldshift.state import BITS, CRATES, PV_SIZE, FieldShiftState
from boardct.games.fieldshift.tables import IN_RANGE, RULESETS, VIOLATION_MODES

# Player turns before a draw, at most: over thirty times the default (FS-22), and a game that
# runs to it stays well inside what a record holds (core.records.MAX_ACTIONS).
MAX_TURN_LIMIT = 10_000


def _pair_table(reach) -> tuple:
    """Per operator class and sector, what an enemy in each sector adds to the evaluation:
    0.75 in reach, 0.25 within four sectors (closing in), else 0. All multiples of a quarter,
    so sums are exact in any order."""
    return tuple(tuple(tuple(0.75 if there in reach[cls][here]
                             else 0.25 if -4 <= there - here <= 4 else 0.0
                             for there in range(10))
                       for here in range(10))
                 for cls in range(5))


_PAIR = tuple(_pair_table(reach) for reach in IN_RANGE)


class FieldShift(Game):
    id = "fieldshift"
    title = "FieldShift"
    help_text = HELP
    classic_screen = True  # the earlier BoardCT tool's screen, FS-23
    confirm_words = ("01", "00")  # a request at the table is answered as FS-20's are
    options = (
        Option("ruleset", "lstd", "command ruleset at the start (FS-5)", RULESETS),
        Option("violations", "dispute",
               "dispute: violations are carried out and may be disputed (the manual's); "
               "reject: they are refused (FS-19)", VIOLATION_MODES),
        Option("turn_limit", 300, "player turns before a draw; 0 for none (FS-22)", None, int, 0,
               MAX_TURN_LIMIT),
    )

    def initial_state(self, setup: Setup) -> FieldShiftState:
        return FieldShiftState.initial(setup)

    def evaluate(self, state: FieldShiftState, player: int) -> float:
        """Material share in [-1, 1]: per operator on the field its vitality plus 3 (the win
        goes by operators on the field), plus 0.75 per enemy in its reach and 0.25 per enemy
        close to it (within four sectors); per operator in reserve its vitality plus 1; half a
        point per crate. As a share it never saturates: a hit counts even far ahead."""
        return self.evaluate_all(state)[player]

    def evaluate_all(self, state: FieldShiftState) -> list[float]:  # type: ignore[override]
        """`evaluate` for both players in one pass: the share is zero-sum, so the second
        player's value is the first's negative (search asks this at every leaf)."""
        score = [0.0, 0.0]
        vit, loc, act, res, pv = state.vit, state.loc, state.act, state.res, state.pv
        pair = _PAIR[state.ruleset]
        for side in (0, 1):
            b = side * 10
            q = 10 - b
            foes = [loc[q + n] for n in BITS[(act >> q) & 1023]]
            total = 0.5 * max(0, pv[side * PV_SIZE + CRATES])
            for n in BITS[(act >> b) & 1023]:
                total += vit[b + n] + 3.0
                row = pair[n % 5][loc[b + n]]
                for there in foes:
                    total += row[there]
            for n in BITS[(res >> b) & 1023]:
                total += vit[b + n] + 1.0
            score[side] = total
        first = (score[0] - score[1]) / (score[0] + score[1] + 1.0)
        return [first, -first]

    def load_file(self, path: str) -> FieldShiftState | None:
        """An earlier-tool save file (FS-24), or None when `path` is not one. Only a regular
        file is opened, and read bounded (never a folder, /dev/zero or a pipe)."""
        try:
            data = read_bytes(path, MAX_FILE_BYTES, "save file")
        except InputError:
            return None
        if not savefile.looks_like_save(data[:64].decode("utf-8", "replace")):
            return None
        if len(data) > savefile.MAX_SAVE_BYTES:
            raise RecordError("file", f"an earlier-tool save file is at most "
                                      f"{savefile.MAX_SAVE_BYTES:,} bytes", str(path))
        return savefile.load(self, path)
