"""Ratings through the real HTTP stack, on SQLite and PostgreSQL: rated two-player games move
OpenSkill and Glicko-2 ratings, a CTF 2187 team game moves each team's players together
(CTF-40: a team loses when all its players resign), a three-sided game places two winners
level; the leaderboard and the profiles show them; unrated games, agents and guests leave them
alone; a game's end is counted once, whatever restarts; the schema migrates from accounts."""

from __future__ import annotations

import contextlib
import json
import time
import warnings
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from boardct.core import registry
from boardct.server.app import create_app
from boardct.server.config import ServerConfig
from boardct.server.db import migrate
from boardct.server.ratings import PROVISIONAL_GAMES

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

API = "/api/v1"
COOKIE = "boardct_session"
PASSWORD = "correct horse battery"
FAST_HASH = {"argon2_time_cost": 1, "argon2_memory_kib": 1024}


def make_app(db_url: str) -> TestClient:
    return TestClient(create_app(ServerConfig(db_url=db_url, agent_workers=0, **FAST_HASH)))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_app(db_url) as c:
        yield c


def who(cookie: str) -> dict:
    return {"Cookie": f"{COOKIE}={cookie}"}


def sign_up(c: TestClient, username: str) -> dict:
    r = c.post(f"{API}/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    value = r.cookies.get(COOKIE)
    c.cookies.clear()
    return who(value)


def rated_game(c: TestClient, players: list[dict], game: str = "fieldshift",
               rated: bool = True, **body) -> str:
    """A game created by the first player, every other seat claimed by invite by the next."""
    r = c.post(f"{API}/games", json={"game": game, "rated": rated, "seats": [
        {"kind": "human"} for _ in players]} | body, headers=players[0])
    assert r.status_code == 201, r.text
    c.cookies.clear()
    made = r.json()
    for seat, player in enumerate(players[1:], start=1):
        r = c.post(f"{API}/invites/{made['seats'][seat]['invite']}", json={}, headers=player)
        assert r.status_code == 200, r.text
        c.cookies.clear()
    return made["game_id"]


def resign(c: TestClient, gid: str, player: dict) -> None:
    r = c.post(f"{API}/games/{gid}/resign", json={}, headers=player)
    assert r.status_code == 200, r.text
    c.cookies.clear()


def board(c: TestClient, game: str = "fieldshift") -> dict:
    r = c.get(f"{API}/leaderboard/{game}")
    assert r.status_code == 200, r.text
    return r.json()


def everyone(c: TestClient, game: str = "fieldshift") -> dict[str, dict]:
    got = board(c, game)
    return {p["username"]: p for p in got["players"] + got["provisional"]}


def profile(c: TestClient, username: str) -> dict:
    r = c.get(f"{API}/players/{username}")
    assert r.status_code == 200, r.text
    return r.json()


# -- two players -------------------------------------------------------------------------------
def test_a_rated_two_player_game_moves_both_ratings(client):
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    gid = rated_game(client, [bob, ann])  # FS: the seat on move resigns (FieldShift's 09)
    st = client.get(f"{API}/games/{gid}", headers=ann).json()
    assert st["rated"] is True
    assert everyone(client) == {}  # nothing until a rated game ends
    resign(client, gid, bob)
    rated = everyone(client)
    assert set(rated) == {"ann", "bob"}
    a, b = rated["ann"], rated["bob"]
    assert a["games"] == b["games"] == 1 and a["provisional"] and b["provisional"]
    assert a["mu"] > 25.0 > b["mu"]  # OpenSkill's start is 25
    assert a["sigma"] < 25 / 3 and b["sigma"] < 25 / 3  # both better known now
    assert a["rating"] > b["rating"]
    # Glicko-2 beside it: the winner above 1500, the loser below, by the same amount (the
    # same deviation on both sides)
    assert a["glicko"]["rating"] > 1500 > b["glicko"]["rating"]
    assert a["glicko"]["rating"] - 1500 == pytest.approx(1500 - b["glicko"]["rating"], abs=0.2)
    assert a["glicko"]["rd"] < 350


def test_the_profile_lists_the_rated_games_and_the_rating_history(client):
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    first = rated_game(client, [bob, ann])
    resign(client, first, bob)
    second = rated_game(client, [bob, ann])
    resign(client, second, bob)
    got = profile(client, "ANN")  # found whatever the case
    assert got["username"] == "ann"
    assert [r["game"] for r in got["ratings"]] == ["fieldshift"]
    assert got["ratings"][0]["games"] == 2 and got["ratings"][0]["title"]
    games = got["games"]
    assert [g["game_id"] for g in games] == [second, first]  # newest first
    assert all(g["rank"] == 1 for g in games)
    assert games[1]["rating_after"] == pytest.approx(games[0]["rating_before"])
    assert games[0]["rating_after"] > games[0]["rating_before"]
    assert {p["username"] for p in games[0]["players"]} == {"ann", "bob"}
    assert games[0]["result"]  # the result line
    bob_games = profile(client, "bob")["games"]
    assert all(g["rank"] == 2 for g in bob_games)
    assert client.get(f"{API}/players/nobody").status_code == 404


def test_the_leaderboard_ranks_established_players_apart_from_provisional_ones(client):
    """A rating is provisional for its first PROVISIONAL_GAMES rated games, then ranked."""
    ann, bob, cid = sign_up(client, "ann"), sign_up(client, "bob"), sign_up(client, "cid")
    for _ in range(PROVISIONAL_GAMES):
        gid = rated_game(client, [bob, ann])
        resign(client, gid, bob)
    gid = rated_game(client, [ann, cid])
    resign(client, gid, ann)
    got = board(client)
    assert [(p["rank"], p["username"]) for p in got["players"]] == [(1, "ann"), (2, "bob")]
    assert [p["username"] for p in got["provisional"]] == ["cid"]
    assert got["players"][0]["games"] == PROVISIONAL_GAMES + 1
    assert got["provisional_games"] == PROVISIONAL_GAMES
    assert board(client, "hills")["players"] == []  # per game
    assert client.get(f"{API}/leaderboard/nosuchgame").status_code == 404


# -- teams and several sides: CTF 2187 ---------------------------------------------------------
def test_a_ctf2187_team_game_moves_each_team_together(client):
    """Two teams of two (the default). CTF-40: the team loses once both its players resigned;
    the winners both go up, the losers both down; four players: no Glicko-2 figure."""
    p = [sign_up(client, f"ctf{i}") for i in range(4)]
    gid = rated_game(client, p, game="ctf2187", options={"turn_limit": 5})
    live = client.app.state.service._live[gid]
    teams = {live.state.teammates(s) for s in range(4)}
    assert len(teams) == 2
    losing = sorted(teams)[0]
    resign(client, gid, p[losing[0]])
    assert everyone(client, "ctf2187") == {}  # one of two resigned: the game goes on
    resign(client, gid, p[losing[1]])
    rated = everyone(client, "ctf2187")
    assert len(rated) == 4
    for seat in range(4):
        r = rated[f"ctf{seat}"]
        assert r["games"] == 1 and r["glicko"] is None
        assert (r["mu"] < 25.0) == (seat in losing), (seat, r)
    ranks = {g["seat"]: g["rank"] for g in profile(client, "ctf0")["games"][0]["players"]}
    assert ranks == {s: 2 if s in losing else 1 for s in range(4)}


def test_a_three_sided_ctf2187_game_places_the_two_winners_level(client):
    p = [sign_up(client, f"tri{i}") for i in range(3)]
    gid = rated_game(client, p, game="ctf2187", options={"teams": 3, "turn_limit": 5})
    resign(client, gid, p[1])  # one player a team: their team loses at once
    rated = everyone(client, "ctf2187")
    assert rated["tri0"]["mu"] == pytest.approx(rated["tri2"]["mu"])
    assert rated["tri0"]["mu"] > 25.0 > rated["tri1"]["mu"]
    players = profile(client, "tri1")["games"][0]["players"]
    assert [g["rank"] for g in players] == [1, 3, 1]


# -- what leaves the ratings alone -------------------------------------------------------------
def test_an_unrated_game_between_accounts_leaves_the_ratings_alone(client):
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    gid = rated_game(client, [bob, ann], rated=False)
    assert "rated" not in client.get(f"{API}/games/{gid}", headers=ann).json()
    resign(client, gid, bob)
    assert everyone(client) == {} and profile(client, "ann")["games"] == []


def rematch(c: TestClient, gid: str, player: dict) -> dict:
    r = c.post(f"{API}/games/{gid}/rematch", json={}, headers=player)
    assert r.status_code == 200, r.text
    c.cookies.clear()
    return r.json()


def test_the_rematch_of_a_rated_game_is_rated_and_moves_the_ratings_again(client):
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    gid = rated_game(client, [bob, ann])
    resign(client, gid, bob)
    again = rematch(client, gid, ann)
    assert rematch(client, gid, bob)["game_id"] == again["game_id"]
    new = again["game_id"]
    assert client.get(f"{API}/games/{new}", headers=ann).json()["rated"] is True
    resign(client, new, ann)  # the seats rotated: Ann is on move in the rematch
    rated = everyone(client)
    assert rated["ann"]["games"] == rated["bob"]["games"] == 2
    assert [g["game_id"] for g in profile(client, "ann")["games"]] == [new, gid]


def test_the_rematch_of_an_unrated_game_stays_unrated(client):
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    gid = rated_game(client, [bob, ann], rated=False)
    resign(client, gid, bob)
    new = rematch(client, gid, ann)["game_id"]
    assert not client.get(f"{API}/games/{new}", headers=ann).json().get("rated")
    rematch(client, gid, bob)
    resign(client, new, ann)
    assert everyone(client) == {}


def test_a_rated_game_with_an_agent_is_refused_and_an_agent_game_rates_nobody(client):
    ann = sign_up(client, "ann")
    r = client.post(f"{API}/games", json={"game": "fieldshift", "rated": True, "seats": [
        {"kind": "human"}, {"kind": "agent", "agent": "random"}]}, headers=ann)
    assert r.status_code == 400 and "computer" in r.json()["error"]["message"]
    client.cookies.clear()
    r = client.post(f"{API}/games", json={"game": "fieldshift", "seats": [
        {"kind": "human"}, {"kind": "agent", "agent": "random"}]}, headers=ann)
    assert r.status_code == 201
    client.cookies.clear()
    resign(client, r.json()["game_id"], ann)
    assert everyone(client) == {}


def test_a_guest_may_not_create_or_join_a_rated_game(client):
    r = client.post(f"{API}/games", json={"game": "fieldshift", "rated": True})
    assert r.status_code == 403 and "sign" in r.json()["error"]["message"]
    ann = sign_up(client, "ann")
    r = client.post(f"{API}/games", json={"game": "fieldshift", "rated": True, "public": True,
                                          "seats": [{"kind": "human"},
                                                    {"kind": "human", "open": True}]},
                    headers=ann)
    made = r.json()
    client.cookies.clear()
    gid = made["game_id"]
    r = client.post(f"{API}/invites/{made['seats'][1]['invite']}", json={})
    assert r.status_code == 403 and "rated" in r.json()["error"]["message"]
    r = client.post(f"{API}/games/{gid}/seats/1/take", json={})
    assert r.status_code == 403 and "rated" in r.json()["error"]["message"]
    bob = sign_up(client, "bob")  # signed in, the same invite works
    r = client.post(f"{API}/invites/{made['seats'][1]['invite']}", json={}, headers=bob)
    assert r.status_code == 200, r.text


def test_a_rated_game_a_guest_played_by_its_seat_token_is_counted_unrated(client, db_url):
    """The creation token of a seat still plays it (a guest the creator handed it to): the
    end then moves no rating, and the game says why."""
    ann = sign_up(client, "ann")
    r = client.post(f"{API}/games", json={"game": "fieldshift", "rated": True,
                                          "creator_seat": 1}, headers=ann)
    made = r.json()
    client.cookies.clear()
    guest = {"Authorization": f"Bearer {made['seats'][0]['token']}"}
    assert client.get(f"{API}/games/{made['game_id']}", headers=guest).json()["seat"] == 0
    resign(client, made["game_id"], guest)
    assert everyone(client) == {}
    engine = create_engine(db_url)
    with engine.connect() as conn:
        note = conn.execute(text("SELECT note FROM rated_games")).scalar_one()
    engine.dispose()
    assert note == "unrated: a seat was played by a guest"


# -- once --------------------------------------------------------------------------------------
def test_a_games_end_is_counted_once_across_restarts(db_url):
    with make_app(db_url) as c:
        ann, bob = sign_up(c, "ann"), sign_up(c, "bob")
        gid = rated_game(c, [bob, ann])
        resign(c, gid, bob)
        before = everyone(c)
        again = c.post(f"{API}/games/{gid}/resign", json={}, headers=bob)
        assert again.status_code == 409  # the game is over: nothing more to count
    for _ in range(2):  # restarted twice: the game is loaded again from its log
        with make_app(db_url) as c:
            st = c.get(f"{API}/games/{gid}", headers=ann).json()
            assert st["result"] and st["rated"] is True
            assert everyone(c) == before
            assert len(profile(c, "ann")["games"]) == 1
    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT count(*) FROM rating_history")).scalar_one()
    engine.dispose()
    assert rows == 2


# -- the schema --------------------------------------------------------------------------------
def test_an_account_of_the_previous_schema_is_neither_admin_nor_disabled(db_url):
    from pwdlib import PasswordHash

    engine = create_engine(db_url)
    migrate(engine, "0003_accounts")
    hashed = PasswordHash.recommended().hash(PASSWORD)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO accounts (username, username_key, password_hash, "
                          "created) VALUES ('old', 'old', :h, CURRENT_TIMESTAMP)"),
                     {"h": hashed})
    engine.dispose()
    with make_app(db_url) as c:
        r = c.post(f"{API}/account/signin", json={"username": "old", "password": PASSWORD})
        assert r.status_code == 200, r.text
        c.cookies.clear()
        bob = sign_up(c, "bob")
        old = who(r.cookies[COOKIE])
        gid = rated_game(c, [bob, old])
        resign(c, gid, bob)
        assert everyone(c)["old"]["games"] == 1
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT is_admin, disabled FROM accounts WHERE "
                                 "username = 'old'")).one() == (False, False)
    engine.dispose()


