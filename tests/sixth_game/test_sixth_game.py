"""The sixth game: Sealed Bids lives in a package of its own (tests/sixth_game), installed by
pip from its folder for the whole run (tests/conftest.py), and boardct finds it through the
`boardct.games` entry point alone: no line of boardct names it.

These tests show it in every front end: the registry and `boardct games`, its own CLI command
and `play` flag, play at the terminal, the server (its routes, its part of the state
message, a bid sealed from the other seats), and its schema. The browser (its own renderer in
Chromium: tests/web/test_web_targets.py), the learners' environments (tests/adapters) and the
conformance suite (tests/conformance) take it up by iterating the registry; the last test here
checks that they do.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.metadata import distribution
from pathlib import Path

import pytest

from boardct.core import registry
from boardct.core.records import Record, record_of, replay

GAME_ID = "sealedbids"
TESTS = Path(__file__).resolve().parents[1]
BOARDCT_SRC = TESTS.parent / "src" / "boardct"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`boardct ARGS` in a fresh process, which finds the game as any process would."""
    return subprocess.run([sys.executable, "-m", "boardct", *args], capture_output=True,
                          text=True, input=stdin, timeout=120, env=dict(os.environ),
                          check=False)


def test_it_is_installed_as_a_package_of_its_own_and_found_through_the_entry_point():
    game = registry.get(GAME_ID)
    dist = distribution("boardct-sealed")
    (ep,) = [e for e in dist.entry_points if e.group == "boardct.games"]
    assert (ep.name, ep.value) == (GAME_ID, "boardct_sealed:GAME")
    module = sys.modules[type(game).__module__]
    assert module.__file__ is not None
    assert BOARDCT_SRC not in Path(module.__file__).resolve().parents
    assert (TESTS / "sixth_game") not in Path(module.__file__).resolve().parents  # installed


def test_no_line_of_boardct_names_it():
    """boardct's own source names neither the game, nor its package, nor its id as a string
    (checked as it is written in boardct: a quoted id, the package, the title)."""
    marks = ("Sealed Bids", "boardct_sealed", f'"{GAME_ID}"', f"'{GAME_ID}'")
    hits = [f"{p}: {m}" for p in BOARDCT_SRC.rglob("*")
            if p.is_file() and p.suffix in (".py", ".js", ".html", ".css", ".json", ".toml")
            for m in marks if m in p.read_text(encoding="utf-8", errors="replace")]
    assert not hits, hits


def test_boardct_games_lists_it_with_its_option():
    done = run("games")
    assert done.returncode == 0, done.stderr
    assert "Sealed Bids" in done.stdout and "cards" in done.stdout
    assert "could not" not in done.stderr.lower()


def test_its_own_command_and_play_flag_reach_the_terminal():
    rules = run("sealed", "rules")
    assert rules.returncode == 0, rules.stderr
    assert "SB-3" in rules.stdout and "highest bid wins the prize" in rules.stdout
    helped = run("play", GAME_ID, "--help")
    assert helped.returncode == 0 and "--cards" in helped.stdout


def test_a_game_plays_to_its_end_at_the_terminal_from_a_script(tmp_path):
    """Three cards, two players: the terminal asks the players in turn for their sealed bids
    (the first still owing bids first) and prints the result."""
    script = tmp_path / "bids.txt"
    script.write_text("# Ann, then Ben, each round\n3\n1\n2\n2\n1\n3\n", encoding="utf-8")
    save = tmp_path / "game.json"
    done = run("play", GAME_ID, "--names", "Ann", "Ben", "--cards", "3", "--seed", "4",
               "--script", str(script), "--save", str(save))
    assert done.returncode == 0, done.stderr
    assert "Result:" in done.stdout
    record = Record.load(save)
    assert record.game == GAME_ID and len(record.actions) == 6
    assert record.actions[0] == "player 1: bid 3"  # a record names the bidder (SB-2)
    state = replay(record)
    assert state.is_over and state.outcome is not None
    assert record_of(state).actions == record.actions


