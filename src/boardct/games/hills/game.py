"""The `Game` of Battle for The Shifting Hills: options, setup and a heuristic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from boardct.core.errors import DataError, OptionError
from boardct.core.frontends import FrontEnds
from boardct.core.game import Game, Option, Setup
from boardct.core.info import LENGTH_CAP
from boardct.core.inputs import MAX_FILE_BYTES, InputError, ascii_int, decode, read_bytes, read_text
from boardct.games.hills import encoding as enc
from boardct.games.hills.board import (
    CARD_WORDS,
    DEFAULT_DECK,
    DEFAULT_STARS,
    HEXES,
    HQ,
    LAND,
    MAX_CARDS_PER_KIND,
    MAX_DECK,
    MAX_TURN_LIMIT,
)
from boardct.games.hills.layout import HEADER, Layout, parse_layout, random_layout, shown
from boardct.games.hills.state import HillsState

# `batch.write_observations` once imported (the module needs numpy: imported on first use)
_BATCH_WRITER: list[Callable[[Any, Sequence[Any], Sequence[int]], None]] = []

DEFAULT_DECK_TEXT = ",".join(f"{w}:{n}" for w, n in zip(CARD_WORDS, DEFAULT_DECK, strict=True))
# A layout file is about 40 short lines (1 KB). Reading stops here, well below the option's
# own text limit, since a layout opened as a file is kept inline in the record.
MAX_LAYOUT_BYTES = 64 * 1024


def parse_deck_mix(text: str) -> tuple[int, int, int, int]:
    """'survivors:3,artillery:3,ammo:3,boost:3' (cards left out: none) -> counts.

    Counts are ASCII digits, at most `MAX_CARDS_PER_KIND` each: a game draws at most one card
    per star and has 35 land tiles, so no more can come into play (and `survivors:100000000`
    would otherwise build and shuffle a deck of a hundred million cards).
    """
    mix = [0, 0, 0, 0]
    seen = set()
    for part in text.split(","):
        part = part.strip().lower()
        if not part:
            continue
        name, sep, count = part.partition(":")
        name = name.strip()
        if not sep or name not in CARD_WORDS:
            raise OptionError(f"option deck: {shown(part)} is not CARD:COUNT with CARD one of "
                              f"{', '.join(CARD_WORDS)} (e.g. {DEFAULT_DECK_TEXT})")
        if name in seen:
            raise OptionError(f"option deck: {name} is given twice")
        seen.add(name)
        count = count.strip()
        if count.startswith("-") and ascii_int(count[1:]) is not None:
            raise OptionError(f"option deck: {name} count {shown(count)} is negative")
        n = ascii_int(count)
        if n is None:
            raise OptionError(f"option deck: {shown(count)} for {name} is not a whole "
                              "number (ASCII digits 0-9)")
        if n > MAX_CARDS_PER_KIND:
            raise OptionError(f"option deck: {n} {name} cards; at most {MAX_CARDS_PER_KIND} of "
                              f"a kind (a game draws at most one card per star, and there are "
                              f"{len(LAND)} land tiles)")
        mix[CARD_WORDS.index(name)] = n
    return (mix[0], mix[1], mix[2], mix[3])


def layout_source(value: str) -> tuple[str, str]:
    """The layout option holds a file path or the layout text itself: (text, source name).

    A file is read bounded (`MAX_LAYOUT_BYTES`, regular files only: never a folder, a device
    such as /dev/zero or a pipe), as UTF-8 with a byte-order mark dropped."""
    if "\n" in value or value.lstrip("\ufeff \t").lower().startswith("hills-layout"):
        return value, "layout"
    try:
        return read_text(Path(value), MAX_LAYOUT_BYTES, "layout file"), _source(value)
    except InputError as exc:
        raise DataError(_source(value), "", exc.reason) from None


def _source(path: str) -> str:
    """A file name as messages print it (escaped when it holds control characters)."""
    return path if path.isprintable() and len(path) <= 200 else shown(path, 200)


class StarsOption(Option):
    """The `stars` option: at most one star per land tile, and its message says so."""

    def convert(self, value):
        number = value if type(value) is int else \
            ascii_int(value.strip()) if isinstance(value, str) else None
        if number is not None and number > len(LAND):
            raise OptionError(f"option stars: {number} is more than the {len(LAND)} land tiles")
        return super().convert(value)


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
    frontends = FrontEnds(cli="boardct.games.hills.cli", web="web")
    small_options = {"turn_limit": 10}
    help_text = HELP
    min_players = 2
    max_players = 2
    perfect_information = False
    has_chance = True
    perfect_recall_tensor = False  # the information-state tensor keeps the last 8 actions
    # The strength ladder (agents/levels.py): the hidden kind's row has no step from greedy
    # with noise to greedy in Shift, which Hills has, with three decisions in four random
    # (greedy scored 81% of 40 against it, 66% against half random); and the search here
    # gains little from 0.1 to 1 CPU s a move, so level 4 is a search of a few iterations
    # (docs/agents.md, "The ladder measured").
    agent_levels = ("random", "greedy:eps=0.75", "greedy", "search:iters=30", "search:cpu=1")
    options = (
        Option("turn_limit", 150, "turns per player before the game is a draw, 0 for none "
               f"(BSH-18); at most {MAX_TURN_LIMIT:,}", type=int, minimum=0,
               maximum=MAX_TURN_LIMIT),
        StarsOption("stars", DEFAULT_STARS, "starred land tiles, 0-35 (BSH-3)", type=int,
                    minimum=0, maximum=len(LAND)),
        Option("deck", DEFAULT_DECK_TEXT, "the bonus deck as CARD:COUNT,... (BSH-3), at most "
               f"{MAX_CARDS_PER_KIND} of each card ({MAX_DECK} in all)"),
        PlayerChoice("first", "random", "who plays first: random (seeded coin, BSH-6), "
                     "0 (Player 1) or 1 (Player 2)", choices=("random", "0", "1")),
        Option("layout", "", "a layout file (BSH-39) fixing tiles, stars, deck and first "
               "player (its path, or its text); overrides stars, deck and first",
               local_file=True),
    )

    # -- facts for learners (encoding.py; docs/hills.md "For learners") ----------------------
    def action_count(self, options: dict, players: int) -> int:
        return enc.NUM_ACTIONS

    def observation_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (enc.SIZE,)

    def information_state_shape(self, options: dict, players: int) -> tuple[int, ...]:
        return (enc.INFO_SIZE,)

    def write_observations(self, out: Any, states: Sequence[Any], players: Sequence[int]
                           ) -> bool:
        """A batch's tensors joined from remembered pieces (`batch`: numpy, from
        `boardct[rl]`, imported at the first batch and kept: a vector calls this every
        step)."""
        writer = _BATCH_WRITER
        if not writer:
            from boardct.games.hills.batch import write_observations

            writer.append(write_observations)
        writer[0](out, states, players)
        return True

    def max_game_length(self, options: dict, players: int) -> int:
        """The most actions one game can take, from the rules: each player completes at most
        the turn limit L of turns (the game is drawn when both have, BSH-37), and a turn holds
        at most six actions: one per squad (BSH-7: move, attack, deimpede or wait; three
        squads), Boost's extra move (BSH-34), one card (BSH-7: Artillery Strike or Boost; Extra
        Ammo is a squad's attack as well), and `end` (BSH-24). So 2 x L x 6, at the default
        150 turns 1,800. A layout's own turn limit wins over the option (BSH-39), as the game
        does. With no limit there is no bound (squads may wait for ever): `LENGTH_CAP`."""
        limit = options["turn_limit"]
        if options.get("layout"):
            layout = parse_layout(*layout_source(options["layout"]))
            if layout.turn_limit is not None:
                limit = layout.turn_limit
        return 2 * limit * 6 if limit else LENGTH_CAP

    def max_chance_outcomes(self, options: dict, players: int) -> int:
        """Every draw is the setup's (`random_layout`, from `Setup.rng()`): the first-player
        coin, then a shuffle of the 35 land tiles, of the 35 land hexes for the stars and of
        the deck, one draw per step, the largest of a shuffle's length. A layout file
        draws nothing (2 keeps the bound positive)."""
        if options.get("layout"):
            return 2
        return max(2, len(LAND), sum(parse_deck_mix(options["deck"])))

    def initial_state(self, setup: Setup) -> HillsState:
        opts = setup.options
        rng = setup.rng()
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
        """A layout file starts a new game from that setup (kept inline in its record).

        Anything that is not a readable file starting with the layout header is not a layout
        (None); a layout file too large or not UTF-8 is a `DataError`."""
        try:
            data = read_bytes(path, MAX_FILE_BYTES, "layout file")
        except InputError:
            return None
        head = data[:64].removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
        if not head.lstrip().lower().startswith(HEADER):
            return None
        if len(data) > MAX_LAYOUT_BYTES:
            raise DataError(_source(path), "", f"a layout file is at most {MAX_LAYOUT_BYTES:,} "
                                               "bytes")
        try:
            text = decode(data, path)
        except InputError as exc:
            raise DataError(_source(path), "", exc.reason) from None
        parse_layout(text, _source(path))  # errors name the file
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
