"""The suite's own guard (tests/conftest.py): a test client closes on its exit any websocket a
test opened and left open, so a failed assertion between opening a socket and closing it is
reported as a failure, not a teardown that waits for ever (CI lost two runs to that)."""

from __future__ import annotations

import threading

from conftest import Api, make_client


def test_a_client_exits_although_its_test_left_a_websocket_open(db_path):
    client = make_client(db_path).__enter__()
    made = Api(client).create("fieldshift")
    sock = client.websocket_connect(f"/api/v1/games/{made['game_id']}/ws").__enter__()
    sock.send_json({"type": "hello", "v": 1, "token": made["seats"][0]["token"], "since": None})
    assert sock.receive_json()["type"] == "welcome"
    # the test "fails" here: the socket is never closed by the test itself
    leaving = threading.Thread(target=client.__exit__, args=(None, None, None), daemon=True)
    leaving.start()
    leaving.join(60)
    assert not leaving.is_alive(), "the test client's exit is still waiting for the socket"
