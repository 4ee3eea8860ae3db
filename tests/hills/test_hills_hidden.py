"""Hidden information: views and screens never leak, determinizations resample exactly the
unknown (BSH-2, BSH-3, BSH-13, BSH-21)."""

from __future__ import annotations

import json
import random

from hills_helpers import HILLS, play, position

from boardct.games.hills.board import CARD_WORDS, LAND, SURVIVORS, TILE_LETTERS


def random_states(games: int, seed: int = 0, stride: int = 7):
    """States met along random games (actions other than `end` favoured)."""
    rnd = random.Random(seed)
    for g in range(games):
        s = HILLS.new(seed=rnd.randrange(1 << 30), stars=rnd.choice((8, 8, 20, 35)))
        n = 0
        while not s.is_over:
            acts = s.legal_actions()
            a = rnd.choice(acts[1:]) if len(acts) > 1 and rnd.random() < 0.85 else acts[0]
            s.apply(a)
            n += 1
            if n % stride == g % stride:
                yield s


def hidden_hexes(s):
    return [h for h in LAND if not s.rev[h]]


def test_view_never_shows_face_down_tiles_unrevealed_stars_deck_or_opponent_hand():
    checked = 0
    for s in random_states(25):
        for p in (0, 1, None):
            view = s.view(p)
            for h in hidden_hexes(s):
                assert view["board"]["hexes"][h] == {"q": view["board"]["hexes"][h]["q"],
                                            "r": view["board"]["hexes"][h]["r"], "tile": None}
            for h in LAND:
                if s.rev[h]:
                    assert view["board"]["hexes"][h]["tile"] == TILE_LETTERS[s.tiles[h]]
            assert list(view["board"]["hands"]) == ([] if p is None else [str(p)])
            if p is not None:
                own = [CARD_WORDS[c] for c in range(4) for _ in range(s.hand[p * 4 + c])]
                assert view["board"]["hands"][str(p)] == own
            assert view["board"]["deck_size"] == len(s.deck)
            text = json.dumps(view)
            assert "deck_order" not in text and "seed" not in text
            checked += 1
    assert checked > 200


def test_view_and_screen_do_not_change_when_hidden_parts_are_resampled():
    """Any leak of a face-down tile, an unrevealed star, the deck order or the opponent's hand
    would show up as a difference between the true state and a resampled twin."""
    compared = differed = 0
    for s in random_states(20, seed=1, stride=11):
        for p in (0, 1):
            view, screen = s.view(p), s.render(p)
            rich = s.render_rich(p).plain
            for k in range(3):
                d = s.determinize(p, seed=k)
                assert d.view(p) == view
                assert d.render(p) == screen
                assert d.render_rich(p).plain == rich
                assert d.prompt() == s.prompt()
                compared += 1
                if d.tiles != s.tiles or d.deck != s.deck or d.hand != s.hand \
                        or d.star != s.star:
                    differed += 1
    assert compared > 100 and differed > compared // 2


def test_spectator_sees_no_hand_at_all():
    s = position(hands=((0, 1, 0, 1), (0, 0, 2, 0)))
    assert s.view(None)["board"]["hands"] == {} and s.view(None)["board"]["hand_sizes"] == [2, 2]
    screen = s.render(None)
    assert "Artillery" not in screen and "Extra Ammo" not in screen and "2 cards" in screen


def test_screen_shows_own_hand_and_only_the_opponents_hand_size():
    s = position(hands=((0, 1, 0, 1), (0, 0, 2, 0)))
    mine, theirs = s.render(0), s.render(1)
    assert "Player 1 hand: Artillery Strike, Boost" in mine
    assert "Player 2 hand: 2 cards" in mine and "Extra Ammo" not in mine
    assert "Player 2 hand: Extra Ammo, Extra Ammo" in theirs
    assert "Player 1 hand: 2 cards" in theirs and "Artillery Strike" not in theirs


def test_draw_events_never_name_the_card():
    for s in random_states(10, seed=3, stride=5):
        for _, action in s.history()[-3:]:
            assert isinstance(action, int)
    rnd = random.Random(5)
    for _ in range(30):
        s = HILLS.new(seed=rnd.randrange(1000), stars=35)
        while not s.is_over:
            acts = s.legal_actions()
            for event in s.apply(rnd.choice(acts[1:] or acts)):
                if event[0] == "draw":
                    assert len(event) == 3  # player and squad only
                    text = s.describe(event).lower()
                    assert not any(w in text for w in ("artillery", "ammo", "boost"))


# -- determinization -----------------------------------------------------------------------------
def test_determinize_keeps_everything_the_player_knows():
    for s in random_states(15, seed=2, stride=9):
        for p in (0, 1):
            d = s.determinize(p, seed=123)
            for h in range(37):
                if s.rev[h]:
                    assert d.tiles[h] == s.tiles[h] and d.star[h] == s.star[h]
            assert (d.pos, d.units, d.imp, d.st, d.cur, d.seize, d.tdone) == \
                   (s.pos, s.units, s.imp, s.st, s.cur, s.seize, s.tdone)
            assert d.hand[p * 4: p * 4 + 4] == s.hand[p * 4: p * 4 + 4]
            assert sum(d.hand[(1 - p) * 4: (1 - p) * 4 + 4]) == \
                   sum(s.hand[(1 - p) * 4: (1 - p) * 4 + 4])
            assert d.hand[(1 - p) * 4 + SURVIVORS] == 0  # a hand never holds Survivors Found
            assert len(d.deck) == len(s.deck) and d.discard == s.discard


