"""The action notation (BSH-38): canonical text, case, omitted targets, clear errors."""

from __future__ import annotations

import pytest
from hills_helpers import position

from boardct.core.errors import IllegalAction, ParseError
from boardct.games.hills import actions as A


def test_bsh38_every_legal_action_round_trips_through_its_text():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6), "0M": (0, 1, 4)},
                 hands=((0, 1, 1, 1), (0, 0, 0, 0)))
    acts = s.legal_actions()
    texts = [s.notation(a) for a in acts]
    assert "play ammo I E R" in texts and "I attack E R" in texts and "play boost M" in texts
    for a, text in zip(acts, texts, strict=True):
        assert s.parse(text) == a
        assert s.parse(text.lower()) == a
        assert s.parse("  " + text.upper().replace(" ", "   ") + " ") == a


@pytest.mark.parametrize("text,canonical", [
    ("i move e", "I move E"), ("R WAIT", "R wait"), ("m deimpede", "M deimpede"),
    ("END", "end"), ("play BOOST r", "play boost R"), ("infantry move ne", "I move NE"),
])
def test_bsh38_case_insensitive_canonical_form(text, canonical):
    s = position()
    assert s.notation(s.parse(text)) == canonical


def test_bsh38_target_may_be_left_out_when_the_hex_holds_one_enemy():
    s = position(squads={"0I": (0, 0, 6), "1R": (1, 0, 6)}, hands=((0, 0, 1, 0), (0, 0, 0, 0)))
    assert s.notation(s.parse("I attack E")) == "I attack E R"
    assert s.notation(s.parse("i move e")) == "I attack E R"
    assert s.notation(s.parse("play ammo I E")) == "play ammo I E R"


def test_bsh38_artillery_target_may_be_left_out_when_one_enemy_squad_remains():
    s = position(squads={"1I": None, "1M": None}, hands=((0, 1, 0, 0), (0, 0, 0, 0)))
    assert s.notation(s.parse("play artillery")) == "play artillery R"


def test_bsh38_missing_target_with_no_enemy_there_names_the_rule():
    s = position(squads={"0I": (0, 0, 6)})
    with pytest.raises(IllegalAction, match=r"no enemy squad at \(1,0\)") as err:
        s.parse("I attack E")
    assert err.value.rule == "BSH-10"


def test_bsh38_survivors_is_never_played():
    s = position()
    with pytest.raises(IllegalAction, match="never played"):
        s.parse("play survivors")


@pytest.mark.parametrize("text,fragment,column", [
    ("", "empty command", 0),
    ("x move e", "'x' is not a squad", 0),
    ("I fly E", "'fly' is not an action", 2),
    ("I move", "missing a direction", 6),
    ("I move up", "'up' is not a direction", 7),
    ("I move E now", "unexpected 'now'", 9),
    ("I attack E Q", "'q' is not a target squad", 11),
    ("play", "missing card", 4),
    ("play joker", "'joker' is not a card", 5),
    ("play boost", "missing one of your squads", 10),
    ("end now", "unexpected 'now'", 4),
    ("I", "missing action", 1),
])
def test_bsh38_malformed_commands_say_what_and_where(text, fragment, column):
    s = position()
    with pytest.raises(ParseError) as err:
        s.parse(text)
    assert fragment in str(err.value)
    assert err.value.position == column
    if text:
        assert f"column {column + 1}" in str(err.value)


def test_bsh38_action_codes_are_small_ints_with_canonical_text():
    assert A.text(A.attack(2, 5, 0)) == "M attack SE I"
    assert A.text(A.ammo(0, 3, 1)) == "play ammo I W R"
    assert A.text(A.artillery(2)) == "play artillery M"
    assert not A.is_code(1001) and not A.is_code(-1) and not A.is_code("end")


def test_bsh38_apply_rejects_things_that_are_not_actions():
    s = position()
    before = s.view(0)
    for bad in (99999, 1001, "I wait", None, 2.5):
        with pytest.raises(IllegalAction, match="not an action"):
            s.apply(bad)
    assert s.view(0) == before
