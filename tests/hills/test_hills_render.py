"""The terminal screen (render/render_rich): hex map with terrain, squads, impeded marks, HQ
Seize counters, hands from the viewer's side only."""

from __future__ import annotations

from hills_helpers import play, position

SCENARIO = dict(
    tiles={(-1, 0): "F", (0, 0): "M*", (1, -1): "P*"}, reveal=((0, 0), (1, -1)),
    squads={"0M": (-1, 0, 3, True), "0I": (2, 0, 6, True), "1I": (0, 0, 5), "1R": (1, 0, 6),
            "1M": (-3, 0, 2)},
    seize=(2, 0), hands=((0, 1, 0, 1), (0, 0, 1, 0)), deck=("boost", "ammo"))

EXPECTED_FOR_PLAYER_2 = '''\
Battle for The Shifting Hills  Player 1's turn 1 of 150  (you are Player 2)
r=-3                [?   0,-3][?   1,-3][?   2,-3][?   3,-3]
                    [        ][        ][        ][        ]
r=-2           [?  -1,-2][?   0,-2][?   1,-2][?   2,-2][?   3,-2]
               [        ][        ][        ][        ][        ]
r=-1      [?  -2,-1][?  -1,-1][?   0,-1][P*  1,-1][?   2,-1][?   3,-1]
          [        ][        ][        ][        ][        ][        ]
r=+0 [P   -3,0][H1  -2,0][F   -1,0][M*   0,0][P    1,0][H2   2,0][?    3,0]
     [  2M2   ][  1R6   ][  1M3!  ][  2I5   ][  2R6   ][1I6! s2 ][        ]
r=+1      [?   -3,1][?   -2,1][?   -1,1][?    0,1][?    1,1][?    2,1]
          [        ][        ][        ][        ][        ][        ]
r=+2           [?   -3,2][?   -2,2][?   -1,2][?    0,2][?    1,2]
               [        ][        ][        ][        ][        ]
r=+3                [?   -3,3][?   -2,3][?   -1,3][?    0,3]
                    [        ][        ][        ][        ]
Directions:  NW NE     Tiles: P plains, M mountain (+1 ATK +1 DEF, no Mechs),
            W  .  E           F forest (+1 DEF, impedes Mechs), ? face down, * star,
             SW SE            H1/H2 headquarters.  Squads: owner, kind, units, ! impeded
Player 1: I6 (2,0) impeded [to deimpede] | R6 (-2,0) [ready] | M3 (-1,0) impeded [to deimpede]
Player 2: I5 (0,0) | R6 (1,0) | M2 (-3,0)
Seize: Player 1's Infantry holds the enemy HQ, counter 2 of 3
Player 1 hand: 2 cards
Player 2 hand: Extra Ammo
Deck: 2 cards.  Discard: none.
Bonus card this turn: not yet played.
'''


def test_screen_for_player_2_exactly():
    s = position(**SCENARIO)
    assert s.render(1) == EXPECTED_FOR_PLAYER_2


def test_screen_for_player_1_differs_only_in_the_hands_and_the_viewer():
    s = position(**SCENARIO)
    mine = s.render(0).splitlines()
    theirs = s.render(1).splitlines()
    diff = [(a, b) for a, b in zip(mine, theirs, strict=True) if a != b]
    assert diff == [
        (theirs[0].replace("you are Player 2", "you are Player 1"), theirs[0]),
        ("Player 1 hand: Artillery Strike, Boost", "Player 1 hand: 2 cards"),
        ("Player 2 hand: 1 card", "Player 2 hand: Extra Ammo"),
    ]


def test_map_cells_show_terrain_star_squad_owner_size_impeded_and_seize():
    screen = position(**SCENARIO).render(0)
    assert "[F   -1,0]" in screen and "[  1M3!  ]" in screen  # forest, impeded Mech
    assert "[M*   0,0]" in screen and "[  2I5   ]" in screen  # starred mountain
    assert "[H2   2,0]" in screen and "[1I6! s2 ]" in screen  # Seize counter on the HQ
    assert "[?    3,0]" in screen  # face down


def test_own_hq_shows_all_its_squads():
    screen = position().render(0)
    assert "[1I6R6M4 ]" in screen and "[2I6R6M4 ]" in screen


def test_rich_screen_has_the_same_text_and_colours():
    s = position(**SCENARIO)
    rich = s.render_rich(0)
    assert rich.plain == s.render(0)
    styles = {str(span.style) for span in rich.spans}
    assert {"bold red", "bold blue", "green", "bold yellow", "dim"} <= styles


def test_game_over_screen_and_prompt():
    s = position(squads={"0R": (0, 0, 6), "1I": None, "1R": None, "1M": (1, 0, 1)})
    assert s.prompt() == "Player 1 (turn 1, to act: I R M): "
    play(s, "R attack E M")
    assert "game over: Player 1 wins (rout)" in s.render(0)
    assert s.prompt() == ""


def test_prompt_lists_the_squads_still_to_act():
    s = position()
    play(s, "I wait")
    assert s.prompt() == "Player 1 (turn 1, to act: R M): "
