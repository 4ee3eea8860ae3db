"""The notices' sender, preferences, contacts and unsubscribe links (docs/server.md,
"Notifications"); the outbox rows themselves are written by server/outbox.py.

The sender is a background task of every server process. It claims due notices with a lease
(`pending` -> `sending`, guarded by a compare-and-set, so two processes never take the same
one), delivers each to the recipient's channels, then marks it `sent`. A failure is retried
with exponential back-off (`backoff * 2**(attempt-1)` seconds) and marked `failed` after
`attempts` tries, with the last error, where its player sees it (`GET /api/v1/account/notices`,
`GET /api/v1/games/{id}/notices`, the account page). A process that dies while it holds a lease
leaves the notice `sending`: once the lease runs out, any process retries it. A channel
already reached is noted (`delivered`) as soon as it took the notice, so a retry sends only to
the others; the idempotency key in every delivery lets a receiver drop the one duplicate a
crash between delivering and noting can make.

Before sending, the recipient's preferences decide: the kinds it wants, its channels, quiet
hours in its time zone (the notice waits until they end), and the throttle of "your turn"
per game (at most one per `throttle` minutes; a newer one waiting replaces an older one:
coalesced). E-mail unsubscribes are by address (`email_optouts`): the signed link of every
e-mail (and its List-Unsubscribe header, RFC 8058 one-click) works without signing in.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import functools
import hashlib
import hmac
import html
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from boardct.server import clocks, senders
from boardct.server.api import caller, read_object
from boardct.server.live import ServiceError, utcnow
from boardct.server.models import AccountRow
from boardct.server.outbox import (
    COALESCED,
    FAILED,
    KINDS,
    OUTBOX,
    PENDING,
    SENDING,
    SENT,
    SKIPPED,
    YOUR_TURN,
    EmailOptoutRow,
    NoticePrefsRow,
    NoticeRow,
    SeatContactRow,
    ServerKeyRow,
    address_hash,
    enqueue_deadline_reminder,
)

log = logging.getLogger("boardct.server.notices")

# notices claimed at once: sent one after another, each within its channel's timeout
# (senders.SMTP_TIMEOUT), so a batch is done well within the lease
BATCH = 5
# seconds after which a game's guest contacts are read again (after its next commit): a
# contact given through another server process reaches this one's outbox so
CONTACTS_FRESH = 10.0
CONTACTS_BATCH = 500  # games whose contacts are read in one query
CLAIM_GAP = 0.05  # seconds the sender lets pass after a wake-up before it claims
MAX_ERROR = 500
EMAIL_RE = re.compile(r"^[^@\s<>,;\"]{1,64}@[^@\s<>,;\"]{1,190}\.[^@\s<>,;\".]{1,63}$")
HHMM = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


@dataclass
class NoticeSettings:
    """How the sender works (ServerConfig's notice_* fields)."""

    smtp_url: str | None = None
    public_url: str = ""
    poll: float = 2.0
    backoff: float = 30.0
    attempts: int = 6
    lease: float = 120.0
    throttle_minutes: int = 30
    send: bool = True
    private_urls: bool = False  # notification URLs may post inside the server's network


@dataclass
class Plan:
    """What to do with one claimed notice."""

    action: str  # send, skip, hold, coalesce
    reason: str = ""
    until: dt.datetime | None = None
    channels: tuple[tuple[str, str], ...] = ()
    unsubscribe: str | None = None


def _aware(when: dt.datetime | None) -> dt.datetime | None:
    if when is not None and when.tzinfo is None:  # SQLite gives naive UTC datetimes back
        return when.replace(tzinfo=dt.UTC)
    return when


def quiet_until(now: dt.datetime, start: str | None, end: str | None, zone: str
                ) -> dt.datetime | None:
    """When the quiet hours `start`-`end` ("HH:MM", local time in `zone`) around `now` end
    (None: `now` is not in quiet hours). A window may cross midnight (22:00-07:00)."""
    if not start or not end or start == end:
        return None
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = ZoneInfo("UTC")
    local = now.astimezone(tz)
    s, e = dt.time.fromisoformat(start), dt.time.fromisoformat(end)
    t = local.time()
    inside = (s <= t < e) if s < e else (t >= s or t < e)
    if not inside:
        return None
    stop = local.replace(hour=e.hour, minute=e.minute, second=0, microsecond=0)
    if stop <= local:
        stop = (local + dt.timedelta(days=1)).replace(hour=e.hour, minute=e.minute, second=0,
                                                       microsecond=0)
    return stop.astimezone(dt.UTC)


def _contacts_of(games: list[str], session: Session) -> dict[str, set[int]]:
    """The seats with a guest contact of each of `games`, in one query."""
    out: dict[str, set[int]] = {gid: set() for gid in games}
    for gid, seat in session.execute(select(SeatContactRow.game, SeatContactRow.seat)
                                     .where(SeatContactRow.game.in_(games))):
        out[gid].add(seat)
    return out


class Notices:
    """The sender task and the notices' data access of one server process."""

    def __init__(self, service: Any, settings: NoticeSettings):
        self.service = service
        self.settings = settings
        self.smtp = senders.SmtpSettings.parse(settings.smtp_url) if settings.smtp_url else None
        self._secret: bytes | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._stopping = False
        self._loading: set[asyncio.Task] = set()
        self._written = OUTBOX.written  # the outbox's count when the sender was last woken
        self._stale: dict[str, Any] = {}  # game id -> game whose contacts are to be read

    # -- wiring --------------------------------------------------------------------------------
    async def start(self) -> None:
        OUTBOX.base_url = self.settings.public_url.rstrip("/")
        self.service.outbox = OUTBOX
        # the deadline keeper's reminders (server/clocks.py) become "deadline in N hours"
        # notices, written in the transaction that marks each reminder sent
        clocks.set_reminder_hook(enqueue_deadline_reminder)
        self.service.on_load.append(self.load_contacts)
        self.service.listeners.append(self._poke)
        self._secret = (await self.service.db(self._read_secret)).encode()
        if self.settings.send:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        for task in list(self._loading):
            task.cancel()
        self._stopping = True
        if self._task is not None:
            # Python 3.11's wait_for may swallow a cancel that arrives as the event it waits
            # for is set (a commit's wake-up at shut-down): the flag ends the loop all the
            # same, and the cancel is repeated until the task is done
            while not self._task.done():
                self._task.cancel()
                self._wake.set()
                await asyncio.wait({self._task}, timeout=0.5)
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _poke(self, game_id: str, _version: int) -> None:
        """After a commit: wake the sender if notices were written since it was last woken
        (a commit without notices, most of them, costs the sender no database round; what
        another process wrote is found by the next poll); now and then read the game's guest
        contacts again (another server process may have taken one since this one loaded the
        game)."""
        if OUTBOX.written != self._written:
            self._written = OUTBOX.written
            self._wake.set()
        live = self.service.cached(game_id)
        if live is not None and time.monotonic() - live.extra.get(
                "notice_contacts_at", 0.0) > CONTACTS_FRESH:
            live.extra["notice_contacts_at"] = time.monotonic()
            # read with the other games due, in one query: a thousand games playing made a
            # hundred queries a second, each waiting in the database thread's queue before
            # the moves' commits behind it
            self._stale[live.id] = live
            if not self._loading:
                task = asyncio.get_running_loop().create_task(self._reload_stale())
                self._loading.add(task)
                task.add_done_callback(self._loading.discard)

    async def _reload_stale(self) -> None:
        """Read the guest contacts of the games `_poke` found stale, many in one query, until
        none is left."""
        while self._stale:
            games = list(self._stale.values())[:CONTACTS_BATCH]
            for live in games:
                del self._stale[live.id]
            changes = {live.id: live.extra.get("notice_contacts_changes", 0) for live in games}
            seats = await self.service.db(functools.partial(_contacts_of, list(changes)))
            for live in games:
                if live.extra.get("notice_contacts_changes", 0) == changes[live.id]:
                    live.extra["notice_contacts"] = seats[live.id]
                # else: this process changed a contact meanwhile: what it holds is newer

    async def load_contacts(self, live: Any) -> None:
        """Note which guest seats of `live` gave a contact (the outbox writes their notices)."""
        live.extra["notice_contacts_at"] = time.monotonic()
        changes = live.extra.get("notice_contacts_changes", 0)
        # a plain connection, not an ORM session: every game in play asks now and then
        seats = await self.service.db_conn(lambda c: list(c.execute(
            select(SeatContactRow.seat).where(SeatContactRow.game == live.id)).scalars()))
        if live.extra.get("notice_contacts_changes", 0) == changes:
            live.extra["notice_contacts"] = set(seats)
        # else: this process changed a contact meanwhile: what it holds is newer than the read

    @staticmethod
    def _read_secret(session: Session) -> str:
        row = session.get(ServerKeyRow, "unsubscribe")
        if row is not None:
            return row.value
        session.add(ServerKeyRow(name="unsubscribe", value=secrets.token_urlsafe(48)))
        try:
            session.commit()
        except IntegrityError:  # another process made it a moment ago
            session.rollback()
        row = session.get(ServerKeyRow, "unsubscribe")
        assert row is not None
        return row.value

    # -- the sender ----------------------------------------------------------------------------
    async def _run(self) -> None:
        while not self._stopping:
            try:
                done = await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # the sender never stops the server
                log.exception("sending notices")
                done = 0
            if done:
                continue
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.poll)
            # a notice written by a commit a moment ago: let the commit's listeners finish,
            # and the commits of the next moments write theirs, claimed together: each commit
            # wakes the sender, and a claim a commit (a query and a commit in the database
            # thread, ahead of the moves') was 5-8% of the server's time at 200 games
            await asyncio.sleep(CLAIM_GAP)

    async def send_due(self) -> int:
        """Claim the due notices (and those whose sender's lease ran out) and deliver them.
        Returns how many were claimed."""
        claimed = await self.service.db(self._claim)
        for row in claimed:
            try:
                await self._deliver(row)
            except Exception:  # the lease runs out and another round retries it
                log.exception("notice %s", row["id"])
        return len(claimed)

    def _claim(self, session: Session) -> list[dict[str, Any]]:
        now = utcnow()
        rows = session.scalars(
            select(NoticeRow).where(or_(
                (NoticeRow.status == PENDING) & (NoticeRow.next_at <= now),
                (NoticeRow.status == SENDING) & (NoticeRow.lease_until < now)))
            .order_by(NoticeRow.id).limit(BATCH)).all()
        out = []
        lease = now + dt.timedelta(seconds=self.settings.lease)
        for row in rows:
            # read before the UPDATE (which also changes the loaded object)
            seen = {"id": row.id, "key": row.key, "game": row.game, "seat": row.seat,
                    "account": row.account, "kind": row.kind, "subject": row.subject,
                    "body": row.body, "address": row.address, "attempts": row.attempts + 1,
                    "delivered": list(row.delivered or [])}
            done = session.execute(
                update(NoticeRow).where(NoticeRow.id == row.id, NoticeRow.status == row.status,
                                        NoticeRow.attempts == row.attempts)
                .values(status=SENDING, lease_until=lease, attempts=row.attempts + 1)
                .execution_options(synchronize_session=False))
            if getattr(done, "rowcount", 0) == 1:
                out.append(seen)
        session.commit()
        return out

    def _mark(self, row: dict[str, Any], **values: Any) -> Callable[[Session], None]:
        """Change a claimed notice (guarded: still ours, this attempt)."""

        def write(session: Session) -> None:
            session.execute(update(NoticeRow).where(NoticeRow.id == row["id"],
                                                    NoticeRow.status == SENDING,
                                                    NoticeRow.attempts == row["attempts"])
                            .values(**values))
            session.commit()

        return write

    async def _deliver(self, row: dict[str, Any]) -> None:
        plan: Plan = await self.service.db(lambda s: self._plan(s, row))
        now = utcnow()
        if plan.action == "skip":
            await self.service.db(self._mark(row, status=SKIPPED, lease_until=None,
                                             error=plan.reason[:MAX_ERROR]))
            return
        if plan.action == "coalesce":
            await self.service.db(self._mark(row, status=COALESCED, lease_until=None,
                                             error=plan.reason[:MAX_ERROR]))
            return
        if plan.action == "hold":  # not an attempt: it waits
            await self.service.db(self._mark(row, status=PENDING, lease_until=None,
                                             attempts=row["attempts"] - 1, next_at=plan.until,
                                             error=plan.reason[:MAX_ERROR]))
            return
        errors = []
        for name, target in plan.channels:
            if name in row["delivered"]:
                continue
            try:
                if name == "email":
                    assert self.smtp is not None
                    msg = senders.build_email(self.smtp, target, row["subject"], row["body"],
                                              row["key"], plan.unsubscribe)
                    await asyncio.to_thread(senders.send_email, self.smtp, msg)
                else:
                    await asyncio.to_thread(senders.send_apprise, target, row["subject"],
                                            row["body"], row["key"],
                                            self.settings.private_urls)
            except senders.DeliveryError as exc:
                errors.append(f"{name}: {exc}")
                continue
            row["delivered"].append(name)
            await self.service.db(self._mark(row, delivered=list(row["delivered"])))
        now = utcnow()
        if not errors:
            await self.service.db(self._mark(row, status=SENT, lease_until=None, sent_at=now,
                                             error=None))
        elif row["attempts"] >= self.settings.attempts:
            await self.service.db(self._mark(
                row, status=FAILED, lease_until=None,
                error=(f"gave up after {row['attempts']} attempts: " + "; ".join(errors)
                       )[:MAX_ERROR]))
        else:
            wait = self.settings.backoff * 2 ** (row["attempts"] - 1)
            await self.service.db(self._mark(
                row, status=PENDING, lease_until=None,
                next_at=now + dt.timedelta(seconds=wait),
                error=("; ".join(errors))[:MAX_ERROR]))

    def _plan(self, session: Session, row: dict[str, Any]) -> Plan:
        """Where the notice goes now, by the recipient's preferences (read as it is sent)."""
        now = utcnow()
        kind = row["kind"]
        email: str | None = None
        apprise_url: str | None = None
        quiet: tuple[str | None, str | None, str] = (None, None, "UTC")
        throttle = self.settings.throttle_minutes
        if row["address"]:
            email = row["address"]
        elif row["account"] is not None:
            prefs = session.get(NoticePrefsRow, row["account"])
            account = session.get(AccountRow, row["account"])
            if prefs is not None and kind not in (prefs.kinds or []):
                return Plan("skip", f"you turned off notices of kind {kind}")
            if account is not None and (prefs is None or prefs.email):
                email = account.email
            if prefs is not None:
                apprise_url = prefs.apprise_url
                quiet = (prefs.quiet_from, prefs.quiet_to, prefs.timezone or "UTC")
                if prefs.throttle_minutes is not None:
                    throttle = prefs.throttle_minutes
        else:
            contact = session.get(SeatContactRow, (row["game"], row["seat"]))
            if contact is None:
                return Plan("skip", "no address to send it to")
            if kind not in (contact.kinds or []):
                return Plan("skip", f"notices of kind {kind} are off for this seat")
            email = None if contact.email_off else contact.email
            apprise_url = contact.apprise_url
        if email and session.get(EmailOptoutRow, address_hash(email)) is not None:
            email = None  # the address unsubscribed
        channels: list[tuple[str, str]] = []
        if email and self.smtp is not None:
            channels.append(("email", email))
        if apprise_url:
            channels.append(("apprise", apprise_url))
        if not channels:
            why = ("no address to send it to" if email is None or self.smtp is not None
                   else "this server sends no e-mail (no --smtp)")
            return Plan("skip", why)
        until = quiet_until(now, *quiet)
        if until is not None:
            return Plan("hold", f"held until the quiet hours end ({quiet[0]}-{quiet[1]} "
                                f"{quiet[2]})", until)
        if kind == YOUR_TURN and row["game"] is not None and throttle > 0:
            newer = session.scalar(select(NoticeRow.id).where(
                NoticeRow.game == row["game"], NoticeRow.seat == row["seat"],
                NoticeRow.kind == YOUR_TURN, NoticeRow.id > row["id"],
                NoticeRow.status.in_((PENDING, SENDING, SENT))).limit(1))
            if newer is not None:
                return Plan("coalesce", "a later \"your turn\" of the same game says it")
            last = _aware(session.scalar(select(func.max(NoticeRow.sent_at)).where(
                NoticeRow.game == row["game"], NoticeRow.seat == row["seat"],
                NoticeRow.kind == YOUR_TURN, NoticeRow.status == SENT)))
            if last is not None:
                free = last + dt.timedelta(minutes=throttle)
                if free > now:
                    return Plan("hold", f"at most one \"your turn\" per game every "
                                        f"{throttle} minutes", free)
        unsubscribe = self.unsubscribe_url(email) if email else None
        return Plan("send", channels=tuple(channels), unsubscribe=unsubscribe)

    # -- unsubscribe ---------------------------------------------------------------------------
    def _sign(self, payload: bytes) -> str:
        assert self._secret is not None
        mac = hmac.new(self._secret, b"unsubscribe:" + payload, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac[:18]).decode().rstrip("=")

    def unsubscribe_token(self, address: str) -> str:
        payload = address.strip().casefold().encode()
        return (base64.urlsafe_b64encode(payload).decode().rstrip("=") + "."
                + self._sign(payload))

    def unsubscribe_url(self, address: str) -> str:
        return (f"{self.settings.public_url.rstrip('/')}/notices/unsubscribe?t="
                f"{self.unsubscribe_token(address)}")

    def address_of(self, token: str) -> str | None:
        """The address a valid unsubscribe token names (None: not one of ours)."""
        if not isinstance(token, str) or len(token) > 600 or token.count(".") != 1:
            return None
        data, sig = token.split(".")
        try:
            payload = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        except (ValueError, TypeError):
            return None
        if not hmac.compare_digest(self._sign(payload), sig):
            return None
        return payload.decode("utf-8", "replace")

    async def opt_out(self, address: str) -> None:
        def write(session: Session) -> None:
            if session.get(EmailOptoutRow, address_hash(address)) is None:
                session.add(EmailOptoutRow(address_hash=address_hash(address), at=utcnow()))
                try:
                    session.commit()
                except IntegrityError:
                    session.rollback()

        await self.service.db(write)


