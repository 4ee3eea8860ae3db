"""Hills for learners (issue 20): unrevealed tiles are an "unknown" plane, the own hand is
known and the opponent's only counted; generic properties in tests/core/test_encoding.py."""

from __future__ import annotations

from boardct.core import registry
from boardct.games.hills import actions as A
from boardct.games.hills import encoding as enc
from boardct.games.hills.board import AMMO, ARTILLERY, BOOST, HQ, INDEX, LAND

GAME = registry.get("hills")


def new(**options):
    return GAME.new(seed=5, names=("a", "b"), **options)


def hex_field(obs, h, k):
    return obs[h * enc.HEX_FIELDS + k]


def test_ids_follow_the_action_codes():
    s = new()
    assert s.game_info().num_distinct_actions == 139
    assert s.id_action(0) == A.END
    assert s.notation(s.id_action(1)) == "I move E"
    assert s.action_id(A.ammo(2, 5, 2)) == 138
    assert [s.action_id(a) for a in enc.CODES] == list(range(139))


def test_face_down_tiles_are_unknown_and_each_sees_its_own_hq():
    """BSH-2: every land tile starts face down; the HQ tiles are known, own and enemy."""
    s = new()
    for player in (0, 1):
        obs = s.observation_tensor(player)
        assert all(hex_field(obs, h, 0) == 1.0 for h in LAND)
        assert hex_field(obs, HQ[player], 4) == 1.0  # own HQ
        assert hex_field(obs, HQ[1 - player], 5) == 1.0  # enemy HQ


def test_a_revealed_tile_shows_for_both_players():
    s = new()
    h = INDEX[(0, 0)]
    before = [s.observation_tensor(p) for p in (0, 1)]
    s.arrange(reveal=((0, 0),))
    for p in (0, 1):
        obs = s.observation_tensor(p)
        assert hex_field(obs, h, 0) == 0.0
        assert sum(hex_field(obs, h, 1 + t) for t in range(3)) == 1.0
        assert obs != before[p]


def test_own_hand_known_opponent_hand_only_counted():
    """Player 1 holding Artillery or Boost: the same to player 2 (one card, nothing inferred),
    different to player 1 themselves."""
    s = new()
    a, b = s.clone(), s.clone()
    a.hand[ARTILLERY] = 1
    b.hand[BOOST] = 1
    a.known[0] = b.known[0] = 1
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.observation_tensor(0) != b.observation_tensor(0)
    assert a.observation_tensor(1) != s.observation_tensor(1)  # the hand size shows
    c = s.clone()
    c.hand[AMMO] = 1
    c.known[2] = 1  # known to be Extra Ammo (BSH-24): everyone may know it
    assert c.observation_tensor(1) != a.observation_tensor(1)


def test_a_determinization_changes_tiles_but_not_the_observation():
    s = new()
    other = s.determinize(0, 99)
    assert other.tiles != s.tiles
    assert other.observation_tensor(0) == s.observation_tensor(0)
    assert other.information_state_tensor(0) == s.information_state_tensor(0)


def test_the_information_state_remembers_the_last_actions():
    s = new()
    mover = s.to_move
    s.apply(s.legal_actions()[-1])
    info = s.information_state_tensor(mover)
    assert len(info) == enc.INFO_SIZE
    last = info[enc.SIZE + (enc.HISTORY - 1) * (enc.NUM_ACTIONS + 1):]
    assert last[s.action_id(s.history()[-1][1])] == 1.0
    assert last[-1] == 1.0  # mine
    assert s.information_state_tensor(1 - mover)[-1] == 0.0
    assert "actions: Player" in s.information_state_string(mover)


def test_the_information_state_string_remembers_every_action():
    """Perfect recall: the string keeps the whole game's actions (all public), past the
    tensor's window of the last `HISTORY`."""
    s = new()
    first = None
    for _ in range(enc.HISTORY + 4):
        if s.is_over:
            break
        action = s.legal_actions()[-1]
        first = first or s.notation(action)
        s.apply(action)
    text = s.information_state_string(0)
    assert text.count("Player ") >= len(s.history())
    assert first in text.split("actions: ", 1)[1].split(";")[0]
