"""Leak tests (issue 18): everything seat 0 receives, REST bodies and websocket messages, from
the start to the last move, is built from view(0) and events_for(events, 0) only, and holds
nothing of another seat's hidden parts nor the seed before the end."""

from __future__ import annotations

import json
import random

from boardct.core import moves, registry
from boardct.core.game import Setup
from conftest import Api


class Seat0:
    """Seat 0's view of the game: its websocket and every body it received."""

    def __init__(self, api: Api, gid: str, token: str):
        self.api, self.gid, self.token = api, gid, token
        self.received: list[dict] = []
        self._ws = api.client.websocket_connect(f"/api/v1/games/{gid}/ws")
        self.sock = self._ws.__enter__()
        self.sock.send_json({"type": "hello", "v": 1, "token": token, "since": None})
        self.take()  # welcome
        self.take()  # state

    def take(self) -> dict:
        msg = self.sock.receive_json()
        self.received.append(msg)
        return msg

    def rest(self, r) -> dict:
        body = r.json()
        self.received.append(body)
        return body

    def drain(self) -> list[dict]:
        """Every message the server has sent so far: the background broadcasts are let finish,
        then a ping; everything before its pong is what arrived meanwhile."""
        self.api.settle()
        self.sock.send_json({"type": "ping"})
        got = []
        while (msg := self.sock.receive_json())["type"] != "pong":
            self.received.append(msg)
            got.append(msg)
        return got

    def close(self) -> None:
        self._ws.__exit__(None, None, None)


def play(api: Api, game: str, seats: int, options: dict, order=None, seed: int = 3,
         limit: int = 400):
    """A game of `seats` people playing random legal moves over REST while seat 0 watches
    on its websocket; returns (seat0, game id, final version). Who may move is asked of each
    seat (`my_turn`): in a simultaneous turn nobody is told who else still owes orders."""
    rng = random.Random(seed)
    made = api.create(game, seats=[{"kind": "human", "name": f"P{i}"} for i in range(seats)],
                      options=options)
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    me = Seat0(api, gid, tokens[0])
    for _ in range(limit):
        public = api.state(gid)
        if public["over"]:
            break
        to_move = [p for p in range(seats) if api.state(gid, tokens[p])["my_turn"]]
        if order is not None:
            to_move = sorted(to_move, key=order)
        seat = to_move[0]
        if seat == 0:
            st = me.rest(api.get(f"/games/{gid}", tokens[0]))
            me.rest(api.get(f"/games/{gid}/legal", tokens[0]))
        else:
            st = api.state(gid, tokens[seat])
            me.rest(api.get(f"/games/{gid}", tokens[0]))  # seat 0 looks while others play
        text = rng.choice(st["legal"])["text"]
        r = api.move(gid, tokens[seat], text)
        assert r.status_code == 200, r.text
        if seat == 0:
            me.received.append(r.json())
        me.drain()  # the update of this move, if seat 0 may know of it
    final = api.state(gid, tokens[0])
    assert final["over"], final["version"]
    return me, gid, final["version"]


def true_states(api: Api, gid: str, seat: int = 0) -> tuple[dict, list]:
    """After the end: the record, and the true state with its events after each version as
    `seat` numbers versions: in a simultaneous game it is told only of its own entries and of
    those that show another seat or a spectator something (never of another seat's sealed
    order, CTF-41), counted from 1; elsewhere of every entry."""
    record = api.get(f"/games/{gid}/record").json()
    game = registry.get(record["game"])
    state = game.initial_state(Setup(record["seed"], record["options"],
                                     tuple(record["players"]), record["created"]))
    viewers = [None, *range(len(record["players"]))]
    out = [(state.clone(), [])]
    for text in record["actions"]:
        done = moves.apply_entry(state, text)
        state, events = done.state, done.events
        actor = int(text.split(":")[0].split()[1]) - 1 if text.startswith("player ") else None
        public = not game.simultaneous or actor is None or state.is_over or any(
            state.events_for(events, q) for q in viewers if q != actor)
        if public or actor == seat:
            out.append((state.clone(), events))
    return record, out


