"""A crash between commit and send loses no notice and doubles none (docs/server.md,
"Notifications"): a real `boardct serve --smtp URL` process commits moves (and their notices)
while its sender is held back, is killed with SIGKILL, and started again: every notice
reaches the real SMTP server on 127.0.0.1 exactly once, a notice the dead process had claimed
(its lease ran out) too. SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import sys
import time
from collections import Counter

import httpx
import pytest
from notices_helpers import mailbox, wait_until
from server_live import WAIT, create_game
from sqlalchemy import create_engine, update

from boardct.server.outbox import NoticeRow

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX-only")

EMAILS = ("ann@players.test", "bob@players.test")


def _h(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _pass_turn(base: str, gid: str, tokens: list[str]) -> None:
    """The seat to move plays its first legal actions until its turn has passed."""

    def state(token: str) -> dict:
        return httpx.get(f"{base}/api/v1/games/{gid}", headers=_h(token), timeout=WAIT).json()

    mover = next(i for i, t in enumerate(tokens) if state(t)["my_turn"])
    while (st := state(tokens[mover]))["my_turn"]:
        r = httpx.post(f"{base}/api/v1/games/{gid}/moves", headers=_h(tokens[mover]),
                       json={"text": st["legal"][0]["text"]}, timeout=WAIT)
        assert r.status_code == 200, r.text


def _notices(base: str, gid: str, token: str) -> list[dict]:
    r = httpx.get(f"{base}/api/v1/games/{gid}/notices", headers=_h(token), timeout=WAIT)
    assert r.status_code == 200, r.text
    return r.json()["notices"]


def test_sigkill_between_commit_and_send_delivers_each_notice_exactly_once(serve, db_url):
    with mailbox() as box:
        env = {"BOARDCT_NOTICE_SEND": "0", "BOARDCT_NOTICE_POLL": "0.1",
               "BOARDCT_NOTICE_THROTTLE": "0", "BOARDCT_NOTICE_LEASE": "1"}
        server = serve(db_url, extra=("--smtp", box.url), env=env)
        base = server.base_url
        game = create_game(base, "fieldshift", 2)
        gid, tokens = game["game_id"], [s["token"] for s in game["seats"]]
        for token, address in zip(tokens, EMAILS, strict=True):
            r = httpx.put(f"{base}/api/v1/games/{gid}/contact", headers=_h(token),
                          json={"email": address}, timeout=WAIT)
            assert r.status_code == 200, r.text
        for _ in range(6):
            _pass_turn(base, gid, tokens)
        written = [n for t in tokens for n in _notices(base, gid, t)]
        assert len(written) == 6 and {n["status"] for n in written} == {"pending"}
        keys = {n["key"] for n in written}

        server.kill()  # committed, not sent
        # one of them the dead process had claimed: "sending", its lease run out by now
        engine = create_engine(db_url)
        with engine.begin() as conn:
            conn.execute(update(NoticeRow).where(NoticeRow.key == written[0]["key"])
                         .values(status="sending", attempts=1,
                                 lease_until=dt.datetime.now(dt.UTC)))
        engine.dispose()
        assert box.all() == []

        server.env["BOARDCT_NOTICE_SEND"] = "1"
        server.start()
        wait_until(lambda: len(box.all()) >= len(keys), what="every notice mailed")
        time.sleep(1.5)  # several more rounds of the sender: nothing is sent again
        ids = Counter(m["Message-ID"] for _rcpt, m in box.all())
        assert ids == Counter({f"<{k}@boardct.notices>": 1 for k in keys})
        after = [n for t in tokens for n in _notices(base, gid, t)]
        assert {n["status"] for n in after} == {"sent"}
        for seat, address in enumerate(EMAILS):
            assert {m["Message-ID"] for m in box.to(address)} == {
                f"<{n['key']}@boardct.notices>" for n in written if n["seat"] == seat}
