"""Force Field Factions' published view schema (board.schema.json) against a turn taken in
steps (the view's `steps`, present only then) and a position with fields and lost pieces; the
conformance suite checks the views of random games, by whole turns and by steps."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.view import view_schema

FFF = registry.get("fff")
VALIDATOR = Draft202012Validator(view_schema(FFF))


def problems(state) -> list[str]:
    out = []
    for viewer in (0, 1, None):
        view = json.loads(json.dumps(state.view(viewer)))
        out += [f"{viewer}: {e.message}" for e in VALIDATOR.iter_errors(view)]
    return out


def test_a_turn_under_way_in_steps_is_shown_under_steps_and_matches_the_schema():
    s = FFF.new(seed=0)
    s.apply(s.parse("d1 +y"), 0)  # Black's 2-pip takes a yellow field (FFF-7)
    s.apply(s.parse("pass"), 1)
    assert "steps" not in s.view(None)["board"] and problems(s) == []
    s.apply_id(s.action_id("d1", 0), 0)  # select it: 4 points (FFF-5), its field removable
    steps = s.view(None)["board"]["steps"]
    assert steps["may_remove"] and steps["points_left"] == 4 and steps["from"] == "d1"
    assert problems(s) == []
    for text in ("NE", "m"):
        s.apply_id(s.action_id(text, 0), 0)
    steps = s.view(0)["board"]["steps"]
    assert not steps["may_remove"] and steps["points_spent"] == 2 and steps["square"] == "e2"
    assert steps["turn"] == "d1 NE m" and problems(s) == []
    s.apply_id(s.action_id("end", 0), 0)
    assert "steps" not in s.view(1)["board"] and problems(s) == []


def test_a_position_with_fields_out_of_phase_pieces_and_lost_counts_matches_the_schema():
    text = ("B1a1N:gr,B2b1N:c,B3c1U,B1d2E:y,W1a8S,W2b8S:p,W3c8SW,W2c1S:c B - 100/010 7")
    s = FFF.from_position(text)
    board = s.view(None)["board"]
    assert board["lost"] == [[1, 0, 0], [0, 1, 0]] and board["no_capture_turns"] == 7
    assert any(p["out_of_phase"] for p in board["pieces"])
    assert problems(s) == []
