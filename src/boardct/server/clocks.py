"""Correspondence clocks: a game's moderator, reminders before a deadline, pauses, and what
happens to a seat that misses deadlines.

Set when a game is created (the lobby's fields, `POST /games`), one row of `game_clocks`:
- the moderator: the creator's seat and account, and a moderator token of its own (shown once,
  at creation) for a creator who plays no seat;
- `reminders`: hours before each deadline at which each seat that owes a move is reminded
  (default 24 and 1);
- `miss_limit` K and `miss_action` ("agent" or "loss"): a person who misses K deadlines in a
  row is replaced by an agent (`miss_agent`) or loses;
- whether the game is paused, and the seconds its clock had left then (a paused game takes no
  moves, its deadline is gone and comes back, as long as it had left, on resume).

Reminders are rows of `deadline_reminders` (game, seat, hours, the deadline they are for,
when they fall due), written in the same transaction as the deadline they belong to, so they
survive a restart; the deadline keeper marks each one sent (a guarded UPDATE: once, whatever
the number of processes) and calls `reminder_hook(session, live, seat, hours)` in that same
transaction, so the notice it writes (an outbox row) commits with the mark or not at all. The
default hook only logs; the server's notification outbox replaces it (`set_reminder_hook`).

How many deadlines in a row each seat missed is in `seat_misses`; a move the seat makes itself
sets it back to 0.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import (
    JSON,
    CursorResult,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    delete,
    exists,
    select,
    update,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from boardct.core.moves import MODERATOR_ENTRY
from boardct.server.agents import check_spec
from boardct.server.live import ServiceError, new_token, token_hash
from boardct.server.models import Base

log = logging.getLogger("boardct.server.clocks")

DEFAULT_REMINDERS = (24.0, 1.0)  # hours before a deadline
MAX_REMINDERS = 5
MAX_REMINDER_HOURS = 30 * 24.0
MISS_ACTIONS = ("agent", "loss")
MAX_MISS_LIMIT = 100
KEY = "clock"  # live.extra[KEY]: the game's `ClockSettings`
MISSES = "misses"  # live.extra[MISSES]: {seat: deadlines missed in a row}
SERVER_DEADLINE = "server:deadline:"  # move ids of the moves a deadline makes for a seat


class ClockRow(Base):
    """A game's moderator, reminder hours, missed-deadline rule and pause."""

    __tablename__ = "game_clocks"

    game: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    moderator_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    moderator_account: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"),
                                                          nullable=True)
    moderator_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    reminders: Mapped[list[float]] = mapped_column(JSON)
    miss_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    miss_action: Mapped[str | None] = mapped_column(String(16), nullable=True)
    miss_agent: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # seconds the clock had left when the game was paused (-1: it had no deadline then);
    # None: the game is not paused
    paused_left: Mapped[float | None] = mapped_column(Float, nullable=True)


class ReminderRow(Base):
    """A reminder to `seat` that the deadline `deadline_at` is `hours` away, due at `due_at`."""

    __tablename__ = "deadline_reminders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    hours: Mapped[float] = mapped_column(Float)
    deadline_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    due_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    sent_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class MissRow(Base):
    """How many deadlines in a row a seat let pass."""

    __tablename__ = "seat_misses"

    game: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    missed: Mapped[int] = mapped_column(Integer, default=0)


@dataclasses.dataclass
class ClockSettings:
    """A game's clock settings in memory (`live.extra[KEY]`)."""

    moderator_seat: int | None = None
    moderator_account: int | None = None
    moderator_hash: str | None = None
    reminders: tuple[float, ...] = DEFAULT_REMINDERS
    miss_limit: int | None = None
    miss_action: str | None = None
    miss_agent: str | None = None
    paused_left: float | None = None

    @property
    def paused(self) -> bool:
        return self.paused_left is not None


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(when: dt.datetime) -> dt.datetime:
    """SQLite gives naive datetimes back; they were stored as UTC."""
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when


def settings_of(live: Any) -> ClockSettings:
    """The game's settings (the defaults for a game created without any)."""
    got = live.extra.get(KEY)
    return got if isinstance(got, ClockSettings) else ClockSettings()


def is_paused(live: Any) -> bool:
    return settings_of(live).paused


