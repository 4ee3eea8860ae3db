"""FFF-30/31 (turn notation, canonical text) and FFF-32/33 (position text)."""

import pytest
from fff_helpers import GAME, field, pieces, play, rejected, setup, texts

from boardct.core.errors import BoardctError, IllegalAction, ParseError
from boardct.games.fff.notation import format_turn, parse_turn
from boardct.games.fff.position import INITIAL, read, write


# ---- FFF-31: the ruling's own examples -----------------------------------------------------------
def test_fff31_example_turn_step_and_yellow_at_the_start():
    s = GAME.new(seed=0)
    a = s.parse("d1 NE m +y")
    assert s.notation(a) == "d1 NE m +y" and a in s.legal_actions()
    play(s, "d1 NE m +y")
    assert field(s, 0).startswith("B3a1N,B2b1N,B1c1N,B1e1N,B2f1N,B1g1N,B3h1N,B2e2NE:y,")


def test_fff31_example_orange_strip_then_capture():
    s = setup("B2d4N:o,W1d5S:b,W1h5S")
    a = s.parse("d4 xN xE")
    assert s.notation(a) == "d4 xN xE" and a in s.legal_actions()


def test_fff31_example_purple_conversion():
    s = setup("B1d4E:p,W1e4S,W1h5S", lost="100/000")
    a = s.parse("d4 xE/W")
    assert s.notation(a) == "d4 xE/W" and a in s.legal_actions()
    play(s, "d4 xE/W")
    assert pieces(s) == "B1d4E:p,B1e4W,W1h5S"


def test_fff31_fewest_tokens_then_ascii_order():
    s = setup("B3d4N")
    # e5 facing NE: "d4 NE m" is the only shortest way.
    assert s.notation(s.parse("d4 E NE m")) == "d4 NE m"
    # a step out and back facing S is the turn alone.
    assert s.notation(s.parse("d4 m S m")) == "d4 S"
    assert s.notation(s.parse("d4 N S")) == "d4 S"
    # a result reachable in equally short ways keeps the ASCII-first text
    t = setup("B3d4N,W1d5U:b,W1h5S")
    assert t.notation(t.parse("d4 x x E")) == "d4 E"


def test_fff31_tilde_exactly_when_the_selected_piece_is_out_of_phase():
    s = setup("B1d4N:c")
    assert s.notation(s.parse("d4 E")) == "d4~ E"
    t = setup("B1d4N:c,B2d4N")
    assert t.notation(t.parse("d4 E")) == "d4 E"  # the in-phase one
    assert t.notation(t.parse("d4~ E")) == "d4~ E"
    u = setup("B2d4N")
    rejected(u, "d4~ E", "FFF-30", "no out-of-phase piece on d4")


def test_fff30_notation_and_parse_round_trip_on_every_legal_turn():
    s = setup("B1d4N:pg,W1d5S,B2c4E:o,W2c5S:b,B1e3NE:c,W2e4S", lost="110/000")
    for a in s.legal_actions():
        text = s.notation(a)
        assert parse_turn(text) == a
        assert s.parse(text) == a


# ---- FFF-30: errors point at the token -----------------------------------------------------------
@pytest.mark.parametrize(("text", "where", "what"), [
    ("", "empty turn", "a turn is `pass`"),
    ("z9 m", "token 1 'z9' (column 1)", "not a square"),
    ("I4 m", "token 1 'I4' (column 1)", "not a square of the board"),
    ("PASS m", "token 2 'm' (column 6)", "stands alone"),
    ("pass m", "token 2 'm' (column 6)", "stands alone"),
    ("d4 m q", "token 3 'q' (column 6)", "not a point"),
    ("d4 xQ", "token 2 'xQ' (column 4)", "'Q' is not a facing"),
    ("d4 xN/nq", "token 2 'xN/nq' (column 4)", "converted piece facing: 'nq' is not a facing"),
    ("d4 +red", "token 2 '+red' (column 4)", "a colour is one letter: +r for red"),
    ("d4  -", "token 2 '-' (column 5)", "needs a colour letter"),
    ("d4 -x", "token 2 '-x' (column 4)", "not a colour"),
    ("d4 m -r", "token 3 '-r' (column 6)", "removed first"),
    ("d4 +r m", "token 2 '+r' (column 4)", "added last"),
    ("d4 m d5", "token 3 'd5' (column 6)", "only one piece is selected"),
    ("d4 move", "token 2 'move' (column 4)", "a step is written m"),
])
def test_fff30_parse_errors_name_the_token_and_column(text, where, what):
    with pytest.raises(ParseError) as info:
        parse_turn(text)
    msg = str(info.value)
    assert where in msg and what in msg
    if info.value.position is not None and text.strip():
        assert text[info.value.position:].split()[0] in msg


