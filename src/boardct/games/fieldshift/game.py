"""FieldShift as a core `Game`: options and the factory of states."""

from __future__ import annotations

from pathlib import Path

from boardct.core.game import Game, Option, Setup
from boardct.games.fieldshift import savefile
from boardct.games.fieldshift.help import HELP
from boardct.games.fieldshift.state import CRATES, PV_SIZE, FieldShiftState
from boardct.games.fieldshift.tables import IN_RANGE, RULESETS, VIOLATION_MODES


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
        """Material share in [-1, 1]: per operator on the field its vitality plus 3 (the win
        goes by operators on the field), plus 0.75 per enemy in its reach and 0.25 per enemy
        close to it (within four sectors); per operator in reserve its vitality plus 1; half a
        point per crate. As a share it never saturates: a hit counts even far ahead."""
        score = [0.0, 0.0]
        vit, loc = state.vit, state.loc
        reach = IN_RANGE[state.ruleset]
        for i in range(20):
            v = vit[i]
            if v <= 0:
                continue
            side = i // 10
            if loc[i] >= 0:
                score[side] += v + 3.0
                seen = reach[i % 5][loc[i]]
                q = 10 - side * 10
                for t in range(q, q + 10):
                    if vit[t] > 0 and loc[t] >= 0:
                        if loc[t] in seen:
                            score[side] += 0.75
                        elif abs(loc[t] - loc[i]) <= 4:
                            score[side] += 0.25  # closing in
            elif loc[i] == -1:
                score[side] += v + 1.0
        for p in range(2):
            score[p] += 0.5 * max(0, state.pv[p * PV_SIZE + CRATES])
        return (score[player] - score[1 - player]) / (score[0] + score[1] + 1.0)

    def load_file(self, path: str) -> FieldShiftState | None:
        try:
            head = Path(path).read_bytes()[:64].decode("utf-8", "replace")
        except OSError:
            return None
        if not savefile.looks_like_save(head):
            return None
        return savefile.load(self, path)
