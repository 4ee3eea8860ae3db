"""The lobby's clock field sets a game's deadline, and the game page counts it down each
second, at phone width; the creator, the game's moderator, extends it and pauses the game from
the page, and the log says so (server/static/index.html, lobby.js, play.js)."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    needs_browser,
    pages,
    server,
    shot,
)

pytestmark = needs_browser

PHONE = (390, 844)


def fieldshift_against_random(server, pages):
    """A phone-width lobby with a FieldShift game against `random` filled in, not created."""
    page = pages.new(*PHONE)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "fieldshift")
    page.select_option("#seat-1-kind", "agent")
    page.fill("#seat-1-agent", "random")
    return page


def test_the_lobby_clock_field_sets_a_deadline_and_the_page_counts_it_down(server, pages):
    page = fieldshift_against_random(server, pages)
    page.fill("#clock-time", "2")
    page.select_option("#clock-unit", "3600")  # hours
    page.select_option("#clock-timeout", "loss")
    page.fill("#clock-reminders", "1, 0.25")
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#moderator-key").input_value()
    gid = page.locator("#created input.invite-link").first.input_value().split("/play/")[1]
    gid = gid.split("?")[0]
    state = server.state(gid)
    assert state["move_time"] == 7200 and state["on_timeout"] == "loss"
    assert state["reminders"] == [1.0, 0.25] and state["deadline"] is not None

    page.click('#created button.play-here[data-seat="0"]')
    countdown = page.wait_for_selector("#countdown")
    left = int(countdown.get_attribute("data-left"))
    assert 7200 - 120 < left <= 7200
    text = page.locator("#deadline").inner_text()
    assert text.startswith("Deadline: in ") and (" h " in text and "min" in text), text
    # it counts down each second, without a message from the server
    for _ in range(50):
        if int(page.locator("#countdown").get_attribute("data-left")) < left:
            break
        page.wait_for_timeout(100)
    assert int(page.locator("#countdown").get_attribute("data-left")) < left
    # on a phone the countdown is on screen, and the page does not scroll sideways
    box = page.locator("#deadline").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the creator moderates from the page: a day more on the clock, then a pause
    page.wait_for_selector("#moderate:not([hidden])")
    page.click("#mod-extend")
    for _ in range(100):
        got = page.locator("#countdown")
        if got.count() and int(got.get_attribute("data-left")) > 86400:
            break
        page.wait_for_timeout(100)
    assert int(page.locator("#countdown").get_attribute("data-left")) > 86400
    assert page.locator("#legal").is_visible() and page.locator("#board .clickable").count()
    page.click("#mod-pause")
    page.wait_for_selector("#deadline.paused")
    assert "Paused by the moderator" in page.locator("#deadline").inner_text()
    # the creator's seat is on move, but a paused game takes no move: the page says so
    turn = page.locator("#turn")
    assert "Your move" not in turn.inner_text() and "Paused" in turn.inner_text()
    assert "mine" not in (turn.get_attribute("class") or "")
    # nor are its moves offered: no list, nothing on the board to click, no hint
    assert page.locator("#legal").is_hidden() and page.locator("#hint").is_hidden()
    assert page.locator("#board .clickable").count() == 0
    assert page.locator("#log").inner_text().count("Moderator:") >= 2
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "clock-countdown-phone")
    # resumed, the seat on move has its moves again
    page.click("#mod-pause")
    page.wait_for_selector("#turn.mine")
    assert page.locator("#legal").is_visible() and page.locator("#board .clickable").count()


def test_without_a_clock_the_moderator_tools_are_folded_until_asked_for(server, pages):
    page = fieldshift_against_random(server, pages)
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    page.click('#created button.play-here[data-seat="0"]')
    page.wait_for_selector("#moderate:not([hidden])")
    assert not page.locator("#moderate-tools").evaluate("d => d.open")
    assert not page.locator("#mod-pause").is_visible()
    page.click("#moderate-tools > summary")
    assert page.locator("#mod-pause").is_visible()
    # against the computer there is no absent player to replace: no empty choice of one
    assert page.locator("#mod-seat").is_hidden() and page.locator("#mod-agent").is_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_moderator_may_replace_the_other_person_s_seat(server, pages):
    """A game of two people: the creator's moderator tools offer the other seat (only it) to
    give to an agent or to someone new."""
    page = pages.new(*PHONE)
    page.goto(server.url("/"))
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "fieldshift")
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    page.click('#created button.play-here[data-seat="0"]')
    page.wait_for_selector("#moderate:not([hidden])")
    page.click("#moderate-tools > summary")
    assert page.locator("#mod-seat").is_visible() and page.locator("#mod-agent").is_enabled()
    assert [t.split(" (")[0] for t in page.locator("#mod-seat option").all_inner_texts()] == [
        "Seat 2"]