def test_determinize_keeps_the_public_mix_of_tiles_stars_and_cards():
    for s in random_states(15, seed=4, stride=9):
        for p in (0, 1):
            d = s.determinize(p, seed=9)
            counts = [sum(1 for h in LAND if d.tiles[h] == t) for t in range(3)]
            assert tuple(counts) == s.info.tile_counts
            assert sum(1 for h in LAND if d.star[h]) == s.info.star_total
            cards = [0, 0, 0, 0]
            for c in d.deck + d.discard:
                cards[c] += 1
            for pl in (0, 1):
                for c in range(4):
                    cards[c] += d.hand[pl * 4 + c]
            assert tuple(cards) == s.info.deck_mix


def test_determinizations_differ_across_seeds_and_repeat_for_a_seed():
    s = HILLS.new(seed=8)
    s.apply(s.parse("I move E"))
    p = s.cur
    samples = {tuple(s.determinize(p, seed=k).tiles) for k in range(10)}
    assert len(samples) == 10
    decks = {tuple(s.determinize(p, seed=k).deck) for k in range(10)}
    assert len(decks) > 5
    assert s.determinize(p, 4).tiles == s.determinize(p, 4).tiles
    assert s.determinize(p, 4).deck == s.determinize(p, 4).deck


def test_determinize_resamples_the_opponents_hand_not_mine():
    s = position(hands=((0, 1, 0, 0), (0, 0, 1, 0)),
                 deck=("artillery", "boost", "boost", "ammo", "survivors"))
    hands1 = {tuple(s.determinize(0, seed=k).hand[4:8]) for k in range(40)}
    assert len(hands1) > 1 and all(sum(h) == 1 and h[0] == 0 for h in hands1)
    assert all(s.determinize(0, seed=k).hand[0:4] == [0, 1, 0, 0] for k in range(10))
    both = {tuple(s.determinize(None, seed=k).hand) for k in range(40)}
    assert any(h[0:4] != (0, 1, 0, 0) for h in both)


def test_determinized_states_are_complete_and_playable():
    rnd = random.Random(11)
    for s in random_states(6, seed=6, stride=13):
        d = s.determinize(s.cur, seed=rnd.randrange(1000))
        while not d.is_over:
            d.apply(rnd.choice(d.legal_actions()))
        assert d.outcome is not None


def test_determinize_samples_each_face_down_type_in_proportion():
    s = HILLS.new(seed=3)
    h = LAND[0]
    seen = [0, 0, 0]
    for k in range(600):
        seen[s.determinize(0, seed=k).tiles[h]] += 1
    # 15 plains, 10 mountains, 10 forest face down: expect about 257, 171, 171
    assert 200 < seen[0] < 320 and 120 < seen[1] < 230 and 120 < seen[2] < 230


def test_bsh24_a_turn_that_ends_by_itself_shows_the_hand_holds_no_artillery():
    deck = ("artillery",) * 6 + ("boost",) * 3
    s = position(hands=((0, 0, 0, 0), (0, 0, 1, 1)), to_move=1, deck=deck)
    assert s.view(0)["board"]["hand_facts"][1] == {"no_artillery": 0, "only_ammo": 0}
    play(s, "I wait", "R wait", "M wait")  # no squad can be boosted: the turn ends by itself
    assert s.cur == 0
    assert s.view(0)["board"]["hand_facts"][1] == {"no_artillery": 2, "only_ammo": 0}
    for k in range(30):
        d = s.determinize(0, seed=k)
        assert d.hand[4 + 1] == 0 and sum(d.hand[4:8]) == 2


def test_bsh24_ending_by_itself_with_a_squad_boostable_shows_only_ammo():
    s = position(hands=((0, 0, 0, 0), (0, 0, 1, 0)), to_move=1,
                 deck=("artillery", "boost", "boost"))
    play(s, "I move W", "R move NW", "M move SW")
    assert s.cur == 0 and s.view(0)["board"]["hand_facts"][1] == {"no_artillery": 1, "only_ammo": 1}
    assert all(s.determinize(0, seed=k).hand[4:8] == [0, 0, 1, 0] for k in range(10))


def test_hand_facts_never_exclude_the_true_hand():
    """Over random games the public facts always fit the real hands (so determinizations
    never rule out the truth), and they add up to the hand sizes."""
    for s in random_states(20, seed=9, stride=3):
        for p in (0, 1):
            known = s.known[p * 3: p * 3 + 3]
            hand = s.hand[p * 4: p * 4 + 4]
            assert sum(known) == sum(hand) and hand[0] == 0
            assert hand[2] >= known[2]  # the "only ammo" cards are ammo
            assert hand[2] + hand[3] >= known[1] + known[2]  # "no artillery" ones are not