def test_a_bid_at_the_terminal_is_sealed_from_the_next_player(tmp_path):
    """Hot-seat: after Ann bids, Ben's screen says nothing of her card."""
    script = tmp_path / "bids.txt"
    script.write_text("5\n", encoding="utf-8")
    done = run("play", GAME_ID, "--names", "Ann", "Ben", "--seed", "2", "--script",
               str(script), "--trace")
    assert done.returncode == 0, done.stderr
    after = done.stdout.split("Ann bids 5 (sealed).", 1)[-1]
    assert "bids 5" not in after and "sealed bid: 5" not in after


@pytest.fixture
def client(tmp_path: Path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from boardct.server.app import create_app
    from boardct.server.config import ServerConfig

    config = ServerConfig(db_url=f"sqlite:///{(tmp_path / 'boardct.db').as_posix()}")
    with TestClient(create_app(config)) as c:
        yield c


API = "/api/v1"


def _auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def test_the_server_serves_it_with_its_own_route_and_part(client):
    catalog = client.get(f"{API}/catalog").json()
    assert GAME_ID in json.dumps(catalog)
    r = client.post(f"{API}/games", json={"game": GAME_ID, "options": {"cards": 3},
                                          "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    made = r.json()
    gid, (ann, ben) = made["game_id"], [s["token"] for s in made["seats"]]
    assert client.get(f"{API}/games/{gid}", headers=_auth(ann)).json()["parts"] == \
        {"standing": [1, 1]}
    # its own route, through the server's one path: the same as the move "bid 2"
    r = client.post(f"{API}/games/{gid}/bids", headers=_auth(ann), json={"card": 2})
    assert r.status_code == 200, r.text
    again = client.post(f"{API}/games/{gid}/bids", headers=_auth(ann), json={"card": 3})
    assert again.status_code == 422 and again.json()["error"]["rule"] == "turn"  # one bid a round
    # sealed (SB-2): Ben and a spectator learn nothing of it, not even that it is in
    for token in (ben, None):
        seen = client.get(f"{API}/games/{gid}", headers=_auth(token)).json()
        assert seen["view"]["board"]["my_bid"] is None and seen["version"] == 0
        assert seen["view"]["to_move"] == [0, 1]
    mine = client.get(f"{API}/games/{gid}", headers=_auth(ann)).json()
    assert mine["view"]["board"]["my_bid"] == 2 and not mine["my_turn"]
    r = client.post(f"{API}/games/{gid}/moves", headers=_auth(ben), json={"text": "bid 1"})
    assert r.status_code == 200, r.text
    rounds = client.get(f"{API}/games/{gid}/rounds").json()["rounds"]
    assert rounds == [{"prize": rounds[0]["prize"], "bids": [2, 1], "winner": 0}]
    standing = client.get(f"{API}/games/{gid}", headers=_auth(ben)).json()["parts"]
    assert standing == {"standing": [1, 2]}
    # its routes exist for its games only
    other = client.post(f"{API}/games", json={"game": registry.ids()[0], "seats": [
        {"kind": "human"}] * registry.get(registry.ids()[0]).min_players}).json()
    r = client.get(f"{API}/games/{other['game_id']}/rounds")
    assert r.status_code == 404


def test_its_view_schema_is_published_and_met(client):
    jsonschema = pytest.importorskip("jsonschema")
    schema = client.get(f"{API}/schema/{GAME_ID}").json()
    assert schema["properties"]["board"]["required"][0] == "cards"
    state = registry.get(GAME_ID).new(seed=1, names=("a", "b", "c"))
    for viewer in (None, 0, 1, 2):
        jsonschema.validate(state.view(viewer), schema)


def test_the_suites_that_iterate_the_registry_take_it_up():
    """The conformance suite, the learners' environments and the browser tests are
    parametrised over the registry: collected, they hold tests of this game (none names it)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", str(TESTS / "conformance"),
                           str(TESTS / "adapters"), str(TESTS / "web" / "test_web_targets.py")],
                          capture_output=True, text=True, timeout=300, cwd=TESTS.parent,
                          check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    for suite in ("tests/conformance/", "tests/adapters/test_pettingzoo.py",
                  "tests/adapters/test_gymnasium.py", "tests/adapters/test_openspiel.py",
                  "tests/web/test_web_targets.py"):
        mine = [i for i in ids if i.startswith(suite) and GAME_ID in i]
        assert mine, f"{suite} holds no test of {GAME_ID}"
