"""The marks the terminal puts on the CTF 2187 map for the computer's turn (`boardct.cli.ext`:
a game's `mark_board`, re-exported by `cli.py`).

Orders are sealed (CTF-41): the terminal never marks what a sheet named. Once the turn is
processed, the events the viewer's Bots saw (`CtfState.events_for`, CTF-15, CTF-38) say where
the other Bots moved; the engine's `CtfState.event_targets` names those Bots and the sectors
they ended in, and `mark_board` marks them on the map the viewer sees."""

from __future__ import annotations

import re

from rich.text import Text

_ROW = re.compile(r"^ {0,2}(\d{1,3}) ")  # a map row: its y, then 3-character cells
_BOT = re.compile(r"^ ?(\d{1,2})[^0-9 ]$")  # a Bot's cell: " 2<", "12k"
_LEFT = 4  # the columns before the first cell of a row ("  9 ")
_CELL = 3


def mark_board(board: Text, targets: tuple[str, ...]) -> Text:
    """`board` with the Bots and sectors of `targets` marked on the map: the cell in reverse
    video and `*` in its blank first column (`*2<`), so the mark shows without colours and no
    column moves. A cell with no blank (Bot 12) is named in a line under the board instead.
    Only cells the viewer's map shows are marked: a Bot out of sight is not drawn."""
    bots = {t[4:] for t in targets if t.startswith("bot:")}
    sectors = set()
    for t in targets:
        xs, _, ys = t.removeprefix("sector:").partition("-")
        if t.startswith("sector:") and xs.isdigit() and ys.isdigit():
            sectors.add((int(xs), int(ys)))
    if not bots and not sectors:
        return board
    rows = board.split("\n", allow_blank=True)
    named: list[str] = []
    hit = False
    for k, row in enumerate(rows):
        found = _ROW.match(row.plain)
        if not found or found.end() != _LEFT:
            continue
        y = int(found.group(1))
        plain = row.plain
        for start in range(_LEFT, len(plain) - _CELL + 1, _CELL):
            cell = plain[start:start + _CELL]
            x = (start - _LEFT) // _CELL + 1
            bot = _BOT.match(cell)
            if not ((bot and bot.group(1) in bots) or (x, y) in sectors):
                continue
            marked = row.copy()
            marked.stylize("reverse", start, start + _CELL)
            if cell[0] == " ":
                marked = marked[:start] + Text("*", style="bold") + marked[start + 1:]
            else:
                named.append(f"Bot {bot.group(1)} at {x}-{y}" if bot else f"{x}-{y}")
            rows[k] = row = marked
            hit = True
    if not hit:
        return board
    if named:
        rows.append(Text("Marked (the last turn): " + ", ".join(named), style="bold"))
    return Text("\n").join(rows)
