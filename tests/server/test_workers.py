"""Several server processes share games through PostgreSQL (issue 18 item 8): a move made
through one process reaches the websocket clients of another (LISTEN/NOTIFY). With SQLite the
server runs one process and says so."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
from server_live import SRC, Seat, create_game, free_port, get_state


def test_a_move_through_one_process_reaches_a_client_of_another(serve, pg_url):
    first = serve(pg_url)
    second = serve(pg_url)  # a second process on its own port, the same database
    game = create_game(first.base_url, "fieldshift", 2)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    on_first = Seat(first.ws_base, gid, tokens[0])
    on_second = Seat(second.ws_base, gid, tokens[1])
    for _ in range(4):  # moves both ways: each client sits on a different process
        version = get_state(first.base_url, gid)["version"]
        a = on_first.wait_version(version)
        b = on_second.wait_version(version)
        mover, other, st = ((on_first, on_second, a) if a["my_turn"]
                            else (on_second, on_first, b))
        ack = mover.answer(mover.send_move(st["legal"][0]["text"], version))
        assert ack["type"] == "ack", ack
        update = other.wait_version(version + 1)  # arrives through the other process
        assert update["version"] == version + 1
    # the second process's own REST view agrees
    assert get_state(second.base_url, gid)["version"] == get_state(first.base_url, gid)["version"]
    on_first.close()
    on_second.close()


def test_two_uvicorn_workers_share_games(serve, pg_url):
    """`--workers 2`: two processes behind one port; whichever each connection lands on, a
    move reaches the other client."""
    server = serve(pg_url, workers=2)
    game = create_game(server.base_url, "fieldshift", 2)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    seats = [Seat(server.ws_base, gid, t) for t in tokens]
    for _ in range(4):
        version = get_state(server.base_url, gid)["version"]
        states = [s.wait_version(version) for s in seats]
        mover = 0 if states[0]["my_turn"] else 1
        ack = seats[mover].answer(seats[mover].send_move(states[mover]["legal"][0]["text"],
                                                         version))
        assert ack["type"] == "ack", ack
        assert seats[1 - mover].wait_version(version + 1)["version"] == version + 1
    for s in seats:
        s.close()


def test_sqlite_with_several_workers_runs_one_process_and_says_so(tmp_path):
    """Asking for workers with SQLite: one process, and a line that says why."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "boardct", "serve", "--port", str(port), "--workers", "3",
         "--db", f"sqlite:///{(tmp_path / 'x.db').as_posix()}"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/v1/catalog").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=30)
    assert "SQLite" in out and "one process" in out, out
