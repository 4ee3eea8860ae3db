"""The board on a terminal: plain text (render) and Rich colours (render_rich), both built from
one list of (text, style) segments so they always show the same thing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardct.games.fff.pieces import (
    COLOURS,
    FACING,
    FACINGS,
    FIELDS,
    GHOST,
    OWNER,
    OWNER_LETTERS,
    OWNER_NAMES,
    SIZE,
)

if TYPE_CHECKING:  # pragma: no cover
    from rich.text import Text

    from boardct.games.fff.state import FFFState

CELL = 8
FIELD_STYLES = {"r": "bold red", "g": "bold green", "b": "bold blue", "y": "bold yellow",
                "p": "bold magenta", "o": "bold dark_orange", "c": "bold bright_cyan"}
OWNER_STYLES = ("bold reverse", "bold")
LEGEND = ("B/W owner, 1-3 size, facing N NE E SE S SW W NW U, :fields inner to outer, "
          "~ out of phase")
FIELD_LEGEND = "fields: r red  g green  b blue  y yellow  p purple  o orange  c clear"
# The compact board (80 columns) says the same in two lines.
COMPACT_LEGEND = ("B/W owner, 1-3 size, facing N NE E SE S SW W NW U,\n"
                  ":fields inner to outer, ~ out of phase\n")

Segments = list[tuple[str, str]]


def _piece(code: int, out: Segments) -> int:
    """Append a piece's segments; return the number of characters."""
    n = 0
    style = OWNER_STYLES[OWNER[code]]
    if GHOST[code]:
        out.append(("~", "dim"))
        n += 1
        style += " dim"
    head = f"{OWNER_LETTERS[OWNER[code]]}{SIZE[code]}{FACINGS[FACING[code]]}"
    out.append((head, style))
    n += len(head)
    if FIELDS[code]:
        out.append((":", "dim"))
        n += 1
        for f in FIELDS[code]:
            out.append((COLOURS[f], FIELD_STYLES[COLOURS[f]]))
            n += 1
    return n


def segments(state: FFFState, compact: bool = False) -> Segments:
    out: Segments = []
    files = "    " + "".join(f"{f:<{CELL}}" for f in "abcdefgh")
    out.append((files.rstrip() + "\n", "dim"))
    for rank in range(7, -1, -1):
        out.append((f" {rank + 1}  ", "dim"))
        extra = False
        for f in range(8):
            sq = rank * 8 + f
            m, g = state.main[sq], state.ghost[sq]
            shown = m or g
            if m and g:
                extra = True
            if shown:
                n = _piece(shown, out)
            else:
                out.append((".", "dim"))
                n = 1
            out.append((" " * (CELL - n), ""))
        out.append((f"{rank + 1}\n", "dim"))
        if extra:
            out.append(("    ", ""))
            for f in range(8):
                sq = rank * 8 + f
                if state.main[sq] and state.ghost[sq]:
                    n = _piece(state.ghost[sq], out)
                else:
                    n = 0
                out.append((" " * (CELL - n), ""))
            out.append(("\n", ""))
    out.append((files.rstrip() + "\n", "dim"))
    out.append((COMPACT_LEGEND if compact else LEGEND + "\n", "dim"))
    out.append((FIELD_LEGEND + "\n", "dim"))
    out.append(("Pool (2-pip/3-pip):", ""))
    for c, letter in enumerate(COLOURS):
        out.append(("  ", ""))
        out.append((letter, FIELD_STYLES[letter]))
        out.append((f" {state.pool[2 * c]}/{state.pool[2 * c + 1]}", ""))
    out.append(("\n", ""))
    for p in (0, 1):
        have = ", ".join(f"{s}-pip {state.cnt[p * 3 + s - 1]}" for s in (1, 2, 3))
        lost = "/".join(str(state.lost[p * 3 + s - 1]) for s in (1, 2, 3))
        out.append((f"{OWNER_NAMES[p]:<6}", OWNER_STYLES[p]))
        out.append((f" pieces: {have}   lost counts (1/2/3): {lost}\n", ""))
    limit = f" of {state.limit}" if state.limit else " (no limit)"
    out.append((f"Turns without a capture: {state.count}{limit}\n", ""))
    if state.result is not None:
        out.append((f"Game over: {state.result.describe()}\n", "bold"))
    else:
        out.append((f"{OWNER_NAMES[state.turn]} to move (Player {state.turn + 1})\n", "bold"))
    return out


def render_plain(state: FFFState) -> str:
    lines = "".join(t for t, _ in segments(state)).split("\n")
    return "\n".join(line.rstrip() for line in lines).rstrip("\n")


def render_rich(state: FFFState, compact: bool = False) -> Text:
    """The board with colours; `compact`: the legend in two lines, for 80 columns."""
    from rich.text import Text

    text = Text()
    for t, style in segments(state, compact):
        text.append(t, style=style or None)
    text.rstrip()
    return text
