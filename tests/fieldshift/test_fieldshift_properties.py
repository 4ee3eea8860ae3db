"""Property tests over random command sequences, valid and invalid (Hypothesis), and many
complete random games."""

import random

from fs_helpers import GAME, assert_hits_agree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core.errors import BoardctError
from boardct.core.records import Record, record_of, replay
from boardct.games.fieldshift.state import PV_SIZE, SKCD

RULESETS = st.sampled_from(["lstd", "stdex", "type-a"])
MODES = st.sampled_from(["dispute", "reject"])
JUNK = st.one_of(
    st.text(alphabet="0123456789", min_size=0, max_size=4),
    st.text(max_size=5),
    st.sampled_from(["06", "05", "08", "01", "00", "09", "02", "03", " 24 ", "4 0"]),
)


def check_invariants(s, mode):
    act, res = s.act, s.res
    s._resync()
    assert (s.act, s.res) == (act, res), "the derived operator masks drifted"
    assert all(0 <= v <= 5 for v in s.vit)
    if mode == "reject":
        assert s.crates(0) >= 0 and s.crates(1) >= 0
    for i in range(20):
        if s.vit[i] == 0:
            assert s.loc[i] == -2 or (s.loc[i] >= 0 and 1 <= s.bleed[i] <= 6)
    for p in range(2):
        sel = s.selected(p)
        assert sel == -1 or s.is_active(sel) or s.is_over


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), ruleset=RULESETS, mode=MODES, data=st.data())
def test_random_command_sequences_never_crash_and_rejections_change_nothing(
        seed, ruleset, mode, data):
    s = GAME.new(seed=seed, ruleset=ruleset, violations=mode)
    for _ in range(data.draw(st.integers(1, 120))):
        if s.is_over:
            break
        if data.draw(st.booleans()):
            text = s.notation(data.draw(st.sampled_from(s.legal_actions())))
        else:
            text = data.draw(JUNK)
        before, hist = s.snapshot(), s._hist
        try:
            s.apply(s.parse(text))
        except BoardctError:
            assert s.snapshot() == before and s._hist is hist
        check_invariants(s, mode)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), ruleset=RULESETS, mode=MODES, steps=st.integers(0, 200))
def test_legal_actions_are_all_accepted_and_clone_is_independent(seed, ruleset, mode, steps):
    rng = random.Random(seed)
    s = GAME.new(seed=seed, ruleset=ruleset, violations=mode)
    for _ in range(steps):
        if s.is_over:
            break
        legal = s.legal_actions()
        assert len(set(legal)) == len(legal)
        copy = s.clone()
        snap = s.snapshot()
        for a in legal:  # every listed action applies without error on a clone
            c = s.clone()
            c.apply(a)
        assert s.snapshot() == snap
        s.apply(rng.choice(legal))
        assert copy.snapshot() == snap  # the clone did not follow the original
        check_invariants(s, mode)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), ruleset=RULESETS, mode=MODES, steps=st.integers(0, 300))
def test_record_replay_gives_the_identical_state(seed, ruleset, mode, steps):
    rng = random.Random(seed)
    s = GAME.new(seed=seed, names=("A", "B"), ruleset=ruleset, violations=mode)
    for _ in range(steps):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_actions()))
    again = replay(Record.from_json(record_of(s).to_json()))
    assert again.snapshot() == s.snapshot()


def test_thousands_of_random_games_end_without_error():
    reasons = {}
    rng = random.Random(2026)
    for k in range(2000):
        s = GAME.new(seed=k, ruleset=("lstd", "stdex", "type-a")[k % 3],
                     violations=("dispute", "reject")[k % 2])
        n = 0
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            n += 1
            assert n < 20000
        reasons[s.outcome.reason] = reasons.get(s.outcome.reason, 0) + 1
    assert sum(reasons.values()) == 2000
    assert set(reasons) <= {"elimination", "turn limit", "dispute"}
    assert reasons.get("elimination", 0) > 0


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**31), mode=MODES, steps=st.integers(10, 40))
def test_legal_hits_agree_with_apply_across_ruleset_switches(seed, mode, steps):
    """FS-11, FS-30, FS-41: at every step of a game that starts under LSTD and switches rulesets
    (`05` and its answers, which legal_actions leaves to the front end), the HITs legal_actions
    lists are exactly those apply accepts (an armed Medic's `3xt` is listed once, as `30t`).
    The skills start ready and are chosen often, so LSTD-armed Blades and Medics get switched."""
    rng = random.Random(seed)
    s = GAME.new(seed=seed, violations=mode)
    s.pv[SKCD] = s.pv[PV_SIZE + SKCD] = 0
    for _ in range(steps):
        if s.is_over:
            break
        assert_hits_agree(s)
        legal = s.legal_actions()
        skills = [a for a in legal if s.notation(a)[0] == "8"]
        if s.pending is None and s.ruleset < 2 and rng.random() < 0.15:
            s.apply(s.parse("05"))
        elif skills and rng.random() < 0.3:
            s.apply(rng.choice(skills))
        else:
            s.apply(rng.choice(legal))
        check_invariants(s, mode)
