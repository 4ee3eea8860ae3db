"""FieldShift in the browser: a full game between two browser contexts by clicks and typed
commands, a reload that rejoins the seat, a rejected move with its ruling, a spectator page,
and the replay page of the finished game (issue 19)."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import re

from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    claim,
    fresh_server,
    needs_browser,
    notice_with,
    pages,
    server,
    shot,
    type_move,
    wait_version,
)

from boardct.core.registry import get

pytestmark = needs_browser


# A complete LSTD game (FieldShift has no chance, so it replays the same on any server): greedy
# against random play, ending by elimination after 25 commands.
FULL_GAME = ["26", "70", "34", "68", "30", "27", "30", "14", "29", "31", "23", "34", "62", "31",
             "23", "31", "83", "25", "33", "67", "33", "27", "37", "68", "37"]


def movers(moves: list[str]) -> list[int]:
    """Who types each command, from the engine (SWC and WDR keep the turn: FS-6)."""
    state = get("fieldshift").new(seed=0)
    out = []
    for text in moves:
        p = state.current_players()[0]
        out.append(p)
        state.apply(state.parse(text, p), p)
    assert state.is_over
    return out


def two_players(server, pages):
    game = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}])
    ann, bob = pages.new(), pages.new()
    claim(ann, server, game["game_id"], game["seats"][0]["invite"], "Ann")
    claim(bob, server, game["game_id"], game["seats"][1]["invite"], "Bob")
    return game, ann, bob


def click_move(page, text: str) -> None:
    """Play `text` by clicking: the board element it targets (a sector for MOV, the enemy chip
    for HIT), else its button in the list of legal moves; a choice box is answered by the
    button of the same command."""
    key = None
    if text[0] == "2":
        key = f"sector:{text[1]}"
    elif text[0] == "3":
        seat = int(page.evaluate("document.body.dataset.mySeat || 0"))
        key = f"op:{'-' if seat == 0 else '+'}{text[1]}"
    if key:
        page.click(f'#board [data-key="{key}"].clickable')
        choice = page.locator(f'#choices button[data-text="{text}"]')
        if page.locator("#choices").is_visible() and choice.count():
            choice.click()
    else:
        page.click(f'#legal button[data-text="{text}"]')


def test_full_game_by_clicks_and_typed_commands(server, pages):
    game, ann, bob = two_players(server, pages)
    # the invite code is single use: it leaves the address bar once claimed
    assert "invite" not in ann.url and "invite" not in bob.url
    assert "You play" in ann.inner_text("#seat-line") and "Ann" in ann.inner_text("#seat-line")
    who = movers(FULL_GAME)
    version = server.state(game["game_id"])["version"]
    for i, (text, p) in enumerate(zip(FULL_GAME, who, strict=True)):
        page = (ann, bob)[p]
        wait_version(page, version)
        page.wait_for_selector("body[data-my-turn='1']")
        if i % 2 == 0:
            type_move(page, text)
        else:
            click_move(page, text)
        version += 1
        wait_version(ann, version)
        wait_version(bob, version)
        if i == 12:
            shot(ann, "fieldshift")
    for page in (ann, bob):
        page.wait_for_selector("#end:not([hidden])")
        assert page.inner_text("#result").strip()
        assert page.locator("#rematch").is_visible()
        assert page.get_attribute("#replay-link", "href") == f"/replay/{game['game_id']}"
        assert page.locator("#command").is_hidden()
    # the opponent's reply arrived over the websocket: Bob's log shows Ann's last command
    assert "+" in bob.inner_text("#log")
    result = server.state(game["game_id"])["result"]["text"]
    assert ann.inner_text("#result").strip() == result


def test_clicking_a_sector_moves_the_selected_operator(server, pages):
    game, ann, bob = two_players(server, pages)
    ann.wait_for_selector("body[data-my-turn='1']")
    # clickable elements come from the legal moves: every sector is a MOV target at the start
    assert ann.locator('#board [data-key^="sector:"].clickable').count() == 10
    assert bob.locator("#board .clickable").count() == 0
    ann.locator('#board [data-key="sector:4"]').click()
    wait_version(bob, 1)
    assert "+0 moves from sector 0 to sector 4" in bob.inner_text("#log")
    # the chip is now drawn in sector 4 on the mover's page too, once it has drawn the move
    # (each page draws its own copy of the state message: bob's may come first)
    wait_version(ann, 1)
    assert ann.locator('#board [data-key="op:+0"]').count() == 1
    box = ann.locator('#board [data-key="sector:4"] rect').bounding_box()
    chip = ann.locator('#board [data-key="op:+0"]').bounding_box()
    assert box["x"] <= chip["x"] <= box["x"] + box["width"]


def test_keyboard_only_move(server, pages):
    game, ann, bob = two_players(server, pages)
    ann.wait_for_selector("body[data-my-turn='1']")
    ann.focus('#board [data-key="sector:6"]')
    ann.keyboard.press("Enter")
    wait_version(bob, 1)
    assert "sector 6" in bob.inner_text("#log")


def test_rejected_move_shows_its_ruling(server, pages):
    game, ann, bob = two_players(server, pages)
    ann.wait_for_selector("body[data-my-turn='1']")
    type_move(ann, "35")  # HIT -5, who is still in reserve
    text = notice_with(ann, "[FS-8]")
    assert "reserve" in text
    # nothing changed: still Ann's turn at version 0
    assert server.state(game["game_id"])["version"] == 0
    assert ann.get_attribute("body", "data-my-turn") == "1"
    type_move(ann, "2x")  # not digits: the parse error names FS-5
    ann.wait_for_function("() => document.getElementById('notice').innerText.includes('FS-5')")


def test_reload_rejoins_the_same_seat_and_board(server, pages):
    game, ann, bob = two_players(server, pages)
    type_move(ann, "24")
    wait_version(bob, 1)
    bob.wait_for_selector("body[data-my-turn='1']")
    type_move(bob, "26")
    wait_version(ann, 2)
    board = ann.inner_html("#board")
    ann.reload()
    ann.wait_for_selector("#board svg")
    wait_version(ann, 2)
    assert "Ann" in ann.inner_text("#seat-line") and "You play" in ann.inner_text("#seat-line")
    assert ann.inner_html("#board") == board
    # a new tab of the same browser rejoins too (the token is in localStorage, not the URL)
    tab = ann.context.new_page()
    tab.goto(server.url(f"/play/{game['game_id']}"))
    wait_version(tab, 2)
    assert "You play" in tab.inner_text("#seat-line")
    assert tab.get_attribute("body", "data-my-turn") == "1"
    assert game["seats"][0]["token"] not in tab.url


def test_spectator_sees_the_game_live_and_cannot_act(server, pages):
    game, ann, bob = two_players(server, pages)
    watcher = pages.new()
    watcher.goto(server.url(f"/play/{game['game_id']}"))
    watcher.wait_for_selector("#conn.live")
    assert "spectator" in watcher.inner_text("#seat-line")
    assert watcher.locator("#command").is_hidden()
    assert watcher.locator("#board .clickable").count() == 0
    type_move(ann, "27")
    wait_version(watcher, 1)
    assert "sector 7" in watcher.inner_text("#log")


def test_replay_page_steps_through_a_finished_game(server, pages):
    game = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    for text, p in zip(FULL_GAME, movers(FULL_GAME), strict=True):
        server.move(gid, tokens[p], text)
    page = pages.new()
    page.goto(server.url(f"/replay/{gid}"))
    page.wait_for_selector("#boards svg")
    assert page.inner_text("#where") == f"move 0 of {len(FULL_GAME)}"
    page.click("#forward")
    assert "played 26" in page.inner_text("#move-line")
    # the move that led here is marked on the board, as the game page marks the last move
    # (issue 33): the engine's elements of that move, the sector moved to among them
    marked = page.eval_on_selector("#boards", "b => b.dataset.lastMove").split()
    assert "sector:6" in marked
    for key in marked:
        assert page.locator(f'#boards [data-key="{key}"].last-move').count() >= 1
    page.click("#forward")
    page.click("#back")
    assert page.inner_text("#where") == f"move 1 of {len(FULL_GAME)}"
    page.click("#last")
    assert re.search(r"played 37", page.inner_text("#move-line"))
    page.keyboard.press("Home")
    assert page.inner_text("#where").startswith("move 0 ")
    page.fill("#jump", "10")
    page.dispatch_event("#jump", "input")
    assert page.inner_text("#where") == f"move 10 of {len(FULL_GAME)}"
    shot(page, "fieldshift-replay")


def test_phone_width(server, pages):
    game = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}])
    page = pages.new(width=360, height=740)
    claim(page, server, game["game_id"], game["seats"][0]["invite"], "Ann")
    # nothing wider than the screen but the board itself, which scales down
    overflow = page.evaluate("document.documentElement.scrollWidth")
    assert overflow <= 360 + 1
    svg = page.locator("#board svg").bounding_box()
    assert svg["width"] <= 360
    type_move(page, "24")
    wait_version(page, 1)
    shot(page, "fieldshift-360px")



def test_a_move_made_while_disconnected_is_sent_once_after_reconnecting(fresh_server, pages):
    server = fresh_server  # stopped and started again: a server of this test's own
    game, ann, bob = two_players(server, pages)
    server.stop()  # the connection drops (a server restart)
    ann.wait_for_selector("#conn:not(.live)")
    type_move(ann, "25")
    assert ann.locator("#sending").is_visible()
    server.start()  # same port, same database
    # the socket comes back with backoff, says hello with its version, resends the move
    wait_version(ann, 1)
    wait_version(bob, 1)
    ann.wait_for_selector("#sending", state="hidden")
    st = server.state(game["game_id"])
    assert st["version"] == 1
    assert "sector 5" in " ".join(st["log"][-1]["events"])


def test_rematch_takes_both_players_to_the_new_game(server, pages):
    game, ann, bob = two_players(server, pages)
    type_move(ann, "24")
    wait_version(bob, 1)
    bob.fill("#command-input", "09")  # FieldShift's own concession (AUX 09)
    bob.press("#command-input", "Enter")
    for page in (ann, bob):
        page.wait_for_selector("#end:not([hidden])")
    ann.click("#rematch")
    ann.wait_for_url(lambda url: game["game_id"] not in url)
    new_id = ann.url.rstrip("/").rsplit("/", 1)[1]
    ann.wait_for_selector("#conn.live")
    # the seats are rotated: Ann now plays the second seat, Bob the first
    assert "Ann" in ann.inner_text("#seat-line")
    assert ann.get_attribute("body", "data-my-seat") == "1"
    bob.click("#rematch")  # the first caller made the game; Bob gets his seat in it
    bob.wait_for_url(f"**/play/{new_id}")
    bob.wait_for_selector("body[data-my-turn='1']")
    assert bob.get_attribute("body", "data-my-seat") == "0"
