"""Accounts through the real HTTP and websocket stack, on SQLite and PostgreSQL: sign-up and
sign-in, a seat that follows its account (cookie and personal API token), another account
refused, cross-site writes refused, sign-in throttled, a guest's seats moved into an account,
and the safe lobby (private by default, the creator's seat theirs, only open seats offered,
the others told when one is taken)."""

from __future__ import annotations

import datetime as dt
import json
import warnings
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from boardct.core import registry
from boardct.server.app import create_app
from boardct.server.config import ServerConfig
from boardct.server.db import migrate
from boardct.server.quotas import QuotaExceeded, Quotas

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

API = "/api/v1"
COOKIE = "boardct_session"
PASSWORD = "correct horse battery"
# a cheap Argon2 for the tests' many sign-ups (the server's default is pwdlib's recommended)
FAST_HASH = {"argon2_time_cost": 1, "argon2_memory_kib": 1024}


def make_app(db_url: str, **config) -> TestClient:
    return TestClient(create_app(ServerConfig(db_url=db_url, agent_workers=0,
                                              **(FAST_HASH | config))))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make_app(db_url) as c:
        yield c


def jar_free(c: TestClient) -> None:
    """Forget the cookies the client kept: each test sends its cookie itself, per request,
    as a separate browser would."""
    c.cookies.clear()


def sign_up(c: TestClient, username: str, **body) -> str:
    """A new account; its session cookie's value."""
    r = c.post(f"{API}/account/signup", json={"username": username, "password": PASSWORD}
               | body)
    assert r.status_code == 201, r.text
    value = r.cookies.get(COOKIE)
    assert value
    jar_free(c)
    return value


def sign_in(c: TestClient, username: str, password: str = PASSWORD, **body):
    r = c.post(f"{API}/account/signin", json={"username": username, "password": password}
               | body)
    jar_free(c)
    return r


def as_cookie(value: str) -> dict:
    return {"Cookie": f"{COOKIE}={value}"}


