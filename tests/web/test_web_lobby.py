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

from boardct.core import registry

pytestmark = needs_browser


def test_create_a_game_invite_and_find_it_again(server, pages):
    page = pages.new()
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "fieldshift")
    # options come with their help texts from the catalog
    assert page.locator("#opt-ruleset").count() == 1
    # listed in the lobby (a game is private unless its creator lists it), seat 2 open to all
    page.check("#public")
    page.check("#seat-1-open")
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
    # no creator's seat, both open to the lobby (the lobby offers only the seats opened)
    made = server.create("fieldshift", [{"kind": "human", "name": "Ann", "open": True},
                                        {"kind": "human", "name": "", "open": True}],
                         creator_seat=None)
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


def test_the_lobby_offers_a_featured_game_first_then_remembers_the_visitors_choice(server,
                                                                                pages):
    """No game is named in the page: the catalog says which games feature (each game
    declares it), the lobby lists and preselects those first, and once a visitor picks another
    game it is preselected on their next visit."""
    catalog = server.ok("GET", "/catalog")
    featured = [g["id"] for g in catalog if g["featured"]]
    assert featured == [g.id for g in registry.all_games() if g.featured]
    page = pages.new(width=375, height=800)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    options = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
    assert sorted(options) == sorted(g["id"] for g in catalog)
    first = featured[0] if featured else catalog[0]["id"]
    assert options[:len(featured)] == featured
    assert page.input_value("#game") == first
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    shot(page, "lobby-375px")
    other = next(g for g in options if g != first)
    page.select_option("#game", other)
    page.reload()
    page.wait_for_selector("#game option", state="attached")
    page.wait_for_function("v => document.getElementById('game').value === v", arg=other)
    title = next(g["title"] for g in catalog if g["id"] == other)
    assert page.inner_text("#game option:checked") == title
    # the form follows the choice: the options shown are that game's
    names = {o["name"] for o in next(g for g in catalog if g["id"] == other)["options"]}
    shown = set(page.eval_on_selector_all("#options [name]", "es => es.map(e => e.name)"))
    assert shown == names
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    shot(page, f"lobby-375px-{other}")


def test_a_computer_strength_from_the_lobby_and_a_hint_on_the_game_page(server, pages):
    """The lobby's strength select writes the ladder's level into the agent seat; on the
    player's turn the Hint button shows the suggestion with its win chance and best moves."""
    page = pages.new()
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "fieldshift")
    page.select_option("#seat-1-kind", "agent")
    assert page.input_value("#seat-1-agent") == "level=5"  # the strongest, by default
    page.select_option("#seat-1-strength", "level=2")
    assert page.input_value("#seat-1-agent") == "level=2"
    page.fill("#seat-1-agent", "greedy")  # a spec by hand: "other"
    assert page.input_value("#seat-1-strength") == ""
    page.select_option("#seat-1-strength", "level=2")
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    page.click('#created button.play-here[data-seat="0"]')
    page.wait_for_selector("#board svg")
    assert "level=2" in page.inner_text("#who")
    page.wait_for_selector("#hint:not([hidden])")
    page.click("#hint")
    page.wait_for_selector("#hint-box .hint-value", timeout=60_000)
    assert "Win chance:" in page.inner_text("#hint-box")
    assert page.locator("#hint-box .hint-best li").count() == 3
