"""A game's moderator (server/moderation.py) through the real HTTP stack, on SQLite and
PostgreSQL: in a running 3-player CTF 2187 game the creator extends the turn deadline and
replaces a player who vanished by an agent; every seat's log shows both; the record replays to
the same state; nobody else may moderate (403, JSON); a pause stops moves and the clock."""

from __future__ import annotations

import datetime as dt

from clock_helpers import app_on, deadline, keeper, live, log_lines, run, service, time_runs_out

from boardct.core.records import Record, replay

DAY = 86400
NAMES = ("Ann", "Bob", "Cy")


def ctf_game(api, **extra):
    """A CTF 2187 game of three people, created by Ann (seat 1), every seat taken."""
    made = api.create("ctf2187", [{"kind": "human", "name": n} for n in NAMES],
                      turn_deadline=DAY, on_timeout="default", creator_seat=0, **extra)
    gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
    for t in tokens:
        api.state(gid, t)
    api.settle()
    return gid, tokens, made["moderator_token"]


def test_moderator_extends_the_deadline_and_replaces_a_vanished_player(db_url):
    with app_on(db_url) as api:
        gid, tokens, _ = ctf_game(api)
        before = deadline(api.state(gid, tokens[0]))
        assert before is not None
        turn = live(api, gid).state.turn
        # Bob hands in (the standing orders, CTF-14), Cy has vanished
        r = api.move(gid, tokens[1], "default")
        assert r.status_code == 200, r.text
        api.settle()
        # Ann, the creator, gives two more days
        r = api.post(f"/games/{gid}/moderator/deadline", {"extend": 2 * DAY}, tokens[0])
        assert r.status_code == 200, r.text
        api.settle()
        extended = dt.datetime.fromisoformat(r.json()["deadline"])
        assert extended >= before + dt.timedelta(days=2) - dt.timedelta(seconds=1)
        for t in tokens:  # every seat has the new deadline and reads the act in its log
            state = api.state(gid, t)
            assert deadline(state) == extended
            assert any(line.startswith("Moderator: deadline extended to") for line in
                       log_lines(state))
        # Cy never comes back: an agent plays the seat from now on and the turn goes on
        r = api.move(gid, tokens[0], "default")
        assert r.status_code == 200, r.text
        r = api.post(f"/games/{gid}/moderator/replace", {"seat": 2, "by": "agent",
                                                          "agent": "random"}, tokens[0])
        assert r.status_code == 200, r.text
        api.settle()
        now = live(api, gid)
        assert now.seats[2].kind == "agent" and now.state.turn == turn + 1
        for t in tokens[:2]:
            lines = log_lines(api.state(gid, t))
            assert any("Moderator: seat 3 (Cy) replaced by the moderator: played by the agent "
                       "random" in line for line in lines), lines
        # Cy's old token no longer holds the seat
        assert api.get(f"/games/{gid}", tokens[2]).status_code == 401
        # the record (moderator entries and all) replays to the same position
        record = service(api).record(now)
        assert any(text.startswith("mod ") for text in record.actions)
        again = replay(Record.from_dict(record.to_dict()))
        for seat in (None, 0, 1, 2):
            assert again.view(seat) == now.state.view(seat)


def test_only_the_moderator_moderates(db_url):
    """Another player, a spectator, a wrong token: 403 with a JSON error, nothing changed. The
    moderator token (for a creator who plays no seat) works like the creator's seat."""
    with app_on(db_url) as api:
        gid, tokens, mod_token = ctf_game(api)
        version = live(api, gid).version
        acts = [("deadline", {"extend": 3600}), ("pause", {}), ("resume", {}),
                ("replace", {"seat": 1}), ("announce", {"text": "hi"})]
        for who in (tokens[1], tokens[2], None, "not-a-token"):
            for act, body in acts:
                r = api.post(f"/games/{gid}/moderator/{act}", body, who)
                assert r.status_code == 403, (act, who, r.text)
                assert r.json()["error"]["code"] == "forbidden"
            assert api.get(f"/games/{gid}/moderator", who).status_code == 403
        assert live(api, gid).version == version
        r = api.post(f"/games/{gid}/moderator/announce", {"text": "Turn 1 runs to Friday."},
                     mod_token)
        assert r.status_code == 200, r.text
        api.settle()
        for t in tokens:
            assert "Moderator: says: Turn 1 runs to Friday." in log_lines(api.state(gid, t))
        info = api.get(f"/games/{gid}/moderator", tokens[0]).json()
        assert info["paused"] is False and info["reminders"] == [24.0, 1.0]


