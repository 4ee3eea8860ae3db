"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

import math
from pathlib import Path

from boardct.core.game import Game, Option, Setup
from boardct.games.fieldshift import savefile
from boardct.games.fieldshift.help import HELP
from boardct.games.fieldshift.state import CRATES, PV_SIZE, FieldShiftState
from boardct.games.fieldshift.tables import RULESETS, VIOLATION_MODES


class FieldShift(Game):
    id = "fieldshift"
    title = "FieldShift"
    help_text = HELP
    options = (
        Option("ruleset", "lstd", "command ruleset at the start (FS-5)", RULESETS),
        Option("violations", "dispute",
               "dispute: violations are carried out and may be disputed (the manual's); "
               "reject: they are refused (FS-19)", VIOLATION_MODES),
        Option("turn_limit", 300, "player turns before a draw; 0 for none (FS-22)", None, int, 0),
    )

    def initial_state(self, setup: Setup) -> FieldShiftState:
        return FieldShiftState.initial(setup)

    def evaluate(self, state: FieldShiftState, player: int) -> float:
        """Material lead, squashed into (-1, 1): vitality on the field (in reserve at 60%),
        two points per operator able to fight, half a point per crate. One hit is worth about
        0.35, a kill about 0.6."""
        score = [0.0, 0.0]
        vit, loc = state.vit, state.loc
        for i in range(20):
            v = vit[i]
            if v > 0:
                if loc[i] >= 0:
                    score[i // 10] += v + 2.0
                elif loc[i] == -1:
                    score[i // 10] += 0.6 * v
        for p in range(2):
            score[p] += 0.5 * state.pv[p * PV_SIZE + CRATES]
        return math.tanh((score[player] - score[1 - player]) / 8.0)

    def load_file(self, path: str) -> FieldShiftState | None:
        try:
            head = Path(path).read_bytes()[:64].decode("utf-8", "replace")
        except OSError:
            return None
        if not savefile.looks_like_save(head):
            return None
        return savefile.load(self, path)
