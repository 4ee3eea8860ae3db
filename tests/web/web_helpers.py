"""Fixtures and helpers of the browser tests (tests/web, issue 19): a real `boardct serve` on
127.0.0.1 with a fresh SQLite database per test module (`server`; `fresh_server`: one per
test), driven by Playwright for Python through Debian's Chromium; pages with their JavaScript
errors recorded, screenshots, waiting for a drawn version.

Playwright's own browser download is not available here, so the tests launch
/usr/bin/chromium (BOARDCT_CHROMIUM overrides it). Without Playwright or without a Chromium the
browser tests are skipped with the reason printed in the `-ra` summary, never silently.

A module of its own, not a conftest.py: the test modules import the fixtures from it, so no
`conftest` module name is shared with another test folder (tests/server imports from its own).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
ARTIFACTS = ROOT / "artifacts" / "screenshots"
TIMEOUT_MS = 30_000  # generous: the suite shares two cores with other work

CHROMIUM = Path(os.environ.get("BOARDCT_CHROMIUM", "/usr/bin/chromium"))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser tests skipped: playwright is not installed (pip install 'boardct[web]')"
    if not CHROMIUM.exists():
        return (f"browser tests skipped: {CHROMIUM} not found (apt-get install chromium, "
                f"or set BOARDCT_CHROMIUM)")
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        return "browser tests skipped: the server extra (fastapi, uvicorn) is not installed"
    return None


SKIP = _skip_reason()


# Every browser test module sets `pytestmark = needs_browser`: without Playwright or Chromium
# the tests are skipped with the reason in the `-ra` summary, never silently.
needs_browser = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


# The shared server's quotas: the rates and caps are per client address, and every test of a
# module comes from 127.0.0.1, so a module's tests together would pass the defaults meant for
# one client (20 games a minute...) and fail on a 429 that says nothing about the page under
# test. The quotas themselves are tested in tests/server (and `fresh_server` keeps them).
SHARED_SERVER_ARGS = ["--quota", "create=none", "--quota", "socket=none",
                      "--quota", "signup=none", "--quota", "signin=none",
                      "--max-open-games", "0", "--max-sockets", "0"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One `boardct serve` (a fresh SQLite database) for all the tests of a module: starting
    a server costs more than most page checks, so the tests share it. Each test makes the
    games (and accounts, by names of its own) it looks at and opens its pages in fresh
    browser contexts: what another test left behind (other games in the lobby) changes
    nothing it checks."""
    srv = Server(tmp_path_factory.mktemp("web-server"), extra_args=SHARED_SERVER_ARGS)
    srv.start()
    yield srv
    srv.stop()
    srv.http.close()


@pytest.fixture
def fresh_server(tmp_path):
    """A server of the test's own, at the default quotas: for a test that stops and restarts
    it (the module's other tests would see it gone)."""
    srv = Server(tmp_path)
    srv.start()
    yield srv
    srv.stop()
    srv.http.close()


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the tests of a module, stopped after them: Playwright's sync API keeps
    an event loop running in the thread while it is open, and a test of another folder run
    after a browser test in the same process (pytest-xdist runs files in any order) must be
    able to call `asyncio.run`."""
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS,
                                     headless=True)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        pw.stop()


@pytest.fixture
def pages(chromium):
    p = Pages(chromium)
    yield p
    p.close()
    assert not p.errors, f"JavaScript errors on the pages: {p.errors}"



def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running `boardct serve` and a small REST client for setting games up."""

    def __init__(self, tmp_path: Path, extra_args: list[str] | None = None):
        import httpx

        self.port = _free_port()
        self.db = tmp_path / "boardct.sqlite"
        self.log = tmp_path / "server.log"
        self.cwd = tmp_path
        self.base = f"http://127.0.0.1:{self.port}"
        self.extra_args = list(extra_args or [])
        self.proc: subprocess.Popen | None = None
        self.http = httpx.Client(base_url=self.base + "/api/v1", timeout=20)

    def start(self) -> None:
        env = dict(os.environ,
                   PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        cmd = [sys.executable, "-m", "boardct", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", f"sqlite:///{self.db.as_posix()}",
               *self.extra_args]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env,
                                         cwd=self.cwd)
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise AssertionError("boardct serve exited: "
                                     + self.log.read_text(errors="replace")[-3000:])
            try:
                if self.http.get("/catalog", timeout=1).status_code == 200:
                    return
            except Exception:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError("boardct serve did not start: "
                                     + self.log.read_text(errors="replace")[-3000:])
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def api(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, path, json=body, headers=headers)

    def ok(self, method: str, path: str, body=None, token: str | None = None):
        r = self.api(method, path, body, token)
        assert r.status_code < 300, f"{method} {path} -> {r.status_code} {r.text}"
        return r.json()

    def create(self, game: str, seats: list[dict], **extra) -> dict:
        body = {"game": game, "options": extra.pop("options", {}), "seats": seats,
                "public": True, **extra}
        return self.ok("POST", "/games", body)

    def state(self, game_id: str, token: str | None = None) -> dict:
        return self.ok("GET", f"/games/{game_id}", token=token)

    def move(self, game_id: str, token: str, text: str) -> dict:
        return self.ok("POST", f"/games/{game_id}/moves", {"text": text}, token)

    def url(self, path: str) -> str:
        return self.base + path


class Pages:
    """Opens pages in fresh contexts (one per player: separate localStorage) and records
    every JavaScript error, so a test fails on a page that threw."""

    def __init__(self, browser):
        self.browser = browser
        self.contexts = []
        self.errors: list[str] = []

    def new(self, width: int = 1280, height: int = 800):
        ctx = self.browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        return page

    def close(self):
        for c in self.contexts:
            c.close()



def shot(page, name: str) -> Path:
    """Save a screenshot as a test artifact (artifacts/screenshots/<name>.png)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def wait_version(page, version: int) -> None:
    """Wait until the page has drawn the state message of `version` (or a later one)."""
    page.wait_for_function(
        "v => Number(document.body.dataset.version || -1) >= v", arg=version, timeout=TIMEOUT_MS)


def type_move(page, text: str) -> None:
    """Play `text` as typed into the page's command box."""
    page.fill("#command-input", text)
    page.press("#command-input", "Enter")


def notice_with(page, words: str) -> str:
    """Wait until the page's notice says `words`, and return the whole notice. Not merely
    until it shows: an earlier refusal or confirmation may be there first."""
    page.wait_for_function("w => !document.getElementById('notice').hidden && "
                           "document.getElementById('notice').innerText.includes(w)",
                           arg=words, timeout=TIMEOUT_MS)
    return page.inner_text("#notice")


def claim(page, server: Server, game_id: str, invite: str, name: str) -> None:
    """Open an invite link, take the seat under `name`, and wait for the board."""
    page.goto(server.url(f"/play/{game_id}?invite={invite}"))
    page.fill("#claim-name", name)
    page.click("#claim-go")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#conn.live")


def frames_json(frames: list[str]) -> list[dict]:
    out = []
    for f in frames:
        with contextlib.suppress(TypeError, ValueError):
            out.append(json.loads(f))
    return out


def page_token(page, game_id: str) -> str:
    """The seat token the page keeps in localStorage (claiming an invite revokes the creation
    token, so the test acts for that seat with this one)."""
    token = page.evaluate("id => localStorage.getItem('boardct:seat:' + id)", game_id)
    assert token, "the page holds no seat token"
    return token