def test_pause_stops_moves_and_the_clock_resume_gives_the_time_left(db_url):
    with app_on(db_url) as api:
        made = api.create("fieldshift", move_time=DAY, on_timeout="loss", creator_seat=0)
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        api.state(gid, tokens[1])
        api.settle()
        state = api.state(gid, tokens[0])
        left = (deadline(state) - dt.datetime.now(dt.UTC)).total_seconds()
        mover = state["to_move"][0]
        move = live(api, gid).state.notation(live(api, gid).state.legal_actions(mover)[0])
        r = api.post(f"/games/{gid}/moderator/pause", {}, tokens[0])
        assert r.status_code == 200, r.text
        api.settle()
        for t in tokens:
            state = api.state(gid, t)
            assert state["paused"] is True and state["deadline"] is None
            assert "Moderator: game paused" in log_lines(state)
        version = live(api, gid).version
        r = api.move(gid, tokens[mover], move)
        assert r.status_code == 403 and "paused" in r.json()["error"]["message"]
        # the keeper neither re-arms nor acts on a paused game
        run(api, keeper(api).tick)
        assert live(api, gid).deadline_at is None and live(api, gid).version == version
        assert api.post(f"/games/{gid}/moderator/deadline", {"extend": 60},
                        tokens[0]).status_code == 409
        r = api.post(f"/games/{gid}/moderator/resume", {}, tokens[0])
        assert r.status_code == 200, r.text
        api.settle()
        resumed = deadline(api.state(gid, tokens[1]))
        ahead = (resumed - dt.datetime.now(dt.UTC)).total_seconds()
        assert left - 120 < ahead <= left + 1  # the time left when paused, not a fresh day
        r = api.move(gid, tokens[mover], move)
        assert r.status_code == 200, r.text


def test_a_player_who_misses_k_deadlines_in_a_row_is_replaced_by_an_agent(db_url):
    """miss_limit 2, miss_action "agent": a person's second deadline missed in a row puts an
    agent in the seat (with the moderator's log entry); a move of one's own ends the run."""
    with app_on(db_url) as api:
        made = api.create("fieldshift", move_time=DAY, on_timeout="default", creator_seat=0,
                          miss_limit=2, miss_action="agent", miss_agent="random")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        api.state(gid, tokens[1])
        api.settle()
        missed: dict[int, int] = {0: 0, 1: 0}
        replaced = None
        for _ in range(8):
            g = live(api, gid)
            owing = g.state.current_players()[0]
            if g.seats[owing].kind != "human" or g.over:
                break
            time_runs_out(api, gid)
            missed[owing] += 1
            info = api.get(f"/games/{gid}/moderator", tokens[0]).json()
            if missed[owing] == 2:
                replaced = owing
                break
            assert info["misses"][str(owing)] == missed[owing]
        assert replaced is not None
        g = live(api, gid)
        assert g.seats[replaced].kind == "agent" and g.seats[replaced].agent == "random"
        assert any("missed 2 deadlines in a row: played by the agent random" in line
                   for line in log_lines(api.state(gid)))


def test_a_vanished_player_s_seat_goes_to_a_newly_invited_person(db_url):
    """Replaced "by invite": the old token no longer holds the seat, the clock waits (a seat is
    free), the new person takes the seat with the invite and plays; the log says so."""
    with app_on(db_url) as api:
        gid, tokens, mod_token = ctf_game(api)
        r = api.post(f"/games/{gid}/moderator/replace", {"seat": 1, "by": "invite"}, mod_token)
        assert r.status_code == 200, r.text
        invite = r.json()["invite"]
        api.settle()
        assert api.get(f"/games/{gid}", tokens[1]).status_code == 401
        state = api.state(gid, tokens[0])
        assert state["deadline"] is None  # the clock waits for the new player
        assert "Moderator: seat 2 (Bob) goes to a newly invited player" in log_lines(state)
        r = api.post(f"/invites/{invite}", {"name": "Dee"})
        assert r.status_code == 200, r.text
        new_token = r.json()["token"]
        api.settle()
        state = api.state(gid, new_token)
        assert state["seat"] == 1 and state["deadline"] is not None
        r = api.move(gid, new_token, "default")
        assert r.status_code == 200, r.text
        assert api.post(f"/invites/{invite}", {"name": "Eve"}).status_code == 404  # once


def test_a_player_who_misses_k_deadlines_in_a_row_loses_where_the_game_says_so(db_url):
    """miss_limit 1, miss_action "loss": the first deadline a person lets pass (the game's
    default played for them) ends the game with their loss, and the log says why."""
    with app_on(db_url) as api:
        made = api.create("fieldshift", move_time=DAY, on_timeout="default", creator_seat=0,
                          miss_limit=1, miss_action="loss")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        api.state(gid, tokens[1])
        api.settle()
        owing = live(api, gid).state.current_players()[0]
        time_runs_out(api, gid)
        state = api.state(gid)
        assert state["over"] and owing not in state["result"]["winners"]
        assert any(line.startswith(f"Moderator: seat {owing + 1}") and
                   line.endswith("missed 1 deadlines in a row: loses")
                   for line in log_lines(state)), log_lines(state)
