"""A small synchronous client of a live `boardct serve` (REST with httpx, the websocket of
protocol version 1 with websockets' sync client), for the tests that run the server as a real
process: restart, SIGKILL, two workers, deadlines; and that process itself (`ServerProcess`,
`serving`: the `serve` fixture's body)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
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
            # an update carries what changed: merged into the state this seat has
            self.state = {**(self.state or {}), **msg["state"]}
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


START_TIMEOUT = 90.0  # seconds: eight developers share two cores; a cold start can be slow


class ServerProcess:
    """`boardct serve` run as a real process (python -m boardct serve) on 127.0.0.1.

    `start()` waits until the server answers HTTP; `kill()` is SIGKILL (no clean shutdown:
    the durability test's crash), `stop()` a polite terminate; `start()` again reuses the same
    port and database, so a restart is `kill(); start()`."""

    def __init__(self, db: str, tmp: Path, workers: int = 1, port: int | None = None,
                 extra: tuple[str, ...] = (), env: dict[str, str] | None = None):
        self.db = db
        self.tmp = tmp
        self.workers = workers
        self.port = port or free_port()
        self.extra = extra
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self.log_path = tmp / f"serve-{self.port}.log"
        self.starts = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "boardct", "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--db", self.db, "--workers", str(self.workers),
                *self.extra]

    def start(self, timeout: float = START_TIMEOUT) -> ServerProcess:
        env = dict(os.environ)
        env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
        env.update(self.env)
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"--- start {self.starts}: {' '.join(self.command())}\n".encode())
        log.flush()
        self.proc = subprocess.Popen(self.command(), cwd=self.tmp, env=env, stdout=log,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=sys.platform != "win32")
        log.close()
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"boardct serve exited with {self.proc.returncode}:\n"
                                   + self.log())
            try:
                r = httpx.get(self.base_url + "/api/v1/catalog", timeout=2.0)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"boardct serve did not answer in {timeout:.0f} s:\n" + self.log())

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def _signal(self, sig: int) -> None:
        assert self.proc is not None
        if sys.platform == "win32":  # no process groups: the server process alone
            self.proc.kill() if sig == getattr(signal, "SIGKILL", None) else self.proc.terminate()
        else:  # its own session: uvicorn's worker processes get the signal too
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL: the server dies with no chance to flush or close anything."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """A polite stop (SIGTERM), then SIGKILL if it does not go within 20 s."""
        if self.proc is not None and self.proc.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def serving(tmp: Path) -> Iterator[Callable[..., ServerProcess]]:
    """The body of a `serve` fixture (tests/server's, and a game's tests that run the server
    as a process): a factory `serve(db_url, workers=1)` that starts `boardct serve` and waits
    until it answers; every server it started is stopped when the generator is closed."""
    started: list[ServerProcess] = []

    def start(db: str, workers: int = 1, port: int | None = None,
              extra: tuple[str, ...] = (), env: dict[str, str] | None = None) -> ServerProcess:
        server = ServerProcess(db, tmp, workers=workers, port=port, extra=extra, env=env)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()
