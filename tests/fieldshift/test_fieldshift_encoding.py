"""FieldShift for learners (issue 20): command tokens as ids, the observation tensor.

Ids 0..99 are the two-digit commands, 100..1099 the three-digit ones (docs/fieldshift.md,
"For learners"); the generic properties are in tests/core/test_encoding.py."""

from __future__ import annotations

import pytest

from boardct.core import registry
from boardct.core.errors import IllegalAction
from boardct.games.fieldshift import encoding as enc

GAME = registry.get("fieldshift")


def new(**options):
    return GAME.new(seed=0, names=("a", "b"), **options)


def field(state, player, *, op=None, name=None):
    """The tensor's value of one named field (see encoding.observation's layout)."""
    obs = state.observation_tensor(player)
    if op is not None:
        side, n, offset = op
        return obs[(side * 10 + n) * enc.OP_FIELDS + offset]
    return obs[name]


def test_ids_are_the_commands_digits():
    s = new()
    assert s.action_id(s.parse("35")) == 35
    assert s.action_id(s.parse("00")) == 0
    stdex = new(ruleset="stdex")
    assert stdex.action_id(stdex.parse("325")) == 425
    assert stdex.action_id(stdex.parse("000")) == 100
    assert stdex.action_id(stdex.parse("999")) == 1099
    assert stdex.notation(stdex.id_action(425)) == "325"
    assert s.notation(s.id_action(35)) == "35"


def test_every_token_has_one_id_and_back():
    """All 1100 tokens of the command language, whatever the ruleset (FS-5)."""
    s = new()
    assert s.game_info().num_distinct_actions == 1100
    tokens = {s.id_action(i) for i in range(1100)}
    assert len(tokens) == 1100
    assert all(s.id_action(s.action_id(t)) == t for t in tokens)


@pytest.mark.parametrize("ruleset", ["lstd", "stdex", "type-a"])
def test_first_legal_ids_per_ruleset(ruleset):
    """LSTD's commands are two-digit ids (< 100); STDEX and Type-A's three-digit (>= 100)."""
    s = new(ruleset=ruleset)
    ids = s.legal_ids()
    assert ids
    if ruleset == "lstd":
        assert all(i < 100 for i in ids)
    else:
        assert all(i >= 100 for i in ids)
    assert {s.notation(s.id_action(i)) for i in ids} == {s.notation(a)
                                                         for a in s.legal_actions()}


def test_a_pending_request_leaves_only_the_answers():
    """FS-37: while a ruleset change waits, the responder may only answer: 00, 01, and under
    the LSTD -> STDEX request also 05 (accept and ask for Type-A)."""
    s = new()
    s.apply(s.parse("05"))
    assert s.legal_ids(1) == [0, 1, 5]
    # the last fields: pending (none, ruleset, draw), "I asked", the ruleset asked for...
    assert field(s, 1, name=-10) == 0.0  # pending: not "none"
    assert field(s, 1, name=-9) == 1.0  # pending: a ruleset change
    assert field(s, 0, name=-7) == 1.0  # player 0 asked
    assert field(s, 1, name=-7) == 0.0
    s.apply_id(1)  # accept: STDEX from now on
    assert all(i >= 100 for i in s.legal_ids())
    obs = s.observation_tensor(0)
    ruleset_at = 20 * enc.OP_FIELDS + 2 * enc.PLAYER_FIELDS
    assert obs[ruleset_at:ruleset_at + 3] == [0.0, 1.0, 0.0]


def test_a_move_shows_in_the_sector_planes():
    """LSTD 24: the selected operator +0 moves to sector 4; both players see it there."""
    s = new()
    assert field(s, 0, op=(0, 0, 0)) == 1.0  # +0 on sector 0 (own side first)
    s.apply_id(24)
    for player, side in ((0, 0), (1, 1)):
        assert field(s, player, op=(side, 0, 0)) == 0.0
        assert field(s, player, op=(side, 0, 4)) == 1.0


def test_each_player_sees_their_own_side_first():
    """The tensor is written from the observer's side, so one network plays either seat."""
    s = new()
    zero, one = s.observation_tensor(0), s.observation_tensor(1)
    own = 10 * enc.OP_FIELDS
    assert zero[:own] != one[:own]  # own operators: on sector 0 for player 1, 9 for player 2
    assert zero[:own] == one[own:2 * own]


def test_a_hit_lowers_the_vitality_field():
    """A hit in range (FS-11) shows as the target's lower vitality in both observations."""
    s = new(ruleset="stdex")
    for token in ("200", "209", "204", "205"):  # +0 and -0 (Longwatches) close in
        s.apply(s.parse(token))
    target_vit = 10 + 4  # the vitality field after sector (10) and status (4)
    before = field(s, 0, op=(1, 0, target_vit))
    s.apply(s.parse("300"))  # +0 hits -0
    assert field(s, 0, op=(1, 0, target_vit)) < before
    assert field(s, 1, op=(0, 0, target_vit)) < before


def test_out_of_range_ids_name_the_range():
    s = new()
    with pytest.raises(IllegalAction, match="out of range 0..1099"):
        s.id_action(1100)
    with pytest.raises(IllegalAction, match="not a FieldShift command token"):
        s.action_id(5000)


def test_the_seat_not_to_decide_has_no_legal_ids():
    """An environment asks for every seat's mask: only the player to decide has moves (FS-1),
    and while a request waits only the one who must answer (FS-37)."""
    s = new()
    assert s.legal_ids(0) and s.legal_ids(1) == [] and s.legal_actions(1) == []
    s.apply(s.parse("05"))
    assert s.legal_ids(0) == [] and s.legal_ids(1) == [0, 1, 5]
