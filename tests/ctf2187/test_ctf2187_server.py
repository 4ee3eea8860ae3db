"""CTF 2187's own part of the game server (games/ctf2187/server.py, through boardct.server.ext):
order sheets handed in (CTF-37), turn reports (CTF-38) and the state message's
`parts.reports`, which carries a seat's reports of the last processed turn and never names a
Bot that seat's Bots did not see (CTF-15).

The first two tests run a real `boardct serve` process (HTTP on 127.0.0.1, SQLite): the
issue's turn with four players and one sheet missing at the deadline, and a bad sheet refused.
The others use the app in this process, or the part's function on games played here."""

from __future__ import annotations

import json
import random
import re
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server tests need the `server` extra (fastapi)")
pytest.importorskip("sqlalchemy", reason="the server tests need the `server` extra")

import httpx  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from ctf2187_helpers import map_text, place  # noqa: E402
from server_live import WAIT, create_game, get_state, serving  # noqa: E402

from boardct.core import moves, registry  # noqa: E402
from boardct.core.game import Setup  # noqa: E402
from boardct.games.ctf2187 import server as ctf_server  # noqa: E402
from boardct.server.app import create_app  # noqa: E402
from boardct.server.config import ServerConfig  # noqa: E402
from boardct.server.live import Live, Seat, utcnow  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient  # noqa: E402

CTF = registry.get("ctf2187")
API = "/api/v1"


@pytest.fixture
def serve(tmp_path: Path):
    yield from serving(tmp_path)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}"


def _auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def _poll(pred, timeout: float = WAIT, every: float = 0.2):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s")


# -- through a real server process -------------------------------------------------------------

def test_ctf2187_turn_with_a_missing_sheet_at_the_deadline(serve, sqlite_url):
    server = serve(sqlite_url)
    base = server.base_url
    game = create_game(base, "ctf2187", 4, turn_deadline=6)
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    for t in tokens:  # each player takes their seat
        assert httpx.get(f"{base}/api/v1/games/{gid}", headers=_auth(t)).status_code == 200
    state = _poll(lambda: (s := get_state(base, gid, tokens[0]))["deadline"] and s)
    assert state["deadline"]
    sheets = {}
    for seat in range(3):  # three sheets in; player 4's is missing
        legal = httpx.get(f"{base}/api/v1/games/{gid}/legal", headers=_auth(tokens[seat]))
        # the menu starts with the standing orders ("BOT 1 TURN 1 MISSING", the server's to
        # write at the deadline); the first written sheet: "BOT 1 TURN 1; P1 6 - 2 - 0; ..."
        line = next(a["text"] for a in legal.json()["actions"]
                    if not a["text"].endswith("MISSING"))
        text = line.replace("; ", "\n")  # handed in as lines, as on paper
        sheets[seat] = line
        r = httpx.post(f"{base}/api/v1/games/{gid}/sheets", headers=_auth(tokens[seat]),
                       json={"text": text})
        assert r.status_code == 200, r.text
        assert r.json()["ack"] is True
    # sealed: nothing another seat or a spectator reads shows another Bot's sheet
    for reader in (3, None):
        body = httpx.get(f"{base}/api/v1/games/{gid}",
                         headers=_auth(None if reader is None else tokens[reader])).text
        for seat, line in sheets.items():
            assert line.split(";")[0] + ";" not in body, (reader, seat)
    # nor that it is in (CTF-41): a seat's version counts only the entries it may know of
    own = httpx.get(f"{base}/api/v1/games/{gid}", headers=_auth(tokens[0])).json()
    assert own["version"] == 1  # its own sheet
    assert [get_state(base, gid, t)["version"] for t in (tokens[3], None)] == [0, 0]
    # the deadline passes: the turn is processed with Bot 4's standing orders
    done = _poll(lambda: (s := get_state(base, gid, tokens[0]))["view"]["turn"] >= 2 and s,
                 timeout=60)
    # its own sheet, then the entry that processed each turn (a later deadline may have
    # passed too on a loaded machine)
    assert done["version"] == done["view"]["turn"]
    # turn 2 is open: every player whose Bot still works owes a sheet (the server's seed is
    # random, so a Bot may already be down after turn 1)
    assert done["view"]["turn"] == 2
    assert done["to_move"] and set(done["to_move"]) <= {0, 1, 2, 3}
    reports = {}
    for seat, t in enumerate(tokens):
        r = httpx.get(f"{base}/api/v1/games/{gid}/report", headers=_auth(t),
                      params={"turn": 1})
        assert r.status_code == 200, r.text
        reports[seat] = r.json()
        assert [rep["bot"] for rep in reports[seat]["reports"]] == [seat + 1]  # its own only
        assert reports[seat]["reports"][0]["player"] == seat + 1
    assert httpx.get(f"{base}/api/v1/games/{gid}/report").status_code == 403  # spectator
    r = httpx.get(f"{base}/api/v1/games/{gid}/report", headers=_auth(tokens[0]),
                  params={"turn": 5})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_bad_sheet_is_refused_with_its_errors_and_nothing_changes(serve, sqlite_url):
    server = serve(sqlite_url)
    base = server.base_url
    game = create_game(base, "ctf2187", 4)
    gid = game["game_id"]
    t0 = game["seats"][0]["token"]
    for body, code in [({"text": "BOT 1 TURN 1\nP1 99 - 2 - 0"}, "rejected"),
                       ({"text": "default"}, "rejected"), ({"text": ""}, "bad_request"),
                       ({"text": "BOT 2 TURN 1"}, "rejected"), ({"txt": 1}, "bad_request")]:
        r = httpx.post(f"{base}/api/v1/games/{gid}/sheets", headers=_auth(t0), json=body)
        assert r.status_code in (400, 403, 422), r.text
        assert r.json()["error"]["code"] == code, (body, r.text)
    assert get_state(base, gid, t0)["version"] == 0
    r = httpx.post(f"{base}/api/v1/games/{gid}/sheets", json={"text": "x"})
    assert r.status_code == 403  # a spectator
    fs = create_game(base, "fieldshift", 2)
    r = httpx.post(f"{base}/api/v1/games/{fs['game_id']}/sheets",
                   headers=_auth(fs["seats"][0]["token"]), json={"text": "x"})
    assert r.status_code == 404 and "no order sheets" in r.json()["error"]["message"]
    r = httpx.get(f"{base}/api/v1/games/{fs['game_id']}/report",
                  headers=_auth(fs["seats"][0]["token"]))
    assert r.status_code == 404 and "no turn reports" in r.json()["error"]["message"]


