"""Taking a free seat of a public game from the lobby, without its invite (issue 19: "list
open public games ..., join one"): `POST /api/v1/games/{id}/seats/{seat}/take`."""

from __future__ import annotations

import asyncio

from conftest import Api

# The lobby offers only the seats the creator opened (the creator's own, seat 0 by default,
# is theirs from creation): seat 1 is open here.
OPEN_1 = [{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}]
ALL_OPEN = {"seats": [{"kind": "human", "open": True}, {"kind": "human", "open": True}],
            "creator_seat": None}


def _public(api: Api, game: str = "fff", **extra) -> dict:
    return api.create(game, **({"public": True, "seats": OPEN_1} | extra))


def test_a_visitor_takes_a_free_seat_of_a_public_game(api: Api):
    made = _public(api)
    gid = made["game_id"]
    assert [g["game_id"] for g in api.get("/lobby").json()["open"]] == [gid]
    r = api.post(f"/games/{gid}/seats/1/take", {"name": "Bob"})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["game_id"] == gid and got["seat"] == 1 and len(got["token"]) >= 22
    state = api.state(gid, got["token"])
    assert state["seat"] == 1 and state["names"][1] == "Bob"
    assert state["seats"][1]["claimed"] is True
    # the seat's creation token and invite are void now, like after claiming the invite
    old_token, invite = made["seats"][1]["token"], made["seats"][1]["invite"]
    assert api.get(f"/games/{gid}", old_token).status_code == 401
    assert api.post(f"/invites/{invite}", {"name": "Eve"}).status_code == 404
    # taken: a second visitor is told so, and the taker keeps the seat
    r = api.post(f"/games/{gid}/seats/1/take", {"name": "Eve"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    assert api.state(gid, got["token"])["seat"] == 1


def test_the_game_leaves_the_lobby_once_every_seat_is_taken(api: Api):
    gid = _public(api, **ALL_OPEN)["game_id"]
    for seat in (0, 1):
        assert api.post(f"/games/{gid}/seats/{seat}/take", {"name": f"P{seat}"}
                        ).status_code == 200
    assert api.get("/lobby").json()["open"] == []
    assert api.state(gid)["status"] == "playing"


def test_a_private_game_s_seats_go_by_invite_only(api: Api):
    made = api.create("fff", public=False)
    gid = made["game_id"]
    r = api.post(f"/games/{gid}/seats/1/take", {"name": "Eve"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert api.state(gid)["seats"][1]["claimed"] is False
    # the invite still works
    assert api.post(f"/invites/{made['seats'][1]['invite']}", {}).status_code == 200


def test_bad_seat_requests_are_clear_json_errors(api: Api):
    made = _public(api, seats=[{"kind": "human", "name": "Ann", "open": True},
                               {"kind": "agent", "agent": "random"}], creator_seat=None)
    gid = made["game_id"]
    cases = [
        (api.post(f"/games/{gid}/seats/1/take", {}), 403, "forbidden"),  # an agent's seat
        (api.post(f"/games/{gid}/seats/7/take", {}), 404, "not_found"),
        (api.post(f"/games/{gid}/seats/-1/take", {}), 400, "bad_request"),
        (api.post(f"/games/{gid}/seats/x/take", {}), 400, "bad_request"),
        (api.post(f"/games/{gid}/seats/0/take", {"name": 5}), 400, "bad_request"),
        (api.post(f"/games/{gid}/seats/0/take", {"name": "a\x00b"}), 400, "bad_request"),
        (api.post("/games/nosuch/seats/0/take", {}), 404, "not_found"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        assert r.json()["error"]["code"] == code
    assert api.state(gid)["seats"][0]["claimed"] is False


def test_a_finished_public_game_s_seat_cannot_be_taken(api: Api):
    made = _public(api)
    gid = made["game_id"]
    t0 = made["seats"][0]["token"]
    assert api.post(f"/games/{gid}/resign", {}, t0).status_code == 200
    r = api.post(f"/games/{gid}/seats/1/take", {})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"


def test_two_visitors_racing_for_one_seat_one_wins(api: Api):
    gid = _public(api)["game_id"]
    service = api.client.app.state.service

    async def race():
        return await asyncio.gather(*(service.take_seat(gid, 1, f"V{i}") for i in range(4)),
                                    return_exceptions=True)

    results = api.client.portal.call(race)
    won = [r for r in results if isinstance(r, dict)]
    lost = [r for r in results if not isinstance(r, dict)]
    assert len(won) == 1 and len(lost) == 3
    assert all(getattr(e, "code", None) == "conflict" for e in lost)
    state = api.state(gid, won[0]["token"])
    assert state["seat"] == 1 and state["names"][1].startswith("V")
