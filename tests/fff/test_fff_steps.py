"""The step encoding for learners (issue 20): whole turns taken one step at a time by integer
ids compose exactly the ruled whole turns (FFF-4, FFF-30, FFF-31), the partial turn lives in the
state, and the observation shows it."""

from __future__ import annotations

import math
import random

import pytest
from fff_helpers import GAME, setup
from test_fff_movegen import MID, SMALL

from boardct.core.errors import IllegalAction
from boardct.core.records import record_of
from boardct.games.fff import state as state_mod
from boardct.games.fff import steps
from boardct.games.fff.movegen import canonical as real_canonical


def ids_of(state, *texts: str) -> list[int]:
    return [state.action_id(t) for t in texts]


def play_steps(state, *texts: str) -> list:
    events: list = []
    for t in texts:
        events = state.apply_id(state.action_id(t))
    return events


def composed_turns(state, monkeypatch) -> set:
    """Every whole turn some step sequence from the turn's start composes, by a depth-first
    walk over the steps; partial turns that agree in everything that matters (mover, points,
    phase, boards) are walked once. `canonical` is memoised for this position only (it is the
    same function, asked the same question many times)."""
    memo: dict = {}

    def cached(*args):
        key = args[-1]
        if key not in memo:
            memo[key] = real_canonical(*args)
        return memo[key]

    monkeypatch.setattr(state_mod, "canonical", cached)
    found: set = set()
    seen: set = set()

    def walk(s):
        for sid in s.legal_ids():
            c = s.clone()
            c.apply_id(sid)
            t = c.part
            if t is None:
                found.add(c.history()[-1][1])
                continue
            key = (t.sq, t.code, t.used, t.points, t.phase, tuple(t.main), tuple(t.ghost),
                   tuple(t.lost))
            if key not in seen:
                seen.add(key)
                walk(c)

    walk(state)
    monkeypatch.undo()
    return found


