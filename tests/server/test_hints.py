"""Hints through the server (`POST /api/v1/games/{id}/hint`, server/hints.py): the seat to
decide gets the computer's suggestion with its win chance and the best three moves; nobody
else gets one, and a bad agent changes nothing."""

from __future__ import annotations

from conftest import Api

SPEC = {"agent": "mcts:iters=60"}


def test_the_seat_to_move_gets_a_hint_with_probabilities(api: Api):
    made = api.create("fieldshift")
    gid, ann = made["game_id"], made["seats"][0]["token"]
    r = api.post(f"/games/{gid}/hint", SPEC, ann)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["agent"] == "mcts:iters=60" and 0.0 <= got["value"] <= 1.0
    assert 1 <= len(got["best"]) <= 3 and got["best"][0]["text"] == got["text"]
    assert all(0.0 <= b["value"] <= 1.0 for b in got["best"])
    legal = {a["text"] for a in api.get(f"/games/{gid}/legal", ann).json()["actions"]}
    assert {b["text"] for b in got["best"]} <= legal
    assert got["lines"][0].startswith("Hint (mcts:iters=60): ")
    # the same position and seat: the same hint under an iteration budget; nothing played
    assert api.post(f"/games/{gid}/hint", SPEC, ann).json() == got
    assert api.state(gid, ann)["version"] == 0


def test_no_hint_for_a_spectator_a_waiting_seat_or_a_bad_agent(api: Api):
    made = api.create("fieldshift")
    gid, bob = made["game_id"], made["seats"][1]["token"]
    ann = made["seats"][0]["token"]
    r = api.post(f"/games/{gid}/hint", SPEC)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = api.post(f"/games/{gid}/hint", SPEC, bob)
    assert r.status_code == 409 and "to decide" in r.json()["error"]["message"]
    for bad in ({"agent": "nobody"}, {"agent": "level=9"}, {"agent": 3},
                {"agent": "level=5,scale=1000"}):
        r = api.post(f"/games/{gid}/hint", bad, ann)
        assert r.status_code == 400, (bad, r.text)
    assert api.state(gid, ann)["version"] == 0


def test_an_agent_seat_plays_a_level_of_the_ladder(api: Api):
    made = api.create("fieldshift", seats=[{"kind": "human", "name": "Ann"},
                                           {"kind": "agent", "agent": "level=2"}])
    gid, ann = made["game_id"], made["seats"][0]["token"]
    first = api.get(f"/games/{gid}/legal", ann).json()["actions"][0]["text"]
    assert api.move(gid, ann, first).status_code == 200
    api.settle()
    assert api.state(gid, ann)["version"] >= 2  # the agent answered
