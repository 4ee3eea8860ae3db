"""The server's durability, scale and deadline parts, the same for every game, wired into the
app by one call at start-up, `start(app, service, db_url)` (their routes are `router`):

- deadlines (`deadlines.DeadlineKeeper`): a listener that (re)sets `deadline_at` after each
  change, a background task that acts on due games, the `deadline` field of state messages;
- several workers (`notify.PgNotifier`): NOTIFY after every commit, LISTEN and refresh;
- offers and chat (`social`): REST routes, websocket message types, state message fields.

A game's own routes and message parts are its package's (`boardct.server.ext`), not here.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.orm import Session

from boardct.server import clocks, social
from boardct.server.api import caller, read_object
from boardct.server.deadlines import DeadlineKeeper, from_peer, mark_peer
from boardct.server.notify import NullNotifier, PgNotifier, make_notifier
from boardct.server.service import ServiceError, table_entry

log = logging.getLogger("boardct.server.extras")


def _from_social(exc: social.SocialError) -> ServiceError:
    return ServiceError(exc.code, exc.message)


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
        # set before the push too, so the pages get the new deadline with the move (on_change
        # is a no-op the second time at one version)
        self.service.before_push.append(self.deadlines.on_change)
        self.service.listeners.append(self._notify_peers)
        self.service.state_extras.append(self.deadlines.state_extra)
        self.service.state_extras.append(self._social_extra)
        for kind in ("chat", "offer", "answer"):
            self.service.ws_handlers[kind] = self._ws_handler
        # a game loaded again (after a restart, or after it left memory) shows its offers
        self.service.on_load.append(self.load_social)
        # clocks: settings and missed deadlines loaded with a game, pauses refuse moves, a
        # seat's own move ends its missed run, the clock's fields in every state message
        self.service.on_load.append(lambda live: clocks.load(self.service, live))
        self.service.on_load.append(self.deadlines.loaded)
        self.service.move_checks.append(clocks.check_move)
        # first of all: the keeper's look must see a pause another process made
        self.service.before_push.insert(
            0, lambda gid, version: clocks.on_change(self.service, gid, version))

    async def start(self) -> None:
        await self.notifier.start()
        await self.deadlines.start()

    async def stop(self) -> None:
        await self.deadlines.stop()
        await self.notifier.stop()

    # -- several workers -----------------------------------------------------------------------
    async def _notify_peers(self, game_id: str, version: int) -> None:
        if not isinstance(self.notifier, PgNotifier):
            return
        live = self.service.cached(game_id)
        if live is not None and from_peer(live, version):
            return  # caught up from another process: that one told everybody already
        newest = live.entries[-1] if live is not None and live.entries else None
        entry = ((newest.seat, newest.text, newest.move_id)
                 if newest is not None and newest.version == version else None)
        await self.notifier.anotify(game_id, version, entry)

    async def _peer_changed(self, game_id: str, version: int,
                            entry: tuple[int | None, str, str | None] | None = None) -> None:
        """Another process changed `game_id`: catch up and tell this process's clients.
        Version -1: not a move but chat or an offer; resend the state (and chat). A move's
        `entry` (seat, text, move id) is applied without reading the database where this
        process holds the version before it; the version this process holds already: the
        seats changed there (a claim, a seat taken), read them again."""
        live = self.service.cached(game_id)
        if live is None:
            return
        if version < 0:
            await self._push_social(live, peer=True)
            return
        if version == live.version:
            await self.service.reload_seats(live)
            return
        if version > live.version:
            if entry is not None and version == live.version + 1:
                mark_peer(live, version, version)
                if await self.service.apply_peer_entry(live, version, *entry):
                    return
            await self._catch_up(live)

    async def _catch_up(self, live: Any) -> None:
        """Refresh `live` from the database, marking the versions read as another process's
        (the listeners the refresh triggers run later, in their own task)."""
        before = live.version
        mark_peer(live, before + 1, before + 64)  # any the refresh may bring; trimmed below
        try:
            await self.service.refresh(live.id)
        finally:
            seen = live.extra["peer_versions"]
            for v in range(live.version + 1, before + 65):
                seen.discard(v)  # not caught up: a later one may be this process's own

    async def _peer_reconnected(self) -> None:
        for live in self.service.cached_games():
            with contextlib.suppress(Exception):
                await self._catch_up(live)

    # -- offers and chat -----------------------------------------------------------------------
    def _social_extra(self, live: Any, seat: int | None) -> dict[str, Any]:
        """`offers` (open ones, of this version) and `chat` (what this seat may read), from
        the copy kept in memory (refreshed after each social change)."""
        cache = live.extra.get("social")
        if cache is None:
            return {"offers": [], "chat": []}
        offers = [o for o in cache["offers"] if o["version"] == live.public_version]
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

        live.extra["social"] = await self.service.db(read)

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
            msg = await self.service.db(write)
        except social.SocialError as exc:
            raise _from_social(exc) from None
        await self._push_social(live, chat=msg)
        return msg["json"]

    async def read_chat(self, game_id: str, seat: int | None) -> list[dict]:
        await self.service.get(game_id)
        return await self.service.db(lambda s: social.chat_for(s, game_id, seat))

    async def offer(self, game_id: str, seat: int | None, kind: Any) -> dict:
        live = await self.service.get(game_id)
        humans = [s.seat for s in live.seats if s.kind == "human"]

        def write(session: Session) -> dict:
            row = social.make_offer(session, game_id, seat, kind, live.state,
                                    live.public_version, humans)
            if self.service.outbox is not None:  # "an offer waiting", in the same transaction
                self.service.outbox.for_offer(session, live, social.offer_json(row))
            session.commit()
            return social.offer_json(row)

        async with live.lock:
            try:
                out = await self.service.db(write)
            except social.SocialError as exc:
                raise _from_social(exc) from None
        await self._push_social(live)
        return out

    async def answer(self, game_id: str, offer_id: Any, seat: int | None, accept: Any) -> dict:
        """Answer an offer; when everyone accepted, carry it out (a draw ends the game, an
        undo takes the moves back) as a record entry committed like a move."""
        live = await self.service.get(game_id)

        def write(session: Session) -> dict:
            row = social.answer_offer(session, game_id, offer_id, seat, accept, live.state,
                                      live.public_version)
            session.commit()
            return social.offer_json(row)

        async with live.lock:
            try:
                out = await self.service.db(write)
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
    async def _ws_handler(self, service: Any, live: Any, client: Any, msg: dict) -> None:
        """`service.ws_handlers` for chat, offer and answer. A refusal is a ServiceError, which
        the websocket loop answers (reject with the message's id, else error)."""
        kind = msg["type"]
        mid = msg.get("id")
        if kind == "chat":
            if client.seat is not None:
                client.websocket.app.state.quotas.hit("chat", f"{live.id}:{client.seat}")
            await self.chat(live.id, client.seat, msg.get("text"), msg.get("to", "all"))
        elif kind == "offer":
            out = await self.offer(live.id, client.seat, msg.get("kind"))
            await client.send({"type": "ack", "id": mid, "version":
                               live.seen_version(client.seat), "offer": out})
        else:
            out = await self.answer(live.id, msg.get("offer"), client.seat, msg.get("accept"))
            await client.send({"type": "ack", "id": mid, "version":
                               live.seen_version(client.seat), "offer": out})


# -- REST routes -------------------------------------------------------------------------------
router = APIRouter(prefix="/api/v1")


def extras_of(request: Request) -> Extras:
    return request.app.state.extras


@router.get("/games/{game_id}/chat", tags=["chat"])
async def get_chat(game_id: str, request: Request) -> dict:
    """The chat this seat may read (spectators: the public messages), oldest first."""
    _live, seat = await caller(request, game_id)
    return {"chat": await extras_of(request).read_chat(game_id, seat)}


@router.post("/games/{game_id}/chat", tags=["chat"])
async def post_chat(game_id: str, request: Request) -> dict:
    """Say something: `{"text": "...", "to": "all" | "team"}` (team: the seats on the
    sender's side, `State.teammates`)."""
    live, seat = await caller(request, game_id)
    if seat is not None:
        request.app.state.quotas.hit("chat", f"{live.id}:{seat}")
    body = await read_object(request)
    return await extras_of(request).chat(game_id, seat, body.get("text"), body.get("to", "all"))


@router.post("/games/{game_id}/offers", tags=["offers"])
async def post_offer(game_id: str, request: Request) -> dict:
    """Offer a draw or to take back your last move: `{"kind": "draw" | "undo"}`."""
    _live, seat = await caller(request, game_id)
    body = await read_object(request)
    return await extras_of(request).offer(game_id, seat, body.get("kind"))


@router.post("/games/{game_id}/offers/{offer_id}", tags=["offers"])
async def answer_offer(game_id: str, offer_id: str, request: Request) -> dict:
    """Accept or refuse an offer: `{"accept": true | false}`."""
    _live, seat = await caller(request, game_id)
    body = await read_object(request)
    return await extras_of(request).answer(game_id, offer_id, seat, body.get("accept"))


async def start(app: Any, service: Any, db_url: str, poll: float | None = None) -> Extras:
    """Hook the deadlines, the worker fan-out, offers and chat into
    `service` and start their background tasks (app.py calls it at start-up; the routes are
    `router`, included when the app is built). Stop them with `await extras.stop()`."""
    extras = Extras(service, db_url, poll)
    extras.hook()
    app.state.extras = extras
    await extras.start()
    return extras
