"""Shift secrecy (issue 15): the game is perfect information and its hidden part is the coins
to come (SH-4); no event tells a coin before it is flipped, and a determinization does not
carry the seed that replays them."""

from __future__ import annotations

import random

from shift_helpers import GAME

from boardct.core.rng import Rng


def test_no_event_tells_a_coin_before_it_is_flipped():
    """Over random games: the same action from twins whose coins to come differ makes the same
    events up to its first coin, and every coin event is a coin just flipped, in order."""
    rnd = random.Random(4)
    actions = flips = 0
    for _ in range(40):
        s = GAME.new(seed=rnd.randrange(1 << 30))
        while not s.is_over:
            twin = s.clone()
            twin.rng = Rng(rnd.randrange(1 << 30))
            assert twin.view(s.to_move) == s.view(s.to_move)
            before = len(s.flip_log())
            action = rnd.choice(s.legal_actions())
            mine, theirs = s.apply(action), twin.apply(action)
            assert s.events_for(mine, 0) == mine  # perfect information: everyone sees all
            coins = [e for e in mine if e[0] == "flip"]
            first = next((i for i, e in enumerate(mine) if e[0] == "flip"), len(mine))
            assert mine[:first] == theirs[:first]
            new = s.flip_log()[before:]
            assert [(e[1], e[2], e[3]) for e in coins] == [tuple(c) for c in new]
            actions += 1
            flips += len(coins)
    assert actions > 500 and flips > 200


def test_a_determinization_does_not_carry_the_seed_that_replays_the_coins_to_come():
    s = GAME.new(seed=99)
    s.apply(s.legal_actions()[0])
    d = s.determinize(s.to_move, 5)
    replay = GAME.initial_state(d.setup)
    for _, action in d.history():
        replay.apply(action)
    truth = s.clone()
    coins = [truth.rng.coin() for _ in range(32)]
    assert d.setup.seed != s.setup.seed
    assert [replay.rng.coin() for _ in range(32)] != coins
    assert d.view(s.to_move) == s.view(s.to_move)
