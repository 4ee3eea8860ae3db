"""Shift's published view schema (board.schema.json) against every shipped card and every
decision point (docs/shift.md): whole random games of each pair of a card with the next, each
state's views valid, every phase met. The conformance suite checks random games at the default
and small options."""

from __future__ import annotations

import json
import random

from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.view import view_schema
from boardct.games.shift.cards import shipped

SHIFT = registry.get("shift")
VALIDATOR = Draft202012Validator(view_schema(SHIFT))


def test_every_card_and_every_phase_matches_the_schema():
    cards = sorted(shipped())
    phases = set()
    for i, card in enumerate(cards):
        other = cards[(i + 1) % len(cards)]
        s = SHIFT.new(seed=i, card1=card, card2=other, turn_limit=40)
        rnd = random.Random(i)
        while True:
            for viewer in (0, 1, None):
                view = json.loads(json.dumps(s.view(viewer)))
                assert [e.message for e in VALIDATOR.iter_errors(view)] == [], (card, viewer)
            phases.add(s.view(None)["board"]["phase"])
            if s.is_over:
                break
            p = s.current_players()[0]
            s.apply(rnd.choice(s.legal_actions(p)), p)
    assert phases == {"toss", "start", "shift", "defend", "crit", "end", "over"}
