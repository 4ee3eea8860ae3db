"""CTF 2187 over the server: what a seat may learn during a turn (CTF-41) and resigning in a
team game (CTF-40), checked on everything the seats and a spectator receive (REST bodies and
websocket messages) while the game is played through the real app in-process."""

from __future__ import annotations

import random
import re

import pytest
from test_server_leaks import true_states

from boardct.games.ctf2187.state import CtfState
from conftest import Api


class Sock:
    """One websocket of a seat (None: a spectator), and everything it received."""

    def __init__(self, api: Api, gid: str, token: str | None):
        self.api = api
        self._ws = api.client.websocket_connect(f"/api/v1/games/{gid}/ws")
        self.sock = self._ws.__enter__()
        self.sock.send_json({"type": "hello", "v": 1, "token": token, "since": None})
        self.received: list[dict] = [self.sock.receive_json(), self.sock.receive_json()]

    def drain(self) -> list[dict]:
        """What arrived since the last look: the background broadcasts are let finish, then
        a ping; everything before its pong."""
        self.api.settle()
        self.sock.send_json({"type": "ping"})
        got = []
        while (msg := self.sock.receive_json())["type"] != "pong":
            got.append(msg)
        self.received += got
        return got

    def close(self) -> None:
        self._ws.__exit__(None, None, None)


def moderator(api: Api, gid: str):
    """The server's own game (the moderator's knowledge): for the test to judge against."""
    return api.client.app.state.service._live[gid]


def seat_look(api: Api, gid: str, token: str | None) -> tuple:
    """What a seat (or the spectator) reads over REST: its state message and legal list."""
    st = api.state(gid, token)
    legal = api.get(f"/games/{gid}/legal", token).json() if token else None
    return st, legal


SEALED = [
    dict(players=3, options={"teams": 3}),
    dict(players=4, options={"teams": 4}),
    dict(players=4, options={}),  # two teams of two
]


@pytest.mark.parametrize("config", range(len(SEALED)))
def test_random_games_tell_no_seat_who_else_has_handed_in(api, config):
    """CTF-41 over the server, random 3- and 4-player games: a sheet that does not complete
    the turn reaches no other websocket (not even an empty update), and leaves every other
    seat's and the spectator's state message and legal list exactly as they were: `to_move`,
    `version`, the log, the prompt, the view. When the turn is processed every websocket hears
    of it, and each seat's per-phase action order lists only its own Bots and those its Bots
    had in scanning range (CTF-15, CTF-21), as the core's filter does."""
    players, options = SEALED[config]["players"], SEALED[config]["options"]
    rnd = random.Random(50 + config)
    sealed = orders = 0
    for game_no in range(3):
        made = api.create("ctf2187", seats=[{"kind": "human", "name": f"P{i}"}
                                             for i in range(players)],
                          options=dict(options, turn_limit=5))
        gid = made["game_id"]
        tokens = [s["token"] for s in made["seats"]]
        socks = {p: Sock(api, gid, t) for p, t in [*enumerate(tokens), (None, None)]}
        live = moderator(api, gid)
        while not live.over:
            owing = list(live.state.current_players())
            rnd.shuffle(owing)
            for p in owing:
                if live.over or p not in live.state.current_players():
                    continue
                turn = live.state.turn
                others = {q: seat_look(api, gid, socks_token(tokens, q))
                          for q in socks if q != p}
                legal = api.state(gid, tokens[p])["legal"]
                text = rnd.choice(legal)["text"]
                if game_no and not text.endswith("MISSING"):  # the sheets route, as lines
                    r = api.post(f"/games/{gid}/sheets", {"text": text.replace("; ", "\n")},
                                 tokens[p])
                else:
                    r = api.move(gid, tokens[p], text)
                assert r.status_code == 200, r.text
                heard = {q: s.drain() for q, s in socks.items()}
                if live.state.turn != turn or live.over:
                    assert all(heard[q] for q in socks), "a processed turn reaches everyone"
                    continue
                assert [m["type"] for m in heard[p]] == ["update"]  # its own sheet
                for q, before in others.items():
                    assert heard[q] == [], (q, p)
                    assert seat_look(api, gid, socks_token(tokens, q)) == before, (q, p)
                sealed += 1
        for s in socks.values():
            s.close()
        orders += check_action_orders(api, gid, socks, players)
    assert sealed > 10 and orders > 50


def socks_token(tokens: list[str], seat: int | None) -> str | None:
    return None if seat is None else tokens[seat]


def check_action_orders(api: Api, gid: str, socks: dict, players: int) -> int:
    """Each seat's updates hold the core filter's lines of the true events (as the seat numbers
    versions), and each "Action order" line names only the seat's own Bots and those within
    scanning range of one of its Bots when the order was fixed (the true event carries every
    listed Bot's sector then). Returns the action orders checked."""
    checked = 0
    for seat in range(players):
        record, states = true_states(api, gid, seat)
        for msg in socks[seat].received:
            if msg.get("type") != "update":
                continue
            after, events = states[msg["version"]]
            shown = after.events_for(events, seat)
            assert msg["events"] == [after.describe(e) for e in shown if e]
            mine = {b.num for b in after.bots if b.player == seat}
            lines = [ln for ln in msg["events"] if ln.startswith("Action order:")]
            true_orders = [e for e in events if e[0] == "order"]
            assert len(lines) == len(true_orders)
            for line, e in zip(lines, true_orders, strict=True):
                listed = {int(n) for n in re.findall(r"Bot (\d+)", line)}
                assert listed <= seen_at_order(e, mine), (seat, line)
                checked += 1
    return checked


