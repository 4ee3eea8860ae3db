"""CTF 2187's published view schema (board.schema.json) and its three shapes of board: a
seat's, a spectator's while the game goes on, and the moderator's whole picture a spectator
gets once the game is over (docs/ctf2187.md, "What each player sees"). Whole random games with
many Bots, teams and turns, so that every kind of event reaches the logs; the conformance
suite checks the views of random games at the default and small options."""

from __future__ import annotations

import json
import random
from collections import Counter

from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.view import view_schema

CTF = registry.get("ctf2187")
SCHEMA = view_schema(CTF)
VALID = Draft202012Validator(SCHEMA)


def shape(name: str) -> Draft202012Validator:
    """A validator of the views whose board has one of the three shapes, `$defs/name`."""
    board = dict(SCHEMA["properties"]["board"], oneOf=[{"$ref": f"#/$defs/{name}"}])
    return Draft202012Validator(dict(SCHEMA, properties={**SCHEMA["properties"], "board": board}))


SEAT, SPECTATOR, WHOLE = shape("seat_board"), shape("spectator_board"), shape("whole_picture")


def plain(view: dict) -> dict:
    return json.loads(json.dumps(view))


def errors(validator: Draft202012Validator, view: dict) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}"[:300] for e in validator.iter_errors(view)]


def test_every_board_has_exactly_its_shape_in_big_random_games():
    """Each viewer's view after every processed turn (when the log is new) of games with many
    Bots, and the start and the end: valid, and of the viewer's shape of board only."""
    kinds: Counter[str] = Counter()
    for seed, options in enumerate([dict(bots_per_team=3, turn_limit=5),
                                    dict(teams=3, bots_per_team=2, turn_limit=4)]):
        names = [f"p{i}" for i in range(options.get("teams", 2))]
        st = CTF.new(seed=seed, names=names, **options)
        rnd = random.Random(seed)
        turn = 0
        while True:
            if st.turn != turn or st.is_over:
                turn = st.turn
                for viewer in [None, *range(len(names))]:
                    view = plain(st.view(viewer))
                    assert errors(VALID, view) == [], viewer
                    kinds.update(e[0] for e in view["board"]["log"])
                    if viewer is not None:
                        assert not errors(SEAT, view) and errors(WHOLE, view), viewer
                    elif st.is_over:
                        assert not errors(WHOLE, view) and errors(SPECTATOR, view)
                    else:
                        assert not errors(SPECTATOR, view) and errors(SEAT, view)
            if st.is_over:
                break
            p = rnd.choice(st.current_players())
            st.apply(rnd.choice(st.legal_actions(p)), p)
    # the logs held the kinds of event that matter most for the schema's list of them
    assert {"turn", "phase", "order", "ap", "move", "face", "shot", "hit", "end"} <= set(kinds)


def test_the_spectator_board_while_the_game_goes_on_holds_nothing_of_the_bots():
    st = CTF.new(seed=3, names=["a", "b"], bots_per_team=2)
    p = st.current_players()[0]
    st.apply(st.legal_actions(p)[0], p)
    board = st.view(None)["board"]
    assert board["bots"] == [] and board["owed"] == [] and board["standing_orders"] == {}
    assert "contacts" not in board and "terrain" not in board
    assert errors(SPECTATOR, plain(st.view(None))) == []
