"""`last_move` and `presence` in the state messages (server/recent.py, server/presence.py):
the board elements of the last move come from the engine's action targets, the last turn's
moves together; nobody is told the elements of a move they may not know (a sealed CTF 2187
sheet, CTF-41); the marks survive a reload from the database."""

from __future__ import annotations

from boardct.server.app import create_app  # noqa: F401 (the server extra is installed)


def test_the_last_move_names_the_engine_s_targets(api):
    game = api.create("hills", options={"first": "0"})
    ann, bob = (s["token"] for s in game["seats"])
    gid = game["game_id"]
    assert api.state(gid, ann)["last_move"]["targets"] == []  # before any move
    st = api.state(gid, ann)
    move = next(a for a in st["legal"] if " move " in a["text"])
    api.move(gid, ann, move["text"])
    for token in (ann, bob, None):  # Hills' moves are public: every viewer is told
        last = api.state(gid, token)["last_move"]
        assert last["seat"] == 0 and last["targets"] == move["targets"], last


def test_the_last_turn_s_moves_are_marked_together(api):
    game = api.create("hills", options={"first": "0"})
    ann = game["seats"][0]["token"]
    gid = game["game_id"]
    played = []
    for _ in range(2):
        st = api.state(gid, ann)
        move = next(a for a in st["legal"] if a["targets"] and a["targets"][0] not in
                    {t for p in played for t in p["targets"][:1]})
        api.move(gid, ann, move["text"])
        played.append(move)
    last = api.state(gid, ann)["last_move"]
    assert set(last["targets"]) == {t for p in played for t in p["targets"]}
    assert len(last["versions"]) == 2


def test_a_sealed_sheet_is_marked_for_its_writer_only(api):
    """CTF-41: which Bot an order sheet is for is its writer's alone until the turn is done."""
    game = api.create("ctf2187")
    ann, bob = (s["token"] for s in game["seats"])
    gid = game["game_id"]
    st = api.state(gid, ann)
    bot = st["view"]["board"]["owed"][0]
    api.move(gid, ann, f"BOT {bot} TURN 1; P1 6 - 2 - 0; P2 13 - 2 - 0; P3 6 - 2 - 0; "
                       "P4 13 - 2 - 0; P5 13 - 2 - 0")
    assert api.state(gid, ann)["last_move"]["targets"] == [f"bot:{bot}"]
    for token in (bob, None):
        last = api.state(gid, token)["last_move"]
        assert last["targets"] == [] and last["seat"] is None, last


def test_presence_lists_every_seat(api):
    game = api.create("fff", [{"kind": "human", "name": "Ann"},
                              {"kind": "agent", "agent": "random"}])
    st = api.state(game["game_id"], game["seats"][0]["token"])
    by_seat = {p["seat"]: p for p in st["presence"]}
    assert by_seat[1]["online"] is True  # an agent is always there
    assert by_seat[0] == {"seat": 0, "online": False, "last_seen": None}  # no page yet


def test_the_marks_are_rebuilt_when_a_game_is_loaded(api, db_path):
    from conftest import Api, make_client

    game = api.create("hills", options={"first": "0"})
    ann = game["seats"][0]["token"]
    gid = game["game_id"]
    move = next(a for a in api.state(gid, ann)["legal"] if " move " in a["text"])
    api.move(gid, ann, move["text"])
    with make_client(db_path) as client:  # another server on the same database
        again = Api(client).state(gid, ann)["last_move"]
    assert again["targets"] == move["targets"]
