"""Issue 17 item 4: Force Field Factions reading forgives what it can, and every step of a turn
is told in a line.

Reading (FFF-30) takes any case and reads a step into an enemy piece that the attack captures
or pushes as that attack; where a typed turn cannot be read without doubt, the message shows
the exact turn to type. Writing stays canonical (FFF-31): records keep the canonical text.
"""

from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner
from fff_helpers import GAME, pieces, play, rejected, setup

from boardct.cli.main import cli
from boardct.cli.terminal import QUIET_EVENTS
from boardct.core.errors import IllegalAction, ParseError
from boardct.core.game import State
from boardct.core.records import record_of
from boardct.core.records import replay as replay_record
from boardct.games.fff.notation import parse_turn
from boardct.games.fff.pieces import COLOUR_NAMES, COLOURS


def suggested(err: BaseException) -> str:
    """The turn an error message says to type (after `type: `), without the explanation."""
    m = re.search(r"(?:type: |e\.g\. |write it as x: )(.+?)(?: \(| \[|$)", str(err))
    assert m, str(err)
    return m.group(1)


# ---- case: squares, directions, pass, and the rest of the tokens -----------------------------
@pytest.mark.parametrize("typed", ["d1 m", "D1 m", "D1 M"])
def test_squares_read_in_either_case(typed):
    s = GAME.new(seed=0)
    assert s.parse(typed) == s.parse("d1 m")
    assert s.notation(s.parse(typed)) == "d1 m"


def test_upper_case_square_selects_the_out_of_phase_piece_with_its_tilde():
    s = setup("B1c4N:c,B2c4N")
    assert s.notation(s.parse("C4~ E")) == "c4~ E"
    assert s.notation(s.parse("C4 E")) == "c4 E"  # the in-phase one (FFF-30)


@pytest.mark.parametrize("word", ["NE", "ne", "Ne", "nE"])
def test_directions_read_in_either_case(word):
    s = GAME.new(seed=0)
    assert s.notation(s.parse(f"d1 {word} m +y")) == "d1 NE m +y"  # FFF-31's own example


@pytest.mark.parametrize("word", ["U", "u", "up", "UP", "Up"])
def test_upright_reads_as_u_and_as_the_rulebook_word_up(word):
    s = setup("B2d4N")
    assert s.notation(s.parse(f"d4 {word}")) == "d4 U"


@pytest.mark.parametrize("word", ["pass", "PASS", "Pass", "pAsS"])
def test_pass_in_any_case(word):
    s = GAME.new(seed=0)
    assert s.parse(word) == ()
    play(s, word)
    assert s.turn == 1 and record_of(s).actions == ["pass"]


def test_attacks_and_colours_read_in_either_case():
    s = setup("B1d4E:p,W1e4S,W1h5S", lost="100/000")  # FFF-31's purple example
    for typed in ("d4 xE/W", "D4 XE/W", "d4 xe/w", "d4 Xe/W"):
        assert s.notation(s.parse(typed)) == "d4 xE/W"
    t = setup("B2d4N:o,W1d5S:b,W1h5S")  # FFF-31's orange example
    assert t.notation(t.parse("D4 XN Xe")) == "d4 xN xE"
    u = setup("B1d4N:r")
    assert u.notation(u.parse("d4 -R +O")) == "d4 -r +o"


def test_records_keep_the_canonical_text_of_what_was_typed_in_any_case():
    s = GAME.new(seed=0)
    play(s, "B1 ne M +O", "PASS", "C2 NE m")
    rec = record_of(s)
    assert rec.actions == ["b1 NE m +o", "pass", "c2 m"]
    assert replay_record(rec).position() == s.position()


# ---- a step into an enemy piece -------------------------------------------------------------
def test_a_move_onto_an_enemy_the_attack_captures_is_read_as_the_capture():
    s = setup("B2d4N,W1d5S,W1h5S")
    assert s.parse("d4 m") == s.parse("d4 xN")  # the attacker keeps its facing, as a step
    play(s, "d4 m")
    assert pieces(s) == "B2d5N,W1h5S"  # FFF-9
    assert record_of(s).actions == ["d4 xN"]


def test_a_move_onto_an_enemy_the_green_attack_pushes_is_read_as_the_push():
    s = setup("B2d4NE:g,W1e5S,W2f6S,W1h5S")
    play(s, "D4 M")
    assert pieces(s) == "B2e5NE:g,W1h5S,W1f6S,W2g7S"  # FFF-10, FFF-24: the line moves on


