"""`FieldShift.score_moves` (the search's hot spot, issue 21) gives exactly the values of the
core default `default_score_moves` (clone, apply, evaluate) for every legal command: the search
then chooses as it would without the fast path, so it loses no strength."""

from __future__ import annotations

import random

import pytest

from boardct.core.game import default_score_moves
from boardct.core.registry import get
from boardct.games.fieldshift import game as fsgame
from boardct.games.fieldshift import state as fsstate

FS = get("fieldshift")


def positions(count: int, seed: int, ruleset: str, longest: int = 400):
    """Positions from random play under `ruleset`: the opening, fights, near the end."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = FS.new(seed=rng.randrange(10**6), ruleset=ruleset)
        for _ in range(rng.randrange(longest)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over:
            out.append(state)
    return out


def check_equal(state) -> int:
    player = state.current_players()[0]
    moves = state.legal_actions(player)
    fast = FS.score_moves(state, player, moves)
    slow = default_score_moves(state, player, moves)
    for move, f, s in zip(moves, fast, slow, strict=True):
        assert f == s, (state.notation(move), f, s)
    return len(moves)


@pytest.mark.parametrize("ruleset", list(FS.option("ruleset").choices))
@pytest.mark.parametrize("seed", [1, 2])
def test_fast_command_scores_equal_the_default_for_every_legal_command(ruleset, seed):
    assert sum(check_equal(s) for s in positions(25, seed, ruleset)) > 300


def test_commands_read_without_playing_them_score_as_played_in_every_situation():
    # Under LSTD most commands are scored from the command itself (what it changes in the
    # evaluation's terms plus what the end of the turn adds), not played. Games under small
    # turn limits, both violation modes, partly greedy (so that fights, kills and
    # eliminations happen): every legal command of every position scores as the default.
    rng = random.Random(21)
    seen = {"draw next turn": 0, "passive heal due": 0, "enemy watching": 0, "quick draw": 0,
            "artillery ready": 0, "under cyberwarfare": 0, "kill": 0, "win": 0}
    for _ in range(24):
        state = FS.new(seed=rng.randrange(10**6), violations=rng.choice(["dispute", "reject"]),
                       turn_limit=rng.choice([0, 300, rng.randrange(10, 80)]))
        while not state.is_over:
            player = state.current_players()[0]
            moves = state.legal_actions(player)
            fast = FS.score_moves(state, player, moves)
            assert fast == default_score_moves(state, player, moves), state.history()
            o, q = player * fsstate.PV_SIZE, 1 - player
            seen["draw next turn"] += bool(state.limit) and state.turn + 1 == state.limit
            seen["passive heal due"] += state.pv[o + fsstate.MEDCTR] > 0 and any(
                0 < state.vit[i] < 5 and state.loc[i] == fsstate.RESERVE
                for i in range(player * 10, player * 10 + 10))
            seen["enemy watching"] += state.watcher(q) >= 0
            seen["quick draw"] += any(state.skl[i] and i % 5 == 4 for i in range(20))
            seen["artillery ready"] += state.artillery_ready(player)
            seen["under cyberwarfare"] += state.under_cyber(player)
            seen["kill"] += any(ev[0] == "down" for a in moves if state.action_group(a) == "HIT"
                                for ev in state.clone().apply(a, player))
            seen["win"] += 1.0 in fast
            greedy = rng.random() < 0.5
            state.apply(moves[fast.index(max(fast))] if greedy else rng.choice(moves), player)
    assert all(seen.values()), seen


def test_fast_command_scores_sum_the_pair_terms_once_per_position(monkeypatch):
    # The whole pair terms (every deployed operator against every enemy) are summed once per
    # call, for the position; a command that moves, deploys or withdraws operators redoes
    # only the pairs they take part in.
    real_all, real_some = fsgame._all_pairs, fsgame._pairs
    whole, some = [], []

    def counting_all(act, loc, pair):
        whole.append(1)
        return real_all(act, loc, pair)

    def counting_some(act, loc, pair, touching):
        some.append(len(touching))
        return real_some(act, loc, pair, touching)

    monkeypatch.setattr(fsgame, "_all_pairs", counting_all)
    monkeypatch.setattr(fsgame, "_pairs", counting_some)
    states = positions(10, 5, "lstd")
    for state in states:
        check_equal(state)
    assert len(whole) == len(states)
    assert all(n < 20 for n in some)


def test_search_key_tells_apart_every_legal_command_and_joins_transpositions():
    # A command changes the position: its key differs from the position's. Two move orders
    # that reach the same position give one key, the same legal commands and the same scores.
    for state in positions(15, 9, "lstd"):
        key = state.search_key()
        player = state.current_players()[0]
        for move in state.legal_actions(player):
            child = state.clone()
            child.apply(move, player)
            assert child.search_key() != key
    joined = 0
    for state in positions(30, 10, "lstd", longest=200):
        by_key: dict = {}
        for a in state.legal_actions():
            s1 = state.clone()
            s1.apply(a)
            if s1.is_over:
                continue
            for b in s1.legal_actions():
                s2 = s1.clone()
                s2.apply(b)
                if s2.is_over:
                    continue
                other = by_key.setdefault(s2.search_key(), s2)
                if other is not s2:
                    joined += 1
                    p = s2.current_players()[0]
                    assert other.current_players() == s2.current_players()
                    moves = s2.legal_actions(p)
                    assert other.legal_actions(p) == moves
                    assert FS.score_moves(other, p, moves) == FS.score_moves(s2, p, moves)
        if joined > 20:
            break
    assert joined > 20


def test_mcts_reuses_the_scores_of_a_transposition_and_chooses_as_without(monkeypatch):
    from boardct.agents import make
    from boardct.arena.bench import mid_game_state

    state = mid_game_state(FS, 1, FS.resolve_options({}))
    player = state.current_players()[0]
    calls = []
    real = FS.score_moves.__func__

    def counting(self, s, p, moves):
        calls.append(1)
        return real(self, s, p, moves)

    with_cache = make("mcts:iters=3000,early=0,reuse=0", seed=3)
    monkeypatch.setattr(type(FS), "score_moves", counting)
    chosen = with_cache.select(state, player)
    value, line = with_cache.report()
    scored = len(calls)
    monkeypatch.setattr(type(state), "search_key", lambda self: None)
    calls.clear()
    without = make("mcts:iters=3000,early=0,reuse=0", seed=3)
    assert without.select(state, player) == chosen
    assert without.report() == (value, line)
    assert scored < len(calls)  # expansions of a transposition were not scored again
