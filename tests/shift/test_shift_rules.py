"""Scenario tests, one or more per ruling (SH-4..SH-40), with fixed coins (preloaded faces).

Each scenario builds a position with test cards (every gear: one alpha "H" with no effect unless
the scenario says otherwise; gear 1 power 2 guard 2, 2L 3/2, 3 4/3, 2R 3/4), plays commands,
and checks the exact resulting state.
"""

from __future__ import annotations

import pytest
from shift_helpers import at_turn, card, new, play

from boardct.core.errors import IllegalAction
from boardct.core.rng import Rng
from boardct.games.shift.state import (
    P_CRIT,
    P_DEFEND,
    P_END,
    P_OVER,
    P_SHIFT,
    P_START,
    ShiftState,
)

A, D = 0, 1  # in most scenarios seat 0 attacks and seat 1 defends


def duel(tmp_path, c1: dict | None = None, c2: dict | None = None, **options) -> ShiftState:
    """Two test cards; seat 0 to play its shift phase on game turn 2."""
    p1 = card(tmp_path, name="Attacker", **(c1 or {}))
    p2 = card(tmp_path, name="Defender", **(c2 or {}))
    return at_turn(new(p1, p2, first=1, **options), A)


def legal(state: ShiftState) -> list[str]:
    return [state.notation(a) for a in state.legal_actions()]