def test_each_step_of_a_turn_onto_an_enemy_is_read_as_its_capture():
    s = setup("B2d4N,W1d5S,W1d6S,W1h5S")
    play(s, "d4 m m")
    assert pieces(s) == "W1h5S,B2d6N" and record_of(s).actions == ["d4 xN xN"]


def test_a_move_onto_an_enemy_after_turning_keeps_the_new_facing():
    s = setup("B2d4N,W1e5S,W1h5S")
    assert s.notation(s.parse("d4 ne m")) == "d4 NE xNE"


def test_a_move_onto_an_attack_that_fails_is_refused_with_the_command_to_attack_anyway():
    s = setup("B1d4N,W1d5U")  # 1 against 2 (FFF-8): the move cannot be carried out
    err = rejected(s, "d4 m", "FFF-20", "d5 is occupied by White 1-pip")
    assert "fails (1 against 2)" in str(err) and "to attack anyway type: d4 x" in str(err)
    play(s, suggested(err))
    assert pieces(s) == "B1d4N,W1d5U" and s.turn == 1


def test_a_move_onto_an_orange_strip_is_refused_with_the_command_that_strips():
    s = setup("B1d4N:o,W1d5U")  # fails by one with orange: the attacker stays (FFF-12)
    err = rejected(s, "d4 m", "FFF-20", "orange strips")
    assert suggested(err) == "d4 xN"
    play(s, suggested(err))
    assert pieces(s) == "B1d4N:o,W1d5U"


def test_a_move_onto_a_purple_conversion_is_refused_with_the_command_that_converts():
    s = setup("B1d4E:p,W1e4S,W1h5S", lost="100/000")  # FFF-11: two facings to choose
    err = rejected(s, "d4 m", "FFF-20", "converts it (purple, 1 against 1)")
    assert suggested(err) == "d4 xE/S"  # both pieces keep their facings unless told
    play(s, suggested(err))
    assert pieces(s) == "B1d4E:p,B1e4S,W1h5S"


def test_a_move_onto_an_own_piece_is_refused_without_an_attack_to_suggest():
    s = setup("B2d4N,B1d5N")
    err = rejected(s, "d4 m", "FFF-20", "d5 is occupied by Black 1-pip")
    assert "type" not in str(err)


def test_the_tokens_of_a_move_onto_an_enemy_given_to_apply_are_refused_with_the_command():
    s = setup("B2d4N,W1d5S,W1h5S")
    before = s.position()
    with pytest.raises(IllegalAction) as info:
        s.apply(parse_turn("d4 m"))  # apply takes tokens as they are; parse forgives
    assert info.value.rule == "FFF-20" and suggested(info.value) == "d4 xN"
    assert s.position() == before and s.history() == []


@pytest.mark.parametrize(("pos", "typed", "lost", "command"), [
    ("B2d4N,W1d5S,W1h5S", "d4 x", "000/000", "d4 xN"),  # captures: xD
    ("B1d4N,W1d5U", "d4 xE", "000/000", "d4 x"),  # fails: x
    ("B1d4N:o,W1d5U", "d4 x", "000/000", "d4 xN"),  # strips: xD
    ("B1d4E:p,W1e4S,W1h5S", "d4 xW", "100/000", "d4 xW/S"),  # converts: xD/E, D as typed
    ("B2d4N,W1d5S,W1h5S", "d4 xN/E +r", "000/000", "d4 xN +r"),  # the rest of the turn kept
])
def test_an_attack_in_the_wrong_form_shows_the_exact_command(pos, typed, lost, command):
    s = setup(pos, lost=lost)
    err = rejected(s, typed, "FFF-30", "write it as")
    assert suggested(err) == command
    play(s, command)  # the command shown is one to type
    assert s.turn == 1