# -- JSON of the rows ----------------------------------------------------------------------------
def notice_json(row: NoticeRow) -> dict[str, Any]:
    return {"id": row.id, "key": row.key, "game_id": row.game, "seat": row.seat,
            "kind": row.kind, "subject": row.subject, "status": row.status,
            "attempts": row.attempts, "error": row.error,
            "created": _iso(row.created), "sent_at": _iso(row.sent_at),
            "next_at": _iso(row.next_at) if row.status == PENDING else None}


def _iso(when: dt.datetime | None) -> str | None:
    when = _aware(when)
    return when.isoformat().replace("+00:00", "Z") if when is not None else None


def prefs_json(prefs: NoticePrefsRow | None, settings: NoticeSettings) -> dict[str, Any]:
    if prefs is None:
        return {"kinds": list(KINDS), "email": True, "apprise_url": None, "quiet_from": None,
                "quiet_to": None, "timezone": "UTC",
                "throttle_minutes": settings.throttle_minutes}
    return {"kinds": list(prefs.kinds or []), "email": prefs.email,
            "apprise_url": prefs.apprise_url, "quiet_from": prefs.quiet_from,
            "quiet_to": prefs.quiet_to, "timezone": prefs.timezone,
            "throttle_minutes": (prefs.throttle_minutes if prefs.throttle_minutes is not None
                                 else settings.throttle_minutes)}