# -- the lobby's fields --------------------------------------------------------------------------
def parse_settings(body: dict[str, Any]) -> ClockSettings:
    """The clock fields of a `POST /games` body, checked before anything is created:
    `reminders` (hours before a deadline, at most 5, each above 0 and at most 30 days; [] for
    none), `miss_limit` (K, 1-100, or null), `miss_action` ("agent" or "loss"), `miss_agent`
    (an agent spec, default "random")."""
    out = ClockSettings()
    reminders = body.get("reminders")
    if reminders is not None:
        if not isinstance(reminders, list) or len(reminders) > MAX_REMINDERS or not all(
                isinstance(h, (int, float)) and not isinstance(h, bool) and math.isfinite(h)
                and 0 < h <= MAX_REMINDER_HOURS for h in reminders):
            raise ServiceError("bad_request", f"reminders: a list of at most {MAX_REMINDERS} "
                                              "numbers of hours before the deadline (above 0, "
                                              "at most 720)")
        out.reminders = tuple(sorted({float(h) for h in reminders}, reverse=True))
    limit = body.get("miss_limit")
    if limit is not None:
        if not isinstance(limit, int) or isinstance(limit, bool) or not (
                1 <= limit <= MAX_MISS_LIMIT):
            raise ServiceError("bad_request", f"miss_limit: deadlines missed in a row, 1 to "
                                              f"{MAX_MISS_LIMIT}, or null")
        out.miss_limit = limit
    action = body.get("miss_action")
    if action is not None and action not in MISS_ACTIONS:
        raise ServiceError("bad_request", "miss_action: \"agent\" or \"loss\"")
    if out.miss_limit is not None:
        out.miss_action = action or "agent"
    agent = body.get("miss_agent")
    if agent is not None:
        if not isinstance(agent, str) or len(agent) > 200 or not agent.isprintable():
            raise ServiceError("bad_request", "miss_agent: an agent spec such as \"random\"")
        problem = check_spec(agent)
        if problem:
            raise ServiceError("bad_request", f"miss_agent: {problem}")
        out.miss_agent = agent
    return out


async def save_settings(service: Any, game_id: str, settings: ClockSettings,
                        moderator_seat: int | None, account: int | None) -> str:
    """Store a new game's settings with its moderator; returns the moderator token (shown
    once: only its hash is kept)."""
    token = new_token()
    settings.moderator_seat, settings.moderator_account = moderator_seat, account
    settings.moderator_hash = token_hash(token)

    def write(session: Session) -> None:
        session.add(ClockRow(game=game_id, moderator_seat=moderator_seat,
                             moderator_account=account, moderator_hash=settings.moderator_hash,
                             reminders=list(settings.reminders), miss_limit=settings.miss_limit,
                             miss_action=settings.miss_action, miss_agent=settings.miss_agent,
                             paused_left=None))
        session.commit()

    await service.db(write)
    live = service.cached(game_id)
    if live is not None:
        live.extra[KEY] = settings
    return token


async def load(service: Any, live: Any, seats: bool = False) -> None:
    """`service.on_load`: the settings and the missed deadlines of a game loaded again.
    `seats`: the seats' kinds and agents too (after a moderator's act: a seat an agent plays
    since, in another process)."""
    from boardct.server.models import GameRow, SeatRow

    def read(session: Session) -> tuple[ClockRow | None, list[MissRow], list[Any], Any]:
        row = session.get(ClockRow, live.id)
        misses = session.scalars(select(MissRow).where(MissRow.game == live.id)).all()
        kinds = session.execute(select(SeatRow.seat, SeatRow.kind, SeatRow.agent)
                                .where(SeatRow.game == live.id)).all() if seats else []
        when = session.scalar(select(GameRow.deadline_at).where(GameRow.id == live.id)) \
            if seats else None
        return row, list(misses), list(kinds), when

    row, misses, kinds, when = await service.db(read)
    for seat, kind, agent in kinds:
        if 0 <= seat < len(live.seats):
            live.seats[seat].kind, live.seats[seat].agent = kind, agent
    if seats:
        live.deadline_at = when
    if row is not None:
        live.extra[KEY] = ClockSettings(row.moderator_seat, row.moderator_account,
                                        row.moderator_hash, tuple(row.reminders or ()),
                                        row.miss_limit, row.miss_action, row.miss_agent,
                                        row.paused_left)
    live.extra[MISSES] = {m.seat: m.missed for m in misses}
    live.extra["miss_seen"] = live.version