# ---- every step of a turn prints a line ------------------------------------------------------
def run_script(tmp_path, lines: str, *args: str) -> list[str]:
    path = tmp_path / "fff.txt"
    path.write_text(lines)
    result = CliRunner().invoke(cli, ["play", "fff", "--names", "A", "B", "--color", "never",
                                      *args, "--script", str(path), "--trace"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_the_terminal_prints_every_step_of_a_turn_turning_included(tmp_path):
    out = run_script(tmp_path, "b1 NE m +o\n")
    start = out.index("Player 1 (Black): b1 NE m +o")
    assert out[start + 1:start + 5] == [
        "Black selects Black 2-pip (B2N) on b1",
        "b1: turns NE",
        "b1: steps to c2",
        "c2: adds an orange field",
    ]


def test_the_terminal_prints_removal_turns_attacks_and_the_addition(tmp_path):
    position = "B1d4N:yr,W2d5U,W1e5S,W1h5S,B2b1N,B3c1N,W3h8S B - 000/000 0"
    out = run_script(tmp_path, "d4 -r NE xE +o\n", "-o", f"position={position}")
    start = out.index("Player 1 (Black): d4 -r NE xE +o")
    assert out[start + 1:start + 6] == [
        "Black selects Black 1-pip (B1N:yr) on d4",
        "d4: removes its red field",
        "d4: turns NE",
        "d4: captures White 1-pip (W1S) on e5, moves in facing E",
        "e5: adds an orange field",
    ]


def test_no_fff_event_is_one_the_terminal_keeps_quiet():
    s = setup("B1d4N:yr,W1e5S,W1h5S,B2a4N,W1a5U,B1c4N:c,W2c4N")
    turns = ("d4 -r NE xE +o", "h5 W", "a4 x", "pass", "c1 m", "pass", "c4~ -c")
    # tokens as they are: typed, a lone failed attack is the pass it amounts to (FFF-31)
    events = [e for turn in turns for e in s.apply(parse_turn(turn))]
    kinds = [e[0] for e in events]
    assert kinds == ["select", "remove", "face", "capture", "add", "select", "face",
                     "select", "fail", "pass", "select", "step", "pass",
                     "select", "remove", "destroy", "end"]
    assert not set(kinds) & QUIET_EVENTS
    lines = [s.describe(e) for e in events]
    assert all(line and line != State.describe(s, e) for line, e in zip(lines, events,
                                                                          strict=True))


# ---- colours in words ------------------------------------------------------------------------
@pytest.mark.parametrize(("letter", "words"), [
    ("r", "a red field"), ("g", "a green field"), ("b", "a blue field"),
    ("y", "a yellow field"), ("p", "a purple field"), ("o", "an orange field"),
    ("c", "a clear field"),
])
def test_field_events_name_the_colour_in_words_with_its_article(letter, words):
    s = setup("B1d4N")
    events = play(s, f"d4 +{letter}")
    assert s.describe(events[-1]) == f"d4: adds {words}"
    play(s, "pass")
    events = play(s, f"d4 -{letter}")
    name = COLOUR_NAMES[COLOURS.index(letter)]
    assert s.describe(events[1]) == f"d4: removes its {name} field"


# ---- what is canonical stays canonical ----------------------------------------------------------
def random_states(count: int, seed: int):
    rng = random.Random(seed)
    for n in range(count):
        s = GAME.new(seed=n)
        for _ in range(rng.randrange(4, 30)):
            legal = s.legal_actions()
            if not legal:
                break
            s.apply(rng.choice(legal))
        yield s, rng


def test_parse_of_notation_is_the_action_in_any_case_from_random_positions():
    for s, rng in random_states(6, seed=17):
        legal = s.legal_actions()
        for a in legal:
            text = s.notation(a)
            assert parse_turn(text) == a == parse_turn(text.upper()) == parse_turn(text.lower())
        for a in rng.sample(legal, min(25, len(legal))):
            text = s.notation(a)
            assert s.parse(text) == a == s.parse(text.swapcase())


@pytest.mark.parametrize(("typed", "what"), [
    ("d4 xQ", "'Q' is not a facing"),
    ("I9 m", "not a square of the board"),
    ("d4 +cyan", "cyan is not in the game"),
    ("d4 +Orange", "a colour is one letter: +o for orange"),
    ("PASS d4", "`pass` stands alone"),
    ("d4 \uff4d", "not a point"),  # a full-width m is not an m
    ("d4 \u017f", "not a point"),  # the long s, which str.upper() would make an S
    ("\uff44\uff14 m", "a turn starts with a square"),
    ("d4 STEP", "a step is written m"),
])
def test_bad_input_is_still_a_clear_parse_error_and_changes_nothing(typed, what):
    s = setup("B2d4N")
    before = s.position()
    with pytest.raises(ParseError, match=re.escape(what)):
        s.parse(typed)
    assert s.position() == before