def illegal(state: ShiftState, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        state.apply(state.parse(text))
    return info.value


# -- coins ------------------------------------------------------------------------------------
def test_sh4_every_coin_is_an_event_and_in_the_log(tmp_path):
    s = duel(tmp_path, c1={"m1": '{ type = "alpha", activation = "HTH" }'})
    s.preload_flips("HTT")
    events = s.apply(s.parse("attack alpha"))
    flips = [e for e in events if e[0] == "flip"]
    assert flips == [("flip", A, "H", "activation 1/3"), ("flip", A, "T", "activation 2/3"),
                     ("flip", A, "T", "activation 3/3")]
    assert s.flip_log()[-3:] == [(A, "H", "activation 1/3"), (A, "T", "activation 2/3"),
                                 (A, "T", "activation 3/3")]
    assert s.describe(flips[0]) == "Player 1 flips: heads (activation 1/3)"


def test_sh4_coins_come_from_the_seed():
    one, two = new(seed=99), new(seed=99)
    for s in (one, two):
        at_turn(s, A)
        s.apply(s.parse("attack alpha"))
    assert one.flip_log() == two.flip_log()
    assert one.rng.s == two.rng.s


def test_sh4_determinize_resamples_only_the_coins_to_come():
    s = at_turn(new(seed=5), A)
    d = s.determinize(A, 1234)
    assert d.view(None) == s.view(None)
    assert d.rng.s != s.rng.s


@pytest.mark.parametrize("pattern, faces, activated, crit", [
    ("HT", "HT", True, True),    # in order: critical
    ("HT", "TH", True, False),   # any order activates, out of order no critical
    ("HT", "HH", False, False),  # fail
    ("HW", "HT", True, True),    # W takes either face, in order
    ("HW", "HH", True, True),
    ("HW", "TH", True, False),   # W took the tail, but H's position shows T: no critical
    ("WT", "TT", True, True),
    ("WW", "TH", True, True),    # all wild: always activates, always in order
    ("HHT", "THH", True, False),
    ("HHT", "HTT", False, False),
])
def test_sh5_sh19_flip_activation_and_critical(tmp_path, pattern, faces, activated, crit):
    mod = f'{{ type = "alpha", activation = "{pattern}", critical = "duo" }}'
    s = duel(tmp_path, c1={"m1": mod})
    s.preload_flips(faces)
    events = s.apply(s.parse("attack alpha"))
    assert ("activation", A, activated, crit, "duo") in events
    assert (("skipped", D, 3) in events) is crit


def test_sh5_no_badge_no_critical_even_in_order(tmp_path):
    s = duel(tmp_path, c1={"m1": '{ type = "alpha", activation = "HT" }'})
    s.preload_flips("HT")
    assert ("activation", A, True, False, "") in s.apply(s.parse("attack alpha"))


def test_sh5_spirit_activation_always_crits(tmp_path):
    mod = '{ type = "alpha", activation = "spirit 2", critical = "duo" }'
    s = duel(tmp_path, c1={"m1": mod})
    s.lit[A] = 3
    events = s.apply(s.parse("attack alpha"))
    assert ("pay", A, 2) in events
    assert ("activation", A, True, True, "duo") in events
    assert (s.lit[A], s.burnt[A]) == (1, 2)
    assert s.phase == P_END and s.skip_turn[D]  # A may still spirit shift; then D is skipped
    assert not [e for e in events if e[0] == "flip"]


# -- start ------------------------------------------------------------------------------------
def _seed_with_toss(heads: bool) -> int:
    return next(seed for seed in range(100) if Rng(seed).coin() is heads)


def test_sh6_sh18_toss_heads_seat0_wins_and_chooses(tmp_path):
    from boardct.core import registry

    game = registry.get("shift")
    s = game.new(seed=_seed_with_toss(True))
    assert s.flip_log() == [(-1, "H", "toss")]
    assert s.toss_winner == 0 and s.current_players() == (0,)
    assert legal(s) == ["first", "second"]
    events = s.apply(s.parse("second"))
    assert events[0] == ("first", 1, 0)
    assert (s.first, s.mover, s.turn) == (1, 1, 1)


def test_sh18_toss_tails_seat1_wins():
    from boardct.core import registry

    s = registry.get("shift").new(seed=_seed_with_toss(False))
    assert s.flip_log() == [(-1, "T", "toss")]
    assert s.toss_winner == 1 and s.current_players() == (1,)
    s.apply(s.parse("first"))
    assert (s.first, s.mover, s.turn) == (1, 1, 1)


def test_sh6_sh21_first_player_cannot_attack_on_turn_one_but_may_pass(tmp_path):
    s = new(card(tmp_path, name="A"), card(tmp_path, name="B"), first=0)
    assert (s.turn, s.mover, s.phase) == (1, 0, P_SHIFT)
    assert legal(s) == ["shift 2L", "shift 2R", "pass"]
    err = illegal(s, "attack alpha")
    assert err.rule == "SH-21"
    play(s, "pass")
    assert (s.turn, s.mover, s.gear) == (2, 1, [0, 0])
    assert "pass" not in legal(s)  # SH-22: turn 2, an attack is declarable
    assert legal(s) == ["attack alpha", "shift 2L", "shift 2R"]


# -- the turn ---------------------------------------------------------------------------------
def test_sh7_start_phase_spirit_shift_then_attack(tmp_path):
    s = duel(tmp_path, c1={"p2r": 6})
    s.phase = P_START
    s.lit[A] = 1
    assert legal(s) == ["pass", "shift 2L", "shift 2R"]
    play(s, "shift 2R")
    assert (s.gear[A], s.lit[A], s.burnt[A], s.phase) == (3, 0, 1, P_SHIFT)
    s.preload_flips("H")
    lines = play(s, "attack alpha")
    assert "Power 6 against guard 2: hit" in lines
    assert s.gear[A] == 0 and s.lit[D] == 1


def test_sh7_shift_phase_shift_skips_the_attack(tmp_path):
    s = duel(tmp_path)
    lines = play(s, "shift 2L")
    assert lines[0] == "Player 1 shifts from 1 to 2L"
    assert (s.gear[A], s.mover, s.turn) == (1, D, 3)  # no attack; the turn went on
    assert not [line for line in lines if "attacks" in line]


def test_sh7_attack_is_mandatory_when_not_shifting(tmp_path):
    s = duel(tmp_path)
    assert illegal(s, "pass").rule == "SH-22"


def test_sh7_end_phase_spirit_shift_after_shifting(tmp_path):
    s = duel(tmp_path)
    s.lit[A] = 1
    s.phase = P_START
    play(s, "pass")
    play(s, "shift 2L")
    assert s.phase == P_END and legal(s) == ["pass", "shift 1", "shift 3"]
    play(s, "shift 3")
    assert (s.gear[A], s.lit[A], s.burnt[A], s.mover) == (2, 0, 1, D)


def test_sh8_attack_subphases_in_order(tmp_path):
    mod = ('{ type = "alpha", activation = "H", critical = "heal", effects = [ { op = "power", '
           'n = 2 } ] }')
    s = duel(tmp_path, c1={"m2l": mod})
    s.gear = [1, 1]
    s.burnt[A] = 1
    s.lit[D] = 1
    play(s, "attack alpha")
    assert s.phase == P_DEFEND and s.current_players() == (D,)
    s.preload_flips("H")
    events = s.apply(s.parse("guard active 1"))
    kinds = [e[0] for e in events]
    assert kinds[:10] == ["guard", "flip", "activation", "stat", "compare", "damage",
                          "downshift", "downshift", "critical", "heal"]
    assert events[4] == ("compare", A, 5, 4, True)


@pytest.mark.parametrize("gear, actives", [(1, ["1"]), (3, ["1"]), (2, ["1", "2L", "2R"])])
def test_sh9_sh27_active_guard_options_go_by_level(tmp_path, gear, actives):
    s = duel(tmp_path)
    s.gear[D] = gear
    play(s, "attack alpha")
    got = [a.split()[2] for a in legal(s) if a.startswith("guard active")]
    assert got == actives
    if gear != 2:
        other = 3 if gear == 1 else 1  # the other gear 2 is not below (SH-27)
        err = illegal(s, f"guard active {('2L', '2R')[other == 3]}")
        assert err.rule == "SH-27" and "below level 2" in err.reason


def test_sh9_gear1_cannot_active_guard(tmp_path):
    s = duel(tmp_path)
    s.lit[D] = 1
    play(s, "attack alpha")
    assert legal(s) == ["guard none", "guard spirit 2L", "guard spirit 3", "guard spirit 2R"]
    assert illegal(s, "guard active 1").rule == "SH-27"


def test_sh9_sh27_spirit_guard_any_other_gear_one_spirit_each(tmp_path):
    s = duel(tmp_path, c2={"g3": 5})
    s.gear[D] = 1  # 2L
    s.lit[D] = 2
    play(s, "attack alpha")
    assert "guard active 1 spirit 3 2R" in legal(s)
    assert "guard spirit 1 3 2R" not in legal(s)  # three gears, two spirit (SH-22)
    assert illegal(s, "guard spirit 1 3 2R").rule == "SH-22"
    assert illegal(s, "guard spirit 2L").rule == "SH-27"  # the current gear
    assert illegal(s, "guard active 1 spirit 1").rule == "SH-27"  # not twice
    s.preload_flips("H")
    events = s.apply(s.parse("guard active 1 spirit 3"))
    assert events[0] == ("guard", D, 0, 0b0100, 2 + 5)
    assert ("compare", A, 2, 2 + 2 + 5, False) in events
    assert (s.lit[D], s.burnt[D], s.gear[D]) == (1, 1, 0)


def test_sh10_power_must_exceed_guard_tie_fails(tmp_path):
    s = duel(tmp_path, c1={"p1": 2}, c2={"g1": 2})
    s.preload_flips("H")
    lines = play(s, "attack alpha")
    assert "Power 2 against guard 2: miss" in lines
    assert s.damage(D) == 0


def test_sh10_hit_deals_one_damage_lit(tmp_path):
    s = duel(tmp_path, c1={"p1": 3})
    s.preload_flips("T")  # the mod fails; the printed power still hits
    lines = play(s, "attack alpha")
    assert "Power 3 against guard 2: hit" in lines
    assert "Player 2 takes 1 damage (attack); damage zone 1/5" in lines
    assert (s.lit[D], s.burnt[D]) == (1, 0)


def test_sh10_damage_critical_adds_one_on_success(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "damage" }'
    s = duel(tmp_path, c1={"p1": 3, "m1": mod})
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert [e for e in events if e[0] == "damage"] == [
        ("damage", D, 1, "attack"), ("damage", D, 2, "damage critical")]


def test_sh11_attacker_returns_to_gear_1_even_after_a_failed_activation(tmp_path):
    s = duel(tmp_path)
    s.gear[A] = 2
    s.preload_flips("T")
    lines = play(s, "attack alpha")
    assert "Player 1 downshifts from 3 to 1" in lines
    assert s.gear[A] == 0


@pytest.mark.parametrize("kind, check", [
    ("heal", lambda s: (s.lit[A], s.burnt[A]) == (1, 0)),
    ("refresh", lambda s: (s.lit[A], s.burnt[A]) == (2, 0)),
    ("duo", lambda s: s.skip_turn[D]),
    ("shift", lambda s: s.phase == P_CRIT and s.current_players() == (A,)),
])
def test_sh12_criticals_resolve_after_the_downshift(tmp_path, kind, check):
    mod = f'{{ type = "alpha", activation = "H", critical = "{kind}" }}'
    s = duel(tmp_path, c1={"m3": mod})
    s.gear[A] = 2
    s.lit[A], s.burnt[A] = 1, 1
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    kinds = [e[0] for e in events]
    assert kinds.index("downshift") < kinds.index("critical")
    assert check(s)


# -- spirit and winning -----------------------------------------------------------------------
def test_sh13_burning_needs_spirit_and_healing_takes_burnt_first(tmp_path):
    mod = ('{ type = "alpha", activation = "H", effects = [ { op = "heal", n = 2 } ] }')
    s = duel(tmp_path, c1={"m1": mod})
    s.lit[A], s.burnt[A] = 2, 1
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert ("heal", A, 2) in events
    assert (s.lit[A], s.burnt[A]) == (1, 0)  # the burnt one first, then a lit one


def test_sh14_sh37_damage_with_five_tokens_loses_reaching_five_does_not(tmp_path):
    s = duel(tmp_path, c1={"p1": 5})
    s.burnt[D] = 4
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.damage(D) == 5 and s.outcome is None
    at_turn(s, A, turn=4)
    play(s, "attack alpha")  # D now has 1 spirit: a defence decision
    s.preload_flips("H")
    events = s.apply(s.parse("guard none"))
    assert events[-1] == ("win", A, "attack")
    assert s.phase == P_OVER and s.current_players() == () and s.legal_actions() == []
    assert s.outcome is not None and s.outcome.winners == (A,)
    assert s.outcome.describe() == "Player 1 wins (damage)"
    assert s.lit[D] + s.burnt[D] == 5
    assert illegal(s, "pass").rule == "SH-14"


def test_sh37_burnt_tokens_count_for_the_loss(tmp_path):
    s = duel(tmp_path, c1={"p1": 9})
    s.burnt[D] = 5
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.winner == A


def test_sh15_sh38_turn_limit_draw_counts_turns(tmp_path):
    s = new(card(tmp_path, name="A"), card(tmp_path, name="B"), first=0, turn_limit=3)
    play(s, "pass")  # turn 1
    play(s, "shift 2L")  # turn 2
    assert s.outcome is None and s.turn == 3
    events = s.apply(s.parse("shift 2R"))  # turn 3 ends: draw
    assert events[-1] == ("draw", "turn limit 3")
    assert s.outcome is not None and s.outcome.is_draw
    assert s.outcome.describe() == "draw (turn limit)"


def test_sh38_a_win_in_the_last_turn_stands(tmp_path):
    s = duel(tmp_path, c1={"p1": 9}, turn_limit=2)
    s.burnt[D] = 5
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.winner == A and s.outcome.winners == (A,)


def test_sh15_default_turn_limit_is_200():
    from boardct.core import registry

    game = registry.get("shift")
    assert game.option("turn_limit").default == 200
    assert new().limit == 200


# -- fine points ------------------------------------------------------------------------------
def test_sh16_shift_moves_one_step_on_the_ring(tmp_path):
    s = duel(tmp_path)
    assert illegal(s, "shift 3").rule == "SH-16"
    s.gear[A] = 1
    assert legal(s) == ["attack alpha", "shift 1", "shift 3"]
    s.gear[A] = 2
    assert legal(s) == ["attack alpha", "shift 2L", "shift 2R"]
    s.gear[A] = 3
    assert illegal(s, "shift 2L").rule == "SH-16"


def test_sh17_attack_names_the_type_used(tmp_path):
    mods = '{ type = "beta", activation = "T" }, { type = "omega", activation = "H" }'
    s = duel(tmp_path, c1={"m1": mods})
    assert legal(s)[:2] == ["attack beta", "attack omega"]
    assert illegal(s, "attack alpha").rule == "SH-17"
    s.preload_flips("T")
    events = s.apply(s.parse("attack beta"))
    assert events[0][:3] == ("declare", A, "beta")


def test_sh20_every_pattern_coin_is_flipped_then_extra_coins_after_success(tmp_path):
    mod = ('{ type = "alpha", activation = "HH", effects = [ { op = "power", n = 1 }, '
           '{ op = "flip", coins = 2, per = "T", do = [ { op = "power", n = 2 } ] }, '
           '{ op = "flip", coins = 1, per = "H", do = [ { op = "guard", n = 1 } ] } ] }')
    s = duel(tmp_path, c1={"m1": mod})
    s.preload_flips("TH")  # settled after one coin, the second is still flipped
    events = s.apply(s.parse("attack alpha"))
    assert [e[3] for e in events if e[0] == "flip"] == ["activation 1/2", "activation 2/2"]
    at_turn(s, A, turn=4)
    s.preload_flips("HH" + "TTH")
    events = s.apply(s.parse("attack alpha"))
    assert [e[2:] for e in events if e[0] == "flip"] == [
        ("H", "activation 1/2"), ("H", "activation 2/2"), ("T", "extra 1/3"),
        ("T", "extra 2/3"), ("H", "extra 3/3")]
    assert [e for e in events if e[0] == "stat"] == [
        ("stat", A, "power", 1), ("stat", A, "power", 2), ("stat", A, "power", 2),
        ("stat", A, "guard", 1)]
    assert ("compare", A, 2 + 5, 2, True) in events


def test_sh22_spirit_mod_needs_spirit_to_declare(tmp_path):
    mods = '{ type = "alpha", activation = "spirit 2" }'
    s = duel(tmp_path, c1={"m1": mods})
    s.lit[A] = 1
    assert legal(s) == ["shift 2L", "shift 2R", "pass"]
    assert illegal(s, "attack alpha").reason == \
        "'attack alpha': the mod costs 2 spirit and you have 1"
    s.lit[A] = 2
    assert legal(s) == ["attack alpha", "shift 2L", "shift 2R"]


def test_sh22_no_spirit_shift_offer_without_spirit(tmp_path):
    s = duel(tmp_path)
    s.phase = P_START
    assert legal(s) == ["pass"]
    assert illegal(s, "shift 2L").rule == "SH-22"


def test_sh22_pass_only_if_a_card_effect_bars_the_shift(tmp_path):
    s = duel(tmp_path, c1={"m1": '{ type = "alpha", activation = "spirit 1" }'})
    s.mover = D  # D plays turn 2; A, without spirit, has its shift barred
    s.skip_shift[A] = True
    events = s.apply(s.parse("shift 2L"))
    # A's turn 3: no spirit shift offer, and the shift phase offers only pass: applied
    assert ("turn", A, 3) in events and ("pass", A) in events
    assert ("turn", D, 4) in events
    assert s.skip_shift[A] is False
    assert [s.notation(a) for _, a in s.history()][-1] == "shift 2L"


def test_sh22_barred_shift_with_an_attack_leaves_only_the_attack(tmp_path):
    s = duel(tmp_path, c1={"m1": '{ type = "alpha", activation = "HT" }, '
                                  '{ type = "beta", activation = "T" }'})
    s.skip_shift[A] = True
    assert legal(s) == ["attack alpha", "attack beta"]
    assert illegal(s, "shift 2L").rule == "SH-35"
    s.preload_flips("HT")
    play(s, "attack alpha")
    assert s.skip_shift[A] is False  # used by this shift phase


def test_sh23_spirit_burnt_after_declaration_fails_the_activation(tmp_path):
    mod = '{ type = "alpha", activation = "spirit 2", critical = "duo" }'
    burner = ('triggers = [ { on = "guard_declared", do = [ { op = "burn_opponent", n = 1 } ] } ]')
    s = duel(tmp_path, c1={"m1": mod, "p1": 9}, c2={"top": burner})
    s.lit[A] = 2
    s.lit[D] = 1
    play(s, "attack alpha")
    events = s.apply(s.parse("guard spirit 3"))
    assert ("burn", A, 1) in events
    assert ("activation", A, False, False, "duo") in events
    assert ("pay", A, 2) not in events
    assert (s.lit[A], s.burnt[A]) == (1, 1)  # only the burnt one; nothing paid
    assert not s.skip_turn[D]


def test_sh24_start_phase_ends_temporary_changes_then_triggers_then_offer(tmp_path):
    top = 'triggers = [ { on = "turn_start", do = [ { op = "power", n = 1 } ] } ]'
    s = duel(tmp_path, c1={"top": top})
    s.mover = D  # D plays turn 2, then A's start phase
    s.tp[A], s.tg[A] = 3, -2  # from own mods and from the opponent's
    s.tp[D] = 1
    s.skip_shift[A] = True
    s.lit[A] = 1
    events = s.apply(s.parse("shift 2L"))
    kinds = [e[0] for e in events]
    start = kinds.index("turn")
    assert kinds[start:] == ["turn", "cleanup", "trigger", "stat"]
    assert events[start + 1] == ("cleanup", A, 3, -2)
    assert (s.tp[A], s.tg[A]) == (1, 0)  # cleaned, then the trigger's +1
    assert s.tp[D] == 1  # the other card keeps its changes
    assert s.skip_shift[A] is True  # pending effects are untouched
    assert s.phase == P_START and legal(s) == ["pass", "shift 2L", "shift 2R"]


def test_sh25_guard_from_own_attack_lasts_through_the_opponents_attack(tmp_path):
    mod = '{ type = "alpha", activation = "H", effects = [ { op = "guard", n = 2 } ] }'
    s = duel(tmp_path, c1={"m1": mod}, c2={"p1": 4})
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.tg[A] == 2 and s.mover == D
    s.preload_flips("T")
    events = s.apply(s.parse("attack alpha"))
    assert ("compare", D, 4, 4, False) in events
    # it lasted until A's own next start phase, which follows D's turn
    assert events.index(("cleanup", A, 0, 2)) > events.index(("compare", D, 4, 4, False))


def test_sh26_spirit_shift_then_shift_two_steps_no_attack(tmp_path):
    s = duel(tmp_path)
    s.phase = P_START
    s.lit[A] = 2
    play(s, "shift 2L", "shift 3")
    assert s.gear[A] == 2 and s.mover == D  # no end-phase offer: spirit shift already used
    assert (s.lit[A], s.burnt[A]) == (1, 1)


def test_sh26_end_phase_spirit_shift_starts_from_gear_1_after_an_attack(tmp_path):
    s = duel(tmp_path)
    s.gear[A] = 2
    s.lit[A] = 1
    s.preload_flips("T")
    play(s, "attack alpha")
    assert s.phase == P_END and s.gear[A] == 0
    assert legal(s) == ["pass", "shift 2L", "shift 2R"]


def test_sh28_guarding_lends_printed_guard_only_never_deltas(tmp_path):
    delta = ('{ type = "alpha", activation = "H" }, '
             '{ type = "delta", statics = [ { stat = "guard", n = 3 } ] }')
    s = duel(tmp_path, c1={"p1": 6}, c2={"m3": delta, "g3": 1})
    s.lit[D] = 1
    play(s, "attack alpha")
    s.preload_flips("T")
    events = s.apply(s.parse("guard spirit 3"))
    assert ("compare", A, 6, 2 + 1, True) in events


def test_sh29_stats_floor_at_zero_and_are_read_at_damage(tmp_path):
    mod = '{ type = "alpha", activation = "H", effects = [ { op = "guard", n = -5, target = ' \
          '"opponent" } ] }'
    s = duel(tmp_path, c1={"p1": 0, "m1": mod}, c2={"g1": 2})
    s.tp[A] = -3
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert ("compare", A, 0, 0, False) in events  # both floored: a tie fails


def test_sh29_sh30_constant_text_of_both_cards(tmp_path):
    ability = 'statics = [ { stat = "power", n = -1, target = "opponent" } ]'
    delta = ('{ type = "alpha", activation = "H" }, '
             '{ type = "delta", statics = [ { stat = "guard", n = 2 } ] }')
    atk_delta = ('{ type = "alpha", activation = "H" }, '
                 '{ type = "delta", statics = [ { stat = "power", n = 2 } ] }')
    s = duel(tmp_path, c1={"m2l": atk_delta}, c2={"top": ability, "m2r": delta})
    s.gear = [1, 3]
    assert s.power(A) == 3 + 2 - 1 and s.guard(D) == 4 + 2
    play(s, "attack alpha")
    s.preload_flips("H")
    events = s.apply(s.parse("guard none"))
    assert ("compare", A, 4, 6, False) in events
    # SH-30: after its downshift the attacker's gear 1 has no delta
    assert s.power(A) == 2 - 1


def test_sh31_defender_that_does_not_guard_stays_in_its_gear(tmp_path):
    s = duel(tmp_path)
    s.gear[D] = 2
    s.lit[D] = 1
    play(s, "attack alpha")
    s.preload_flips("H")
    play(s, "guard none")
    assert s.gear[D] == 2


def test_sh31_useless_guard_still_downshifts(tmp_path):
    s = duel(tmp_path, c2={"g2r": 9})
    s.gear[D] = 3
    play(s, "attack alpha")
    s.preload_flips("T")
    play(s, "guard active 1")
    assert s.gear[D] == 0


def test_sh32_critical_applies_on_a_missed_attack_but_damage_critical_needs_a_hit(tmp_path):
    heal = '{ type = "alpha", activation = "H", critical = "heal" }'
    s = duel(tmp_path, c1={"m1": heal}, c2={"g1": 9})
    s.burnt[A] = 2
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert ("compare", A, 2, 9, False) in events and ("heal", A, 1) in events
    assert s.burnt[A] == 1
    dmg = '{ type = "alpha", activation = "H", critical = "damage" }'
    s = duel(tmp_path, c1={"m1": dmg}, c2={"g1": 9})
    s.preload_flips("H")
    lines = play(s, "attack alpha")
    assert "Player 1's damage critical: no extra damage, the attack missed" in lines
    assert s.damage(D) == 0


def test_sh33_four_tokens_hit_with_damage_critical_loses_on_the_critical(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "damage" }'
    s = duel(tmp_path, c1={"p1": 5, "m1": mod})
    s.burnt[D] = 4
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert [e for e in events if e[0] in ("damage", "win")] == [
        ("damage", D, 5, "attack"), ("win", A, "damage critical")]
    assert s.outcome is not None and s.outcome.winners == (A,)


def test_sh33_loss_ends_the_game_on_the_spot(tmp_path):
    trig = 'triggers = [ { on = "hit_dealt", do = [ { op = "heal", n = 1 } ] } ]'
    mod = ('{ type = "alpha", activation = "H", critical = "duo", on_hit = [ { op = "heal", '
           'n = 1 } ] }')
    s = duel(tmp_path, c1={"p1": 5, "m2l": mod, "top": trig})
    s.gear[A] = 1
    s.burnt[A] = 2
    s.burnt[D] = 5
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert [e[0] for e in events][-2:] == ["compare", "win"]
    assert s.gear[A] == 1 and s.burnt[A] == 2 and not s.skip_turn[D]


def test_sh34_shift_critical_then_end_phase_spirit_shift(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "shift" }'
    s = duel(tmp_path, c1={"m2l": mod})
    s.gear[A] = 1
    s.lit[A] = 1
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.phase == P_CRIT and legal(s) == ["pass", "shift 2L", "shift 2R"]
    lines = play(s, "shift 2L")
    assert lines == ["Player 1 shifts for free from 1 to 2L (critical)"]
    assert s.phase == P_END and s.lit[A] == 1
    play(s, "shift 3")
    assert (s.gear[A], s.lit[A], s.burnt[A]) == (2, 0, 1)


def test_sh34_shift_critical_may_stay(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "shift" }'
    s = duel(tmp_path, c1={"m1": mod})
    s.preload_flips("H")
    play(s, "attack alpha", "pass")
    assert s.gear[A] == 0 and s.mover == D


def test_sh35_duo_skips_the_next_turn_without_any_phase(tmp_path):
    duo = '{ type = "alpha", activation = "H", critical = "duo" }'
    top = 'triggers = [ { on = "turn_start", do = [ { op = "heal", n = 1 } ] } ]'
    s = duel(tmp_path, c1={"m1": duo, "p1": 0}, c2={"top": top, "g1": 9})
    s.tg[D] = 2
    s.skip_shift[D] = True
    s.burnt[D] = 2
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))  # misses: duo still applies
    assert ("skipped", D, 3) in events
    assert ("turn", A, 4) in events
    assert (s.mover, s.turn) == (A, 4)
    assert s.tg[D] == 2 and s.burnt[D] == 2  # no cleanup, no trigger
    assert s.skip_shift[D] is True  # waits for D's next played shift phase
    assert not s.skip_turn[D]