def _kinds(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(k, str) and k in KINDS
                                              for k in value):
        raise ServiceError("bad_request", f"kinds: a list of {', '.join(KINDS)}")
    return sorted(set(value), key=KINDS.index)


def _email(value: Any, name: str = "email") -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not EMAIL_RE.match(value.strip()):
        raise ServiceError("bad_request", f"{name}: an e-mail address such as ann@example.org")
    return value.strip()


def _apprise(value: Any, allow_private: bool) -> str | None:
    if value is None or value == "":
        return None
    problem = (senders.check_apprise_url(value, allow_private) if isinstance(value, str)
               else "text")
    if problem:
        raise ServiceError("bad_request", f"apprise_url: {problem}")
    return str(value)


def read_prefs(body: dict[str, Any], old: dict[str, Any], allow_private: bool = False
               ) -> dict[str, Any]:
    """The preferences a PUT body asks for (fields it leaves out keep `old`); bad input is a
    `bad_request` that changes nothing."""
    new = dict(old)
    if "kinds" in body:
        new["kinds"] = _kinds(body["kinds"])
    if "email" in body:
        if not isinstance(body["email"], bool):
            raise ServiceError("bad_request", "email: true or false (the account's address "
                                              "is set with the account)")
        new["email"] = body["email"]
    if "apprise_url" in body:
        new["apprise_url"] = _apprise(body["apprise_url"], allow_private)
    for name in ("quiet_from", "quiet_to"):
        if name in body:
            value = body[name]
            if value is not None and (not isinstance(value, str) or not HHMM.match(value)):
                raise ServiceError("bad_request", f"{name}: a time HH:MM (24 hours), or null")
            new[name] = value
    if "timezone" in body:
        zone = body["timezone"]
        try:
            if not isinstance(zone, str) or len(zone) > 64:
                raise ValueError
            ZoneInfo(zone)
        except (ValueError, ZoneInfoNotFoundError):
            raise ServiceError("bad_request", "timezone: a time zone such as Europe/Paris or "
                                              "UTC") from None
        new["timezone"] = zone
    if "throttle_minutes" in body:
        value = body["throttle_minutes"]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 10080:
            raise ServiceError("bad_request", "throttle_minutes: 0-10080")
        new["throttle_minutes"] = value
    return new


