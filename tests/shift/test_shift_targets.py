"""The gears each legal action involves (`action_targets`), as the page draws them
(`gear:<player>:<1|2L|3|2R>`): the page makes them clickable from the legal list alone and
never reads the notation. Only the deciding player's own card is ever named."""

import random

from shift_helpers import GAME

RING = ("1", "2L", "3", "2R")
LEVEL = {"1": 1, "2L": 2, "3": 3, "2R": 2}
NEIGHBOURS = {"1": {"2L", "2R"}, "2L": {"1", "3"}, "3": {"2L", "2R"}, "2R": {"1", "3"}}


def random_positions(games: int, seed: int):
    rng = random.Random(seed)
    for g in range(games):
        s = GAME.new(seed=seed * 100 + g)
        while not s.is_over:
            yield s
            s.apply(rng.choice(s.legal_actions()))


def test_every_target_is_a_gear_of_the_deciders_card_and_fits_the_action():
    kinds = set()
    for s in random_positions(20, seed=2):
        p = s.current_players()[0]
        board = s.view(p)["board"]
        current = board["players"][p]["gear"]
        for a in s.legal_actions(p):
            text = s.notation(a)
            targets = s.action_targets(a, p)
            gears = [t.split(":")[2] for t in targets]
            assert all(t.startswith(f"gear:{p}:") for t in targets), (text, targets)
            assert all(g in RING for g in gears) and len(set(gears)) == len(gears)
            word = text.split()[0]
            kinds.add(word)
            if word == "shift":  # SH-16: one place along the ring, named by where it goes
                assert gears == [text.split()[1]] and gears[0] in NEIGHBOURS[current]
            elif word == "attack":  # SH-8: the attack is the current gear's
                assert gears == [current]
            elif word == "guard":  # SH-9, SH-27, SH-28: never the current gear
                assert current not in gears
                if "active" in text:
                    assert LEVEL[gears[0]] < LEVEL[current]
                    assert gears[0] == text.split()[text.split().index("active") + 1]
                assert gears == [w for w in text.split() if w in RING], (text, targets)
            else:  # the toss, first, second, pass: no gear
                assert targets == (), text
    assert {"shift", "attack", "guard"} <= kinds, kinds


def test_the_first_shift_names_a_neighbour_of_gear_1():
    s = GAME.new(seed=1)
    while s.current_players() and not any(s.notation(a).startswith("shift")
                                          for a in s.legal_actions()):
        s.apply(s.legal_actions()[0])
    p = s.current_players()[0]
    shifts = {s.notation(a): s.action_targets(a, p) for a in s.legal_actions(p)
              if s.notation(a).startswith("shift")}
    assert shifts == {"shift 2L": (f"gear:{p}:2L",), "shift 2R": (f"gear:{p}:2R",)}