def state_extra(live: Any, seat: int | None) -> dict[str, Any]:
    """What every seat's state message says of the clock: paused or not, the reminder hours,
    the missed-deadline rule, and whether this seat is the game's moderator."""
    s = settings_of(live)
    return {"paused": s.paused, "reminders": list(s.reminders), "miss_limit": s.miss_limit,
            "miss_action": s.miss_action,
            "moderator": seat is not None and seat == s.moderator_seat}


def check_move(live: Any, seat: int, by_server: bool) -> None:
    """`service.move_checks`: a paused game takes no move, a person's or the server's."""
    if is_paused(live):
        raise ServiceError("forbidden", "the game is paused by its moderator: no moves until "
                                        "it is resumed")


# -- reminders ---------------------------------------------------------------------------------
def schedule_reminders(session: Session, live: Any, when: dt.datetime | None,
                       seats: Sequence[int] | None = None) -> None:
    """In the transaction that sets the game's deadline to `when` (None: no deadline): the
    unsent reminders of the old deadline go, and each person's seat that owes a move (`seats`,
    default: those to move now) gets one for each reminder hour still ahead."""
    session.execute(delete(ReminderRow).where(ReminderRow.game == live.id,
                                              ReminderRow.sent_at.is_(None)))
    if when is None or live.over:
        return
    when = aware(when)
    now = utcnow()
    owing = live.state.current_players() if seats is None else seats
    for seat in owing:
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            continue
        for hours in settings_of(live).reminders:
            due = when - dt.timedelta(hours=hours)
            if due > now:
                session.add(ReminderRow(game=live.id, seat=seat, hours=hours,
                                        deadline_at=when, due_at=due))


def log_reminder(session: Session, live: Any, seat: int, hours: float) -> None:
    """The default reminder hook: a line in the server's log."""
    log.info("reminder: game %s, seat %s: the deadline is %s h away", live.id, seat, hours)


reminder_hook: Callable[[Session, Any, int, float], Any] = log_reminder


def set_reminder_hook(hook: Callable[[Session, Any, int, float], Any]) -> None:
    """Deliver reminders with `hook(session, live, seat, hours)` (the game as loaded), called
    in the transaction that marks the reminder sent (the notification outbox writes its
    notice there)."""
    global reminder_hook
    reminder_hook = hook


async def fire_reminders(service: Any, now: dt.datetime | None = None) -> int:
    """Send the reminders that fell due (each once, however many processes look) to the
    seats that still owe a move (a seat that handed in its orders of a simultaneous turn since
    is not reminded: its reminder goes). Returns how many this call sent."""
    now = now or utcnow()

    def read(session: Session) -> list[Any]:
        return list(session.execute(
            select(ReminderRow.id, ReminderRow.game, ReminderRow.seat, ReminderRow.hours)
            .where(ReminderRow.sent_at.is_(None), ReminderRow.due_at <= now)
            .order_by(ReminderRow.due_at).limit(200)).all())

    rows = await service.db(read)
    if not rows:
        return 0
    due: list[Any] = []
    gone: list[int] = []
    lives: dict[str, Any] = {}
    for row in rows:
        try:
            live = lives[row.game] = await service.get(row.game)
        except ServiceError:
            gone.append(row.id)
            continue
        owes = not live.over and row.seat in live.state.current_players()
        if owes:
            due.append(row)
        else:
            gone.append(row.id)

    def send(session: Session) -> int:
        if gone:
            session.execute(delete(ReminderRow).where(ReminderRow.id.in_(gone),
                                                      ReminderRow.sent_at.is_(None)))
            session.commit()
        sent = 0
        for rid, game, seat, hours in due:
            done = cast("CursorResult[Any]", session.execute(
                update(ReminderRow).where(ReminderRow.id == rid, ReminderRow.sent_at.is_(None))
                .values(sent_at=now)))
            if done.rowcount != 1:  # another process sent it
                session.rollback()
                continue
            reminder_hook(session, lives[game], seat, hours)
            session.commit()
            sent += 1
        return sent

    return int(await service.db(send))


# -- missed deadlines ----------------------------------------------------------------------------
def misses_of(live: Any) -> dict[int, int]:
    got = live.extra.get(MISSES)
    if not isinstance(got, dict):
        got = live.extra[MISSES] = {}
    return got


