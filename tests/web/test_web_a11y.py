"""Accessibility of the pages: an automated audit with axe-core (vendored under
tests/web/vendor, injected by the test, never served) finds no serious or critical violation
on the lobby, every game's page (as a seated player, mid-game and at the end) and the replay,
in the light and the dark theme; every game is playable by keyboard alone (FieldShift and
Hills to the end here); moves and results are announced in an ARIA live region; the web app
manifest and its icons are served."""

# ruff: noqa: F811 (test arguments name the fixtures imported from web_helpers)
from __future__ import annotations

import random
from pathlib import Path

import pytest
from web_helpers import (  # noqa: F401 (fixtures: pytest finds them by name here)
    TIMEOUT_MS,
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

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
GAMES = ["fieldshift", "fff", "hills", "shift", "ctf2187"]
BAD = ("serious", "critical")


def audited(pages, width=1280, height=800, scheme="light"):
    """A page whose context lets the test inject axe (the pages' CSP allows only their own
    scripts), with its JavaScript errors recorded like every other test page."""
    ctx = pages.browser.new_context(viewport={"width": width, "height": height},
                                    bypass_csp=True, color_scheme=scheme)
    ctx.set_default_timeout(TIMEOUT_MS)
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("pageerror", lambda e: pages.errors.append(f"{page.url}: {e}"))
    return page


def violations(page) -> list[dict]:
    """axe's serious and critical violations on the page as it is now (WCAG 2 A and AA)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: {type: 'tag',
            values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
            resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: '
                + (n.failureSummary || '').slice(0, 160))}));
    }""")
    return [v for v in found if v["impact"] in BAD]


def bob_plays(server, gid, token, rng, moves=1):
    for _ in range(moves):
        st = server.state(gid, token)
        if st["over"] or not st["my_turn"]:
            return
        acts = [a["text"] for a in st["legal"] if a["text"] not in ("08", "09", "resign")]
        server.move(gid, token, rng.choice(acts))


def violations_in_both_themes(page, first: str = "light") -> dict[str, list[dict]]:
    """axe's serious and critical violations of the page as it is now, in the light and in
    the dark theme: the theme follows the system's (`prefers-color-scheme`, CSS alone), so
    switching the emulated scheme restyles the loaded page and one visit audits both. The
    page is left in the theme audited last (`first` is audited first)."""
    found = {}
    for scheme in (first, "dark" if first == "light" else "light"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(
            f"() => matchMedia('(prefers-color-scheme: {scheme})').matches"), scheme
        found[scheme] = violations(page)
    return found


NONE = {"light": [], "dark": []}


def test_the_lobby_has_no_serious_violation(server, pages):
    """The lobby and the lobby with a game just made, in the light and the dark theme."""
    server.create("fff", [{"kind": "human", "name": "Ann"}, {"kind": "agent", "agent": "random"}])
    page = audited(pages)
    page.goto(server.url("/"))
    page.wait_for_selector("#open li")
    assert violations_in_both_themes(page) == NONE
    page.click("#create-go")
    page.wait_for_selector("#created:not([hidden])")
    assert violations_in_both_themes(page, first="dark") == NONE


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_page_has_no_serious_violation(server, pages, game_id):
    """A seated player's page mid-game and at the end, each in the light and the dark
    theme."""
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    page = audited(pages)
    claim(page, server, gid, game["seats"][0]["invite"], "Ann")
    tokens[0] = page_token(page, gid)
    rng = random.Random(1)
    if game_id != "ctf2187":
        for _ in range(3):
            bob_plays(server, gid, tokens[1], rng)
            bob_plays(server, gid, tokens[0], rng)
    st = server.state(gid, tokens[0])
    wait_version(page, st["version"])
    assert violations_in_both_themes(page) == NONE, game_id
    # at the end: the result at the top, the rematch and replay links
    loser = next(t for t in tokens[::-1] if server.state(gid, t)["my_turn"])
    server.ok("POST", f"/games/{gid}/resign", {}, loser)
    page.wait_for_selector("#outcome:not([hidden])")
    assert violations_in_both_themes(page, first="light") == NONE, game_id
    shot(page, f"pages-{game_id}-dark")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_replay_has_no_serious_violation(server, pages, game_id):
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}])
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    rng = random.Random(2)
    if game_id != "ctf2187":
        for _ in range(4):
            bob_plays(server, gid, tokens[1], rng)
            bob_plays(server, gid, tokens[0], rng)
    loser = next(t for t in tokens[::-1] if server.state(gid, t)["my_turn"])
    server.ok("POST", f"/games/{gid}/resign", {}, loser)
    page = audited(pages)
    page.goto(server.url(f"/replay/{gid}"))
    page.wait_for_selector("#boards svg")
    page.click("#last")
    assert violations(page) == [], game_id


