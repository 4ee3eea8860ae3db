"""Battle for The Shifting Hills' published view schema (board.schema.json) against the states
that matter most for secrecy: hands held (each seat's view holds its own hand only, a
spectator's none), a Boost played, a destroyed squad, a Seize under way; the conformance suite
checks the views of random games."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.view import view_schema

HILLS = registry.get("hills")
VALIDATOR = Draft202012Validator(view_schema(HILLS))


def problems(state) -> list[str]:
    out = []
    for viewer in (0, 1, None):
        view = json.loads(json.dumps(state.view(viewer)))
        out += [f"{viewer}: {e.message}" for e in VALIDATOR.iter_errors(view)]
    return out


def test_hands_boost_a_destroyed_squad_and_a_seize_match_the_schema():
    s = HILLS.new(seed=4, first="0").arrange(
        {"1M": None, "0I": (2, 0, 5, True)}, hands=((0, 1, 1, 1), (0, 2, 0, 0)), seize=(1, 0))
    s.apply(s.parse("play boost R"), 0)
    board = s.view(0)["board"]
    assert board["hands"] == {"0": ["artillery", "ammo"]} and board["boosted"] == "R"
    assert s.view(1)["board"]["hands"] == {"1": ["artillery", "artillery"]}
    assert s.view(None)["board"]["hands"] == {}
    assert board["squads"][5] == {"player": 1, "kind": "M", "units": 0}
    assert board["seize"] == [1, 0]
    assert problems(s) == []


def test_a_seat_view_never_holds_the_other_hand_by_the_schema():
    s = HILLS.new(seed=4, first="0").arrange(hands=((0, 1, 0, 0), (0, 0, 1, 0)))
    view = json.loads(json.dumps(s.view(0)))
    view["board"]["hands"]["1"] = ["ammo"]  # both hands in one view: not a view of the game
    assert list(VALIDATOR.iter_errors(view))