def test_sh35_skipped_turn_counts_for_the_turn_limit(tmp_path):
    duo = '{ type = "alpha", activation = "H", critical = "duo" }'
    s = duel(tmp_path, c1={"m1": duo}, turn_limit=3)
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert events[-2:] == [("skipped", D, 3), ("draw", "turn limit 3")]


def test_sh36_heal_critical_with_an_empty_zone_does_nothing(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "heal" }'
    s = duel(tmp_path, c1={"m1": mod})
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert ("heal", A, 0) in events and s.damage(A) == 0


def test_sh36_refresh_critical_includes_the_tokens_just_burnt(tmp_path):
    mod = '{ type = "alpha", activation = "spirit 2", critical = "refresh" }'
    s = duel(tmp_path, c1={"m1": mod})
    s.lit[A], s.burnt[A] = 2, 1
    events = s.apply(s.parse("attack alpha"))
    assert ("refresh", A, 3) in events
    assert (s.lit[A], s.burnt[A]) == (3, 0)


def test_sh36_effects_do_as_much_as_they_can(tmp_path):
    mod = ('{ type = "alpha", activation = "H", effects = [ { op = "refresh", n = 3 }, '
           '{ op = "burn_opponent", n = 4 }, { op = "heal", n = 5 } ] }')
    s = duel(tmp_path, c1={"m1": mod})
    s.lit[A], s.burnt[A] = 0, 1
    s.lit[D] = 2
    play(s, "attack alpha")
    s.preload_flips("H")
    events = s.apply(s.parse("guard none"))
    assert ("refresh", A, 1) in events and ("burn", D, 2) in events and ("heal", A, 1) in events
    assert (s.lit[A], s.burnt[A], s.lit[D], s.burnt[D]) == (0, 0, 0, 2)


