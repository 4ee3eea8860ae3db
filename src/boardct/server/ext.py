"""The server's extension point for games: what a game's own server module may use.

A game names its server module in `Game.frontends.server`. When the app is built the server
imports that module and calls its `install(ext)` once with a `ServerExtension` for the game;
the module adds its routes to `ext.router` and its parts of the state message with
`ext.state_part`. The module imports only this module of the server (everything it needs is
re-exported here), and the server knows the game only through it: no game id appears in the
server's own code.

What the extension gives:
- `router`: a FastAPI `APIRouter` with the API's prefix (`/api/v1`), tagged with the game's
  id, so the OpenAPI docs list the game's routes under it;
- `await ext.seat(request, game_id)`: the live game and the caller's seat (None: a spectator)
  for the request's `Authorization: Bearer <seat token>`; a game of another id is `not_found`
  (the game's routes exist only for its own games) and nothing else happens;
- `read_object(request)`, `field(body, name, kind, ...)`: the body read bounded, as the
  server's own routes read it; `ServiceError(code, message, rule)`: a refusal, answered as
  the server's JSON error;
- `await ext.submit(live, seat, text, move_id)`: the service's one path of every move
  (`GameService.submit`, which goes through `core.moves.submit`): committed before it is
  acknowledged, then broadcast;
- `await ext.locked(live, fn, *args)`: `fn(*args)` on a consistent state: under the game's
  lock (no move lands meanwhile), in a worker thread (the event loop keeps serving);
- `ext.state_part(fn)`: `fn(live, seat) -> dict`, merged into the `parts` of every state
  message about a game of this id, built for that message's seat (messages.py).

The rule of a state part: it is computed only from what that seat may know, the seat's
`view(seat)` and its events through `events_for(events, seat)`, or the game's own functions
that filter the same way; a spectator's part (seat None) holds only what `view(None)` holds.
A part is built for every state message, so it is cheap or cached (per version and seat).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request

from boardct.core.game import Game
from boardct.server.api import body_doc, field, read_object, service_of
from boardct.server.live import Live, ServiceError, iso
from boardct.server.messages import StatePart

__all__ = ["API_PREFIX", "Live", "Request", "ServerExtension", "ServiceError", "StatePart",
           "body_doc", "deadline", "field", "read_object"]

API_PREFIX = "/api/v1"

T = TypeVar("T")


def deadline(live: Live) -> str | None:
    """The game's current deadline (ISO 8601, UTC), None when it has none."""
    return iso(live.deadline_at)


class ServerExtension:
    """What one game's server module gets from the server (see the module docstring)."""

    def __init__(self, game: Game):
        self.game = game
        self.router = APIRouter(prefix=API_PREFIX, tags=[game.id])
        self.parts: list[StatePart] = []
        self._service: Any = None

    def __repr__(self) -> str:
        return f"<ServerExtension {self.game.id}>"

    # -- wiring (the app) ----------------------------------------------------------------------
    def bind(self, service: Any) -> None:
        """At start-up, once the service exists: the parts go into its state messages for
        games of this id, and `submit` acts through it."""
        self._service = service
        service.state_parts[self.game.id] = self.parts

    @property
    def service(self) -> Any:
        if self._service is None:
            raise RuntimeError(f"the server of {self.game.id} has not started")
        return self._service

    # -- for the game's module -----------------------------------------------------------------
    async def seat(self, request: Request, game_id: str, what: str = "such route"
                   ) -> tuple[Live, int | None]:
        """The live game `game_id` and the seat the request's token holds in it (None: a
        spectator). A game of another id is `not_found` ("<its title> has no <what>"),
        decided before the token is looked at, so such a request changes nothing."""
        service = service_of(request)
        live = await service.get(game_id)
        if live.game.id != self.game.id:
            raise ServiceError("not_found", f"{live.game.title} has no {what}")
        from boardct.server.auth import seat_caller

        return await seat_caller(request, game_id)

    async def submit(self, live: Live, seat: int | None, text: str,
                     move_id: str | None = None) -> dict:
        """`seat` plays `text` in the game's notation, through the service's one path of
        every move. Returns the acknowledgement {"ack": true, "version", "events"}."""
        return await self.service.submit(live.id, seat, text, move_id=move_id)

    async def locked(self, live: Live, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` under the game's lock, in a worker thread: the state does not change
        while `fn` reads it, and the event loop keeps serving other games meanwhile."""
        async with live.lock:
            return await asyncio.to_thread(fn, *args)

    def state_part(self, fn: StatePart) -> StatePart:
        """Add `fn(live, seat) -> dict` to the `parts` of this game's state messages (usable as
        a decorator). `fn` keeps the rule of the module docstring."""
        self.parts.append(fn)
        return fn