def as_token(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(c: TestClient, headers: dict | None = None, **body) -> dict:
    r = c.post(f"{API}/games", json={"game": "fieldshift"} | body, headers=headers or {})
    assert r.status_code == 201, r.text
    jar_free(c)
    return r.json()


def state(c: TestClient, gid: str, headers: dict | None = None) -> dict:
    r = c.get(f"{API}/games/{gid}", headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


def first_legal(c: TestClient, gid: str, headers: dict) -> str:
    st = state(c, gid, headers)
    assert st["my_turn"], st
    return st["legal"][0]["text"]


def api_token(c: TestClient, cookie: str, name: str = "bot") -> dict:
    r = c.post(f"{API}/account/tokens", json={"name": name}, headers=as_cookie(cookie))
    assert r.status_code == 201, r.text
    return r.json()


# -- signing up and in --------------------------------------------------------------------------
def test_sign_up_sets_an_http_only_same_site_cookie_and_stores_no_password(client, db_url):
    r = client.post(f"{API}/account/signup", json={"username": "Ann", "password": PASSWORD,
                                                   "email": "ann@example.org"})
    assert r.status_code == 201, r.text
    assert r.json()["account"] == {"id": 1, "username": "Ann", "email": "ann@example.org"}
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # plain HTTP here: see the HTTPS case below
    engine = create_engine(db_url)
    with engine.connect() as conn:
        stored = conn.execute(text("SELECT password_hash FROM accounts")).scalar_one()
        session_ids = conn.execute(text("SELECT id_hash FROM sessions")).scalars().all()
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert r.cookies[COOKIE] not in session_ids  # only its hash is kept
    me = client.get(f"{API}/account", headers=as_cookie(r.cookies[COOKIE]))
    assert me.json()["account"]["username"] == "Ann"


def test_the_cookie_is_secure_behind_https(sqlite_url):
    with make_app(sqlite_url) as c:
        c.base_url = c.base_url.copy_with(scheme="https")
        r = c.post(f"{API}/account/signup", json={"username": "ann", "password": PASSWORD})
        assert r.status_code == 201
        assert "secure" in r.headers["set-cookie"].lower()


@pytest.mark.parametrize("body,message", [
    ({"username": "an", "password": PASSWORD}, "username"),
    ({"username": "a\x00nn", "password": PASSWORD}, "username"),
    ({"username": "ann", "password": "short"}, "password"),
    ({"username": "ann", "password": "x" * 300}, "password"),
    ({"username": "ann", "password": PASSWORD, "email": "not an address"}, "email"),
    ({"username": 5, "password": PASSWORD}, "username"),
])
def test_bad_sign_ups_are_400_and_make_no_account(client, body, message):
    r = client.post(f"{API}/account/signup", json=body)
    assert r.status_code == 400 and message in r.json()["error"]["message"], r.text
    assert sign_in(client, "ann").status_code == 401


def test_a_username_is_taken_whatever_its_case(client):
    sign_up(client, "Ann")
    r = client.post(f"{API}/account/signup", json={"username": "aNN", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    assert sign_in(client, "ANN").status_code == 200  # the username is matched without case


def test_a_wrong_password_and_an_unknown_user_get_the_same_answer(client):
    sign_up(client, "ann")
    wrong = sign_in(client, "ann", "not the password")
    nobody = sign_in(client, "nobody", "not the password")
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()
    assert COOKIE not in wrong.cookies and COOKIE not in nobody.cookies


def test_signing_out_ends_the_session_everywhere(client):
    cookie = sign_up(client, "ann")
    assert client.get(f"{API}/account", headers=as_cookie(cookie)).status_code == 200
    r = client.post(f"{API}/account/signout", headers=as_cookie(cookie))
    assert r.status_code == 200
    jar_free(client)
    r = client.get(f"{API}/account", headers=as_cookie(cookie))
    assert r.status_code == 200 and r.json() == {"account": None}
    r = client.get(f"{API}/account/games", headers=as_cookie(cookie))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_a_session_ends_when_it_expires(client, db_url):
    cookie = sign_up(client, "ann")
    assert client.get(f"{API}/account", headers=as_cookie(cookie)).json()["account"]
    engine = create_engine(db_url)
    with engine.begin() as conn:  # 30 days later
        conn.execute(text("UPDATE sessions SET expires = :past"),
                     {"past": dt.datetime(2000, 1, 1, tzinfo=dt.UTC)})
    engine.dispose()
    assert client.get(f"{API}/account", headers=as_cookie(cookie)).json() == {"account": None}


def test_an_account_holding_two_seats_picks_one(client):
    ann = sign_up(client, "ann")
    made = create(client, as_cookie(ann))
    gid = made["game_id"]
    r = client.post(f"{API}/invites/{made['seats'][1]['invite']}", json={},
                    headers=as_cookie(ann))
    assert r.status_code == 200
    jar_free(client)
    assert state(client, gid, as_cookie(ann))["seat"] == 0  # the first, unless told
    r = client.get(f"{API}/games/{gid}?seat=1", headers=as_cookie(ann))
    assert r.json()["seat"] == 1
    own = as_cookie(ann) | {"Origin": "http://testserver"}
    with client.websocket_connect(f"{API}/games/{gid}/ws", headers=own) as sock:
        sock.send_json({"type": "hello", "v": 1, "token": None, "since": None, "seat": 1})
        assert sock.receive_json()["seat"] == 1
    r = client.get(f"{API}/games/{gid}?seat=x", headers=as_cookie(ann))
    assert r.status_code == 400


# -- a seat follows the account -----------------------------------------------------------------
def test_the_creators_seat_is_their_accounts_on_any_device(client):
    first_device = sign_up(client, "ann")
    made = create(client, as_cookie(first_device))
    gid = made["game_id"]
    # another device: a sign-in of its own, no seat token
    other_device = sign_in(client, "ann").cookies[COOKIE]
    assert other_device != first_device
    for cookie in (first_device, other_device):
        assert state(client, gid, as_cookie(cookie))["seat"] == 0
    text_ = first_legal(client, gid, as_cookie(other_device))
    r = client.post(f"{API}/games/{gid}/moves", json={"text": text_},
                    headers=as_cookie(other_device))
    assert r.status_code == 200 and r.json()["ack"], r.text
    assert state(client, gid, as_cookie(first_device))["version"] == 1
    # my games lists it, on both devices
    for cookie in (first_device, other_device):
        games = client.get(f"{API}/account/games", headers=as_cookie(cookie)).json()["games"]
        assert [(g["game_id"], g["seat"]) for g in games] == [(gid, 0)]


def test_a_personal_api_token_plays_the_accounts_seat_until_revoked(client):
    cookie = sign_up(client, "ann")
    made = create(client, as_cookie(cookie))
    gid = made["game_id"]
    bot = api_token(client, cookie, "my bot")
    assert bot["token"].startswith("bct_") and bot["name"] == "my bot"
    listed = client.get(f"{API}/account/tokens", headers=as_cookie(cookie)).json()["tokens"]
    assert [t["name"] for t in listed] == ["my bot"] and "token" not in listed[0]
    assert state(client, gid, as_token(bot["token"]))["seat"] == 0
    r = client.post(f"{API}/games/{gid}/moves",
                    json={"text": first_legal(client, gid, as_token(bot["token"]))},
                    headers=as_token(bot["token"]))
    assert r.status_code == 200, r.text
    # an API token cannot make more tokens (only a signed-in browser can)
    r = client.post(f"{API}/account/tokens", json={"name": "x"}, headers=as_token(bot["token"]))
    assert r.status_code == 401
    r = client.delete(f"{API}/account/tokens/{bot['id']}", headers=as_cookie(cookie))
    assert r.status_code == 200
    r = client.get(f"{API}/games/{gid}", headers=as_token(bot["token"]))
    assert r.status_code == 401 and "revoked" in r.json()["error"]["message"]
    assert client.get(f"{API}/account/tokens", headers=as_cookie(cookie)).json() == {
        "tokens": []}


def test_another_accounts_cookie_or_token_is_refused(client):
    ann = sign_up(client, "ann")
    eve = sign_up(client, "eve")
    eve_bot = api_token(client, eve)["token"]
    made = create(client, as_cookie(ann))
    gid = made["game_id"]
    legal = first_legal(client, gid, as_cookie(ann))
    for headers in (as_cookie(eve), as_token(eve_bot)):
        # Eve holds no seat here: she watches, and cannot act for Ann's seat
        assert state(client, gid, headers)["seat"] is None
        r = client.post(f"{API}/games/{gid}/moves", json={"text": legal}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        r = client.post(f"{API}/games/{gid}/moves?seat=0", json={"text": legal},
                        headers=headers)
        assert r.status_code == 403 and "not yours" in r.json()["error"]["message"]
        r = client.post(f"{API}/games/{gid}/resign", json={}, headers=headers)
        assert r.status_code == 403
    # Eve cannot revoke Ann's tokens, nor pull Ann's seat into her account
    ann_bot = api_token(client, ann)
    r = client.delete(f"{API}/account/tokens/{ann_bot['id']}", headers=as_cookie(eve))
    assert r.status_code == 404
    r = client.post(f"{API}/account/seats", json={"tokens": [made["seats"][0]["token"]]},
                    headers=as_cookie(eve))
    assert r.status_code == 200 and r.json() == {"moved": []}
    assert client.get(f"{API}/account/games", headers=as_cookie(eve)).json() == {"games": []}
    # a made-up token or cookie is nobody
    r = client.get(f"{API}/games/{gid}", headers=as_token("bct_" + "A" * 43))
    assert r.status_code == 401
    assert state(client, gid, as_cookie("forged-session"))["seat"] is None
    assert state(client, gid, as_cookie(ann))["version"] == 0  # nothing was played


def test_the_websocket_plays_the_accounts_seat_from_the_servers_own_pages_only(client):
    ann = sign_up(client, "ann")
    gid = create(client, as_cookie(ann))["game_id"]
    own = as_cookie(ann) | {"Origin": "http://testserver"}
    with client.websocket_connect(f"{API}/games/{gid}/ws", headers=own) as sock:
        sock.send_json({"type": "hello", "v": 1, "token": None, "since": None})
        assert sock.receive_json()["seat"] == 0
        st = sock.receive_json()
        sock.send_json({"type": "move", "id": "m1", "text": st["legal"][0]["text"],
                        "version": 0})
        assert sock.receive_json()["type"] == "ack"
    # another site's page opening a socket with the visitor's cookie: a spectator
    evil = as_cookie(ann) | {"Origin": "https://evil.example"}
    with client.websocket_connect(f"{API}/games/{gid}/ws", headers=evil) as sock:
        sock.send_json({"type": "hello", "v": 1, "token": None, "since": None})
        assert sock.receive_json()["seat"] is None
    # a bot's API token in the hello
    bot = api_token(client, ann)["token"]
    with client.websocket_connect(f"{API}/games/{gid}/ws") as sock:
        sock.send_json({"type": "hello", "v": 1, "token": bot, "since": None})
        assert sock.receive_json()["seat"] == 0


# -- cross-site request forgery -----------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
    {"Sec-Fetch-Site": "same-site", "Origin": "http://sub.testserver"},
    {"Origin": "null"},
])
def test_a_cross_site_form_post_is_refused(client, headers):
    ann = sign_up(client, "ann")
    made = create(client, as_cookie(ann))
    gid = made["game_id"]
    legal = first_legal(client, gid, as_cookie(ann))
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    forged = [
        (f"/games/{gid}/moves", json.dumps({"text": legal})),  # JSON in a form's body
        (f"/games/{gid}/resign", "{}"),
        ("/account/tokens", '{"name": "stolen"}'),
        ("/account/signout", ""),
        ("/account/signin", '{"username": "ann", "password": "x"}'),  # login CSRF
    ]
    for path, body in forged:
        r = client.post(API + path, content=body, headers=as_cookie(ann) | headers | form)
        assert r.status_code == 403, (path, r.text)
        assert "cross-site" in r.json()["error"]["message"]
    jar_free(client)
    st = state(client, gid, as_cookie(ann))
    assert st["version"] == 0 and not st["over"] and st["seat"] == 0  # nothing happened
    assert client.get(f"{API}/account/tokens", headers=as_cookie(ann)).json()["tokens"] == []


def test_the_servers_own_pages_may_write(client):
    ann = sign_up(client, "ann")
    gid = create(client, as_cookie(ann))["game_id"]
    legal = first_legal(client, gid, as_cookie(ann))
    same = {"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}
    r = client.post(f"{API}/games/{gid}/moves", json={"text": legal},
                    headers=as_cookie(ann) | same)
    assert r.status_code == 200, r.text
    # a browser without Fetch Metadata: its Origin is the server's own
    r = client.post(f"{API}/account/tokens", json={"name": "b"},
                    headers=as_cookie(ann) | {"Origin": "http://testserver"})
    assert r.status_code == 201, r.text


def test_a_trusted_origin_may_write(sqlite_url):
    with make_app(sqlite_url, trusted_origins=("https://play.example.org",)) as c:
        ann = sign_up(c, "ann")
        r = c.post(f"{API}/account/tokens", json={"name": "b"},
                   headers=as_cookie(ann) | {"Origin": "https://play.example.org",
                                             "Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 201, r.text


# -- sign-in brute force --------------------------------------------------------------------
def test_sign_in_brute_force_is_throttled_with_429_and_retry_after(db_url):
    with make_app(db_url, quotas={"signin": "5 per minute"}) as c:
        sign_up(c, "ann")
        answers = [sign_in(c, "ann", f"guess {i}").status_code for i in range(5)]
        assert answers == [401] * 5
        r = sign_in(c, "ann", "guess 6")
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "too_many_requests"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        # throttled, even the right password gets no session (the guesser learns nothing)
        r = sign_in(c, "ann")
        assert r.status_code == 429 and COOKIE not in r.cookies


def test_sign_ups_are_throttled_by_client_address(sqlite_url):
    with make_app(sqlite_url, quotas={"signup": "3 per hour"}) as c:
        for i in range(3):
            sign_up(c, f"user{i}")
        r = c.post(f"{API}/account/signup", json={"username": "user9", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        assert sign_in(c, "user9").status_code == 401  # no account was made


def test_the_signin_rule_counts_each_username_and_each_address_apart():
    quotas = Quotas(type("Config", (), {"quotas": {"signin": "2 per minute"}})())
    for _ in range(2):
        quotas.hit("signin", "user:ann")
    with pytest.raises(QuotaExceeded) as exc:
        quotas.hit("signin", "user:ann")  # from any address: the username is locked
    assert exc.value.retry_after >= 1
    quotas.hit("signin", "user:bob")  # another username is not
    quotas.hit("signin", "10.0.0.1")


# -- a guest's seats move into an account -------------------------------------------------------
def test_a_guests_seats_move_into_a_new_account(client):
    one = create(client)  # as a guest: the creator's seat 0, by its token
    two = create(client, seats=[{"kind": "human"}, {"kind": "human"}], creator_seat=1)
    tokens = [one["seats"][0]["token"], two["seats"][1]["token"]]
    r = client.post(f"{API}/account/signup", json={"username": "ann", "password": PASSWORD,
                                                   "tokens": tokens + ["not-a-token"]})
    assert r.status_code == 201, r.text
    assert sorted((m["game_id"], m["seat"]) for m in r.json()["moved"]) == sorted(
        [(one["game_id"], 0), (two["game_id"], 1)])
    jar_free(client)
    # a new device, no tokens: signed in, the account plays both seats
    device = sign_in(client, "ann").cookies[COOKIE]
    games = client.get(f"{API}/account/games", headers=as_cookie(device)).json()["games"]
    assert sorted((g["game_id"], g["seat"]) for g in games) == sorted(
        [(one["game_id"], 0), (two["game_id"], 1)])
    assert state(client, one["game_id"], as_cookie(device))["seat"] == 0
    assert state(client, two["game_id"], as_cookie(device))["seat"] == 1
    r = client.post(f"{API}/games/{one['game_id']}/moves",
                    json={"text": first_legal(client, one["game_id"], as_cookie(device))},
                    headers=as_cookie(device))
    assert r.status_code == 200, r.text
    # the guest's token still plays (the old browser is not cut off)
    assert state(client, one["game_id"], as_token(tokens[0]))["seat"] == 0
    # and a seat already in an account is not taken by another's sign-in
    r = client.post(f"{API}/account/signup", json={"username": "eve", "password": PASSWORD,
                                                   "tokens": tokens})
    assert r.json()["moved"] == []


def test_signing_in_moves_the_guests_seats_too(client):
    sign_up(client, "ann")
    made = create(client)
    r = sign_in(client, "ann", tokens=[made["seats"][0]["token"]])
    assert r.status_code == 200 and r.json()["moved"] == [{"game_id": made["game_id"],
                                                           "seat": 0}]


def test_a_seat_taken_by_invite_while_signed_in_is_the_accounts(client):
    made = create(client)
    bob = sign_up(client, "bob")
    r = client.post(f"{API}/invites/{made['seats'][1]['invite']}", json={"name": "Bob"},
                    headers=as_cookie(bob))
    assert r.status_code == 200, r.text
    jar_free(client)
    assert state(client, made["game_id"], as_cookie(bob))["seat"] == 1


# -- the safe lobby -----------------------------------------------------------------------------
def lobby(c: TestClient) -> list[dict]:
    return c.get(f"{API}/lobby").json()["open"]


def test_a_game_is_private_unless_its_creator_lists_it(client):
    gid = create(client, seats=[{"kind": "human"}, {"kind": "human", "open": True}])["game_id"]
    assert lobby(client) == []
    r = client.post(f"{API}/games/{gid}/seats/1/take", json={"name": "Eve"})
    assert r.status_code == 403 and "invite" in r.json()["error"]["message"]


def test_the_lobby_offers_only_the_seats_the_creator_opened(client):
    made = create(client, public=True, seats=[{"kind": "human", "name": "Ann"},
                                              {"kind": "human"}])
    assert lobby(client) == []  # listed, but no seat is open: nothing to offer
    made = create(client, public=True, seats=[{"kind": "human", "name": "Ann"},
                                              {"kind": "human", "open": True}])
    gid = made["game_id"]
    [listed] = lobby(client)
    assert listed["game_id"] == gid
    assert [(s["seat"], s["claimed"], s["open"]) for s in listed["seats"]] == [
        (0, True, False), (1, False, True)]


def test_a_stranger_cannot_take_the_creators_seat_or_a_seat_not_open(client):
    made = client.post(f"{API}/games", json={
        "game": "ctf2187", "public": True,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human"},
                  {"kind": "human", "open": True}]}).json()
    gid = made["game_id"]
    r = client.post(f"{API}/games/{gid}/seats/0/take", json={"name": "Eve"})
    assert r.status_code == 409 and "taken" in r.json()["error"]["message"]  # the creator's
    r = client.post(f"{API}/games/{gid}/seats/1/take", json={"name": "Eve"})
    assert r.status_code == 403 and "not open" in r.json()["error"]["message"]
    r = client.post(f"{API}/games/{gid}/seats/2/take", json={"name": "Eve"})
    assert r.status_code == 200, r.text
    # the creator's token still plays the creator's seat; seat 1 still waits for its invitee
    st = state(client, gid, as_token(made["seats"][0]["token"]))
    assert st["seat"] == 0 and st["names"][2] == "Eve"
    r = client.post(f"{API}/invites/{made['seats'][1]['invite']}", json={"name": "Bob"})
    assert r.status_code == 200


def test_taking_an_open_seat_is_shown_to_the_other_players(client):
    made = create(client, public=True, seats=[{"kind": "human", "name": "Ann"},
                                              {"kind": "human", "open": True}])
    gid = made["game_id"]
    with client.websocket_connect(f"{API}/games/{gid}/ws") as sock:
        sock.send_json({"type": "hello", "v": 1, "token": made["seats"][0]["token"],
                        "since": None})
        assert sock.receive_json()["seat"] == 0
        assert sock.receive_json()["type"] == "state"
        eve = sign_up(client, "eve")
        r = client.post(f"{API}/games/{gid}/seats/1/take", json={"name": "Eve"},
                        headers=as_cookie(eve))
        assert r.status_code == 200, r.text
        fresh = sock.receive_json()
        assert fresh["type"] == "state" and fresh["seats"][1]["claimed"]
        told = sock.receive_json()
        assert told == {"type": "seat_taken", "seat": 1, "name": "Eve", "how": "lobby"}
    jar_free(client)
    assert state(client, gid, as_cookie(eve))["seat"] == 1  # signed in: Eve's account's


def test_creator_seat_is_checked(client):
    for bad in (5, -1, "0", True):
        r = client.post(f"{API}/games", json={"game": "fieldshift", "creator_seat": bad})
        assert r.status_code == 400, (bad, r.text)
    r = client.post(f"{API}/games", json={"game": "fieldshift", "seats": [
        {"kind": "human", "open": "yes"}, {"kind": "human"}]})
    assert r.status_code == 400 and "open" in r.json()["error"]["message"]
    # no creator's seat: every seat waits for its player
    made = create(client, creator_seat=None)
    assert [s["claimed"] for s in state(client, made["game_id"])["seats"]] == [False, False]


# -- the migration --------------------------------------------------------------------------
def test_games_made_before_accounts_keep_playing_after_the_migration(db_url):
    engine = create_engine(db_url)
    migrate(engine, "0002_offers_chat")
    options = json.dumps(registry.get("fieldshift").resolve_options({}))
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO games (id, game, options, seed, names, public, status, version, "
            "created) VALUES ('old1', 'fieldshift', :options, '7', '[\"A\", \"B\"]', true, "
            "'open', 0, CURRENT_TIMESTAMP)"), {"options": options})
        from boardct.server.live import token_hash
        for seat in (0, 1):
            conn.execute(text(
                "INSERT INTO seats (game, seat, kind, name, token_hash, claimed) VALUES "
                f"('old1', {seat}, 'human', '', '{token_hash(f'tok{seat}')}', false)"))
    engine.dispose()
    with make_app(db_url) as c:  # migrates to head at start-up
        st = state(c, "old1", as_token("tok0"))
        assert st["seat"] == 0
        assert lobby(c) == []  # an old seat is not open: the lobby offers it to no one
        r = c.post(f"{API}/account/signup", json={"username": "ann", "password": PASSWORD,
                                                  "tokens": ["tok0"]})
        assert r.json()["moved"] == [{"game_id": "old1", "seat": 0}]
