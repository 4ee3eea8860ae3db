"""Offers and chat through the real app (REST and websocket, Starlette's TestClient): the
routes of docs/server.md, their JSON errors, and what each websocket receives."""

from __future__ import annotations

from boardct.core import registry, table
from conftest import Api


def _recv_until(sock, pred, limit: int = 30) -> dict:
    for _ in range(limit):
        msg = sock.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("no such message")


def test_a_draw_offered_and_accepted_over_rest_ends_the_game(api: Api):
    made = api.create("fff")
    gid = made["game_id"]
    t0, t1 = (s["token"] for s in made["seats"])
    r = api.post(f"/games/{gid}/offers", {"kind": "draw"}, t0)
    assert r.status_code == 200, r.text
    offer = r.json()
    assert [o["id"] for o in api.state(gid, t1)["offers"]] == [offer["id"]]
    r = api.post(f"/games/{gid}/offers/{offer['id']}", {"accept": True}, t1)
    assert r.status_code == 200 and r.json()["status"] == "accepted"
    api.settle()
    state = api.state(gid, t0)
    assert state["over"] and state["result"]["winners"] == []
    record = api.get(f"/games/{gid}/record", t0).json()
    assert record["actions"][-1] == "draw"


def test_offer_and_chat_errors_are_json_and_change_nothing(api: Api):
    made = api.create("fieldshift")
    gid = made["game_id"]
    t0 = made["seats"][0]["token"]
    cases = [
        (api.post(f"/games/{gid}/offers", {"kind": "draw"}), 403, "forbidden"),  # spectator
        (api.post(f"/games/{gid}/offers", {"kind": "coffee"}, t0), 400, "bad_request"),
        (api.post(f"/games/{gid}/offers/nope", {"accept": True}, t0), 404, "not_found"),
        (api.post(f"/games/{gid}/offers", {"kind": "draw"}, "wrong"), 401, "unauthorized"),
        (api.post(f"/games/{gid}/chat", {"text": "hi"}), 403, "forbidden"),
        (api.post(f"/games/{gid}/chat", {"text": "x" * 600}, t0), 413, "too_large"),
        (api.post(f"/games/{gid}/chat", {"text": "hi", "to": "moon"}, t0), 400, "bad_request"),
        (api.client.post(f"/api/v1/games/{gid}/chat", content=b"{oops",
                         headers={"content-type": "application/json",
                                  "Authorization": f"Bearer {t0}"}), 400, "bad_request"),
        (api.post("/games/nosuchgame/chat", {"text": "hi"}, t0), 404, "not_found"),
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        assert r.json()["error"]["code"] == code
    assert api.get(f"/games/{gid}/chat", t0).json() == {"chat": []}
    assert api.state(gid)["version"] == 0


def test_websocket_offer_answer_and_chat(api: Api):
    made = api.create("fieldshift")
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    socks = []
    for t in (*tokens, None):
        ws = api.client.websocket_connect(f"/api/v1/games/{gid}/ws")
        sock = ws.__enter__()
        sock.send_json({"type": "hello", "v": 1, "token": t, "since": None})
        assert sock.receive_json()["type"] == "welcome"
        assert sock.receive_json()["type"] == "state"
        socks.append((ws, sock))
    s0, s1, spect = (s for _, s in socks)
    s0.send_json({"type": "chat", "text": "<b>hi</b>", "to": "all"})
    for sock in (s0, s1, spect):
        chat = _recv_until(sock, lambda m: m["type"] == "chat")
        assert chat["text"] == "<b>hi</b>" and chat["seat"] == 0  # as written
    spect.send_json({"type": "chat", "id": "c1", "text": "boo"})
    rej = _recv_until(spect, lambda m: m["type"] == "reject")
    assert rej["code"] == "forbidden" and rej["id"] == "c1"
    # an undo offer needs a move of the offerer's own first
    s0.send_json({"type": "offer", "id": "o1", "kind": "undo"})
    rej = _recv_until(s0, lambda m: m["type"] == "reject")
    assert rej["id"] == "o1" and "no move" in rej["message"]
    s0.send_json({"type": "move", "id": "m1", "text": "20", "version": 0})
    assert _recv_until(s0, lambda m: m["type"] == "ack")["version"] == 1
    s0.send_json({"type": "offer", "id": "o2", "kind": "undo"})
    ack = _recv_until(s0, lambda m: m["type"] == "ack" and m["id"] == "o2")
    offer_id = ack["offer"]["id"]
    state = _recv_until(s1, lambda m: m["type"] == "state" and m["offers"])
    assert state["offers"][0]["kind"] == "undo" and state["offers"][0]["by"] == 0
    s1.send_json({"type": "answer", "id": "a1", "offer": offer_id, "accept": True})
    seen: list[dict] = []  # the ack and the update of the undo, in either order
    while not ({"ack", "update"} <= {m["type"] for m in seen if m.get("id") == "a1"
                                     or m.get("version") == 2}):
        seen.append(s1.receive_json())
    ack = next(m for m in seen if m["type"] == "ack" and m["id"] == "a1")
    assert ack["offer"]["status"] == "accepted"
    update = next(m for m in seen if m["type"] == "update" and m["version"] == 2)
    assert update["state"]["my_turn"] is False and update["state"]["offers"] == []
    api.settle()
    assert api.state(gid, tokens[0])["my_turn"] is True  # the move was taken back
    for ws, _ in socks:
        ws.__exit__(None, None, None)


def test_catalog_and_state_say_which_offers_each_game_accepts(api: Api):
    """The pages show only the offer buttons the game can carry out (asked of the core, not
    by game id): FieldShift draws by its own 08, Shift's result holds no draw, CTF 2187's
    sealed turns take no undo."""
    expected = {"fff": ["draw", "undo"], "hills": ["draw", "undo"], "fieldshift": ["undo"],
                "shift": ["undo"], "ctf2187": ["draw"]}
    catalog = {g["id"]: g["offers_allowed"] for g in api.get("/catalog").json()}
    assert {k: v for k, v in catalog.items() if k in expected} == expected
    for game, kinds in catalog.items():  # any other installed game: as the core says
        if game not in expected:
            first = registry.get(game).new(seed=0)
            assert kinds == list(table.offers_allowed(first)), game
    for game, kinds in expected.items():
        made = api.create(game)
        gid = made["game_id"]
        t0 = made["seats"][0]["token"]
        assert api.state(gid, t0)["offers_allowed"] == kinds
        assert api.state(gid)["offers_allowed"] == []  # a spectator offers nothing
        for kind in {"draw", "undo"} - set(kinds):
            r = api.post(f"/games/{gid}/offers", {"kind": kind}, t0)
            assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", r.text
        assert api.state(gid)["version"] == 0


def test_no_offer_buttons_against_an_agent(api: Api):
    made = api.create("fff", seats=[{"kind": "human", "name": "Ann"},
                                    {"kind": "agent", "agent": "random"}])
    t0 = made["seats"][0]["token"]
    assert api.state(made["game_id"], t0)["offers_allowed"] == []


def test_state_names_the_seat_s_team_for_team_chat(api: Api):
    """The page offers "to my team" only where the team is more than the seat itself."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": n} for n in "ABCD"])
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    assert [api.state(gid, t)["team"] for t in tokens] == [[0, 1], [0, 1], [2, 3], [2, 3]]
    assert api.state(gid)["team"] == []
    duel = api.create("fff")
    assert api.state(duel["game_id"], duel["seats"][0]["token"])["team"] == [0]
