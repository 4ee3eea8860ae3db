"""The view schema the server publishes (`GET /api/v1/schema/{game}`, core.view.view_schema)
describes the `view` of the state messages it sends, for every registered game: each seat's
and the spectator's, at the start and as the game goes on."""

from __future__ import annotations

import random

import pytest

from boardct.core import registry
from boardct.core.view import view_schema
from conftest import Api

jsonschema = pytest.importorskip("jsonschema", reason="the schema tests need the `test` extra")

MOVES = 12  # moves played in each game, each followed by a look from every seat


@pytest.mark.parametrize("game_id", registry.ids())
def test_every_state_messages_view_matches_the_published_schema(api: Api, game_id: str):
    game = registry.get(game_id)
    r = api.get(f"/schema/{game_id}")
    assert r.status_code == 200, r.text
    schema = r.json()
    assert schema == view_schema(game)
    jsonschema.Draft202012Validator.check_schema(schema)
    check = jsonschema.Draft202012Validator(schema)
    made = api.create(game_id, [{"kind": "human"}] * game.min_players)
    gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    rnd = random.Random(game_id)
    looked = 0
    for _ in range(MOVES + 1):
        to_move: list[int] = []
        for token in [*tokens, None]:
            msg = api.state(gid, token)
            errors = sorted(check.iter_errors(msg["view"]), key=str)
            assert not errors, (token is None, msg["version"], errors[0].message,
                                list(errors[0].absolute_path))
            looked += 1
            if token is not None and msg["my_turn"]:
                to_move.append(tokens.index(token))
        if msg["over"] or not to_move:
            break
        seat = to_move[0]
        legal = api.get(f"/games/{gid}/legal", tokens[seat]).json()["actions"]
        r = api.move(gid, tokens[seat], rnd.choice(legal)["text"])
        assert r.status_code == 200, r.text
    assert looked > len(tokens) + 1  # moves were played and looked at


def test_an_unknown_games_schema_is_not_found(api: Api):
    r = api.get("/schema/nosuchgame")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    assert "nosuchgame" in r.json()["error"]["message"]
