"""The rulebook's two combat examples, verbatim, as scenarios (BSH-10, BSH-29)."""

from __future__ import annotations

from hills_helpers import kinds, play, position, units, where

from boardct.games.hills.board import INDEX


def test_bsh29_rulebook_example_1_four_mechs_attack_two_infantry():
    """Rulebook: "if a squad of 4 mechs attack a squad of 2 infantry, and both do not have any
    tile modifiers:
    1. 4 ATK = 4 defending infantry lost
    2. 2 ATK = 2 attacking mech lost"

    BSH-29: the example is inconsistent (the infantry is already dead at stage 2); the rule
    wins: stage 2 happens only if the defender still has units, so the 4 Mechs lose nothing and
    move in; the excess damage is lost."""
    s = position(squads={"0M": (0, 0, 4), "1I": (1, 0, 2)})
    ev = play(s, "M attack E I")
    assert ev == [
        ("attack", 2, 3, INDEX[(1, 0)], 4),
        ("damage", 3, 2, 0),
        ("destroyed", 3),
        ("move-in", 2, INDEX[(0, 0)], INDEX[(1, 0)]),
    ]
    assert units(s)["0M"] == 4 and units(s)["1I"] == 0
    assert where(s, "0M") == (1, 0)
    assert [s.describe(e) for e in ev] == [
        "Player 1's Mech attacks Player 2's Infantry at (1,0) for 4.",
        "Player 2's Infantry loses 2 units (0 left).",
        "Player 2's Infantry is destroyed.",
        "Player 1's Mech moves in to (1,0).",
    ]


def test_bsh10_rulebook_example_2_two_mechs_attack_four_infantry_on_a_mountain():
    """Rulebook: "If a squad of 2 mechs attack a squad of 4 infantry, and the infantry are on
    the mountains:
    1. 4 ATK - 1 DEF (from tile bonus) = 3 defending infantry lost
    2. 2 ATK + 1 ATK (from tile bonus) = 3 attacking mech lost"

    BSH-29: example 2 stands as written: 3 infantry lost (1 left), and 3 damage to a squad of
    2 Mechs destroys it (excess lost); the Mechs never move onto the mountain."""
    s = position(tiles={(1, 0): "M"}, squads={"0M": (0, 0, 2), "1I": (1, 0, 4)})
    ev = play(s, "M attack E I")
    assert ev == [
        ("attack", 2, 3, INDEX[(1, 0)], 3),
        ("damage", 3, 3, 1),
        ("retaliate", 3, 2, 3),
        ("damage", 2, 2, 0),
        ("destroyed", 2),
    ]
    assert units(s)["1I"] == 1 and units(s)["0M"] == 0
    assert where(s, "1I") == (1, 0) and where(s, "0M") is None
    assert "rout" not in kinds(ev) and s.outcome is None
