"""Force Field Factions' parts of the terminal: no commands of its own, the legend `help`
shows (how to read a square of the board), and the mark the terminal puts on the board for the
computer's last move (the square of the piece it moved, where it went, what it hit: the
engine's `action_targets` and `event_targets`). Loaded through `FFFGame.frontends.cli`."""

from __future__ import annotations

import re

from rich.text import Text

from boardct.cli.ext import click, mark_span

COMMANDS: tuple[click.Command, ...] = ()  # no commands of its own

# How to read the board, shown by `help` at the terminal (boardct.cli.ext: a game's LEGEND).
LEGEND = """\
Reading the board (Force Field Factions):
  A square holds . (empty) or a piece: owner, size and facing, then its fields.
    B3N        Black's 3-pip piece facing N (W: White; facings N NE E SE S SW W NW, U up)
    W2E:gr     White's 2-pip piece facing E with a green field inside a red one (fields are
               listed inner to outer; the outermost is the one removed first)
    B1S:c~     a piece with a clear field, out of phase (~): it cannot move or attack,
               others may pass through it (FFF-14)
  fields: r red, g green, b blue, y yellow, p purple, o orange, c clear.
  Pool (2-pip/3-pip): r 3/3   the force fields of each colour left in the pool: 2-pip
               ones / 3-pip ones (FFF-3); the pool is public.
  lost counts (1/2/3)          each size's own pieces a player has lost (FFF-25, counted for
               purple). A player with no piece left of some size loses (FFF-15)."""


_FILE = re.compile(r"(?<![a-z])[a-h](?![a-z])")  # a file letter of the header line


def mark_board(board: Text, targets: tuple[str, ...]) -> Text:
    """`board` with the squares of `targets` (`sq:e2`, the page's names: the square of the
    piece the turn selected, FFF-30) marked: the square's text in reverse video between `>`
    and `<`, written over the blanks around it (the mark shows without colours too, and no
    column moves). The squares are found under the file letters of the board's header."""
    squares = [t.partition(":")[2] for t in targets if t.startswith("sq:")]
    rows = board.split("\n", allow_blank=True)
    files: dict[str, tuple[int, int]] = {}  # file letter -> its cell's columns
    for row in rows:
        letters = [(m.group(), m.start()) for m in _FILE.finditer(row.plain)]
        if len(letters) >= 2 and "".join(w for w, _ in letters) == row.plain.replace(" ", ""):
            width = letters[1][1] - letters[0][1]
            files = {w: (at, at + width) for w, at in letters}
            break
    hit = False
    for square in squares:
        cell = files.get(square[:1])
        rank = square[1:]
        if cell is None or not rank.isdigit():
            continue
        for k, row in enumerate(rows):
            plain = row.plain
            if plain.split()[:1] == [rank] and len(plain) > cell[0]:
                text = plain[cell[0]:cell[1]].rstrip()
                if text:
                    rows[k] = mark_span(row, cell[0], cell[0] + len(text))
                    hit = True
                break
    return Text("\n").join(rows) if hit else board
