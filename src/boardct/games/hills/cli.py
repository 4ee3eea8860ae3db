"""Battle for The Shifting Hills' parts of the terminal: no commands of its own, and the mark
the terminal puts on the board for the computer's turn (the squads it acted with, the hexes
they went to or attacked). Loaded through `HillsGame.frontends.cli` (see `boardct.cli.ext`).

Hills has hidden information (face-down tiles, the hands), so the terminal marks what the
turn's public events name (`event_targets`), never its commands' own targets."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.text import Text

from boardct.cli.ext import click, mark_span
from boardct.games.hills.board import HEXES, KIND_LETTERS

COMMANDS: tuple[click.Command, ...] = ()  # no commands of its own

_CELL = re.compile(r"\[([^\[\]\n]{8})\]")  # a hex's line on the map: [F    1,0]
_SQUADS = re.compile(r"^(?:Player |P)([12]): ")  # a player's squads line: Player 2: I6 (1,0)


def _squad_key(sq: int) -> str:
    return f"squad:{sq // 3}{KIND_LETTERS[sq % 3]}"


def _hex_key(h: int) -> str:
    q, r = HEXES[h]
    return f"hex:{q},{r}"


def event_targets(state: object, events: Sequence[tuple], viewer: int | None
                  ) -> tuple[str, ...]:
    """The squads and hexes a turn's public events name: a squad that moved and the hex it
    moved to, an attacker, the hex it attacked and the squad there (BSH-19), a squad that
    took damage (`squad:1I`, `hex:1,0`, the page's names)."""
    out: list[str] = []

    def add(key: str) -> None:
        if key not in out:
            out.append(key)

    for e in events:
        kind = e[0] if e else None
        try:
            if kind == "move":  # (move, squad, from hex, to hex)
                add(_squad_key(e[1]))
                add(_hex_key(e[3]))
            elif kind == "attack":  # (attack, squad, enemy squad, enemy's hex, hit)
                add(_squad_key(e[1]))
                add(_hex_key(e[3]))
                add(_squad_key(e[2]))
            elif kind == "move-in":  # (move-in, squad, from hex, into hex)
                add(_squad_key(e[1]))
                add(_hex_key(e[3]))
            elif kind in ("ammo", "damage"):  # (kind, squad, ...)
                add(_squad_key(e[1]))
        except (IndexError, TypeError):  # an event of another form names nothing here
            continue
    return tuple(out)


def mark_board(board: Text, targets: tuple[str, ...]) -> Text:
    """`board` with the hexes and squads of `targets` marked: a hex's two lines on the map
    in reverse video with `>` and `<` over its brackets, a squad's part of its player's
    squads line in reverse video between `>` and `<` (the mark shows without colours too and
    no column moves). What cannot be found (the compact board's map) is left as it is."""
    hexes = {t[4:] for t in targets if t.startswith("hex:")}
    squads = {t[6:] for t in targets if t.startswith("squad:") and len(t) == 8}
    rows = board.split("\n", allow_blank=True)
    hit = False
    for k, row in enumerate(rows):
        plain = row.plain
        for cell in _CELL.finditer(plain):
            words = cell.group(1).split()
            if words and words[-1] in hexes:  # the tile line; the squads line is under it
                rows[k] = mark_span(rows[k], cell.start() + 1, cell.end() - 1)
                if k + 1 < len(rows) and rows[k + 1].plain[cell.start():cell.start() + 1] == "[":
                    rows[k + 1] = mark_span(rows[k + 1], cell.start() + 1, cell.end() - 1)
                hit = True
        owner = _SQUADS.match(plain)
        if owner:
            player = int(owner.group(1)) - 1
            at = owner.end()
            for part in plain[at:].split(" | "):
                if f"{player}{part[:1]}" in squads and part.strip():
                    end = at + len(part.rstrip())
                    rows[k] = mark_span(rows[k], at, end)
                    hit = True
                at += len(part) + 3
    return Text("\n").join(rows) if hit else board
