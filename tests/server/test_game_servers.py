"""A game's own server module (server/ext.py): loaded for every registered game when the app is
built, its routes served for its own games only, its state parts only in its own games'
messages and built for each seat; a module that is missing or fails to install leaves the
server serving every other game.

The games here are registered by the test: a real game's rules under another id, whose
`FrontEnds.server` names a module written for the test (or none that exists)."""

from __future__ import annotations

import logging
import textwrap
from pathlib import Path

import pytest

from boardct.core import registry
from boardct.core.frontends import FrontEnds
from conftest import API, Api, make_client

PROBE = '''
"""A game's server module for the tests: a route that acts through the extension point, and
a part of each seat's state message."""

import threading

from boardct.server.ext import Request, ServerExtension, ServiceError, field, read_object


def install(ext: ServerExtension) -> None:
    @ext.router.post("/games/{game_id}/probe")
    async def probe(game_id: str, request: Request) -> dict:
        """Say who asked, look at the game under its lock, and play `text` if given."""
        live, seat = await ext.seat(request, game_id, "probes")
        body = await read_object(request)
        text = field(body, "text", str, None)
        if text is not None and seat is None:
            raise ServiceError("forbidden", "a spectator cannot probe with a move")

        def look() -> dict:
            return {"thread": threading.get_ident(), "locked": live.lock.locked(),
                    "version": live.version}

        out = {"seat": seat, "loop": threading.get_ident(), "inside": await ext.locked(live, look)}
        if text is not None:
            out["ack"] = await ext.submit(live, seat, text, field(body, "move_id", str, None))
        return out

    @ext.state_part
    def probe_part(live, seat):
        return {"probe": {"seat": seat, "version": live.version}}
'''

HALF = '''
from boardct.server.ext import ServerExtension


def install(ext: ServerExtension) -> None:
    @ext.router.get("/games/{game_id}/half")
    async def half(game_id: str) -> dict:
        return {"half": True}

    ext.state_part(lambda live, seat: {"half": True})
    raise RuntimeError("this module's install fails on purpose")
'''

FAILING_PART = '''
from boardct.server.ext import ServerExtension


def install(ext: ServerExtension) -> None:
    @ext.state_part
    def failing(live, seat):
        raise KeyError("a bug in the game's part")

    ext.state_part(lambda live, seat: {"fine": seat})
'''


