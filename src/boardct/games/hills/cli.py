"""Battle for The Shifting Hills' parts of the terminal: no commands of its own, and the mark
the terminal puts on the board for the computer's turn (the squads it acted with, the hexes
they went to or attacked). Loaded through `HillsGame.frontends.cli` (see `boardct.cli.ext`).

Hills has hidden information (face-down tiles, the hands), so the terminal marks what the
turn's public events name (the engine's `HillsState.event_targets`), never its commands' own
targets."""

from __future__ import annotations

import re

from rich.text import Text

from boardct.cli.ext import click, mark_span

COMMANDS: tuple[click.Command, ...] = ()  # no commands of its own

_CELL = re.compile(r"\[([^\[\]\n]{8})\]")  # a hex's line on the map: [F    1,0]
_SQUADS = re.compile(r"^(?:Player |P)([12]): ")  # a player's squads line: Player 2: I6 (1,0)


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
