"""FieldShift's parts of the terminal: no commands of its own, and the mark the terminal puts
on the board for the computer's last move (the sector its operator acted on). Loaded through
`FieldShiftGame.frontends.cli` (see `boardct.cli.ext`)."""

from __future__ import annotations

from rich.text import Text

from boardct.cli.ext import click

COMMANDS: tuple[click.Command, ...] = ()  # no commands of its own

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
