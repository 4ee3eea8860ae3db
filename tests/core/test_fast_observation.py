"""The fast tensors equal the view-based ones (issue 20 follow-up).

Every game's `observation_tensor` / `information_state_tensor` (and CTF 2187's `legal_ids`) is
built straight from the state's fields for speed, while the definition stays the view-based
function in its encoding module (`observation(view, player)` ...), which can only see what
`view(player)` holds. These properties check, over many random states of several option sets
(FFF part-way through turns; FieldShift with requests pending; hidden-information games also
on determinizations, whose hidden parts differ), that the two agree value for value for every
seat: so the fast path shows nothing a view does not. `test_encoding.py`'s blindness property
runs on the fast path too.
"""

from __future__ import annotations

import contextlib
import random
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.encoding import dense
from boardct.core.errors import BoardctError
from boardct.core.game import State
from boardct.games.ctf2187 import encoding as ctf_enc
from boardct.games.fff import encoding as fff_enc
from boardct.games.fieldshift import encoding as fs_enc
from boardct.games.hills import encoding as hills_enc
from boardct.games.shift import encoding as shift_enc

OPTION_SETS: dict[str, list[dict]] = {
    "fieldshift": [{}, {"ruleset": "stdex"}, {"ruleset": "type-a"},
                   {"ruleset": "stdex", "violations": "reject"}, {"turn_limit": 30}],
    "hills": [{}, {"stars": 20, "deck": "artillery:6,ammo:6,boost:6"}, {"first": "1"},
              {"turn_limit": 0, "stars": 0}],
    "shift": [{}, {"card1": "iron-lantern", "card2": "moth-regent"},
              {"card1": "quill-of-ash", "card2": "glass-cartographer", "turn_limit": 20}],
    "ctf2187": [{}, {"bots_per_team": 2}, {"teams": 3}, {"teams": 4, "bots_per_team": 1},
                {"designs": "Scout,Titan", "bots_per_team": 3, "turn_limit": 3}],
    "fff": [{}, {"turn_limit": 0}, {"turn_limit": 5}],
}
EXTRAS = {"fieldshift": ["05", "08"]}  # a ruleset change or a draw asked: a request pending


def _ctf_info(state: State, p: int) -> list[float]:
    layout = ctf_enc.Layout.of(state)
    return ctf_enc.information_state(layout, state.view(p), p)


# The definitions: each game's tensors from `view(player)` alone.
BY_VIEW = {
    "fieldshift": (lambda s, p: fs_enc.observation(s.view(p), p), None),
    "fff": (lambda s, p: fff_enc.observation(s.view(p), p), None),
    "shift": (lambda s, p: shift_enc.observation(s.view(p), p), None),
    "hills": (lambda s, p: hills_enc.observation(s.view(p), p),
              lambda s, p: hills_enc.information_state(s.view(p), s.history(), p)),
    "ctf2187": (lambda s, p: ctf_enc.observation(ctf_enc.Layout.of(s), s.view(p), p),
                _ctf_info),
}


def _seats(game_id: str, options: dict) -> int:
    return options.get("teams", 2) if game_id == "ctf2187" else registry.get(game_id).min_players


def random_state(game_id: str, options: dict, seed: int, steps: int) -> State:
    """A state after up to `steps` random legal ids (now and then a FieldShift request)."""
    rnd = random.Random(seed)
    seats = _seats(game_id, options)
    state = registry.get(game_id).new(seed=seed, names=[f"p{i}" for i in range(seats)],
                                      **options)
    for _ in range(steps):
        if state.is_over:
            break
        extras = EXTRAS.get(game_id)
        if extras and rnd.random() < 0.06:
            with contextlib.suppress(BoardctError):
                state.apply(state.parse(rnd.choice(extras)))
            continue
        player = rnd.choice(state.current_players())
        state.apply_id(rnd.choice(state.legal_ids(player)), player)
    return state


def check_fast_equals_view(state: State) -> None:
    game_id = state.game.id
    obs, info = BY_VIEW[game_id]
    for p in range(len(state.setup.names)):
        assert state.observation_tensor(p) == obs(state, p), f"observation of seat {p}"
        expected = obs(state, p) if info is None else info(state, p)
        assert state.information_state_tensor(p) == expected, f"information state of {p}"
        # the entries the adapters write into their buffers are the same tensors
        assert dense(state.observation_entries(p), len(expected if info is None
                                                         else obs(state, p))) == obs(state, p)
        assert dense(state.information_state_entries(p), len(expected)) == expected
        # and the float32 array a game writes directly (where it does) holds them too
        floats = state.observation_array(p)
        if floats is not None:
            assert floats.typecode == "f"
            assert floats.tolist() == array("f", obs(state, p)).tolist(), f"array of seat {p}"
        if game_id != "fff":  # FFF numbers steps, not turns (tests/fff/test_fff_steps.py)
            assert state.legal_ids(p) == sorted(state.action_id(a, p)
                                                for a in state.legal_actions(p))


PROPS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game_id", sorted(OPTION_SETS))
def test_fast_tensors_equal_the_view_based_ones(game_id):
    """Along random games: every seat's tensors equal those built from its view."""

    @PROPS
    @given(st.sampled_from(OPTION_SETS[game_id]), st.integers(0, 2**32),
           st.integers(0, 120))
    def run(options, seed, steps):
        state = random_state(game_id, options, seed, steps)
        check_fast_equals_view(state)
        if not state.game.perfect_information:  # hidden parts resampled: still the view's
            for p in range(len(state.setup.names)):
                check_fast_equals_view(state.determinize(p, seed + p))

    run()


@pytest.mark.parametrize("game_id", sorted(OPTION_SETS))
def test_every_state_of_whole_games_agrees(game_id):
    """Every state of a few whole seeded games, not a sample: the cached parts (FFF's piece
    planes, Shift's cards, CTF 2187's map and log counts, its Bots' ids) never go stale as a
    game goes on."""
    for options in OPTION_SETS[game_id][:2]:
        for seed in (7, 8):
            rnd = random.Random(seed)
            seats = _seats(game_id, options)
            state = registry.get(game_id).new(seed=seed,
                                              names=[f"p{i}" for i in range(seats)], **options)
            for _ in range(400):
                check_fast_equals_view(state)
                if state.is_over:
                    break
                player = rnd.choice(state.current_players())
                state.apply_id(rnd.choice(state.legal_ids(player)), player)


def test_ctf_log_counts_follow_the_log_not_a_stale_cache():
    """Two states that share nothing but a turn number: each its own log's counts (the cache
    is keyed by the log itself)."""
    a = random_state("ctf2187", {}, 3, 30)
    b = random_state("ctf2187", {}, 4, 30)
    for s in (a, b, a, b):
        check_fast_equals_view(s)


def test_hills_history_after_undos_is_the_history_in_force():
    """Hills' information state reads only the last actions of the linked history: after
    undos (table marks in the history) it still shows the actions in force, as
    `history()` gives them, never one taken back."""
    from boardct.core.table import undo

    undone = 0
    for seed in range(6):
        rnd = random.Random(seed)
        state = random_state("hills", {}, seed, 0)
        for _ in range(60):
            if state.is_over:
                break
            if rnd.random() < 0.25:
                with contextlib.suppress(BoardctError):
                    state = undo(state, rnd.choice((1, 2)))
                    undone += 1
            else:
                player = rnd.choice(state.current_players())
                state.apply_id(rnd.choice(state.legal_ids(player)), player)
            check_fast_equals_view(state)
    assert undone > 5, "the games took actions back"
