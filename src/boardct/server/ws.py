"""The websocket, protocol version 1 (docs/server.md): `GET /api/v1/games/{id}/ws`.

The first message is `hello` with the seat token (never in the URL) and the last version the
client saw; the server answers `welcome`, then the updates missed since then (if few) or one
full `state`. Moves carry the client's id: `ack` (with the new version) or `reject` (code,
ruling, reason); resending an applied id gets its original ack. A client whose hello asks for
`ack_in_update` gets no `ack` for a move with an id: the move's update carries the id.
Frames are at most 64 KiB; a frame that is too large, not JSON or not a known message gets
an `error` message and the connection stays, until too many bad frames in a row close it
(policy violation).

Limits (docs/server.md): a client address opens sockets within the `socket` quota and holds
at most `ServerConfig.max_sockets` at once (over either: an `error` `too_many_requests`, then
closed with 1013, try again later); a socket that says nothing for `idle_timeout` seconds
(the pages send a `ping` every 30) is closed with 1001; moves count against the seat's `move`
quota (over it: a `reject` with code `too_many_requests` and `retry_after`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from boardct.core.inputs import InputError
from boardct.server import presence
from boardct.server.hub import Client
from boardct.server.messages import PROTOCOL, decode, update_message
from boardct.server.quotas import QuotaExceeded, Quotas, client_address
from boardct.server.service import END_KINDS, GameService, Live, ServiceError

router = APIRouter(prefix="/api/v1")
log = logging.getLogger("boardct.server")

CATCH_UP = 20  # at most this many missed updates are resent; more: one full state
MAX_BAD_FRAMES = 20  # bad frames in a row before the connection is closed
HELLO_TIMEOUT = 30.0  # seconds to say hello


class BadFrame(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


async def receive_message(ws: WebSocket, limit: int) -> dict | None:
    """The next client message as a JSON object; None when the client has gone. A bad frame
    raises `BadFrame`."""
    msg = await ws.receive()
    if msg["type"] == "websocket.disconnect":
        return None
    text = msg.get("text")
    if text is None:
        data = msg.get("bytes") or b""
        if len(data) > limit:
            raise BadFrame("too_large", f"a message is at most {limit:,} bytes")
        raise BadFrame("bad_request", "messages are JSON text frames")
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise BadFrame("too_large", f"a message is at most {limit:,} bytes")
    try:
        doc = decode(text, "message")
    except InputError as exc:
        raise BadFrame("bad_request", str(exc)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("type"), str):
        raise BadFrame("bad_request", "a message is a JSON object with a \"type\"")
    return doc


def reject(msg_id: Any, exc: ServiceError) -> dict:
    return {"type": "reject", "id": msg_id, "rule": exc.rule, "message": exc.message,
            "code": exc.code}


@router.websocket("/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    service: GameService = ws.app.state.service
    config = ws.app.state.config
    limit: int = config.max_body
    quotas: Quotas = ws.app.state.quotas
    address = client_address(ws)
    await ws.accept()
    try:
        quotas.hit("socket", address)
    except QuotaExceeded as exc:
        await _close_with(ws, "too_many_requests", str(exc), 1013, exc.retry_after)
        return
    if not service.hub.opened(address, config.max_sockets):
        await _close_with(ws, "too_many_requests", f"at most {config.max_sockets} connections "
                          "from one client at once", 1013)
        return
    try:
        await _game_socket(ws, service, game_id, limit, quotas, config.idle_timeout)
    finally:
        service.hub.closed(address)


async def _game_socket(ws: WebSocket, service: GameService, game_id: str, limit: int,
                       quotas: Quotas, idle: float) -> None:
    try:
        hello = await asyncio.wait_for(receive_message(ws, limit), HELLO_TIMEOUT)
    except (BadFrame, TimeoutError) as exc:
        message = exc.message if isinstance(exc, BadFrame) else "say hello first"
        await _close_with(ws, "bad_request", message)
        return
    except WebSocketDisconnect:
        return
    if hello is None:
        return
    if hello.get("type") == "hello" and hello.get("v", PROTOCOL) != PROTOCOL:
        await _close_with(ws, "bad_request", f"this server speaks protocol version {PROTOCOL}")
        return
    if hello.get("type") != "hello":
        await _close_with(ws, "bad_request", "the first message is {\"type\": \"hello\", "
                                             "\"v\": 1, \"token\": ..., \"since\": ...}")
        return
    token = hello.get("token")
    since = hello.get("since")
    try:
        if token is not None and not isinstance(token, str):
            raise ServiceError("unauthorized", "token: a seat token or null")
        live, seat = await _authorize(ws, service, game_id, token, hello.get("seat"))
    except ServiceError as exc:
        await _close_with(ws, exc.code, exc.message)
        return
    client = Client(live.id, seat, ws, ack_in_update=hello.get("ack_in_update") is True)
    hub = service.hub
    # Under the game's notify lock no broadcast runs; the messages are built from one
    # version (the game's lock held while building). Entries committed after it are
    # broadcast once the lock is free, to this client too: nothing is missed or sent twice.
    async with live.notify_lock:
        async with live.lock:
            welcome = {"type": "welcome", "v": PROTOCOL, "seat": seat,
                       "version": live.seen_version(seat)}
            if client.ack_in_update:
                welcome["ack_in_update"] = True  # this server does: no `ack` for a move
            first = [welcome]
            first += _catch_up(service, live, seat, since)
        for msg in first:
            await client.send(msg)
        hub.add(client)
    try:
        presence.joined(live, seat)
        await _serve(service, live, client, limit, quotas, idle)
    except WebSocketDisconnect:
        pass
    finally:
        hub.remove(client)
        presence.left(live, seat)


async def _authorize(ws: WebSocket, service: GameService, game_id: str, token: str | None,
                     choice: Any) -> tuple[Live, int | None]:
    """The seat of the hello's token: a seat token, or a personal API token (the account's
    seat); without one, the account of the browser's session cookie (server/auth.py), whose
    seat among several is the hello's `seat`."""
    from boardct.server.accounts import is_api_token
    from boardct.server.auth import accounts_of, seat_choice, socket_account

    account = None
    if token and is_api_token(token):
        account = await accounts_of(ws).by_api_token(token)
        if account is None:
            raise ServiceError("unauthorized", "this API token is unknown or revoked")
        token = None
    elif not token:
        account = await socket_account(ws)
    return await service.authorize(game_id, token, account.id if account else None,
                                   seat_choice(choice))


