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
    """The hub sends to each connection at once: the reader has its message before the stuck
    one is dropped (an order, not a time: a loaded machine may be slow to wake either), and the
    stuck one is removed from the game and closed."""
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.3)

    class StuckBesideReader(Stuck):
        def __init__(self, reader: Reader) -> None:
            super().__init__()
            self.reader = reader
            self.reader_had: list[str] | None = None

        async def close(self, code: int = 1000) -> None:
            self.reader_had = list(self.reader.texts)  # what the reader had when this dropped
            self.closed = code

    async def run() -> tuple[list[str], int, StuckBesideReader]:
        h = Hub()
        reader = Reader()
        stuck = StuckBesideReader(reader)
        h.add(Client("g", 0, reader))
        h.add(Client("g", 1, stuck))
        await h.send_to("g", lambda seat: {"type": "chat", "to": seat})
        return reader.texts, h.count("g"), stuck

    texts, left, stuck = asyncio.run(run())
    assert texts == ['{"type":"chat","to":0}']
    assert stuck.reader_had == texts
    assert left == 1 and stuck.closed == 1011


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
