"""Property tests over random turns (valid and invalid), clones, records, and complete random
games that must end cleanly with every position passing the FFF-33 reader."""

import contextlib
import random

from fff_helpers import GAME
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardct.core.errors import BoardctError
from boardct.core.records import Record, record_of, replay
from boardct.games.fff.position import counts, read, write

FRAGMENTS = ["pass", "d1", "e1", "c1", "b1", "d2", "e2", "a1", "h1", "d8", "h8~", "d2~", "m",
             "x", "xN", "xS", "xE/W", "xN/S", "N", "NE", "E", "S", "W", "U", "+r", "+g", "+b",
             "+y", "+p", "+o", "+c", "-r", "-c", "-y", "Z", "xQ", "+", "D1", "m m"]

commands = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=6).map(" ".join)
steps = st.lists(st.one_of(st.integers(0, 10**6), commands), min_size=1, max_size=24)
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def snapshot(s):
    return (s.position(), s.history(), s.outcome)


def check_invariants(s):
    text = s.position()
    b = read(text)  # FFF-33: nesting, square limits, pool + carried = 3, counts + lost
    assert write(b) == text
    assert s.cnt == counts(s.main, s.ghost)


@SETTINGS
@given(steps)
def test_random_valid_and_invalid_turns_never_crash_and_refusals_change_nothing(seq):
    s = GAME.new(seed=1)
    for step in seq:
        if s.is_over:
            break
        if isinstance(step, int):
            actions = s.legal_actions()
            s.apply(actions[step % len(actions)])
        else:
            before = snapshot(s)
            try:
                s.apply(s.parse(step))
            except BoardctError:
                assert snapshot(s) == before
        check_invariants(s)
    again = replay(Record.from_json(record_of(s).to_json()))
    assert again.position() == s.position()
    assert again.outcome == s.outcome


@SETTINGS
@given(st.lists(st.integers(-5, 300), min_size=0, max_size=7))
def test_raw_action_tuples_are_applied_or_refused_cleanly(raw):
    s = GAME.new(seed=2)
    before = snapshot(s)
    try:
        s.apply(tuple(raw))
    except BoardctError:
        assert snapshot(s) == before
    else:
        check_invariants(s)


@SETTINGS
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_clone_is_independent(i, j):
    s = GAME.new(seed=3)
    for k in (i, j):
        s.apply(s.legal_actions()[k % len(s.legal_actions())])
    c = s.clone()
    before = s.position()
    c.apply(c.legal_actions()[(i + j) % len(c.legal_actions())])
    assert s.position() == before
    assert len(c.history()) == len(s.history()) + 1


@SETTINGS
@given(st.text(max_size=30))
def test_arbitrary_text_gives_an_action_or_a_boardct_error(text):
    s = GAME.new(seed=4)
    before = snapshot(s)
    with contextlib.suppress(BoardctError):
        s.parse(text)
    assert snapshot(s) == before
    with contextlib.suppress(BoardctError):
        read(text)


def play_out(seed, limit):
    s = GAME.new(seed=seed, turn_limit=limit)
    rng = random.Random(seed)
    while not s.is_over:
        actions = s.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        s.apply(rng.choice(actions))
        check_invariants(s)
    return s


def test_complete_random_games_end_cleanly_and_replay():
    reasons = set()
    for seed in range(30):
        s = play_out(seed, 200 if seed < 8 else 30)
        out = s.outcome
        assert out is not None and sum(out.returns) == 1.0
        assert s.legal_actions() == [] and s.current_players() == () and s.prompt() == ""
        reasons.add(out.reason.split(" ")[-1])
        again = replay(record_of(s))
        assert again.position() == s.position() and again.outcome == out
        assert GAME.evaluate(s, 0) == out.returns[0] * 2 - 1
    assert "elimination" in reasons  # random play does reach the size-elimination win


def test_evaluate_is_material_based_and_bounded():
    s = GAME.new(seed=0)
    assert GAME.evaluate(s, 0) == 0 == GAME.evaluate(s, 1)
    up = GAME.new(seed=0, position="B3a1N,B2b1N,B1c1N,B1d1N,W3h8S,W2g8S,W1f8S W - 000/200 0")
    assert 0 < GAME.evaluate(up, 0) < 1 and GAME.evaluate(up, 1) == -GAME.evaluate(up, 0)


def test_actions_survive_a_json_round_trip():
    import json

    s = GAME.new(seed=5)
    a = s.parse("d1 NE m +y")
    s.apply(json.loads(json.dumps(a)))
    assert s.history()[-1][1] == a
    assert "B2e2NE:y" in s.position()


def test_generic_bench_runs():
    from boardct.arena import bench

    result = bench.run(GAME, seconds=0.2, seed=1)
    assert result["actions"] > 0 and result["legal_actions_at_mid"] > 1



def test_the_bench_times_the_turn_search_not_the_memory_of_the_last_answer(monkeypatch):
    """FFF answers a position asked again from memory (about 3 us, for people who list the
    moves and then type one); `boardct bench`'s legal_actions figure must be the search: every
    timed call asks about a position not just asked, so each runs the generator (`_turns`),
    which may reuse only pieces of the side's previous position, never the position asked."""
    from boardct.arena import bench
    from boardct.games.fff import movegen

    searches = [0]
    same = [0]
    search = movegen._turns

    def counted(main, ghost, pool, lost, cnt, me, old, new):
        searches[0] += 1
        if old is not None and old[0] == main and old[1] == {s for s in range(64) if ghost[s]}:
            same[0] += 1
        return search(main, ghost, pool, lost, cnt, me, old, new)

    monkeypatch.setattr(movegen, "_turns", counted)
    mid = bench.mid_game_state(GAME, 1, GAME.resolve_options(GAME.bench_options))
    bench._first_ask_us(mid, 1, min_seconds=0.0)
    assert searches[0] >= 1000 * bench.FIRST_ASKS - bench.FIRST_ASKS  # each timed call searched
    assert same[0] == 0