def _catch_up(service: GameService, live: Live, seat: int | None, since: Any) -> list[dict]:
    """What a client that saw version `since` (as its seat is shown versions,
    `Live.seen_version`) needs: the updates after it if there are few, nothing if it is up to
    date, else one full state."""
    now = live.seen_version(seat)
    recent = (isinstance(since, int) and not isinstance(since, bool)
              and 0 <= since <= now and now - since <= CATCH_UP)
    if recent and since == now:
        return []
    if not recent:
        return [service.state_message(live, seat)]
    state = service.update_state(live, seat)
    return [update_message(live, e, seat, state) for e in live.known_entries(seat, since)]


async def _serve(service: GameService, live: Live, client: Client, limit: int,
                 quotas: Quotas, idle: float) -> None:
    quiet = _QuietWatch(client.websocket, idle)
    try:
        await _serve_messages(service, live, client, limit, quotas, quiet)
    finally:
        await quiet.stop()


class _QuietWatch:
    """Closes the socket once it has said nothing for `idle` seconds (0: never) while the
    server waited for it: one timer a connection, re-armed only when it fires (every `idle`
    seconds at most), not a timer made and cancelled around every message read (asyncio's
    timeout: a few percent of a move's CPU)."""

    def __init__(self, ws: WebSocket, idle: float,
                 loop: asyncio.AbstractEventLoop | None = None):
        self.ws = ws
        self.idle = idle
        # the running loop; tests pass one whose clock they move by hand, so that a loaded
        # machine's late wake-ups cannot turn "heard within the timeout" into silence
        self.loop = loop or asyncio.get_running_loop()
        self.heard: float | None = self.loop.time()  # None: a message is being handled
        self.closing: asyncio.Task | None = None
        self.timer = self.loop.call_at(self.heard + idle, self._check) if idle > 0 else None

    def busy(self) -> None:
        self.heard = None

    def waiting(self) -> None:
        self.heard = self.loop.time()

    def _check(self) -> None:
        now = self.loop.time()
        due = now + self.idle if self.heard is None else self.heard + self.idle
        if now < due:
            self.timer = self.loop.call_at(due, self._check)
            return
        self.timer = None
        self.closing = self.loop.create_task(_close_with(
            self.ws, "idle", f"nothing heard for {self.idle:g} s: closed (send a ping now and "
                             "then to stay)", 1001))

    async def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        if self.closing is not None:
            await self.closing


