"""legal_actions(): whole turns, one per distinct result (FFF-29, FFF-31), with perft-style
counts locked in. The counts are checked against an independent brute force (every token
sequence through the checked turn player, grouped by resulting position) and, for the start,
by hand."""

from collections import Counter

import pytest
from fff_brute import brute, brute_text
from fff_helpers import GAME, setup

from boardct.games.fff.notation import format_turn
from boardct.games.fff.pieces import q_text


def by_piece(state) -> Counter:
    return Counter("pass" if not a else q_text(a[0]) for a in state.legal_actions())


def test_perft_start_is_815_and_matches_the_hand_count():
    """By hand, Black's first turn:
    - a1 (3-pip, 3 points; b1 is occupied): (square, facing) nodes a1 x9, a2 x9, a3 x9, a4 N,
      b2 x9 (turn NE, step), c3 NE, b3 NE (step, turn NE, step) = 39; minus the unchanged one: 38.
      h1 likewise: 38. 3-pip pieces take no field.
    - each 1-pip (c1, e1, g1; 1 point): c1 x9 facings + c2 N = 10 nodes, times (no field or one
      of 7 colours) = 80, minus the unchanged: 79.
    - each 2-pip (b1, d1, f1; 2 points): home x9, d2 x9, d3 N, c2 NW, e2 NE = 21 nodes, x8
      field choices = 168, minus the unchanged: 167.
    - the pass: 1.   1 + 2*38 + 3*79 + 3*167 = 815."""
    s = GAME.new(seed=0)
    counts = by_piece(s)
    assert counts == Counter({"pass": 1, "a1": 38, "h1": 38, "c1": 79, "e1": 79, "g1": 79,
                              "b1": 167, "d1": 167, "f1": 167})
    assert len(s.legal_actions()) == 815


def test_perft_lone_three_pip_in_a_corner_is_48_by_hand():
    """a1 facing N, 3 points, nothing near: nodes a1 x9, a2 x9, a3 x9, a4 N, b1 x9 (E, step),
    c1 E, b2 x9 (NE, step), c3 NE, b3 NE (step N, turn NE, step) = 49; minus unchanged: 48."""
    s = setup("B3a1N,B1h1N,B2h3N,W1h8S,W2g8S,W3f8S", fill=False)
    assert by_piece(s)["a1"] == 48


def test_perft_start_matches_brute_force():
    s = GAME.new(seed=0)
    want = sorted(t for _, t in brute(s).values())
    got = sorted(s.notation(a) for a in s.legal_actions())
    assert got == want


# Small positions with every colour at work, each checked against the brute force.
SMALL = {
    "green line and push off": "B1d6N:g,W1d7S,W2d8S,B1c6NE:gr,B2c1N,W1h1S,W2g1S,B3a1N,W3b8S B - "
                               "000/000 3",
    "purple with green, lost count": "B1d4N:pg,W1d5S,W1c5S,B2e4N:p,W2e5U,B3a1N,W2h8S,W3g8S B - "
                                     "100/000 0",
    "orange one short, blue": "B2d4N:o,W1d5S:b,W2e5U,B1e4NE:ob,W1a8S,B3a1N,W3h8S,W2g8S B - "
                              "000/000 0",
    "clear stepping through and destroying": "B1d3N,W1d4S:c,B2d5N:c,B3a1N,W2e5S,W3h8S,W1c6SW:y "
                                             "B - 000/000 0",
    "shared squares": "B1d4N:c,W2d4S,B2e4N,W1e4S:c,B3a1N,W1h8S,W3g8S B - 000/000 0",
    "two yellows": "B1d4N:yy,B2a2S,B3a1N,W1d6S,W2h8S,W3g8S B - 000/000 0",
    "white to move with reds": "B1d4N,B2e4U:b,B3a1N,W1d5S:rr,W2e5SW:r,W3h8S W - 000/000 9",
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_legal_actions_match_brute_force_on_small_positions(name):
    s = GAME.new(seed=0, position=SMALL[name])
    want = sorted(t for _, t in brute_text(SMALL[name]).values())
    got = sorted(s.notation(a) for a in s.legal_actions())
    assert got == want


# Mid-game positions reached by random play, counted once (and checked by the brute force when
# they were recorded) and locked in.
MID = {
    "B2b1W:p,B1c1N,B2d1S:g,B1e1NW:c,B2f1S:p,B1g1SW:g,B3h1SE,B3b3NE,W2c7SW:b,W1h7SE:yp,W3a8S,"
    "W2b8S,W1c8NW,W1e8S,W2f8NW:o,W3h8S W r33g22b32y23p30o32c23 000/000 15": 715,
    "B2b1E:c,B1c1N,B2d1S:p,B1e1N:br,B2f1S:p,B1g1SW:g,B3h1SE,B3b3NE,W2a5SW:o,W2c7E:p,W1h7SE:yr,"
    "W3a8S,W1c8SW,W1e8S,W2f8W:o,W3h8S B r31g23b23y23p30o31c32 000/000 30": 679,
    "B1c1SE:p,B1e1N,B3h1N,B3a2NW,B2e2E:b,B1g2NE:p,B2b4NW:p,W2c7SE,B2d7W:y,W3a8S,W1c8N:c,"
    "W1e8S:ry,W2f8NE,W1g8W:cr,W3g8S W r22g33b32y31p12o33c13 000/010 12": 776,
    "B2b1N:c,B3b1SE,B1c1SE:rc,B2c1SW:p,B1e1N:ry,B1g1N:ob,W2f3NE:b,B2g3W:r,B3h3U,W2c7SW:c,"
    "W1f7SE:gr,W2g7U:g,W3b8SW,W1c8NE,W1g8U:y,W3h8S B r11g22b31y22p32o23c30 000/000 60": 475,
    # a 2-pip piece with yellow (4 points) on d4
    "B3a1N,B1c1E:b,B1e1N,B3h1N,B2d2SW:o,B1g2N,B2b4SW,B2d4NW:y,W2a7N:y,W3a8S,W1c8N:c,W2d8S,"
    "W1e8S:b,W2f8NW:g,W1g8W:cr,W3h8S B r32g32b13y31p33o32c13 000/000 30": 1090,
}


@pytest.mark.parametrize("text", sorted(MID))
def test_perft_mid_game_positions_locked(text):
    s = GAME.new(seed=0, position=text)
    actions = s.legal_actions()
    assert len(actions) == MID[text]
    assert len(set(actions)) == len(actions)


def test_every_legal_turn_gives_a_different_position_and_pass_is_first():
    text = sorted(MID)[0]
    s = GAME.new(seed=0, position=text)
    actions = s.legal_actions()
    assert actions[0] == () and format_turn(actions[0]) == "pass"
    results = set()
    for a in actions:
        c = s.clone()
        c.apply(a)
        results.add(c.position())
    assert len(results) == len(actions)


def test_canonical_text_is_fewest_tokens_then_ascii():
    s = GAME.new(seed=0, position=SMALL["orange one short, blue"])
    best = brute_text(SMALL["orange one short, blue"])
    listed = {s.notation(a) for a in s.legal_actions()}
    for n, text in best.values():
        assert text in listed
        assert n == (0 if text == "pass" else len(text.split()))
