"""A connection that stops reading is dropped after `hub.SEND_TIMEOUT` (the watchdog of slow
sends), without holding up the other connections or the task that sent to it; a connection
that reads gets every message, in order."""

from __future__ import annotations

import asyncio

import pytest

from boardct.server import hub
from boardct.server.hub import Client, Hub


class Reader:
    """A websocket whose client reads everything at once."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.texts.append(text)

    async def close(self, code: int = 1000) -> None:
        self.closed = code


class Stuck(Reader):
    """A websocket whose client never reads: every send waits for ever."""

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()


def test_a_client_that_reads_gets_every_message_in_order():
    async def run() -> list[str]:
        ws = Reader()
        client = Client("g", 0, ws)
        for i in range(5):
            assert await client.send({"type": "pong", "n": i})
        return ws.texts

    texts = asyncio.run(run())
    assert texts == [f'{{"type":"pong","n":{i}}}' for i in range(5)]


def test_a_client_that_never_reads_is_dropped_after_the_send_timeout(monkeypatch):
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.2)

    async def run() -> tuple[bool, bool, float, bool]:
        loop = asyncio.get_running_loop()
        stuck = Client("g", 0, Stuck())
        t0 = loop.time()
        sent = await stuck.send({"type": "pong"})
        waited = loop.time() - t0
        again = await stuck.send({"type": "pong"})  # a dropped client takes nothing more
        # the task that sent was not cancelled: it goes on
        await asyncio.sleep(0)
        return sent, again, waited, asyncio.current_task().cancelling() == 0

    sent, again, waited, alive = asyncio.run(run())
    assert not sent and not again
    assert 0.2 <= waited < 2.0
    assert alive


def test_a_stuck_connection_does_not_hold_up_the_others(monkeypatch):
    """The hub sends to each connection at once: the reader has its message long before the
    stuck one is dropped, and the stuck one is removed from the game and closed."""
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.3)

    async def run() -> tuple[list[str], float, int, int | None]:
        loop = asyncio.get_running_loop()
        h = Hub()
        reader, stuck = Reader(), Stuck()
        h.add(Client("g", 0, reader))
        h.add(Client("g", 1, stuck))
        t0 = loop.time()
        got_at: list[float] = []

        async def watch() -> None:
            while not reader.texts:
                await asyncio.sleep(0.01)
            got_at.append(loop.time() - t0)

        watcher = asyncio.ensure_future(watch())
        await h.send_to("g", lambda seat: {"type": "chat", "to": seat})
        await watcher
        return reader.texts, got_at[0], h.count("g"), stuck.closed

    texts, got_after, left, closed = asyncio.run(run())
    assert texts == ['{"type":"chat","to":0}']
    assert got_after < 0.3
    assert left == 1 and closed == 1011


def test_a_cancelled_sender_is_still_cancelled():
    """A cancel from outside (the server shutting down) is not taken for the watchdog's."""

    async def run() -> bool:
        client = Client("g", 0, Stuck())
        task = asyncio.ensure_future(client.send({"type": "pong"}))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return client.stuck

    assert asyncio.run(run()) is False
