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
        score = [0.0, 0.0]
        vit, loc, act, res = state.vit, state.loc, state.act, state.res
        reach = IN_RANGE[state.ruleset]
        for side in (0, 1):
            b = side * 10
            q = 10 - b
            foes = [loc[q + n] for n in BITS[(act >> q) & 1023]]
            total = 0.5 * max(0, state.pv[side * PV_SIZE + CRATES])
            for n in BITS[(act >> b) & 1023]:
                here = loc[b + n]
                total += vit[b + n] + 3.0
                seen = reach[n % 5][here]
                for there in foes:
                    if there in seen:
                        total += 0.75
                    elif -4 <= there - here <= 4:
                        total += 0.25  # closing in
            for n in BITS[(res >> b) & 1023]:
                total += vit[b + n] + 1.0
            score[side] = total
        return (score[player] - score[1 - player]) / (score[0] + score[1] + 1.0)

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