def test_sh39_single_option_decisions_apply_by_themselves_unrecorded(tmp_path):
    s = duel(tmp_path)
    s._hist = None
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert events[1] == ("guard", D, -1, 0, 0)  # gear 1 without spirit: no decision
    assert s.describe(events[1]) == "Player 2 does not guard"
    assert [s.notation(a) for _, a in s.history()] == ["attack alpha"]
    assert (s.mover, s.phase) == (D, P_SHIFT)  # A's end phase and D's start phase, no spirit


def test_sh40_hit_order_damage_on_hit_hit_dealt_hit_taken(tmp_path):
    atk_top = 'triggers = [ { on = "hit_dealt", do = [ { op = "guard", n = 1 } ] } ]'
    def_top = ('triggers = [ { on = "damage_taken", do = [ { op = "power", n = 1 } ] }, '
               '{ on = "hit_taken", do = [ { op = "refresh", n = 1 } ] } ]')
    mod = '{ type = "alpha", activation = "H", on_hit = [ { op = "extra_damage", n = 1 } ] }'
    s = duel(tmp_path, c1={"p1": 5, "m1": mod, "top": atk_top}, c2={"top": def_top})
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    got = [(e[0], e[1]) + ((e[2],) if e[0] == "trigger" else ()) for e in events
           if e[0] in ("damage", "trigger")]
    assert got == [("damage", D), ("trigger", D, "ability"), ("damage", D),
                   ("trigger", D, "ability"), ("trigger", A, "ability"),
                   ("trigger", D, "ability")]
    assert [e[3] for e in events if e[0] == "trigger"] == [
        "damage_taken", "damage_taken", "hit_dealt", "hit_taken"]
    assert s.tg[A] == 1
    assert ("cleanup", D, 2, 0) in events  # D's +2 power lasted until D's start phase


