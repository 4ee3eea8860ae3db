"""The words of every legal turn (`describe_action`, the legal list's "turns NE, steps to b2")
are those of the events the turn makes when it is played: the fast path, which plays the turn
on copies of the lists rather than on a clone of the state, says the same as playing it, for
turns that end the game too (an elimination, FFF-27; the no-capture limit)."""

import random

from fff_helpers import GAME


def words_by_playing(state, action, player):
    """The reference: the turn played on a clone through the whole `apply`, its events put
    in words as `describe_action` puts them."""
    return state._turn_words(action, state.clone().apply(action, player))


def positions(games: int, seed: int, **options):
    rng = random.Random(seed)
    for g in range(games):
        s = GAME.new(seed=g, **options) if options else GAME.new(seed=g)
        while not s.is_over:
            yield s
            s.apply(rng.choice(s.legal_actions()))


def test_every_legal_turns_words_are_those_of_playing_it_at_default_options():
    checked = 0
    for i, s in enumerate(positions(3, seed=5)):
        if i % 7:
            continue
        p = s.current_players()[0]
        for a in s.legal_actions(p):
            assert s.describe_action(a, p) == words_by_playing(s, a, p), s.notation(a)
            checked += 1
    assert checked > 10_000


def test_the_turn_that_reaches_the_no_capture_limit_says_the_game_is_drawn():
    ends = 0
    for s in positions(4, seed=9, turn_limit=6):
        p = s.current_players()[0]
        for a in s.legal_actions(p):
            words = s.describe_action(a, p)
            assert words == words_by_playing(s, a, p)
            ends += "without a capture" in words
    assert ends > 0