# -- the app in this process -------------------------------------------------------------------

@pytest.fixture
def client(tmp_path: Path):
    config = ServerConfig(db_url=f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}")
    with TestClient(create_app(config)) as c:
        yield c


def _create(client, game: str, seats: int) -> tuple[str, list[str]]:
    r = client.post(API + "/games", json={"game": game, "seats": [{"kind": "human"}] * seats})
    assert r.status_code == 201, r.text
    made = r.json()
    return made["game_id"], [s["token"] for s in made["seats"]]


def _state(client, gid: str, token: str | None) -> dict:
    r = client.get(f"{API}/games/{gid}", headers=_auth(token))
    assert r.status_code == 200, r.text
    return r.json()


def _report(client, gid: str, token: str, turn: int | None = None) -> dict:
    params = {} if turn is None else {"turn": turn}
    r = client.get(f"{API}/games/{gid}/report", headers=_auth(token), params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_each_seats_state_message_carries_its_own_reports_of_the_last_turn(client):
    """CTF-38: `parts.reports` is what `GET /report` answers for the last processed turn,
    the seat's own Bots only; a spectator's is null; it follows the turns as they are
    processed, and no other game's message has it."""
    gid, tokens = _create(client, "ctf2187", 4)
    for seat, token in enumerate(tokens):
        part = _state(client, gid, token)["parts"]["reports"]
        assert part == _report(client, gid, token)
        assert part["turn"] == 0 and part["seat"] == seat
        assert [rep["bot"] for rep in part["reports"]] == [seat + 1]
        assert part["reports"][0]["text"].startswith("CTF 2187 - TURN RESULTS - turn 0")
    assert _state(client, gid, None)["parts"] == {"reports": None}
    for token in tokens:  # every sheet in: turn 1 is processed
        legal = client.get(f"{API}/games/{gid}/legal", headers=_auth(token)).json()
        text = next(a["text"] for a in legal["actions"] if not a["text"].endswith("MISSING"))
        r = client.post(f"{API}/games/{gid}/sheets", headers=_auth(token), json={"text": text})
        assert r.status_code == 200, r.text
    for seat, token in enumerate(tokens):
        msg = _state(client, gid, token)
        # a seat knows of its own sealed sheet and of the last one, which processed the turn
        # (CTF-41: not of the others' sheets), so the last to hand in knows of one entry
        assert msg["version"] == (1 if seat == 3 else 2)
        part = msg["parts"]["reports"]
        assert part["turn"] == 1 and part == _report(client, gid, token, 1)
        assert [rep["bot"] for rep in part["reports"]] == [seat + 1]
    fs, fs_tokens = _create(client, "fieldshift", 2)
    assert _state(client, fs, fs_tokens[0])["parts"] == {}


def test_the_games_routes_are_listed_under_its_tag(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert paths[f"{API}/games/{{game_id}}/sheets"]["post"]["tags"] == ["ctf2187"]
    assert paths[f"{API}/games/{{game_id}}/report"]["get"]["tags"] == ["ctf2187"]


# -- the part itself, on games played here ------------------------------------------------------

def _live(game, state) -> Live:
    seats = [Seat(p, "human", None, name, True) for p, name in enumerate(state.setup.names)]
    return Live("g", game, state.setup, False, utcnow(), seats, state, 0)


def _play_turn(live: Live, rnd: random.Random) -> list[tuple]:
    """Every Bot that owes a sheet hands in one of its menu's, through the core's one path;
    the log entries are kept as the server keeps them. The events of the turn."""
    events: list[tuple] = []
    state = live.state
    for p in state.current_players():
        for num in state.owed(p):
            done = moves.act(state, p, rnd.choice(state.sample_sheets(num)))
            live.version += 1
            live.entries.append(_Entry(done.entry))
            events += done.events
    return events


class _Entry:
    def __init__(self, text: str):
        self.text = text


BOT = re.compile(r"\bBot (\d+)\b")
BOT_KEYS = ("bot", "last_to_target_me", "last_targeted")


def bots_named(doc) -> set[int]:
    """Every Bot number a JSON document names: under the keys that hold one, and as "Bot N"
    in any text of it (a report's printed text, its events' lines, its scanner lines)."""
    out: set[int] = set()
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k in BOT_KEYS and isinstance(v, int) and not isinstance(v, bool):
                out.add(v)
            else:
                out |= bots_named(v)
    elif isinstance(doc, list):
        for v in doc:
            out |= bots_named(v)
    elif isinstance(doc, str):
        out |= {int(n) for n in BOT.findall(doc)}
    return out


def _scatter(state, rnd: random.Random) -> None:
    """Every Bot to a random free sector of the (large, open) map, so some stand out of every
    scanner of another player's (the game starts them close together)."""
    free = [(x, y) for x in range(1, state.map.width + 1) for y in range(1, state.map.height + 1)
            if all(cp.x != x or cp.y != y for cp in state.cps)]
    for b, (x, y) in zip(state.bots, rnd.sample(free, len(state.bots)), strict=False):
        place(state, b.num, x, y)


@pytest.mark.parametrize("players,options", [
    (3, {}), (4, {}), (3, {"teams": 3}), (4, {"teams": 4}), (4, {"bots_per_team": 2}),
])
def test_a_seats_reports_never_name_a_bot_its_bots_did_not_see(players, options):
    """CTF-15, CTF-38 and the server's rule for a seat's parts: over whole random games (the
    Bots scattered over a large map, so some are out of sight), every Bot a seat's
    `parts.reports` names is one the seat knows now, from its `view(seat)` or the last
    turn's events through `events_for(events, seat)`; the reports are of the seat's own Bots;
    a spectator's part is null."""
    rnd = random.Random(f"{players}{options}")
    named_others = unseen = 0
    for _ in range(3):
        state = CTF.new(seed=rnd.randrange(1 << 30), names=[f"P{i}" for i in range(players)],
                        turn_limit=5, map=map_text(w=40, h=40), **options)
        _scatter(state, rnd)
        live = _live(CTF, state)
        events: list[tuple] = []
        while True:
            for p in range(players):
                own = {b.num for b in state.bots_of(p)}
                known = (bots_named(state.view(p)["board"]) | own
                         | bots_named([state.describe(e) for e in state.events_for(events, p)]))
                part = ctf_server.reports_part(live, p)["reports"]
                assert part["seat"] == p and part["turn"] == state.log_turn
                assert [r["bot"] for r in part["reports"]] == sorted(own)
                named = bots_named(part)
                assert named <= known, (p, state.log_turn, named - known)
                named_others += len(named - own)
                unseen += len(state.bots) - len(known - {0})
            assert ctf_server.reports_part(live, None) == {"reports": None}
            if state.is_over:
                break
            events = _play_turn(live, rnd)
    assert named_others > 0 and unseen > 0  # other Bots were named, others were out of sight


def test_the_part_is_built_once_per_version_seat_and_deadline():
    """State messages stay cheap: the messages of one version reuse each seat's reports; a
    new version, or a new deadline, builds them again."""
    state = CTF.new(seed=5, names=["a", "b"])
    live = _live(CTF, state)
    first = ctf_server.reports_part(live, 0)["reports"]
    assert ctf_server.reports_part(live, 0)["reports"] is first
    assert ctf_server.reports_part(live, 1)["reports"] is not first
    live.deadline_at = utcnow()
    again = ctf_server.reports_part(live, 0)["reports"]
    assert again is not first
    assert again["reports"][0]["next_deadline"] == live.deadline_at.isoformat(timespec="seconds")
    _play_turn(live, random.Random(1))
    after = ctf_server.reports_part(live, 0)["reports"]
    assert after["turn"] == 1 and after is not again


def test_an_earlier_turns_report_is_the_one_that_turn_gave():
    """`GET /report?turn=N` for an earlier turn replays the log (core.moves.apply_entry) to
    the end of turn N: the reports are those the seat got when turn N was the last one."""
    rnd = random.Random(7)
    state = CTF.initial_state(Setup(11, CTF.resolve_options({"turn_limit": 4}),
                                    ("a", "b", "c")))
    live = _live(CTF, state)
    seen: dict[int, dict] = {}
    while not state.is_over:
        seen[state.log_turn] = _as_sent(ctf_server.turn_reports(live, 1, None))
        _play_turn(live, rnd)
    assert len(seen) == 4
    for turn, reports in seen.items():
        assert _as_sent(ctf_server.turn_reports(live, 1, turn)) == reports, turn


def _as_sent(doc: dict) -> dict:
    """A document as the client gets it (JSON: tuples become lists)."""
    return json.loads(json.dumps(doc))
