"""A websocket that says nothing for the idle timeout is closed (issue 31: idle timeout),
timed by one timer a connection (`ws._QuietWatch`) rather than one made around every read:
the time the server spends handling a message is not silence, and a socket heard from
again stays open. The end-to-end check through a real server: test_quotas.py.

The watch runs here on a loop whose clock the test moves (`HandClock`), not on wall time: on
a loaded machine a 40 ms sleep can take 100 ms, and the test would then see the silence it
means to rule out."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from boardct.server.ws import _QuietWatch


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[object] = []

    async def send_json(self, msg: dict) -> None:
        self.sent.append(msg)

    async def close(self, code: int = 1000) -> None:
        self.sent.append(code)


class _Timer:
    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class HandClock:
    """The three loop methods the watch uses, on a clock that moves only in `advance`."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[_Timer] = []
        self.tasks: list[Any] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> _Timer:
        timer = _Timer(when, callback)
        self.timers.append(timer)
        return timer

    def create_task(self, coro: Any) -> Any:
        self.tasks.append(coro)  # awaited by the watch's stop()
        return coro

    def advance(self, seconds: float) -> None:
        """Move the clock, firing every timer that falls due on the way, in time order."""
        end = self.now + seconds
        while True:
            due = [t for t in self.timers if not t.cancelled and t.when <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.when)
            self.timers.remove(timer)
            self.now = max(self.now, timer.when)
            timer.callback()
        self.now = end


def watched(idle: float) -> tuple[FakeSocket, HandClock, _QuietWatch]:
    sock, clock = FakeSocket(), HandClock()
    return sock, clock, _QuietWatch(sock, idle, loop=clock)  # type: ignore[arg-type]


def test_a_socket_is_not_closed_as_idle_while_its_message_is_handled():
    sock, clock, quiet = watched(0.05)
    quiet.busy()  # a move being played (a slow commit, a hint's search)
    clock.advance(0.25)
    assert clock.tasks == []
    quiet.waiting()  # answered: now waiting for the client again
    clock.advance(0.04)
    assert clock.tasks == []  # not yet: the silence started at the answer
    clock.advance(0.02)
    asyncio.run(quiet.stop())
    assert sock.sent[0]["code"] == "idle" and sock.sent[1] == 1001


def test_a_socket_heard_from_within_the_timeout_stays_open():
    sock, clock, quiet = watched(0.1)
    for _ in range(8):  # a message every 0.04 s for 0.32 s: three timeouts' worth
        clock.advance(0.04)
        quiet.busy()
        quiet.waiting()
    assert clock.tasks == [] and sock.sent == []
    clock.advance(0.11)  # then silence longer than the timeout: closed
    asyncio.run(quiet.stop())
    assert sock.sent[0]["code"] == "idle" and sock.sent[1] == 1001


def test_the_watch_is_re_armed_at_most_once_a_timeout():
    """One timer a connection: messages do not make timers, only the timer's own firing does."""
    _, clock, quiet = watched(0.1)
    for _ in range(100):  # a hundred messages inside one timeout
        quiet.busy()
        quiet.waiting()
    assert len(clock.timers) == 1
    clock.advance(0.05)
    quiet.busy()
    quiet.waiting()
    clock.advance(0.06)  # the first timer fires, sees the message, re-arms once
    assert len([t for t in clock.timers if not t.cancelled]) == 1 and clock.tasks == []


def test_no_timeout_means_no_timer():
    sock = FakeSocket()

    async def run() -> None:
        quiet = _QuietWatch(sock, 0)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        assert quiet.timer is None
        await quiet.stop()

    asyncio.run(run())
    assert sock.sent == []
