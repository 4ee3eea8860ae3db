"""The tensors and legal ids of every game, value for value, against digests recorded before
the fast observation paths (issue 20 follow-up) were written.

Making `observation_tensor`, `information_state_tensor` and `legal_ids` fast must not change
a single value a learner was trained on. `encoding_digests.json` (next to this file) holds,
per game and option set, a SHA-256 over every seat's observation tensor, information-state
tensor and legal ids at every state of a few seeded random playouts (by legal ids, so FFF's
part-way turns are in; FieldShift also tries a ruleset change and a draw offer now and then).
Floats are hashed by `repr`, which is exact.

The digests were made with the code as it stood before the change (main at ba9a3a0) by

    PYTHONPATH=src python tests/core/test_encoding_digests.py --write

Rerun it only when a tensor's layout is meant to change, and say so in the commit.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

from boardct.core import registry
from boardct.core.errors import BoardctError

DIGESTS = Path(__file__).with_name("encoding_digests.json")
OPTION_SETS: dict[str, list[dict]] = {
    "fieldshift": [{}, {"ruleset": "stdex"}, {"ruleset": "type-a"},
                   {"ruleset": "stdex", "violations": "reject"}, {"turn_limit": 40}],
    "hills": [{}, {"stars": 20, "deck": "artillery:6,ammo:6,boost:6"}, {"first": "1"},
              {"turn_limit": 0, "stars": 0}],
    # Shift's first set was its defaults ({}) when the digests were made; the default cards
    # have since changed (docs/shift.md, "Default cards"), so that set names them
    "shift": [{"card1": "ember-duelist", "card2": "tide-warden"},
              {"card1": "iron-lantern", "card2": "moth-regent"},
              {"card1": "quill-of-ash", "card2": "glass-cartographer", "turn_limit": 20}],
    "ctf2187": [{}, {"bots_per_team": 2}, {"teams": 3},
                {"designs": "Scout,Titan", "bots_per_team": 2, "turn_limit": 3}],
    "fff": [{}, {"turn_limit": 0}, {"turn_limit": 5}],
}
EXTRAS = {"fieldshift": ["05", "08"]}  # commands outside legal_actions that make states too
SEEDS = (1, 2, 3)
STEPS = {"ctf2187": 40, "fff": 150}  # states per playout (default below)
DEFAULT_STEPS = 120


def _seats(game_id: str, options: dict) -> int:
    return options.get("teams", 2) if game_id == "ctf2187" else registry.get(game_id).min_players


def digest(game_id: str, options: dict) -> str:
    """The SHA-256 of every seat's tensors and legal ids along the seeded playouts."""
    game = registry.get(game_id)
    h = hashlib.sha256()
    for seed in SEEDS:
        rnd = random.Random(seed)
        seats = _seats(game_id, options)
        state = game.new(seed=seed, names=[f"p{i}" for i in range(seats)], **options)
        for _ in range(STEPS.get(game_id, DEFAULT_STEPS)):
            for p in range(seats):
                h.update(repr((p, state.observation_tensor(p),
                               state.information_state_tensor(p),
                               state.legal_ids(p))).encode())
            if state.is_over:
                break
            extras = EXTRAS.get(game_id)
            if extras and rnd.random() < 0.04:
                with contextlib.suppress(BoardctError):
                    state.apply(state.parse(rnd.choice(extras)))
                continue
            player = rnd.choice(state.current_players())
            state.apply_id(rnd.choice(state.legal_ids(player)), player)
    return h.hexdigest()


def _key(options: dict) -> str:
    return json.dumps(options, sort_keys=True)


def _cases() -> list[tuple[str, dict]]:
    return [(g, o) for g in sorted(OPTION_SETS) for o in OPTION_SETS[g]]


@pytest.mark.parametrize(("game_id", "options"), _cases(),
                         ids=[f"{g}-{_key(o)}" for g, o in _cases()])
def test_tensors_and_legal_ids_are_unchanged(game_id, options):
    """Every value of every tensor and mask is what the view-based code gave."""
    recorded = json.loads(DIGESTS.read_text(encoding="utf-8"))
    assert digest(game_id, options) == recorded[game_id][_key(options)]


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: PYTHONPATH=src python tests/core/test_encoding_digests.py --write")
    out: dict[str, dict[str, str]] = {}
    for g, o in _cases():
        out.setdefault(g, {})[_key(o)] = digest(g, o)
        print(g, _key(o), out[g][_key(o)], flush=True)
    DIGESTS.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
