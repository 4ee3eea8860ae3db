"""Conformance: what every registered game declares about itself, before any game is played:
a title, options that resolve from their defaults (and its short game's options), a board
schema that describes every field, and facts (`Game.info`) that fit together."""

from __future__ import annotations

import pytest
from conformance_kit import case_params, game_params
from jsonschema import Draft202012Validator

from boardct.core import registry
from boardct.core.encoding import product
from boardct.core.info import LENGTH_CAP
from boardct.core.records import MAX_ACTIONS
from boardct.core.view import DIALECT, view_schema


@pytest.mark.parametrize("game_id", game_params())
def test_the_game_has_a_title_and_registers_under_its_id(game_id):
    game = registry.get(game_id)
    assert game.id == game_id and game_id in registry.ids()
    assert isinstance(game.title, str) and game.title.strip()
    assert 1 <= game.min_players <= game.max_players


@pytest.mark.parametrize("game_id", game_params())
def test_options_resolve_from_their_defaults(game_id):
    """Every option's default is a value the option itself accepts, so a game started with
    all of them given explicitly is the game started with none."""
    game = registry.get(game_id)
    defaults = game.resolve_options({})
    assert set(defaults) == {o.name for o in game.options}
    assert game.resolve_options({o.name: o.default for o in game.options}) == defaults
    assert game.resolve_options(defaults) == defaults


@pytest.mark.parametrize("game_id", game_params())
def test_the_small_options_are_options_of_the_game(game_id):
    game = registry.get(game_id)
    small = game.resolve_options(game.small_options)
    for name, value in game.small_options.items():
        assert small[name] == game.option(name).convert(value)


@pytest.mark.parametrize("game_id", game_params())
def test_the_game_publishes_a_board_schema_in_its_package(game_id):
    board = registry.get(game_id).board_schema()
    assert board is not None, f"{game_id}: board.schema.json is missing from its package"
    assert board.get("$schema") == DIALECT
    assert board.get("description"), "the schema says what the board is"
    Draft202012Validator.check_schema(board)


@pytest.mark.parametrize("game_id", game_params())
def test_the_view_schema_is_a_valid_schema_around_the_board(game_id):
    game = registry.get(game_id)
    schema = view_schema(game)
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["board"] == game.board_schema()


def _unexplained(schema, where="board"):
    """The places in a schema where a property has no description, or an object leaves open
    whether other keys may appear (`additionalProperties` unsaid). An `if` is a condition that
    picks a shape, not a shape: it is not looked into."""
    out = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            if "additionalProperties" not in schema and "unevaluatedProperties" not in schema:
                out.append(f"{where}: an object without additionalProperties")
        for name, sub in schema.get("properties", {}).items():
            if not (isinstance(sub, dict) and (sub.get("description") or "$ref" in sub)):
                out.append(f"{where}.{name}: no description")
        for key, sub in schema.items():
            if key == "if":
                continue
            if key in ("properties", "$defs", "patternProperties"):
                for name, inner in sub.items():
                    out += _unexplained(inner, f"{where}.{name}")
            elif isinstance(sub, dict):
                out += _unexplained(sub, f"{where}/{key}")
            elif isinstance(sub, list):
                for i, inner in enumerate(sub):
                    out += _unexplained(inner, f"{where}/{key}[{i}]")
    return out


@pytest.mark.parametrize("game_id", game_params())
def test_the_board_schema_describes_every_field_and_closes_every_object(game_id):
    assert _unexplained(registry.get(game_id).board_schema()) == []


@pytest.mark.parametrize("case", case_params())
def test_the_facts_fit_together(case):
    info = case.game.info(case.options, case.players)
    assert info is case.game.info(case.options, case.players), "one frozen object per options"
    assert info.game == case.game_id and info.players == case.players
    assert info.num_distinct_actions > 0
    assert product(info.observation_shape) > 0 and product(info.information_state_shape) > 0
    if info.perfect_information:
        assert info.information_state_shape == info.observation_shape
    assert 0 < info.max_game_length <= LENGTH_CAP
    assert info.max_game_length <= MAX_ACTIONS, "a game that long still fits in a record"
    assert info.min_utility <= info.max_utility
    assert info.perfect_information == case.game.perfect_information
    assert info.has_chance == case.game.has_chance
    assert info.simultaneous == case.game.simultaneous
