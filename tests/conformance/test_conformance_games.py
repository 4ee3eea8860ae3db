"""Conformance: whole random games of every registered game (seeded) end, within the game's
bound on their length, with a result every front end understands; and the states along them
behave as the core API promises: copies are independent, records replay, tensors have their
shapes, notation and action ids read back, and `to_move_seen` tells each player the truth about
themselves."""

from __future__ import annotations

import contextlib
import json
import math
import random

import pytest
from conformance_kit import (
    RUNAWAY,
    Case,
    case_params,
    playouts,
    sampled_states,
    snapshot,
    view_text,
    viewers,
)

from boardct.core import moves
from boardct.core.encoding import product
from boardct.core.errors import IllegalAction
from boardct.core.game import State
from boardct.core.outcome import Termination
from boardct.core.records import Record, record_of, replay


# -- whole games ---------------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params())
def test_random_games_end(case: Case):
    for game in playouts(case):
        assert game.final.is_over, (f"seed {game.seed}: no end after {game.length} "
                                    f"{'ids' if game.by_ids else 'actions'}")


@pytest.mark.parametrize("case", case_params())
def test_random_games_never_exceed_the_longest_game(case: Case):
    """`max_game_length` bounds the actions of a game, counted as learners step them (action
    ids) and so also as whole actions."""
    bound = case.game.info(case.options, case.players).max_game_length
    for game in playouts(case):
        assert game.length <= bound, f"seed {game.seed}: {game.length} > {bound}"


@pytest.mark.parametrize("case", case_params())
def test_a_finished_game_has_a_kind_of_ending_and_returns_that_add_up(case: Case):
    info = case.game.info(case.options, case.players)
    for game in playouts(case):
        state = game.final
        out = state.outcome
        assert out is not None
        assert out.kind is not Termination.OTHER, f"seed {game.seed}: {out.reason!r}"
        assert isinstance(out.kind, Termination)
        assert len(out.returns) == case.players
        assert all(info.min_utility <= r <= info.max_utility for r in out.returns)
        if info.utility_sum is not None:
            assert math.isclose(sum(out.returns), info.utility_sum), out.returns
        assert set(out.winners) <= set(range(case.players))
        assert state.current_players() == ()
        assert all(state.legal_actions(p) == [] for p in range(case.players))
        result = state.view(None)["result"]
        assert result["kind"] == out.kind.value and result["winners"] == list(out.winners)
        assert result["returns"] == list(out.returns) and result["text"]


# -- copies --------------------------------------------------------------------------------------
def finish(state: State, rnd: random.Random) -> None:
    """Play `state` on to its end at random (by ids: it may be part way through a turn)."""
    n = 0
    while not state.is_over and n < RUNAWAY:
        player = rnd.choice(state.current_players())
        moves.act_id(state, player, rnd.choice(state.legal_ids(player)))
        n += 1


def _some(states: list[State], count: int) -> list[State]:
    """Up to `count` states spread over `states`, the end left out (nothing to play on)."""
    going = [s for s in states if not s.is_over]
    step = max(1, len(going) // count)
    return going[::step][:count]


@pytest.mark.parametrize("case", case_params())
def test_a_copy_played_on_leaves_the_original_as_it_was(case: Case):
    for game in playouts(case):
        for i, state in enumerate(_some(game.states, 3)):
            original = state.clone()
            before = snapshot(original)
            finish(original.clone(), random.Random(i))
            assert snapshot(original) == before


@pytest.mark.parametrize("case", case_params())
def test_the_original_played_on_leaves_its_copy_as_it_was(case: Case):
    for game in playouts(case):
        for i, state in enumerate(_some(game.states, 3)):
            original = state.clone()
            copy = original.clone()
            before = snapshot(copy)
            finish(original, random.Random(i))
            assert snapshot(copy) == before


# -- records -------------------------------------------------------------------------------------
def _whole_turn_states(case: Case):
    """States a record holds whole: those of games played by whole actions, and the ends of
    games played by ids (a turn part way through its steps is not in a record)."""
    yield from sampled_states(case, by_ids=False)
    for game in playouts(case):
        if game.by_ids:
            yield game.final


@pytest.mark.parametrize("case", case_params())
def test_a_record_replays_to_the_same_view_for_every_seat_and_the_spectator(case: Case):
    for state in _whole_turn_states(case):
        text = record_of(state).to_json()
        json.loads(text)
        again = replay(Record.from_json(text))
        for viewer in viewers(state):
            assert view_text(again.view(viewer)) == view_text(state.view(viewer)), viewer
        assert again.current_players() == state.current_players()
        assert again.outcome == state.outcome


# -- learners' facts -----------------------------------------------------------------------------
@pytest.mark.parametrize("case", case_params())
def test_tensors_have_the_shapes_the_game_declares(case: Case):
    info = case.game.info(case.options, case.players)
    size, info_size = product(info.observation_shape), product(info.information_state_shape)
    for state in sampled_states(case):
        assert state.game_info() is info
        for p in range(case.players):
            obs = state.observation_tensor(p)
            assert len(obs) == size
            assert all(type(x) is float and math.isfinite(x) for x in obs)
            inf = state.information_state_tensor(p)
            assert len(inf) == info_size
            assert all(type(x) is float and math.isfinite(x) for x in inf)


@pytest.mark.parametrize("case", case_params())
def test_every_legal_action_reads_back_from_its_notation(case: Case):
    for state in sampled_states(case):
        for p in state.current_players():
            for action in state.legal_actions(p):
                text = state.notation(action)
                assert state.parse(text, p) == action, text


@pytest.mark.parametrize("case", case_params())
def test_action_ids_read_back_and_stay_in_range(case: Case):
    """Every legal id reads back (`action_id(id_action(i)) == i`). A game whose ids number
    whole actions gives every legal action an id that reads back to it and no other legal
    id; a game that numbers the steps of a turn instead gives a whole action none."""
    n = case.game.info(case.options, case.players).num_distinct_actions
    for state in sampled_states(case):
        for p in range(case.players):
            ids = state.legal_ids(p)
            assert ids == sorted(set(ids)) and all(0 <= i < n for i in ids)
            if p not in state.current_players():
                assert ids == [], f"Player {p + 1} is not to decide"
            for i in ids:
                assert state.action_id(state.id_action(i, p), p) == i
            legal = state.legal_actions(p)
            numbered = []
            for action in legal:
                with contextlib.suppress(IllegalAction):  # a game numbering steps
                    numbered.append(state.action_id(action, p))
            if numbered:
                assert len(numbered) == len(legal), "every whole action has an id, or none"
                assert sorted(set(numbered)) == ids
                for action, i in zip(legal, numbered, strict=True):
                    assert state.id_action(i, p) == action


@pytest.mark.parametrize("case", case_params())
def test_to_move_seen_tells_each_player_the_truth_about_themselves(case: Case):
    for state in sampled_states(case):
        deciding = state.current_players()
        for p in range(case.players):
            seen = state.to_move_seen(p)
            assert (p in seen) == (p in deciding)
            assert set(seen) <= set(range(case.players))
            assert state.view(p)["to_move"] == list(seen)
        assert set(state.to_move_seen(None)) <= set(range(case.players))
        if state.is_over:
            assert all(state.to_move_seen(v) == () for v in viewers(state))
