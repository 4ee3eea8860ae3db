"""Notifications delivered for real (docs/server.md, "Notifications"): a correspondence
FieldShift game and a 3-player CTF 2187 turn, played over REST, each seat told by e-mail
(a real SMTP server on 127.0.0.1) or by a JSON webhook (Apprise's json:// URL, a local HTTP
receiver): exactly the expected notices, each built from the recipient's own view, with no
hidden information. SQLite and PostgreSQL."""

from __future__ import annotations

import random
import re

import pytest
from notices_helpers import (
    contact,
    mailbox,
    notice_app,
    seat_notices,
    send,
    text_of,
    webhook,
)

from conftest import Api

ANN, CAL = "ann@players.test", "cal@players.test"


def seen_lines(body: str) -> list[str]:
    """The event lines a notice quotes (the "  - " lines under "What you saw:")."""
    if "What you saw:" not in body:
        return []
    part = body.split("What you saw:", 1)[1]
    return [line[4:].rstrip() for line in part.splitlines() if line.startswith("  - ")]


def own_log_lines(api: Api, gid: str, token: str) -> set[str]:
    state = api.state(gid, token)
    return {line for entry in state["log"] for line in entry["events"]}


def test_a_correspondence_fieldshift_game_tells_each_player_its_turns_and_the_end(db_url):
    rng = random.Random(7)
    with mailbox() as box, webhook() as hook, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift", options={"turn_limit": 8})
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[0], email=ANN)
        contact(api, gid, tokens[1], apprise_url=hook.url("bob"))
        assert send(client) == 0  # creating and joining tell nobody anything
        expected: list[list[str]] = [[], []]
        my_turn = [api.state(gid, t)["my_turn"] for t in tokens]
        for _ in range(1000):
            if api.state(gid)["over"]:
                break
            mover = my_turn.index(True)
            legal = api.state(gid, tokens[mover])["legal"]
            r = api.move(gid, tokens[mover], rng.choice(legal)["text"])
            assert r.status_code == 200, r.text
            now = [api.state(gid, t)["my_turn"] for t in tokens]
            over = api.state(gid)["over"]
            for seat in (0, 1):
                if over:
                    expected[seat].append("game_over")
                elif now[seat] and not my_turn[seat]:
                    expected[seat].append("your_turn")  # this seat's turn came
            my_turn = now
            send(client)  # as the sender would between two moves a day apart
        assert api.state(gid)["over"]
        assert expected[0].count("your_turn") >= 3 and expected[1].count("your_turn") >= 3

        # seat 0 by e-mail: exactly its notices, in order, each as the API lists it
        mails = box.to(ANN)
        listed = list(reversed(seat_notices(api, gid, tokens[0])))
        assert [n["kind"] for n in listed] == expected[0]
        assert [(n["status"], n["attempts"], n["error"]) for n in listed] == [
            ("sent", 1, None)] * len(listed)
        assert [m["Message-ID"] for m in mails] == [f"<{n['key']}@boardct.notices>"
                                                    for n in listed]
        for mail, notice in zip(mails, listed, strict=True):
            assert mail["Subject"] == notice["subject"]
            assert f"http://games.test/play/{gid}" in text_of(mail)
            assert mail["List-Unsubscribe"].startswith("<http://games.test/notices/unsub")
        assert "your turn" in mails[0]["Subject"]
        assert "is over" in mails[-1]["Subject"]
        # seat 1 by webhook: the same, through Apprise's JSON payload
        posts = hook.at("bob")
        listed = list(reversed(seat_notices(api, gid, tokens[1])))
        assert [n["kind"] for n in listed] == expected[1]
        assert [p["title"] for p in posts] == [n["subject"] for n in listed]
        assert [p["message"].rsplit("ref: ", 1)[1] for p in posts] == [n["key"]
                                                                       for n in listed]
        # a notice quotes only what its seat saw: lines of its own log
        for seat, bodies in ((0, [text_of(m) for m in mails]),
                             (1, [p["message"] for p in posts])):
            own = own_log_lines(api, gid, tokens[seat])
            for body in bodies:
                assert set(seen_lines(body)) <= own
        assert len(box.all()) == len(mails)  # nobody else got mail


