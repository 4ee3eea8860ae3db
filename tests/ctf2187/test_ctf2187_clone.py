"""A clone shares the Bots, command posts and sectors with its state until one of them changes
them (copy on write, issue 21): whatever happens to one must never show in the other."""

from __future__ import annotations

import random

from boardct.core import registry
from boardct.games.ctf2187.state import CtfState


def _state(seed: int = 5) -> CtfState:
    game = registry.get("ctf2187")
    st = game.new(seed=seed, **game.resolve_options(dict(game.bench_options)))
    assert isinstance(st, CtfState)
    return st


def _picture(st: CtfState) -> list:
    """Everything mutable about the pieces, read without making anything private."""
    bots = [(b.x, b.y, b.facing, b.posture, b.status, b.heat, b.ap, tuple(b.armour),
             tuple(b.internal), tuple(b.engines), tuple(b.weapons), b.sheet, b.standing, b.vp)
            for b in st._bots]
    return [bots, [c.structure for c in st._cps], list(st._occ), st.turn]


def _play_turn(st: CtfState, rng: random.Random) -> None:
    turn = st.turn
    while st.turn == turn and st.current_players():
        p = st.current_players()[0]
        st.apply(rng.choice(st.legal_actions(p)), p)


def test_playing_a_clone_leaves_the_state_as_it_was() -> None:
    st = _state()
    before = _picture(st)
    c = st.clone()
    _play_turn(c, random.Random(1))
    assert c.turn == 2
    assert _picture(st) == before


def test_playing_the_state_leaves_its_clone_as_it_was() -> None:
    st = _state()
    c = st.clone()
    before = _picture(c)
    _play_turn(st, random.Random(2))
    assert _picture(c) == before
    assert _picture(st) != before


def test_one_sheet_on_a_clone_changes_only_the_clone() -> None:
    """A sheet handed in makes only its own Bot private; the others stay shared and unchanged."""
    st = _state()
    c = st.clone()
    p = c.current_players()[0]
    c.apply(c.legal_actions(p)[1], p)
    assert [b.sheet for b in st._bots] == [None] * len(st._bots)
    assert sum(b.sheet is not None for b in c._bots) == 1


def test_changing_pieces_through_the_attributes_stays_in_one_state() -> None:
    """Code outside the engine (a scenario, a report) reaches the pieces through `bots`, `cps`
    and `occ`: what it changes there is the state's own."""
    st = _state()
    c = st.clone()
    c.bots[0].heat = 7
    c.cps[0].structure = 1
    c.occ[0] = 3
    assert st.bots[0].heat == 0
    assert st.cps[0].structure != 1
    assert st.occ[0] == 0


def test_clones_of_clones_play_the_same_as_the_original() -> None:
    """Same seed, same sheets: a clone of a clone of a state played on gives the same game as
    the state itself played on."""
    st = _state(9)
    deep = st.clone().clone()
    _play_turn(st.clone(), random.Random(3))  # a sibling played on changes neither
    a, b = st, deep
    _play_turn(a, random.Random(4))
    _play_turn(b, random.Random(4))
    assert _picture(a) == _picture(b)
    assert a.view(0) == b.view(0)
