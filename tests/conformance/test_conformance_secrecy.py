"""Conformance: the one secrecy filter (`events_for`) and the views of every registered game,
for every seat and the spectator.

- The events a viewer is shown are plain data a front end can word (`describe`).
- While the game goes on, a spectator is shown no event that some seat is not shown.
- Two states that differ only in what a player cannot see (a determinization for that player)
  give that player the same view, the same observation tensor and the same events: what is
  hidden never shows through. A game with nothing hidden passes trivially (its determinization
  is the state itself, chance to come aside).
"""

from __future__ import annotations

import pytest
from conformance_kit import Case, case_params, json_problem, playouts, view_text, viewers


@pytest.mark.parametrize("case", case_params())
def test_the_events_shown_are_plain_data_that_can_be_worded(case: Case):
    for game in playouts(case):
        for move in game.moves:
            for viewer in viewers(move.after):
                for event in move.after.events_for(move.events, viewer):
                    assert isinstance(event, tuple) and event, event
                    assert json_problem(event, tuples=True) is None, (viewer, event)
                    line = move.after.describe(event)
                    assert isinstance(line, str) and line.strip(), event


@pytest.mark.parametrize("case", case_params())
def test_a_spectator_is_shown_no_event_a_seat_is_not(case: Case):
    for game in playouts(case):
        for move in game.moves:
            after = move.after
            if after.is_over:  # at the end nothing need be secret any more
                continue
            spectator = after.events_for(move.events, None)
            for seat in range(case.players):
                shown = after.events_for(move.events, seat)
                for event in spectator:
                    assert event in shown, (seat, event)


@pytest.mark.parametrize("case", case_params())
def test_a_player_sees_the_same_in_states_that_differ_only_in_what_they_cannot_see(case: Case):
    for game in playouts(case):
        for k, state in enumerate(game.states):
            if state.is_over:
                continue
            for p in range(case.players):
                other = state.determinize(p, 1000 + k)
                assert view_text(other.view(p)) == view_text(state.view(p)), (p, k)
                assert other.observation_tensor(p) == state.observation_tensor(p), (p, k)


@pytest.mark.parametrize("case", case_params())
def test_events_are_filtered_by_nothing_the_viewer_cannot_see(case: Case):
    """The same events, filtered for a player in the state they led to and in a state that
    differs from it only in what the player cannot see, give the same list."""
    for game in playouts(case):
        for k, move in enumerate(game.moves):
            after = move.after
            if after.is_over:
                continue
            for p in range(case.players):
                other = after.determinize(p, 2000 + k)
                assert other.events_for(move.events, p) == after.events_for(move.events, p)
                assert other.events_for(move.events, None) == after.events_for(move.events,
                                                                                 None)