# -- routes --------------------------------------------------------------------------------------
router = APIRouter()


def notices_of(request: Request) -> Notices:
    return request.app.state.notices


@router.get("/api/v1/account/notifications", tags=["notifications"])
async def get_prefs(request: Request) -> dict:
    """The signed-in account's notification preferences (and whether its e-mail address
    unsubscribed)."""
    from boardct.server.auth import signed_in

    account = await signed_in(request)
    notices = notices_of(request)

    def read(session: Session) -> dict:
        out = prefs_json(session.get(NoticePrefsRow, account.id), notices.settings)
        row = session.get(AccountRow, account.id)
        email = row.email if row is not None else None
        out["address"] = email
        out["unsubscribed"] = bool(email) and session.get(
            EmailOptoutRow, address_hash(email or "")) is not None
        out["smtp"] = notices.smtp is not None
        return out

    return {"notifications": await notices.service.db(read)}


@router.put("/api/v1/account/notifications", tags=["notifications"])
async def put_prefs(request: Request) -> dict:
    """Change the preferences: {"kinds", "email", "apprise_url", "quiet_from", "quiet_to",
    "timezone", "throttle_minutes"} (any of them). Turning e-mail on again also undoes an
    unsubscribe of the account's address."""
    from boardct.server.auth import signed_in

    account = await signed_in(request)
    notices = notices_of(request)
    body = await read_object(request)

    def write(session: Session) -> dict:
        row = session.get(NoticePrefsRow, account.id)
        new = read_prefs(body, prefs_json(row, notices.settings),
                         notices.settings.private_urls)
        if row is None:
            row = NoticePrefsRow(account=account.id, kinds=new["kinds"])
            session.add(row)
        for name, value in new.items():
            setattr(row, name, value)
        acct = session.get(AccountRow, account.id)
        if body.get("email") is True and acct is not None and acct.email:
            session.execute(delete(EmailOptoutRow).where(
                EmailOptoutRow.address_hash == address_hash(acct.email)))
        session.commit()
        return prefs_json(row, notices.settings)

    return {"notifications": await notices.service.db(write)}


