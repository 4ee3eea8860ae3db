"""Websocket subscribers per game, and the broadcast of updates to them.

Each connection acts for one seat or a spectator; an update is built and turned into JSON
text once per broadcast for each seat that has connections (messages.py), and that text is
sent to every connection of the seat. A connection that cannot take a message (gone, or too
slow) is dropped; the client resyncs when it reconnects.

The hub also counts the connections open from each client address (`Hub.opened`), for the
cap on sockets per client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardct.server.messages import encode, update_message

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
    stuck: bool = False  # a send of it outlasted SEND_TIMEOUT (the watchdog ended it)
    # The client asked for its moves' acknowledgements in their updates (hello's
    # `ack_in_update`): the ids of its applied moves whose update it has not been sent yet.
    # The update of each carries the move's `id` and stands for the `ack` (one frame fewer).
    ack_in_update: bool = False
    owed: set[str] = field(default_factory=set)

    async def send(self, message: dict | str) -> bool:
        """Send a message (or its JSON text, already encoded); False: the client is gone."""
        text = message if isinstance(message, str) else encode(message)
        async with self.lock:  # one message at a time on a connection
            if self.stuck:
                return False
            task = asyncio.current_task()
            # No timer a message (asyncio.timeout made and cancelled one for every frame,
            # though nearly every send is over at once): the watchdog looks at the sends
            # under way now and then and ends one that has waited too long.
            _SENDING[self] = (time.monotonic(), task)
            _watch()
            try:
                await self.websocket.send_text(text)
                return True
            except asyncio.CancelledError:
                if not self.stuck or task is None:
                    raise
                task.uncancel()  # the watchdog's cancel: this send only, not the caller
                return False
            except Exception:  # closed or stuck: the client resyncs on reconnect
                return False
            finally:
                _SENDING.pop(self, None)


# The sends under way, with when each began and its task; the watchdog's task of this loop.
_SENDING: dict[Client, tuple[float, asyncio.Task | None]] = {}
_WATCHDOG: list[asyncio.Task] = []


def _watch() -> None:
    """Start the watchdog of slow sends in this event loop unless it runs already."""
    loop = asyncio.get_running_loop()
    if _WATCHDOG and not _WATCHDOG[0].done() and _WATCHDOG[0].get_loop() is loop:
        return
    _WATCHDOG[:] = [loop.create_task(_watchdog())]


async def _watchdog() -> None:
    """While sends are under way: every fraction of SEND_TIMEOUT, cancel each send that has
    waited longer than it (that client is dropped; it resyncs when it reconnects)."""
    loop = asyncio.get_running_loop()
    while _SENDING:
        await asyncio.sleep(SEND_TIMEOUT / 4)
        late = time.monotonic() - SEND_TIMEOUT
        for client, (since, task) in list(_SENDING.items()):
            if since <= late and task is not None and task.get_loop() is loop \
                    and not task.done():
                client.stuck = True
                task.cancel()


class Hub:
    """The connected clients of this process, by game."""

    def __init__(self) -> None:
        self.games: dict[str, set[Client]] = {}
        self.sockets: dict[str, int] = {}  # client address -> websockets open from it

    def opened(self, address: str, cap: int) -> bool:
        """Count a websocket opened from `address`; False (not counted) when `cap` (0: no
        cap) are open from it already. Each one counted is given back by `closed`."""
        n = self.sockets.get(address, 0)
        if cap and n >= cap:
            return False
        self.sockets[address] = n + 1
        return True

    def closed(self, address: str) -> None:
        n = self.sockets.get(address, 0) - 1
        if n > 0:
            self.sockets[address] = n
        else:
            self.sockets.pop(address, None)

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
        by_seat: dict[int | None, list[Client]] = {}
        for c in clients:
            by_seat.setdefault(c.seat, []).append(c)
        sends = []
        for seat, mine_clients in by_seat.items():
            mine = [e for e in entries if e.known_to(seat)]
            if not mine:
                continue
            # what changed of the seat's state, built once and encoded once for all of its
            # connections; each entry's own events with it
            state = service.update_state(live, seat)
            msgs = [update_message(live, e, seat, state) for e in mine]
            texts: list[str | None] = [None] * len(msgs)  # encoded when a client needs them
            for c in mine_clients:
                sends.append(self._send_all(c, _texts_for(c, mine, msgs, texts)))
        await _all(sends)

    async def send_to(self, game_id: str, message_for: Any) -> None:
        """Send each client of `game_id` the message `message_for(seat)` (None: nothing), for
        other modules' messages (chat, offers)."""
        clients = list(self.games.get(game_id, ()))
        sends = []
        texts: dict[int | None, str | None] = {}  # built and encoded once a seat
        for c in clients:
            if c.seat not in texts:
                msg = message_for(c.seat)
                texts[c.seat] = None if msg is None else encode(msg)
            text = texts[c.seat]
            if text is not None:
                sends.append(self._send_all(c, [text]))
        await _all(sends)

    async def _send_all(self, client: Client, msgs: list[dict] | list[str]) -> None:
        for m in msgs:
            if not await client.send(m):
                self.remove(client)
                with contextlib.suppress(Exception):  # already gone
                    await client.websocket.close(code=1011)
                return


def _texts_for(client: Client, entries: list[Any], msgs: list[dict],
               texts: list[str | None]) -> list[str]:
    """The texts of the updates for `client`: the seat's (each encoded once, by the first
    client that needs it, then shared), but the update of a move the client is owed the
    acknowledgement of carries the move's `id` (its ack), encoded for it alone."""
    out = []
    for i, (e, msg) in enumerate(zip(entries, msgs, strict=True)):
        if client.owed and e.move_id is not None and e.move_id in client.owed \
                and e.seat == client.seat:
            client.owed.discard(e.move_id)
            out.append(encode({**msg, "id": e.move_id}))
            continue
        text = texts[i]
        if text is None:
            text = texts[i] = encode(msg)
        out.append(text)
    return out


async def _all(sends: list[Any]) -> None:
    """Run the sends at once (a slow connection does not hold up the others): each but the
    last in a task of its own, the last awaited here meanwhile (a task fewer a broadcast: a
    move's update goes to two connections or so, and a send that does not have to wait for
    the client is over before a task would have started)."""
    if not sends:
        return
    tasks = [asyncio.ensure_future(s) for s in sends[:-1]]
    try:
        await sends[-1]
    finally:
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
