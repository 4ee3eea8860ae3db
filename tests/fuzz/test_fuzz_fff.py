"""Fuzzing Force Field Factions (issue 15): turns through parse/apply, options, and FFF-32
position texts. Only `BoardctError` may escape; a refusal changes nothing."""

from __future__ import annotations

import functools

from fuzz_kit import (
    BIG_NUMBERS,
    INT_TEXTS,
    Snapshot,
    attempt,
    command_sequence,
    fuzz,
    mutate,
    mutate_lines,
    new_game,
    play_randomly,
    pool,
    random_text,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.games.fff import position as posmod

GAME = registry.get("fff")
POSITION_WORDS = ["-", "B", "W", "r00g00b00y00p00o00c00", "000/000", "333/333", "0", "B1a1N",
                  "W3h8S:", "B2d4U:r", "W1c8S:gr", "B3e5NE~", ":", ",", "/"]


@fuzz("fff", ci_examples=100)
def test_fff_commands_refused_cleanly_and_change_nothing(draw):
    """Random, mutated and misplaced turns at positions of random games."""
    command_sequence(draw, "fff", max_steps=4)


@fuzz("fff", ci_examples=40)
def test_fff_options_refused_cleanly(draw):
    state = new_game(draw, "fff")
    if state is not None:
        Snapshot(state)
        play_randomly(state, draw(st.integers(0, 6)), draw(st.integers(0, 99)))


@functools.cache
def positions() -> list[str]:
    return [p.position() for p in pool("fff").positions]


def position_text(draw) -> str:
    """An FFF-32 position text: one of a random game, edited as a token or field by field,
    or random text."""
    state = draw(pool("fff").any_position)
    text = state.position()
    kind = draw(st.sampled_from(["as is", "token", "token", "fields", "count", "random"]))
    if kind == "token":
        return mutate(draw, text, POSITION_WORDS, positions())
    if kind == "fields":
        fields = text.split(" ")
        i = draw(st.integers(0, len(fields) - 1))
        fields[i] = mutate(draw, fields[i], POSITION_WORDS, fields)
        return " ".join(fields)
    if kind == "count":  # the no-capture count, the one field of any length
        return text.rsplit(" ", 1)[0] + " " + draw(st.sampled_from(INT_TEXTS + BIG_NUMBERS))
    if kind == "random":
        return draw(random_text())
    return text


@fuzz("fff", ci_examples=120)
def test_fff_positions_refused_cleanly(draw):
    """FFF-32 positions through the reader and as the `position` option; a position that is
    accepted is played on for a few turns (a valid but odd position must not crash the
    rules either)."""
    text = position_text(draw)
    attempt(posmod.read, text)
    ok, state = attempt(GAME.new, seed=0, position=text)
    if ok:
        play_randomly(state, draw(st.integers(0, 4)), draw(st.integers(0, 99)))


@fuzz("fff", ci_examples=30)
def test_fff_position_files_with_line_edits_refused_cleanly(draw):
    """A position as a file might hold it: several lines, a byte-order mark, CRLF."""
    text = mutate_lines(draw, draw(pool("fff").any_position).position() + "\n",
                        POSITION_WORDS)
    attempt(posmod.read, text)
    attempt(GAME.new, seed=0, position=text)