async def _serve_messages(service: GameService, live: Live, client: Client, limit: int,
                          quotas: Quotas, quiet: _QuietWatch) -> None:
    bad = 0
    ws = client.websocket
    while True:
        quiet.waiting()
        try:
            msg = await receive_message(ws, limit)
        except BadFrame as exc:
            bad += 1
            if bad >= MAX_BAD_FRAMES:
                await _close_with(ws, exc.code, "too many bad messages")
                return
            await client.send({"type": "error", "code": exc.code, "message": exc.message})
            continue
        if msg is None:
            return
        quiet.busy()
        bad = 0
        kind = msg["type"]
        msg_id = msg.get("id")
        try:
            if kind == "ping":
                await client.send({"type": "pong"})
            elif kind == "move":
                text = msg.get("text")
                version = msg.get("version")
                if not isinstance(text, str):
                    raise ServiceError("bad_request", "text: the action in the game's notation")
                if msg_id is not None and not isinstance(msg_id, str):
                    raise ServiceError("bad_request", "id: a text")
                if client.seat is not None:
                    quotas.hit("move", f"{live.id}:{client.seat}")
                ack = await service.submit(live.id, client.seat, text, move_id=msg_id,
                                           version=version)
                if client.ack_in_update and msg_id is not None and not ack.get("again"):
                    # the move's update, on its way (after_change), carries its id: nothing
                    # ran between the commit and here, so it has not been built yet
                    client.owed.add(msg_id)
                else:
                    await client.send({"type": "ack", "id": msg_id,
                                       "version": ack["version"], "events": ack["events"]})
            elif kind == "resign":
                if client.seat is None:
                    raise ServiceError("forbidden", "a spectator cannot resign")
                if msg_id is not None and not isinstance(msg_id, str):
                    raise ServiceError("bad_request", "id: a text")
                quotas.hit("move", f"{live.id}:{client.seat}")
                ack = await service.end(live.id, END_KINDS[0], client.seat, move_id=msg_id)
                await client.send({"type": "ack", "id": msg_id, "version": ack["version"],
                                   "events": ack["events"]})
            elif kind == "state":
                # the game as held now (it may have left memory and come back meanwhile)
                live = await service.get(live.id)
                await client.send(service.state_message(live, client.seat))
            elif kind in service.ws_handlers:
                await service.ws_handlers[kind](service, live, client, msg)
            elif kind == "hello":
                raise ServiceError("bad_request", "hello is said once")
            else:
                raise ServiceError("bad_request", f"unknown message type {kind[:40]!r}")
        except ServiceError as exc:
            if kind in ("move", "resign") or msg_id is not None:
                await client.send(reject(msg_id, exc))
            else:
                await client.send({"type": "error", "code": exc.code, "message": exc.message})
        except QuotaExceeded as exc:
            over = {"code": "too_many_requests", "message": str(exc),
                    "retry_after": exc.retry_after}
            if kind in ("move", "resign") or msg_id is not None:
                await client.send({"type": "reject", "id": msg_id, "rule": None} | over)
            else:
                await client.send({"type": "error"} | over)


async def _close_with(ws: WebSocket, code: str, message: str, close_code: int = 1008,
                      retry_after: int | None = None) -> None:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if retry_after is not None:
        msg["retry_after"] = retry_after
    try:
        await ws.send_json(msg)
        await ws.close(code=close_code)
    except Exception:  # already gone
        pass
