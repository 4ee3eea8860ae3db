"""Force Field Factions' parts of the terminal: no commands of its own, and the legend `help`
shows (how to read a square of the board). Loaded through `FFFGame.frontends.cli`."""

from __future__ import annotations

from boardct.cli.ext import click

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