def random_positions(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = GAME.new(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(5, 120)):
            if s.is_over:
                break
            s.apply(rng.choice(s.legal_actions()))
        if not s.is_over:
            out.append(s.position())
    return out


POSITIONS = ({"start": GAME.new(seed=0).position()} | {f"small: {k}": v for k, v in SMALL.items()}
             | {f"mid {i}": t for i, t in enumerate(sorted(MID))}
             | {f"random {i}": t for i, t in enumerate(random_positions(24, 2026))})


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_step_sequences_compose_exactly_the_legal_whole_turns(name, monkeypatch):
    """Both directions: every step sequence composes a turn legal_actions() lists, and every
    listed turn is composed by some step sequence."""
    s = GAME.new(seed=0, position=POSITIONS[name])
    want = set(s.legal_actions())
    got = composed_turns(s, monkeypatch)
    assert got - want == set(), [s.notation(a) for a in got - want][:5]
    assert want - got == set(), [s.notation(a) for a in want - got][:5]


def test_a_turn_in_steps_is_recorded_in_turn_notation():
    """`d1 NE m +y` (FFF-31's example) taken step by step is recorded as that very text."""
    s = GAME.new(seed=0)
    assert play_steps(s, "d1", "NE", "m") == []
    events = play_steps(s, "+y")
    assert events[0] == ("select", 0, "d1", "B2N")
    assert record_of(s).actions == ["d1 NE m +y"]
    assert s.part is None and s.turn == 1


def test_steps_that_spell_a_longer_text_record_the_canonical_turn():
    """`d4 N E` and `d4 E` give one result; the record keeps the canonical one (FFF-31)."""
    s = setup("B1d4N:y,W1d6S")
    play_steps(s, "d4", "W", "E", "end")
    assert record_of(s).actions == ["d4 E"]


def test_select_then_end_and_remove_then_add_back_are_the_pass():
    s = setup("B1d4N:y,W1d6S")
    play_steps(s, "d4", "end")
    play_steps(s, "d6", "end")  # White's turn
    assert record_of(s).actions == ["pass", "pass"]
    s2 = setup("B1d4N:y,W1d6S")
    play_steps(s2, "d4", "-y", "+y")
    assert record_of(s2).actions == ["pass"]


def test_the_partial_turn_lives_in_the_state_and_clones_with_it():
    s = setup("B2d4N,W1d6S")
    play_steps(s, "d4", "m")
    c = s.clone()
    play_steps(c, "E", "end")
    assert s.part is not None and s.part.text() == "d4 m"
    assert s.view(0)["board"]["steps"]["square"] == "d5"
    play_steps(s, "end")
    assert record_of(s).actions == ["d4 m"]
    assert record_of(c).actions == ["d4 m E"]


def test_legal_ids_follow_the_turn_order_of_fff_4():
    """Select first; removal only right after the selection; points up to the piece's points
    (FFF-5); an addition ends the turn; the end step always open once a piece is selected."""
    s = setup("B1d4N:y,W1d6S")
    start_ids = s.legal_ids()
    assert start_ids == sorted(start_ids) and all(i < 128 for i in start_ids)
    assert s.action_id("d4") in start_ids
    play_steps(s, "d4")
    after = s.legal_ids()
    assert s.action_id("-y") in after and s.action_id("end") in after
    play_steps(s, "m")  # 1-pip with yellow: 2 points
    assert s.action_id("-y") not in s.legal_ids()
    play_steps(s, "E")
    assert s.legal_ids() == ids_of(s, "+r", "+g", "+b", "+y", "+p", "+o", "+c", "end")
    play_steps(s, "+r")
    assert s.part is None and record_of(s).actions == ["d4 m E +r"]


def test_no_op_steps_are_not_offered_and_are_refused():
    """Turning to the current facing (FFF-17) and an attack that fails (FFF-13) change
    nothing: no canonical turn holds them, so they are no steps."""
    s = setup("B1d4N,W1d5U")  # 1 against 2 (upright): fails
    play_steps(s, "d4")
    ids = s.legal_ids()
    assert s.action_id("N") not in ids
    assert not any(steps.FAIL <= i < steps.ADD for i in ids)
    with pytest.raises(IllegalAction, match="already faces N"):
        s.apply_id(s.action_id("N"))
    with pytest.raises(IllegalAction, match="fail"):
        s.apply_id(s.action_id("xN"))
    assert s.part.text() == "d4"


def test_refused_steps_change_nothing_and_say_why():
    s = setup("B2d4N,W1d5S")
    before = s.position()
    with pytest.raises(IllegalAction, match="selecting a piece"):
        s.apply_id(s.action_id("m"))
    with pytest.raises(IllegalAction, match="no own in-phase piece on d5"):
        s.apply_id(s.action_id("d5"))
    play_steps(s, "d4")
    snap = (s.part.text(), s.part.sq, s.part.code, s.part.used, s.part.main[:])
    for bad, why in (("m", "occupied"), ("xN/S", "written xD"), ("-r", "carries no field"),
                     ("e4", "already selected"), (999, "not a step id")):
        with pytest.raises(IllegalAction, match=why):
            s.apply_id(s.action_id(bad) if isinstance(bad, str) else bad)
        assert (s.part.text(), s.part.sq, s.part.code, s.part.used, s.part.main) == snap
    assert s.position() == before


def test_points_run_out_by_fff_5():
    s = setup("B1d4N,W1d8S")
    play_steps(s, "d4", "m")
    with pytest.raises(IllegalAction, match="only 1 movement point"):
        s.apply_id(s.action_id("m"))


def test_an_attack_that_decides_the_game_ends_the_turn_at_once():
    """FFF-27: White's last 1-pip piece captured; nothing may follow, the turn is applied."""
    s2 = setup("B2d4N,W1d5S,W2h8S,W3g8S,B1a1N,B3c1N", fill=False)
    play_steps(s2, "d4")
    assert s2.action_id("xE") in s2.legal_ids()
    events = play_steps(s2, "xE")
    assert s2.part is None and s2.is_over
    assert events[-1][0] == "end"
    assert record_of(s2).actions == ["d4 xE"]
    assert s2.legal_ids() == []


def test_clear_destruction_on_removal_ends_the_turn():
    """FFF-26: back in phase on a shared square destroys both; the turn is over (FFF-27)."""
    s = setup("B1d4N:c,W2d4S")
    play_steps(s, "d4~", "-c")
    assert s.part is None
    assert record_of(s).actions == ["d4~ -c"]


def test_whole_turn_apply_mid_steps_is_refused_and_legal_actions_is_empty():
    s = setup("B2d4N,W1d6S")
    play_steps(s, "d4")
    assert s.legal_actions() == []
    with pytest.raises(IllegalAction, match="under way in steps"):
        s.apply(())
    assert s.part is not None


def test_wrong_player_and_finished_game_are_refused():
    s = setup("B2d4N,W1d6S")
    with pytest.raises(IllegalAction, match="Black's turn"):
        s.apply_id(s.action_id("d4"), player=1)
    assert s.legal_ids(1) == []
    s.resign(0)
    assert s.legal_ids() == []
    with pytest.raises(IllegalAction, match="over"):
        s.apply_id(0)


def test_ids_and_texts_round_trip():
    s = GAME.new(seed=0)
    n = s.game_info().num_distinct_actions
    assert n == 244
    for i in range(n):
        assert s.action_id(s.id_action(i)) == i
    for bad in (-1, n, "1", None):
        with pytest.raises(IllegalAction):
            s.id_action(bad)
    for bad in ("zz", "", ("d1",), None):
        with pytest.raises(IllegalAction, match="not an FFF step"):
            s.action_id(bad)


def test_observation_has_its_shape_is_finite_and_shows_the_steps():
    s = setup("B2d4N:y,W1d6S")
    shape = s.game_info().observation_shape
    flat = s.observation_tensor(0)
    assert len(flat) == math.prod(shape) and all(math.isfinite(x) for x in flat)
    assert flat == s.information_state_tensor(0)
    play_steps(s, "d4", "m")
    mid = s.observation_tensor(0)
    assert len(mid) == len(flat) and mid != flat
    d5, d4 = 4 * 8 + 3, 3 * 8 + 3
    assert mid[42 * 64 + d5] == 1.0 and mid[43 * 64 + d4] == 1.0
    assert mid[0 * 64 + d5] == 1.0 and mid[0 * 64 + d4] == 0.0  # own in-phase piece moved
    assert mid[44 * 64 + 24] == 3 / 6 and mid[44 * 64 + 25] == 1 / 6  # 4 points, 1 spent
    assert "steps: d4 m (3 points left)" in s.observation_string(0)
    # relative to the observer: Black's piece is "own" for Black, "opponent's" for White
    assert s.observation_tensor(1)[1 * 64 + d5] == 1.0


def test_random_step_games_end_and_replay_from_their_records():
    from boardct.core.records import replay

    rng = random.Random(7)
    for _ in range(3):
        s = GAME.new(seed=rng.randrange(1000))
        n = 0
        while not s.is_over and n < 20000:
            s.apply_id(rng.choice(s.legal_ids()))
            n += 1
        assert s.is_over
        again = replay(record_of(s))
        assert again.position() == s.position()
        assert again.outcome == s.outcome


def test_the_fast_canonical_of_a_mover_only_turn_agrees_with_the_generator():
    """`canonical_mover` (used when a turn in steps changed only its mover) gives, for every
    such result the whole-turn generator lists, the very turn the generator chose (FFF-31),
    over many random positions."""
    from boardct.games.fff.movegen import PASS_KEY, canonical_mover, generate
    from boardct.games.fff.pieces import NCODES

    checked = 0
    for text in random_positions(40, 99) + list(SMALL.values()) + list(MID):
        s = GAME.new(seed=0, position=text)
        best = generate(s.main, s.ghost, s.pool, s.lost, s.cnt, s.turn)
        for key, (_, toks) in best.items():
            if key.__class__ is not int or key == PASS_KEY:
                continue
            rest, code = divmod(key, NCODES)
            piece, sq = divmod(rest, 64)
            sq0, slot0 = divmod(piece, 2)
            code0 = s.ghost[sq0] if slot0 else s.main[sq0]
            got = canonical_mover(s.main, s.ghost, s.pool, sq0, slot0, code0, sq, code)
            assert got == toks, (text, s.notation(toks), s.notation(got))
            checked += 1
    assert checked > 20000
