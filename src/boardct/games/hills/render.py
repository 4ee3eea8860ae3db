"""The terminal picture of a position from one player's point of view.

`segments` yields (text, style) pieces; `render` joins the text, `render_rich` keeps the
styles, so plain and coloured screens never disagree. Only public facts and the viewer's own
hand are drawn.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from boardct.games.hills.board import (
    CARD_NAMES,
    CARD_WORDS,
    HEXES,
    HQ,
    KIND_LETTERS,
    KIND_NAMES,
    MOUNTAIN,
    RADIUS,
    TILE_LETTERS,
    coord_text,
)

if TYPE_CHECKING:  # pragma: no cover
    from boardct.games.hills.state import HillsState

CELL = 8  # characters inside a hex's brackets; a hex takes CELL + 2 columns
PLAYER_STYLE = ("bold red", "bold blue")
TILE_STYLE = ("yellow", "bold white", "green", "")
DOWN_STYLE = "dim"
LEGEND = (
    "Directions:  NW NE     Tiles: P plains, M mountain (+1 ATK +1 DEF, no Mechs),\n"
    "            W  .  E           F forest (+1 DEF, impedes Mechs), ? face down, * star,\n"
    "             SW SE            H1/H2 headquarters.  Squads: owner, kind, units, ! impeded\n"
)

Seg = tuple[str, str]


def _squad_cell(state: HillsState, h: int) -> list[Seg]:
    """The second line of a hex: its squads, e.g. '1I6!' or '1I6R6M4', and a Seize count."""
    here = [sq for sq in range(6) if state.units[sq] and state.pos[sq] == h]
    if not here:
        return [(" " * CELL, "")]
    owner = here[0] // 3
    style = PLAYER_STYLE[owner]
    segs: list[Seg] = [(str(owner + 1), style)]
    width = 1
    for sq in here:
        piece = f"{KIND_LETTERS[sq % 3]}{state.units[sq]}"
        segs.append((piece, style))
        width += len(piece)
        if state.imp[sq]:
            segs.append(("!", "bold yellow"))
            width += 1
    if h == HQ[1 - owner] and state.seize[owner]:
        piece = f" s{state.seize[owner]}"
        segs.append((piece, "bold magenta"))
        width += len(piece)
    if width > CELL:  # only in contrived scenarios: keep the grid aligned
        text = "".join(t for t, _ in segs)[:CELL]
        return [(text, style)]
    pad = CELL - width
    return [(" " * (pad // 2), "")] + segs + [(" " * (pad - pad // 2), "")]


def _tile_cell(state: HillsState, h: int) -> list[Seg]:
    q, r = HEXES[h]
    coords = f"{q},{r}"
    if h in HQ:
        return [(f"H{HQ.index(h) + 1}", PLAYER_STYLE[HQ.index(h)]),
                (f"{coords:>{CELL - 2}}", "dim")]
    if not state.rev[h]:
        return [("? ", DOWN_STYLE), (f"{coords:>{CELL - 2}}", "dim")]
    tile = state.tiles[h]
    star = "*" if state.star[h] == 1 else " "
    return [(TILE_LETTERS[tile], TILE_STYLE[tile] or ""), (star, "bold yellow"),
            (f"{coords:>{CELL - 2}}", "dim")]


def _cell_style(state: HillsState, h: int) -> str:
    if h in HQ:
        return PLAYER_STYLE[HQ.index(h)]
    if not state.rev[h]:
        return DOWN_STYLE
    return "bold white" if state.tiles[h] == MOUNTAIN else TILE_STYLE[state.tiles[h]]


def _map(state: HillsState) -> Iterator[Seg]:
    half = (CELL + 2) // 2
    for r in range(-RADIUS, RADIUS + 1):
        row = [h for h, (q, rr) in enumerate(HEXES) if rr == r]
        indent = " " * (abs(r) * half)
        for line in (0, 1):
            yield (f"r={r:+d} " if line == 0 else "     ", "dim")
            yield (indent, "")
            for h in row:
                style = _cell_style(state, h)
                yield ("[", style)
                yield from (_tile_cell(state, h) if line == 0 else _squad_cell(state, h))
                yield ("]", style)
            yield ("\n", "")


COMPACT_LEGEND = ("P plains, M mountain (no Mechs), F forest, ? face down, * star, "
                  "! impeded\n")


def _squad_line(state: HillsState, p: int, compact: bool = False) -> Iterator[Seg]:
    """A player's three squads on one line; `compact` (80x24) in shorter words."""
    from boardct.games.hills.state import FRESH, STATUS_WORDS

    parts = []
    for sq in range(p * 3, p * 3 + 3):
        letter = KIND_LETTERS[sq % 3]
        if not state.units[sq]:
            parts.append(f"{letter} destroyed")
            continue
        text = f"{letter}{state.units[sq]} {coord_text(state.pos[sq])}"
        if state.imp[sq]:
            text += "!" if compact else " impeded"
        if p == state.cur and state.out is None:
            word = STATUS_WORDS[state.st[sq]]
            if state.imp[sq] and state.st[sq] == FRESH:
                word = "deimpede" if compact else "to deimpede"
            text += f" {word}" if compact else f" [{word}]"
        parts.append(text)
    yield (f"P{p + 1}: " if compact else f"Player {p + 1}: ", PLAYER_STYLE[p])
    yield (" | ".join(parts) + "\n", "")