@router.get("/api/v1/account/notices", tags=["notifications"])
async def account_notices(request: Request) -> dict:
    """The account's latest notices (newest first) with their status: pending, sending,
    sent, failed (with the error), skipped, coalesced. `?status=failed` for those only."""
    from boardct.server.auth import signed_in

    account = await signed_in(request)
    status = request.query_params.get("status")

    def read(session: Session) -> list[dict]:
        q = select(NoticeRow).where(NoticeRow.account == account.id)
        if status:
            q = q.where(NoticeRow.status == status[:10])
        return [notice_json(r) for r in session.scalars(q.order_by(NoticeRow.id.desc())
                                                        .limit(100))]

    return {"notices": await notices_of(request).service.db(read)}


@router.get("/api/v1/games/{game_id}/notices", tags=["notifications"])
async def seat_notices(game_id: str, request: Request) -> dict:
    """The notices of the caller's seat in this game (a guest's too), newest first."""
    live, seat = await caller(request, game_id)
    if seat is None:
        raise ServiceError("forbidden", "a spectator gets no notices")

    def read(session: Session) -> list[dict]:
        return [notice_json(r) for r in session.scalars(
            select(NoticeRow).where(NoticeRow.game == live.id, NoticeRow.seat == seat,
                                    NoticeRow.address.is_(None))
            .order_by(NoticeRow.id.desc()).limit(100))]

    return {"notices": await notices_of(request).service.db(read)}


