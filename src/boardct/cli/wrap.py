"""Lines cut to the terminal's width between words, never inside one.

A terminal that is sent a line wider than itself breaks it at its last column, in the middle
of a word. Everything the terminal front end prints as prose (messages, event lines, help,
listings, hints) goes through `wrap_line` first when it is written to a terminal; written to a
pipe or a file each line stays whole, for scripts and `grep`.

A continuation line is indented under the text it continues: a help line such as
`  moves [GROUP]    the legal moves...` continues under "the legal moves", a plain sentence
under its own first word. Widths are counted in terminal cells (a CJK
character takes two), and only a word wider than the whole line is cut.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterable

from rich.cells import cell_len, chop_cells

_WORD = re.compile(r"\S+\s*")
_COLUMN = re.compile(r"\S {2,}(?=\S)")  # text, two or more spaces, text: a description column


def column_of(line: str) -> int | None:
    """Where the description column of a line such as `  moves [GROUP]    the legal moves`
    starts: after its widest run of two or more spaces (None: the line has none)."""
    lead = len(line) - len(line.lstrip(" "))
    gaps = list(_COLUMN.finditer(line, lead))
    if not gaps:
        return None
    widest = max(gaps, key=lambda m: m.end() - m.start())
    return widest.end()


def hang_of(line: str, width: int) -> int:
    """How far a continuation of `line` is indented: under its description column when it has
    one within the first half of the width, else the line's own indent."""
    lead = len(line) - len(line.lstrip(" "))
    column = column_of(line)
    if column is not None and column <= width // 2:
        return column
    return min(lead, width // 2)


def wrap_line(line: str, width: int | None) -> list[str]:
    """`line` as lines of at most `width` cells, broken between words (None or a width under
    20: the line as it is)."""
    if width is None or width < 20 or cell_len(line) <= width:
        return [line]
    lead = len(line) - len(line.lstrip(" "))
    hang = " " * hang_of(line, width)
    out: list[str] = []
    current = line[:lead]
    for word in _WORD.findall(line, lead):
        if current.strip() and cell_len(current + word.rstrip()) > width:
            out.append(current.rstrip())
            current = hang
        current += word
    out.append(current.rstrip())
    pieces: list[str] = []
    for text in out:  # a single word wider than the line: cut, as nothing else can be done
        pieces += chop_cells(text, width) if cell_len(text) > width else [text]
    return pieces


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _continues(head: str, line: str) -> bool:
    """Whether `line` is the next line of the paragraph `head` begins in a pre-formatted block:
    indented under the head's description column (or, for a head without one, two more than
    the head), and no item of its own."""
    if not line.strip() or not head.strip() or column_of(line) is not None:
        return False
    column = column_of(head)
    if column is not None:
        return _indent(line) == column
    return _indent(line) == _indent(head) + 2 and not head.rstrip().endswith(":")


def reflow(lines: Iterable[str], width: int | None) -> list[str]:
    """A pre-formatted block (help, a legend) wrapped to `width`: the lines that continue an
    item (`_continues`) are joined to it first, so that a block laid out for a wider terminal
    is not cut into ragged pieces. Items that fit are left as they are."""
    if width is None or width < 20:
        return list(lines)
    paragraphs: list[list[str]] = []
    for line in lines:
        if paragraphs and _continues(paragraphs[-1][0], line):
            paragraphs[-1].append(line)
        else:
            paragraphs.append([line])
    out: list[str] = []
    for para in paragraphs:
        if all(cell_len(ln) <= width for ln in para):
            out += para
            continue
        joined = " ".join([para[0].rstrip()] + [ln.strip() for ln in para[1:]])
        out += wrap_line(joined, width)
    return out


def wrap_lines(lines: Iterable[str], width: int | None) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += wrap_line(line, width)
    return out


def terminal_width() -> int | None:
    """The width of the terminal standard output is written to; None when it is not a
    terminal (a pipe, a file: nothing is wrapped)."""
    try:
        if sys.stdout is None or not sys.stdout.isatty():
            return None
    except (ValueError, OSError):
        return None
    return shutil.get_terminal_size((80, 24)).columns


def echo(lines: Iterable[str], err: bool = False, pipe_width: int | None = None) -> None:
    """click.echo of `lines`, each wrapped to the terminal's width on a terminal, and to
    `pipe_width` elsewhere (None: whole, for scripts that read them)."""
    import click

    width = (terminal_width() or pipe_width) if not err else None
    for line in wrap_lines(lines, width):
        click.echo(line, err=err)
