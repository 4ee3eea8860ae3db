"""The notices' transactional outbox: what the server tells a player away from the table
(docs/server.md, "Notifications").

A notice (your turn; a turn processed and your report ready; the game over; a deadline near;
an offer waiting; an invitation) is a row of `notices`, written in the SAME database
transaction as the change that causes it: a move's commit (`for_commit`, called by
`GameService.commit`), an offer (`for_offer`), a reminder (`enqueue_deadline_reminder`), an
invitation (`enqueue_invited`). So no change is committed without its notices, and no notice
exists for a change that was rolled back. The sender (server/notices.py) delivers them later.

Each row's `key` (idempotency key) is derived from its cause (game, version, seat, kind), so
the same cause can never make two rows; the e-mail's Message-ID and the webhook's text carry
it, so a receiver can tell a retry from a new notice.

Secrecy: a notice's words come only from the recipient's own view (`State.view(seat)`: its
`turn`, `to_move`, `result`, the players' names) and the events that seat may see
(`State.events_for`, through `live.seen_lines`); never from the state itself, another seat's
view, or the game's record. No game id appears here: every game is treated alike.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable, Sequence
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from boardct.core.game import Event, State
from boardct.server.live import Live, seen_lines, utcnow
from boardct.server.models import Base

# the kinds of notice, in the order the preferences list them
YOUR_TURN, REPORT, GAME_OVER, DEADLINE, OFFER, INVITED = (
    "your_turn", "report", "game_over", "deadline", "offer", "invited")
KINDS = (YOUR_TURN, REPORT, GAME_OVER, DEADLINE, OFFER, INVITED)
# a notice's life: pending (waiting, or held until quiet hours end / the throttle allows),
# sending (a sender holds its lease), then sent, failed (after the last attempt), skipped
# (nowhere to send it, or the recipient does not want that kind), coalesced (a newer notice
# of the same kind for the same game said it)
PENDING, SENDING, SENT, FAILED, SKIPPED, COALESCED = (
    "pending", "sending", "sent", "failed", "skipped", "coalesced")
MAX_LINES = 20  # event lines quoted in one notice


class NoticeRow(Base):
    """One notice to one recipient: a seat of a game (`game`, `seat`), reached through the
    seat's account (`account`) or, for a guest, the contact the guest gave for that seat."""

    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str | None] = mapped_column(ForeignKey("games.id"), nullable=True,
                                             index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True,
                                                index=True)
    kind: Mapped[str] = mapped_column(String(16))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    # an address given with the notice itself (an invitation to someone with no seat yet)
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    status: Mapped[str] = mapped_column(String(10), index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    lease_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                            nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # the channels ("email", "apprise") it already reached: a retry sends only the others
    delivered: Mapped[list[str]] = mapped_column(JSON, default=list)


class NoticePrefsRow(Base):
    """An account's notification preferences (no row: every kind, by e-mail when the account
    has an address, no quiet hours, the server's throttle)."""

    __tablename__ = "notice_prefs"

    account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    kinds: Mapped[list[str]] = mapped_column(JSON)
    email: Mapped[bool] = mapped_column(Boolean, default=True)
    apprise_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    quiet_from: Mapped[str | None] = mapped_column(String(5), nullable=True)  # "22:00"
    quiet_to: Mapped[str | None] = mapped_column(String(5), nullable=True)  # "07:30"
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")
    throttle_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeatContactRow(Base):
    """Where a guest's seat is told (a guest has no account): an e-mail address and/or a
    notification URL for that seat of that game only."""

    __tablename__ = "seat_contacts"

    game: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    apprise_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    kinds: Mapped[list[str]] = mapped_column(JSON)
    email_off: Mapped[bool] = mapped_column(Boolean, default=False)  # unsubscribed


class EmailOptoutRow(Base):
    """An e-mail address that asked for no more e-mail (the SHA-256 of it, case-folded)."""

    __tablename__ = "email_optouts"

    address_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


def address_hash(address: str) -> str:
    """How an unsubscribed address is kept: the SHA-256 of it, case-folded."""
    return hashlib.sha256(address.strip().casefold().encode()).hexdigest()


class ServerKeyRow(Base):
    """A secret of the server shared by its processes (the unsubscribe links' signing key)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def notice_key(*cause: Any) -> str:
    """The idempotency key of the notice `cause` makes (the same cause, the same key)."""
    return hashlib.sha256(":".join(map(str, cause)).encode()).hexdigest()[:40]


def _row(key: str, live: Live | None, seat: int | None, kind: str, subject: str, body: str,
         now: dt.datetime, address: str | None = None) -> dict[str, Any]:
    account = live.seats[seat].account if live is not None and seat is not None else None
    return {"key": key, "game": live.id if live is not None else None, "seat": seat,
            "account": account, "kind": kind, "subject": subject[:200], "body": body,
            "address": address, "status": PENDING, "attempts": 0, "next_at": now,
            "lease_until": None, "created": now, "sent_at": None, "error": None,
            "delivered": []}


def _table() -> Table:
    return cast(Table, NoticeRow.__table__)


class Outbox:
    """Builds the notices of each change for the seats that can be reached, and writes them
    with the change. `reachable` holds, per game in memory, the guest seats that gave a
    contact (server/notices.py keeps it); a seat of an account is always written (the sender
    decides from the account's preferences, read when it sends)."""

    def __init__(self, base_url: str = ""):
        self.base_url = base_url.rstrip("/")
        # bumped whenever this process writes notices: the sender is woken after a commit
        # only when there is something new to send (most moves write none)
        self.written = 0

    def link(self, live: Live) -> str:
        return f"{self.base_url}/play/{live.id}"

    @staticmethod
    def recipients(live: Live) -> list[int]:
        guests = live.extra.get("notice_contacts", ())
        return [s.seat for s in live.seats
                if s.kind == "human" and (s.account is not None or s.seat in guests)]

    # -- a move's commit -----------------------------------------------------------------------
    def for_commit(self, live: Live, mover: int | None, trial: State, events: list[Event],
                   version: int) -> Callable[[Connection], None] | None:
        """The notices a commit makes (called before its transaction; the returned function
        writes them inside it). None: nobody to tell (most games: no account, no contact)."""
        seats = self.recipients(live)
        if not seats:
            return None
        before = live.state
        now = utcnow()
        rows: list[dict[str, Any]] = []
        over = trial.is_over and not before.is_over
        turn_before, turn_after = before.turn_number(), trial.turn_number()
        was_to_move = set(before.current_players())
        to_move = set(trial.current_players())
        # a simultaneous game's new turn: every seat's orders were processed, and each seat
        # has a report (its own events) to read, the last one to hand in too
        simultaneous = live.game.simultaneous
        for seat in seats:
            if over:
                kind = GAME_OVER
            elif seat in to_move and (turn_after != turn_before or seat not in was_to_move):
                # a new turn (everyone's orders processed), or this seat's turn came
                kind = REPORT if simultaneous and turn_after != turn_before else YOUR_TURN
            else:
                continue
            if seat == mover and kind == YOUR_TURN:
                continue  # the mover plays on: it is at the table
            view = trial.view(seat)
            lines = seen_lines(trial, events, [seat])[seat]
            subject, body = self.words(live, seat, kind, view, lines)
            rows.append(_row(notice_key(live.id, version, seat, kind), live, seat, kind,
                             subject, body, now))
        if not rows:
            return None

        def write(conn: Connection) -> None:
            conn.execute(insert(_table()), rows)
            self.written += 1

        return write

    def words(self, live: Live, seat: int, kind: str, view: dict, lines: Sequence[str]
              ) -> tuple[str, str]:
        """Subject and text of a notice to `seat`, from its own view and events only."""
        title = live.game.title
        names = [p["name"] for p in view["players"]]
        me = names[seat] if seat < len(names) else f"Player {seat + 1}"
        turn = view["turn"]
        if kind == GAME_OVER:
            result = view["result"] or {}
            subject = f"{title}: the game is over"
            head = f"{me}, your game of {title} is over: {result.get('text', '')}".rstrip()
        elif kind == REPORT:
            subject = f"{title}: turn processed, your report is ready (turn {turn})"
            head = (f"{me}, the orders of the last turn of {title} were processed: your "
                    f"report is ready, and your orders for turn {turn} are due.")
        else:
            subject = f"{title}: your turn (turn {turn})"
            head = f"{me}, it is your turn in {title} (turn {turn})."
        body = head
        if lines:
            shown = lines[-MAX_LINES:]
            body += "\n\nWhat you saw:\n" + "\n".join(f"  - {line}" for line in shown)
        body += f"\n\nPlay: {self.link(live)}"
        return subject, body

    # -- offers, deadlines, invitations ----------------------------------------------------------
    def for_offer(self, session: Session, live: Live, offer: dict[str, Any]) -> None:
        """Write, in `session` (the offer's own transaction), an "offer waiting" notice to
        every reachable seat that must answer it."""
        by = offer["by"]
        names = [p["name"] for p in live.state.view(by)["players"]]
        who = names[by] if 0 <= by < len(names) else f"Player {by + 1}"
        what = "a draw" if offer["kind"] == "draw" else "to take back their last move"
        now = utcnow()
        rows = []
        for seat in self.recipients(live):
            if seat == by:
                continue
            subject = f"{live.game.title}: {who} offers {what}"
            body = (f"{who} offers {what} in your game of {live.game.title}. Accept or "
                    f"refuse it at the table.\n\nPlay: {self.link(live)}")
            rows.append(_row(notice_key(live.id, "offer", offer["id"], seat), live, seat,
                             OFFER, subject, body, now))
        if rows:
            session.execute(insert(_table()), rows)
            self.written += 1

    def deadline_reminder(self, session: Session, live: Live, seat: int, hours: float,
                          deadline: dt.datetime | None = None) -> bool:
        """Write a "deadline in N hours" notice to `seat` in `session` (the caller commits,
        with whatever else it changes). At most one per seat, deadline and `hours`; False
        when the seat cannot be reached or it was written already."""
        if seat not in self.recipients(live):
            return False
        deadline = deadline or live.deadline_at
        key = notice_key(live.id, "deadline", deadline.isoformat() if deadline else "",
                         seat, hours)
        if session.scalar(select(NoticeRow.id).where(NoticeRow.key == key)) is not None:
            return False
        if seat not in live.state.current_players():
            return False  # this seat has nothing to do before the deadline (or handed in)
        view = live.state.view(seat)
        me = view["players"][seat]["name"]
        when = f"{hours:g} hour{'s' if hours != 1 else ''}"
        subject = f"{live.game.title}: your deadline is in {when}"
        body = (f"{me}, your move in {live.game.title} (turn {view['turn']}) is due in "
                f"{when}" + (f", at {deadline:%Y-%m-%d %H:%M} UTC" if deadline else "")
                + f".\n\nPlay: {self.link(live)}")
        session.execute(insert(_table()), [_row(key, live, seat, DEADLINE, subject, body,
                                                utcnow())])
        self.written += 1
        return True

    def invited(self, session: Session, live: Live, seat: int, address: str, invite: str,
                by: str) -> str:
        """Write an invitation to `address` for `seat` (its invite code in the link: the
        recipient's to use) in `session`; the caller commits. Returns the notice's key."""
        from boardct.server.live import new_token

        key = notice_key(live.id, "invite", seat, new_token())
        subject = f"{by} invites you to play {live.game.title}"
        body = (f"{by} invites you to a game of {live.game.title}, seat {seat + 1}.\n\n"
                f"Take your seat: {self.link(live)}?invite={invite}")
        row = _row(key, live, seat, INVITED, subject, body, utcnow(), address=address)
        row["account"] = None  # the seat's holder is whoever takes the invitation
        session.execute(insert(_table()), [row])
        self.written += 1
        return key


OUTBOX = Outbox()


def forget_game(session: Session, game_id: str) -> None:
    """Delete a game's notices and its guests' contacts (for whoever deletes a game; the
    caller commits). Both refer to the game by a foreign key, so a purge that follows the
    foreign keys to `games` deletes them too."""
    session.execute(delete(NoticeRow).where(NoticeRow.game == game_id))
    session.execute(delete(SeatContactRow).where(SeatContactRow.game == game_id))


def enqueue_deadline_reminder(session: Session, live: Live, seat: int, hours: float,
                              deadline: dt.datetime | None = None) -> bool:
    """For the deadline keeper: write, in the caller's transaction (`session`, committed by
    the caller), the reminder that `seat`'s deadline is `hours` away. At most one per seat,
    deadline and `hours`. Returns whether it wrote one."""
    return OUTBOX.deadline_reminder(session, live, seat, hours, deadline)