def normal(doc) -> object:
    return json.loads(json.dumps(doc))


def check_built_from_view(me: Seat0, states: list, final: int) -> None:
    """Every view seat 0 got is view(0) of the true state at that version, every event line
    one of events_for(events, 0)."""
    checked = 0
    for msg in me.received:
        state_msgs = [msg] if msg.get("type") == "state" or "view" in msg else []
        if msg.get("type") == "update":
            state_msgs = [msg["state"]]
            st, events = states[msg["version"]]
            assert msg["events"] == [st.describe(e) for e in st.events_for(events, 0) if e]
        for sm in state_msgs:
            st, _ = states[sm["version"]]
            assert sm["view"] == normal(st.view(0)), sm["version"]
            assert sm["seat"] == 0
            for entry in sm.get("log", []):  # an update carries no log: its events above
                after, events = states[entry["version"]]
                assert entry["events"] == [after.describe(e)
                                           for e in after.events_for(events, 0) if e]
            checked += 1
    assert checked >= final // 2


def before_end(me: Seat0, final: int) -> list[tuple[int, str]]:
    """(version, JSON text) of every message received before the game's end."""
    out = []
    for msg in me.received:
        v = msg.get("version")
        if v is None and "state" in msg:
            v = msg["state"]["version"]
        if v is not None and v < final and not msg.get("over") \
                and not (msg.get("state") or {}).get("over"):
            out.append((v, json.dumps(msg)))
    assert out
    return out


def check_no_seed(record: dict, texts: list[tuple[int, str]]) -> None:
    seed = str(record["seed"])
    for _v, text in texts:
        assert seed not in text and '"seed"' not in text and "boardct-record" not in text


def test_hills_seat_0_never_learns_seat_1s_hand_or_face_down_tiles(api):
    me, gid, final = play(api, "hills", 2, {"turn_limit": 6})
    me.close()
    record, states = true_states(api, gid)
    check_built_from_view(me, states, final)
    texts = before_end(me, final)
    check_no_seed(record, texts)
    for v, text in texts:
        st, _ = states[v]
        msg = json.loads(text)
        views = [msg["view"]] if "view" in msg else [msg["state"]["view"]] \
            if "state" in msg else []
        for view in (v["board"] for v in views):
            assert set(view["hands"]) <= {"0"}  # never seat 1's cards
            for h, hx in enumerate(view["hexes"]):
                if not st.rev[h]:  # face down for both: its terrain is nowhere
                    assert hx["tile"] is None and "star" not in hx


def test_shift_seat_0_never_learns_the_coming_coin_flips(api):
    me, gid, final = play(api, "shift", 2, {"turn_limit": 8})
    me.close()
    record, states = true_states(api, gid)
    check_built_from_view(me, states, final)
    texts = before_end(me, final)
    check_no_seed(record, texts)
    for v, text in texts:  # the seeded source's state decides every coming flip
        rng_state = str(states[v][0].rng.s)
        assert len(rng_state) < 6 or rng_state not in text


def test_ctf2187_seat_0_never_sees_another_teams_sheet_before_it_is_processed(api):
    # seat 0 hands its sheet in last, so the other team's sheets wait sealed meanwhile
    me, gid, final = play(api, "ctf2187", 4, {"turn_limit": 2}, order=lambda p: (p == 0, p))
    me.close()
    record, states = true_states(api, gid)
    check_built_from_view(me, states, final)
    texts = before_end(me, final)
    check_no_seed(record, texts)
    enemy = set(states[0][0].teammates(2))
    assert 0 not in enemy
    sealed = 0
    for entry in record["actions"]:
        who = int(entry.split(":")[0].split()[1]) - 1
        if who not in enemy:
            continue
        sheet = entry.split(":", 1)[1].strip()
        for _v, text in texts:  # not before it is processed, nor after (until the end)
            assert sheet not in text and json.dumps(sheet)[1:-1] not in text
            sealed += 1
    assert sealed
