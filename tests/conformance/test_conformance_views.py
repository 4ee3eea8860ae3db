"""Conformance: the views of every registered game, for every seat and the spectator, at many
states of random games (the end included), are plain JSON data and valid against the game's
published view schema (`core.view.view_schema`: the shared envelope around the game's
`board.schema.json`)."""

from __future__ import annotations

import functools
import json

import pytest
from conformance_kit import (
    Case,
    case_params,
    cases,
    game_params,
    json_problem,
    sampled_states,
    viewers,
)
from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.game import VIEW_VERSION
from boardct.core.view import view_schema


@functools.cache
def validator(game_id: str) -> Draft202012Validator:
    return Draft202012Validator(view_schema(registry.get(game_id)))


def _problems(game_id: str, view: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300]
            for e in validator(game_id).iter_errors(view)]


@pytest.mark.parametrize("case", case_params())
def test_views_are_plain_json(case: Case):
    for state in sampled_states(case):
        for viewer in viewers(state):
            view = state.view(viewer)
            assert json_problem(view) is None, (viewer, json_problem(view))
            assert json.loads(json.dumps(view)) == view


@pytest.mark.parametrize("case", case_params())
def test_views_match_the_schema(case: Case):
    for state in sampled_states(case):
        for viewer in viewers(state):
            view = json.loads(json.dumps(state.view(viewer)))
            assert _problems(case.game_id, view) == [], (viewer, state.turn_number())


@pytest.mark.parametrize("case", case_params())
def test_the_envelope_names_the_game_and_the_viewer(case: Case):
    for state in sampled_states(case):
        for viewer in viewers(state):
            view = state.view(viewer)
            assert view["game"] == case.game_id and view["version"] == VIEW_VERSION
            assert view["viewer"] == viewer
            assert [p["seat"] for p in view["players"]] == list(range(case.players))
            assert (view["result"] is None) == (not state.is_over)


@pytest.mark.parametrize("game_id", game_params())
def test_the_schema_refuses_a_board_with_a_key_it_does_not_know(game_id):
    """The board schema is closed: a view with a key the game never writes is not valid (so
    the schema cannot pass views whatever they hold)."""
    state = registry.get(game_id).new(seed=1)
    view = json.loads(json.dumps(state.view(0)))
    assert _problems(game_id, view) == []
    view["board"]["no such key"] = 1
    assert _problems(game_id, view)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.key) for c in cases()
                                  if registry.get(c.game_id).perfect_information])
def test_a_perfect_information_board_is_every_viewers(case: Case):
    """`Game.perfect_information` promises that nothing is hidden: the board is the same for
    every seat and the spectator, which lets the server build it once a version for all of
    them (server/messages.view_for); and `view_around` with that board is `view`."""
    for state in sampled_states(case):
        board = state.board_view(None)
        for viewer in viewers(state):
            assert state.board_view(viewer) == board, (viewer, state.turn_number())
            assert state.view_around(viewer, board) == state.view(viewer)