def _contact_json(row: SeatContactRow | None) -> dict | None:
    if row is None:
        return None
    return {"email": row.email, "apprise_url": row.apprise_url, "kinds": list(row.kinds or []),
            "unsubscribed": row.email_off}


@router.put("/api/v1/games/{game_id}/contact", tags=["notifications"])
async def put_contact(game_id: str, request: Request) -> dict:
    """Where the caller's seat of this game is told, for a guest (an account's seats follow
    the account's preferences): {"email", "apprise_url", "kinds"?}; both null: no more."""
    live, seat = await caller(request, game_id)
    if seat is None:
        raise ServiceError("forbidden", "a spectator has no seat to be told about")
    body = await read_object(request)
    email = _email(body.get("email"))
    apprise_url = _apprise(body.get("apprise_url"), notices_of(request).settings.private_urls)
    kinds = _kinds(body["kinds"]) if "kinds" in body else list(KINDS)

    def write(session: Session) -> dict | None:
        row = session.get(SeatContactRow, (live.id, seat))
        if email is None and apprise_url is None:
            if row is not None:
                session.delete(row)
            session.commit()
            return None
        if row is None:
            row = SeatContactRow(game=live.id, seat=seat, kinds=kinds, email_off=False)
            session.add(row)
        row.email, row.apprise_url, row.kinds, row.email_off = email, apprise_url, kinds, False
        if email:
            session.execute(delete(EmailOptoutRow).where(
                EmailOptoutRow.address_hash == address_hash(email)))
        session.commit()
        return _contact_json(row)

    out = await notices_of(request).service.db(write)
    held = live.extra.setdefault("notice_contacts", set())
    (held.add if out is not None else held.discard)(seat)
    live.extra["notice_contacts_changes"] = live.extra.get("notice_contacts_changes", 0) + 1
    return {"contact": out}


