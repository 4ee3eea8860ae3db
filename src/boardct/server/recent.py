"""What just happened, for the pages: the board elements the last move (or the last turn's
moves) involved, so a page can mark them as lichess marks the last move.

The elements are the engine's own (`State.action_targets`, the `data-key`s the game's renderer
draws), computed on the state the action was legal in, never parsed from notation. They are
kept per log entry (`note`) in `Live.extra`, and each seat's state message gets `last_move`
(`last_move_extra`) built only from what that seat may know:

- the mover always knows their own move;
- anyone else only when the move showed them everything it caused: the game has perfect
  information, or every event of the move passes the seat's `events_for` filter, and the turn
  is not a sealed simultaneous one (there, even which of your own elements moved is yours
  alone until the turn is resolved);
- an entry the seat may not know of at all (a sealed order, `Entry.known_to`) is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardct.core.errors import BoardctError
from boardct.core.game import Event, State
from boardct.core.moves import is_table_entry
from boardct.server.live import Entry, Live

KEY = "recent_marks"  # Live.extra key: version -> Mark
KEEP = 64  # marks kept per game (a turn never has more entries than this in any game)
RELOADED = 16  # entries whose marks are rebuilt when a game is loaded from the database
MAX_TARGETS = 16  # elements per move, a bound far above any game's (~3)


@dataclass(frozen=True)
class Mark:
    """The elements one log entry's action involved and the viewers who may see them."""

    seat: int | None
    targets: tuple[str, ...]
    viewers: frozenset[int | None]


def _viewers(live: Live, after: State, seat: int | None, events: list[Event]
             ) -> frozenset[int | None]:
    """Who may see which elements the move of `seat` involved (module docstring)."""
    out: set[int | None] = {seat}
    if live.game.simultaneous and not after.is_over:
        return frozenset(out)
    for p in live.players():
        if p == seat:
            continue
        if live.game.perfect_information:
            out.add(p)
            continue
        try:
            seen = after.events_for(events, p)
        except (BoardctError, NotImplementedError):
            continue
        if len(seen) == len(events):
            out.add(p)
    return frozenset(out)


def note(live: Live, entry: Entry, before: State, action: Any, events: list[Event]) -> None:
    """Keep the elements of `entry`'s action (legal in `before`) for the pages. A table entry
    (resign, draw, undo: no action) and an action naming no element keep nothing."""
    if action is None or entry.seat is None:
        return
    try:
        targets = tuple(str(t) for t in before.action_targets(action, entry.seat))[:MAX_TARGETS]
    except Exception:  # a game's hook failing never stops a committed move
        return
    if not targets:
        return
    marks: dict[int, Mark] = live.extra.setdefault(KEY, {})
    marks[entry.version] = Mark(entry.seat, targets,
                                _viewers(live, live.state, entry.seat, events))
    if len(marks) > KEEP:
        for v in sorted(marks)[:-KEEP]:
            del marks[v]


def note_entry(live: Live, entry: Entry, before: State, events: list[Event]) -> None:
    """`note` for an entry loaded from the database: its action is the entry's text parsed on
    the state it was played in (`State.parse`, the inverse of `entry_text`); a table entry or
    one the game parses only for its player leaves no mark."""
    if is_table_entry(entry.text):
        return
    try:
        action = before.parse(entry.text, entry.seat)
    except Exception:  # no mark is better than a failed load
        return
    note(live, entry, before, action, events)


def last_move_extra(live: Live, seat: int | None) -> dict[str, Any]:
    """`last_move` of `seat`'s state message: the elements of the newest entries by one player
    (the last turn, a player's consecutive entries) that `seat` may see, with that player
    (None where the game does not say who acted) and the versions (as `seat` numbers them).
    Empty targets before any move or when nothing may be shown."""
    marks: dict[int, Mark] = live.extra.get(KEY, {})
    who: int | None = None
    targets: list[str] = []
    versions: list[int] = []
    first = True
    for e in reversed(live.entries):
        if not e.known_to(seat):
            continue
        if first:
            first = False
            who = e.seat
        elif e.seat != who:
            break
        if e.seat is None:
            break
        mark = marks.get(e.version)
        if mark is not None and seat in mark.viewers:
            targets.extend(t for t in mark.targets if t not in targets)
            versions.append(e.numbers.get(seat, e.version))
        if len(versions) >= KEEP:
            break
    shown = who if (not live.game.simultaneous or who == seat or live.over) else None
    return {"last_move": {"seat": shown, "targets": targets, "versions": sorted(versions)}}