def lose_on_this_miss(live: Any, owing: Sequence[int]) -> list[int]:
    """The seats owing a move at a deadline for which it is the `miss_limit`-th miss in a row
    where the game's rule is a loss: they lose now, while it is still their turn (a game may
    take a concession only then), instead of having their move played for them."""
    s = settings_of(live)
    if s.miss_limit is None or s.miss_action != "loss":
        return []
    misses = misses_of(live)
    return [p for p in owing if live.seats[p].kind == "human"
            and misses.get(p, 0) + 1 >= s.miss_limit]


async def count_missed(service: Any, live: Any, seats: Sequence[int]) -> list[int]:
    """The deadline passed with `seats` owing a move: one more miss in a row for each person's
    seat. Returns the seats that reached the game's `miss_limit`."""
    misses = misses_of(live)
    people = [s for s in seats if live.seats[s].kind == "human"]
    for s in people:
        misses[s] = misses.get(s, 0) + 1
    counts = {s: misses[s] for s in people}

    def write(session: Session) -> None:
        for s, n in counts.items():
            row = session.get(MissRow, (live.id, s))
            if row is None:
                session.add(MissRow(game=live.id, seat=s, missed=n))
            else:
                row.missed = n
        session.commit()

    if counts:
        await service.db(write)
    limit = settings_of(live).miss_limit
    return [s for s, n in counts.items() if limit is not None and n >= limit]


async def reset_missed(service: Any, live: Any, seats: Sequence[int]) -> None:
    """`seats` moved themselves (or are no longer the missing person's): 0 missed in a row."""
    misses = misses_of(live)
    back = [s for s in seats if misses.get(s)]
    if not back:
        return
    for s in back:
        misses[s] = 0

    def write(session: Session) -> None:
        session.execute(update(MissRow).where(MissRow.game == live.id, MissRow.seat.in_(back))
                        .values(missed=0))
        session.commit()

    await service.db(write)


async def on_change(service: Any, game_id: str, version: int) -> None:
    """Before every push (`service.before_push`): a moderator's act (this process's or
    another's) reloads the settings, the pause, the seats and the deadline, so the pushed
    state and the next move's check have them; a seat's own move (not one a deadline made for
    it, not an agent's) ends its run of missed deadlines."""
    live = service.cached(game_id)
    if live is None:
        return
    seen = live.extra.get("miss_seen", 0)
    live.extra["miss_seen"] = live.version
    new = live.entries[seen:]
    if any(MODERATOR_ENTRY.match(e.text) for e in new):
        # a moderator's act, maybe another process's: its settings, pause and seats anew
        await load(service, live, seats=True)
    moved = {e.seat for e in new if e.seat is not None
             and not (e.move_id or "").startswith(("server:", "agent:"))}
    if moved and any(misses_of(live).get(s) for s in moved):
        await reset_missed(service, live, sorted(moved))


# -- pause ---------------------------------------------------------------------------------------
async def set_paused(service: Any, live: Any, paused: bool) -> dt.datetime | None:
    """Pause (the deadline's time left kept, the deadline and its reminders gone) or resume (a
    deadline as far ahead as was left, its reminders scheduled). Returns the deadline now."""
    from boardct.server.models import GameRow

    s = settings_of(live)
    now = utcnow()
    if paused:
        left = (aware(live.deadline_at) - now).total_seconds() if live.deadline_at else -1.0
        s.paused_left, when = max(left, 0.0) if live.deadline_at else -1.0, None
    else:
        left = s.paused_left if s.paused_left is not None else -1.0
        s.paused_left = None
        when = now + dt.timedelta(seconds=left) if left >= 0 else None
    live.extra[KEY] = s
    live.deadline_at = when
    live.extra["deadline_for"] = (live.version, frozenset(live.state.current_players()))

    def write(session: Session) -> None:
        session.execute(update(ClockRow).where(ClockRow.game == live.id)
                        .values(paused_left=s.paused_left))
        session.execute(update(GameRow).where(GameRow.id == live.id).values(deadline_at=when))
        schedule_reminders(session, live, when)
        session.commit()

    await service.db(write)
    return when


def paused(game_id: Any) -> Any:
    """Whether the game `game_id` (a column) is paused, as SQL: a look-up of its row by key
    for each candidate (the deadline keeper leaves paused games alone)."""
    return exists().where(ClockRow.game == game_id, ClockRow.paused_left.is_not(None))
