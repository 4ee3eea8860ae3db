"""The server's durability, scale and deadline parts (issue 18 items 4, 7, 8), wired into the
app by one call, `install(app, service, config)`:

- deadlines (`deadlines.DeadlineKeeper`): a listener that (re)sets `deadline_at` after each
  change, a background task that acts on due games, the `deadline` field of state messages;
- several workers (`notify.PgNotifier`): NOTIFY after every commit, LISTEN and refresh;
- offers and chat (`social`): REST routes, websocket message types, state message fields;
- CTF 2187's order sheets and turn reports (the game's own optional extras: its sheet parser
  and `games/ctf2187/report.py`; no other game-specific code is here).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.orm import Session

from boardct.core.errors import BoardctError
from boardct.core.inputs import InputError, parse_json
from boardct.server import social
from boardct.server.deadlines import FROM_PEER, DeadlineKeeper
from boardct.server.notify import NullNotifier, PgNotifier, make_notifier

log = logging.getLogger("boardct.server.extras")

MAX_BODY = 64 * 1024
SHEET_GAMES = ("ctf2187",)  # games whose own extras are order sheets and turn reports


def _service_error(code: str, message: str, rule: str | None = None) -> Exception:
    from boardct.server.service import ServiceError

    return ServiceError(code, message, rule)


def _from_social(exc: social.SocialError) -> Exception:
    return _service_error(exc.code, exc.message)


def bearer(request: Request) -> str | None:
    """The seat token of `Authorization: Bearer <token>` (None: a spectator)."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _service_error("unauthorized", "Authorization: Bearer <seat token>")
    return token.strip()