@router.get("/api/v1/games/{game_id}/contact", tags=["notifications"])
async def get_contact(game_id: str, request: Request) -> dict:
    live, seat = await caller(request, game_id)
    if seat is None:
        raise ServiceError("forbidden", "a spectator has no seat to be told about")
    row = await notices_of(request).service.db(
        lambda s: s.get(SeatContactRow, (live.id, seat)))
    return {"contact": _contact_json(row)}


@router.post("/api/v1/games/{game_id}/invite", tags=["notifications"])
async def send_invite(game_id: str, request: Request) -> dict:
    """Send a seat's invitation by e-mail: {"seat", "invite" (its invite code, as creating the
    game answered it), "email"}. Only a player of the game may send one, with the seat's
    own, still unused, invite code."""
    from boardct.server.live import token_hash
    from boardct.server.quotas import client_address

    live, me = await caller(request, game_id)
    if me is None:
        raise ServiceError("forbidden", "only a player of the game sends its invitations")
    request.app.state.quotas.hit("invite", client_address(request))
    body = await read_object(request)
    seat, code = body.get("seat"), body.get("invite")
    address = _email(body.get("email"))
    if address is None:
        raise ServiceError("bad_request", "email: the address to invite")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(live.seats):
        raise ServiceError("bad_request", "seat: the number of the seat (0 for the first)")
    held = live.seats[seat].invite_hash
    if not isinstance(code, str) or held is None or not hmac.compare_digest(
            held, token_hash(code[:200])):
        raise ServiceError("forbidden", "invite: not this seat's unused invite code")
    name = live.seats[me].name or f"Player {me + 1}"
    notices = notices_of(request)

    def write(session: Session) -> str:
        key = OUTBOX.invited(session, live, seat, address, code, name)
        session.commit()
        return key

    key = await notices.service.db(write)
    notices._wake.set()
    return {"sent": True, "key": key}


