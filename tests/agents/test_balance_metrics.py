"""The balance study's metrics (after the Ludii project's), from known games."""

import pytest

from boardct.arena.ratings import score_interval
from boardct.arena.report import balance_metrics, decided_share
from boardct.arena.runner import GameResult
from boardct.core import registry
from boardct.core.records import record_of


def _result(index: int, returns, winners, reason: str, length: int, record=None,
            ending: str = "other") -> GameResult:
    return GameResult(index, "fieldshift", "lstd", ["a", "a"], index, list(returns),
                      list(winners), reason, length, 0.0, record or {}, ending)


def _fieldshift_game(*commands: str) -> GameResult:
    """A FieldShift game played from the start by commands, as the arena would report it."""
    game = registry.get("fieldshift")
    state = game.new(seed=0, names=("A", "B"), violations="reject")
    for text in commands:
        p = state.to_move
        state.apply(state.parse(text, p), p)
    out = state.outcome
    assert out is not None
    return _result(0, out.returns, out.winners, out.reason, len(commands),
                   record_of(state).to_dict(), out.kind.value)


def test_decided_share_is_the_part_of_the_game_after_the_winner_passed_every_loser_value():
    # The loser's best is 0.2; the winner first passes it at the third of four positions.
    assert decided_share([0.0, 0.1, 0.3, 0.5], [[0.0, 0.2, -0.3, -0.5]]) == 0.5


def test_decided_share_is_one_when_decided_from_the_start_and_zero_when_never():
    assert decided_share([0.4, 0.3], [[-0.4, 0.1]]) == 1.0
    assert decided_share([0.0, 0.1], [[0.0, 0.3]]) == 0.0


def test_decided_share_needs_no_scale_for_the_evaluation():
    """A material share that never reaches +0.5 still tells an early decision from a late one
    (a fixed +0.5 threshold called every FieldShift game undecided)."""
    early = decided_share([0.0, 0.06, 0.07, 0.08], [[0.0, -0.06, -0.07, -0.08]])
    late = decided_share([0.0, 0.0, 0.0, 0.08], [[0.0, 0.0, 0.0, -0.08]])
    assert early == 0.75 and late == 0.25


def test_a_winner_ahead_since_its_hit_decided_the_game_in_its_last_quarter():
    # +0 and -0 meet on the mountains, +0 hits -0, Player 2 concedes: Player 1 led only in
    # the position before the last of the four commands.
    result = _fieldshift_game("24", "25", "30", "09")
    assert result.winners == [0]
    assert balance_metrics([result])["decisiveness"] == 0.25


def test_a_winner_who_was_behind_all_game_decided_nothing():
    # Player 1 hits first and then concedes: the winner never passed the loser's lead.
    result = _fieldshift_game("24", "25", "30", "26", "09")
    assert result.winners == [1]
    assert balance_metrics([result])["decisiveness"] == 0.0


def test_metrics_of_a_set_of_games():
    """The first seat wins two (one of them decided in its last quarter), the second seat
    one (a concession on the first command), and one game is drawn at the turn limit."""
    games = [_fieldshift_game("24", "25", "30", "09"),
             _fieldshift_game("09"),
             _fieldshift_game("24", "09"),
             _result(3, (0.5, 0.5), [], "turn limit", 300, ending="turn_limit")]
    assert [g.winners for g in games] == [[0], [1], [0], []]
    m = balance_metrics(games)
    assert m["games"] == 4
    assert m["advantage"] == pytest.approx(0.625)  # (1 + 0 + 1 + 0.5) / 4
    assert m["balance"] == pytest.approx(0.75)  # 1 - |0.625 - 0.375|
    assert m["drawishness"] == 0.25 and m["completion"] == 0.75
    assert m["duration"] == pytest.approx(76.75)  # (4 + 1 + 2 + 300) / 4
    assert m["decisiveness"] == pytest.approx(0.0833)  # (0.25 + 0 + 0) / 3 decided games
    assert m["advantage_interval"] == [pytest.approx(x, abs=1e-4)
                                       for x in score_interval([1.0, 0.0, 1.0, 0.5])]


def test_no_games_give_zero_metrics_and_an_interval_that_says_nothing():
    m = balance_metrics([])
    assert m.pop("advantage_interval") == [0.0, 1.0]
    assert m == {"games": 0, "advantage": 0.0, "balance": 0.0, "drawishness": 0.0,
                 "completion": 0.0, "duration": 0.0, "decisiveness": 0.0}


def test_score_interval_is_wilsons():
    """Checked against the textbook values: 8 of 10 wins gives 0.490 .. 0.943; all of 20
    wins still leaves room below 1; even results centre on one half."""
    low, high = score_interval([1.0] * 8 + [0.0] * 2)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    low, high = score_interval([1.0] * 20)
    assert high == 1.0 and round(low, 3) == 0.839
    low, high = score_interval([0.5] * 50 + [1.0] * 25 + [0.0] * 25)
    assert low == pytest.approx(1 - high) and high < 0.6
    assert score_interval([]) == (0.0, 1.0)


def test_advantage_interval_holds_the_advantage():
    games = [_fieldshift_game("24", "09"), _fieldshift_game("09")]
    m = balance_metrics(games)
    low, high = m["advantage_interval"]
    assert m["advantage"] == 0.5 and low < 0.5 < high


def test_completion_counts_turn_limits_by_their_kind_whatever_a_game_calls_them():
    """A game whose own words for the turn limit carry figures ("turn limit; ratings A 0.55,
    B 0.73") is counted by its ending's kind, not by its text."""
    games = [_result(0, (0.5, 0.5), [], "turn limit; ratings A 0.55, B 0.55", 20,
                     ending="turn_limit"),
             _result(1, (0.5, 0.5), [], "both eliminated", 12, ending="elimination")]
    assert balance_metrics(games)["completion"] == 0.5
