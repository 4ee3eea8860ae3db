"""Shift for learners (issue 20): coming coin flips never reach the observation, flipped
ones do; generic properties in tests/core/test_encoding.py."""

from __future__ import annotations

from boardct.core import registry
from boardct.games.shift import encoding as enc
from boardct.games.shift.actions import PASS, guard_action

GAME = registry.get("shift")


def new(**options):
    return GAME.new(seed=3, names=("a", "b"), **options)


def test_ids():
    s = new()
    assert s.game_info().num_distinct_actions == 90
    assert s.action_id(PASS) == 9
    assert s.action_id(guard_action(-1, 0)) == 10
    assert s.action_id(guard_action(3, 15)) == 89
    assert s.id_action(10) == guard_action(-1, 0)


def test_coming_flips_are_not_observed_past_ones_are():
    """Two copies whose next coins differ (SH-4) look the same until a coin is flipped, then
    differ in that coin."""
    s = new()
    heads, tails = s.clone(), s.clone()
    heads.preload_flips("H" * 40)
    tails.preload_flips("T" * 40)
    for p in (0, 1):
        assert heads.observation_tensor(p) == tails.observation_tensor(p)
    flips = len(heads.flip_log())
    for _ in range(60):
        if len(heads.flip_log()) > flips or heads.is_over:
            break
        acts = heads.legal_actions()
        pick = acts[0] if 4 in acts or len(acts) == 1 else acts[-1]
        for st in (heads, tails):
            if pick in st.legal_actions():
                st.apply(pick)
    assert len(heads.flip_log()) > flips, "a coin was flipped"
    assert heads.observation_tensor(0) != tails.observation_tensor(0)


def test_cards_are_in_the_observation():
    """Two card pairs give different observations at the start: the printed gears differ."""
    a = new()
    b = new(card1="iron-lantern", card2="moth-regent")
    assert a.observation_tensor(0) != b.observation_tensor(0)
    assert len(a.observation_tensor(0)) == enc.SIZE


# -- the fast paths against their definitions, on whole random games at the default options -----
SHIPPED = ("ember-duelist", "glass-cartographer", "iron-lantern", "moth-regent",
           "quill-of-ash", "tide-warden")


def _constant_by_the_text(s, p: int, stat: str) -> int:
    """SH-29 read straight from the cards: `p`'s own ability and current-gear constant text
    aimed at itself, plus the opponent's aimed at `p`, each while its condition holds."""
    total = 0
    for owner in (p, 1 - p):
        card = s.cards[owner]
        for static in (*card.statics, *card.gears[s.gear[owner]].statics):
            if static.stat == stat and static.opp == (owner != p) and s._holds(static.cond,
                                                                               owner):
                total += static.n
    return total


def _random_states(card1: str, card2: str, seed: int):
    """Every state of a random game at the default turn limit, these cards."""
    import random

    rnd = random.Random(seed)
    s = GAME.new(seed=seed, names=("a", "b"), card1=card1, card2=card2)
    yield s
    while not s.is_over:
        p = s.current_players()[0]
        s.apply(rnd.choice(s.legal_actions(p)), p)
        yield s


def test_power_and_guard_follow_the_constant_text_of_every_shipped_pair():
    """SH-29: power and guard (read by attacks and observations, from per-card tables) equal
    the printed stat plus the constant text in force, at every state of random games of
    every pair of shipped cards (conditions on gears, damage and spirit come and go)."""
    checked = 0
    for i, card1 in enumerate(SHIPPED):
        for card2 in SHIPPED[i:]:
            for s in _random_states(card1, card2, seed=len(card1) * 31 + len(card2)):
                for p in (0, 1):
                    g = s.cards[p].gears[s.gear[p]]
                    assert s.power(p) == max(0, g.power + s.tp[p]
                                             + _constant_by_the_text(s, p, "power"))
                    if s.atk < 0 or p == s.mover:  # no attack on p: no guarding to add
                        assert s.guard(p) == max(0, g.guard + s.tg[p]
                                                 + _constant_by_the_text(s, p, "guard"))
                    checked += 1
    assert checked > 2000


def test_figures_are_power_and_guard_of_both_seats_for_every_shipped_pair():
    """SH-29: `figures()` (the batch observations' one call) is `power` and `guard` of both
    seats, with and without an attack under way (its guarding counts), at every state of
    random games of every pair of shipped cards, both seat orders."""
    checked = attacks = 0
    for card1 in SHIPPED:
        for card2 in SHIPPED:
            for s in _random_states(card1, card2, seed=len(card1) * 7 + len(card2)):
                assert s.figures() == (s.power(0), s.power(1), s.guard(0), s.guard(1))
                checked += 1
                attacks += s.atk >= 0
    assert checked > 4000 and attacks > 300


def test_apply_id_is_apply_of_the_ids_action_and_refuses_what_it_refuses():
    """A learner's step (`apply_id`) carries out `id_action(id)` exactly as `apply` does (the
    same events, the same state after), and an id out of range, negative, a bool or a float
    is an IllegalAction that changes nothing."""
    import random

    import pytest

    from boardct.core.errors import IllegalAction

    rnd = random.Random(9)
    s = new()
    for _ in range(300):
        if s.is_over:
            break
        p = s.current_players()[0]
        i = rnd.choice(s.legal_ids(p))
        twin = s.clone()
        assert s.apply_id(i, p) == twin.apply(s.id_action(i), p)
        assert s.view(0) == twin.view(0) and s.history() == twin.history()
    s = new()
    before = s.view(0)
    for bad in (90, -1, True, 2.0, "3"):
        with pytest.raises(IllegalAction):
            s.apply_id(bad)
    assert s.view(0) == before and s.history() == []


def test_observation_array_equals_the_views_tensor_along_default_games():
    """The float32 array learners get (OpenSpiel, PettingZoo) equals
    `observation(view(p), p)` for both seats at every state of random games at the default
    options, and with every shipped card as the first card (SH-4: past coins only); and the
    action mask beside it."""
    from array import array

    for k, card1 in enumerate(SHIPPED):
        for s in _random_states(card1, "tide-warden", seed=100 + k):
            for p in (0, 1):
                assert s.observation_array(p).tolist() == \
                    array("f", enc.observation(s.view(p), p)).tolist()
                # the learner's mask: the ids of the legal actions, ascending (none off turn)
                assert s.legal_ids(p) == sorted(s.action_id(a) for a in s.legal_actions(p))
