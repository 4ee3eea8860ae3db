"""The other four games in the browser: Hills secrecy (page DOM and websocket frames), the
replay page with the hidden information revealed, a Shift duel against an agent seat, and a
mid-game screenshot of every game's page (issue 19)."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import json
import random

import pytest
from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    claim,
    frames_json,
    needs_browser,
    page_token,
    pages,
    server,
    shot,
    wait_version,
)

from boardct.core.records import Record, replay
from boardct.games.hills.board import HEXES, TILE_LETTERS

pytestmark = needs_browser



def play_random(server, gid: str, tokens: list[str], moves: int, seed: int = 1,
                avoid=("resign",)) -> int:
    """Play `moves` random legal moves through the REST API for whoever is to move (each seat
    is asked: in a simultaneous turn nobody is told who else still owes orders, CTF-41)."""
    rng = random.Random(seed)
    for _ in range(moves):
        st = server.state(gid)
        if st["over"]:
            break
        seat = next(p for p, t in enumerate(tokens) if server.state(gid, t)["my_turn"])
        acts = server.ok("GET", f"/games/{gid}/legal", token=tokens[seat])["actions"]
        choices = [a["text"] for a in acts if a["text"] not in avoid] or [acts[0]["text"]]
        # prefer anything over ending the turn, so a few turns reveal tiles and draw cards
        rich = [c for c in choices if c != "end"]
        text = rng.choice(rich) if rich and rng.random() < 0.8 else rng.choice(choices)
        server.move(gid, tokens[seat], text)
    return server.state(gid)["version"]


def test_hills_page_never_holds_the_other_hand_or_a_hidden_tile(server, pages):
    game = server.create("hills", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new()
    frames: list[str] = []
    ann.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    # both seats play: Ann by clicking her legal moves in the page, Bob through the API
    rng = random.Random(7)

    def bob_held_a_card() -> bool:
        bob = server.state(gid, tokens[1])["view"]["board"]
        return bool(bob["hand_sizes"][1] > 0 or bob["discard"])

    # 40 rounds, then on until Bob has held a card (the server's seed is random: in some
    # games Bob's first 40 rounds draw none, and then nothing of his is secret to check)
    for i in range(120):
        st = server.state(gid, tokens[0])
        if st["over"] or (i >= 40 and bob_held_a_card()):
            break
        wait_version(ann, st["version"])
        if st["my_turn"]:
            texts = [a["text"] for a in st["legal"] if a["text"] != "end"]
            text = rng.choice(texts) if texts and rng.random() < 0.85 else "end"
            ann.click(f'#legal button[data-text="{text}"]')
            wait_version(ann, st["version"] + 1)
        else:
            play_random(server, gid, tokens, 1, seed=rng.randrange(1000))
    bob_view = server.state(gid, tokens[1])["view"]["board"]
    st = server.state(gid, tokens[0])
    wait_version(ann, st["version"])
    assert bob_view["hand_sizes"][1] > 0 or bob_view["discard"], "Bob never held a card"
    dom = ann.content()
    face_down = [h for h in st["view"]["board"]["hexes"] if h["tile"] is None]
    assert face_down, "every tile was revealed: nothing left to keep secret"
    # the end of the game gives the record: the true layout, to check against
    server.ok("POST", f"/games/{gid}/resign", {}, tokens[1])
    truth = replay(Record.from_dict(server.ok("GET", f"/games/{gid}/record", token=tokens[0])))
    hidden = {(h["q"], h["r"]) for h in face_down}
    secret_tiles = {HEXES[i]: TILE_LETTERS[truth.tiles[i]] for i in range(len(HEXES))
                    if HEXES[i] in hidden}
    # 1. the page: face-down hexes are drawn face down, the hand panel is Ann's own
    for (q, r) in secret_tiles:
        title = ann.locator(f'#board [data-key="hex:{q},{r}"] title').first.text_content()
        assert "face down" in title
    my_hand = st["view"]["board"]["hands"].get("0", [])
    assert ann.locator("#my-hand li").all_inner_texts() == my_hand
    assert '"1":' not in dom and "Bob's hand" not in dom
    # 2. the websocket frames: never a hand but Ann's, never a hidden hex's terrain
    msgs = frames_json(frames)
    assert msgs, "no websocket frames were seen"
    states = [m for m in msgs if m.get("type") == "state"]
    states += [m["state"] for m in msgs if m.get("type") == "update" and m.get("state")]
    assert states
    for s in states:
        view = s["view"]["board"]
        assert set(view["hands"]) <= {"0"}, view["hands"]
        for h in view["hexes"]:
            if (h["q"], h["r"]) in secret_tiles:
                assert h["tile"] is None
    raw = "".join(frames)
    assert '"hands": {"1"' not in raw and '"hands":{"1"' not in raw
    shot(ann, "hills-secrecy")


def test_replay_reveals_every_hand_after_the_end(server, pages):
    game = server.create("hills", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    play_random(server, gid, tokens, 25, seed=3)
    server.ok("POST", f"/games/{gid}/resign", {}, tokens[0])
    page = pages.new()
    page.goto(server.url(f"/replay/{gid}"))
    page.wait_for_selector("#boards svg")
    page.click("#last")
    page.click("#back")
    # hidden information revealed: one board per seat, each with that seat's own hand
    assert page.locator('#boards [data-seat="0"] svg').count() == 1
    assert page.locator('#boards [data-seat="1"] svg').count() == 1
    frames = server.ok("GET", f"/games/{gid}/replay")["frames"]
    k = len(frames) - 2
    for seat in (0, 1):
        hand = frames[k]["views"][str(seat)]["board"]["hands"][str(seat)]
        assert page.locator(f'#boards [data-seat="{seat}"] #my-hand li').all_inner_texts() == hand


def test_shift_duel_against_an_agent_seat(server, pages):
    game = server.create("shift", [{"kind": "human", "name": "Ann"},
                                   {"kind": "agent", "agent": "random:seed=5"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    rng = random.Random(11)
    clicks = 0
    saw_flip = False
    while clicks < 150:
        ann.wait_for_function(
            "() => document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'")
        if ann.get_attribute("body", "data-over") == "1":
            break
        version = int(ann.get_attribute("body", "data-version"))
        buttons = ann.locator("#legal button.action")
        n = buttons.count()
        target = buttons.nth(rng.randrange(n))
        text = target.get_attribute("data-text")
        gear = f'#board [data-key$=":{text[6:]}"].clickable'
        if text.startswith("shift ") and ann.locator(gear).count():
            ann.click(gear)  # click the gear itself on the card
        else:
            target.click()
        clicks += 1
        wait_version(ann, version + 1)
        saw_flip = saw_flip or ann.locator("#board .flip").count() > 0
        if clicks == 8:
            shot(ann, "shift")
    if ann.get_attribute("body", "data-over") != "1":
        ann.click("#resign")
        ann.click("#resign-yes")
    ann.wait_for_selector("#end:not([hidden])")
    assert ann.inner_text("#result").strip()
    assert saw_flip, "no coin flip was drawn"
    log = ann.inner_text("#log")
    assert "Player 2" in log or "random" in log  # the agent's replies arrived in the log


@pytest.mark.parametrize("game_id,moves", [("fff", 12), ("hills", 14), ("ctf2187", 2),
                                           ("shift", 6)])
def test_game_page_mid_game(server, pages, game_id, moves):
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    page = pages.new()
    claim(page, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(page, gid)
    play_random(server, gid, tokens, moves, seed=5)
    st = server.state(gid, tokens[0])
    wait_version(page, st["version"])
    assert page.locator("#board svg").count() == 1
    # every legal move the seat has can be played from the page: as a listed button, or (for
    # CTF 2187's order sheets) through the sheet form and the command box
    if st["my_turn"] and game_id != "ctf2187":
        assert page.locator("#legal button.action").count() == len(st["legal"])
    # sides told apart by shape and label, not colour alone: both kinds of marker are drawn
    html = page.inner_html("#board")
    assert "side-0" in html and "side-1" in html or game_id == "ctf2187"
    shot(page, game_id)
    json.dumps(st)  # the state message is plain JSON
    # at phone width (a spectator here) nothing but the scaled board is wider than the screen
    phone = pages.new(width=360, height=740)
    phone.goto(server.url(f"/play/{gid}"))
    phone.wait_for_selector("#board svg")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 361
    shot(phone, f"{game_id}-360px")


def test_offers_appear_as_accept_and_deny_buttons(server, pages):
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann, bob = pages.new(), pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    ann.click("#offer-draw")
    ann.wait_for_selector("#offers >> text=Your draw offer")
    bob.wait_for_selector("#offers button.deny")
    assert "Ann offers: draw" in bob.inner_text("#offers")
    bob.click("#offers button.deny")
    bob.wait_for_selector("#offers", state="hidden")
    assert server.state(gid)["over"] is False
    # asked again, and accepted: the game ends drawn on both pages
    ann.click("#offer-draw")
    bob.wait_for_selector("#offers button.accept")
    bob.click("#offers button.accept")
    for page in (ann, bob):
        page.wait_for_selector("#end:not([hidden])")
        assert page.inner_text("#result").strip()
    assert server.state(gid)["result"]["winners"] == []


@pytest.mark.parametrize("game_id,draw,undo", [
    ("fff", True, True),
    ("fieldshift", False, True),  # FieldShift draws only through its own command 08
    ("ctf2187", True, False),  # sealed simultaneous turns take no undo
])
def test_only_the_offers_the_game_accepts_are_buttons(server, pages, game_id, draw, undo):
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    ann.wait_for_selector("#actions-bar:not([hidden])")
    assert ann.is_visible("#offer-draw") is draw
    assert not ann.is_visible("#offer-undo")  # nothing to take back before the first move
    assert ann.is_visible("#resign")
    st = server.state(gid, page_token(ann, gid))
    mover = page_token(ann, gid) if st["my_turn"] else game["seats"][1]["token"]
    server.move(gid, mover, server.state(gid, mover)["legal"][0]["text"])
    wait_version(ann, st["version"] + 1)
    assert ann.is_visible("#offer-undo") is undo


def test_fieldshift_draw_request_is_its_own_move_on_the_page(server, pages):
    """No table draw button for FieldShift: its draw request `08` is in the move list where
    the rules allow it, and a draw offer sent anyway is refused with the reason."""
    game = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tok = page_token(ann, gid)
    st = server.state(gid, tok)
    wait_version(ann, st["version"])
    assert not ann.is_visible("#offer-draw")
    texts = [a["text"] for a in st["legal"]]
    if "08" in texts:
        assert ann.locator('#legal button.action[data-text="08"]').count() == 1
    refused = server.api("POST", f"/games/{gid}/offers", {"kind": "draw"}, token=tok)
    assert refused.status_code == 403


def test_hills_squad_moves_by_two_clicks(server, pages):
    """Click one of my squads (its moves are listed, their hexes highlighted), then a hex."""
    game = server.create("hills", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}], options={"first": "0"})
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    st = server.state(gid, page_token(ann, gid))
    assert st["my_turn"]
    move = next(a["text"] for a in st["legal"] if " move " in a["text"])
    kind, _, direction = move.split()
    squad = next(s for s in st["view"]["board"]["squads"] if s["player"] == 0 and s["kind"] == kind)
    dq, dr = {"E": (1, 0), "NE": (1, -1), "NW": (0, -1), "W": (-1, 0), "SW": (-1, 1),
              "SE": (0, 1)}[direction]
    ann.click(f'#board [data-key="squad:0{kind}"].clickable')
    ann.wait_for_selector("#choices:not([hidden])")
    target = f'#board [data-key="hex:{squad["q"] + dq},{squad["r"] + dr}"]'
    assert "target" in ann.get_attribute(target, "class")
    ann.click(target)
    wait_version(ann, st["version"] + 1)
    after = server.state(gid)["log"][-1]["events"]
    assert any("moves" in e for e in after), after


def test_chat_shows_a_script_line_as_text_and_team_chat_only_to_the_team(server, pages):
    """The server sends chat as written; the page inserts it with textContent, so a
    `<script>` line shows as those characters and runs nothing. Spectators read public chat
    only and have no box to write in."""
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann, bob, watcher = pages.new(), pages.new(), pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    watcher.goto(server.url(f"/play/{gid}"))
    watcher.wait_for_selector("#conn.live")
    assert watcher.is_hidden("#chat-form") and watcher.is_visible("#chat-spectator")
    assert ann.is_hidden("#chat-to")  # one player a side: no team chat to choose
    line = "<script>window.pwned=1</script><b>bold?</b> & done"
    ann.fill("#chat-input", line)
    ann.click("#chat-go")
    for page in (ann, bob, watcher):
        page.wait_for_selector("#chat-log .chat-text")
        assert page.inner_text("#chat-log .chat-text") == line
        assert page.locator("#chat-log script, #chat-log b").count() == 0
        assert page.evaluate("window.pwned") is None
    # a team message (to the sender's team: Ann alone here) never reaches Bob or the watcher
    tok = page_token(ann, gid)
    server.ok("POST", f"/games/{gid}/chat", {"text": "team secret", "to": "team"}, token=tok)
    ann.wait_for_selector("#chat-log li.team")
    bob.reload()
    bob.wait_for_selector("#chat-log .chat-text")
    assert "team secret" not in bob.inner_text("#chat-log")
    assert "team secret" not in watcher.inner_text("#chat-log")
    shot(ann, "chat")


def test_shift_cards_show_each_gear_s_own_numbers(server, pages):
    """Issue 19: "both cards with their four gears (current gear on top), power, guard and
    mods": every gear tile carries its printed level, power, guard and attacks from the view,
    and the current gear is drawn on top of the ring."""
    game = server.create("shift", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tok = page_token(ann, gid)
    st = server.state(gid, tok)
    wait_version(ann, st["version"])
    symbols = {0: "α", 1: "β", 2: "ω"}
    for p, pl in enumerate(st["view"]["board"]["players"]):
        assert len(pl["gears"]) == 4
        for name, gear in zip(["1", "2L", "3", "2R"], pl["gears"], strict=True):
            tile = ann.locator(f'#board g.gear[data-key="gear:{p}:{name}"]')
            assert tile.locator(".gear-stats").text_content() == \
                f"P {gear['power']} · G {gear['guard']}"
            assert f"Lv {gear['level']}" in tile.text_content()
            attacks = " ".join(tile.locator(".gear-attacks").all_text_contents())
            for i, a in enumerate(gear["attacks"]):
                if a:
                    assert symbols[i] in attacks and (a["pattern"] or "") in attacks
        current = ann.locator(f'#board g.gear.current[data-key="gear:{p}:{pl["gear"]}"]')
        assert current.count() == 1
        # on top of the ring: the highest tile of this card
        ys = ann.evaluate(f"""() => [...document.querySelectorAll(
            '#board g.gear[data-key^="gear:{p}:"] rect.hit')].map(r => [r.parentNode.classList
            .contains('current'), Number(r.getAttribute('y'))])""")
        assert min(ys, key=lambda t: t[1])[0] is True
    shot(ann, "shift-gears")
