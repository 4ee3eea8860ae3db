"""Websocket subscribers per game, and the broadcast of updates to them.

Each connection acts for one seat or a spectator; an update is built for each seat once per
broadcast (messages.py) and sent to every connection of that seat. A connection that cannot
take a message (gone, or too slow) is dropped; the client resyncs when it reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardct.server.messages import update_message

if TYPE_CHECKING:  # pragma: no cover
    from boardct.server.service import GameService, Live

log = logging.getLogger("boardct.server")
SEND_TIMEOUT = 10.0  # seconds a client may take to accept one message before it is dropped


@dataclass(eq=False)
class Client:
    """One websocket connection: its game, its seat (None: a spectator), and `send`."""

    game_id: str
    seat: int | None
    websocket: Any
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict) -> bool:
        async with self.lock:  # one message at a time on a connection
            try:
                await asyncio.wait_for(self.websocket.send_json(message), SEND_TIMEOUT)
                return True
            except Exception:  # closed or stuck: the client resyncs on reconnect
                return False


class Hub:
    """The connected clients of this process, by game."""

    def __init__(self) -> None:
        self.games: dict[str, set[Client]] = {}

    def add(self, client: Client) -> None:
        self.games.setdefault(client.game_id, set()).add(client)

    def remove(self, client: Client) -> None:
        clients = self.games.get(client.game_id)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.games[client.game_id]

    def count(self, game_id: str) -> int:
        return len(self.games.get(game_id, ()))

    async def broadcast(self, service: GameService, live: Live, first: int) -> None:
        """Send every client of `live` the updates from version `first` to now, each built
        for the client's seat."""
        clients = list(self.games.get(live.id, ()))
        if not clients:
            return
        entries = [e for e in live.entries if e.version >= first]
        if not entries:
            return
        # a client hears only of the entries its seat may know of (not another seat's sealed
        # order: even an update with nothing in it would tell that one was handed in)
        states: dict[int | None, dict] = {}
        sends = []
        for c in clients:
            mine = [e for e in entries if e.known_to(c.seat)]
            if not mine:
                continue
            if c.seat not in states:
                states[c.seat] = service.state_message(live, c.seat)
            msgs = [update_message(live, e, c.seat, states[c.seat]) for e in mine]
            sends.append(self._send_all(c, msgs))
        await asyncio.gather(*sends)

    async def send_to(self, game_id: str, message_for: Any) -> None:
        """Send each client of `game_id` the message `message_for(seat)` (None: nothing), for
        other modules' messages (chat, offers)."""
        clients = list(self.games.get(game_id, ()))
        sends = []
        for c in clients:
            msg = message_for(c.seat)
            if msg is not None:
                sends.append(self._send_all(c, [msg]))
        await asyncio.gather(*sends)

    async def _send_all(self, client: Client, msgs: list[dict]) -> None:
        for m in msgs:
            if not await client.send(m):
                self.remove(client)
                with contextlib.suppress(Exception):  # already gone
                    await client.websocket.close(code=1011)
                return
