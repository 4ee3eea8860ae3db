"""`FieldShift.score_moves` (the search's hot spot, issue 21) gives exactly the values of the
core default `default_score_moves` (clone, apply, evaluate) for every legal command: the search
then chooses as it would without the fast path, so it loses no strength."""

from __future__ import annotations

import random

import pytest

from boardct.core.game import default_score_moves
from boardct.core.registry import get
from boardct.games.fieldshift import game as fsgame

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
