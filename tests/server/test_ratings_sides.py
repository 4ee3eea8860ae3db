"""How an ended game's sides and places are read through the core API (server/ratings.py):
every seat its own side by default, CTF 2187's teams from `State.teammates` (CTF-1), a team
sharing its result, equal returns sharing a place (a draw), and OpenSkill moving a draw's
players towards each other."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.server.ratings import _model, places, sides


def test_a_game_without_teams_puts_every_seat_on_its_own_side():
    state = registry.get("fieldshift").new(seed=1, names=["a", "b"])
    assert sides(state, 2) == [[0], [1]]


@pytest.mark.parametrize("players,options,expected", [
    (4, {}, 2),  # two teams of two by default
    (3, {"teams": 3}, 3),
    (4, {"teams": 4}, 4),
])
def test_ctf2187_sides_are_its_teams(players, options, expected):
    """CTF-1: the players whose Bots share a team are one side."""
    state = registry.get("ctf2187").new(seed=3, names=[f"p{i}" for i in range(players)],
                                        **options)
    found = sides(state, players)
    assert len(found) == expected
    assert sorted(p for side in found for p in side) == list(range(players))
    for side in found:
        for p in side:
            assert set(state.teammates(p)) == set(side)


def test_places_from_returns():
    assert places((1.0, 0.0), [[0], [1]]) == ([1.0, 0.0], [1, 2])
    assert places((0.5, 0.5), [[0], [1]]) == ([0.5, 0.5], [1, 1])  # a draw: level
    # a team shares its result (the best return of its players)
    assert places((1.0, 0.0, 1.0, 0.0), [[0, 2], [1, 3]]) == ([1.0, 0.0], [1, 2])
    # three sides: two winners share first place, the loser is third
    assert places((0.5, 0.0, 0.5), [[0], [1], [2]])[1] == [1, 3, 1]


def test_a_draw_moves_an_upset_towards_the_weaker_player():
    model = _model()
    strong, weak = model.rating(mu=30.0, sigma=4.0), model.rating(mu=20.0, sigma=4.0)
    [[s], [w]] = model.rate([[strong], [weak]], ranks=[1.0, 1.0])
    assert s.mu < 30.0 and w.mu > 20.0
