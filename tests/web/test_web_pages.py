"""The pages as players use them, at a desk (1280x800) and on a phone (360x740): what just
happened (the last move marked on the board from the engine's action targets, a log grouped by
who did what, with the seats' names), the result and its reason at the top at the end, and no
page wider than the screen. Screenshots of every game at both sizes go to
artifacts/screenshots/pages-<game>-<width>.png."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import random
import re
from datetime import datetime

import pytest
from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    claim,
    needs_browser,
    notice_with,
    page_token,
    pages,
    server,
    shot,
    wait_version,
)

pytestmark = needs_browser

GAMES = ["fieldshift", "fff", "hills", "shift", "ctf2187"]
SIZES = [(1280, 800), (360, 740)]


def no_sideways_scroll(page) -> None:
    width, inner = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} px on a {inner} px screen"


def bob_moves(server, gid: str, token: str, rng: random.Random) -> bool:
    """One random legal move of Bob's (not resigning, not a draw request); False when it is
    not his turn."""
    st = server.state(gid, token)
    if st["over"] or not st["my_turn"]:
        return False
    acts = [a["text"] for a in st["legal"] if a["text"] not in ("08", "09", "resign")]
    rich = [t for t in acts if t != "end"]
    server.move(gid, token, rng.choice(rich if rich and rng.random() < 0.85 else acts))
    return True


def ann_moves(server, gid: str, token: str, rng: random.Random) -> bool:
    return bob_moves(server, gid, token, rng)


def marked(page) -> set[str]:
    return set(page.evaluate(
        "() => [...document.querySelectorAll('#board [data-key].last-move')]"
        ".map(n => n.getAttribute('data-key'))"))


def drawn_keys(page) -> set[str]:
    return set(page.evaluate(
        "() => [...document.querySelectorAll('#board [data-key]')]"
        ".map(n => n.getAttribute('data-key'))"))


def the_last_move_is_marked_after_each_move(server, ann, gid: str, tokens: list[str],
                                            game_id: str, width: int) -> None:
    """After every move (Bob's through the API, so Ann's page only hears of it) the board
    elements the engine names for it (`last_move`, the action's targets) are the marked ones,
    and the log names the players, never "Player 1/2". The page fits the screen after each
    move (mid-game, as a player: move list, choices)."""
    rng = random.Random(3)
    checked = 0
    for played in range(1, 15):
        moved = bob_moves(server, gid, tokens[1], rng) or ann_moves(server, gid, tokens[0], rng)
        if not moved:
            break
        st = server.state(gid, tokens[0])
        wait_version(ann, st["version"])
        want = set(st["last_move"]["targets"]) & drawn_keys(ann)
        assert marked(ann) == want, (st["log"][-1], st["last_move"])
        checked += bool(want)
        no_sideways_scroll(ann)
        if played == 4:
            shot(ann, f"pages-{game_id}-{width}-playing")
    assert checked >= 3, "too few moves named a board element to check the marks"
    log = ann.inner_text("#log")
    assert "Ann" in log or "Bob" in log
    assert "Player 1" not in log and "Player 2" not in log
    if game_id == "fieldshift":  # operators by owner and class, never a bare "+0" / "-3"
        classes = ("Blade", "Technician", "Medic", "Longwatch", "Specialist")
        for m in re.finditer(r"(?<![\w(])[+\-−]\d\b(?! crate)", log):
            assert log[:m.start()].rstrip().endswith(classes), log[max(0, m.start() - 40):m.end()]
    shot(ann, f"pages-{game_id}-{width}")


def the_order_sheet_form_fits_the_screen(ann, game_id: str, width: int) -> None:
    """CTF 2187 before its first turn, as a player: the order sheet form is on the screen."""
    no_sideways_scroll(ann)
    form = ann.locator("#board form[data-bot]").first
    assert form.is_visible()
    box = form.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width, box
    shot(ann, f"pages-{game_id}-{width}-playing")


def the_result_and_its_reason_are_at_the_top_at_the_end(server, ann, gid: str,
                                                        tokens: list[str], game_id: str,
                                                        width: int) -> None:
    # whoever may concede now does (FieldShift concedes only on its own turn, FS-1)
    if not server.state(gid)["over"]:
        loser = next(t for t in (tokens[1], tokens[0]) if server.state(gid, t)["my_turn"])
        server.ok("POST", f"/games/{gid}/resign", {}, loser)
    ann.wait_for_selector("#outcome:not([hidden])")
    text = ann.inner_text("#outcome")
    assert ("Ann" in text or "Bob" in text) and "Player" not in text, text
    reason = server.state(gid)["result"]["reason"]
    assert reason and reason.lower() in text.lower(), (reason, text)  # and why
    box = ann.locator("#outcome").bounding_box()
    assert box is not None and box["y"] < 200, box  # at the top, not below the board
    no_sideways_scroll(ann)
    assert server.state(gid, tokens[0])["over"]
    shot(ann, f"pages-{game_id}-{width}-end")


def the_replay_fits_the_screen(server, pages, gid: str, game_id: str, width: int,
                               height: int) -> None:
    page = pages.new(width, height)
    page.goto(server.url(f"/replay/{gid}"))
    page.wait_for_selector("#boards svg")
    no_sideways_scroll(page)
    page.click("#last")
    no_sideways_scroll(page)
    shot(page, f"pages-replay-{game_id}-{width}")


@pytest.mark.parametrize("width,height", SIZES, ids=["desk", "phone"])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_on_the_page_marks_each_move_fits_the_screen_and_ends_with_the_result_on_top(
        server, pages, game_id, width, height):
    """One game per game and screen size, through a seated player's page and then its replay
    (one visit checks what once took four games):
    - the last move is marked after each move, and the log names the players
      (`the_last_move_is_marked_after_each_move`; CTF 2187's marks have tests of their own
      below, its sealed turns need every seat's sheets);
    - a seated player's page fits the screen mid-game (after every move; CTF 2187: its
      order sheet form);
    - the result and its reason are at the top at the end;
    - the finished game's replay fits the screen, at its first and last position."""
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new(width, height)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    if game_id == "ctf2187":
        wait_version(ann, server.state(gid, tokens[0])["version"])
        the_order_sheet_form_fits_the_screen(ann, game_id, width)
    else:
        the_last_move_is_marked_after_each_move(server, ann, gid, tokens, game_id, width)
    the_result_and_its_reason_are_at_the_top_at_the_end(server, ann, gid, tokens, game_id,
                                                        width)
    the_replay_fits_the_screen(server, pages, gid, game_id, width, height)


def test_fff_marks_the_square_the_piece_stepped_to(server, pages):
    """FFF-30: a turn (through the API) steps a piece; Ann's page marks the square
    it left (the turn's selected piece, `action_targets`) and the square it went to (the
    turn's events, `State.event_targets`), both drawn by the FFF renderer."""
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new(1280, 800)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    mover = server.state(gid, tokens[1])["to_move"][0]
    step = next(a for a in server.state(gid, tokens[mover])["legal"] if " m " in a["text"])
    went = re.search(r"steps to ([a-h][1-8])", step["description"])
    assert went, step
    server.move(gid, tokens[mover], step["text"])
    wait_version(ann, server.state(gid, tokens[0])["version"])
    assert marked(ann) == {*step["targets"], f"sq:{went.group(1)}"}
    assert ann.locator(f'#board [data-key="sq:{went.group(1)}"]').get_attribute(
        "class").split().count("last-move") == 1


def test_log_numbers_are_whole_and_turn_lines_are_dividers(server, pages):
    game = server.create("hills", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new(360, 740)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    rng = random.Random(5)
    while server.state(gid)["version"] < 14:
        if not (bob_moves(server, gid, tokens[1], rng) or ann_moves(server, gid, tokens[0], rng)):
            break
    st = server.state(gid, tokens[0])
    wait_version(ann, st["version"])
    nums = ann.locator("#log .log-num").all_inner_texts()
    assert nums[-1] == f"{st['log'][-1]['version']}."
    # two-digit numbers are drawn whole: the number's box holds its text
    assert ann.evaluate("""() => [...document.querySelectorAll('#log .log-num')]
        .every(n => n.scrollWidth <= n.clientWidth + 1)""")
    # "Bob's turn 4." is a divider line, not an event of the one who ended the turn
    assert ann.locator("#log .log-turn").count() >= 1
    assert "Turns played: Ann" in ann.inner_text("#board")


def test_an_agent_s_reply_is_listed_under_the_agent(server, pages):
    """Shift against an agent: the coin flips of an attack are made inside the defender's
    entry (its guard decision); they are listed under the attacker who flips, by name, not
    under the defender."""
    game = server.create("shift", [{"kind": "human", "name": "Ann"},
                                   {"kind": "agent", "agent": "random:seed=5"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tok = page_token(ann, gid)
    rng = random.Random(2)
    agent = server.state(gid)["names"][1]
    for _ in range(60):
        ann.wait_for_function(
            "() => document.body.dataset.myTurn === '1' || document.body.dataset.over === '1'")
        st = server.state(gid, tok)
        if st["over"]:
            break
        wait_version(ann, st["version"])
        groups = ann.evaluate("""() => [...document.querySelectorAll('#log .log-act')]
            .map(n => [(n.querySelector('.side') || {}).textContent || '', n.textContent])""")
        flips = [(who, name) for who, text in groups for name in ("Ann", agent)
                 if f"{name} flips" in text]
        if flips:  # whoever flips (the attacker), the flips are listed under that player
            assert all(who == name for who, name in flips), flips
            break
        texts = [a["text"] for a in st["legal"]]
        other = [t for t in texts if not t.startswith("shift ")]  # attack, guard: coin flips
        ann.click(f'#legal button[data-text="{rng.choice(other or texts)}"]')
        wait_version(ann, st["version"] + 1)
    assert flips, ("the agent never flipped a coin", ann.inner_text("#log")[-1500:], groups[-6:])


def test_the_out_of_turn_message_names_the_player(server, pages):
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    bob = pages.new()
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    claim(pages.new(), server, gid, game["seats"][0]["invite"], "Ann")
    bob.wait_for_function("() => document.body.dataset.myTurn === '0'")
    bob.fill("#command-input", "pass")
    bob.press("#command-input", "Enter")
    text = notice_with(bob, "Ann")
    assert "Player 1" not in text, text


@pytest.mark.parametrize("width,height", SIZES, ids=["desk", "phone"])
def test_the_lobby_fits_the_screen(server, pages, width, height):
    server.create("fieldshift", [{"kind": "human", "name": "A name long enough to wrap"},
                                 {"kind": "agent", "agent": "random"}])
    page = pages.new(width, height)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_selector("#open li")
    for game in ("fieldshift", "ctf2187", "hills"):
        page.select_option("#game", game)
        no_sideways_scroll(page)
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    no_sideways_scroll(page)
    shot(page, f"pages-lobby-{width}")


STANDING = "P1 6 - 2 - 0; P2 13 - 2 - 0; P3 6 - 2 - 0; P4 13 - 2 - 0; P5 13 - 2 - 0"


def ctf_sheet(server, gid: str, token: str) -> None:
    """Hand in the seat's sheets for the turn (the standing orders, one line each)."""
    st = server.state(gid, token)
    for bot in st["view"]["board"]["owed"]:
        server.move(gid, token, f"BOT {bot} TURN {st['view']['turn']}; {STANDING}")


@pytest.mark.parametrize("width,height", SIZES, ids=["desk", "phone"])
def test_the_ctf_turn_report_stays_open_and_filled(server, pages, width, height):
    """Three players: Ann opens her turn 1 report; in turn 2 Bob hands in and Ann hands in
    through the form (both redraw her page): the report is still open and filled."""
    game = server.create("ctf2187", [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new(width, height)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    for t in tokens:
        ctf_sheet(server, gid, t)
    ann.wait_for_function(
        "() => document.querySelector('.ctf-panel .game-facts').innerText.startsWith('Turn 2')")
    ann.click("#turn-report summary")
    ann.wait_for_function("() => document.getElementById('turn-report-text').innerText.length > 50")
    filled = ann.inner_text("#turn-report-text")
    version = int(ann.get_attribute("body", "data-version"))
    ctf_sheet(server, gid, tokens[1])  # Bob hands in turn 2
    form = ann.locator("#board form[data-bot]").first
    form.locator("button.sheet-submit").click()  # and Ann, from the page: it redraws
    ann.wait_for_function("() => document.getElementById('notice').innerText.includes('accepted')")
    assert int(ann.get_attribute("body", "data-version")) > version  # the page was redrawn
    # her sheet is her last move: its Bot is marked, for her alone (CTF-41)
    bot = server.state(gid, tokens[0])["last_move"]["targets"]
    assert bot and set(bot) == {n.get_attribute("data-key") for n in
                                ann.locator("#board [data-key].last-move").all()}
    assert ann.locator("#turn-report").get_attribute("open") is not None
    assert ann.inner_text("#turn-report-text") == filled
    form_box = ann.locator("#board form[data-bot] table").first.evaluate(
        "t => [t.scrollWidth, t.parentElement.clientWidth]")
    assert form_box[0] <= form_box[1], form_box  # the weapon column is on the screen
    no_sideways_scroll(ann)
    shot(ann, f"pages-ctf2187-{width}-report")


def test_ctf_marks_the_bots_the_seat_s_bots_saw_move(server, pages):
    """CTF-15, CTF-38: once a turn is processed, Ann's map marks the other Bots her Bot saw
    move and the sectors they ended in (`State.event_targets`), keys her page draws; every
    element of her `last_move` that the page draws is marked."""
    game = server.create("ctf2187", [{"kind": "human", "name": "Ann"},
                                     {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    ann = pages.new(1280, 800)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(ann, gid)
    own = {f"bot:{b}" for b in server.state(gid, tokens[0])["view"]["board"]["owed"]}
    for _ in range(3):  # a turn or three, until Bob's Bot moves where Ann's Bot sees it
        for t in tokens:
            ctf_sheet(server, gid, t)
        st = server.state(gid, tokens[0])
        wait_version(ann, st["version"])
        targets, drawn = set(st["last_move"]["targets"]), drawn_keys(ann)
        assert {t for t in targets if t.startswith("sector:")} <= drawn  # every sector is drawn
        assert marked(ann) == targets & drawn, st["last_move"]  # a Bot gone out of sight is not
        seen = {t for t in targets & drawn if t.startswith("bot:")} - own
        if seen:
            break
    assert seen and any(t.startswith("sector:") for t in targets), st["last_move"]
    assert ann.locator(f'#board [data-key="{min(seen)}"].last-move').count() == 1


def test_the_deadline_counts_down(server, pages):
    game = server.create("ctf2187", [{"kind": "human", "name": "Ann"},
                                     {"kind": "human", "name": "Bob"}], turn_deadline=600)
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    assert ann.locator("#countdown").count() == 0  # no clock while a seat is free
    server.ok("POST", f"/invites/{game['seats'][1]['invite']}", {"name": "Bob"})
    ann.wait_for_selector("#countdown")  # the clock starts once every seat is taken: pushed
    first = int(ann.get_attribute("#countdown", "data-left"))
    assert 500 < first <= 600
    assert ann.inner_text("#countdown").startswith("in ")
    # the local clock time on hover
    assert "local time" in ann.get_attribute("#countdown", "title")
    ann.wait_for_function(
        f"() => Number(document.getElementById('countdown').dataset.left) < {first}",
        timeout=5000)


@pytest.mark.parametrize("game_id", ["fieldshift", "hills"])
def test_choices_open_in_view_of_the_tapped_element_on_a_phone(server, pages, game_id):
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}], options={"first": "0"}
                         if game_id == "hills" else {})
    gid = game["game_id"]
    ann = pages.new(360, 740)
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    st = server.state(gid, page_token(ann, gid))
    assert st["my_turn"]
    wait_version(ann, st["version"])
    counts: dict[str, int] = {}
    for a in st["legal"]:
        for k in a["targets"]:
            counts[k] = counts.get(k, 0) + 1
    key = max((k for k in counts if counts[k] > 1), key=lambda k: (k.startswith(("op:", "squad:")),
                                                                   counts[k]))
    node = ann.locator(f'#board svg [data-key="{key}"].clickable').last
    node.scroll_into_view_if_needed()
    node.click()
    ann.wait_for_selector("#choices:not([hidden])")
    box = ann.locator("#choices").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 100) <= 740, box
    assert ann.evaluate("document.activeElement.closest('#choices') !== null")
    ann.keyboard.press("Escape")
    ann.wait_for_selector("#choices", state="hidden")
    shot(ann, f"pages-{game_id}-360-choices")


def test_presence_changes_when_the_other_player_leaves(server, pages):
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    bob_ctx = pages.browser.new_context(viewport={"width": 1280, "height": 800})
    bob = bob_ctx.new_page()
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    bob_mark = '#who .player[data-seat="1"] .presence'
    ann.wait_for_function(
        f"() => (document.querySelector('{bob_mark}') || {{}}).textContent?.includes('online')")
    bob_ctx.close()  # Bob closes his browser
    ann.wait_for_function(
        f"() => (document.querySelector('{bob_mark}') || {{}}).textContent?.includes('last seen')")
    assert "online" in ann.inner_text('#who .player[data-seat="0"] .presence')


def test_the_rematch_is_pushed_to_the_other_player(server, pages):
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann, bob = pages.new(), pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    server.ok("POST", f"/games/{gid}/resign", {}, page_token(bob, gid))
    for page in (ann, bob):
        page.wait_for_selector("#rematch")
    assert bob.inner_text("#rematch") == "Rematch"
    ann.click("#rematch")
    ann.wait_for_url("**/play/*")
    # Bob's page, untouched, now offers to join the rematch Ann made
    bob.wait_for_function(
        "() => document.getElementById('rematch').innerText === 'Join the rematch'")


def test_take_back_is_not_offered_before_any_move(server, pages):
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(pages.new(), server, gid, game["seats"][1]["invite"], "Bob")
    ann.wait_for_selector("#actions-bar:not([hidden])")
    assert not ann.is_visible("#offer-undo")
    tok = page_token(ann, gid)
    st = server.state(gid, tok)
    server.move(gid, tok, st["legal"][0]["text"])
    wait_version(ann, st["version"] + 1)
    assert ann.is_visible("#offer-undo")


def test_ctf_seat_badges_are_drawn_in_the_team_colours(server, pages):
    """Four players, two a team (CTF-1): a teammate's badge has the colour of the team the
    Bots are drawn in; a seat whose team the page does not know gets no colour of a side."""
    game = server.create("ctf2187", [{"kind": "human", "name": n}
                                     for n in ("Ann", "Bob", "Cy", "Di")])
    gid = game["game_id"]
    bob = pages.new()
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    st = server.state(gid, page_token(bob, gid))
    mates = st["team"]
    team = st["view"]["board"]["bots"][0]["team"]
    index = "ABCD".index(team)
    fill = bob.evaluate(
        "() => getComputedStyle(document.querySelector('#board .bot.mine .hit, "
        "#board .bot.mine circle, #board .bot.mine rect, #board .bot.mine polygon')).fill")
    for seat in range(4):
        cls = bob.get_attribute(f'#who .player[data-seat="{seat}"] .side', "class")
        if seat in mates:
            assert f"side-{index}" in cls, (seat, cls)
            bg = bob.evaluate(f"""() => getComputedStyle(document.querySelector(
                '#who .player[data-seat="{seat}"] .side')).backgroundColor""")
            assert bg == fill, (bg, fill)
        else:
            assert "side-none" in cls, (seat, cls)


def test_the_replay_says_whose_view_and_hand_each_board_is(server, pages):
    """The replay draws each player's view as that player saw it: each panel names its
    player's hand, and the page no longer claims that everything is revealed (a tile nobody
    turned up stays face down)."""
    game = server.create("hills", [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    rng = random.Random(6)
    for _ in range(10):
        bob_moves(server, gid, tokens[1], rng) or ann_moves(server, gid, tokens[0], rng)
    server.ok("POST", f"/games/{gid}/resign", {}, tokens[0])
    page = pages.new()
    page.goto(server.url(f"/replay/{gid}"))
    page.wait_for_selector("#boards svg")
    page.click("#last")
    assert "Ann's hand" in page.inner_text('#boards [data-seat="0"]')
    assert "Bob's hand" in page.inner_text('#boards [data-seat="1"]')
    assert "Your hand" not in page.inner_text("#boards")
    assert "whole game is revealed" not in page.inner_text("body")
    assert "Player 1" not in page.inner_text("#title")


def test_the_next_deadline_comes_with_the_move(server, pages):
    """A per-move limit: after Ann's move Bob's page counts down to Bob's own deadline (set
    before the move is pushed), not to Ann's old one."""
    game = server.create("fff", [{"kind": "human", "name": "Ann"},
                                 {"kind": "human", "name": "Bob"}], move_time=300)
    gid = game["game_id"]
    ann, bob = pages.new(), pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    ann.wait_for_selector("#countdown")
    before = bob.get_attribute("#countdown", "datetime")
    tok = page_token(ann, gid)
    st = server.state(gid, tok)
    bob.wait_for_timeout(1100)  # the next deadline is at least a second later
    server.move(gid, tok, st["legal"][0]["text"])
    wait_version(bob, st["version"] + 1)
    after = server.state(gid)["deadline"]
    assert after and bob.get_attribute("#countdown", "datetime") != before
    shown = bob.evaluate("() => Date.parse(document.getElementById('countdown')"
                         ".getAttribute('datetime'))")
    assert abs(shown / 1000 - datetime.fromisoformat(after).timestamp()) < 1
