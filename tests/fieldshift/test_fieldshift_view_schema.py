"""FieldShift's published view schema (board.schema.json, `core.view.view_schema`) against
the views of states random games seldom reach: a request waiting for its answer (FS-20), a
violation open to dispute and the crate balance below zero it may leave (FS-18, FS-19), the
end by a dispute, and every ruleset. The conformance suite checks the views of random games."""

from __future__ import annotations

import json

from fs_helpers import GAME, Pos, play
from jsonschema import Draft202012Validator

from boardct.core.view import view_schema

VALIDATOR = Draft202012Validator(view_schema(GAME))


def problems(state) -> list[str]:
    """Every schema error of every viewer's view (each seat and the spectator)."""
    out = []
    for viewer in (0, 1, None):
        view = json.loads(json.dumps(state.view(viewer)))
        out += [f"{viewer}: {e.message}" for e in VALIDATOR.iter_errors(view)]
    return out


def test_a_ruleset_request_waiting_for_its_answer_matches_the_schema():
    s = GAME.new(seed=0)
    play(s, "05")
    pending = s.view(None)["board"]["pending"]
    assert pending == {"kind": "ruleset", "requester": 0, "ruleset": "stdex"}
    assert problems(s) == []
    play(s, "05")  # Player 2 accepts STDEX and asks for Type-A (FS-20)
    assert s.view(None)["board"]["pending"]["ruleset"] == "type-a"
    assert s.view(None)["board"]["ruleset"] == "stdex" and problems(s) == []


def test_a_draw_request_has_no_ruleset_and_matches_the_schema():
    s = GAME.new(seed=0)
    play(s, "08")
    assert s.view(1)["board"]["pending"] == {"kind": "draw", "requester": 0, "ruleset": None}
    assert problems(s) == []
    play(s, "01")
    assert s.view(None)["result"]["kind"] == "agreement" and problems(s) == []


def test_a_violation_open_to_dispute_and_a_negative_balance_match_the_schema():
    p = Pos().crates(0, 0)
    play(p.s, "65")  # deploy +5 with no crate: carried out in dispute mode (FS-18)
    board = p.s.view(0)["board"]
    assert board["players"][0]["crates"] == -1
    assert board["disputable"][0]["player"] == 0 and board["disputable"][0]["reasons"]
    assert problems(p.s) == []
    play(p.s, "06")
    assert p.s.view(None)["result"]["kind"] == "dispute" and problems(p.s) == []


def test_every_ruleset_matches_the_schema():
    for ruleset in ("lstd", "stdex", "type-a"):
        s = GAME.new(seed=0, ruleset=ruleset, violations="reject", turn_limit=0)
        assert s.view(None)["board"]["ruleset"] == ruleset
        assert s.view(None)["board"]["turn_limit"] == 0
        assert problems(s) == []
