"""Clocks set from the lobby (server/clocks.py, server/deadlines.py), through the real HTTP and
websocket stack on SQLite and PostgreSQL: the deadline reaches every seat, the ones connected
before the last seat was taken too; it survives a restart of the server and the outcome chosen
at creation is applied; reminders fall due before it; bad clock fields change nothing."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from clock_helpers import app_on, caught_reminders, deadline, live, run, service, time_runs_out
from server_live import WAIT, Seat, create_game, get_state
from sqlalchemy import create_engine, select, update

from boardct.server import clocks
from boardct.server.models import GameRow

DAY = 86400


def test_lobby_deadline_reaches_seats_already_connected_survives_a_restart_applies_loss(
        db_url, serve):
    """The bug of the issue: players already connected when the last seat was claimed got
    `deadline: null` in every push. Here seat 1 is at the table before seat 2 arrives; both
    get the deadline pushed, the REST state agrees; the server stops, the deadline is in the
    database with its reminders; it falls due while the server is down, and the server started
    again applies the outcome chosen in the lobby (a loss for the seat to move)."""
    server = serve(db_url)
    made = create_game(server.base_url, "fieldshift", 2, move_time=2 * DAY, on_timeout="loss",
                       creator_seat=None, reminders=[24, 1])
    gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    first = Seat(server.ws_base, gid, tokens[0])
    try:
        early = first.wait_for(lambda m: m.get("type") == "state")
        assert early["deadline"] is None  # seat 2 is free: no clock yet
        second = Seat(server.ws_base, gid, tokens[1])  # takes the last seat
        try:
            pushed = first.wait_for(lambda m: m.get("type") == "state" and m.get("deadline"))
            theirs = second.wait_for(lambda m: m.get("type") == "state" and m.get("deadline"))
        finally:
            second.close()
    finally:
        first.close()
    when = deadline(pushed)
    assert when == deadline(theirs)
    ahead = (when - dt.datetime.now(dt.UTC)).total_seconds()
    assert 2 * DAY - WAIT * 4 < ahead <= 2 * DAY
    for token in tokens:
        state = get_state(server.base_url, gid, token)
        assert deadline(state) == when and state["on_timeout"] == "loss"
        assert state["reminders"] == [24.0, 1.0]
    mover = get_state(server.base_url, gid)["to_move"][0]
    server.stop()

    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            stored = conn.execute(select(GameRow.deadline_at).where(GameRow.id == gid)).scalar()
            stored = clocks.aware(stored)  # the pushed one is to the second
            assert dt.timedelta(0) <= stored - when < dt.timedelta(seconds=1)
            due = conn.execute(select(clocks.ReminderRow.seat, clocks.ReminderRow.hours,
                                      clocks.ReminderRow.due_at)
                               .where(clocks.ReminderRow.game == gid)).all()
            assert sorted((s, h) for s, h, _ in due) == [(mover, 1.0), (mover, 24.0)]
            assert all(clocks.aware(d) == stored - dt.timedelta(hours=h) for _, h, d in due)
            conn.execute(update(GameRow).where(GameRow.id == gid).values(
                deadline_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=5)))
    finally:
        engine.dispose()

    server.start()
    end = time.monotonic() + WAIT * 2
    state = get_state(server.base_url, gid)
    while not state["over"] and time.monotonic() < end:
        time.sleep(0.3)
        state = get_state(server.base_url, gid)
    assert state["over"], "the deadline that fell due while the server was down was not acted on"
    assert mover not in state["result"]["winners"] and state["result"]["winners"]
    assert state["deadline"] is None


def test_the_lobby_fields_give_every_seat_its_deadline_and_default_outcome(db_url):
    """A CTF 2187 game created with a turn deadline and the game's default at timeout (its
    Standing Orders, CTF-14): every seat's state has the deadline from the moment the last seat
    is taken; when it passes, the missing sheets are played from the standing orders and the
    turn is processed, with a new deadline for the next one."""
    with app_on(db_url) as api:
        made = api.create("ctf2187", [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")],
                          turn_deadline=3 * DAY, on_timeout="default", creator_seat=None)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for token in tokens[:2]:
            assert api.state(gid, token)["deadline"] is None  # a seat is free
        api.state(gid, tokens[2])  # the last seat taken: the clock starts
        api.settle()
        seen = {deadline(api.state(gid, t)) for t in tokens}
        assert len(seen) == 1 and None not in seen
        turn = live(api, gid).state.turn
        time_runs_out(api, gid)
        after = live(api, gid)
        assert after.state.turn == turn + 1  # every sheet from the standing orders
        assert all(e.move_id.startswith(clocks.SERVER_DEADLINE) for e in after.entries)
        fresh = {deadline(api.state(gid, t)) for t in tokens}
        assert len(fresh) == 1 and None not in fresh  # the next turn's, a full turn ahead
        ahead = (fresh.pop() - dt.datetime.now(dt.UTC)).total_seconds()
        assert 3 * DAY - 120 < ahead <= 3 * DAY


def test_reminders_fall_due_before_the_deadline_once_each(db_url):
    with app_on(db_url) as api:
        made = api.create("fieldshift", move_time=3 * 3600, on_timeout="default",
                          reminders=[2, 0.5], creator_seat=None)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for t in tokens:
            api.state(gid, t)
        api.settle()
        state = api.state(gid)
        when, mover = deadline(state), state["to_move"][0]
        assert when is not None
        with caught_reminders() as sent:
            assert run(api, clocks.fire_reminders, service(api),
                       when - dt.timedelta(hours=2, seconds=1)) == 0  # not yet
            assert run(api, clocks.fire_reminders, service(api),
                       when - dt.timedelta(hours=2) + dt.timedelta(seconds=1)) == 1
            assert sent == [(gid, mover, 2.0)]
            assert run(api, clocks.fire_reminders, service(api),
                       when - dt.timedelta(hours=1)) == 0  # sent once only
            assert run(api, clocks.fire_reminders, service(api),
                       when - dt.timedelta(minutes=29)) == 1
            assert sent[-1] == (gid, mover, 0.5)
        # the move made in time: the old deadline's reminders are gone, the next seat's come
        r = api.move(gid, tokens[mover], live(api, gid).state.notation(
            live(api, gid).state.legal_actions(mover)[0]))
        assert r.status_code == 200, r.text
        api.settle()
        nxt = live(api, gid).state.current_players()
        with caught_reminders() as sent:
            run(api, clocks.fire_reminders, service(api),
                dt.datetime.now(dt.UTC) + dt.timedelta(hours=3))
            assert sorted(sent) == sorted((gid, s, h) for s in nxt for h in (2.0, 0.5))


def test_bad_clock_fields_are_refused_and_create_nothing(db_url):
    with app_on(db_url) as api:
        for bad in ({"reminders": ["soon"]}, {"reminders": [0]}, {"reminders": [1] * 6},
                    {"miss_limit": 0}, {"miss_limit": 2, "miss_action": "exile"},
                    {"miss_agent": "no-such-agent"}, {"on_timeout": "standing"},
                    {"move_time": 0}):
            r = api.post("/games", {"game": "fieldshift", **bad})
            assert r.status_code == 400, (bad, r.text)
            assert r.json()["error"]["code"] == "bad_request", r.text

        def count(session):
            return session.query(GameRow).count()

        assert run(api, service(api).db, count) == 0


def test_the_moderator_token_is_shown_once_and_only_its_hash_is_kept(db_url):
    with app_on(db_url) as api:
        made = api.create("fieldshift", move_time=DAY)
        token = made["moderator_token"]
        assert len(token) >= 20
        rows = run(api, service(api).db,
                   lambda s: s.execute(select(clocks.ClockRow.moderator_hash)).all())
        assert rows and token not in str(rows)
        assert token not in str(api.state(made["game_id"], made["seats"][0]["token"]))


def test_a_seat_that_handed_in_its_orders_is_not_reminded(db_url):
    """A simultaneous turn (CTF 2187): the reminder goes to the seats still owing orders when
    it falls due, not to one that handed in meanwhile."""
    with app_on(db_url) as api:
        made = api.create("ctf2187", [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")],
                          turn_deadline=3 * 3600, reminders=[2], creator_seat=None)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for t in tokens:
            api.state(gid, t)
        api.settle()
        when = deadline(api.state(gid))
        r = api.move(gid, tokens[1], "default")  # Bob's sheet: his Standing Orders
        assert r.status_code == 200, r.text
        api.settle()
        assert 1 not in live(api, gid).state.current_players()
        with caught_reminders() as sent:
            run(api, clocks.fire_reminders, service(api),
                when - dt.timedelta(hours=2) + dt.timedelta(seconds=1))
        assert sorted(sent) == [(gid, 0, 2.0), (gid, 2, 2.0)]


def test_an_ended_game_shows_no_deadline_before_the_keeper_clears_it(db_url):
    """The race CI found: a deadline ends the game (a loss for the seat to move), and a state
    read in the moment before the background listener clears `deadline_at` showed a clock
    still running in a game that is over. The state built right after the ending, before any
    background task has run, has none; the column is cleared once the listener has run."""
    with app_on(db_url) as api:
        made = api.create("fieldshift", [{"kind": "human", "name": n} for n in ("Ann", "Bob")],
                          move_time=2 * DAY, on_timeout="loss", creator_seat=None)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for token in tokens:
            api.state(gid, token)  # both seats taken: the clock starts
        api.settle()
        assert deadline(api.state(gid, tokens[0])) is not None
        svc = service(api)

        async def end_and_look() -> tuple[dict, Any]:
            game = await svc.get(gid)
            seat = game.state.current_players()[0]
            await svc.end(gid, "timeout", seat)
            return svc.state_message(game, seat), game.deadline_at  # no await in between

        msg, column = run(api, end_and_look)
        assert column is not None, "the listener ran first: this test no longer shows the race"
        assert msg["over"] and msg["deadline"] is None
        api.settle()
        assert live(api, gid).deadline_at is None
        assert api.state(gid, tokens[1])["deadline"] is None