async def body_json(request: Request) -> dict:
    """The request body as a JSON object, read with a bound."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise _service_error("too_large", f"a request body is at most {MAX_BODY:,} bytes")
    try:
        value = parse_json(data.decode("utf-8", errors="strict"), "the request body")
    except (InputError, UnicodeDecodeError) as exc:
        raise _service_error("bad_request", str(exc).splitlines()[0][:300]) from None
    if not isinstance(value, dict):
        raise _service_error("bad_request", "the request body is a JSON object")
    return value


class Extras:
    """Everything `install` adds, kept on `app.state.extras`."""

    def __init__(self, service: Any, db_url: str, poll: float | None = None):
        self.service = service
        self.deadlines = DeadlineKeeper(service, **({"poll": poll} if poll else {}))
        self.notifier: PgNotifier | NullNotifier = make_notifier(
            db_url, self._peer_changed, self._peer_reconnected)

    # -- wiring --------------------------------------------------------------------------------
    def hook(self) -> None:
        self.service.listeners.append(self.deadlines.on_change)
        self.service.listeners.append(self._notify_peers)
        self.service.state_extras.append(self.deadlines.state_extra)
        self.service.state_extras.append(self._social_extra)

    async def start(self) -> None:
        await self.notifier.start()
        await self.deadlines.start()

    async def stop(self) -> None:
        await self.deadlines.stop()
        await self.notifier.stop()

    # -- several workers -----------------------------------------------------------------------
    async def _notify_peers(self, game_id: str, version: int) -> None:
        if not FROM_PEER.get() and isinstance(self.notifier, PgNotifier):
            await self.notifier.anotify(game_id, version)

    async def _peer_changed(self, game_id: str, version: int) -> None:
        """Another process changed `game_id`: catch up and tell this process's clients.
        Version -1: not a move but chat or an offer; resend the state (and chat)."""
        FROM_PEER.set(True)  # this task's context: the listeners it triggers skip re-notifying
        live = self.service._live.get(game_id)
        if live is None:
            return
        if version < 0:
            await self._push_social(live, peer=True)
            return
        if version > live.version:
            await self.service.refresh(game_id)

    async def _peer_reconnected(self) -> None:
        for game_id in list(self.service._live):
            FROM_PEER.set(True)
            with contextlib.suppress(Exception):
                await self.service.refresh(game_id)

    # -- offers and chat -----------------------------------------------------------------------
    def _social_extra(self, live: Any, seat: int | None) -> dict[str, Any]:
        """`offers` (open ones, of this version) and `chat` (what this seat may read), from
        the copy kept in memory (refreshed after each social change)."""
        cache = live.extra.get("social")
        if cache is None:
            return {"offers": [], "chat": []}
        offers = [o for o in cache["offers"] if o["version"] == live.version]
        chat = [m for m in cache["chat"] if social.may_read(m, seat)]
        return {"offers": [{k: v for k, v in o.items() if k != "version"} for o in offers],
                "chat": [m["json"] for m in chat][-social.CHAT_HISTORY:]}

    async def load_social(self, live: Any) -> None:
        """Read the game's open offers and recent chat into `live.extra["social"]`."""
        from sqlalchemy import select

        def read(session: Session) -> dict:
            offers = session.scalars(select(social.OfferRow)
                                     .where(social.OfferRow.game == live.id,
                                            social.OfferRow.status == "open")).all()
            chat = session.scalars(select(social.ChatRow)
                                   .where(social.ChatRow.game == live.id)
                                   .order_by(social.ChatRow.id.desc())
                                   .limit(4 * social.CHAT_HISTORY)).all()
            return {"offers": [social.offer_json(o) | {"version": o.version} for o in offers],
                    "chat": [{"to": c.to, "team": c.team, "json": social.chat_json(c)}
                             for c in reversed(chat)]}

        live.extra["social"] = await self.service._db(read)

    async def _push_social(self, live: Any, peer: bool = False,
                           chat: dict | None = None) -> None:
        """After an offer or chat change: reload, send every client of this process a fresh
        state (offers) and the new chat message to those who may read it, tell the peers."""
        await self.load_social(live)
        hub = self.service.hub
        if hub is not None:
            if chat is not None:
                await hub.send_to(live.id, lambda seat: chat["json"]
                                  if social.may_read(chat, seat) else None)
            else:
                await hub.send_to(live.id, lambda seat: self.service.state_message(live, seat))
        if not peer and isinstance(self.notifier, PgNotifier):
            await self.notifier.anotify(live.id, -1)

    async def chat(self, game_id: str, seat: int | None, text: Any, to: Any) -> dict:
        live = await self.service.get(game_id)

        def write(session: Session) -> dict:
            row = social.post_chat(session, game_id, seat,
                                   live.seats[seat].name if seat is not None else "",
                                   live.state, text, to)
            session.commit()
            return {"to": row.to, "team": row.team, "json": social.chat_json(row)}

        try:
            msg = await self.service._db(write)
        except social.SocialError as exc:
            raise _from_social(exc) from None
        await self._push_social(live, chat=msg)
        return msg["json"]

    async def read_chat(self, game_id: str, seat: int | None) -> list[dict]:
        await self.service.get(game_id)
        return await self.service._db(lambda s: social.chat_for(s, game_id, seat))

    async def offer(self, game_id: str, seat: int | None, kind: Any) -> dict:
        live = await self.service.get(game_id)
        humans = [s.seat for s in live.seats if s.kind == "human"]

        def write(session: Session) -> dict:
            row = social.make_offer(session, game_id, seat, kind, live.state, live.version,
                                    humans)
            session.commit()
            return social.offer_json(row)

        async with live.lock:
            try:
                out = await self.service._db(write)
            except social.SocialError as exc:
                raise _from_social(exc) from None
        await self._push_social(live)
        return out

    async def answer(self, game_id: str, offer_id: Any, seat: int | None, accept: Any) -> dict:
        """Answer an offer; when everyone accepted, carry it out (a draw ends the game, an
        undo takes the moves back) as a record entry committed like a move."""
        from boardct.server.service import ServiceError

        live = await self.service.get(game_id)

        def write(session: Session) -> dict:
            row = social.answer_offer(session, game_id, offer_id, seat, accept, live.state,
                                      live.version)
            session.commit()
            return social.offer_json(row)

        async with live.lock:
            try:
                out = await self.service._db(write)
            except social.SocialError as exc:
                await self.load_social(live)
                raise _from_social(exc) from None
        if out["status"] == "accepted":
            entry = "draw" if out["kind"] == "draw" else f"undo {out['count']}"
            try:
                await table_entry(self.service, game_id, out["by"], entry)
            except ServiceError:
                await self._push_social(live)
                raise
        await self._push_social(live)
        return out

    # -- websocket messages --------------------------------------------------------------------
    async def ws_message(self, game_id: str, seat: int | None, msg: dict) -> dict | None:
        """Handle a websocket message of type offer, answer or chat; returns the reply to the
        sender (None: nothing to say; chat reaches everyone through the hub)."""
        from boardct.server.service import ServiceError

        kind = msg.get("type")
        mid = msg.get("id")
        try:
            if kind == "chat":
                await self.chat(game_id, seat, msg.get("text"), msg.get("to", "all"))
                return None
            if kind == "offer":
                out = await self.offer(game_id, seat, msg.get("kind"))
                return {"type": "ack", "id": mid, "offer": out}
            if kind == "answer":
                out = await self.answer(game_id, msg.get("offer"), seat, msg.get("accept"))
                return {"type": "ack", "id": mid, "offer": out}
        except ServiceError as exc:
            return {"type": "reject", "id": mid, "rule": exc.rule, "message": exc.message,
                    "code": exc.code}
        return None