def test_the_web_app_manifest_and_its_icons_are_served(server, pages):
    import httpx

    page = pages.new()
    page.goto(server.url("/"))
    href = page.get_attribute('link[rel="manifest"]', "href")
    r = httpx.get(server.url(href))
    assert r.status_code == 200 and "manifest+json" in r.headers["content-type"]
    manifest = r.json()
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        got = httpx.get(server.url(icon["src"]))
        assert got.status_code == 200 and got.headers["content-type"].startswith(icon["type"])
        assert got.content  # a local file: the page loads nothing from another host
    for path in ("/play/x", "/replay/x"):
        html = httpx.get(server.url(path)).text
        assert 'rel="manifest"' in html


def test_the_dark_theme_follows_the_system(server, pages):
    light = audited(pages, scheme="light")
    dark = audited(pages, scheme="dark")
    for page in (light, dark):
        page.goto(server.url("/"))
        page.wait_for_selector("#game option", state="attached")
    bg = "() => getComputedStyle(document.documentElement).backgroundColor"
    assert light.evaluate(bg) == "rgb(246, 245, 242)"
    assert dark.evaluate(bg) == "rgb(22, 24, 27)"


ON_BOARD = ("() => { const a = document.activeElement; "
            "return !!(a && a.closest && a.closest('#board [data-key].clickable')); }")
ON_LEGAL = ("() => { const a = document.activeElement; "
            "return !!(a && a.matches && a.matches('#legal button.action')); }")
IN_CHOICES = ("() => { const a = document.activeElement; "
              "return !!(a && a.closest && a.closest('#choices button.action')); }")


def tab_until(page, test: str, limit: int = 250) -> bool:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(test):
            return True
    return False


def focus_is_visible(page) -> bool:
    """The focused control shows it: an outline (HTML) or the thick focus ring (SVG)."""
    return page.evaluate("""() => {
        const a = document.activeElement;
        if (a instanceof SVGElement) {
            const hit = a.querySelector('.hit');
            return !!hit && parseFloat(getComputedStyle(hit).strokeWidth) >= 6;
        }
        const s = getComputedStyle(a);
        return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
    }""")


def keyboard_move(page) -> None:
    """One move by keyboard alone: Tab to a playable board element and Enter (its choices
    open with the focus on the first: Enter), else Tab to the move list and Enter."""
    version = int(page.get_attribute("body", "data-version"))
    if tab_until(page, ON_BOARD, 120):
        assert focus_is_visible(page)
        page.keyboard.press("Enter")
        if page.evaluate(IN_CHOICES):
            assert focus_is_visible(page)
            page.keyboard.press("Enter")
    else:
        assert tab_until(page, ON_LEGAL), "no move reachable by Tab"
        assert focus_is_visible(page)
        page.keyboard.press("Enter")
    wait_version(page, version + 1)


@pytest.mark.parametrize("game_id,options", [("fieldshift", {"turn_limit": 6}),
                                             ("hills", {"turn_limit": 2, "first": "0"})])
def test_a_keyboard_only_game_to_the_end(server, pages, game_id, options):
    """Ann plays by keyboard alone (Tab, Enter; no mouse, no typing of notation) until the
    game ends at its turn limit (FS-22, BSH: a draw after the turns each); Bob plays through
    the API. The live region announces Bob's moves and the result."""
    game = server.create(game_id, [{"kind": "human", "name": "Ann"},
                                   {"kind": "human", "name": "Bob"}], options=options)
    gid = game["game_id"]
    bob_token = game["seats"][1]["token"]
    ann = pages.new()
    claim(ann, server, gid, game["seats"][0]["invite"], "Ann")
    rng = random.Random(4)
    heard = set()
    for _ in range(200):
        st = server.state(gid)
        if st["over"]:
            break
        wait_version(ann, st["version"])
        if ann.get_attribute("body", "data-my-turn") == "1":
            keyboard_move(ann)
        else:
            bob_plays(server, gid, bob_token, rng)
            wait_version(ann, server.state(gid)["version"])
            heard.add(ann.text_content("#announce") or "")
    assert server.state(gid)["over"], "the game did not end"
    ann.wait_for_selector("#outcome:not([hidden])")
    assert any("Bob" in h for h in heard), heard  # Bob's moves were announced
    ann.wait_for_function(
        "() => document.getElementById('announce').textContent.includes('Game over')")
    shot(ann, f"pages-{game_id}-keyboard-end")