def test_a_ctf2187_turn_reports_to_each_seat_once_processed_and_hides_the_others_sheets(
        db_url):
    with mailbox() as box, webhook() as hook, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("ctf2187", seats=[{"kind": "human", "name": n}
                                            for n in ("Ann", "Bob", "Cal")])
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        contact(api, gid, tokens[0], email=ANN)
        contact(api, gid, tokens[1], apprise_url=hook.url("bob"))
        contact(api, gid, tokens[2], email=CAL, apprise_url=hook.url("cal"))
        turn = api.state(gid, tokens[0])["view"]["turn"]
        sheets: dict[int, str] = {}
        for seat in (0, 1, 2):  # each team hands its sheet in; Cal (seat 2) last
            st = api.state(gid, tokens[seat])
            assert st["my_turn"]
            sheets[seat] = st["legal"][-1]["text"]
            r = api.move(gid, tokens[seat], sheets[seat])
            assert r.status_code == 200, r.text
            if seat < 2:
                # a sheet handed in tells nobody anything (CTF-41: who has handed in is
                # the moderator's alone)
                assert send(client) == 0
        assert api.state(gid, tokens[0])["view"]["turn"] == turn + 1
        assert send(client) == 3
        report = [n for seat in (0, 1, 2) for n in seat_notices(api, gid, tokens[seat])]
        assert [(n["seat"], n["kind"], n["status"]) for n in report] == [
            (0, "report", "sent"), (1, "report", "sent"), (2, "report", "sent")]
        ann, cal = box.to(ANN), box.to(CAL)
        assert len(ann) == 1 and len(cal) == 1 and len(box.all()) == 2
        assert len(hook.at("bob")) == 1 and len(hook.at("cal")) == 1
        bodies = {0: text_of(ann[0]), 1: hook.at("bob")[0]["message"],
                  2: text_of(cal[0])}
        # both of Cal's channels: the same notice (the e-mail adds its unsubscribe link)
        assert bodies[2].startswith(hook.at("cal")[0]["message"].rsplit("\n\nref: ", 1)[0])
        for seat, body in bodies.items():
            assert f"turn {turn + 1}" in body and "report is ready" in body
            # built from the seat's own view: its own name, its own events only
            assert ("Ann", "Bob", "Cal")[seat] in body.split(",")[0]
            assert set(seen_lines(body)) <= own_log_lines(api, gid, tokens[seat])
        # the other team's sheet is in no notice (as the leak tests check the messages)
        teams = {0: (0, 1), 1: (0, 1), 2: (2,)}
        for seat, body in bodies.items():
            for other, sheet in sheets.items():
                if other not in teams[seat]:
                    orders = sheet.split(":", 1)[-1].strip()
                    assert orders not in body
                    assert not re.search(re.escape(orders[:60]), body)


@pytest.mark.parametrize("seat_kind", ["guest", "account"])
def test_an_offer_tells_the_seat_that_must_answer(db_url, seat_kind):
    from notices_helpers import sign_up

    with mailbox() as box, notice_app(db_url, box.url) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        if seat_kind == "guest":
            contact(api, gid, tokens[1], email=CAL)
        else:
            sign_up(client, "cal", CAL)  # the browser signs up, then takes seat 1 into it
            r = client.post("/api/v1/account/seats", json={"tokens": [tokens[1]]})
            assert r.status_code == 200 and r.json()["moved"], r.text
            client.cookies.clear()
        st = api.state(gid, tokens[0])
        r = api.move(gid, tokens[0], st["legal"][0]["text"])
        assert r.status_code == 200, r.text
        send(client)
        told = len(box.to(CAL))  # "your turn", where the move passed the turn
        r = api.post(f"/games/{gid}/offers", {"kind": "undo"}, tokens[0])
        assert r.status_code == 200, r.text
        assert send(client) == 1
        assert len(box.to(CAL)) == told + 1
        mail = box.to(CAL)[-1]
        assert mail["Subject"] == "FieldShift: Ann offers to take back their last move"
        assert box.to(ANN) == []


TEMPLATES = (
    re.compile(r"^.+, it is your turn in .+ \(turn \d+\)\.$"),
    re.compile(r"^.+, the orders of the last turn of .+ were processed: your report is ready, "
               r"and your orders for turn \d+ are due\.$"),
    re.compile(r"^.+, your game of .+ is over: .*$"),
    re.compile(r"^What you saw:$"),
    re.compile(r"^Play: http://games\.test/play/[\w-]+$"),
    re.compile(r"^ref: [0-9a-f]{40}$"),
)


def _every_game() -> list[str]:
    from boardct.core import registry

    return registry.ids()


@pytest.mark.parametrize("game_id", _every_game())
def test_no_notice_of_any_game_says_more_than_its_seat_was_shown(sqlite_url, game_id):
    """Every game, played at random to its end (turn limit short where it has one), each seat
    told by webhook: a notice holds the fixed words of its kind, the seat's own name and the
    lines the seat's own log showed it, nothing else, and never the seed before the end."""
    from boardct.core import registry

    game = registry.get(game_id)
    options = {"turn_limit": 3} if any(o.name == "turn_limit" for o in game.options) else {}
    rng = random.Random(11)
    with webhook() as hook, notice_app(sqlite_url, None) as client:
        api = Api(client)
        n = max(game.min_players, 2)
        made = api.create(game_id, seats=[{"kind": "human", "name": f"P{i}"}
                                          for i in range(n)], options=options)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for seat, token in enumerate(tokens):
            contact(api, gid, token, apprise_url=hook.url(f"s{seat}"))
        shown: list[set[str]] = [set() for _ in tokens]
        for _ in range(600):
            if api.state(gid)["over"]:
                break
            seat = next(i for i, t in enumerate(tokens) if api.state(gid, t)["my_turn"])
            legal = api.state(gid, tokens[seat])["legal"]
            assert api.move(gid, tokens[seat], rng.choice(legal)["text"]).status_code == 200
            for i, token in enumerate(tokens):
                shown[i] |= own_log_lines(api, gid, token)
            send(client)
        over = api.state(gid)["over"]
        record = api.get(f"/games/{gid}/record").json() if over else None
        told = 0
        for seat in range(len(tokens)):
            for post in hook.at(f"s{seat}"):
                told += 1
                body = post["message"]
                assert body.startswith(f"P{seat},")
                quoted = seen_lines(body)
                assert set(quoted) <= shown[seat]
                rest = [line for line in body.splitlines()
                        if line.strip() and not line.startswith("  - ")]
                for line in rest:
                    assert any(t.match(line) for t in TEMPLATES), line
                if record is not None and "is over" not in post["title"]:
                    assert str(record["seed"]) not in body
        assert told > 0