# -- REST routes -------------------------------------------------------------------------------
def router(extras: Extras) -> APIRouter:
    r = APIRouter(prefix="/api/v1")
    service = extras.service

    async def seat_of(request: Request, game_id: str) -> tuple[Any, int | None]:
        return await service.authorize(game_id, bearer(request))

    @r.get("/games/{game_id}/chat", tags=["chat"])
    async def get_chat(game_id: str, request: Request) -> dict:
        """The chat this seat may read (spectators: the public messages), oldest first."""
        _live, seat = await seat_of(request, game_id)
        return {"chat": await extras.read_chat(game_id, seat)}

    @r.post("/games/{game_id}/chat", tags=["chat"])
    async def post_chat(game_id: str, request: Request) -> dict:
        """Say something: `{"text": "...", "to": "all" | "team"}` (team: CTF 2187's teams)."""
        _live, seat = await seat_of(request, game_id)
        body = await body_json(request)
        return await extras.chat(game_id, seat, body.get("text"), body.get("to", "all"))

    @r.post("/games/{game_id}/offers", tags=["offers"])
    async def post_offer(game_id: str, request: Request) -> dict:
        """Offer a draw or to take back your last move: `{"kind": "draw" | "undo"}`."""
        _live, seat = await seat_of(request, game_id)
        body = await body_json(request)
        return await extras.offer(game_id, seat, body.get("kind"))

    @r.post("/games/{game_id}/offers/{offer_id}", tags=["offers"])
    async def answer_offer(game_id: str, offer_id: str, request: Request) -> dict:
        """Accept or refuse an offer: `{"accept": true | false}`."""
        _live, seat = await seat_of(request, game_id)
        body = await body_json(request)
        return await extras.answer(game_id, offer_id, seat, body.get("accept"))

    @r.post("/games/{game_id}/sheets", tags=["ctf2187"])
    async def post_sheet(game_id: str, request: Request) -> dict:
        """CTF 2187: hand in an order sheet (CTF-37 format, as `boardct ctf2187 submit`
        takes it), sealed until the turn is processed."""
        live, seat = await seat_of(request, game_id)
        if live.game.id not in SHEET_GAMES:
            raise _service_error("not_found", f"{live.game.title} has no order sheets")
        if seat is None:
            raise _service_error("forbidden", "a spectator cannot hand in a sheet")
        body = await body_json(request)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise _service_error("bad_request", "text: the order sheet")
        if len(text) > 16 * 1024:
            raise _service_error("too_large", "an order sheet is at most 16,384 characters")
        return await submit_sheet(service, live, seat, text, body.get("move_id"))

    @r.get("/games/{game_id}/report", tags=["ctf2187"])
    async def get_report(game_id: str, request: Request, turn: int | None = None) -> dict:
        """CTF 2187: this seat's turn report (one per Bot it commands) of turn `turn` (default:
        the last processed one); never another seat's."""
        live, seat = await seat_of(request, game_id)
        if live.game.id not in SHEET_GAMES:
            raise _service_error("not_found", f"{live.game.title} has no turn reports")
        if seat is None:
            raise _service_error("forbidden", "a turn report is for its player's seat token")
        return await asyncio.to_thread(turn_reports, live, seat, turn)

    return r


