"""Protocol version 1's `ack_in_update` (docs/server.md): a client that asks for it in its
hello gets no `ack` frame for a move: the move's update, sent to it after the commit, carries
the move's `id` and stands for the ack (one frame fewer a move). Nothing changes for a client
that does not ask, for another connection of the same seat, or for the other seats."""

from __future__ import annotations

import pytest

from conftest import Api


@pytest.fixture
def game(api: Api):
    made = api.create("fieldshift")
    return made["game_id"], [s["token"] for s in made["seats"]]


def connect(api: Api, gid: str, token: str | None, fold: bool = True):
    ws = api.client.websocket_connect(f"/api/v1/games/{gid}/ws")
    sock = ws.__enter__()
    hello = {"type": "hello", "v": 1, "token": token, "since": None}
    if fold:
        hello["ack_in_update"] = True
    sock.send_json(hello)
    welcome = sock.receive_json()
    state = sock.receive_json()
    assert state["type"] == "state"
    return ws, sock, welcome, state


def test_the_welcome_says_the_server_folds_acks_only_when_asked(api, game):
    gid, tokens = game
    ws, _, welcome, _ = connect(api, gid, tokens[0])
    assert welcome["type"] == "welcome" and welcome["ack_in_update"] is True
    ws.__exit__(None, None, None)
    ws, _, welcome, _ = connect(api, gid, tokens[0], fold=False)
    assert "ack_in_update" not in welcome
    ws.__exit__(None, None, None)


def test_the_movers_update_carries_its_id_and_the_ack_frame_is_left_out(api, game):
    gid, tokens = game
    ws0, mover, _, state = connect(api, gid, tokens[0])
    ws1, other, _, _ = connect(api, gid, tokens[1])
    text = state["legal"][0]["text"]
    mover.send_json({"type": "move", "id": "m1", "text": text, "version": 0})
    update = mover.receive_json()  # the very next frame: no `ack` before it
    assert update["type"] == "update" and update["id"] == "m1"
    assert update["version"] == 1 and update["seat"] == 0
    # what the ack carried is in it: the version and the mover's own lines of the move
    assert update["events"] == api.state(gid, tokens[0])["log"][-1]["events"]
    assert update["state"]["version"] == 1 and update["state"]["my_turn"] is False
    theirs = other.receive_json()
    assert theirs["type"] == "update" and "id" not in theirs and theirs["version"] == 1
    assert theirs["state"]["my_turn"] is True and theirs["state"]["legal"]
    mover.send_json({"type": "ping"})
    assert mover.receive_json() == {"type": "pong"}  # and no late ack either
    ws0.__exit__(None, None, None)
    ws1.__exit__(None, None, None)


def test_a_resent_applied_move_is_answered_with_its_original_ack(api, game):
    """No update follows a move id already applied (nothing new is committed): its answer is
    the ack, as without the option, and nothing is played twice."""
    gid, tokens = game
    ws, sock, _, state = connect(api, gid, tokens[0])
    text = state["legal"][0]["text"]
    sock.send_json({"type": "move", "id": "m1", "text": text, "version": 0})
    assert sock.receive_json()["id"] == "m1"
    sock.send_json({"type": "move", "id": "m1", "text": text, "version": 0})
    again = sock.receive_json()
    assert again["type"] == "ack" and again["id"] == "m1" and again["version"] == 1
    ws.__exit__(None, None, None)
    assert api.state(gid)["version"] == 1


def test_a_refused_move_is_still_a_reject(api, game):
    gid, tokens = game
    ws, sock, _, _ = connect(api, gid, tokens[0])
    sock.send_json({"type": "move", "id": "bad", "text": "nonsense!", "version": 0})
    rej = sock.receive_json()
    assert rej["type"] == "reject" and rej["id"] == "bad" and rej["code"] == "rejected"
    ws.__exit__(None, None, None)
    assert api.state(gid)["version"] == 0


def test_a_move_without_an_id_gets_its_ack(api, game):
    """Without an id there is nothing for the update to carry: the ack is sent."""
    gid, tokens = game
    ws, sock, _, state = connect(api, gid, tokens[0])
    sock.send_json({"type": "move", "text": state["legal"][0]["text"], "version": 0})
    ack = sock.receive_json()
    assert ack["type"] == "ack" and ack["id"] is None and ack["version"] == 1
    update = sock.receive_json()
    assert update["type"] == "update" and "id" not in update
    ws.__exit__(None, None, None)


def test_only_the_connection_that_moved_gets_the_id(api, game):
    """The seat's other connection (another tab, another device) gets the plain update."""
    gid, tokens = game
    ws_a, tab_a, _, state = connect(api, gid, tokens[0])
    ws_b, tab_b, _, _ = connect(api, gid, tokens[0])
    tab_a.send_json({"type": "move", "id": "m1", "text": state["legal"][0]["text"],
                     "version": 0})
    assert tab_a.receive_json()["id"] == "m1"
    seen = tab_b.receive_json()
    assert seen["type"] == "update" and seen["version"] == 1 and "id" not in seen
    ws_a.__exit__(None, None, None)
    ws_b.__exit__(None, None, None)


def test_a_client_without_the_option_gets_ack_then_update(api, game):
    gid, tokens = game
    ws, sock, _, state = connect(api, gid, tokens[0], fold=False)
    sock.send_json({"type": "move", "id": "m1", "text": state["legal"][0]["text"],
                    "version": 0})
    ack = sock.receive_json()
    assert ack["type"] == "ack" and ack["id"] == "m1" and ack["version"] == 1
    update = sock.receive_json()
    assert update["type"] == "update" and "id" not in update
    ws.__exit__(None, None, None)
