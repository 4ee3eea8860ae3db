"""`last_move` and `presence` in the state messages (server/recent.py, server/presence.py):
the board elements of the last move come from the engine's action targets and what its events
showed each viewer (`State.event_targets`), the last turn's moves together; nobody is told the
elements of a move they may not know (a sealed CTF 2187 sheet, CTF-41); once a CTF 2187 turn
is processed each seat is shown the other Bots its own Bots saw move (CTF-15, CTF-38); the
marks survive a reload from the database."""

from __future__ import annotations

import random
import re

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


def test_fff_marks_the_square_the_piece_stepped_to_for_both_players(api, db_path):
    """FFF-30: a turn selects a piece (its square, `action_targets`); where it stepped to is
    in the turn's events, and every FFF event is public; the marks are rebuilt on a reload."""
    from conftest import Api, make_client

    game = api.create("fff")
    tokens = [s["token"] for s in game["seats"]]
    gid = game["game_id"]
    mover = api.state(gid, tokens[0])["to_move"][0]
    step = next(a for a in api.state(gid, tokens[mover])["legal"] if " m " in a["text"])
    went = re.search(r"steps to ([a-h][1-8])", step["description"])
    assert went, step
    api.move(gid, tokens[mover], step["text"])
    for token in (*tokens, None):
        last = api.state(gid, token)["last_move"]
        assert last["seat"] == mover and last["targets"] == [*step["targets"],
                                                             f"sq:{went.group(1)}"], last
    with make_client(db_path) as client:  # another server on the same database
        again = Api(client).state(gid, tokens[1 - mover])["last_move"]
    assert again["targets"] == [*step["targets"], f"sq:{went.group(1)}"]


_MOVED = re.compile(r"^Bot (\d+) \w+ \d+-\d+ -> (\d+)-(\d+),")  # "Bot 2 moves 4-10 -> 5-9, ..."


def _moves_seen(lines: list[str]) -> dict[int, str]:
    """The Bots a seat's log lines show moving and the sector each last moved to."""
    out: dict[int, str] = {}
    for line in lines:
        m = _MOVED.match(line)
        if m:
            out[int(m.group(1))] = f"sector:{m.group(2)}-{m.group(3)}"
    return out


def test_ctf_after_a_turn_each_seat_sees_the_bots_its_bots_saw_move(api, monkeypatch):
    """CTF-15, CTF-38: once a turn is processed, a seat's marks name the other Bots whose moves
    its own Bots saw (its log says so) and where they ended, and never a Bot that moved out of
    its Bots' sight; CTF-41: a sheet handed in changes no other viewer's marks before the turn
    is processed; a spectator, who sees no Bot while the game goes on, gets none. Random sheets
    in a game of a fixed seed where Bots move out of each other's sight."""
    import boardct.server.service as service

    monkeypatch.setattr(service, "fresh_seed", lambda: 3)
    game = api.create("ctf2187")
    tokens = [s["token"] for s in game["seats"]]
    gid = game["game_id"]
    own = [{int(b) for b in api.state(gid, t)["view"]["board"]["owed"]} for t in tokens]
    rnd = random.Random(3)
    turns = unseen = 0
    for step in range(40):
        k = step % 2
        st = api.state(gid, tokens[k])
        if st["over"]:
            break
        if not st["legal"]:
            continue
        others = {t: api.state(gid, t)["last_move"] for t in (tokens[1 - k], None)}
        api.move(gid, tokens[k], rnd.choice(st["legal"])["text"])
        states = [api.state(gid, t) for t in tokens]
        newest = states[k]["log"][-1]["events"]
        if not any(line.startswith("=== Turn") for line in newest):  # a sealed sheet only
            for t, before in others.items():
                assert api.state(gid, t)["last_move"] == before
            continue
        turns += 1
        seen = [_moves_seen(s["log"][-1]["events"] if s["log"] else []) for s in states]
        moved = set(seen[0]) | set(seen[1])
        for j, s in enumerate(states):
            marks = set(s["last_move"]["targets"])
            enemy = {b: where for b, where in seen[j].items() if b not in own[j]}
            assert {t for t in marks if t.startswith("bot:")} - {f"bot:{b}" for b in own[j]} \
                == {f"bot:{b}" for b in enemy}, (step, j, s["last_move"], seen[j])
            assert set(enemy.values()) <= marks
            hidden = moved - own[j] - set(seen[j])
            unseen += len(hidden)
            assert not marks & {f"bot:{b}" for b in hidden}
        if not states[0]["over"]:
            assert api.state(gid)["last_move"]["targets"] == []
    assert turns >= 5 and unseen >= 1  # the exclusion was put to the test


def test_the_replay_marks_each_move_as_the_game_page_did(api):
    """After the end the replay shows every position; each frame names the elements of the
    move that led to it (the action's own and what its events show), as the game page marked
    them: FFF's piece and the square it stepped to (FFF-30); the resignation marks nothing."""
    game = api.create("fff")
    tokens = [s["token"] for s in game["seats"]]
    gid = game["game_id"]
    mover = api.state(gid, tokens[0])["to_move"][0]
    step = next(a for a in api.state(gid, tokens[mover])["legal"] if " m " in a["text"])
    api.move(gid, tokens[mover], step["text"])
    marked = api.state(gid, tokens[1 - mover])["last_move"]["targets"]
    assert api.post(f"/games/{gid}/resign", {}, token=tokens[1 - mover]).status_code == 200
    frames = api.get(f"/games/{gid}/replay", tokens[0]).json()["frames"]
    assert frames[0].get("targets") is None  # the start: no move led there
    assert frames[1]["targets"] == marked
    assert frames[2]["targets"] == []
