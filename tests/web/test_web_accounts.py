"""Accounts in real browsers: one account signed in on two browser contexts (two devices)
plays the same seat; a guest is told their seat lives in this browser and carries it to
another with a personal link, then keeps it in a new account; a seat taken from the lobby is
shown to the creator."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    needs_browser,
    notice_with,
    pages,
    server,
    shot,
    type_move,
    wait_version,
)

pytestmark = needs_browser
PASSWORD = "correct horse battery"


def sign_up(page, server, username: str) -> None:
    page.goto(server.url("/account"))
    page.wait_for_selector("#signup-username")
    page.fill("#signup-username", username)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-go")
    page.wait_for_selector(f'body[data-account="{username}"]')


def sign_in(page, server, username: str, next_path: str = "") -> None:
    page.goto(server.url("/account" + (f"?next={next_path}" if next_path else "")))
    page.wait_for_selector("#signin-username")
    page.fill("#signin-username", username)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-go")


def session_of(page) -> str:
    [cookie] = [c for c in page.context.cookies() if c["name"] == "boardct_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    return cookie["value"]


def legal_as(server, session: str, gid: str) -> str:
    r = server.http.get(f"/games/{gid}", headers={"Cookie": f"boardct_session={session}"})
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["my_turn"], st
    return st["legal"][0]["text"]


def play_typed(page, text: str) -> None:
    page.fill("#command-input", text)
    page.press("#command-input", "Enter")


def test_one_account_on_two_devices_plays_the_same_seat(server, pages):
    phone, laptop = pages.new(width=375, height=800), pages.new()
    sign_up(laptop, server, "ann")
    # the laptop creates a game in the lobby; seat 1 is "my seat" by default
    laptop.goto(server.url("/"))
    laptop.wait_for_selector('body[data-account="ann"]')
    laptop.wait_for_selector("#game option", state="attached")
    laptop.select_option("#game", "fieldshift")
    laptop.fill("#seat-0-name", "Ann")
    laptop.fill("#seat-1-name", "Bob")
    laptop.click("#create-go")
    laptop.wait_for_selector("#created:not([hidden])")
    bob_invite = laptop.input_value('#created input.invite-link[data-seat="1"]')
    laptop.click('#created button.play-here[data-seat="0"]')
    laptop.wait_for_url("**/play/*")
    gid = laptop.url.rsplit("/", 1)[1]
    laptop.wait_for_selector("#conn.live")
    assert laptop.evaluate("document.body.dataset.mySeat") == "0"
    assert laptop.get_attribute("#seat-home", "data-home") == "account"
    # no seat token in this browser: the account holds the seat
    assert laptop.evaluate("id => localStorage.getItem('boardct:seat:' + id)", gid) is None
    # private: the lobby does not list it
    assert all(g["game_id"] != gid for g in server.ok("GET", "/lobby")["open"])
    # the phone signs in and opens the same game: the same seat, no invite, no token
    sign_in(phone, server, "ann")
    phone.wait_for_selector('body[data-account="ann"]')
    phone.goto(server.url(f"/play/{gid}"))
    phone.wait_for_selector("#conn.live")
    assert phone.evaluate("document.body.dataset.mySeat") == "0"
    # a move typed on the phone shows on the laptop
    play_typed(phone, legal_as(server, session_of(phone), gid))
    wait_version(phone, 1)
    wait_version(laptop, 1)
    # Bob takes seat 1 by his invite and answers; then the laptop plays seat 0
    bob = server.ok("POST", "/invites/" + bob_invite.split("invite=", 1)[1], {"name": "Bob"})
    while not server.state(gid, bob["token"])["my_turn"]:  # FieldShift keeps some turns
        version = server.state(gid)["version"]
        play_typed(phone, legal_as(server, session_of(phone), gid))
        wait_version(laptop, version + 1)
    bob_st = server.state(gid, bob["token"])
    server.move(gid, bob["token"], bob_st["legal"][0]["text"])
    version = bob_st["version"] + 1
    wait_version(laptop, version)
    while server.state(gid, bob["token"])["my_turn"]:
        st = server.state(gid, bob["token"])
        server.move(gid, bob["token"], st["legal"][0]["text"])
        version += 1
    wait_version(laptop, version)
    play_typed(laptop, legal_as(server, session_of(laptop), gid))
    wait_version(laptop, version + 1)
    wait_version(phone, version + 1)
    shot(laptop, "account-laptop")
    shot(phone, "account-phone")


def test_a_guest_carries_a_seat_to_another_device_then_keeps_it_in_an_account(server, pages):
    made = server.create("fieldshift", [{"kind": "human", "name": "Ann"},
                                        {"kind": "human", "name": "Bob"}], public=False)
    gid, ann_token = made["game_id"], made["seats"][0]["token"]
    first = pages.new()
    first.goto(server.url("/"))
    first.evaluate("([id, t]) => localStorage.setItem('boardct:seat:' + id, t)", [gid, ann_token])
    first.goto(server.url(f"/play/{gid}"))
    first.wait_for_selector("#conn.live")
    # told plainly where the seat lives, and given a personal link to carry it
    assert first.get_attribute("#seat-home", "data-home") == "browser"
    assert "lives in this browser" in first.inner_text("#seat-home")
    assert not first.is_visible("#carry-link")  # one line until the player asks
    first.click("#carry summary")
    assert first.is_visible("#carry-link")
    link = first.input_value("#carry-link")
    assert link.endswith(f"/play/{gid}#seat={ann_token}")
    second = pages.new()
    second.goto(link)
    second.wait_for_selector("#conn.live")
    assert second.evaluate("document.body.dataset.mySeat") == "0"
    assert "#" not in second.url  # the token left the address bar
    # the first browser signs up from the game page and comes back: the seat is the account's
    first.click("#carry-signin")
    first.wait_for_selector("#signup-username")
    first.fill("#signup-username", "anne")  # the module's server: a name of its own
    first.fill("#signup-password", PASSWORD)
    first.click("#signup-go")
    first.wait_for_url(f"**/play/{gid}")
    first.wait_for_selector('#seat-home[data-home="account"]')
    assert first.evaluate("document.body.dataset.mySeat") == "0"
    # a third device, signed in, no token: the seat is there
    third = pages.new()
    sign_in(third, server, "anne", f"/play/{gid}")
    third.wait_for_url(f"**/play/{gid}")
    third.wait_for_selector("#conn.live")
    assert third.evaluate("document.body.dataset.mySeat") == "0"
    third.goto(server.url("/account"))
    third.wait_for_selector(f'#my-games li[data-game="{gid}"]')
    assert "seat 1" in third.inner_text("#my-games")


def test_a_seat_taken_from_the_lobby_is_shown_to_the_creator(server, pages):
    creator = pages.new()
    creator.goto(server.url("/"))
    creator.wait_for_selector("#game option", state="attached")
    creator.select_option("#game", "fieldshift")
    creator.fill("#seat-0-name", "Ann")
    # private unless listed; the creator lists it and opens seat 2 to anyone
    assert not creator.is_checked("#public")
    creator.check("#public")
    assert creator.is_hidden("#seat-0-open")  # my own seat is never offered
    creator.check("#seat-1-open")
    creator.click("#create-go")
    creator.wait_for_selector("#created:not([hidden])")
    creator.click('#created button.play-here[data-seat="0"]')
    creator.wait_for_url("**/play/*")
    gid = creator.url.rsplit("/", 1)[1]
    creator.wait_for_selector("#conn.live")
    creator.wait_for_selector("body[data-my-turn='1']")
    type_move(creator, "35")  # HIT -5, who is still in reserve: refused, and the refusal shown
    refusal = notice_with(creator, "[FS-8]")
    visitor = pages.new()
    visitor.goto(server.url("/"))
    visitor.wait_for_selector(f'#open button.join-seat[data-game="{gid}"][data-seat="1"]')
    # the creator's seat is not offered
    assert visitor.locator(f'#open button.join-seat[data-game="{gid}"][data-seat="0"]').count() == 0
    visitor.fill("#join-name", "Cleo")
    visitor.click(f'#open button.join-seat[data-game="{gid}"][data-seat="1"]')
    visitor.wait_for_url(f"**/play/{gid}")
    visitor.wait_for_selector("#conn.live")
    creator.wait_for_function(
        "() => document.getElementById('news').textContent.includes('Cleo took seat 2')")
    assert "from the lobby" in creator.inner_text("#news")
    # the news has a line of its own: the refusal the creator has still to read stays
    assert creator.inner_text("#notice") == refusal and creator.is_visible("#notice")
    shot(creator, "news-beside-refusal")
    assert creator.evaluate("document.body.dataset.mySeat") == "0"  # still the creator's
    # the news belongs to its position, as a confirmation does: the next move clears it
    type_move(creator, "24")
    wait_version(creator, 1)
    creator.wait_for_selector("#news", state="hidden")
