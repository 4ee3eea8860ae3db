"""The `Game` of Battle for The Shifting Hills: options, setup and a heuristic."""

from __future__ import annotations

from pathlib import Path

from boardct.core.errors import DataError, OptionError
from boardct.core.game import Game, Option, Setup
from boardct.core.rng import Rng
from boardct.games.hills.board import (
    CARD_WORDS,
    DEFAULT_DECK,
    DEFAULT_STARS,
    HEXES,
    HQ,
    LAND,
)
from boardct.games.hills.layout import HEADER, Layout, parse_layout, random_layout
from boardct.games.hills.state import HillsState

DEFAULT_DECK_TEXT = ",".join(f"{w}:{n}" for w, n in zip(CARD_WORDS, DEFAULT_DECK, strict=True))


def parse_deck_mix(text: str) -> tuple[int, int, int, int]:
    """'survivors:3,artillery:3,ammo:3,boost:3' (cards left out: none) -> counts."""
    mix = [0, 0, 0, 0]
    seen = set()
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        name, sep, count = part.partition(":")
        name = name.strip()
        if not sep or name not in CARD_WORDS:
            raise OptionError(f"option deck: {part!r} is not CARD:COUNT with CARD one of "
                              f"{', '.join(CARD_WORDS)} (e.g. {DEFAULT_DECK_TEXT})")
        if name in seen:
            raise OptionError(f"option deck: {name} is given twice")
        seen.add(name)
        try:
            n = int(count)
        except ValueError:
            raise OptionError(f"option deck: {count.strip()!r} for {name} is not a whole "
                              "number") from None
        if n < 0:
            raise OptionError(f"option deck: {name} count {n} is negative")
        mix[CARD_WORDS.index(name)] = n
    return (mix[0], mix[1], mix[2], mix[3])


def layout_source(value: str) -> tuple[str, str]:
    """The layout option holds a file path or the layout text itself: (text, source name)."""
    if "\n" in value or value.lstrip().lower().startswith("hills-layout"):
        return value, "layout"
    path = Path(value)
    try:
        return path.read_text(encoding="utf-8"), str(path)
    except UnicodeDecodeError:
        raise DataError(str(path), "", "not a text file") from None
    except OSError as exc:
        raise DataError(str(path), "", exc.strerror or str(exc)) from None


class PlayerChoice(Option):
    """The `first` option: also accepts the player number as an int (0 or 1)."""

    def convert(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return super().convert(value)


HELP = """\
Battle for The Shifting Hills commands (one per line, case-insensitive; BSH-38)
S is one of your squads, T an enemy squad: I Infantry, R Rocketeer, M Mech.
D is a direction: NW NE W E SW SE.

  S move D          move to the neighbouring hex (a face-down tile is revealed first)
  S attack D T      attack enemy squad T on the neighbouring hex
  S deimpede        the only action of an impeded squad
  S wait            the squad does nothing this turn
  play artillery T  Artillery Strike: enemy squad T loses 1 unit, wherever it is
  play boost S      Boost: squad S gets a second move this turn
  play ammo S D T   Extra Ammo: S attacks T with two stage-1 hits
  end               end your turn (allowed at any time)

Win by destroying every enemy squad (Rout) or by holding the enemy HQ with your Infantry
until your third turn there (Seize).
"""


class HillsGame(Game):
    id = "hills"
    title = "Battle for The Shifting Hills"
    help_text = HELP
    min_players = 2
    max_players = 2
    perfect_information = False
    has_chance = True
    options = (
        Option("turn_limit", 150, "turns per player before the game is a draw, 0 for none "
               "(BSH-18)", type=int, minimum=0),
        Option("stars", DEFAULT_STARS, "starred land tiles, 0-35 (BSH-3)", type=int, minimum=0),
        Option("deck", DEFAULT_DECK_TEXT, "the bonus deck as CARD:COUNT,... (BSH-3)"),
        PlayerChoice("first", "random", "who plays first: random (seeded coin, BSH-6), "
                     "0 (Player 1) or 1 (Player 2)", choices=("random", "0", "1")),
        Option("layout", "", "a layout file (BSH-39) fixing tiles, stars, deck and first "
               "player (its path, or its text); overrides stars, deck and first"),
    )

    def initial_state(self, setup: Setup) -> HillsState:
        opts = setup.options
        rng = Rng(setup.seed)
        if opts.get("layout"):
            text, source = layout_source(opts["layout"])
            layout = parse_layout(text, source)
        else:
            stars = opts["stars"]
            if stars > len(LAND):
                raise OptionError(f"option stars: {stars} is more than the {len(LAND)} land "
                                  "tiles")
            first = None if opts["first"] == "random" else int(opts["first"])
            layout = random_layout(rng, stars, parse_deck_mix(opts["deck"]), first)
        return HillsState.start(setup, layout, opts["turn_limit"], rng)

    def from_layout(self, text: str, seed: int = 0, names=None, **options) -> HillsState:
        """A new game set up from a layout file's text (BSH-39)."""
        return self.new(seed=seed, names=names, layout=text, **options)  # type: ignore

    def load_file(self, path: str) -> HillsState | None:
        """A layout file starts a new game from that setup (kept inline in its record)."""
        try:
            with open(path, encoding="utf-8") as fh:
                head = fh.read(64)
        except (OSError, UnicodeDecodeError):
            return None
        if not head.lstrip().lower().startswith(HEADER):
            return None
        text, _ = layout_source(path)
        parse_layout(text, path)  # errors name the file
        return self.new(layout=text)  # type: ignore[return-value]

    def evaluate(self, state: HillsState, player: int) -> float:  # type: ignore[override]
        """Material, Seize progress and the Infantry's distance to the enemy HQ, in [-1, 1]."""
        out = state.out
        if out is not None:
            if not out.winners:
                return 0.0
            return 1.0 if player in out.winners else -1.0
        units = state.units
        score = [0.0, 0.0]
        for p in (0, 1):
            b = p * 3
            material = units[b] + units[b + 1] + 1.5 * units[b + 2]
            alive = (units[b] > 0) + (units[b + 1] > 0) + (units[b + 2] > 0)
            s = material + 2.0 * alive + 0.8 * sum(state.hand[p * 4: p * 4 + 4])
            if units[b]:
                q, r = HEXES[state.pos[b]]
                eq, er = HEXES[HQ[1 - p]]
                dist = max(abs(q - eq), abs(r - er), abs(q + r - eq - er))
                s += 0.6 * (6 - dist)
            s += 6.0 * state.seize[p]
            score[p] = s
        diff = score[player] - score[1 - player]
        value = diff / (abs(diff) + 12.0)
        return max(-0.95, min(0.95, value))


def layout_of(state: HillsState) -> Layout:
    """The full (hidden) setup of a game as a layout: for tests and for writing layout files."""
    stars = tuple(bool(x) for x in state.star)
    # stars already used are still stars of the setup
    return Layout(state.info.first, tuple(state.tiles), stars,
                  tuple(reversed(state.deck)), state.info.turn_limit)
