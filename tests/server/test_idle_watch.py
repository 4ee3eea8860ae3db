"""A websocket that says nothing for the idle timeout is closed (issue 31: idle timeout),
timed by one timer a connection (`ws._QuietWatch`) rather than one made around every read:
the time the server spends handling a message is not silence, and a socket heard from
again stays open. The end-to-end check through a real server: test_quotas.py."""

from __future__ import annotations

import asyncio

from boardct.server.ws import _QuietWatch


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[object] = []

    async def send_json(self, msg: dict) -> None:
        self.sent.append(msg)

    async def close(self, code: int = 1000) -> None:
        self.sent.append(code)


def test_a_socket_is_not_closed_as_idle_while_its_message_is_handled():
    sock = FakeSocket()

    async def run() -> None:
        quiet = _QuietWatch(sock, 0.05)
        quiet.busy()  # a move being played (a slow commit, a hint's search)
        await asyncio.sleep(0.25)
        assert sock.sent == []
        quiet.waiting()  # answered: now waiting for the client again
        await asyncio.sleep(0.25)
        await quiet.stop()

    asyncio.run(run())
    assert sock.sent[0]["code"] == "idle" and sock.sent[1] == 1001


def test_a_socket_heard_from_within_the_timeout_stays_open():
    sock = FakeSocket()

    async def run() -> None:
        quiet = _QuietWatch(sock, 0.1)
        for _ in range(8):  # a message every 0.04 s for 0.32 s: three timeouts' worth
            await asyncio.sleep(0.04)
            quiet.busy()
            quiet.waiting()
        await quiet.stop()

    asyncio.run(run())
    assert sock.sent == []


def test_no_timeout_means_no_timer():
    sock = FakeSocket()

    async def run() -> None:
        quiet = _QuietWatch(sock, 0)
        await asyncio.sleep(0.05)
        assert quiet.timer is None
        await quiet.stop()

    asyncio.run(run())
    assert sock.sent == []
