"""Whole games through the real HTTP and websocket stack (issue 18)."""

from __future__ import annotations

import random

from conftest import Api, make_client


def play_out(api: Api, gid: str, tokens: list[str], rng: random.Random, limit: int = 2000
             ) -> dict:
    """Both seats play random legal moves over REST until the end; the final state."""
    for _ in range(limit):
        st = api.state(gid)
        if st["over"]:
            return st
        seat = st["to_move"][0]
        mine = api.state(gid, tokens[seat])
        assert mine["my_turn"] and mine["legal"], mine
        text = rng.choice(mine["legal"])["text"]
        r = api.move(gid, tokens[seat], text, version=mine["version"])
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1
    raise AssertionError("the game did not end")


def test_fieldshift_game_over_rest_to_the_end(api):
    made = api.create("fieldshift", options={"turn_limit": 6})
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    final = play_out(api, gid, tokens, random.Random(1))
    assert final["over"] and final["result"]["text"]
    assert api.move(gid, tokens[0], "20").json()["error"]["code"] == "game_over"
    record = api.get(f"/games/{gid}/record").json()
    assert record["game"] == "fieldshift" and len(record["actions"]) == final["version"]
    assert "seed" in record
    frames = api.get(f"/games/{gid}/replay").json()["frames"]
    assert len(frames) == final["version"] + 1 and set(frames[0]["views"]) == {"0", "1"}


def test_fieldshift_game_over_websocket_to_the_end(api):
    made = api.create("fieldshift", options={"turn_limit": 4})
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    rng = random.Random(2)
    path = f"/api/v1/games/{gid}/ws"
    with api.client.websocket_connect(path) as w0, api.client.websocket_connect(path) as w1:
        socks = [w0, w1]
        states = []
        for seat, ws in enumerate(socks):
            ws.send_json({"type": "hello", "v": 1, "token": tokens[seat], "since": None})
            welcome = ws.receive_json()
            assert welcome == {"type": "welcome", "v": 1, "seat": seat, "version": 0}
            states.append(ws.receive_json())
            assert states[-1]["type"] == "state" and states[-1]["seat"] == seat
        n = 0
        while not states[0]["over"]:
            seat = states[0]["to_move"][0]
            legal = states[seat]["legal"]
            move_id = f"m{n}"
            socks[seat].send_json({"type": "move", "id": move_id, "text":
                                   rng.choice(legal)["text"], "version": states[seat]["version"]})
            ack = socks[seat].receive_json()
            assert ack["type"] == "ack" and ack["id"] == move_id, ack
            n += 1
            for s, ws in enumerate(socks):  # every seat gets the update, built for it
                up = ws.receive_json()
                assert up["type"] == "update" and up["version"] == n, up
                assert up["state"]["seat"] == s
                states[s] = up["state"]
        assert states[1]["over"] and states[1]["result"]["text"]
        assert n == api.state(gid)["version"]


def test_agents_play_hills_and_shift_to_the_end(api):
    for game in ("hills", "shift"):
        made = api.create(game, seats=[{"kind": "agent", "agent": "random"},
                                       {"kind": "agent", "agent": "random"}],
                          options={"turn_limit": 10})
        gid = made["game_id"]
        for _ in range(400):
            api.settle()
            if api.state(gid)["over"]:
                break
        st = api.state(gid)
        assert st["over"], (game, st["version"])
        record = api.get(f"/games/{gid}/record").json()
        assert record["seats"] == ["random", "random"]
        assert all(not a.startswith("agent:") for a in record["actions"])


def test_a_person_against_an_agent_in_a_worker_process(db_path):
    """The default runner: the agent thinks in a process pool, not in the event loop."""
    with make_client(db_path, agent_workers=1) as client:
        api = Api(client)
        made = api.create("fieldshift", seats=[{"kind": "human", "name": "Ann"},
                                               {"kind": "agent", "agent": "random"}],
                          options={"turn_limit": 2})
        gid, token = made["game_id"], made["seats"][0]["token"]
        st = api.state(gid, token)
        r = api.move(gid, token, st["legal"][0]["text"])
        assert r.status_code == 200
        for _ in range(100):
            api.settle()
            st = api.state(gid, token)
            if st["version"] >= 2:
                break
        assert st["version"] >= 2 and st["log"][1]["seat"] == 1


def test_restart_finds_every_game_and_move(db_path):
    with make_client(db_path) as client:
        api = Api(client)
        made = api.create("fieldshift")
        gid = made["game_id"]
        tokens = [s["token"] for s in made["seats"]]
        texts = []
        for i in range(3):
            st = api.state(gid, tokens[i % 2])
            texts.append(st["legal"][-1]["text"])
            assert api.move(gid, tokens[i % 2], texts[-1]).status_code == 200
        before = api.state(gid, tokens[1])
    with make_client(db_path) as client:
        api = Api(client)
        after = api.state(gid, tokens[1])  # the tokens still hold their seats
        assert after["version"] == 3 and after["view"] == before["view"]
        assert after["log"] == before["log"]
        assert api.move(gid, tokens[1], after["legal"][0]["text"]).status_code == 200


def test_agents_hand_in_ctf2187_sheets_alongside_a_person(api):
    """A simultaneous turn: three agents hand their sheets in while a person's is owed; the
    turn is processed when the person's comes in, and each agent thinks once per turn. The
    person is never told that the agents' sheets are in (CTF-41): not by `to_move`, the log or
    the version, which counts only the entries the seat may know of."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": "Ann"}]
                      + [{"kind": "agent", "agent": "random"}] * 3, options={"turn_limit": 2})
    gid, token = made["game_id"], made["seats"][0]["token"]
    live = api.client.app.state.service._live[gid]  # the moderator's side, for the test only
    for turn in range(2):
        for _ in range(100):
            api.settle()
            if live.state.current_players() == (0,):
                break
        assert live.state.current_players() == (0,)
        st = api.state(gid, token)
        assert st["to_move"] == [0, 1, 2, 3] and st["my_turn"], st["to_move"]
        assert st["version"] == turn and len(st["log"]) == turn  # the processed turns only
        assert api.move(gid, token, st["legal"][0]["text"]).status_code == 200
    api.settle()
    st = api.state(gid, token)
    assert st["over"] and st["version"] == 2 and live.version == 8


def test_an_agent_whose_turn_it_was_moves_after_a_restart(db_path):
    from sqlalchemy import select

    from boardct.server.models import GameRow

    with make_client(db_path) as client:
        client.app.state.service.agents = None  # the server stops before its agent moves
        made = Api(client).create("fieldshift", seats=[{"kind": "agent", "agent": "random"},
                                                       {"kind": "human", "name": "B"}])
    gid = made["game_id"]
    with make_client(db_path) as client:  # nobody asks for the game: the agent moves anyway
        Api(client).settle()
        with client.app.state.engine.connect() as conn:
            version = conn.execute(select(GameRow.version).where(GameRow.id == gid)).scalar()
        assert version >= 1
