"""The lobby: create a game with options and seats, invite links per human seat and one for
spectators, play a seat here, then find it under "My games"; open public games are listed."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

from urllib.parse import urlparse

from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    needs_browser,
    pages,
    server,
    shot,
)

pytestmark = needs_browser


def test_create_a_game_invite_and_find_it_again(server, pages):
    page = pages.new()
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "fieldshift")
    # options come with their help texts from the catalog
    assert page.locator("#opt-ruleset").count() == 1
    assert page.locator("#options .help").count() >= 1
    page.select_option("#opt-ruleset", "stdex")
    page.fill("#seat-0-name", "Ann")
    page.fill("#seat-1-name", "Bob")
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    links = page.locator("#created input.invite-link")
    assert links.count() == 2
    invite = links.nth(1).input_value()
    parsed = urlparse(invite)
    assert parsed.path.startswith("/play/") and parsed.query.startswith("invite=")
    assert "token" not in invite
    gid = parsed.path.rsplit("/", 1)[1]
    assert page.locator("#spectate-link").input_value().endswith(f"/play/{gid}")
    # the public game with its free seats is listed
    page.wait_for_selector(f'#open a[href="/play/{gid}"]')
    # play seat 1 in this browser: the token is kept, not put in the address
    shot(page, "lobby")
    page.click('#created button.play-here[data-seat="0"]')
    page.wait_for_url(f"**/play/{gid}")
    page.wait_for_selector("#board svg")
    assert "You play" in page.inner_text("#seat-line")
    assert server.state(gid)["view"]["board"]["ruleset"] == "stdex"
    # the second player pastes the invite link into the lobby of another browser
    bob = pages.new()
    bob.goto(server.url("/"))
    bob.fill("#join-invite", "not an invite!")
    bob.click("#join-go")
    bob.wait_for_selector("#notice:not([hidden])")
    assert "not an invite" in bob.inner_text("#notice")
    bob.fill("#join-invite", invite)
    bob.fill("#join-name", "Bob")
    bob.click("#join-go")
    bob.wait_for_url(f"**/play/{gid}")
    bob.wait_for_selector("#conn.live")
    assert "Bob" in bob.inner_text("#seat-line")
    page.goto(server.url("/"))
    page.wait_for_selector(f'#mine a[href="/play/{gid}"]')
    assert "seat 1" in page.inner_text("#mine")


def test_a_game_against_an_agent_from_the_lobby(server, pages):
    page = pages.new()
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "shift")
    page.select_option("#seat-1-kind", "agent")
    page.fill("#seat-1-agent", "random")
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#created input.invite-link").count() == 1
    page.click('#created button.play-here[data-seat="0"]')
    page.wait_for_selector("#board svg")
    assert "random" in page.inner_text("#who")


def test_a_visitor_joins_an_open_public_game_from_the_lobby(server, pages):
    """Issue 19: "list open public games ..., join one": a Join button per free seat takes it
    without the invite; the browser keeps the token and the game page plays that seat."""
    made = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": ""}])
    gid = made["game_id"]
    page = pages.new()
    page.goto(server.url("/"))
    page.wait_for_selector(f'#open button.join-seat[data-game="{gid}"][data-seat="1"]')
    page.fill("#join-name", "Cleo")
    page.click(f'#open button.join-seat[data-game="{gid}"][data-seat="1"]')
    page.wait_for_url(f"**/play/{gid}")
    page.wait_for_selector("#conn.live")
    assert "Cleo" in page.inner_text("#seat-line")
    assert page.evaluate("document.body.dataset.mySeat") == "1"
    st = server.state(gid)
    assert st["seats"][1]["claimed"] and st["names"][1] == "Cleo"
    # the seat is gone from the lobby; the other one is still offered
    other = pages.new()
    other.goto(server.url("/"))
    other.wait_for_selector(f'#open button.join-seat[data-game="{gid}"][data-seat="0"]')
    assert other.locator(f'#open button.join-seat[data-game="{gid}"][data-seat="1"]').count() == 0
