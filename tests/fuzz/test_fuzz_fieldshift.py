"""Fuzzing FieldShift (issue 15): commands through parse/apply, options, and the earlier
BoardCT tool's save files (FS-24). Only `BoardctError` may escape; a refusal changes nothing."""

from __future__ import annotations

from fuzz_kit import (
    Snapshot,
    attempt,
    command_sequence,
    fuzz,
    mutate_bytes,
    mutate_lines,
    new_game,
    play_randomly,
    pool,
    random_text,
    scratch_file,
    with_surrogates,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.core.records import load_state, record_of
from boardct.games.fieldshift import savefile

GAME = registry.get("fieldshift")
RULESET_CODE = {"lstd": "0", "stdex": "1", "type-a": "-1"}


@fuzz("fieldshift", ci_examples=200)
def test_fieldshift_commands_refused_cleanly_and_change_nothing(draw):
    """Random, mutated and misplaced command tokens at positions of random games."""
    command_sequence(draw, "fieldshift")


@fuzz("fieldshift", ci_examples=40)
def test_fieldshift_options_and_names_refused_cleanly(draw):
    state = new_game(draw, "fieldshift")
    if state is not None:
        before = Snapshot(state)
        before.check(state, "a new game")  # views build
        play_randomly(state, draw(st.integers(0, 30)), draw(st.integers(0, 99)))


def valid_save(draw) -> tuple[str, object]:
    """An old-tool save of a game from the pool: ruleset line, two names, one token a line."""
    state = draw(pool("fieldshift").any_position)
    record = record_of(state)
    code = RULESET_CODE[record.options["ruleset"]]
    names = [draw(st.sampled_from(["A", "Bea", "x y", ""])) for _ in range(2)]
    return "\n".join([code, *names, *record.actions]) + "\n", state


def load_everywhere(path) -> None:
    """The old-tool save through every way in: the loader itself, the game's file hook and
    the generic `load_state` (which `--resume`, `replay` and the terminal's 03 use)."""
    ok, state = attempt(savefile.load, GAME, path)
    if ok:
        play_randomly(state, 3, 1)
    attempt(GAME.load_file, str(path))
    attempt(load_state, path)


@fuzz("fieldshift", ci_examples=100)
def test_fieldshift_old_tool_saves_refused_cleanly(draw):
    """Saves edited line by line or byte by byte, random bytes, random text."""
    text, _ = valid_save(draw)
    kind = draw(st.sampled_from(["lines", "lines", "bytes", "random", "names"]))
    if kind == "lines":
        data: bytes | str = mutate_lines(draw, text, pool("fieldshift").vocab)
    elif kind == "bytes":
        data = mutate_bytes(draw, text.encode())
    elif kind == "names":
        lines = text.split("\n")
        lines[1] = draw(with_surrogates(random_text()))
        data = "\n".join(lines)
    else:
        data = draw(st.one_of(st.binary(max_size=200),
                              random_text().map(lambda t: draw(st.sampled_from(
                                  ["0\n", "1\n", "-1\n", ""])) + t)))
    with scratch_file(data) as path:
        load_everywhere(path)


@fuzz("fieldshift", ci_examples=8)
def test_fieldshift_old_tool_save_with_a_byte_order_mark_loads_as_without(draw):
    """Issue 15 item 3: Notepad's byte-order mark is accepted and ignored."""
    text, _ = valid_save(draw)
    with scratch_file(text) as plain, scratch_file("\ufeff" + text) as marked:
        ok, want = attempt(savefile.load, GAME, plain)
        if not ok:
            return  # an empty name line, say: refused with or without the mark
        ok, got = attempt(savefile.load, GAME, marked)
        assert ok, f"a save with a byte-order mark was refused: {got}"
        assert record_of(got).actions == record_of(want).actions
        ok, got = attempt(load_state, marked)
        assert ok, f"load_state refused a save with a byte-order mark: {got}"