@pytest.fixture
def fake_game(tmp_path: Path, monkeypatch):
    """`fake_game(game_id, module, source)`: a game with the rules of `shift` registered as
    `game_id`, whose server module is `module` (written from `source` when given, else left
    missing). Unregistered after the test."""
    made: list[str] = []
    monkeypatch.syspath_prepend(str(tmp_path))
    base = type(registry.get("shift"))

    def make(game_id: str, module: str, source: str | None = None):
        if source is not None:
            (tmp_path / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        cls = type(f"Fake_{game_id}", (base,), {"id": game_id, "title": f"Fake {game_id}",
                                                 "frontends": FrontEnds(server=module)})
        made.append(game_id)
        return registry.register(cls())

    yield make
    for game_id in made:
        registry.unregister(game_id)


def _play_one(api: Api, gid: str, tokens: list[str]) -> dict:
    """The seat to move plays its first legal action; its ack."""
    state = api.state(gid, tokens[0])
    seat = state["to_move"][0]
    legal = api.get(f"/games/{gid}/legal", tokens[seat]).json()["actions"]
    r = api.move(gid, tokens[seat], legal[0]["text"])
    assert r.status_code == 200, r.text
    return r.json()


def test_a_games_route_acts_through_the_extension_point(fake_game, db_path):
    """The route gets the caller's seat, reads the game under its lock in a worker thread,
    and plays through the service's one path (committed, then seen by every seat)."""
    fake_game("probe-a", "boardct_test_probe_a", PROBE)
    with make_client(db_path) as client:
        api = Api(client)
        made = api.create("probe-a")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        state = api.state(gid, tokens[0])
        seat = state["to_move"][0]
        text = api.get(f"/games/{gid}/legal", tokens[seat]).json()["actions"][0]["text"]
        r = api.post(f"/games/{gid}/probe", {"text": text, "move_id": "m1"}, tokens[seat])
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["seat"] == seat
        assert out["inside"]["locked"] is True and out["inside"]["thread"] != out["loop"]
        assert out["ack"]["ack"] is True and out["ack"]["version"] == 1
        again = api.post(f"/games/{gid}/probe", {"text": text, "move_id": "m1"}, tokens[seat])
        assert again.json()["ack"]["again"] is True  # the one path: a move id applies once
        api.settle()
        assert api.state(gid, tokens[1 - seat])["version"] == 1
        assert api.post(f"/games/{gid}/probe", {}).json()["seat"] is None  # a spectator


def test_a_games_route_is_not_found_for_a_game_of_another_id(fake_game, db_path):
    """Nothing happens: no move, and a creation token used there does not take its seat."""
    fake_game("probe-b", "boardct_test_probe_b", PROBE)
    with make_client(db_path) as client:
        api = Api(client)
        other = api.create("fieldshift")
        # seat 1's creation token (seat 0 is the creator's, taken at creation)
        gid, token = other["game_id"], other["seats"][1]["token"]
        r = api.post(f"/games/{gid}/probe", {"text": "24"}, token)
        assert r.status_code == 404, r.text
        assert r.json()["error"] == {"code": "not_found", "rule": None,
                                     "message": "FieldShift has no probes"}
        seats = api.state(gid)["seats"]
        assert api.state(gid)["version"] == 0 and not seats[1]["claimed"]
        r = api.post("/games/nosuchgame/probe", {}, token)
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_a_state_part_is_in_its_own_games_messages_only_and_built_per_seat(fake_game,
                                                                            db_path):
    fake_game("probe-c", "boardct_test_probe_c", PROBE)
    with make_client(db_path) as client:
        api = Api(client)
        made = api.create("probe-c")
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        for seat, token in enumerate(tokens):
            assert api.state(gid, token)["parts"] == {"probe": {"seat": seat, "version": 0}}
        assert api.state(gid)["parts"] == {"probe": {"seat": None, "version": 0}}
        _play_one(api, gid, tokens)
        api.settle()
        assert api.state(gid, tokens[1])["parts"]["probe"] == {"seat": 1, "version": 1}
        other = api.create("fieldshift")
        assert api.state(other["game_id"], other["seats"][0]["token"])["parts"] == {}
        with client.websocket_connect(f"{API}/games/{gid}/ws") as ws:  # the websocket too
            ws.send_json({"type": "hello", "v": 1, "token": tokens[0], "since": None})
            assert ws.receive_json()["type"] == "welcome"
            state = ws.receive_json()
            assert state["type"] == "state" and state["parts"]["probe"]["seat"] == 0


def test_the_games_routes_are_listed_under_its_tag(fake_game, db_path):
    game = fake_game("probe-d", "boardct_test_probe_d", PROBE)
    with make_client(db_path) as client:
        doc = client.get("/openapi.json").json()
        assert doc["paths"][f"{API}/games/{{game_id}}/probe"]["post"]["tags"] == ["probe-d"]
        assert {"name": "probe-d", "description": f"{game.title}: the game's own routes"} \
            in doc["tags"]


def test_a_missing_server_module_is_logged_and_every_other_game_is_served(fake_game, db_path,
                                                                          caplog):
    fake_game("probe-e", "boardct_test_no_such_module")
    with caplog.at_level(logging.ERROR, logger="boardct.server"), \
            make_client(db_path) as client:
        api = Api(client)
        for game in ("fieldshift", "probe-e"):  # another game, and this one (its routes aside)
            made = api.create(game)
            gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
            assert _play_one(api, gid, tokens)["version"] == 1
        ctf = api.create("ctf2187", [{"kind": "human"}] * 2)  # another game's own routes
        r = api.get(f"/games/{ctf['game_id']}/report", ctf["seats"][0]["token"])
        assert r.status_code == 200, r.text
        assert "probe-e" not in client.app.state.game_servers
    logged = [r.getMessage() for r in caplog.records if "probe-e" in r.getMessage()]
    assert len(logged) == 1
    assert "boardct_test_no_such_module" in logged[0] and "ModuleNotFoundError" in logged[0]


def test_a_module_whose_install_fails_is_left_out_whole(fake_game, db_path, caplog):
    """What it added before it failed (a route, a part) is not served either."""
    fake_game("probe-f", "boardct_test_half", HALF)
    with caplog.at_level(logging.ERROR, logger="boardct.server"), \
            make_client(db_path) as client:
        api = Api(client)
        made = api.create("probe-f")
        gid = made["game_id"]
        r = api.get(f"/games/{gid}/half")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        assert api.state(gid, made["seats"][0]["token"])["parts"] == {}
    assert any("probe-f" in r.getMessage() and "fails on purpose" in r.getMessage()
               for r in caplog.records)


def test_a_failing_part_is_left_out_and_the_message_still_sent(fake_game, db_path, caplog):
    fake_game("probe-g", "boardct_test_failing_part", FAILING_PART)
    with caplog.at_level(logging.ERROR, logger="boardct.server"), \
            make_client(db_path) as client:
        api = Api(client)
        made = api.create("probe-g")
        msg = api.state(made["game_id"], made["seats"][1]["token"])
        assert msg["parts"] == {"fine": 1} and msg["version"] == 0
    assert any("failing" in r.getMessage() and "probe-g" in r.getMessage()
               for r in caplog.records)


def test_game_modules_reach_the_server_only_through_its_extension_point():
    """Every registered game's server module imports, of the server, only boardct.server.ext
    (and that one re-exports what they need)."""
    import ast
    import importlib

    checked = 0
    for game in registry.all_games():
        name = game.frontends.server
        if not name:
            continue
        module = importlib.import_module(name)
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for n in names:
                if n.startswith("boardct.server"):
                    assert n == "boardct.server.ext", (name, n)
        checked += 1
    assert checked >= 1


def test_the_servers_own_code_names_no_game():
    """The server knows games only through the core API and their own server modules: no game
    id appears in its Python source, code or comment (a word of its own, any case)."""
    import re

    import boardct.server

    ids = registry.ids()
    words = re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b", re.I)
    found = []
    for path in sorted(Path(boardct.server.__file__).parent.glob("*.py")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if words.search(line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert len(ids) >= 5 and not found, "\n".join(found)
