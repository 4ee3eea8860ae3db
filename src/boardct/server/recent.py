"""What just happened, for the pages: the board elements the last move (or the last turn's
moves) involved, so a page can mark them as lichess marks the last move.

The elements are the engine's own (the `data-key`s the game's renderer draws), never parsed
from notation: the action's `State.action_targets`, computed on the state the action was legal
in, and `State.event_targets` of the entry's events as each viewer saw them (`events_for`):
where a piece went, what it hit, the other Bots a seat's Bots saw move. They are kept per log
entry (`note`) in `Live.extra`, and each seat's state message gets `last_move`
(`last_move_extra`) built only from what that seat may know:

- the mover always knows their own action's elements;
- anyone else only when the move showed them everything it caused: the game has perfect
  information, or every event of the move passes the seat's `events_for` filter, and the turn
  is not a sealed simultaneous one (there, even which of your own elements moved is yours
  alone until the turn is resolved);
- every seat (and a spectator) gets the elements its own filtered events show: those passed
  the one secrecy filter, so the entry that processes a simultaneous turn shows each seat what
  its units saw, and a sealed order shows nobody else anything (CTF-41);
- an entry the seat may not know of at all (a sealed order, `Entry.known_to`) is skipped.
"""

from __future__ import annotations

from typing import Any

from boardct.core.errors import BoardctError
from boardct.core.game import Event, State
from boardct.core.moves import is_table_entry
from boardct.server.live import Entry, Live

KEY = "recent_marks"  # Live.extra key: version -> Mark
KEEP = 64  # marks kept per game (a turn never has more entries than this in any game)
RELOADED = 16  # entries whose marks are rebuilt when a game is loaded from the database
MAX_TARGETS = 16  # elements per move, a bound far above any game's (~3)


# The elements one log entry involved, kept as plain tuples of strings and numbers, which the
# garbage collector stops tracking at its first pass over them: a game keeps KEEP of these,
# and as objects (a dataclass, a frozenset, a dict each) they were three for every move of
# every game held that each of its full passes walked.
#   (seat, targets, viewers, seen): the action's elements (`targets`) with the viewers who
#   may see them, and those its events showed each viewer (`seen`: (viewer, elements) pairs;
#   a viewer None: a spectator)
Mark = tuple[int | None, tuple[str, ...], tuple[int | None, ...],
             tuple[tuple[int | None, tuple[str, ...]], ...]]


def shown_to(mark: Mark, seat: int | None) -> tuple[str, ...]:
    """The elements of `mark` that `seat` may see, the action's first."""
    _, targets, viewers, seen = mark
    own = targets if seat in viewers else ()
    for viewer, shown in seen:
        if viewer == seat:
            return own + tuple(t for t in shown if t not in own)
    return own


def _viewers(live: Live, after: State, seat: int | None, events: list[Event]
             ) -> tuple[int | None, ...]:
    """Who may see which elements the move of `seat` involved (module docstring)."""
    out: list[int | None] = [seat]
    if live.game.simultaneous and not after.is_over:
        return tuple(out)
    for p in live.players():
        if p == seat:
            continue
        if live.game.perfect_information:
            out.append(p)
            continue
        try:
            seen = after.events_for(events, p)
        except (BoardctError, NotImplementedError):
            continue
        if len(seen) == len(events):
            out.append(p)
    return tuple(out)


def _seen(live: Live, after: State, events: list[Event]
          ) -> tuple[tuple[int | None, tuple[str, ...]], ...]:
    """What `events` showed each viewer (`State.event_targets` of the viewer's own filtered
    events), bounded by MAX_TARGETS; a viewer shown nothing is left out."""
    out: list[tuple[int | None, tuple[str, ...]]] = []
    for p in live.players():
        try:
            found = after.event_targets(after.events_for(events, p), p)
            shown = tuple(dict.fromkeys(str(t) for t in found))[:MAX_TARGETS]
        except Exception:  # a game's hook failing never stops a committed move
            continue
        if shown:
            out.append((p, shown))
    return tuple(out)


def note(live: Live, entry: Entry, before: State, action: Any, events: list[Event]) -> None:
    """Keep the elements of `entry` for the pages: its action's (legal in `before`) and its
    events' as each viewer saw them (on `live.state`, the state after them). A table entry
    (resign, draw, undo: no action) and an entry naming no element keep nothing."""
    if action is None or entry.seat is None:
        return
    try:
        targets = tuple(str(t) for t in before.action_targets(action, entry.seat))[:MAX_TARGETS]
    except Exception:  # a game's hook failing never stops a committed move
        targets = ()
    seen = _seen(live, live.state, events)
    if not targets and not seen:
        return
    marks: dict[int, Mark] = live.extra.setdefault(KEY, {})
    marks[entry.version] = (entry.seat, targets,
                            _viewers(live, live.state, entry.seat, events), seen)
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
    (the last turn, a player's consecutive entries; in a simultaneous game no further back
    than the newest processed turn) that `seat` may see, with that player
    (None where the game does not say who acted) and the versions (as `seat` numbers them).
    Empty targets before any move or when nothing may be shown."""
    marks: dict[int, Mark] = live.extra.get(KEY, {})
    who: int | None = None
    targets: list[str] = []
    versions: list[int] = []
    first = True
    resolved = False  # a simultaneous turn's processing entry (known to all) was passed
    for e in reversed(live.entries):
        if not e.known_to(seat):
            continue
        if live.game.simultaneous and not e.private:
            if resolved:  # an earlier turn's: the last turn ends here
                break
            resolved = True
        if first:
            first = False
            who = e.seat
        elif e.seat != who:
            break
        if e.seat is None:
            break
        mark = marks.get(e.version)
        shown = shown_to(mark, seat) if mark is not None else ()
        if shown:
            targets.extend(t for t in shown if t not in targets)
            versions.append(e.numbers.get(seat, e.version))
        if len(versions) >= KEEP:
            break
    mover = who if (not live.game.simultaneous or who == seat or live.over) else None
    return {"last_move": {"seat": mover, "targets": targets, "versions": sorted(versions)}}
