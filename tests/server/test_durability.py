"""Durability (issue 18): a server killed with SIGKILL mid-game loses no acknowledged move, and
a move the client sent but never saw acknowledged is resent on reconnect (same move id) and
applied exactly once. The server runs as a real `boardct serve` process; SQLite always,
PostgreSQL where there is one."""

from __future__ import annotations

import sys

import pytest
from server_live import Seat, create_game, get_state

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX-only")


def _play(seats: list[Seat], moves: int) -> list[tuple[int, str, int]]:
    """Play `moves` acknowledged moves (the first legal action each time); (seat, text,
    acknowledged version) of each."""
    done: list[tuple[int, str, int]] = []
    state = seats[0].wait_version(0)
    for _ in range(moves):
        version = state["version"]
        states = [s.wait_version(version) for s in seats]
        mover = next(i for i, st in enumerate(states) if st["my_turn"])
        text = states[mover]["legal"][0]["text"]
        move_id = seats[mover].send_move(text, version)
        ack = seats[mover].answer(move_id)
        assert ack["type"] == "ack", ack
        assert ack["version"] == version + 1
        done.append((mover, text, ack["version"]))
        state = seats[mover].wait_version(ack["version"])
    return done


def test_sigkill_keeps_acknowledged_moves_and_resent_move_applies_once(serve, db_url):
    server = serve(db_url)
    game = create_game(server.base_url, "fieldshift", 2)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    seats = [Seat(server.ws_base, gid, t) for t in tokens]
    played = _play(seats, 6)
    acked = played[-1][2]
    before = get_state(server.base_url, gid, tokens[0])
    assert before["version"] == acked

    # one more move goes out, and the server dies before (or as) it answers
    states = [s.wait_version(acked) for s in seats]
    mover = next(i for i, st in enumerate(states) if st["my_turn"])
    text = states[mover]["legal"][0]["text"]
    pending_id = seats[mover].send_move(text, acked)
    server.kill()
    for s in seats:
        s.close()

    server.start()
    after = get_state(server.base_url, gid, tokens[0])
    assert after["version"] in (acked, acked + 1)  # the unacknowledged move: in or not
    # every acknowledged move is there, in order, with the same events as before the kill
    logged = {e["version"]: e for e in after["log"]}
    for entry in before["log"]:
        assert logged[entry["version"]] == entry

    # the client reconnects, says what it saw, and resends its move with the same id
    seat = Seat(server.ws_base, gid, tokens[mover], since=acked)
    seat.send_move(text, acked, move_id=pending_id)
    ack = seat.answer(pending_id)
    assert ack["type"] == "ack", ack
    assert ack["version"] == acked + 1
    # ...and again: still one application
    seat.send_move(text, acked, move_id=pending_id)
    again = seat.answer(pending_id)
    assert again["type"] == "ack" and again["version"] == acked + 1
    final = get_state(server.base_url, gid, tokens[0])
    assert final["version"] == acked + 1
    seat.close()