def _cards(cards: list[int], names: tuple[str, ...] = CARD_NAMES) -> str:
    """'Artillery Strike x2, Boost': a hand or a pile, counted (the compact board)."""
    parts = []
    for c in range(len(names)):
        n = cards.count(c)
        if n:
            parts.append(names[c] + (f" x{n}" if n > 1 else ""))
    return ", ".join(parts)


def _title(state: HillsState, player: int | None) -> Iterator[Seg]:
    me = state.cur
    who = "spectator" if player is None else f"you are Player {player + 1}"
    yield ("Battle for The Shifting Hills", "bold")
    if state.out is not None:
        yield (f"  game over: {state.out.describe()}", "bold magenta")
    else:
        limit = state.info.turn_limit
        of = f" of {limit}" if limit else ""
        yield (f"  Player {me + 1}'s turn {state.tdone[me] + 1}{of}", PLAYER_STYLE[me])
    yield (f"  ({who})\n", "dim")


def segments(state: HillsState, player: int | None) -> Iterator[Seg]:
    yield from _title(state, player)
    yield from _map(state)
    yield (LEGEND, "dim")
    for p in (0, 1):
        yield from _squad_line(state, p)
    for p in (0, 1):
        if state.seize[p]:
            yield (f"Seize: Player {p + 1}'s Infantry holds the enemy HQ, counter "
                   f"{state.seize[p]} of 3\n", "bold magenta")
    sizes = [sum(state.hand[0:4]), sum(state.hand[4:8])]
    for p in (0, 1):
        yield (f"Player {p + 1} hand: ", PLAYER_STYLE[p])
        if p == player:
            cards = [CARD_NAMES[c] for c in range(4) for _ in range(state.hand[p * 4 + c])]
            yield ((", ".join(cards) if cards else "empty") + "\n", "")
        else:
            yield (f"{sizes[p]} card{'s' if sizes[p] != 1 else ''}\n", "")
    played = ", ".join(CARD_NAMES[c] for c in state.discard) or "none"
    yield (f"Deck: {len(state.deck)} cards.  Discard: {played}.\n", "")
    yield from _bonus_line(state)


def _bonus_line(state: HillsState) -> Iterator[Seg]:
    """Whether this turn's bonus card is played, and where a Boost went (while the game goes
    on): the last line of both boards."""
    if state.out is None:
        note = "already played" if state.card_played else "not yet played"
        yield (f"Bonus card this turn: {note}.", "dim")
        if state.boosted >= 0:
            yield (f"  Boost on the {KIND_NAMES[state.boosted % 3]}.", "dim")
        yield ("\n", "")


def compact_segments(state: HillsState, player: int | None) -> Iterator[Seg]:
    """The board for an 80x24 terminal: the same map and facts, with a one-line legend, short
    squad lines, counted hands and piles, and the Seize counters on one line (at most 23
    lines of at most 80 columns, so the prompt fits under it)."""
    yield from _title(state, player)
    yield from _map(state)
    yield (COMPACT_LEGEND, "dim")
    for p in (0, 1):
        yield from _squad_line(state, p, compact=True)
    seize = [f"Player {p + 1} at {state.seize[p]} of 3" for p in (0, 1) if state.seize[p]]
    if seize:
        yield ("Seize (Infantry on the enemy HQ): " + ", ".join(seize) + "\n", "bold magenta")
    for p in (0, 1):
        yield (f"Player {p + 1} hand: ", PLAYER_STYLE[p])
        if p == player:
            cards = [c for c in range(4) for _ in range(state.hand[p * 4 + c])]
            yield ((_cards(cards) or "empty") + "\n", "")
        else:
            size = sum(state.hand[p * 4:p * 4 + 4])
            yield (f"{size} card{'s' if size != 1 else ''}\n", "")
    pile = _cards(state.discard, CARD_WORDS) or "none"
    yield (f"Deck: {len(state.deck)} cards.  Discard: {pile}.\n", "")
    yield from _bonus_line(state)
