"""Notifications in a real browser: a player whose mail server refuses every notice sees, on
the account page, that a notice could not be delivered, and why (docs/server.md,
"Notifications")."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import time

import pytest
from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    Server,
    chromium,
    claim,
    needs_browser,
    page_token,
    pages,
)

pytestmark = needs_browser
PASSWORD = "correct horse battery"


class Refusing:
    """An SMTP server on 127.0.0.1 that refuses every message."""

    def __init__(self) -> None:
        self.tries = 0

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd)
        self.tries += 1
        return "554 5.7.1 mailbox full"


def test_the_account_page_shows_a_notice_that_could_not_be_delivered(tmp_path, pages,
                                                                      monkeypatch):
    controller_mod = pytest.importorskip("aiosmtpd.controller")
    from web_helpers import _free_port

    handler, port = Refusing(), _free_port()
    smtp = controller_mod.Controller(handler, hostname="127.0.0.1", port=port)
    smtp.start()
    for name, value in {"BOARDCT_SMTP_URL": f"smtp://127.0.0.1:{port}",
                        "BOARDCT_NOTICE_BACKOFF": "0.05", "BOARDCT_NOTICE_ATTEMPTS": "2",
                        "BOARDCT_NOTICE_POLL": "0.1"}.items():
        monkeypatch.setenv(name, value)
    server = Server(tmp_path)
    server.start()
    try:
        page = pages.new()
        page.goto(server.url("/account"))
        page.wait_for_selector("#signup-username")
        page.fill("#signup-username", "ann")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-email", "ann@players.test")
        page.click("#signup-go")
        page.wait_for_selector('body[data-account="ann"]')
        assert page.is_hidden("#notices-failed")
        [cookie] = [c for c in page.context.cookies() if c["name"] == "boardct_session"]
        r = server.http.post("/games", json={
            "game": "fieldshift", "creator_seat": 1,
            "seats": [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": "Ann"}]},
            headers={"Cookie": f"boardct_session={cookie['value']}"})
        assert r.status_code == 201, r.text
        gid, bob = r.json()["game_id"], r.json()["seats"][0]["token"]
        while (st := server.state(gid, bob))["my_turn"]:  # Bob's turn passes to Ann
            server.move(gid, bob, st["legal"][0]["text"])
        deadline = time.monotonic() + 30
        while handler.tries < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert handler.tries == 2
        time.sleep(0.3)  # the second refusal marked
        page.reload()
        page.wait_for_selector("#notices-failed:not([hidden])")
        line = page.text_content("#notices-failed")
        assert line.startswith("1 notice(s) could not be delivered")
        assert "FieldShift: your turn" in line and "554" in line and "mailbox full" in line
        assert pages.errors == []
    finally:
        server.stop()
        server.http.close()
        smtp.stop()


def test_the_account_page_sets_the_notification_preferences(tmp_path, pages, monkeypatch):
    monkeypatch.setenv("BOARDCT_NOTICE_PRIVATE_URLS", "1")  # the webhook on 127.0.0.1
    server = Server(tmp_path)
    server.start()
    try:
        page = pages.new()
        page.goto(server.url("/account"))
        page.wait_for_selector("#signup-username")
        page.fill("#signup-username", "bob")
        page.fill("#signup-password", PASSWORD)
        page.fill("#signup-email", "bob@players.test")
        page.click("#signup-go")
        page.wait_for_selector('body[data-account="bob"]')
        page.wait_for_selector('#notify-kinds input[data-kind="offer"]')
        # by default: every kind, by e-mail; this server has no mail server, and says so
        assert page.is_checked('#notify-kinds input[data-kind="your_turn"]')
        assert "sends no e-mail" in page.text_content("#notify-email-note")
        page.uncheck('#notify-kinds input[data-kind="offer"]')
        page.fill("#notify-url", f"json://127.0.0.1:{server.port}/hook")
        page.fill("#notify-quiet-from", "22:30")
        page.fill("#notify-quiet-to", "07:00")
        page.fill("#notify-zone", "Europe/Paris")
        page.fill("#notify-throttle", "45")
        page.click("#notify-go")
        page.wait_for_selector("#notify-status:has-text('Saved')")
        [cookie] = [c for c in page.context.cookies() if c["name"] == "boardct_session"]
        r = server.http.get("/account/notifications",
                            headers={"Cookie": f"boardct_session={cookie['value']}"})
        prefs = r.json()["notifications"]
        assert prefs["kinds"] == ["your_turn", "report", "game_over", "deadline", "invited"]
        assert (prefs["quiet_from"], prefs["quiet_to"], prefs["timezone"]) == (
            "22:30", "07:00", "Europe/Paris")
        assert prefs["throttle_minutes"] == 45 and prefs["apprise_url"].startswith("json://")
        # a bad time zone is refused, and the page says why
        page.fill("#notify-zone", "Mars/Olympus")
        page.click("#notify-go")
        page.wait_for_selector("#notify-status:has-text('Not saved')")
        assert "timezone" in page.text_content("#notify-status")
        page.reload()
        page.wait_for_selector('#notify-kinds input[data-kind="offer"]')
        assert not page.is_checked('#notify-kinds input[data-kind="offer"]')
        assert page.input_value("#notify-zone") == "Europe/Paris"
        assert pages.errors == []
    finally:
        server.stop()
        server.http.close()


def test_a_guest_gives_an_address_for_the_seat_on_the_game_page(tmp_path, pages):
    """A guest (no account) is offered "Tell me when it is my turn" on the game page; the
    address saved there is the seat's contact (the notices go there), and a spectator is not
    offered it."""
    server = Server(tmp_path)
    server.start()
    try:
        made = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                            {"kind": "human", "name": "Bob"}])
        gid = made["game_id"]
        page = pages.new()
        page.set_viewport_size({"width": 390, "height": 800})
        claim(page, server, gid, made["seats"][0]["invite"], "Ann")
        ann_tok = page_token(page, gid)
        page.wait_for_selector("#contact:not([hidden])")
        page.fill("#contact-email", "ann@players.test")
        page.click("#contact-go")
        page.wait_for_selector("#contact-status:has-text('Saved')")
        r = server.http.get(f"/games/{gid}/contact",
                            headers={"Authorization": f"Bearer {ann_tok}"})
        assert r.status_code == 200 and r.json()["contact"]["email"] == "ann@players.test"
        page.reload()  # the saved address is shown again
        page.wait_for_function(
            "() => document.getElementById('contact-email').value === 'ann@players.test'")
        watcher = pages.new()
        watcher.goto(server.url(f"/play/{gid}"))
        watcher.wait_for_selector("#board svg")
        assert watcher.is_hidden("#contact")
        assert pages.errors == []
    finally:
        server.stop()
        server.http.close()
