"""The notices' sender (docs/server.md, "Notifications"): a mail server that refuses is
retried with back-off and the notice is then marked failed where its player sees it; a
sender's lease that ran out is taken again, a live one is not, and a channel already reached
is not sent to twice; quiet hours hold a notice until they end; "your turn" is throttled per
game and coalesced; the unsubscribe link works without signing in; invitations and deadline
reminders; preferences refuse bad input. SQLite and PostgreSQL where storage matters."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from notices_helpers import (
    contact,
    mailbox,
    notice_app,
    seat_notices,
    send,
    sign_up,
    text_of,
    webhook,
)
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from boardct.server.notices import quiet_until
from boardct.server.outbox import NoticeRow, enqueue_deadline_reminder
from conftest import API, Api

ANN, BOB = "ann@players.test", "bob@players.test"


def pass_turn(api: Api, gid: str, tokens: list[str]) -> int:
    """The seat to move plays (its first legal actions) until its turn has passed: which
    seat it was."""
    mover = next(i for i, t in enumerate(tokens) if api.state(gid, t)["my_turn"])
    while api.state(gid, tokens[mover])["my_turn"]:
        st = api.state(gid, tokens[mover])
        r = api.move(gid, tokens[mover], st["legal"][0]["text"])
        assert r.status_code == 200, r.text
    return mover


def db_call(client: Any, fn: Any) -> Any:
    service = client.app.state.service
    return client.portal.call(service.db, fn)


def rows(client: Any) -> list[NoticeRow]:
    return db_call(client, lambda s: list(s.scalars(select(NoticeRow).order_by(NoticeRow.id))))


def set_rows(client: Any, **values: Any) -> None:
    def write(session: Session) -> None:
        session.execute(update(NoticeRow).values(**values))
        session.commit()

    db_call(client, write)


def account_game(api: Api, client: Any, email: str | None = BOB) -> tuple[str, list[str]]:
    """A FieldShift game whose seat 1 belongs to the account `bob` (signed in on `client`)."""
    sign_up(client, "bob", email)
    made = api.create("fieldshift")
    gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    r = client.post(f"{API}/account/seats", json={"tokens": [tokens[1]]})
    assert r.status_code == 200 and r.json()["moved"], r.text
    return gid, tokens


# -- failures and retries ----------------------------------------------------------------------
def test_a_refusing_mail_server_is_retried_with_back_off_then_failed_and_the_player_sees_it(
        db_url):
    with mailbox() as box, notice_app(db_url, box.url, notice_backoff=1.0,
                                      notice_attempts=3) as client:
        api = Api(client)
        gid, tokens = account_game(api, client)
        box.refuse = "554 5.7.1 no mail today"
        assert pass_turn(api, gid, tokens) == 0
        assert send(client) == 1 and box.tries == 1
        [notice] = client.get(f"{API}/account/notices").json()["notices"]
        assert (notice["status"], notice["attempts"]) == ("pending", 1)
        assert "554" in notice["error"] and "no mail today" in notice["error"]
        assert send(client) == 0  # not before its back-off (1 s)
        time.sleep(1.1)
        assert send(client) == 1 and box.tries == 2
        time.sleep(1.1)
        assert send(client) == 0  # the second wait is twice as long (2 s)
        time.sleep(1.0)
        assert send(client) == 1 and box.tries == 3
        [failed] = client.get(f"{API}/account/notices?status=failed").json()["notices"]
        assert failed["id"] == notice["id"] and failed["attempts"] == 3
        assert failed["error"].startswith("gave up after 3 attempts") and "554" in failed["error"]
        assert failed["kind"] == "your_turn" and failed["game_id"] == gid
        # the seat's own list says it too, to whoever holds the seat
        assert seat_notices(api, gid, tokens[1])[0]["status"] == "failed"
        time.sleep(0.2)
        assert send(client) == 0 and box.tries == 3  # never again
        assert box.all() == []


def test_an_unreachable_webhook_is_retried_and_a_later_success_is_sent_once(sqlite_url):
    with mailbox() as box, webhook() as hook, notice_app(sqlite_url, box.url,
                                                         notice_backoff=2.0) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        dead = hook.url("x").replace(str(hook.server.server_address[1]), "1")  # port 1
        contact(api, gid, tokens[1], apprise_url=dead)
        pass_turn(api, gid, tokens)
        assert send(client) == 1
        [notice] = seat_notices(api, gid, tokens[1])
        assert notice["status"] == "pending" and notice["error"].startswith("apprise:")
        contact(api, gid, tokens[1], apprise_url=hook.url("bob"))  # the player fixes it
        assert send(client) == 0  # its back-off first
        set_rows(client, next_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
        assert send(client) == 1
        assert seat_notices(api, gid, tokens[1])[0]["status"] == "sent"
        assert len(hook.at("bob")) == 1


# -- leases: a crash between commit and send ------------------------------------------------------
def test_a_lease_held_by_a_live_sender_is_left_and_a_stale_one_is_taken_again(db_url):
    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[1], email=BOB)
        pass_turn(api, gid, tokens)
        later = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)
        # another process claimed it and is sending it now
        set_rows(client, status="sending", attempts=1, lease_until=later)
        assert send(client) == 0 and box.all() == []
        # ...and died: its lease ran out
        set_rows(client, lease_until=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
        assert send(client) == 1
        assert len(box.to(BOB)) == 1
        [notice] = seat_notices(api, gid, tokens[1])
        assert (notice["status"], notice["attempts"]) == ("sent", 2)
        assert box.to(BOB)[0]["Message-ID"] == f"<{notice['key']}@boardct.notices>"
        assert send(client) == 0 and len(box.all()) == 1


def test_a_retry_after_a_crash_sends_only_to_the_channels_not_reached(sqlite_url):
    with mailbox() as box, webhook() as hook, notice_app(sqlite_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[1], email=BOB, apprise_url=hook.url("bob"))
        pass_turn(api, gid, tokens)
        # the e-mail went out and was noted, then the process died before the webhook
        set_rows(client, status="sending", attempts=1, delivered=["email"],
                 lease_until=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
        assert send(client) == 1
        assert box.all() == [] and len(hook.at("bob")) == 1
        assert seat_notices(api, gid, tokens[1])[0]["status"] == "sent"


# -- preferences: kinds, quiet hours, throttle ----------------------------------------------------
def test_quiet_hours_hold_a_notice_until_they_end_in_the_accounts_time_zone(db_url):
    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        gid, tokens = account_game(api, client)
        zone = "Asia/Tokyo"
        from zoneinfo import ZoneInfo

        local = dt.datetime.now(ZoneInfo(zone))
        start = (local - dt.timedelta(hours=1)).strftime("%H:%M")
        end = (local + dt.timedelta(hours=2)).strftime("%H:%M")
        r = client.put(f"{API}/account/notifications",
                       json={"quiet_from": start, "quiet_to": end, "timezone": zone})
        assert r.status_code == 200, r.text
        pass_turn(api, gid, tokens)
        assert send(client) == 1
        [held] = client.get(f"{API}/account/notices").json()["notices"]
        assert held["status"] == "pending" and held["attempts"] == 0
        assert "quiet hours" in held["error"] and box.all() == []
        until = dt.datetime.fromisoformat(held["next_at"].replace("Z", "+00:00"))
        want = (local + dt.timedelta(hours=2)).replace(second=0, microsecond=0)
        assert abs((until - want).total_seconds()) < 61
        assert send(client) == 0  # still held
        # the quiet hours end: it goes out
        set_rows(client, next_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
        r = client.put(f"{API}/account/notifications", json={"quiet_from": None})
        assert r.status_code == 200, r.text
        assert send(client) == 1 and len(box.to(BOB)) == 1


def test_quiet_hours_cross_midnight_and_follow_the_time_zone():
    utc = dt.UTC
    at = dt.datetime(2026, 11, 28, 23, 30, tzinfo=utc)
    assert quiet_until(at, "22:00", "07:00", "UTC") == dt.datetime(2026, 11, 29, 7, 0,
                                                                   tzinfo=utc)
    assert quiet_until(at.replace(hour=3), "22:00", "07:00", "UTC") == at.replace(
        hour=7, minute=0)
    assert quiet_until(at.replace(hour=12), "22:00", "07:00", "UTC") is None
    # 23:30 UTC is 08:30 in Tokyo: outside 22:00-07:00 there, inside 08:00-09:00
    assert quiet_until(at, "22:00", "07:00", "Asia/Tokyo") is None
    assert quiet_until(at, "08:00", "09:00", "Asia/Tokyo") == dt.datetime(
        2026, 11, 29, 0, 0, tzinfo=utc)
    assert quiet_until(at, None, None, "UTC") is None


def test_kinds_turned_off_are_skipped_and_said_so(sqlite_url):
    with mailbox() as box, notice_app(sqlite_url, box.url) as client:
        api = Api(client)
        gid, tokens = account_game(api, client)
        r = client.put(f"{API}/account/notifications", json={"kinds": ["game_over"]})
        assert r.status_code == 200 and r.json()["notifications"]["kinds"] == ["game_over"]
        pass_turn(api, gid, tokens)
        send(client)
        [notice] = client.get(f"{API}/account/notices").json()["notices"]
        assert notice["status"] == "skipped" and "your_turn" in notice["error"]
        assert box.all() == []


def test_your_turn_is_throttled_per_game_and_older_ones_coalesce(db_url):
    with mailbox() as box, notice_app(db_url, box.url, notice_throttle=60) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[1], email=BOB)
        assert pass_turn(api, gid, tokens) == 0
        assert send(client) == 1 and len(box.to(BOB)) == 1
        assert pass_turn(api, gid, tokens) == 1
        assert pass_turn(api, gid, tokens) == 0
        send(client)
        assert len(box.to(BOB)) == 1  # within the hour: held
        second = seat_notices(api, gid, tokens[1])[0]
        assert second["status"] == "pending" and "every 60 minutes" in second["error"]
        until = dt.datetime.fromisoformat(second["next_at"].replace("Z", "+00:00"))
        assert 3500 < (until - dt.datetime.now(dt.UTC)).total_seconds() <= 3600
        assert pass_turn(api, gid, tokens) == 1
        assert pass_turn(api, gid, tokens) == 0
        set_rows(client, next_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1))
        set_rows(client, sent_at=dt.datetime.now(dt.UTC) - dt.timedelta(hours=2))
        send(client)
        # the hour is over: the newest "your turn" goes, the older one waiting is coalesced
        kinds = [(n["kind"], n["status"]) for n in reversed(seat_notices(api, gid, tokens[1]))]
        assert kinds == [("your_turn", "sent"), ("your_turn", "coalesced"),
                         ("your_turn", "sent")]
        assert len(box.to(BOB)) == 2


# -- unsubscribe ----------------------------------------------------------------------------------
def test_the_unsubscribe_link_works_in_one_click_without_signing_in(db_url):
    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[1], email=BOB)
        pass_turn(api, gid, tokens)
        send(client)
        [mail] = box.to(BOB)
        link = mail["List-Unsubscribe"].strip("<>")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert link in text_of(mail)
        path = urlsplit(link)
        local = f"{path.path}?{path.query}"
        page = client.get(local)
        assert page.status_code == 200 and BOB in page.text and "<form" in page.text
        forged = local[:-3] + ("AAA" if not local.endswith("AAA") else "BBB")
        assert client.post(forged).status_code == 404
        # a mail client's one-click POST (RFC 8058): no cookie, no token, no origin
        r = client.post(local, content=b"List-Unsubscribe=One-Click",
                        headers={"content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 200 and "no more e-mail" in r.text
        pass_turn(api, gid, tokens)
        pass_turn(api, gid, tokens)
        send(client)
        assert len(box.to(BOB)) == 1
        newest = seat_notices(api, gid, tokens[1])[0]
        assert newest["status"] == "skipped"
        # giving the address again subscribes it again
        contact(api, gid, tokens[1], email=BOB)
        pass_turn(api, gid, tokens)
        pass_turn(api, gid, tokens)
        send(client)
        assert len(box.to(BOB)) == 2


def test_an_account_unsubscribed_by_link_turns_e_mail_on_again_in_its_settings(sqlite_url):
    with mailbox() as box, notice_app(sqlite_url, box.url) as client:
        api = Api(client)
        gid, tokens = account_game(api, client)
        pass_turn(api, gid, tokens)
        send(client)
        link = urlsplit(box.to(BOB)[0]["List-Unsubscribe"].strip("<>"))
        assert client.post(f"{link.path}?{link.query}").status_code == 200
        prefs = client.get(f"{API}/account/notifications").json()["notifications"]
        assert prefs["unsubscribed"] is True and prefs["address"] == BOB
        r = client.put(f"{API}/account/notifications", json={"email": True})
        assert r.status_code == 200
        prefs = client.get(f"{API}/account/notifications").json()["notifications"]
        assert prefs["unsubscribed"] is False


# -- invitations, reminders, and who is written at all -------------------------------------------
def test_an_invitation_mails_the_seats_own_link_and_a_wrong_code_sends_nothing(db_url):
    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid = made["game_id"]
        ann, bob = made["seats"]
        r = api.post(f"/games/{gid}/invite", {"seat": 1, "invite": ann["invite"],
                                              "email": BOB}, ann["token"])
        assert r.status_code == 403  # seat 0's code is not seat 1's
        r = api.post(f"/games/{gid}/invite", {"seat": 1, "invite": bob["invite"],
                                              "email": "not an address"}, ann["token"])
        assert r.status_code == 400
        r = api.post(f"/games/{gid}/invite", {"seat": 1, "invite": bob["invite"],
                                              "email": BOB})  # no seat: a spectator
        assert r.status_code == 403
        assert send(client) == 0
        r = api.post(f"/games/{gid}/invite", {"seat": 1, "invite": bob["invite"],
                                              "email": BOB}, ann["token"])
        assert r.status_code == 200, r.text
        assert send(client) == 1
        [mail] = box.to(BOB)
        assert mail["Subject"] == "Ann invites you to play FieldShift"
        assert f"http://games.test/play/{gid}?invite={bob['invite']}" in text_of(mail)
        assert ann["invite"] not in text_of(mail) and ann["token"] not in text_of(mail)
        r = api.post(f"/invites/{bob['invite']}", {"name": "Bob"})
        assert r.status_code == 200 and r.json()["seat"] == 1


def test_invitations_from_one_address_are_rate_limited(sqlite_url):
    with mailbox() as box, notice_app(sqlite_url, box.url, quotas={"invite": "2/hour"}) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid = made["game_id"]
        ann, bob = made["seats"]
        body = {"seat": 1, "invite": bob["invite"], "email": BOB}
        for _ in range(2):
            assert api.post(f"/games/{gid}/invite", body, ann["token"]).status_code == 200
        r = api.post(f"/games/{gid}/invite", body, ann["token"])
        assert r.status_code == 429 and "Retry-After" in r.headers
        assert send(client) == 2 and len(box.to(BOB)) == 2


def test_a_deadline_reminder_is_written_once_per_deadline_and_hours(db_url):
    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[0], email=ANN)
        contact(api, gid, tokens[1], email=BOB)
        service = client.app.state.service
        live = client.portal.call(service.get, gid)
        deadline = dt.datetime(2030, 1, 2, 3, 4, tzinfo=dt.UTC)

        def remind(seat: int, hours: float) -> bool:
            def write(session: Session) -> bool:
                done = enqueue_deadline_reminder(session, live, seat, hours, deadline)
                session.commit()
                return done

            return db_call(client, write)

        assert remind(0, 6) is True
        assert remind(0, 6) is False  # the same reminder: once
        assert remind(1, 6) is False  # seat 1 has nothing to do before it
        assert remind(0, 1) is True
        assert send(client) == 2
        subjects = [m["Subject"] for m in box.to(ANN)]
        assert subjects == ["FieldShift: your deadline is in 6 hours",
                            "FieldShift: your deadline is in 1 hour"]
        assert "2030-01-02 03:04 UTC" in text_of(box.to(ANN)[0])
        assert box.to(BOB) == []


def test_a_game_of_guests_without_contacts_writes_no_notice(db_url):
    with notice_app(db_url, None) as client:
        api = Api(client)
        made = api.create("fieldshift", seats=[{"kind": "human", "name": "Ann"},
                                               {"kind": "agent", "agent": "random"}])
        gid, token = made["game_id"], made["seats"][0]["token"]
        for _ in range(3):
            st = api.state(gid, token)
            if st["over"]:
                break
            if st["my_turn"]:
                assert api.move(gid, token, st["legal"][0]["text"]).status_code == 200
            api.settle()
        assert rows(client) == []


def test_without_a_mail_server_an_e_mail_notice_is_skipped_and_says_why(sqlite_url):
    with notice_app(sqlite_url, None) as client:
        api = Api(client)
        gid, tokens = account_game(api, client)
        pass_turn(api, gid, tokens)
        send(client)
        [notice] = client.get(f"{API}/account/notices").json()["notices"]
        assert notice["status"] == "skipped" and "--smtp" in notice["error"]


@pytest.mark.parametrize("body, field", [
    ({"kinds": ["your_turn", "gossip"]}, "kinds"),
    ({"kinds": "your_turn"}, "kinds"),
    ({"quiet_from": "25:00"}, "quiet_from"),
    ({"quiet_to": "7am"}, "quiet_to"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
    ({"throttle_minutes": -1}, "throttle_minutes"),
    ({"email": "yes"}, "email"),
    ({"apprise_url": "nosuchscheme://x"}, "apprise_url"),
])
def test_bad_preferences_are_refused_and_change_nothing(sqlite_url, body, field):
    with notice_app(sqlite_url, None) as client:
        sign_up(client, "bob", BOB)
        before = client.get(f"{API}/account/notifications").json()
        r = client.put(f"{API}/account/notifications", json=body)
        assert r.status_code == 400 and r.json()["error"]["message"].startswith(field)
        assert client.get(f"{API}/account/notifications").json() == before


def test_preferences_and_notices_need_an_account_and_contacts_a_seat(sqlite_url):
    with notice_app(sqlite_url, None) as client:
        api = Api(client)
        assert client.get(f"{API}/account/notifications").status_code == 401
        assert client.get(f"{API}/account/notices").status_code == 401
        gid = api.create("fieldshift")["game_id"]
        r = client.put(f"{API}/games/{gid}/contact", json={"email": BOB})
        assert r.status_code == 403  # a spectator
        assert api.get(f"/games/{gid}/notices").status_code == 403


# -- the SMTP URL ---------------------------------------------------------------------------------
def test_the_smtp_url_gives_server_port_login_starttls_and_sender():
    from boardct.server.senders import SmtpSettings

    s = SmtpSettings.parse("smtp://ann%40ex.org:p%3Ass@mail.ex.org:587?starttls=1&from=g@ex.org")
    assert (s.host, s.port, s.user, s.password, s.tls, s.starttls, s.sender) == (
        "mail.ex.org", 587, "ann@ex.org", "p:ss", False, True, "g@ex.org")
    s = SmtpSettings.parse("smtps://mail.ex.org")
    assert (s.port, s.tls, s.starttls, s.user, s.sender) == (465, True, False, None,
                                                             "boardct@mail.ex.org")
    for bad in ("ftp://mail.ex.org", "smtp://", "smtp://host:port"):
        with pytest.raises(ValueError):
            SmtpSettings.parse(bad)


def test_boardct_serve_refuses_a_bad_smtp_url_before_starting():
    from click.testing import CliRunner

    from boardct.cli.main import cli

    result = CliRunner().invoke(cli, ["serve", "--smtp", "ftp://mail.ex.org", "--db",
                                      "sqlite:///unused.db"])
    assert result.exit_code != 0
    assert "--smtp" in result.output and "smtp://" in result.output


def test_the_mail_server_login_of_the_url_is_used(sqlite_url):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult
    from server_live import free_port

    logins: list[tuple[bytes, bytes]] = []
    got: list[str] = []

    class Handler:
        async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802
            got.append(envelope.content.decode())
            return "250 OK"

    def check(server, session, envelope, mechanism, auth_data) -> AuthResult:
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == b"s3cret")

    port = free_port()
    smtp = Controller(Handler(), hostname="127.0.0.1", port=port, authenticator=check,
                      auth_require_tls=False)
    smtp.start()
    try:
        url = f"smtp://games:s3cret@127.0.0.1:{port}"
        with notice_app(sqlite_url, url) as client:
            api = Api(client)
            made = api.create("fieldshift")
            gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
            contact(api, gid, tokens[1], email=BOB)
            pass_turn(api, gid, tokens)
            send(client)
            [notice] = seat_notices(api, gid, tokens[1])
            assert notice["status"] == "sent", notice
        assert logins == [(b"games", b"s3cret")]
        assert len(got) == 1 and f"<{notice['key']}@boardct.notices>" in got[0]
    finally:
        smtp.stop()


# -- the migration --------------------------------------------------------------------------------
def test_a_game_and_account_from_before_notices_are_told_after_the_migration(db_url):
    import json

    from alembic import command
    from sqlalchemy import create_engine, inspect, text

    from boardct.core import registry
    from boardct.server.db import alembic_config, migrate
    from boardct.server.live import token_hash

    engine = create_engine(db_url)
    migrate(engine, "0003_accounts")
    options = json.dumps(registry.get("fieldshift").resolve_options({}))
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO accounts (username, username_key, password_hash, email, created) "
            "VALUES ('bob', 'bob', 'x', :email, CURRENT_TIMESTAMP)"), {"email": BOB})
        bob = conn.execute(text("SELECT id FROM accounts")).scalar_one()
        conn.execute(text(
            "INSERT INTO games (id, game, options, seed, names, public, status, version, "
            "created) VALUES ('old1', 'fieldshift', :options, '7', '[\"A\", \"B\"]', false, "
            "'playing', 0, CURRENT_TIMESTAMP)"), {"options": options})
        for seat in (0, 1):
            conn.execute(text(
                "INSERT INTO seats (game, seat, kind, name, token_hash, claimed, account, open) "
                "VALUES ('old1', :seat, 'human', '', :hash, true, :account, false)"),
                {"seat": seat, "hash": token_hash(f"tok{seat}"),
                 "account": bob if seat == 1 else None})
    # down and up again: the notices' tables come and go, nothing else changes
    migrate(engine)
    command.downgrade(alembic_config(engine), "0003_accounts")
    assert "notices" not in inspect(engine).get_table_names()
    engine.dispose()
    with mailbox() as box, notice_app(db_url, box.url) as client:  # migrates to head
        api = Api(client)
        pass_turn(api, "old1", ["tok0", "tok1"])
        assert send(client) == 1
        [mail] = box.to(BOB)
        assert mail["Subject"].startswith("FieldShift: your turn")


def test_two_server_processes_sending_at_once_send_each_notice_once(db_url):
    import threading
    from collections import Counter

    with mailbox() as box, notice_app(db_url, box.url) as one, notice_app(db_url,
                                                                          box.url) as two:
        api = Api(one)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[0], email=ANN)
        contact(api, gid, tokens[1], email=BOB)
        for _ in range(12):
            pass_turn(api, gid, tokens)
        keys = {n["key"] for t in tokens for n in seat_notices(api, gid, t)}
        assert len(keys) == 12
        done: list[int] = []
        senders = [threading.Thread(target=lambda c=c: done.append(send(c))) for c in (one, two)]
        for t in senders:
            t.start()
        for t in senders:
            t.join(60)
        assert sum(done) == 12  # each claimed by exactly one of them
        ids = Counter(m["Message-ID"] for _rcpt, m in box.all())
        assert ids == Counter({f"<{k}@boardct.notices>": 1 for k in keys})


def test_forgetting_a_game_deletes_its_notices_and_contacts(sqlite_url):
    from boardct.server.outbox import SeatContactRow, forget_game

    with mailbox() as box, notice_app(sqlite_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[1], email=BOB)
        pass_turn(api, gid, tokens)
        assert len(rows(client)) == 1

        def forget(session: Session) -> int:
            forget_game(session, gid)
            session.commit()
            return len(list(session.scalars(select(SeatContactRow))))

        assert db_call(client, forget) == 0
        assert rows(client) == []


@pytest.mark.parametrize("url", ["json://127.0.0.1:8080/hook", "jsons://10.1.2.3/x",
                                 "json://localhost/hook", "matrix://u:p@169.254.169.254",
                                 "json://[::1]:9000/"])
def test_a_notification_url_inside_the_servers_network_is_refused_by_default(sqlite_url, url):
    with notice_app(sqlite_url, None, notice_private_urls=False) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, token = made["game_id"], made["seats"][0]["token"]
        r = client.put(f"{API}/games/{gid}/contact", json={"apprise_url": url},
                       headers=api.h(token))
        assert r.status_code == 400 and "inside this server's network" in r.text, r.text
        assert client.get(f"{API}/games/{gid}/contact", headers=api.h(token)).json() == {
            "contact": None}


def test_a_private_url_taken_earlier_is_not_posted_to_once_refused(sqlite_url):
    from boardct.server.senders import DeliveryError, send_apprise

    with webhook() as hook:
        with pytest.raises(DeliveryError, match="inside this server's network"):
            send_apprise(hook.url("x"), "subject", "body", "k" * 40)
        assert hook.at("x") == []
        send_apprise(hook.url("x"), "subject", "body", "k" * 40, allow_private=True)
        assert len(hook.at("x")) == 1


def test_the_clocks_reminder_before_a_lobby_deadline_is_mailed_to_the_seat_to_move(db_url):
    """The deadline keeper's reminder (server/clocks.py, from the lobby's `reminders`) reaches
    the outbox: the seat to move gets "your deadline is in 2 hours", the other nothing."""
    from boardct.server import clocks

    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift", move_time=86400, reminders=[2])
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[0], email=ANN)
        contact(api, gid, tokens[1], email=BOB)
        service = client.app.state.service
        live = client.portal.call(service.get, gid)
        [mover] = live.state.current_players()
        # the reminder as the database holds it: the seats' first use (above) started the
        # clock again, and its reminders are written in that transaction, which a loaded
        # machine may finish a moment after the requests returned
        api.settle()

        async def reminders() -> list:
            for _ in range(100):
                rows = await service.db(lambda s: list(s.execute(
                    select(clocks.ReminderRow.seat, clocks.ReminderRow.due_at,
                           clocks.ReminderRow.deadline_at)
                    .where(clocks.ReminderRow.game == gid)).all()))
                if rows:
                    return rows
                await asyncio.sleep(0.1)
            return []

        [(seat, due, when)] = client.portal.call(reminders)
        assert seat == mover and live.deadline_at is not None
        assert clocks.aware(due) == clocks.aware(when) - dt.timedelta(hours=2)
        sent = client.portal.call(clocks.fire_reminders, service,
                                  clocks.aware(due) + dt.timedelta(seconds=1))
        assert sent == 1
        assert send(client) >= 1
        to_mover, to_other = (ANN, BOB) if mover == 0 else (BOB, ANN)
        assert [m["Subject"] for m in box.to(to_mover)
                if "deadline" in m["Subject"]] == ["FieldShift: your deadline is in 2 hours"]
        assert not [m for m in box.to(to_other) if "deadline" in m["Subject"]]