_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>Unsubscribe</title><link rel="stylesheet" href="/static/style.css"></head>
<body><main><h1>boardct</h1><p>{text}</p>{form}</main></body></html>"""


def _page(text: str, form: str = "", status: int = 200) -> HTMLResponse:
    return HTMLResponse(_PAGE.format(text=text, form=form), status_code=status)


@router.get("/notices/unsubscribe", include_in_schema=False)
async def unsubscribe_page(request: Request) -> HTMLResponse:
    """The link of every e-mail: one button (a mail client's one-click POST needs none)."""
    token = request.query_params.get("t", "")
    address = notices_of(request).address_of(token)
    if address is None:
        return _page("This unsubscribe link is not valid.", status=404)
    form = (f'<form method="post" action="/notices/unsubscribe?t={html.escape(token)}">'
            '<button type="submit">Unsubscribe</button></form>')
    return _page(f"Send no more e-mail from this server to {html.escape(address)}?", form)


@router.post("/notices/unsubscribe", include_in_schema=False)
async def unsubscribe(request: Request) -> HTMLResponse:
    """Unsubscribe the address the signed token names (no sign-in: the token is the proof)."""
    notices = notices_of(request)
    address = notices.address_of(request.query_params.get("t", ""))
    if address is None:
        return _page("This unsubscribe link is not valid.", status=404)
    await notices.opt_out(address)
    return _page(f"Done: no more e-mail goes to {html.escape(address)}. Turn e-mail on again "
                 "in your account's notification settings.")


def notice_settings(config: Any) -> NoticeSettings:
    """The sender's settings from a ServerConfig (its default public address: where the
    server listens)."""
    public = config.public_url or f"http://{config.host}:{config.port}"
    return NoticeSettings(smtp_url=config.smtp_url, public_url=public, poll=config.notice_poll,
                          backoff=config.notice_backoff, attempts=config.notice_attempts,
                          lease=config.notice_lease, throttle_minutes=config.notice_throttle,
                          send=config.notice_send, private_urls=config.notice_private_urls)


async def start(app: Any, service: Any, settings: NoticeSettings) -> Notices:
    """Wire the outbox into `service` and start the sender (app.py, at start-up)."""
    notices = Notices(service, settings)
    app.state.notices = notices
    await notices.start()
    return notices
