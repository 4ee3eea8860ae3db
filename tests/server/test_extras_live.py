"""Deadlines and team chat through a real `boardct serve` process (HTTP and websockets on
127.0.0.1), on SQLite: a due deadline processed after a restart, and a team's chat that never
reaches the other team's websocket. (A game's own routes are tested with the game: CTF 2187's
sheets and reports, with a sheet missing at the deadline, in tests/ctf2187.)"""

from __future__ import annotations

import sys
import time

import httpx
import pytest
from server_live import WAIT, Seat, create_game, get_state


def _auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _poll(pred, timeout: float = WAIT, every: float = 0.2):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX-only")
def test_a_deadline_that_falls_due_while_the_server_is_down_is_processed_on_restart(
        serve, sqlite_url):
    server = serve(sqlite_url)
    base = server.base_url
    game = create_game(base, "fff", 2, move_time=3, on_timeout="loss")
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    for t in tokens:
        get_state(base, gid, t)
    state = _poll(lambda: (s := get_state(base, gid, tokens[0]))["deadline"] and s)
    mover = state["to_move"][0]
    server.kill()
    time.sleep(4)  # the deadline passes with no server running
    server.start()
    over = _poll(lambda: (s := get_state(server.base_url, gid, tokens[0]))["over"] and s)
    assert mover not in over["result"]["winners"]


def test_team_chat_never_reaches_the_other_teams_websocket(serve, sqlite_url):
    server = serve(sqlite_url)
    game = create_game(server.base_url, "ctf2187", 4)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    socks = [Seat(server.ws_base, gid, t) for t in tokens] + [Seat(server.ws_base, gid, None)]
    socks[0].ws.send('{"type": "chat", "text": "secret plan", "to": "team"}')
    socks[2].ws.send('{"type": "chat", "text": "their plan", "to": "team"}')
    socks[0].ws.send('{"type": "chat", "text": "public hello", "to": "all"}')
    for i, sock in enumerate(socks):
        chats = []
        while not any(c["text"] == "public hello" for c in chats):
            chats.append(sock.wait_for(lambda m: m.get("type") == "chat"))
        texts = {c["text"] for c in chats}
        if i in (0, 1):
            assert "secret plan" in texts
        else:
            assert "secret plan" not in texts
    # the other team's message reached its own team, and the REST chat agrees
    for i, expect in [(0, False), (1, False), (2, True), (3, True), (4, False)]:
        r = httpx.get(f"{server.base_url}/api/v1/games/{gid}/chat",
                      headers=_auth(tokens[i] if i < 4 else None))
        assert ("their plan" in {c["text"] for c in r.json()["chat"]}) is expect
    for sock in socks:
        sock.close()
