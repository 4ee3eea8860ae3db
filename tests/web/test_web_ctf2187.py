"""CTF 2187 in the browser: order sheets handed in from two pages (the form and the command
box), a sheet with errors refused line by line (CTF-37), and a turn processed at its deadline
with one sheet missing (CTF-14: standing orders)."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

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

STANDING = "P1 6 - 2 - 0; P2 13 - 2 - 0; P3 6 - 2 - 0; P4 13 - 2 - 0; P5 13 - 2 - 0"


def two_pages(server, pages, **extra):
    game = server.create("ctf2187", [{"kind": "human", "name": "Ann"},
                                     {"kind": "human", "name": "Bob"}], **extra)
    gid = game["game_id"]
    ann, bob = pages.new(), pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(bob, server, gid, game["seats"][1]["invite"], "Bob")
    return gid, ann, bob


def my_bot(server, gid, page) -> int:
    return server.state(gid, page_token(page, gid))["view"]["board"]["bots"][0]["bot"]


def submit_form(page, bot: int, fields: dict[str, str] | None = None) -> None:
    form = page.locator(f'#board form[data-bot="{bot}"]')
    for name, value in (fields or {}).items():
        form.locator(f'input[name="{name}"]').fill(value)
    form.locator("button.sheet-submit").click()


def test_sheets_from_two_pages_process_the_turn(server, pages):
    gid, ann, bob = two_pages(server, pages)
    a, b = my_bot(server, gid, ann), my_bot(server, gid, bob)
    # a sheet with an error is refused whole, naming its line and field; nothing changes
    submit_form(ann, a, {"p2f0": "99"})
    text = notice_with(ann, "CTF-37")
    assert "line 3" in text
    assert server.state(gid)["version"] == 0
    # Ann hands hers in with the form (prefilled with the standing orders, one field changed)
    submit_form(ann, a, {"p1f0": "13", "p2f0": "13"})
    ann.wait_for_function("() => document.getElementById('notice').innerText.includes('accepted')")
    # Bob types his on one line in the command box
    bob.fill("#command-input", f"BOT {b} TURN 1; {STANDING}")
    bob.press("#command-input", "Enter")
    version = server.state(gid)["version"]
    wait_version(ann, version)
    wait_version(bob, version)
    for page in (ann, bob):
        page.wait_for_function(
            "() => document.querySelector('.ctf-panel .game-facts').innerText.startsWith('Turn 2')")
        assert "phase 1" in page.inner_text("#log")
    # each page draws only its own bot; the other appears at most as a contact
    assert ann.locator('#board .bot.mine').count() == 1
    assert ann.locator(f'#board .bot.mine[data-key="bot:{a}"]').count() == 1
    # the turn report of this seat, as the game writes it (CTF-38)
    ann.click("#board details.report summary")
    ann.click("#board details.report button")
    ann.wait_for_function(
        "() => document.querySelector('#board details.report pre').innerText.length > 50")
    report = ann.inner_text("#board details.report pre")
    assert f"Bot {a}" in report or f"BOT {a}" in report.upper()
    shot(ann, "ctf2187-turn2")


def test_a_missed_deadline_uses_the_standing_orders(server, pages):
    gid, ann, bob = two_pages(server, pages, turn_deadline=6)
    st = server.state(gid, page_token(ann, gid))
    if not st.get("deadline"):
        pytest.skip("turn deadlines are not in this server (they come with the srvx branch)")
    ann.wait_for_selector("#deadline:not(:empty)")
    a = my_bot(server, gid, ann)
    submit_form(ann, a)
    # The confirmation belongs to the turn it was given in (play.js `show` clears it once the
    # turn is processed) and a sheet that comes after the deadline is for a turn already gone:
    # on a loaded machine the 6 s can run out around this wait (it timed out in 2 of 8 runs
    # beside a benchmark; which of the two happened was not caught). So: accepted, or the turn
    # already processed; what this test is about, the standing orders, is checked below.
    try:
        ann.wait_for_function(
            "() => document.getElementById('notice').innerText.includes('accepted') || Number(("
            "/^Turn (\\d+)/.exec(document.querySelector('.ctf-panel .game-facts').innerText) "
            "|| [0, 0])[1]) >= 2")
    except Exception:
        st = server.state(gid)
        raise AssertionError(f"Ann's sheet neither confirmed nor the turn processed: notice "
                             f"{ann.inner_text('#notice')!r}; server: version {st['version']}, "
                             f"deadline {st['deadline']}, to_move {st['to_move']}") from None
    # Bob hands nothing in; the deadline passes and the turn is processed anyway
    for page in (ann, bob):
        try:
            # turn 2 or later: under load a page may first look after the next deadline too
            page.wait_for_function(
                "() => Number((/^Turn (\\d+)/.exec(document.querySelector("
                "'.ctf-panel .game-facts').innerText) || [0, 0])[1]) >= 2", timeout=45_000)
        except Exception:
            st = server.state(gid)
            raise AssertionError(f"turn 2 not drawn; server: version {st['version']}, "
                                 f"deadline {st['deadline']}, to_move {st['to_move']}, page "
                                 f"version {page.get_attribute('body', 'data-version')}") from None
    log = bob.inner_text("#log").lower()
    assert "standing" in log or "missing" in log


def test_a_spectator_is_told_what_it_may_see_and_owns_no_bot(server, pages):
    """A spectator's map legend speaks to a spectator: while the game goes on only the
    command posts (CTF-21), no "your bots"; after the end every bot is drawn, none as the
    watcher's own."""
    game = server.create("ctf2187", [{"kind": "human", "name": "Ann"},
                                     {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    watcher = pages.new()
    watcher.goto(server.url(f"/play/{gid}"))
    watcher.wait_for_selector(".ctf-panel .legend")
    legend = watcher.inner_text(".ctf-panel .legend")
    assert "you are watching" in legend and "your" not in legend.replace("you are", "")
    assert watcher.locator("#board .bot").count() == 0
    server.ok("POST", f"/games/{gid}/resign", {}, game["seats"][0]["token"])
    watcher.wait_for_function(
        "() => !document.querySelector('.ctf-panel .legend').innerText.includes('watching')")
    assert "your" not in watcher.inner_text(".ctf-panel .legend")
    assert watcher.locator("#board .bot").count() >= 2
    assert watcher.locator("#board .bot.mine").count() == 0
    shot(watcher, "ctf2187-spectator-after-the-end")


def test_the_page_never_says_who_else_has_handed_in(server, pages):
    """CTF-41 on the page: while a turn is open Bob's page and a spectator's say the same
    before and after Ann hands her sheet in (no "Waiting for Bob" to anyone); Ann's says only
    that her own sheets are in."""
    gid, ann, bob = two_pages(server, pages)
    watcher = pages.new()
    watcher.goto(server.url(f"/play/{gid}"))
    watcher.wait_for_selector(".ctf-panel .legend")
    bob.wait_for_selector("#turn:not(:empty)")
    watcher.wait_for_selector("#turn:not(:empty)")
    bob_before, watcher_before = bob.inner_text("#turn"), watcher.inner_text("#turn")
    assert "Your move" in bob_before and "Ann" in watcher_before and "Bob" in watcher_before
    submit_form(ann, my_bot(server, gid, ann))
    ann.wait_for_function("() => document.getElementById('turn').innerText.includes("
                          "'Your sheets are in')")
    turn_line = ann.inner_text("#turn")
    assert "Bob" in turn_line and "sealed" in turn_line  # still listed: who is in is secret
    for page, before in ((bob, bob_before), (watcher, watcher_before)):
        page.reload()
        page.wait_for_selector("#turn:not(:empty)")
        assert page.inner_text("#turn") == before
    shot(ann, "ctf2187-sheet-in-sealed")
