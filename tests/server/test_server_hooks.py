"""The service's hook points for deadlines, offers and several workers, and the rematch."""

from __future__ import annotations

from conftest import Api, make_client


def test_listeners_hear_every_commit(api):
    heard = []

    async def listener(game_id: str, version: int) -> None:
        heard.append((game_id, version))

    api.client.app.state.service.listeners.append(listener)
    made = api.create("fieldshift")
    gid, token = made["game_id"], made["seats"][0]["token"]
    api.move(gid, token, api.state(gid, token)["legal"][0]["text"])
    api.settle()
    assert (gid, 1) in heard


def test_refresh_brings_another_processs_moves_to_this_ones_clients(db_path):
    """Two apps on one database stand for two worker processes: a move made through one
    reaches a client of the other once it refreshes (LISTEN/NOTIFY calls refresh)."""
    with make_client(db_path) as one, make_client(db_path) as two:
        a, b = Api(one), Api(two)
        made = a.create("fieldshift")
        gid, t0, t1 = made["game_id"], made["seats"][0]["token"], made["seats"][1]["token"]
        with two.websocket_connect(f"/api/v1/games/{gid}/ws") as ws:
            ws.send_json({"type": "hello", "v": 1, "token": t1, "since": None})
            assert ws.receive_json()["type"] == "welcome"
            assert ws.receive_json()["version"] == 0
            assert a.move(gid, t0, a.state(gid, t0)["legal"][0]["text"]).status_code == 200

            async def refresh() -> int:
                return await two.app.state.service.refresh(gid)

            assert two.portal.call(refresh) == 1
            up = ws.receive_json()
            assert up["type"] == "update" and up["version"] == 1 and up["state"]["my_turn"]
        # the second process now plays on from the right version
        st = b.state(gid, t1)
        assert b.move(gid, t1, st["legal"][0]["text"], version=1).status_code == 200


def test_end_for_a_timeout_and_submit_by_the_server(api):
    made = api.create("hills")
    gid = made["game_id"]
    service = api.client.app.state.service
    seat = api.state(gid)["to_move"][0]

    async def end() -> dict:
        return await service.end(gid, "timeout", seat)

    ack = api.client.portal.call(end)
    st = api.state(gid)
    assert ack["version"] == 1 and st["over"] and st["result"]["winners"] == [1 - seat]
    assert api.get(f"/games/{gid}/record").json()["actions"] == [f"resign {seat + 1}"]


def test_a_claim_pushes_the_new_names_to_connected_clients(api):
    made = api.create("fieldshift")
    gid = made["game_id"]
    with api.client.websocket_connect(f"/api/v1/games/{gid}/ws") as ws:
        ws.send_json({"type": "hello", "v": 1, "token": None, "since": None})
        ws.receive_json()
        ws.receive_json()
        api.post(f"/invites/{made['seats'][1]['invite']}", {"name": "Zoe"})
        st = ws.receive_json()
        assert st["type"] == "state" and st["names"][1] == "Zoe" and st["seats"][1]["claimed"]


def test_rematch_rotates_the_seats(api):
    made = api.create("fieldshift")
    gid = made["game_id"]
    t0, t1 = (s["token"] for s in made["seats"])
    assert api.post(f"/games/{gid}/rematch", token=t0).json()["error"]["code"] == "forbidden"
    api.post(f"/games/{gid}/resign", token=t0)
    r0 = api.post(f"/games/{gid}/rematch", token=t0).json()
    r1 = api.post(f"/games/{gid}/rematch", token=t1).json()
    assert r0["game_id"] == r1["game_id"] and (r0["seat"], r1["seat"]) == (1, 0)
    assert api.state(gid)["rematch"] == r0["game_id"]
    new = api.state(r0["game_id"], r1["token"])
    assert new["seat"] == 0 and new["names"] == ["Bob", "Ann"]
    again = api.post(f"/games/{gid}/rematch", token=t0).json()
    assert again["error"]["code"] == "conflict"
    assert api.post(f"/games/{gid}/rematch").json()["error"]["code"] == "forbidden"


def test_spectators_get_the_spectators_view(api):
    made = api.create("hills")
    gid = made["game_id"]
    st = api.state(gid)
    assert st["seat"] is None and st["view"]["viewer"] is None
    assert st["view"]["board"]["hands"] == {}
    assert st["legal"] == [] and not st["my_turn"]


def test_finished_games_leave_the_cache_and_come_back(api):
    service = api.client.app.state.service
    service.max_cached = 1
    made = api.create("fieldshift")
    gid, t0 = made["game_id"], made["seats"][0]["token"]
    api.post(f"/games/{gid}/resign", token=t0)
    other = api.create("fieldshift")["game_id"]
    service._live.pop(other)  # loaded again from the database: the finished game goes
    api.state(other)
    assert gid not in service._live and other in service._live
    assert api.state(gid)["over"]  # and comes back when asked for


def test_openapi_describes_the_bodies(api):
    doc = api.client.get("/openapi.json").json()
    moves = doc["paths"]["/api/v1/games/{game_id}/moves"]["post"]["requestBody"]
    assert moves["content"]["application/json"]["schema"]["required"] == ["text"]
    assert "/api/v1/catalog" in doc["paths"]


def test_a_seat_claimed_through_another_process_is_known_here(db_path):
    with make_client(db_path) as one, make_client(db_path) as two:
        a, b = Api(one), Api(two)
        made = a.create("fieldshift")
        gid = made["game_id"]
        assert b.state(gid)["version"] == 0  # the second process has the game cached
        got = a.post(f"/invites/{made['seats'][1]['invite']}", {"name": "Ed"}).json()
        st = b.state(gid, got["token"])  # the new token works there too
        assert st["seat"] == 1 and st["names"][1] == "Ed"
        assert b.get(f"/games/{gid}", made["seats"][1]["token"]).status_code == 401


def test_each_seat_deciding_at_once_gets_its_own_prompt(api):
    made = api.create("ctf2187", seats=[{"kind": "human", "name": f"P{i}"} for i in range(4)])
    gid = made["game_id"]
    prompts = [api.state(gid, s["token"])["prompt"] for s in made["seats"]]
    assert all(p.startswith(f"Player {i + 1}") for i, p in enumerate(prompts)), prompts
    assert api.state(gid)["prompt"] == ""


def test_every_legal_turn_is_listed_even_where_there_are_hundreds(api):
    """A Force Field Factions seat has about 800 whole turns to choose from at the start: the
    page lists them all (it used to cut the list at 400, so half the turns had no button)."""
    from boardct.core import registry

    made = api.create("fff")
    gid, token = made["game_id"], made["seats"][0]["token"]
    st = api.state(gid, token)
    whole = registry.get("fff").new(seed=1).legal_actions(0)
    assert len(whole) > 400
    assert len(st["legal"]) == len(api.get(f"/games/{gid}/legal", token=token).json()["actions"])
    assert len(st["legal"]) == len(set(a["text"] for a in st["legal"])) > 400
