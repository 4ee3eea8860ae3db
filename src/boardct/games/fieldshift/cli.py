"""FieldShift's parts of the terminal: no commands of its own, the legend `help` shows, and the
mark the terminal puts on the board for the computer's last move (the sector its operator acted
on). Loaded through
`FieldShiftGame.frontends.cli` (see `boardct.cli.ext`)."""

from __future__ import annotations

from rich.text import Text

from boardct.cli.ext import click

COMMANDS: tuple[click.Command, ...] = ()  # no commands of its own

# How to read the board, shown by `help` at the terminal (boardct.cli.ext: a game's LEGEND).
LEGEND = """\
Reading the board (FieldShift, FS-23):
  +3 / -3         operator 3 of Player 1 (+) or Player 2 (-); operator n's class is n
                  mod 5: 0 Longwatch, 1 Blade, 2 Technician, 3 Medic, 4 Specialist (FS-2)
  +3v2            injured: vitality 2 of 5
  +3X2            bleeding out: dies when the timer, 2, reaches 0 (FS-12)
  +3W             on overwatch
  +3S / +3S2      an armed skill / a skill with 2 turns or charges left
  Ruins Sector 0  the sector's terrain (Ruins, Grass, Plain, Mount) and number; its
                  operators in the order they arrived
  Reserve: 5 7v3  operators not deployed (injured ones with their vitality)
  Facility Crates: 0-0-0  crates in the artillery, the medbay and the command center
  Player 1 (+0):  the prompt: the operator selected (LSTD)"""

MARK = " <"  # after the sector line, where the FS-23 screen has nothing


def mark_board(board: Text, targets: tuple[str, ...]) -> Text:
    """`board` with the sector of `targets` (`sector:N`, the page's names) marked: the line
    in reverse video and `<` after it (the mark shows without colours too). A board without
    that line (the compact one) is left as it is."""
    sectors = [t.partition(":")[2] for t in targets if t.startswith("sector:")]
    if not sectors or not sectors[0].isdigit():
        return board
    label = f" Sector {sectors[0]}:"
    rows = board.split("\n", allow_blank=True)
    for k, row in enumerate(rows):
        if label in row.plain and row.plain.index(label) < 12:  # "Mount Sector 4: +0"
            marked = row.copy()
            marked.stylize("reverse")
            marked.append(MARK, style="bold")
            rows[k] = marked
            break
    else:
        return board
    return Text("\n").join(rows)
