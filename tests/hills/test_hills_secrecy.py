"""Shifting Hills secrecy (issue 15, items 6 and 7): the events each player is shown and the
determinizations agents search hold nothing outside `view(player)` (BSH-2, BSH-3, BSH-13)."""

from __future__ import annotations

import json
import random

from hills_helpers import HILLS, layout, position

from boardct.core.game import MESSAGE
from boardct.games.hills.board import CARD_NAMES, CARD_WORDS, SURVIVORS, TILE_LETTERS

# event kind -> the fields that hold a hex (every hex an event names must be face up)
HEX_FIELDS = {"reveal": (1,), "stopped": (2,), "move": (2, 3), "move-in": (2, 3),
              "impeded": (2,), "attack": (3,)}


def check_event(event: tuple, view: dict) -> None:
    """One event a player is shown, judged against that player's view after it."""
    kind = event[0]
    for field in HEX_FIELDS.get(kind, ()):
        assert view["board"]["hexes"][event[field]]["tile"] is not None, event  # face up for all
    if kind == "reveal":
        _, h, tile, starred = event
        hexes = view["board"]["hexes"]
        assert hexes[h]["tile"][0] == TILE_LETTERS[tile]
        assert starred == (hexes[h]["star"] or hexes[h]["star_used"])
    if kind == "draw":
        assert len(event) == 3  # the player and the squad, never the card
    if kind == "play":
        assert CARD_WORDS[event[2]] in view["board"]["discard"]
    if kind == "survivors":
        assert CARD_WORDS[SURVIVORS] in view["board"]["discard"]


def dump(s) -> tuple:
    """Everything a search could read from a state."""
    return (s.setup.seed, s.setup.options.get("layout"), tuple(s.tiles), tuple(s.rev),
            tuple(s.star), tuple(s.pos), tuple(s.units), tuple(s.deck), tuple(s.hand),
            tuple(s.known), tuple(s.discard), s.rng.s, s.cur, tuple(s.history()))


def test_whole_random_games_show_each_player_only_what_its_view_holds():
    """Every event through `events_for`, for each player and a spectator, names no face-down
    tile and no drawn card; every determinization looks to its player exactly like the real
    state, is a function of what the player sees, and its hidden parts vary with the seed."""
    rnd = random.Random(15)
    shown = determinized = varied = 0
    for g in range(6):
        s = HILLS.new(seed=rnd.randrange(1 << 30), stars=rnd.choice((8, 20, 35)))
        n = 0
        while not s.is_over:
            acts = s.legal_actions()
            events = s.apply(rnd.choice(acts[1:]) if len(acts) > 1 and rnd.random() < 0.85
                             else acts[0])
            for p in (0, 1, None):
                view = s.view(p)
                mine = s.events_for(events, p)
                assert mine == events  # every Hills event is public (docs/hills.md)
                for e in mine:
                    check_event(e, view)
                    shown += 1
                text = json.dumps([s.describe(e) for e in mine]).lower()
                if not any(e[0] in ("play", "survivors") for e in mine):
                    assert not any(c.lower() in text for c in CARD_NAMES)
            n += 1
            if n % 9 == g % 9 and not s.is_over:
                p = s.cur
                twin = s.determinize(p, rnd.randrange(1 << 30))  # same view, hidden differ
                samples = set()
                for k in range(3):
                    d = s.determinize(p, k)
                    assert d.view(p) == s.view(p) and d.render(p) == s.render(p)
                    assert dump(twin.determinize(p, k)) == dump(d)
                    assert d.setup.seed != s.setup.seed
                    samples.add((tuple(d.tiles), tuple(d.deck), tuple(d.hand)))
                    determinized += 1
                varied += len(samples) > 1
    assert shown > 3000 and determinized > 100 and varied > determinized // 6


def test_a_determinization_does_not_carry_the_seed_that_deals_the_layout():
    """The game's seed regenerates every face-down tile, star and card (BSH-2, BSH-3): a
    determinization's setup must not hold it, or a search could rebuild the truth."""
    s = HILLS.new(seed=4242)
    for k in range(5):
        d = s.determinize(0, k)
        rebuilt = HILLS.initial_state(d.setup)
        assert d.setup.seed != s.setup.seed
        assert (rebuilt.tiles, rebuilt.deck) != (s.tiles, s.deck)
        assert d.setup.options == s.setup.options and d.setup.names == s.setup.names


def test_a_determinization_of_a_layout_game_drops_the_layout():
    """A layout option (BSH-39) is the hidden setup itself."""
    s = HILLS.from_layout(layout({(0, 0): "M*"}, deck=("artillery", "boost")))
    d = s.determinize(1, 3)
    assert s.setup.options["layout"] and d.setup.options["layout"] == ""
    assert d.view(1) == s.view(1)


def test_events_for_passes_only_kinds_known_to_be_public():
    """A new event kind (one that might name a drawn card) never reaches a player until
    `events_for` knows it; a spectator's stream and a front end's notes pass."""
    s = position()
    secret = ("secret-draw", 0, 2)
    assert s.events_for([secret, ("end", 0), (MESSAGE, "saved")], 1) == [("end", 0),
                                                                         (MESSAGE, "saved")]
    assert s.events_for([secret], None) == [secret]

