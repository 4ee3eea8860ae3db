"""The sixth game (tests/sixth_game, installed for the run) in Chromium, through the renderer
its own package ships: Ann bids by clicking a card of her hand; Ben's page shows nothing of
it (SB-2); once both are in, both pages show the round. At desktop and phone width."""

from __future__ import annotations

import pytest
from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    chromium,
    claim,
    needs_browser,
    page_token,
    pages,
    server,
    shot,
    wait_version,
)

pytestmark = needs_browser

GAME_ID = "sealedbids"


@pytest.mark.parametrize("width", [1280, 360])
def test_bids_are_clicked_on_cards_and_stay_sealed_until_both_are_in(
        server, pages, width):  # noqa: F811 (fixtures)
    game = server.create(GAME_ID, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Ben"}], options={"cards": 4})
    gid = game["game_id"]
    ann, ben = pages.new(), pages.new()
    for page in (ann, ben):
        page.set_viewport_size({"width": width, "height": 800})
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    claim(ben, server, gid, game["seats"][1]["invite"], "Ben")
    tokens = [page_token(ann, gid), page_token(ben, gid)]
    loaded = server.state(gid, tokens[0])
    # the game's prompt "Ann (Player 1), your bid" reads with her name once, not "Ann (Ann)"
    ann.wait_for_function("() => document.getElementById('turn').textContent.includes('bid')")
    assert ann.locator("#turn").inner_text() == "Your move. Ann, your bid:"
    assert loaded["my_turn"] and {a["text"] for a in loaded["legal"]} == \
        {"bid 1", "bid 2", "bid 3", "bid 4"}
    # Ann clicks her card 3: the engine named it as that bid's target
    card = ann.locator('#board [data-key="card:0:3"]')
    assert "clickable" in card.get_attribute("class")
    assert ben.locator('#board [data-key="card:0:3"].clickable').count() == 0
    card.click()
    wait_version(ann, 1)
    assert "your sealed bid: 3" in ann.locator("#board").inner_text()
    # Ben's page: no sign of her bid, nor that it is in
    ben.reload()
    wait_version(ben, 0)
    text = ben.locator("body").inner_text()
    assert "bid: 3" not in text and "bids 3" not in text
    assert server.state(gid, tokens[1])["version"] == 0
    shot(ann, f"sealed-{width}px-bid-in")
    shot(ben, f"sealed-{width}px-other-seat")
    # Ben bids 1 through the move box: the round is shown on both pages
    ben.locator('#board [data-key="card:1:1"]').click()
    for page in (ann, ben):
        page.wait_for_function("() => document.querySelector('.rounds li') !== null")
        assert "prize" in page.locator(".rounds li").first.inner_text()
        assert "Ann 3, Ben 1" in page.locator(".rounds li").first.inner_text()
    shot(ann, f"sealed-{width}px-round-shown")