def test_every_game_has_a_leaderboard(client):
    for game in registry.all_games():
        got = board(client, game.id)
        assert got["game"] == game.id and got["title"] == game.title
        assert json.dumps(got)


# -- a real server killed at the end of a rated game -------------------------------------------
def test_a_server_killed_as_a_rated_game_ends_counts_it_once(serve, db_url):
    """SIGKILL while the ending resignation is in flight: after the restart the game has
    either ended with the ratings moved, or not ended with them untouched (the end and the
    ratings are one transaction); resent with its move id, it ends the game once, and the
    ratings have counted it once."""
    import threading

    import httpx

    server = serve(db_url)
    http = httpx.Client(base_url=server.base_url + API, timeout=20)

    def account(name: str) -> dict:
        r = http.post("/account/signup", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        http.cookies.clear()
        return who(r.cookies[COOKIE])

    ann, bob = account("ann"), account("bob")
    made = http.post("/games", json={"game": "fieldshift", "rated": True}, headers=bob).json()
    http.cookies.clear()
    gid = made["game_id"]
    r = http.post(f"/invites/{made['seats'][1]['invite']}", json={}, headers=ann)
    assert r.status_code == 200, r.text
    http.cookies.clear()

    def resign_in_flight() -> None:
        with contextlib.suppress(httpx.HTTPError):
            httpx.post(f"{server.base_url}{API}/games/{gid}/resign",
                       json={"move_id": "bob-resigns"}, headers=bob, timeout=5)

    sender = threading.Thread(target=resign_in_flight)
    sender.start()
    time.sleep(0.05)
    server.kill()
    sender.join()
    server.start()

    def counted() -> tuple[bool, dict]:
        st = http.get(f"/games/{gid}", headers=ann).json()
        http.cookies.clear()
        return bool(st["result"]), {p["username"]: p["games"] for p in
                                    http.get("/leaderboard/fieldshift").json()["provisional"]}

    ended, games = counted()
    assert games == ({"ann": 1, "bob": 1} if ended else {})
    r = http.post(f"/games/{gid}/resign", json={"move_id": "bob-resigns"}, headers=bob)
    http.cookies.clear()
    assert r.status_code == 200, r.text  # the original acknowledgement, or the first
    server.kill()
    server.start()
    assert counted() == (True, {"ann": 1, "bob": 1})
    http.close()


def test_a_failing_rating_never_stops_the_games_end(client, db_url, monkeypatch):
    """A rating library that raises: the game ends all the same, counted unrated, and the
    reason is kept."""
    from boardct.server import ratings

    class Broken:
        mu, sigma = 25.0, 25.0 / 3.0

        def rating(self, mu=None, sigma=None):
            return (mu, sigma)

        def rate(self, *_args, **_kwargs):
            raise ArithmeticError("the library failed")

    monkeypatch.setattr(ratings, "_model", Broken)
    ann, bob = sign_up(client, "ann"), sign_up(client, "bob")
    gid = rated_game(client, [bob, ann])
    resign(client, gid, bob)
    assert client.get(f"{API}/games/{gid}", headers=ann).json()["result"]["winners"] == [1]
    assert everyone(client) == {}
    engine = create_engine(db_url)
    with engine.connect() as conn:
        note = conn.execute(text("SELECT note FROM rated_games")).scalar_one()
        history = conn.execute(text("SELECT count(*) FROM rating_history")).scalar_one()
    engine.dispose()
    assert note.startswith("unrated: the rating failed") and history == 0
