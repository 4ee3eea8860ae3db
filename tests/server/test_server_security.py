"""Security: every refusal is a clear JSON error and changes nothing (issue 18)."""

from __future__ import annotations

import json
import threading

import pytest

from conftest import Api


def error_of(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["error"]["code"] == code and body["error"]["message"], body
    return body["error"]


@pytest.fixture
def game(api: Api):
    made = api.create("fieldshift")
    tokens = [s["token"] for s in made["seats"]]
    invites = [s["invite"] for s in made["seats"]]
    return made["game_id"], tokens, invites


def first_legal(api: Api, gid: str, token: str) -> str:
    return api.state(gid, token)["legal"][0]["text"]


def test_moves_without_a_seat_change_nothing(api, game):
    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    error_of(api.move(gid, None, text), 403, "forbidden")  # no token: a spectator
    error_of(api.move(gid, "not-a-token", text), 401, "unauthorized")  # a wrong token
    other = api.create("fieldshift")["seats"][0]["token"]
    error_of(api.move(gid, other, text), 401, "unauthorized")  # another game's seat
    r = api.client.post(f"/api/v1/games/{gid}/moves", json={"text": text},
                        headers={"Authorization": "Basic abc"})
    error_of(r, 401, "unauthorized")
    assert api.state(gid)["version"] == 0


def test_an_action_for_the_other_seat_is_rejected(api, game):
    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    err = error_of(api.move(gid, tokens[1], text), 422, "rejected")  # seat 1 is not to move
    assert "not your turn" in err["message"]
    assert api.state(gid, tokens[1])["legal"] == []  # nothing to offer seat 1 either
    assert api.get(f"/games/{gid}/legal", tokens[1]).json()["actions"] == []
    assert api.state(gid)["version"] == 0


def test_an_illegal_move_names_its_ruling(api, game):
    gid, tokens, _ = game
    err = error_of(api.move(gid, tokens[0], "zz top"), 422, "rejected")
    assert "zz" in err["message"]
    assert api.state(gid)["version"] == 0


def test_malformed_and_oversized_bodies(api, game):
    gid, tokens, _ = game
    h = {"Authorization": f"Bearer {tokens[0]}", "content-type": "application/json"}
    url = f"/api/v1/games/{gid}/moves"
    error_of(api.client.post(url, content=b"{not json", headers=h), 400, "bad_request")
    error_of(api.client.post(url, content=b"[1, 2]", headers=h), 400, "bad_request")
    error_of(api.client.post(url, content=b"\xff\xfe", headers=h), 400, "bad_request")
    error_of(api.client.post(url, json={"text": 5}, headers=h), 400, "bad_request")
    error_of(api.client.post(url, json={"text": "20", "version": "x"}, headers=h), 400,
             "bad_request")
    error_of(api.client.post(url, content=b"[" * 5000, headers=h), 400, "bad_request")
    big = json.dumps({"text": "2" * 70_000}).encode()
    error_of(api.client.post(url, content=big, headers=h), 413, "too_large")

    def chunks():  # no content-length: the bound is kept while reading
        for _ in range(100):
            yield b" " * 1024

    error_of(api.client.post(url, content=chunks(), headers=h), 413, "too_large")
    assert api.state(gid)["version"] == 0


def test_unknown_game_and_routes(api):
    error_of(api.get("/games/nosuchgame"), 404, "not_found")
    error_of(api.move("nosuchgame", "x", "20"), 404, "not_found")
    error_of(api.get("/games/" + "x" * 300), 404, "not_found")
    error_of(api.get("/nowhere"), 404, "not_found")
    error_of(api.client.delete("/api/v1/catalog"), 405, "bad_request")


def test_a_move_after_the_end(api, game):
    gid, tokens, _ = game
    # FieldShift's concession, 09, is a move of the player to decide (FS-1, FS-20)
    err = error_of(api.post(f"/games/{gid}/resign", token=tokens[1]), 422, "rejected")
    assert err["rule"] == "FS-1"
    assert api.post(f"/games/{gid}/resign", token=tokens[0]).status_code == 200
    st = api.state(gid)
    assert st["over"] and st["result"]["winners"] == [1]
    error_of(api.move(gid, tokens[0], "20"), 409, "game_over")
    error_of(api.post(f"/games/{gid}/resign", token=tokens[0]), 409, "game_over")
    assert api.state(gid)["version"] == st["version"]


def test_a_replayed_move_id_is_applied_once(api, game):
    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    first = api.move(gid, tokens[0], text, move_id="abc").json()
    again = api.move(gid, tokens[0], text, move_id="abc").json()
    assert first["version"] == again["version"] == 1 and again["events"] == first["events"]
    assert api.state(gid)["version"] == 1
    # the same id from seat 1 (a different text even) gets the same original ack
    assert api.move(gid, tokens[0], "anything", move_id="abc").json()["version"] == 1
    assert api.get(f"/games/{gid}/record").status_code == 403  # not before the end


def test_record_and_replay_only_after_the_end(api, game):
    gid, tokens, _ = game
    error_of(api.get(f"/games/{gid}/record", tokens[0]), 403, "forbidden")
    error_of(api.get(f"/games/{gid}/replay"), 403, "forbidden")


def test_stale_version_is_a_conflict(api, game):
    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    error_of(api.move(gid, tokens[0], text, version=5), 409, "conflict")
    assert api.state(gid)["version"] == 0


def test_invites_claim_once_and_revoke_the_creation_token(api, game):
    gid, tokens, invites = game
    lobby = api.get("/lobby").json()["open"]
    assert all(g["game_id"] != gid for g in lobby)  # not public
    r = api.post(f"/invites/{invites[1]}", {"name": "Cleo"})
    assert r.status_code == 200
    got = r.json()
    assert got["game_id"] == gid and got["seat"] == 1 and got["token"] != tokens[1]
    error_of(api.post(f"/invites/{invites[1]}", {"name": "Dan"}), 404, "not_found")
    error_of(api.get(f"/games/{gid}", tokens[1]), 401, "unauthorized")  # revoked
    st = api.state(gid, got["token"])
    assert st["seat"] == 1 and st["names"][1] == "Cleo"
    error_of(api.post("/invites/nonsense", {}), 404, "not_found")


def test_lobby_lists_public_games_with_a_free_seat(api):
    # listed, with seat 1 open to anyone (the lobby offers only the seats the creator opens)
    made = api.create("fieldshift", public=True, seats=[{"kind": "human", "name": "Ann"},
                                                        {"kind": "human", "open": True}])
    gid = made["game_id"]
    listed = {g["game_id"]: g for g in api.get("/lobby").json()["open"]}
    assert listed[gid]["status"] == "open"
    assert "token" not in json.dumps(listed[gid]) and "invite" not in json.dumps(listed[gid])
    api.post(f"/invites/{made['seats'][1]['invite']}", {"name": "B"})
    api.state(gid, made["seats"][0]["token"])  # the creator's token takes seat 0
    assert gid not in {g["game_id"] for g in api.get("/lobby").json()["open"]}
    mine = api.post("/mine", {"tokens": [made["seats"][0]["token"], "junk"]}).json()["games"]
    assert [(g["game_id"], g["seat"]) for g in mine] == [(gid, 0)]


def test_file_options_are_refused_and_not_offered(api, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("hills-layout\nTOP SECRET\n")
    for game, name in (("ctf2187", "map"), ("ctf2187", "tables"), ("hills", "layout"),
                       ("shift", "card1"), ("fff", "position")):
        body = {"game": game, "options": {name: str(secret)}}
        if game == "ctf2187":
            body["seats"] = [{"kind": "human"}] * 2
        err = error_of(api.post("/games", body), 400, "bad_request")
        assert "file" in err["message"] and "TOP SECRET" not in err["message"]
    err = error_of(api.post("/games", {"game": "ctf2187", "options": {"tables": "\n/etc"}}),
                   400, "bad_request")
    # built-in card names are fine, and they are all the catalog offers
    assert api.post("/games", {"game": "shift", "options": {"card1": "moth-regent"}}
                    ).status_code == 201
    catalog = {g["id"]: {o["name"]: o for o in g["options"]} for g in api.get("/catalog").json()}
    assert "map" not in catalog["ctf2187"] and "tables" not in catalog["ctf2187"]
    assert "layout" not in catalog["hills"] and "position" not in catalog["fff"]
    assert "moth-regent" in catalog["shift"]["card1"]["choices"]


def test_bad_create_requests(api):
    error_of(api.post("/games", {"game": "chess"}), 400, "bad_request")
    error_of(api.post("/games", {"game": "fieldshift", "seats": [{"kind": "human"}]}), 400,
             "bad_request")
    error_of(api.post("/games", {"game": "fieldshift", "options": {"turn_limit": "x"}}), 400,
             "bad_request")
    error_of(api.post("/games", {"game": "fieldshift", "seats": [
        {"kind": "agent", "agent": "nosuch"}, {"kind": "human"}]}), 400, "bad_request")
    error_of(api.post("/games", {"game": "fieldshift", "seats": [
        {"kind": "robot"}, {"kind": "human"}]}), 400, "bad_request")
    for spec in ("mcts:time=100000", "mcts:iters=100000000", "mcts:cpu=500"):
        err = error_of(api.post("/games", {"game": "fieldshift", "seats": [
            {"kind": "agent", "agent": spec}, {"kind": "human"}]}), 400, "bad_request")
        assert "at most" in err["message"]
    error_of(api.post("/games", {"game": "fieldshift", "seats": [
        {"kind": "human", "name": "a\x00b"}, {"kind": "human"}]}), 400, "bad_request")


def test_agent_seats_cannot_be_moved_for_by_a_person(api):
    made = api.create("fieldshift", seats=[{"kind": "agent", "agent": "random"},
                                           {"kind": "human", "name": "B"}])
    assert "token" not in made["seats"][0]
    api.settle()
    st = api.state(made["game_id"])
    # the agent played its turn (one action or more) and the person is to move
    assert st["version"] >= 1 and st["to_move"] == [1]
    assert {e["seat"] for e in st["log"]} == {0}


def test_racing_moves_one_ack_one_conflict(api, game):
    """Two moves for the same version at once: one is applied, the other told to resync."""
    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    answers = []
    barrier = threading.Barrier(2)

    def send(move_id: str) -> None:
        barrier.wait()
        answers.append(api.move(gid, tokens[0], text, move_id=move_id, version=0))

    threads = [threading.Thread(target=send, args=(f"r{i}",)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 409], [r.text for r in answers]
    assert [r for r in answers if r.status_code == 409][0].json()["error"]["code"] == "conflict"
    assert api.state(gid)["version"] == 1
    assert len(api.state(gid)["log"]) == 1


def test_compare_and_set_guards_the_database_too(api, game):
    """Another process moved first (the database is ahead of this process's cache): the move
    is refused as a conflict, the cache catches up, nothing is applied twice."""
    from sqlalchemy import update

    from boardct.server.models import GameRow

    gid, tokens, _ = game
    text = first_legal(api, gid, tokens[0])
    engine = api.client.app.state.engine
    with engine.begin() as conn:  # a foreign writer bumps the version without a log entry
        conn.execute(update(GameRow).where(GameRow.id == gid).values(version=1))
    error_of(api.move(gid, tokens[0], text), 409, "conflict")
    with engine.begin() as conn:
        conn.execute(update(GameRow).where(GameRow.id == gid).values(version=0))
    assert api.move(gid, tokens[0], text).status_code == 200


def test_another_seats_move_id_gives_nothing_away(api):
    """A move id names one seat's move: another seat resending it learns nothing of that
    move's private events, and the server's own ids (agents) cannot be used by clients."""
    made = api.create("hills", seats=[{"kind": "human", "name": "A"},
                                      {"kind": "human", "name": "B"}])
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    seat = api.state(gid)["to_move"][0]
    text = api.state(gid, tokens[seat])["legal"][0]["text"]
    assert api.move(gid, tokens[seat], text, move_id="mine").status_code == 200
    err = error_of(api.move(gid, tokens[1 - seat], text, move_id="mine"), 409, "conflict")
    assert "another seat" in err["message"]
    error_of(api.move(gid, tokens[1 - seat], text, move_id="agent:1:1"), 400, "bad_request")
    error_of(api.move(gid, tokens[1 - seat], text, move_id="server:x"), 400, "bad_request")
    assert api.state(gid)["version"] == 1


def test_a_sheet_for_another_players_bot_is_rejected(api):
    """In a simultaneous turn every seat may act, but only for its own Bots (CTF-37)."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": f"P{i}"} for i in range(4)])
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    theirs = api.state(gid, tokens[2])["legal"][0]["text"]
    err = error_of(api.move(gid, tokens[0], theirs), 422, "rejected")
    assert err["message"]
    assert api.state(gid)["version"] == 0
    assert api.move(gid, tokens[2], theirs).status_code == 200
