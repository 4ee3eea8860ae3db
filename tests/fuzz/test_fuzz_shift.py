"""Fuzzing Shift (issue 15): commands through parse/apply, options, and card files (TOML, the
card format of SH-1..SH-3) through every way in. Only `BoardctError` may escape; a refusal
changes nothing."""

from __future__ import annotations

from fuzz_kit import (
    Snapshot,
    attempt,
    command_sequence,
    fuzz,
    mutate_bytes,
    mutate_toml,
    new_game,
    play_randomly,
    random_text,
    scratch_file,
    time_limit,
)
from hypothesis import strategies as st

from boardct.core import registry
from boardct.games.shift import cards

GAME = registry.get("shift")
SHIPPED = {stem: path.read_text(encoding="utf-8") for stem, path in cards.shipped().items()}


@fuzz("shift", ci_examples=200)
def test_shift_commands_refused_cleanly_and_change_nothing(draw):
    """Random, mutated and misplaced commands at positions of random games."""
    command_sequence(draw, "shift")


@fuzz("shift", ci_examples=40)
def test_shift_options_refused_cleanly(draw):
    """Random options (cards by name or path, turn limit) and names."""
    state = new_game(draw, "shift")
    if state is not None:
        Snapshot(state)
        play_randomly(state, draw(st.integers(0, 40)), draw(st.integers(0, 99)))


def card_data(draw) -> bytes | str:
    text = SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))]
    kind = draw(st.sampled_from(["toml", "toml", "toml", "toml", "bytes", "random"]))
    if kind == "toml":
        return mutate_toml(draw, text)
    if kind == "bytes":
        return mutate_bytes(draw, text.encode())
    return draw(st.one_of(st.binary(max_size=300), random_text()))


@fuzz("shift", ci_examples=100)
def test_shift_card_files_refused_cleanly(draw):
    """Card files with odd values (inf, nan, huge, deeply nested), keys renamed or doubled,
    headers broken, bytes damaged: through `check_text` (which reports problems rather than
    raising), `load_file`, `resolve` and as the `card1` option. A card that passes is played
    with for a while: a valid but odd card must not crash the rules either."""
    data = card_data(draw)
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    with time_limit():
        try:
            cards.check_text(text, "card.toml")
        except Exception as exc:
            if not isinstance(exc, cards.DataError):
                raise
    with scratch_file(data, ".toml") as path:
        attempt(cards.load_file, path)
        attempt(cards.resolve, str(path))
        ok, state = attempt(GAME.new, seed=draw(st.integers(0, 99)), card1=str(path),
                            card2=draw(st.sampled_from(sorted(SHIPPED))))
        if ok:
            play_randomly(state, draw(st.integers(10, 120)), draw(st.integers(0, 99)))


@fuzz("shift", ci_examples=6)
def test_shift_card_file_with_a_byte_order_mark_loads_as_without(draw):
    """Issue 15 item 3: Notepad's byte-order mark is accepted and ignored."""
    stem = draw(st.sampled_from(sorted(SHIPPED)))
    with scratch_file("\ufeff" + SHIPPED[stem], ".toml") as marked:
        ok, card = attempt(cards.load_file, marked)
        assert ok, f"a card file with a byte-order mark was refused: {card}"
        assert card.name == cards.resolve(stem).name