async def submit_sheet(service: Any, live: Any, seat: int, text: str, move_id: Any) -> dict:
    """Check the sheet as `boardct ctf2187 submit` does (the game's own parser, `MISSING` is
    the server's, not a player's), then hand it in through the service's one path."""
    from boardct.games.ctf2187.state import MISSING

    try:
        action = live.state.parse(text, seat)
    except BoardctError as exc:
        raise _service_error("rejected", str(exc)[:2000], "CTF-37") from None
    if action[0] == MISSING:
        raise _service_error("rejected", "'default' (MISSING) is written by the server at the "
                             "deadline, not handed in", "CTF-37")
    ack = await service.submit(live.id, seat, text, move_id=move_id)
    return ack | {"accepted": live.state.describe_action(action, seat)}


async def table_entry(service: Any, game_id: str, seat: int, entry: str) -> dict:
    """Commit a record table entry ("draw", "undo N") for `seat` the way the service commits a
    move: applied on a copy, compare-and-set of the version with the log entry in one
    transaction, then broadcast. Refused (nothing changed) where the core refuses it."""
    from boardct.server.service import ServiceError, apply_text

    live = await service.get(game_id)
    first = live.version + 1
    async with live.lock:
        if live.over:
            raise ServiceError("game_over", "the game is over")
        try:
            trial, events = apply_text(live.state.clone(), entry)
        except BoardctError as exc:
            rule = getattr(exc, "rule", None)
            raise ServiceError("rejected", getattr(exc, "reason", str(exc)), rule) from None
        ack = await service._commit(live, seat, entry, None, trial, events)
    await service._after_change(live, first=first)
    return ack


def turn_reports(live: Any, seat: int, turn: int | None) -> dict:
    """The reports of `seat`'s Bots for `turn`: the live state for the last processed turn,
    a replay of the log up to the end of `turn` for an earlier one."""
    from boardct.games.ctf2187.report import format_report, turn_report
    from boardct.server.service import apply_text

    state = live.state
    last = state.log_turn
    if turn is None:
        turn = last
    if isinstance(turn, bool) or not 0 <= turn <= last:
        raise _service_error("not_found", f"turn {turn} has no report yet (processed turns: "
                                          f"0-{last})")
    if turn != last:
        state = live.game.initial_state(live.setup)
        for e in live.entries:
            if state.log_turn == turn:
                break
            state, _events = apply_text(state, e.text)
    deadline = None
    if turn == last and live.deadline_at is not None:
        from boardct.server.deadlines import aware

        deadline = aware(live.deadline_at).isoformat(timespec="seconds")
    reports = [turn_report(state, b.num, deadline) for b in state.bots_of(seat)]
    return {"turn": turn, "seat": seat,
            "reports": [rep | {"text": format_report(rep)} for rep in reports]}


def install(app: Any, service: Any, db_url: str, poll: float | None = None) -> Extras:
    """Add the deadlines, the worker fan-out, offers, chat and CTF 2187's extras to `app`.
    The caller starts and stops them with the app (`await extras.start()` / `stop()`)."""
    extras = Extras(service, db_url, poll)
    extras.hook()
    app.include_router(router(extras))
    app.state.extras = extras
    return extras
