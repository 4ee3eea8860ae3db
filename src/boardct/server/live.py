"""A game as the server holds it in memory (`Live`: setup, seats, state, version, log) and
the small pieces every server module shares: the service's error, tokens and timestamps, and
the per-seat lines of an entry (through the one secrecy filter `events_for`)."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass, field
from typing import Any

from boardct.core.game import Event, Game, Setup, State, outcome_json

STATUS_OPEN, STATUS_PLAYING, STATUS_OVER = "open", "playing", "over"


class ServiceError(Exception):
    """A request the service refuses; the front ends turn it into the JSON error
    `{"error": {"code", "message", "rule"}}` with `status`. Nothing was changed."""

    STATUS = {"bad_request": 400, "unauthorized": 401, "forbidden": 403, "not_found": 404,
              "conflict": 409, "game_over": 409, "rejected": 422, "too_large": 413}

    def __init__(self, code: str, message: str, rule: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)

    def to_json(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "rule": self.rule}}


LINE_BREAKS = frozenset("\n\r\t")


def unprintable(text: str, lines: bool = False) -> bool:
    """Whether `text` holds a character no stored or shown text of the server may: NUL and
    the other control characters, unpaired surrogates, format characters (str.isprintable's
    refusals, but the plain space). `lines`: line breaks and tabs are allowed (a move or an
    option value of several lines). SQLite would store them and PostgreSQL refuse them (NUL)
    with an error of its own: the server refuses them first, as a bad request."""
    if text.isprintable():
        return False
    return any(not ch.isprintable() and ch != " " and not (lines and ch in LINE_BREAKS)
               for ch in text)


def token_hash(token: str) -> str:
    """What the database keeps of a seat token or invite code: its SHA-256, never the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits


def new_game_id() -> str:
    return secrets.token_urlsafe(9)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def iso(when: dt.datetime | None) -> str | None:
    if when is None:
        return None
    if when.tzinfo is None:  # SQLite hands back naive datetimes: they were stored as UTC
        when = when.replace(tzinfo=dt.UTC)
    return when.isoformat(timespec="seconds")


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "agent"
    agent: str | None
    name: str
    claimed: bool
    token_hash: str | None = None
    invite_hash: str | None = None
    account: int | None = None  # the account the seat belongs to (None: a guest's token)
    open: bool = False  # offered to anyone in the lobby by the game's creator


@dataclass
class Entry:
    """One log entry as each seat may know it: `lines[p]` the described events seat p may see
    (None: a spectator), computed on the state right after the entry.

    `private`: only `seat` may know that the entry was made at all: an order sealed in a
    simultaneous turn, which shows nobody else anything (CTF 2187, CTF-41: who has handed in,
    and how many, is the moderator's alone). `numbers[p]`: the entry's number among the
    entries viewer p may know of, the version p is shown (`Live.add_entry`)."""

    version: int
    seat: int | None
    text: str
    move_id: str | None
    lines: dict[int | None, tuple[str, ...]]
    private: bool = False
    numbers: dict[int | None, int] = field(default_factory=dict)

    def known_to(self, seat: int | None) -> bool:
        """Whether `seat` (None: a spectator) may know of this entry."""
        return not self.private or seat == self.seat


@dataclass
class Live:
    """A game in memory: its setup, seats, live state, version and log."""

    id: str
    game: Game
    setup: Setup
    public: bool
    created: dt.datetime
    seats: list[Seat]
    state: State
    version: int = 0
    entries: list[Entry] = field(default_factory=list)
    result: dict | None = None
    rematch: str | None = None
    deadline_at: dt.datetime | None = None
    move_time: float | None = None
    on_timeout: str | None = None
    turn_deadline: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    notify_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    extra: dict[str, Any] = field(default_factory=dict)  # other modules' per-game data
    # (version, seat) -> the seat's legal actions as messages list them, for this version,
    # as JSON (bytes: messages.legal_bytes)
    legal_cache: dict[tuple[int, int], bytes] = field(default_factory=dict)
    # (version, board as JSON: messages.Encoded) of a game with perfect information, whose
    # board is every viewer's: built once a version for all seats' updates (messages.view_for)
    board_cache: tuple[int, Any] | None = None
    # Per viewer (a seat, None: a spectator), how many entries it may know of: the version it
    # is shown. Where an entry can be private (simultaneous games) a global count would tell
    # every seat how many sealed orders others handed in, so each viewer counts its own; in
    # every other game all count alike, equal to `version`.
    seen: dict[int | None, int] = field(default_factory=dict)
    public_version: int = 0  # the version of the newest entry every viewer may know of
    # the entries by their move id (`entry_by_move_id`: every move asks, whatever the log's
    # length)
    by_move_id: dict[str, Entry] = field(default_factory=dict)

    def add_entry(self, e: Entry) -> None:
        """Append a log entry (its state already in `state`): mark it private where it shows
        only its seat anything in a simultaneous turn, and number it for each viewer."""
        if self.game.simultaneous and e.seat is not None and not self.state.is_over:
            e.private = not any(lines for p, lines in e.lines.items() if p != e.seat)
        for p in self.players():
            if e.known_to(p):
                self.seen[p] = e.numbers[p] = self.seen.get(p, 0) + 1
        if not e.private:
            self.public_version = e.version
        self.entries.append(e)
        if e.move_id is not None:
            self.by_move_id[e.move_id] = e

    def seen_version(self, seat: int | None) -> int:
        """The version `seat` (None: a spectator) is shown: the entries it may know of."""
        return self.seen.get(seat, 0)

    def known_entries(self, seat: int | None, since: int = 0) -> list[Entry]:
        """The entries `seat` may know of, numbered above `since` for it, oldest first."""
        out = []
        for e in reversed(self.entries):
            if e.known_to(seat):
                if e.numbers[seat] <= since:
                    break
                out.append(e)
        out.reverse()
        return out

    @property
    def over(self) -> bool:
        return self.state.is_over

    @property
    def deadline(self) -> dt.datetime | None:
        """The deadline in force: none once the game is over, even in the moment between the
        move that ended it and the deadline keeper clearing `deadline_at` (server/deadlines.py),
        so no state message shows a clock running in an ended game."""
        return None if self.over else self.deadline_at

    @property
    def status(self) -> str:
        if self.over:
            return STATUS_OVER
        if any(s.kind == "human" and not s.claimed for s in self.seats):
            return STATUS_OPEN
        return STATUS_PLAYING

    def entry_by_move_id(self, move_id: str) -> Entry | None:
        return self.by_move_id.get(move_id)

    def players(self) -> list[int | None]:
        return [*range(len(self.seats)), None]


def result_json(state: State) -> dict | None:
    """The result as messages and the database keep it: the view's `result` (core)."""
    return outcome_json(state)


def seen_lines(state: State, events: list[Event], players: list[int | None]
               ) -> dict[int | None, tuple[str, ...]]:
    """Each player's described events, through the one secrecy filter `events_for`. An
    event the filter passes to several players as it is (the same object) is described once
    (kept with the event, so its id is not another's meanwhile): every event of a game
    without secrets reaches every player. Tuples: a game's log is kept for as long as the
    game is held, and a tuple of strings leaves the garbage collector's lists at its first
    collection, where a list would be walked by every full one."""
    out: dict[int | None, tuple[str, ...]] = {}
    said: dict[int, tuple[Event, str]] = {}
    for p in players:
        lines = []
        for e in state.events_for(events, p):
            if e:
                known = said.get(id(e))
                if known is None or known[0] is not e:
                    known = said[id(e)] = (e, state.describe(e))
                lines.append(known[1])
        out[p] = tuple(lines)
    return out


