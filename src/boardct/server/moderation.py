"""A game's moderator: its creator (the creator's seat, account, or the moderator token shown
once at creation) sets or extends the deadline, pauses and resumes the game, replaces an absent
player by an agent or by a person invited anew, and posts announcements.

Each act is an entry of the game's log, `mod <what was done>` (core.moves.MODERATOR_ENTRY),
committed the way every entry is (compare-and-set of the version with the entry, in one
transaction) and pushed to every seat, whose log reads "Moderator: ...". It changes nothing in
the game itself, so the record, which keeps it, replays to the same end. A moderator's entry
does not restart the clock: the deadline in force stays unless the act is about it.

The server acts as moderator in one case: a person who missed the game's `miss_limit`
deadlines in a row (server/clocks.py) is replaced by an agent or loses, with its entry.

Routes (prefix /api/v1): `GET /games/{id}/moderator` and `POST /games/{id}/moderator/{act}`
for `deadline`, `pause`, `resume`, `replace`, `announce`; anyone else gets 403.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import update
from sqlalchemy.orm import Session

from boardct.core import moves
from boardct.core.errors import BoardctError
from boardct.server import clocks
from boardct.server.api import field, quotas_of, read_object, service_of
from boardct.server.auth import bearer_value
from boardct.server.live import (
    STATUS_OPEN,
    STATUS_OVER,
    ServiceError,
    new_token,
    token_hash,
    unprintable,
)
from boardct.server.models import SeatRow

router = APIRouter(prefix="/api/v1")
MAX_ANNOUNCEMENT = 500  # characters of one announcement
MAX_EXTEND = 30 * 24 * 3600  # seconds a deadline may be moved at once, and ahead of now


def when_text(when: dt.datetime | None) -> str:
    return when.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC") if when else "none"


def seat_text(live: Any, seat: int) -> str:
    name = live.seats[seat].name
    return f"seat {seat + 1}" + (f" ({name})" if name else "")


# -- the log entry -------------------------------------------------------------------------------
async def log_act(service: Any, live: Any, words: str, then: Any = None) -> dict:
    """Commit the moderator's entry `mod <words>` for every player to read; `then(live)`, under
    the game's lock right after the commit, does what the act changes besides (deadline, pause,
    seats) before the change is pushed. The clock keeps the deadline in force."""
    first = live.version + 1
    async with live.lock:
        if live.over:
            raise ServiceError("game_over", "the game is over")
        try:
            done = moves.apply_entry(live.state.clone(), moves.moderator_entry(words))
        except BoardctError as exc:
            raise ServiceError("bad_request", str(exc)) from None
        ack = await service.commit(live, None, done.entry, None, done.state, done.events)
        # the entry is no move: the deadline (and its reminders) stay as they were
        live.extra["deadline_for"] = (live.version, frozenset(live.state.current_players()))
        if then is not None:
            await then(live)
    await service.after_change(live, first=first, resync=True)
    return ack


# -- who moderates -------------------------------------------------------------------------------
async def moderator_of(request: Request, game_id: str, act: bool = True) -> Any:
    """The game, if the request comes from its moderator (the moderator token, the creator's
    seat token, or the creator's account); else `forbidden` (or `not_found`). An `act` counts
    against the game's move quota (the log is not flooded by announcements)."""

    live = await _moderated(request, game_id)
    if act:
        quotas_of(request).hit("move", f"{live.id}:moderator")
    return live


async def _moderated(request: Request, game_id: str) -> Any:
    from boardct.server.auth import identify

    service = service_of(request)
    live = await service.get(game_id)
    s = clocks.settings_of(live)
    token = bearer_value(request)
    if token and s.moderator_hash and secrets.compare_digest(token_hash(token),
                                                             s.moderator_hash):
        return live
    who = await identify(request)
    if who.account is not None and s.moderator_account is not None \
            and who.account.id == s.moderator_account:
        return live
    if who.token and s.moderator_seat is not None:
        try:
            seat = service.seat_of(live, who.token)
        except ServiceError:
            seat = None
        if seat is not None and seat == s.moderator_seat:
            return live
    raise ServiceError("forbidden", "only the game's moderator (its creator) may do this")


# -- the acts -------------------------------------------------------------------------------------
async def set_deadline(service: Any, live: Any, when: dt.datetime, words: str) -> dict:
    async def then(live: Any) -> None:
        from boardct.server.models import GameRow as Row

        live.deadline_at = when

        def write(session: Session) -> None:
            session.execute(update(Row).where(Row.id == live.id).values(deadline_at=when))
            clocks.schedule_reminders(session, live, when)
            session.commit()

        await service.db(write)

    return await log_act(service, live, words, then)


async def replace_by_agent(service: Any, live: Any, seat: int, agent: str, why: str) -> dict:
    """`seat` is played by the agent `agent` from now on (its token and invite void)."""

    async def then(live: Any) -> None:
        def write(session: Session) -> None:
            session.execute(update(SeatRow).where(SeatRow.game == live.id, SeatRow.seat == seat)
                            .values(kind="agent", agent=agent, token_hash=None,
                                    invite_hash=None, claimed=True, account=None, open=False))
            service._set_status(session, live.id)
            session.commit()

        await service.db(write)
        s = live.seats[seat]
        s.kind, s.agent, s.token_hash, s.invite_hash = "agent", agent, None, None
        s.claimed, s.account, s.open = True, None, False
        await clocks.reset_missed(service, live, [seat])

    return await log_act(service, live, f"{seat_text(live, seat)} {why}: played by the agent "
                                        f"{agent} from now on", then)


async def replace_by_invite(service: Any, live: Any, seat: int) -> tuple[dict, str]:
    """`seat` goes to whoever takes a new invite (its token void); the clock waits for them."""
    invite = new_token()

    async def then(live: Any) -> None:
        def write(session: Session) -> None:
            session.execute(update(SeatRow).where(SeatRow.game == live.id, SeatRow.seat == seat)
                            .values(token_hash=None, invite_hash=token_hash(invite),
                                    claimed=False, account=None, open=False))
            service._set_status(session, live.id)
            session.commit()

        await service.db(write)
        s = live.seats[seat]
        s.token_hash, s.invite_hash, s.claimed, s.account, s.open = (
            None, token_hash(invite), False, None, False)
        await clocks.reset_missed(service, live, [seat])

    ack = await log_act(service, live, f"{seat_text(live, seat)} goes to a newly invited "
                                       "player", then)
    return ack, invite


async def missed_too_often(service: Any, live: Any, seat: int) -> None:
    """The game's rule for a person who missed `miss_limit` deadlines in a row."""
    s = clocks.settings_of(live)
    if live.seats[seat].kind != "human" or live.over:
        return
    why = f"missed {s.miss_limit} deadlines in a row"
    if s.miss_action == "loss":
        await log_act(service, live, f"{seat_text(live, seat)} {why}: loses")
        await service.end(live.id, "timeout", seat)
        return
    await replace_by_agent(service, live, seat, s.miss_agent or "random", why)


# -- routes ---------------------------------------------------------------------------------------
def _seat(live: Any, body: dict) -> int:
    seat = field(body, "seat", int, required=True)
    if not 0 <= seat < len(live.seats):
        raise ServiceError("bad_request", f"seat: 0 to {len(live.seats) - 1}")
    return int(seat)


def _running(live: Any) -> None:
    if live.over or live.status == STATUS_OVER:
        raise ServiceError("game_over", "the game is over")


@router.get("/games/{game_id}/moderator")
async def get_moderation(game_id: str, request: Request) -> dict:
    """For the moderator: the clock settings and each seat's deadlines missed in a row."""
    live = await moderator_of(request, game_id, act=False)
    s = clocks.settings_of(live)
    when = clocks.aware(live.deadline_at) if live.deadline_at else None
    return {"game_id": live.id, "paused": s.paused, "reminders": list(s.reminders),
            "deadline": when.isoformat(timespec="seconds") if when else None,
            "miss_limit": s.miss_limit, "miss_action": s.miss_action,
            "misses": {str(k): v for k, v in sorted(clocks.misses_of(live).items())},
            "seats": [{"seat": x.seat, "kind": x.kind, "name": x.name, "agent": x.agent,
                       "claimed": x.claimed} for x in live.seats]}


@router.post("/games/{game_id}/moderator/deadline")
async def moderate_deadline(game_id: str, request: Request) -> dict:
    """Body {"extend": seconds} (the deadline in force, or now, moved later) or {"at": ISO
    8601 time}: the game's deadline from now on (the next move's gets the usual limit)."""
    live = await moderator_of(request, game_id)
    body = await read_object(request)
    service = service_of(request)
    _running(live)
    if clocks.is_paused(live):
        raise ServiceError("conflict", "the game is paused: resume it first")
    now = clocks.utcnow()
    extend = field(body, "extend", (int, float), None)
    at = field(body, "at", str, None)
    if (extend is None) == (at is None):
        raise ServiceError("bad_request", "give one of extend (seconds) or at (an ISO 8601 "
                                          "time)")
    if extend is not None:
        if not 1 <= extend <= MAX_EXTEND:
            raise ServiceError("bad_request", "extend: seconds, 1 to 30 days")
        base = clocks.aware(live.deadline_at) if live.deadline_at else now
        when = max(base, now) + dt.timedelta(seconds=float(extend))
        words = f"deadline extended to {when_text(when)}"
    else:
        try:
            when = dt.datetime.fromisoformat(str(at).replace("Z", "+00:00"))
        except ValueError:
            raise ServiceError("bad_request", "at: an ISO 8601 time such as "
                                              "2026-12-01T18:00:00Z") from None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        if not now < when <= now + dt.timedelta(seconds=MAX_EXTEND):
            raise ServiceError("bad_request", "at: a time ahead, at most 30 days from now")
        words = f"deadline set to {when_text(when)}"
    if live.status == STATUS_OPEN:
        raise ServiceError("conflict", "a seat is still free: the clock starts when every "
                                       "player is there")
    when = when.replace(microsecond=0)
    ack = await set_deadline(service, live, when, words)
    return {"ok": True, "deadline": when.isoformat(timespec="seconds"),
            "version": ack["version"]}


@router.post("/games/{game_id}/moderator/pause")
async def moderate_pause(game_id: str, request: Request) -> dict:
    """Pause: no moves, the clock stopped (its time left kept for the resume)."""
    live = await moderator_of(request, game_id)
    service = service_of(request)
    _running(live)
    if clocks.is_paused(live):
        raise ServiceError("conflict", "the game is paused already")

    async def then(live: Any) -> None:
        await clocks.set_paused(service, live, True)

    ack = await log_act(service, live, "game paused", then)
    return {"ok": True, "paused": True, "version": ack["version"]}


@router.post("/games/{game_id}/moderator/resume")
async def moderate_resume(game_id: str, request: Request) -> dict:
    """Resume: moves again, the deadline as far ahead as it was when paused."""
    live = await moderator_of(request, game_id)
    service = service_of(request)
    _running(live)
    if not clocks.is_paused(live):
        raise ServiceError("conflict", "the game is not paused")
    got: list[dt.datetime | None] = []

    async def then(live: Any) -> None:
        got.append(await clocks.set_paused(service, live, False))

    ack = await log_act(service, live, "game resumed", then)
    when = got[0] if got else None
    return {"ok": True, "paused": False, "version": ack["version"],
            "deadline": when.isoformat(timespec="seconds") if when else None}


@router.post("/games/{game_id}/moderator/replace")
async def moderate_replace(game_id: str, request: Request) -> dict:
    """Body {"seat": n, "by": "agent", "agent": "random"} or {"seat": n, "by": "invite"}: an
    absent player's seat goes to an agent, or to whoever takes the new invite (answered once:
    {"invite"})."""
    live = await moderator_of(request, game_id)
    body = await read_object(request)
    service = service_of(request)
    _running(live)
    seat = _seat(live, body)
    by = field(body, "by", str, "agent")
    if live.seats[seat].kind != "human":
        raise ServiceError("conflict", f"seat {seat} is played by an agent already")
    if by == "agent":
        from boardct.server.agents import check_spec

        agent = field(body, "agent", str, "random")
        problem = check_spec(agent) if len(agent) <= 200 and agent.isprintable() else \
            "an agent spec such as \"random\""
        if problem:
            raise ServiceError("bad_request", f"agent: {problem}")
        ack = await replace_by_agent(service, live, seat, agent, "replaced by the moderator")
        return {"ok": True, "seat": seat, "agent": agent, "version": ack["version"]}
    if by == "invite":
        ack, invite = await replace_by_invite(service, live, seat)
        return {"ok": True, "seat": seat, "invite": invite, "version": ack["version"]}
    raise ServiceError("bad_request", "by: \"agent\" or \"invite\"")


@router.post("/games/{game_id}/moderator/announce")
async def moderate_announce(game_id: str, request: Request) -> dict:
    """Body {"text"}: an announcement in the game's log, for every player."""
    live = await moderator_of(request, game_id)
    body = await read_object(request)
    text = field(body, "text", str, required=True)
    said = " ".join(text.split())
    if not said or len(said) > MAX_ANNOUNCEMENT or unprintable(said):
        raise ServiceError("bad_request", f"text: printable text of 1-{MAX_ANNOUNCEMENT} "
                                          "characters")
    _running(live)
    ack = await log_act(service_of(request), live, f"says: {said}")
    return {"ok": True, "version": ack["version"]}