def test_fff30_rule_errors_name_the_token_and_the_rule():
    s = setup("B2d4N,B1d5N")
    err = rejected(s, "d4 E m m m", "FFF-5")
    assert "token 4 'm'" in str(err) and "[FFF-5]" in str(err)


def test_fff30_non_tuple_actions_are_refused_cleanly():
    s = GAME.new(seed=0)
    with pytest.raises(IllegalAction):
        s.apply("d1 m")
    with pytest.raises(IllegalAction):
        s.apply((999, 1))
    with pytest.raises(IllegalAction):
        s.apply((s.parse("d1 m")[0], 10_000))
    assert s.position() == INITIAL


def test_fff30_wrong_player_is_refused():
    s = GAME.new(seed=0)
    with pytest.raises(IllegalAction, match="Black's turn"):
        s.apply(s.parse("d1 m"), player=1)
    assert s.legal_actions(1) == []


def test_format_turn_of_pass_and_tokens():
    assert format_turn(()) == "pass"
    assert format_turn(parse_turn("h8~   -c  xNE/SW +r")) == "h8~ -c xNE/SW +r"


# ---- FFF-32, FFF-33: positions -------------------------------------------------------------------
def test_fff32_initial_position_text():
    assert GAME.new(seed=0).position() == INITIAL
    b = read(INITIAL)
    assert write(b) == INITIAL


def test_fff32_round_trip_with_fields_shared_squares_and_counts():
    text = "B1c1N:gr,W2d4S:c,B2d4NE,W1e5U:bb W r32g23b22y33p33o33c32 010/200 17"
    s = GAME.new(seed=0, position=text)
    assert s.position() == text
    assert s.turn == 1 and s.count == 17
    assert s.lost == [0, 1, 0, 2, 0, 0]


def test_fff32_pool_dash_is_derived_and_input_order_is_free():
    s = GAME.new(seed=0, position="W1e5U:bb,B2d4NE,W2d4S:c,B1c1N:gr W - 010/200 17")
    assert s.position() == ("B1c1N:gr,W2d4S:c,B2d4NE,W1e5U:bb W r32g23b22y33p33o33c32 "
                            "010/200 17")


def test_fff32_the_result_follows_from_the_position():
    s = GAME.new(seed=0, position="B1a1N,B2b1N,B3c1N,W2g8S,W3h8S B - 000/300 0")
    assert s.outcome.winners == (0,) and s.legal_actions() == []
    t = GAME.new(seed=0, position="B1a1N,B2b1N,B3c1N,W1f8S,W2g8S,W3h8S W - 000/000 200")
    assert t.outcome.is_draw


@pytest.mark.parametrize(("text", "what"), [
    ("B3a1N:r B - 000/000 0", "3-pip piece carries at most 0 fields (FFF-7)"),
    ("B2a1N:rg B - 000/000 0", "2-pip piece carries at most 1 field (FFF-7)"),
    ("B1a1N:rgb B - 000/000 0", "carries at most 2 fields"),
    ("B1a1N,W1a1S B - 000/000 0", "a1 already holds an in-phase piece"),
    ("B1a1N:c,W1a1S:c B - 000/000 0", "a1 already holds an out-of-phase piece"),
    ("B1a1N B r33g33b33y33p33o33c32 000/000 0", "clear 3-pip fields: 2 in the pool and 0"),
    ("B1a1N:r B r33g33b33y33p33o33c33 000/000 0", "red 2-pip fields: 3 in the pool and 1"),
    ("B1a1N,B1b1N,B1c1N B - 100/000 0", "more than the 3 it started with"),
    ("B3a1N,B3b1N,B3c1N B - 000/000 0", "more than the 2 it started with"),
    ("B1a1N X - 000/000 0", "'X' is not B or W"),
    ("B1a1N B - 00/000 0", "is not like 000/000"),
    ("B1a1N B - 000/000 -3", "not a whole number"),
    ("B1a1N B - 000/000", "five fields"),
    ("B1a1N  B - 000/000 0", "five fields"),
    ("B1i1N B - 000/000 0", "'B1i1N' is not a piece"),
    ("B1a1N:x B - 000/000 0", "'x' is not a field colour"),
    ("B1a1N B r3g3 000/000 0", "is not r##g##"),
])
def test_fff33_reader_rejects_bad_positions_with_field_and_item(text, what):
    with pytest.raises(ParseError) as info:
        read(text)
    assert what in str(info.value)
    assert str(info.value).startswith("position")


def test_fff33_bad_position_option_is_a_clean_error():
    with pytest.raises(BoardctError, match="position pieces"):
        GAME.new(seed=0, position="B9a1N B - 000/000 0")


def test_fff32_legal_turn_texts_are_unique():
    s = GAME.new(seed=0)
    listed = texts(s)
    assert len(listed) == len(set(listed)) == 815
