"""A small synchronous client of a live `boardct serve` (REST with httpx, the websocket of
protocol version 1 with websockets' sync client), for the tests that run the server as a real
process: restart, SIGKILL, two workers, deadlines."""

from __future__ import annotations

import contextlib
import json
import socket
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

SRC = Path(__file__).resolve().parents[2] / "src"
WAIT = 30.0  # seconds a test waits for a message from a loaded machine


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Seat:
    """One seat's websocket connection: hello, then moves and what comes back."""

    def __init__(self, ws_base: str, game_id: str, token: str | None, since: int | None = None):
        from websockets.sync.client import connect

        self.ws = connect(f"{ws_base}/api/v1/games/{game_id}/ws", open_timeout=WAIT,
                          max_size=2**22).__enter__()  # closed by close()
        self.ws.send(json.dumps({"type": "hello", "v": 1, "token": token, "since": since}))
        self.messages: list[dict] = []
        self.welcome = self.wait_for(lambda m: m.get("type") == "welcome")
        self.state: dict | None = None

    def recv(self, timeout: float = WAIT) -> dict:
        msg = json.loads(self.ws.recv(timeout=timeout))
        self.messages.append(msg)
        if msg.get("type") == "state":
            self.state = msg
        elif msg.get("type") == "update" and isinstance(msg.get("state"), dict):
            self.state = msg["state"]
        return msg

    def wait_for(self, pred: Any, timeout: float = WAIT) -> dict:
        """The first message (already received or coming) that `pred` accepts."""
        for msg in self.messages:
            if pred(msg):
                self.messages.remove(msg)
                return msg
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message in {timeout} s; got {self.messages[-5:]}")
            msg = self.recv(left)
            if pred(msg):
                self.messages.remove(msg)
                return msg

    def wait_version(self, version: int, timeout: float = WAIT) -> dict:
        """Wait until a state or update at `version` (or later) arrived; return that state."""
        if self.state is not None and self.state.get("version", -1) >= version:
            return self.state
        self.wait_for(lambda m: m.get("type") in ("state", "update")
                      and m.get("version", (m.get("state") or {}).get("version", -1)) >= version,
                      timeout)
        assert self.state is not None
        return self.state

    def send_move(self, text: str, version: int, move_id: str | None = None) -> str:
        move_id = move_id or uuid.uuid4().hex
        self.ws.send(json.dumps({"type": "move", "id": move_id, "text": text,
                                 "version": version}))
        return move_id

    def answer(self, move_id: str, timeout: float = WAIT) -> dict:
        return self.wait_for(lambda m: m.get("type") in ("ack", "reject")
                             and m.get("id") == move_id, timeout)

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the server may be gone (killed) already
            self.ws.close()


def create_game(base: str, game: str, seats: int | list[dict], **extra: Any) -> dict:
    """POST /api/v1/games; `seats` a number of human seats or the seat list itself."""
    if isinstance(seats, int):
        seats = [{"kind": "human", "name": f"P{i + 1}"} for i in range(seats)]
    body = {"game": game, "options": extra.pop("options", {}), "seats": seats,
            "public": False, **extra}
    r = httpx.post(base + "/api/v1/games", json=body, timeout=WAIT)
    assert r.status_code == 201, r.text
    return r.json()


def get_state(base: str, game_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.get(f"{base}/api/v1/games/{game_id}", headers=headers, timeout=WAIT)
    assert r.status_code == 200, r.text
    return r.json()
