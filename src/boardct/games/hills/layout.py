"""A game's hidden setup: tiles, stars, bonus deck and first player.

It comes either from the game's seeded `Rng` (BSH-2, BSH-3, BSH-6) or from a layout file
(BSH-39), which lets tests and tournaments fix an exact setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardct.core.errors import DataError
from boardct.core.inputs import ascii_int, shown, strip_bom
from boardct.core.rng import Rng
from boardct.games.hills.board import (
    CARD_WORDS,
    FOREST,
    HEXES,
    HQ,
    HQ_TILE,
    INDEX,
    LAND,
    MAX_CARDS_PER_KIND,
    MAX_DECK,
    MAX_TURN_LIMIT,
    MOUNTAIN,
    N_HEXES,
    PLAINS,
    RADIUS,
    TILE_COUNTS,
    TILE_LETTERS,
)

HEADER = "hills-layout 1"


@dataclass(frozen=True)
class Layout:
    """tiles/stars: per hex in canonical order; deck: card codes from the top down;
    turn_limit: None when the layout does not set it (the option then rules), 0 for none."""

    first: int
    tiles: tuple[int, ...]
    stars: tuple[bool, ...]
    deck: tuple[int, ...]
    turn_limit: int | None = None


def random_layout(rng: Rng, stars: int, deck_mix: tuple[int, ...], first: int | None) -> Layout:
    """The seeded setup. Draw order (fixed, so seeds replay): the first-player coin (only when
    `first` is None), the tile shuffle, the star shuffle, the deck shuffle."""
    if first is None:
        first = 1 if rng.coin() else 0
    bag = [PLAINS] * TILE_COUNTS[0] + [MOUNTAIN] * TILE_COUNTS[1] + [FOREST] * TILE_COUNTS[2]
    rng.shuffle(bag)
    tiles = [HQ_TILE] * N_HEXES
    for h, t in zip(LAND, bag, strict=True):
        tiles[h] = t
    order = list(LAND)
    rng.shuffle(order)
    starred = set(order[:stars])
    deck = [c for c, n in enumerate(deck_mix) for _ in range(n)]
    rng.shuffle(deck)
    return Layout(
        first,
        tuple(tiles),
        tuple(h in starred for h in range(N_HEXES)),
        tuple(deck),
    )


def layout_text(layout: Layout) -> str:
    """The layout file of a setup (BSH-39), tiles in canonical order."""
    lines = [HEADER, f"first {layout.first}"]
    lines.append(" ".join(["deck"] + [CARD_WORDS[c] for c in layout.deck]))
    if layout.turn_limit is not None:
        lines.append(f"turn-limit {layout.turn_limit or 'none'}")
    for h in LAND:
        q, r = HEXES[h]
        star = "*" if layout.stars[h] else ""
        lines.append(f"tile {q} {r} {TILE_LETTERS[layout.tiles[h]]}{star}")
    return "\n".join(lines) + "\n"


def _int(word: str, source: str, where: str, what: str) -> int:
    """A whole number in ASCII digits with an optional sign: `int()` alone would also read
    `١٢` (Arabic-Indic digits), `1_000` and thousands of digits."""
    signed = word[:1] in ("+", "-")
    number = ascii_int(word[1:] if signed else word, 6)
    if number is None:
        raise DataError(source, where, f"{what} {shown(word)} is not a whole number "
                                       "(ASCII digits, at most six)")
    return -number if word.startswith("-") else number


def parse_layout(text: str, source: str = "layout") -> Layout:
    """Read a layout file (BSH-39). Every mistake names its line.

    A byte-order mark (Windows Notepad writes one) is ignored. Limits: a deck of at most
    `MAX_DECK` cards, `MAX_CARDS_PER_KIND` of a kind; a turn limit of at most `MAX_TURN_LIMIT`.
    """
    lines = strip_bom(text).splitlines()
    body: list[tuple[int, list[str]]] = []
    for n, raw in enumerate(lines, 1):
        words = raw.split("#", 1)[0].lower().split()
        if words:
            body.append((n, words))
    if not body or body[0][1] != HEADER.split():
        where = f"line {body[0][0]}" if body else "line 1"
        raise DataError(source, where, f"a layout file starts with {HEADER!r}")
    first: int | None = None
    deck: tuple[int, ...] | None = None
    limit: int | None = None
    limit_seen = False
    tiles = [HQ_TILE] * N_HEXES
    stars = [False] * N_HEXES
    seen: dict[int, int] = {}
    for n, words in body[1:]:
        where = f"line {n}"
        key, args = words[0], words[1:]
        if key == "first":
            if first is not None:
                raise DataError(source, where, "'first' is given twice")
            if len(args) != 1 or args[0] not in ("0", "1"):
                raise DataError(source, where, "'first' takes 0 or 1 (the player who starts)")
            first = int(args[0])
        elif key == "deck":
            if deck is not None:
                raise DataError(source, where, "'deck' is given twice")
            if len(args) > MAX_DECK:
                raise DataError(source, where, f"a deck of {len(args)} cards: at most "
                                f"{MAX_DECK} ({MAX_CARDS_PER_KIND} of each kind)")
            cards = []
            for w in args:
                if w not in CARD_WORDS:
                    raise DataError(source, where, f"unknown card {shown(w)} (cards: "
                                    f"{', '.join(CARD_WORDS)})")
                cards.append(CARD_WORDS.index(w))
            for c, word in enumerate(CARD_WORDS):
                if cards.count(c) > MAX_CARDS_PER_KIND:
                    raise DataError(source, where, f"{cards.count(c)} {word} cards: at most "
                                    f"{MAX_CARDS_PER_KIND} (a game draws at most one card per "
                                    f"star, and there are {len(LAND)} land tiles)")
            deck = tuple(cards)
        elif key == "turn-limit":
            if limit_seen:
                raise DataError(source, where, "'turn-limit' is given twice")
            if len(args) != 1:
                raise DataError(source, where, "'turn-limit' takes a number or 'none'")
            limit_seen = True
            if args[0] == "none":
                limit = 0
            else:
                limit = _int(args[0], source, where, "turn limit")
                if limit < 1:
                    raise DataError(source, where, "the turn limit must be at least 1 (or none)")
                if limit > MAX_TURN_LIMIT:
                    raise DataError(source, where, f"the turn limit is at most {MAX_TURN_LIMIT:,} "
                                    "turns per player (or none)")
        elif key == "tile":
            if len(args) != 3:
                raise DataError(source, where, "'tile' takes Q R T, e.g. 'tile 1 -3 F*'")
            q = _int(args[0], source, where, "q")
            r = _int(args[1], source, where, "r")
            h = INDEX.get((q, r))
            if h is None:
                raise DataError(source, where, f"({q},{r}) is off the map "
                                f"(max(|q|,|r|,|q+r|) must be at most {RADIUS})")
            if h in HQ:
                raise DataError(source, where, f"({q},{r}) is a headquarters, not a land tile")
            if h in seen:
                raise DataError(source, where, f"({q},{r}) was already given on line {seen[h]}")
            t = args[2]
            star = t.endswith("*")
            letter = t[:-1] if star else t
            if letter not in ("p", "m", "f"):
                raise DataError(source, where, f"tile type {shown(args[2])} is not P, M or F "
                                "(with * for a star)")
            seen[h] = n
            tiles[h] = "pmf".index(letter)
            stars[h] = star
        else:
            raise DataError(source, where, f"unknown entry {shown(key)} (expected first, deck, "
                            "turn-limit or tile)")
    if first is None:
        raise DataError(source, "", "no 'first' line")
    if deck is None:
        raise DataError(source, "", "no 'deck' line")
    missing = [h for h in LAND if h not in seen]
    if missing:
        listed = ", ".join(f"({HEXES[h][0]},{HEXES[h][1]})" for h in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise DataError(source, "", f"{len(missing)} land tiles are missing: {listed}{more}")
    return Layout(first, tuple(tiles), tuple(stars), deck, limit)
