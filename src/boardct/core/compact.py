"""Helpers for the compact boards of small terminals (`State.render_compact`).

A compact board is built from the game's ordinary pieces rearranged: blocks set side by side,
side notes wrapped into a column. Everything stays Rich `Text`, so colours survive and the
plain board is `.plain`.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text


def text_lines(board: Text) -> list[Text]:
    """The lines of `board`, blank ones kept, without a trailing empty line."""
    out = list(board.split("\n", allow_blank=True))
    while out and not out[-1].plain:
        out.pop()
    return out


def join_lines(lines: list[Text]) -> Text:
    from rich.text import Text

    return Text("\n").join(lines)


def wrapped(text: str, width: int, indent: str = "") -> list[str]:
    """`text` wrapped at word boundaries to `width` columns (words longer than a line are
    split, as nothing else can show them)."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def side_by_side(left: list[Text], right: list[Text], column: int) -> list[Text]:
    """`left` with `right` set beside it, starting at `column`; the longer list runs on
    alone. A left line longer than `column` - 1 keeps its length and pushes its neighbour
    right, so nothing is cut."""
    from rich.text import Text

    out = []
    for i in range(max(len(left), len(right))):
        line = left[i].copy() if i < len(left) else Text()
        if i < len(right) and right[i].plain:
            pad = max(1, column - line.cell_len)
            line.append(" " * pad)
            line.append_text(right[i])
        out.append(line)
    return out