def test_sh40_ability_triggers_before_deltas_in_file_order(tmp_path):
    top = ('triggers = [ { on = "turn_end", do = [ { op = "power", n = 1 } ] }, '
           '{ on = "turn_end", do = [ { op = "power", n = 2 } ] } ]')
    delta = ('{ type = "alpha", activation = "H" }, { type = "delta", triggers = [ '
             '{ on = "turn_end", do = [ { op = "power", n = 3 } ] } ] }')
    s = duel(tmp_path, c1={"top": top, "m2l": delta})
    events = s.apply(s.parse("shift 2L"))
    assert [e[3] for e in events if e[0] == "stat"] == [1, 2, 3]
    assert [e[2] for e in events if e[0] == "trigger"] == ["ability", "ability",
                                                           "gear 2L delta"]


def test_sh40_damage_taken_does_not_fire_on_the_losing_token(tmp_path):
    top = 'triggers = [ { on = "damage_taken", do = [ { op = "power", n = 1 } ] } ]'
    s = duel(tmp_path, c1={"p1": 9}, c2={"top": top})
    s.lit[D] = 5
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert not [e for e in events if e[0] == "trigger"]


def test_effect_conditions_are_checked_when_the_op_runs(tmp_path):
    mod = ('{ type = "alpha", activation = "H", effects = [ { op = "power", n = 3, '
           'if = { damage_min = 2 } }, { op = "guard", n = 1, if = { defender_guarded = true } }'
           ' ] }')
    s = duel(tmp_path, c1={"m1": mod})
    s.preload_flips("H")
    events = s.apply(s.parse("attack alpha"))
    assert not [e for e in events if e[0] == "stat"]
    at_turn(s, A, turn=4)
    s.lit[A] = 2
    s.lit[D] = 1
    s.gear[D] = 1
    play(s, "attack alpha")
    s.preload_flips("H")
    events = s.apply(s.parse("guard active 1"))
    assert [e for e in events if e[0] == "stat"] == [("stat", A, "power", 3),
                                                      ("stat", A, "guard", 1)]


