"""`FFFGame.score_moves` (the search's hot spot, issue 21) gives exactly the values of the core
default `default_score_moves` (clone, apply, evaluate) for every legal turn: the search then
chooses as it would without the fast path, so it loses no strength."""

from __future__ import annotations

import random

import pytest

from boardct.core.game import default_score_moves
from boardct.core.registry import get
from boardct.games.fff import game as fffgame
from boardct.games.fff.pieces import CLEAR, T_ADD, T_REMOVE

FFF = get("fff")


def positions(count: int, seed: int, turn_limit: int = 200, longest: int = 80):
    """Positions from random play: openings, middle games with captures and fields, ends."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = FFF.new(seed=rng.randrange(10**6), turn_limit=turn_limit)
        for _ in range(rng.randrange(longest)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_over:
            out.append(state)
    return out


def check_equal(state) -> int:
    """Fast and default values agree bit for bit for every legal turn; returns the count."""
    player = state.current_players()[0]
    moves = state.legal_actions(player)
    fast = FFF.score_moves(state, player, moves)
    slow = default_score_moves(state, player, moves)
    for move, f, s in zip(moves, fast, slow, strict=True):
        assert f == s, (state.position(), state.notation(move), f, s)
    return len(moves)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_fast_turn_scores_equal_the_default_for_every_legal_turn_of_random_positions(seed):
    checked = sum(check_equal(s) for s in positions(12, seed))
    assert checked > 3000


def test_fast_turn_scores_equal_the_default_where_a_quiet_turn_reaches_the_turn_limit():
    # FFF-28: the turn that reaches the limit without a capture draws; a capture does not.
    states = [s for s in positions(40, 7, turn_limit=12, longest=12) if s.count == 11]
    assert states
    for state in states:
        check_equal(state)
        player = state.current_players()[0]
        moves = state.legal_actions(player)
        assert 0.5 in FFF.score_moves(state, player, moves)


def test_fast_turn_scores_cover_clear_fields_and_captures_by_playing_them(monkeypatch):
    # Turns whose effect depends on the board (an attack that lands, a clear field added or
    # removed: FFF-14/26 may destroy two pieces) are played, not read; the rest are read.
    seen_clear = seen_read = seen_played = 0
    real = fffgame.play
    calls = []

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(fffgame, "play", counting)
    for state in positions(20, 11):
        player = state.current_players()[0]
        moves = state.legal_actions(player)
        before = len(calls)
        check_equal(state)
        played = len(calls) - before
        seen_played += played
        seen_read += len(moves) - played
        seen_clear += sum(1 for m in moves if T_ADD[CLEAR] in m[1:] or T_REMOVE[CLEAR] in m[1:])
    assert seen_clear > 0 and seen_played > 0
    assert seen_read > 2 * seen_played  # most turns are read from their tokens
