"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

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
        """Material: living vitality on the field and in reserve, plus crates, as a share."""
        score = [0.0, 0.0]
        vit, loc = state.vit, state.loc
        for i in range(20):
            if vit[i] > 0 and loc[i] >= -1:
                score[i // 10] += vit[i] * (1.0 if loc[i] >= 0 else 0.6)
        for p in range(2):
            score[p] += 0.5 * state.pv[p * PV_SIZE + CRATES]
        total = score[0] + score[1]
        if total <= 0:
            return 0.0
        return (score[player] - score[1 - player]) / total

    def load_file(self, path: str) -> FieldShiftState | None:
        try:
            head = Path(path).read_bytes()[:64].decode("utf-8", "replace")
        except OSError:
            return None
        if not savefile.looks_like_save(head):
            return None
        return savefile.load(self, path)