def test_ignore_guard_parts(tmp_path):
    for part, expected in (("guarding", 2 + 1), ("bonuses", 2)):
        mod = (f'{{ type = "alpha", activation = "H", effects = [ {{ op = "ignore_guard", '
               f'part = "{part}" }} ] }}')
        s = duel(tmp_path, c1={"m1": mod}, c2={"top": 'statics = [ { stat = "guard", n = 1 } ]'})
        s.gear[D] = 1
        s.lit[D] = 1
        s.tg[D] = 0
        play(s, "attack alpha")
        s.preload_flips("H")
        events = s.apply(s.parse("guard active 1 spirit 3"))
        assert [e[3] for e in events if e[0] == "compare"] == [expected]


def test_skip_shift_phase_from_on_hit_bars_the_next_played_shift_phase(tmp_path):
    mod = '{ type = "alpha", activation = "H", on_hit = [ { op = "skip_shift_phase" } ] }'
    s = duel(tmp_path, c1={"p1": 5, "m1": mod})
    s.preload_flips("H")
    play(s, "attack alpha")
    assert s.skip_shift[D] and s.mover == D
    assert legal(s) == ["attack alpha"] or s.phase != P_SHIFT


def test_sh31_non_guarding_defenders_gear_deltas_apply_in_the_critical_subphase(tmp_path):
    mod = '{ type = "alpha", activation = "H", critical = "damage" }'
    delta = ('{ type = "alpha", activation = "H" }, { type = "delta", triggers = [ '
             '{ on = "damage_taken", do = [ { op = "guard", n = 1 } ] } ] }')
    s = duel(tmp_path, c1={"p1": 9, "m1": mod}, c2={"m3": delta})
    s.gear[D] = 2
    play(s, "attack alpha")
    s.preload_flips("H")
    events = s.apply(s.parse("guard none"))
    sources = [(e[2], e[3]) for e in events if e[0] == "trigger"]
    assert sources == [("gear 3 delta", "damage_taken"), ("gear 3 delta", "damage_taken")]
    assert s.gear[D] == 2 and s.damage(D) == 2


def test_sh27_spirit_guard_stays_burnt_whatever_follows(tmp_path):
    s = duel(tmp_path, c1={"p1": 0})
    s.lit[D] = 2
    play(s, "attack alpha")
    s.preload_flips("T")
    events = s.apply(s.parse("guard spirit 3 2R"))
    assert ("activation", A, False, False, "") in events
    assert (s.lit[D], s.burnt[D]) == (0, 2)
