"""The websocket protocol v1: hello, catch-up, acks and rejects, bad frames (issue 18)."""

from __future__ import annotations

import json

import pytest

from conftest import Api


@pytest.fixture
def game(api: Api):
    made = api.create("fieldshift")
    return made["game_id"], [s["token"] for s in made["seats"]]


def connect(api: Api, gid: str, token: str | None, since=None):
    ws = api.client.websocket_connect(f"/api/v1/games/{gid}/ws")
    sock = ws.__enter__()
    sock.send_json({"type": "hello", "v": 1, "token": token, "since": since})
    welcome = sock.receive_json()
    return ws, sock, welcome


def test_spectator_and_wrong_tokens(api, game):
    gid, tokens = game
    ws, sock, welcome = connect(api, gid, None)
    assert welcome["seat"] is None
    state = sock.receive_json()
    assert state["type"] == "state" and state["legal"] == [] and state["seat"] is None
    sock.send_json({"type": "move", "id": "s1", "text": "20", "version": 0})
    rej = sock.receive_json()
    assert rej["type"] == "reject" and rej["code"] == "forbidden" and rej["id"] == "s1"
    ws.__exit__(None, None, None)
    ws, sock, welcome = connect(api, gid, "wrong")
    assert welcome["type"] == "error" and welcome["code"] == "unauthorized"
    ws.__exit__(None, None, None)
    assert api.state(gid)["version"] == 0


def test_first_message_must_be_hello(api, game):
    gid, _ = game
    with api.client.websocket_connect(f"/api/v1/games/{gid}/ws") as sock:
        sock.send_json({"type": "move", "text": "20"})
        err = sock.receive_json()
        assert err["type"] == "error" and err["code"] == "bad_request"


def test_bad_frames_get_errors_not_a_disconnect(api, game):
    gid, tokens = game
    ws, sock, _ = connect(api, gid, tokens[0])
    sock.receive_json()  # the state
    sock.send_text("{oops")
    assert sock.receive_json()["code"] == "bad_request"
    sock.send_text(json.dumps({"type": "move", "text": "2" * 70_000}))
    assert sock.receive_json()["code"] == "too_large"
    sock.send_bytes(b"\x00\x01")
    assert sock.receive_json()["code"] == "bad_request"
    sock.send_json({"type": "teleport"})
    assert sock.receive_json()["code"] == "bad_request"
    sock.send_json([1, 2])
    assert sock.receive_json()["code"] == "bad_request"
    sock.send_json({"type": "ping"})
    assert sock.receive_json() == {"type": "pong"}  # the connection still works
    legal = api.state(gid, tokens[0])["legal"][0]["text"]
    sock.send_json({"type": "move", "id": "x1", "text": "nonsense!", "version": 0})
    rej = sock.receive_json()
    assert rej["type"] == "reject" and rej["code"] == "rejected" and rej["message"]
    sock.send_json({"type": "move", "id": "x2", "text": legal, "version": 0})
    assert sock.receive_json() == {"type": "ack", "id": "x2", "version": 1,
                                   "events": sock_events(api, gid, tokens[0])}
    update = sock.receive_json()  # the move's update reaches its own seat too
    assert update["type"] == "update" and update["version"] == 1
    sock.send_json({"type": "move", "id": "x2", "text": legal, "version": 0})
    again = sock.receive_json()
    assert again["type"] == "ack" and again["version"] == 1
    ws.__exit__(None, None, None)
    assert api.state(gid)["version"] == 1  # the resent id applied nothing


def sock_events(api: Api, gid: str, token: str) -> list[str]:
    return api.state(gid, token)["log"][-1]["events"]


def test_reconnect_gets_what_was_missed(api, game):
    gid, tokens = game
    for i in range(3):
        st = api.state(gid, tokens[i % 2])
        assert api.move(gid, tokens[i % 2], st["legal"][0]["text"]).status_code == 200
    ws, sock, welcome = connect(api, gid, tokens[1], since=1)
    assert welcome["version"] == 3
    ups = [sock.receive_json(), sock.receive_json()]
    assert [u["type"] for u in ups] == ["update", "update"]
    assert [u["version"] for u in ups] == [2, 3] and ups[-1]["state"]["version"] == 3
    ws.__exit__(None, None, None)
    ws, sock, welcome = connect(api, gid, tokens[1], since=3)  # up to date: nothing more
    sock.send_json({"type": "ping"})
    assert sock.receive_json() == {"type": "pong"}
    ws.__exit__(None, None, None)
    ws, sock, welcome = connect(api, gid, tokens[1], since=99)  # from the future: resync
    assert sock.receive_json()["type"] == "state"
    ws.__exit__(None, None, None)


def test_too_many_bad_frames_close_the_connection(api, game):
    gid, tokens = game
    ws, sock, _ = connect(api, gid, tokens[0])
    sock.receive_json()
    for _ in range(19):
        sock.send_text("nope")
        assert sock.receive_json()["type"] == "error"
    sock.send_text("nope")
    assert sock.receive_json()["type"] == "error"
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        sock.receive_json()
    ws.__exit__(None, None, None)


def test_an_unknown_protocol_version_is_refused(api, game):
    gid, tokens = game
    with api.client.websocket_connect(f"/api/v1/games/{gid}/ws") as sock:
        sock.send_json({"type": "hello", "v": 2, "token": tokens[0], "since": None})
        err = sock.receive_json()
        assert err["type"] == "error" and "version 1" in err["message"]
