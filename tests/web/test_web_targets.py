"""Every game's page draws with the renderer its own package ships (served at
/static/games/<id>/renderer.js), and the board is clickable exactly where the engine's targets
say: clicking the highlighted elements of a legal action (its acting element, then its target)
plays that action, with no notation read by the page."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import json
import random

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

from boardct.core import registry

pytestmark = needs_browser


def unique_pair(legal: list[dict], action: dict) -> bool:
    """Whether the action is the only one whose targets start with its first and hold its
    second: a click on each then plays it with no choice left."""
    first, second = action["targets"][:2]
    return sum(1 for a in legal if a["targets"][:1] == [first]
               and second in a["targets"]) == 1


def pick(legal: list[dict], rng: random.Random) -> dict | None:
    """An action to play by clicks: one with a source and a target that name it alone if
    there is one, else one with a single target (answered from the choice box)."""
    pairs = [a for a in legal if len(a["targets"]) >= 2 and unique_pair(legal, a)]
    if pairs:
        return rng.choice(pairs)
    singles = [a for a in legal if a["targets"]]
    return rng.choice(singles) if singles else None


def move_texts(frames: list[str]) -> list[str]:
    out = []
    for f in frames:
        try:
            msg = json.loads(f)
        except (TypeError, ValueError):
            continue
        if msg.get("type") == "move":
            out.append(msg["text"])
    return out


@pytest.mark.parametrize("game_id", registry.ids())
def test_the_page_draws_with_the_games_renderer_and_clicks_play_what_the_targets_name(
        server, pages, game_id):
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    page = pages.new()
    loaded: list[tuple[str, int]] = []
    sent: list[str] = []
    page.on("response", lambda r: loaded.append((r.url.split(server.base, 1)[-1], r.status)))
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    claim(page, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(page, gid)
    # 1. drawn by the renderer the game's package ships, from its package path
    assert (f"/static/games/{game_id}/renderer.js", 200) in loaded
    assert page.locator("#board svg").count() == 1 and page.locator("#board pre").count() == 0
    # 2. the others play (through the API) until Ann has an action that names board elements
    rng = random.Random(3)
    for _ in range(30):
        st = server.state(gid, tokens[0])
        if st["my_turn"] and pick(st["legal"], rng):
            break
        for seat in st["to_move"]:
            acts = server.ok("GET", f"/games/{gid}/legal", token=tokens[seat])["actions"]
            if acts and not (seat == 0 and st["my_turn"]):
                server.move(gid, tokens[seat], rng.choice(acts)["text"])
        if st["my_turn"]:
            server.move(gid, tokens[0], rng.choice(st["legal"])["text"])
    else:
        raise AssertionError(f"{game_id}: no action with board targets came up for Ann")
    version = st["version"]
    wait_version(page, version)
    action = pick(st["legal"], rng)
    targets = action["targets"]
    key = f'#board [data-key="{targets[0]}"]'
    # the page highlights exactly the elements the legal actions name
    clickable = set(page.eval_on_selector_all(
        "#board .clickable", "ns => ns.map(n => n.getAttribute('data-key'))"))
    named = {t for a in st["legal"] for t in a["targets"]}
    assert clickable and clickable <= named, (clickable, named)
    assert targets[0] in clickable
    page.locator(key).first.click()
    if len(targets) >= 2 and unique_pair(st["legal"], action):
        # the source is picked: its targets are marked, the choices are its actions
        page.wait_for_selector("#choices:not([hidden])")
        assert "picked" in page.locator(key).first.get_attribute("class")
        target = page.locator(f'#board [data-key="{targets[1]}"]').first
        assert "target" in target.get_attribute("class")
        shot(page, f"{game_id}-picked")
        target.click()
    else:
        # one element, several actions: the choice box lists exactly those the engine names
        offered = {a["text"] for a in st["legal"] if targets[0] in a["targets"]}
        if len(offered) > 1:
            page.wait_for_selector("#choices:not([hidden])")
            buttons = set(page.eval_on_selector_all(
                "#choices button.action", "bs => bs.map(b => b.getAttribute('data-text'))"))
            assert buttons == offered
            shot(page, f"{game_id}-choices")
            page.click(f'#choices button.action[data-text="{action["text"]}"]')
    wait_version(page, version + 1)
    assert move_texts(sent)[-1] == action["text"]
    assert server.state(gid, tokens[0])["version"] > version  # as Ann may know it (CTF-41)


def test_a_phone_width_page_draws_from_the_package_renderer_and_picks_by_tapping(server, pages):
    """At 375 px (the featured game): a tap on an action's acting element marks its targets
    and opens the choices without widening the page; a tap on the target plays it."""
    ids = registry.ids()
    game_id = ([g for g in ids if registry.get(g).featured] or ids)[0]
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    page = pages.new(width=375, height=800)
    claim(page, server, gid, game["seats"][0]["invite"], "Ann")
    st = server.state(gid, page_token(page, gid))
    wait_version(page, st["version"])
    pairs = [a for a in st["legal"] if len(a["targets"]) >= 2 and unique_pair(st["legal"], a)]
    if not st["my_turn"] or not pairs:
        pytest.skip(f"{game_id}: the first player has no source-and-target action to tap")
    action = pairs[len(pairs) // 2]
    page.locator(f'#board [data-key="{action["targets"][0]}"]').first.click()
    page.wait_for_selector("#choices:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= 376
    shot(page, f"{game_id}-picked-375px")
    page.locator(f'#board [data-key="{action["targets"][1]}"]').first.click()
    wait_version(page, st["version"] + 1)
    assert server.state(gid)["version"] == st["version"] + 1