def seen_at_order(event: tuple, mine: set[int]) -> set[int]:
    """The Bots of an action order the owner of `mine` may be told of: its own, and those in
    scanning range (`named`: the range and each listed Bot's sector) of one of its listed Bots
    (listed: functional when the order was fixed)."""
    r, where = event.named  # type: ignore[attr-defined]
    at = dict(zip(event[1], where, strict=True))
    eyes = [at[n] for n in event[1] if n in mine]
    return {n for n in event[1] if n in mine or any(
        max(abs(at[n][0] - x), abs(at[n][1] - y)) <= r for x, y in eyes)}


def test_two_v_two_one_resignation_the_game_goes_on_on_standing_orders(api):
    """CTF-40 over the server: in a 2-v-2 game Ann resigns (REST). The game goes on; nobody
    waits for her sheets (`to_move` leaves her out for everyone, her sheets are refused); her
    Bot follows its standing orders every turn, as the turn reports say; the game ends by
    the usual end (the turn limit, or a team wiped out), not by her resignation."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": n}
                                        for n in ("Ann", "Bob", "Cy", "Di")],
                      options={"turn_limit": 3})
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    watcher = Sock(api, gid, None)
    r = api.post(f"/games/{gid}/resign", {}, tokens[0])
    assert r.status_code == 200, r.text
    st = api.state(gid)
    assert not st["over"] and st["view"]["board"]["resigned"] == [0] and 0 not in st["to_move"]
    assert any("Player 1 resigns" in ln for e in st["log"] for ln in e["events"])
    assert [m["type"] for m in watcher.drain()] == ["update"]  # announced to everyone
    mine = api.state(gid, tokens[0])
    assert not mine["my_turn"] and mine["legal"] == []
    refused = api.move(gid, tokens[0], "BOT 1 TURN 1 MISSING")
    assert refused.status_code == 422
    live = moderator(api, gid)
    rnd = random.Random(7)
    while not live.over:
        for seat in live.state.current_players():
            assert seat != 0
            text = rnd.choice(api.state(gid, tokens[seat])["legal"])["text"]
            assert api.move(gid, tokens[seat], text).status_code == 200
        report = api.get(f"/games/{gid}/report", tokens[0]).json()["reports"][0]
        ap = [e["text"] for e in report["events"] if e["kind"] == "ap"]
        assert ap == [] or ap == [f"Bot 1 has {ap[0].split()[3]} AP this turn and follows "
                                  "its standing orders (no sheet arrived)"]
    result = api.state(gid)["result"]
    assert result["reason"] != "resignation"
    record = api.get(f"/games/{gid}/record").json()
    assert record["actions"][0] == "resign 1"
    watcher.close()


def test_two_v_two_the_team_loses_when_both_its_players_have_resigned(api):
    """CTF-40: Ann resigns, the turn is played; Bob resigns: team A loses by resignation,
    Cy and Di win. The websocket resignation (Bob's) works as the REST one (Ann's)."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": n}
                                        for n in ("Ann", "Bob", "Cy", "Di")])
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    assert api.post(f"/games/{gid}/resign", {}, tokens[0]).status_code == 200
    for seat in (1, 2, 3):
        text = api.state(gid, tokens[seat])["legal"][0]["text"]
        assert api.move(gid, tokens[seat], text).status_code == 200
    assert api.state(gid)["view"]["turn"] == 2 and not api.state(gid)["over"]
    bob = Sock(api, gid, tokens[1])
    bob.sock.send_json({"type": "resign", "id": "r1"})
    ack = bob.drain()
    assert any(m["type"] == "ack" and m["id"] == "r1" for m in ack)
    st = api.state(gid)
    assert st["over"] and st["result"]["reason"] == "resignation"
    assert st["result"]["winners"] == [2, 3]
    bob.close()


def test_the_page_line_names_no_one_who_has_handed_in(api):
    """The state message's `to_move` and `prompt` are what a seat may know (CTF-41): a seat
    that has handed in sees every other player still listed, and no seat's prompt says
    whether the players before it have handed in."""
    made = api.create("ctf2187", seats=[{"kind": "human", "name": n}
                                        for n in ("Ann", "Bob", "Cy", "Di")])
    gid = made["game_id"]
    tokens = [s["token"] for s in made["seats"]]
    prompts = [api.state(gid, t)["prompt"] for t in tokens]
    sheet = api.state(gid, tokens[0])["legal"][1]["text"]
    assert api.move(gid, tokens[0], sheet).status_code == 200
    ann = api.state(gid, tokens[0])
    assert ann["to_move"] == [1, 2, 3] and not ann["my_turn"]
    assert [api.state(gid, t)["prompt"] for t in tokens[1:]] == prompts[1:]
    assert all(api.state(gid, t)["to_move"] == [0, 1, 2, 3] for t in (*tokens[1:], None))
    assert isinstance(moderator(api, gid).state, CtfState)
    assert moderator(api, gid).state.current_players() == (1, 2, 3)
