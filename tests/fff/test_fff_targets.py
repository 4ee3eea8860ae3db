"""The board element each legal turn involves (`action_targets`): the square of the piece the
turn selects (FFF-30), as the page draws it (`sq:a1` .. `sq:h8`). The page makes those squares
clickable from the legal list alone, so each must hold the mover's own piece, in the phase the
turn names (`d4~`: the out-of-phase piece there)."""

import random

from fff_helpers import GAME, setup

SQUARES = {f"sq:{f}{r}" for f in "abcdefgh" for r in range(1, 9)}


def random_positions(games: int, seed: int):
    rng = random.Random(seed)
    for g in range(games):
        s = GAME.new(seed=g)
        for _ in range(rng.randrange(0, 40)):
            if s.is_over:
                break
            yield s
            s.apply(rng.choice(s.legal_actions()))


def test_every_turn_targets_a_square_of_the_board_holding_the_movers_piece():
    positions = 0
    for s in random_positions(8, seed=3):
        positions += 1
        p = s.current_players()[0]
        pieces = s.view(p)["board"]["pieces"]
        for a in s.legal_actions(p):
            targets = s.action_targets(a, p)
            text = s.notation(a)
            if text == "pass":
                assert targets == ()
                continue
            assert len(targets) == 1 and targets[0] in SQUARES, (text, targets)
            square = targets[0][3:]
            ghost = text.split()[0].endswith("~")
            assert text.split()[0].rstrip("~") == square  # FFF-30: the turn starts with it
            assert any(pc["square"] == square and pc["owner"] == p
                       and pc["out_of_phase"] == ghost for pc in pieces), (text, pieces)
    assert positions > 100


def test_the_out_of_phase_piece_is_selected_on_its_square():
    s = setup("B2d4N:c,B1d4S")  # the 2-pip carries a clear field: out of phase (FFF-14)
    texts = {s.notation(a): s.action_targets(a, 0) for a in s.legal_actions(0)}
    assert any(t.startswith("d4~") for t in texts) and any(t.startswith("d4 ") for t in texts)
    assert {v for t, v in texts.items() if t.startswith("d4")} == {("sq:d4",)}
