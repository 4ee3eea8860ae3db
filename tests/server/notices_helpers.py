"""What the notification tests receive notices with: a real SMTP server on 127.0.0.1
(aiosmtpd) and a local HTTP receiver for Apprise's JSON webhook URLs (`json://127.0.0.1:PORT/`),
and the app with a fast sender."""

from __future__ import annotations

import email
import email.policy
import json
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("aiosmtpd", reason="the notification tests need aiosmtpd (test extra)")
pytest.importorskip("apprise", reason="notification URLs need apprise (server extra)")

from aiosmtpd.controller import Controller  # noqa: E402
from server_live import free_port  # noqa: E402

from boardct.server.app import create_app  # noqa: E402
from boardct.server.config import ServerConfig  # noqa: E402
from conftest import API, NO_MOVE_QUOTA, Api  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

WAIT = 30.0
FAST_HASH = {"argon2_time_cost": 1, "argon2_memory_kib": 1024}
PASSWORD = "correct horse battery staple"


class _Handler:
    def __init__(self, box: Mailbox):
        self.box = box

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.box.lock:
            self.box.tries += 1
            if self.box.refuse:
                return self.box.refuse
            msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
            self.box.messages.append((list(envelope.rcpt_tos), msg))  # type: ignore[arg-type]
        return "250 OK"


class Mailbox:
    """An SMTP server on 127.0.0.1 that keeps what it is given (`refuse`: the reply it gives
    every message instead, e.g. "554 ...": a refusal)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.tries = 0
        self.refuse: str | None = None
        self.port = free_port()
        self.controller = Controller(_Handler(self), hostname="127.0.0.1", port=self.port)

    def start(self) -> Mailbox:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.controller.stop()

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?from=games@boardct.test"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for rcpt, m in self.messages if address in rcpt]

    def all(self) -> list[tuple[list[str], EmailMessage]]:
        with self.lock:
            return list(self.messages)


class Webhook:
    """An HTTP server on 127.0.0.1 taking Apprise's JSON posts (`url`: json://...)."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size) or b"{}")
                with hook.lock:
                    hook.posts.append({"path": self.path, "body": body})
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Webhook:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str = "hook") -> str:
        return f"json://127.0.0.1:{self.server.server_address[1]}/{path}"

    def at(self, path: str = "hook") -> list[dict[str, Any]]:
        with self.lock:
            return [p["body"] for p in self.posts if p["path"] == "/" + path]


@contextmanager
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox().start()
    try:
        yield box
    finally:
        box.stop()


@contextmanager
def webhook() -> Iterator[Webhook]:
    hook = Webhook().start()
    try:
        yield hook
    finally:
        hook.stop()


def notice_app(db_url: str, smtp_url: str | None, **settings: Any) -> TestClient:
    """The app on `db_url` with e-mail through `smtp_url` (and notification URLs allowed on
    127.0.0.1, where the test's webhook listens); the sender does not run by itself
    (`notice_send=False`): each test sends with `send(client)`, so what is sent when is
    certain. Back-off and throttle are short unless `settings` say otherwise. The move
    quota is off unless `quotas` names it (conftest.NO_MOVE_QUOTA)."""
    values: dict[str, Any] = {"notice_send": False, "notice_backoff": 0.01,
                              "notice_private_urls": True,  # the webhook is on 127.0.0.1
                              "notice_attempts": 3, "notice_throttle": 0,
                              "public_url": "http://games.test"} | FAST_HASH | settings
    values["quotas"] = NO_MOVE_QUOTA | settings.get("quotas", {})
    config = ServerConfig(db_url=db_url, agent_workers=0, smtp_url=smtp_url, **values)
    return TestClient(create_app(config))


def send(client: TestClient) -> int:
    """Run the sender until nothing is due: how many notices it handled."""
    app: Any = client.app

    async def run() -> int:
        await app.state.service.settle()
        total = 0
        while True:
            done = await app.state.notices.send_due()
            total += done
            if not done:
                return total

    return client.portal.call(run)


def sign_up(client: TestClient, username: str, email_address: str | None) -> dict:
    r = client.post(f"{API}/account/signup", json={"username": username, "password": PASSWORD,
                                                   "email": email_address})
    assert r.status_code == 201, r.text
    return r.json()["account"]


def contact(api: Api, gid: str, token: str, **body: Any) -> dict:
    r = api.client.put(f"{API}/games/{gid}/contact", json=body, headers=api.h(token))
    assert r.status_code == 200, r.text
    return r.json()["contact"]


def seat_notices(api: Api, gid: str, token: str) -> list[dict]:
    r = api.get(f"/games/{gid}/notices", token)
    assert r.status_code == 200, r.text
    return r.json()["notices"]


def wait_until(pred: Callable[[], Any], timeout: float = WAIT, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what or pred}")
        time.sleep(0.05)


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(("plain",))
    assert part is not None
    return part.get_content().replace("\r\n", "\n")
