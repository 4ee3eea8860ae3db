"""The leaderboard and a player's profile in a real browser at phone width: after rated games
the ranked and provisional players show with their ratings, a player's name leads to their
profile (ratings, rated games with the change), nothing is loaded from another host and the
page is no wider than the phone."""

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
PASSWORD = "correct horse battery"


def account(server, username: str) -> dict:
    r = server.http.post("/account/signup", json={"username": username, "password": PASSWORD})
    assert r.status_code == 201, r.text
    server.http.cookies.clear()
    return {"Cookie": f"boardct_session={r.cookies['boardct_session']}"}


def rated_win(server, loser: dict, winner: dict) -> str:
    """A rated FieldShift game the loser (on move first) resigns."""
    r = server.http.post("/games", json={"game": "fieldshift", "rated": True}, headers=loser)
    assert r.status_code == 201, r.text
    made = r.json()
    server.http.cookies.clear()
    r = server.http.post(f"/invites/{made['seats'][1]['invite']}", json={}, headers=winner)
    assert r.status_code == 200, r.text
    server.http.cookies.clear()
    r = server.http.post(f"/games/{made['game_id']}/resign", json={}, headers=loser)
    assert r.status_code == 200, r.text
    server.http.cookies.clear()
    return made["game_id"]


def test_the_leaderboard_and_a_profile_at_phone_width(server, pages):
    ann, bob = account(server, "ann"), account(server, "bob_the_long_named_player")
    gids = [rated_win(server, bob, ann) for _ in range(2)]
    page = pages.new(width=375, height=740)
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(server.url("/leaderboard/fieldshift"))
    page.wait_for_selector('#provisional tr[data-player="ann"]')
    assert page.input_value("#game") == "fieldshift"
    rows = page.eval_on_selector_all("#provisional tbody tr",
                                     "rows => rows.map(r => r.dataset.player)")
    assert rows == ["ann", "bob_the_long_named_player"]  # the winner first
    ann_row = page.inner_text('#provisional tr[data-player="ann"]')
    assert "2" in ann_row.split("\t")  # two rated games
    assert "No established player yet" in page.inner_text("#ranked")
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    shot(page, "leaderboard-phone")
    page.click('#provisional tr[data-player="ann"] a')
    page.wait_for_url("**/players/ann")
    page.wait_for_selector('#history tr[data-game-id]')
    assert page.inner_text("#who") == "ann"
    assert "provisional" in page.inner_text('#ratings tr[data-game="fieldshift"]')
    shown = page.eval_on_selector_all("#history tr[data-game-id]",
                                      "rows => rows.map(r => r.dataset.gameId)")
    assert shown == gids[::-1]  # newest first
    assert "1st" in page.inner_text("#history") and "+" in page.inner_text("#history")
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    shot(page, "profile-phone")
    assert all(u.startswith(server.base) for u in requests), requests
    assert not pages.errors, pages.errors
