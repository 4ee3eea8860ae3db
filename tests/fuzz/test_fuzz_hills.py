"""Fuzzing Battle for The Shifting Hills (issue 15): commands through parse/apply, options
(the deck mix among them), and BSH-39 layout files through every way in. Only `BoardctError`
may escape; a refusal changes nothing."""

from __future__ import annotations

import re

import fuzz_kit
from fuzz_kit import (
    INT_TEXTS,
    Snapshot,
    assert_ascii_numbers,
    attempt,
    command_sequence,
    fuzz,
    mutate,
    mutate_bytes,
    mutate_lines,
    new_game,
    play_randomly,
    pool,
    random_text,
    scratch_file,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.records import load_state
from boardct.games.hills.board import CARD_WORDS
from boardct.games.hills.game import DEFAULT_DECK_TEXT, layout_of
from boardct.games.hills.layout import layout_text, parse_layout

GAME = registry.get("hills")
LAYOUT_WORDS = ["hills-layout", "1", "first", "0", "deck", "turn-limit", "none", "tile", "p",
                "m", "f", "P*", "F*", "M*", "-3", "3", "4", "*", *CARD_WORDS]


@fuzz("hills", ci_examples=200)
def test_hills_commands_refused_cleanly_and_change_nothing(draw):
    """Random, mutated and misplaced commands at positions of random games."""
    command_sequence(draw, "hills")


def deck_text(draw) -> str:
    """The deck option: CARD:COUNT lists, edited; counts bounded unless hazards are on."""
    count = st.one_of(st.integers(-3, 40).map(str), st.sampled_from(INT_TEXTS[:16]))
    if fuzz_kit.HAZARDS:
        count = st.one_of(count, st.sampled_from(["100000000", "9" * 30]))
    parts = draw(st.lists(st.tuples(st.sampled_from([*CARD_WORDS, "Ammo", " boost", "x", ""]),
                                    st.sampled_from([":", "", "::", "="]), count),
                          max_size=6))
    text = ",".join(f"{w}{sep}{n}" for w, sep, n in parts)
    if draw(st.booleans()):
        text = mutate(draw, text or DEFAULT_DECK_TEXT, CARD_WORDS, [DEFAULT_DECK_TEXT])
        if not fuzz_kit.HAZARDS:  # no count of more than five digits (int() reads ٣ too)
            text = re.sub(r"\d{6,}", "99999", text)
    return text


@fuzz("hills", ci_examples=50)
def test_hills_options_refused_cleanly(draw):
    """Random options (turn limit, stars, deck, first, layout text) and names."""
    state = new_game(draw, "hills", safe={"deck": deck_text})
    if state is not None:
        assert_ascii_numbers(str(state.setup.options["deck"]), "the deck option")
        Snapshot(state)
        play_randomly(state, draw(st.integers(0, 20)), draw(st.integers(0, 99)))


def valid_layout(draw) -> str:
    return layout_text(layout_of(draw(pool("hills").any_position)))


def layout_data(draw) -> bytes | str:
    text = valid_layout(draw)
    kind = draw(st.sampled_from(["lines", "lines", "lines", "token", "bytes", "random"]))
    if kind == "lines":
        return mutate_lines(draw, text, LAYOUT_WORDS)
    if kind == "token":
        return mutate(draw, text, LAYOUT_WORDS, text.splitlines())
    if kind == "bytes":
        return mutate_bytes(draw, text.encode())
    return draw(st.one_of(st.binary(max_size=300),
                          random_text().map(lambda t: "hills-layout 1\n" + t)))


@fuzz("hills", ci_examples=100)
def test_hills_layouts_refused_cleanly(draw):
    """Layout files edited line by line, token by token and byte by byte, through the parser,
    the `layout` option (as text and as a path), the game's file hook and `load_state`; an
    accepted layout is played on for a few turns."""
    data = layout_data(draw)
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if attempt(parse_layout, text, "layout")[0]:
        assert_ascii_numbers(text, "parse_layout")
    ok, state = attempt(GAME.new, seed=1, layout=text if "\n" in text else text + "\n")
    if ok:
        play_randomly(state, draw(st.integers(0, 12)), draw(st.integers(0, 99)))
    with scratch_file(data, ".layout") as path:
        attempt(GAME.new, seed=1, layout=str(path))
        attempt(GAME.load_file, str(path))
        attempt(load_state, path)


@fuzz("hills", ci_examples=8)
def test_hills_layout_file_with_a_byte_order_mark_loads_as_without(draw):
    """Issue 15 item 3: Notepad's byte-order mark is accepted and ignored."""
    text = valid_layout(draw)
    with scratch_file(text) as plain, scratch_file("\ufeff" + text) as marked:
        want = GAME.new(seed=1, layout=str(plain))
        ok, got = attempt(GAME.new, seed=1, layout=str(marked))
        assert ok, f"a layout file with a byte-order mark was refused: {got}"
        assert got.view(None) == want.view(None)
        ok, got = attempt(GAME.load_file, str(marked))
        assert ok and got is not None, f"load_file refused a layout with a byte-order mark: {got}"
